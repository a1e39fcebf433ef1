#pragma once
// pz::AtomicRef<T>: std::atomic_ref where the standard library has it, else
// the same operations on the compiler's __atomic builtins.
//
// Why: Emscripten 3.1.6's libc++ (the WebAssembly target, `pzc build
// --target wasm`) has no std::atomic_ref, and the table builders update
// nibbles of shared words in place. The builtins are what libstdc++'s
// atomic_ref is made of; std::memory_order's values are the __ATOMIC_*
// constants in both libraries.
#include <atomic>
#include <version>

namespace pz {

// PZ_ATOMIC_REF_BUILTINS forces the builtins (runtime/tests/atomic_ref_test.cpp
// tests that path natively).
#if defined(__cpp_lib_atomic_ref) && !defined(PZ_ATOMIC_REF_BUILTINS)

template <class T>
using AtomicRef = std::atomic_ref<T>;

#else

template <class T>
class AtomicRef {
public:
    explicit AtomicRef(T& object) : p_(&object) {}

    T load(std::memory_order order = std::memory_order_seq_cst) const { return __atomic_load_n(p_, int(order)); }
    void store(T value, std::memory_order order = std::memory_order_seq_cst) const {
        __atomic_store_n(p_, value, int(order));
    }
    T fetch_and(T value, std::memory_order order = std::memory_order_seq_cst) const {
        return __atomic_fetch_and(p_, value, int(order));
    }
    T fetch_or(T value, std::memory_order order = std::memory_order_seq_cst) const {
        return __atomic_fetch_or(p_, value, int(order));
    }
    bool compare_exchange_weak(T& expected, T desired, std::memory_order order = std::memory_order_seq_cst) const {
        return __atomic_compare_exchange_n(p_, &expected, desired, true, int(order), int(failureOrder(order)));
    }
    bool compare_exchange_weak(T& expected, T desired, std::memory_order success, std::memory_order failure) const {
        return __atomic_compare_exchange_n(p_, &expected, desired, true, int(success), int(failure));
    }

private:
    // The failure order the standard derives from a single order.
    static std::memory_order failureOrder(std::memory_order order) {
        if (order == std::memory_order_acq_rel) return std::memory_order_acquire;
        if (order == std::memory_order_release) return std::memory_order_relaxed;
        return order;
    }
    T* p_;
};

#endif

}  // namespace pz
