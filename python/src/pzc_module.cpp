// _pzc: the native half of the Python module pzc (python/pzc/__init__.py is
// the other). It loads solver plugins (`pzc build FILE --shared`,
// pz/plugin.hpp) with dlopen and wraps their pz::api::Solver.
//
// Positions cross to Python as plain values: a permutation puzzle's state
// numbers (a list of ints), a level's name, or a level with moves made as
// the pair (name, numbers). Every value
// coming in goes through the solver's own parser, so its errors are the
// command line's. Failures raise _pzc.Error (.code: pz::api::ErrorCode's
// number, .kind: its name). prepare() and solve() release the GIL, and
// a Ctrl-C in the main thread cancels them (note [interrupting a solve]).
#include <dlfcn.h>
#include <pybind11/pybind11.h>
#include <pybind11/stl.h>

#include <chrono>
#include <future>
#include <memory>
#include <string>
#include <thread>
#include <vector>

#include "pz/api/solver.hpp"
#include "pz/plugin.hpp"

namespace py = pybind11;
using namespace pz;

namespace {

// A pz::api::Error on its way to Python.
struct SolverError {
    api::Error error;
};

[[noreturn]] void fail(api::ErrorCode code, std::string message) { throw SolverError{{code, std::move(message)}}; }
[[noreturn]] void fail(const api::Error& e) { throw SolverError{e}; }

template <class V>
V take(api::Result<V> r) {
    if (!r) fail(r.error());
    return std::move(r).value();
}

// A loaded plugin; never unloaded (solvers and their threads may outlive
// any reference Python holds, and a dlclose'd plugin's code would vanish).
struct Plugin {
    std::string path;
    std::string puzzle;
    std::vector<std::string> solvers;  // the default first
    plugin::MakeSolverFn make = nullptr;
};

std::shared_ptr<Plugin> loadPlugin(const std::string& path) {
    void* handle = ::dlopen(path.c_str(), RTLD_NOW | RTLD_LOCAL);
    if (!handle) fail(api::ErrorCode::BadInput, std::string("cannot load solver plugin: ") + ::dlerror());
    auto abi = reinterpret_cast<plugin::AbiFn>(::dlsym(handle, plugin::kAbiSymbol));
    auto list = reinterpret_cast<plugin::SolversFn>(::dlsym(handle, plugin::kSolversSymbol));
    auto make = reinterpret_cast<plugin::MakeSolverFn>(::dlsym(handle, plugin::kMakeSolverSymbol));
    if (!abi || !list || !make) fail(api::ErrorCode::BadInput, path + " is not a pzc solver plugin (pzc build --shared)");
    if (abi() != plugin::abiFingerprint())
        fail(api::ErrorCode::BadInput, path + " was built against other pz/api headers than this module; "
                                              "rebuild the module and pzc from the same sources");
    auto p = std::make_shared<Plugin>();
    p->path = path;
    p->make = make;
    std::string text = list(), line;
    for (char c : text) {
        if (c != '\n') {
            line += c;
            continue;
        }
        if (p->puzzle.empty()) p->puzzle = line;
        else p->solvers.push_back(line);
        line.clear();
    }
    return p;
}

// note [interrupting a solve]
// A solve or prepare may take minutes. It runs on a worker thread while the
// calling thread, GIL released, waits in slices of 50 ms and between them
// takes the GIL to run Python's signal handlers: a KeyboardInterrupt
// cancels the solver's token, waits for the worker to stop, and is raised.
// Off the main thread Python runs no handlers, and the call is made directly.
unsigned long mainThreadId = 0;  // Python's main thread (set at import)

template <class F>
auto interruptible(api::CancelToken& token, F&& work) -> decltype(work()) {
    if (PyThread_get_thread_ident() != mainThreadId) {
        py::gil_scoped_release release;
        return work();
    }
    auto job = std::async(std::launch::async, std::forward<F>(work));
    for (;;) {
        {
            py::gil_scoped_release release;
            if (job.wait_for(std::chrono::milliseconds(50)) == std::future_status::ready) return job.get();
        }
        if (PyErr_CheckSignals() != 0) {
            token.cancel();
            {
                py::gil_scoped_release release;
                job.wait();
            }
            token.reset();
            throw py::error_already_set();
        }
    }
}

// A level alone is its name; a level with moves made (grid-actor: the
// directions pressed) or pieces moved (sliding-block boards: the anchors)
// is the pair (name, numbers); any other position is its numbers.
py::object fromPosition(const api::Position& p) {
    if (!p.level.empty() && p.numbers.empty()) return py::str(p.level);
    if (!p.level.empty()) return py::make_tuple(p.level, p.numbers);
    return py::cast(p.numbers);
}

api::Limits makeLimits(int maxLength, uint64_t maxNodes, double maxSeconds, int threads, const std::string& goal) {
    api::Limits limits;
    if (goal == "optimal") limits.goal = api::Limits::Goal::Optimal;
    else if (goal == "first") limits.goal = api::Limits::Goal::FirstSolution;
    else if (!goal.empty() && goal != "default")
        fail(api::ErrorCode::BadInput, "goal '" + goal + "': give 'default', 'first' or 'optimal'");
    limits.maxLength = maxLength;
    limits.maxNodes = maxNodes;
    limits.maxSeconds = maxSeconds;
    limits.threads = threads;
    return limits;
}

class PySolver {
public:
    PySolver(std::shared_ptr<Plugin> plugin, const std::string& solver, api::SolverOptions options)
        : plugin_(std::move(plugin)), cancel_(std::make_shared<api::CancelToken>()) {
        options.cancel = cancel_;
        char error[1024] = "";
        solver_.reset(plugin_->make(solver.c_str(), &options, error, sizeof error));
        if (!solver_) fail(api::ErrorCode::BadInput, error);
    }

    const api::PuzzleInfo& info() const { return solver_->info(); }
    bool prepared() const { return solver_->prepared(); }

    void prepare() {
        if (solver_->prepared()) return;
        api::Status st = interruptible(*cancel_, [&] { return solver_->prepare(); });
        if (!st) fail(st.error());
    }

    // A position from Python: a level name (puzzles with levels), state
    // text or numbers, or what parse_scramble and friends return (a
    // (level, numbers) pair: the solver checks the numbers).
    api::Position position(const py::handle& value) const {
        if (py::isinstance<py::str>(value)) {
            const auto text = value.cast<std::string>();
            return take(info().levels.empty() ? solver_->parseState(text) : solver_->parseLevel(text));
        }
        if (py::isinstance<py::tuple>(value) && py::len(value) == 2 && py::isinstance<py::str>(value[py::int_(0)])) {
            api::Position p{info().name, {}, value[py::int_(0)].cast<std::string>()};
            for (const auto& n : value[py::int_(1)]) p.numbers.push_back(n.cast<int>());
            return p;
        }
        std::string text;
        for (const auto& n : value) {
            if (!text.empty()) text += ' ';
            text += std::to_string(n.cast<long long>());
        }
        return take(solver_->parseState(text));
    }

    py::object parseScramble(const std::string& moves) const { return fromPosition(take(solver_->parseScramble(moves))); }
    py::object parseState(const py::handle& value) const { return fromPosition(position(value)); }
    py::object solved() const { return fromPosition(solver_->solved()); }
    bool isSolved(const py::handle& p) const { return take(solver_->isSolved(position(p))); }
    py::object apply(const py::handle& p, const std::string& moves) const {
        return fromPosition(take(solver_->apply(position(p), moves)));
    }
    py::object randomState(uint64_t seed) const { return fromPosition(take(solver_->randomState(seed))); }
    py::object inverse(const py::handle& p) const { return fromPosition(take(solver_->inverse(position(p)))); }
    std::string format(const py::handle& p) const { return solver_->format(position(p)); }

    api::Solution solve(const py::handle& p, const api::Limits& limits) {
        const api::Position pos = position(p);
        prepare();
        return take(interruptible(*cancel_, [&] { return solver_->solve(pos, limits); }));
    }

    // Every position solved, `threads` at a time; the first failure raises,
    // its .index naming the position.
    std::vector<api::Solution> solveAll(const py::iterable& positions, const api::Limits& limits, int threads) {
        std::vector<api::Position> all;
        for (const auto& p : positions) all.push_back(position(p));
        prepare();
        auto results = interruptible(*cancel_, [&] { return solver_->solveAll(all, limits, threads); });
        std::vector<api::Solution> out;
        out.reserve(results.size());
        for (size_t i = 0; i < results.size(); ++i) {
            if (!results[i]) {
                SolverError e{results[i].error()};
                e.error.message = "position " + std::to_string(i) + ": " + e.error.message;
                throw e;
            }
            out.push_back(std::move(results[i]).value());
        }
        return out;
    }

private:
    std::shared_ptr<Plugin> plugin_;  // outlives the solver it made
    std::shared_ptr<api::CancelToken> cancel_;
    std::unique_ptr<api::Solver> solver_;
};

py::dict infoDict(const api::PuzzleInfo& info) {
    py::dict d;
    d["name"] = info.name;
    d["family"] = info.family;
    d["moves"] = info.moves;
    d["levels"] = info.levels;
    py::list orbits;
    for (const auto& o : info.orbits) {
        py::dict od;
        od["name"] = o.name;
        od["size"] = o.size;
        od["orientations"] = o.orientations;
        orbits.append(od);
    }
    d["orbits"] = orbits;
    d["solver"] = py::dict(py::arg("name") = info.solver.name, py::arg("kind") = info.solver.kind);
    py::list solvers;
    for (const auto& s : info.solvers) solvers.append(py::dict(py::arg("name") = s.name, py::arg("kind") = s.kind));
    d["solvers"] = solvers;
    return d;
}

std::string solutionRepr(const api::Solution& s) {
    return "Solution(\"" + s.text() + "\", length=" + std::to_string(s.length) +
           ", optimal=" + (s.optimal ? "True" : "False") + ")";
}

}  // namespace

PYBIND11_MODULE(_pzc, m) {
    m.doc() = "pzc's solver plugins (use the package pzc)";
    m.attr("ABI") = py::int_(plugin::abiFingerprint());
    mainThreadId = py::module_::import("threading").attr("main_thread")().attr("ident").cast<unsigned long>();
    static py::handle errorType = PyErr_NewExceptionWithDoc(
        "_pzc.Error", "A solver's error: .code (pz::api::ErrorCode's number), .kind (its name), the message as pzc prints it.",
        PyExc_RuntimeError, nullptr);
    m.attr("Error") = errorType;
    py::register_exception_translator([](std::exception_ptr p) {
        try {
            if (p) std::rethrow_exception(p);
        } catch (const SolverError& e) {
            py::object exc = errorType(e.error.message);
            exc.attr("code") = static_cast<int>(e.error.code);
            exc.attr("kind") = api::errorCodeName(e.error.code);
            PyErr_SetObject(errorType.ptr(), exc.ptr());
        }
    });

    py::class_<api::Solution>(m, "Solution")
        .def_property_readonly("moves", [](const api::Solution& s) { return s.names; })
        .def_readonly("indices", &api::Solution::moves)
        .def_readonly("length", &api::Solution::length)
        .def_readonly("optimal", &api::Solution::optimal)
        .def_readonly("phases", &api::Solution::phases)
        .def_readonly("nodes", &api::Solution::nodes)
        .def_readonly("seconds", &api::Solution::seconds)
        .def("__str__", &api::Solution::text)
        .def("__repr__", &solutionRepr)
        .def("__len__", [](const api::Solution& s) { return s.names.size(); });

    py::class_<Plugin, std::shared_ptr<Plugin>>(m, "Plugin")
        .def(py::init(&loadPlugin), py::arg("path"))
        .def_readonly("path", &Plugin::path)
        .def_readonly("puzzle", &Plugin::puzzle)
        .def_readonly("solvers", &Plugin::solvers);

    py::class_<PySolver>(m, "Solver")
        .def(py::init([](std::shared_ptr<Plugin> plugin, const std::string& solver, const std::string& tableDir,
                         uint64_t memory, int threads, bool verifyTables, bool cacheTables, bool sharedTables) {
                 api::SolverOptions o;
                 o.tableDir = tableDir;
                 o.memoryBytes = memory;
                 o.threads = threads;
                 o.verifyTables = verifyTables;
                 o.cacheTables = cacheTables;
                 o.sharedTables = sharedTables;
                 return new PySolver(std::move(plugin), solver, o);
             }),
             py::arg("plugin"), py::arg("solver") = "", py::arg("table_dir") = "", py::arg("memory") = 0,
             py::arg("threads") = 0, py::arg("verify_tables") = false, py::arg("cache_tables") = true,
             py::arg("shared_tables") = false)
        .def_property_readonly("info", [](const PySolver& s) { return infoDict(s.info()); })
        .def_property_readonly("prepared", &PySolver::prepared)
        .def("prepare", &PySolver::prepare)
        .def("parse_scramble", &PySolver::parseScramble, py::arg("moves"))
        .def("parse_state", &PySolver::parseState, py::arg("state"))
        .def("solved", &PySolver::solved)
        .def("is_solved", &PySolver::isSolved, py::arg("state"))
        .def("apply", &PySolver::apply, py::arg("state"), py::arg("moves"))
        .def("random_state", &PySolver::randomState, py::arg("seed"))
        .def("inverse", &PySolver::inverse, py::arg("state"))
        .def("format", &PySolver::format, py::arg("state"))
        .def(
            "solve",
            [](PySolver& s, const py::handle& p, int maxLength, uint64_t maxNodes, double maxSeconds, int threads,
               const std::string& goal) { return s.solve(p, makeLimits(maxLength, maxNodes, maxSeconds, threads, goal)); },
            py::arg("state"), py::arg("max_length") = -1, py::arg("max_nodes") = 0, py::arg("max_seconds") = 0.0,
            py::arg("threads") = 0, py::arg("goal") = "default")
        .def(
            "solve_all",
            [](PySolver& s, const py::iterable& states, int workers, int maxLength, uint64_t maxNodes,
               double maxSeconds, const std::string& goal) {
                return s.solveAll(states, makeLimits(maxLength, maxNodes, maxSeconds, 0, goal), workers);
            },
            py::arg("states"), py::arg("threads") = 0, py::arg("max_length") = -1, py::arg("max_nodes") = 0,
            py::arg("max_seconds") = 0.0, py::arg("goal") = "default");
}
