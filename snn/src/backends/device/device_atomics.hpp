#pragma once
// Integer atomics for the device kernels, one spelling for both builds: libcu++'s
// cuda::atomic_ref under nvcc (host and device), std::atomic_ref for the host compiler
// (Thrust's OpenMP system). Integer addition is associative, so the sums do not depend on the
// order in which threads or blocks add them: the rasters stay bit-identical to the CPU's.

#include <cstdint>

#include "backends/host_device.hpp"

#if defined(__CUDACC__)
#include <cuda/atomic>
#else
#include <atomic>
#endif

namespace volley::snn::detail {

template <class T>
VOLLEY_HD inline void atomic_add(T* p, T x) {
#if defined(__CUDACC__)
    cuda::atomic_ref<T, cuda::thread_scope_device>(*p).fetch_add(x, cuda::std::memory_order_relaxed);
#else
    std::atomic_ref<T>(*p).fetch_add(x, std::memory_order_relaxed);
#endif
}

/// Stores 1 into a flag that several threads may set at once.
VOLLEY_HD inline void atomic_flag_set(std::uint32_t* p) {
#if defined(__CUDACC__)
    cuda::atomic_ref<std::uint32_t, cuda::thread_scope_device>(*p).store(1u, cuda::std::memory_order_relaxed);
#else
    std::atomic_ref<std::uint32_t>(*p).store(1u, std::memory_order_relaxed);
#endif
}

}  // namespace volley::snn::detail
