// The 15-puzzle solver with the 7-8 tables + reflection, as the code
// generator's output will be: the traits and a main() calling tilesMain.
#include "pz/blocks/tiles_main.hpp"
#include "tiles_fixtures.hpp"

int main(int argc, char** argv) { return pz::blocks::tilesMain<tiles_fixtures::Fifteen78>(argc, argv); }
