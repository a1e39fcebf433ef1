// pz::AtomicRef on the __atomic builtins (pz/support/atomic_ref.hpp), the
// path WebAssembly builds take (Emscripten's libc++ has no
// std::atomic_ref): forced here with PZ_ATOMIC_REF_BUILTINS so the native
// build tests it too. Each operation's result, and nibble updates from
// several threads at once as the table builders make them.
#define PZ_ATOMIC_REF_BUILTINS
#include "pz/support/atomic_ref.hpp"

#include <catch2/catch.hpp>

#include <cstdint>
#include <thread>
#include <type_traits>
#include <vector>

static_assert(!std::is_same_v<pz::AtomicRef<uint64_t>, std::atomic_ref<uint64_t>>,
              "PZ_ATOMIC_REF_BUILTINS selects the builtins");

TEST_CASE("AtomicRef builtins: each operation", "[atomic_ref]") {
    uint64_t word = 0xF0F0;
    pz::AtomicRef<uint64_t> ref(word);
    CHECK(ref.load(std::memory_order_relaxed) == 0xF0F0);
    ref.store(0xFF00, std::memory_order_relaxed);
    CHECK(word == 0xFF00);
    CHECK(ref.fetch_and(0x0FF0, std::memory_order_relaxed) == 0xFF00);
    CHECK(word == 0x0F00);
    CHECK(ref.fetch_or(0x000F) == 0x0F00);
    CHECK(word == 0x0F0F);
    uint64_t expected = 1;
    CHECK_FALSE(ref.compare_exchange_weak(expected, 7, std::memory_order_relaxed));
    CHECK(expected == 0x0F0F);  // a failed exchange reports what is there
    while (!ref.compare_exchange_weak(expected, 7, std::memory_order_acq_rel)) {
    }
    CHECK(word == 7);
    uint8_t byte = 3;
    pz::AtomicRef<uint8_t>(byte).store(200, std::memory_order_relaxed);
    CHECK(byte == 200);
}

TEST_CASE("AtomicRef builtins: nibbles lowered from several threads", "[atomic_ref][threads]") {
    // Each thread lowers its own nibbles of shared words to its value by
    // compare-exchange (as sym_classes and the coset tables do): no update is lost.
    std::vector<uint64_t> words(64, ~uint64_t{0});
    const int threads = 4;
    std::vector<std::thread> pool;
    for (int t = 0; t < threads; ++t)
        pool.emplace_back([&, t] {
            for (int round = 0; round < 2000; ++round)
                for (size_t i = static_cast<size_t>(t); i < words.size() * 16; i += threads) {
                    pz::AtomicRef<uint64_t> w(words[i / 16]);
                    const unsigned shift = (i % 16) * 4;
                    uint64_t old = w.load(std::memory_order_relaxed);
                    const uint64_t want = static_cast<uint64_t>(t + 1);
                    while ((old >> shift & 15) > want &&
                           !w.compare_exchange_weak(old, (old & ~(uint64_t{15} << shift)) | want << shift,
                                                    std::memory_order_relaxed)) {
                    }
                }
        });
    for (auto& th : pool) th.join();
    for (size_t i = 0; i < words.size() * 16; ++i) CHECK((words[i / 16] >> (i % 16) * 4 & 15) == i % threads + 1);
}
