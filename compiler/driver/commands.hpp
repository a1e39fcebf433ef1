// The pzc subcommands. Each lives in its own cmd_<name>.cpp and receives the
// arguments after the subcommand name; the family-specific part of each is
// a back end's (note [back ends] in backend.hpp). Returns the process exit
// code: 0 success, 1 the input was rejected (diagnostics printed), 2 usage error.
#pragma once

#include <span>
#include <string>
#include <vector>

namespace pz::driver {

using Args = std::vector<std::string>;

struct Command {
    const char* name;
    const char* summary;
    int (*run)(const Args& args);
};

// Every subcommand, in the order `pzc --help` lists them (commands.cpp).
std::span<const Command> commands();

}  // namespace pz::driver
