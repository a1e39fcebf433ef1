// Building and starting a generated enumerator (runtime pz/enumerate/), for
// the back ends' pzc enumerate (docs/distributed.md).
#pragma once

#include <string>

#include "compiler/driver/backend.hpp"

namespace pz::driver {

// Compiles `source` (a main() over pz/enumerate/enumerate_main.hpp) through
// the binary cache, with MPI when the request says --mpi, and runs it in
// pzc's place (exec: under mpirun each rank becomes an enumerator) with the
// request's options. `space` names the space in the output; `expect`, when
// not empty, is the number of states the analysis predicts (decimal; a
// count that does not fit 64 bits is not passed). Returns only on an error,
// with its exit code.
int runEnumerator(const std::string& source, const std::string& stem, const EnumerateRequest& request,
                  const std::string& space, const std::string& expect);

}  // namespace pz::driver
