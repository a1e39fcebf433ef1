// Klotski's traits as the code generator emits them (note [blocks traits]
// in pz/blocks/board.hpp): literal constexpr C arrays, no helper calls.
// Written by a script from the shapes; the tests check it against the
// placementsOf fixture (runtime/tests/blocks_fixtures.hpp) and bench/blocks
// builds a solver main() on it.
#pragma once

#include <cstdint>

#include "pz/blocks/board.hpp"

struct KlotskiLiteralTraits {
    static constexpr const char* kName = "klotski";
    static constexpr int kWidth = 4, kHeight = 5;
    static constexpr uint64_t kWalls = 0x0ULL;
    static constexpr pz::blocks::ExitSide kExitSide = pz::blocks::ExitSide::None;
    static constexpr int kExitOffset = 0;
    static constexpr pz::blocks::Metric kMetric = pz::blocks::Metric::Slide;
    static constexpr int kTypes = 4;
    static constexpr const char* kTypeNames[kTypes] = {"A", "E", "V", "S"};
    static constexpr pz::blocks::Axis kAxis[kTypes] = {pz::blocks::Axis::Any, pz::blocks::Axis::Any,
                                                       pz::blocks::Axis::Any, pz::blocks::Axis::Any};
    static constexpr uint64_t kPlacement[kTypes][64] = {
        {  // A
         0x33ULL, 0x66ULL, 0xccULL, 0, 0x330ULL, 0x660ULL, 0xcc0ULL, 0,
         0x3300ULL, 0x6600ULL, 0xcc00ULL, 0, 0x33000ULL, 0x66000ULL, 0xcc000ULL, 0,
         0, 0, 0, 0, 0, 0, 0, 0,
         0, 0, 0, 0, 0, 0, 0, 0,
         0, 0, 0, 0, 0, 0, 0, 0,
         0, 0, 0, 0, 0, 0, 0, 0,
         0, 0, 0, 0, 0, 0, 0, 0,
         0, 0, 0, 0, 0, 0, 0, 0,
        },
        {  // E
         0x3ULL, 0x6ULL, 0xcULL, 0, 0x30ULL, 0x60ULL, 0xc0ULL, 0,
         0x300ULL, 0x600ULL, 0xc00ULL, 0, 0x3000ULL, 0x6000ULL, 0xc000ULL, 0,
         0x30000ULL, 0x60000ULL, 0xc0000ULL, 0, 0, 0, 0, 0,
         0, 0, 0, 0, 0, 0, 0, 0,
         0, 0, 0, 0, 0, 0, 0, 0,
         0, 0, 0, 0, 0, 0, 0, 0,
         0, 0, 0, 0, 0, 0, 0, 0,
         0, 0, 0, 0, 0, 0, 0, 0,
        },
        {  // V
         0x11ULL, 0x22ULL, 0x44ULL, 0x88ULL, 0x110ULL, 0x220ULL, 0x440ULL, 0x880ULL,
         0x1100ULL, 0x2200ULL, 0x4400ULL, 0x8800ULL, 0x11000ULL, 0x22000ULL, 0x44000ULL, 0x88000ULL,
         0, 0, 0, 0, 0, 0, 0, 0,
         0, 0, 0, 0, 0, 0, 0, 0,
         0, 0, 0, 0, 0, 0, 0, 0,
         0, 0, 0, 0, 0, 0, 0, 0,
         0, 0, 0, 0, 0, 0, 0, 0,
         0, 0, 0, 0, 0, 0, 0, 0,
        },
        {  // S
         0x1ULL, 0x2ULL, 0x4ULL, 0x8ULL, 0x10ULL, 0x20ULL, 0x40ULL, 0x80ULL,
         0x100ULL, 0x200ULL, 0x400ULL, 0x800ULL, 0x1000ULL, 0x2000ULL, 0x4000ULL, 0x8000ULL,
         0x10000ULL, 0x20000ULL, 0x40000ULL, 0x80000ULL, 0, 0, 0, 0,
         0, 0, 0, 0, 0, 0, 0, 0,
         0, 0, 0, 0, 0, 0, 0, 0,
         0, 0, 0, 0, 0, 0, 0, 0,
         0, 0, 0, 0, 0, 0, 0, 0,
         0, 0, 0, 0, 0, 0, 0, 0,
        },
    };
    static constexpr pz::blocks::GoalKind kGoalKind = pz::blocks::GoalKind::Place;
    static constexpr uint64_t kGoalAnchors[kTypes] = {0x2000ULL, 0, 0, 0};
    static constexpr int kExitType = -1;
};
