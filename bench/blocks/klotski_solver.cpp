// A sliding-block solver the way a generated one looks: literal traits
// (runtime/tests/blocks_klotski_literal.hpp, Klotski with the slide
// metric) and main() calling the engine. Levels in the text form of note
// [blocks level text] on stdin or from a file:
//   build/bench/blocks/bench_blocks_klotski_solver --json --count levels.txt
#include "blocks_klotski_literal.hpp"
#include "pz/blocks/blocks_main.hpp"

int main(int argc, char** argv) { return pz::blocks::blocksMain<KlotskiLiteralTraits>(argc, argv); }
