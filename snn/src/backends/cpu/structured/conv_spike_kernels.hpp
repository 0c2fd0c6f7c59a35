#pragma once
// The hot loop of a convolutional projection (conv_projection.hpp): one spike (or one group of
// spikes with the same slices, times its count) adds its kernel slices at every output position
// it reaches. Compiled for AVX-512, AVX2 and the baseline and chosen at load time (GCC function
// multi-versioning); integer additions round nowhere, so every version gives the same sums.

#include <cstddef>
#include <cstdint>

#include "backends/cpu/structured/conv_projection.hpp"

namespace volley::snn::detail {

/// Adds the slices of `count` spikes (source indices) through the 64-bit view; returns the events.
std::uint64_t conv_spike_kernel(const conv_projection::view<std::int64_t>& v, const std::uint32_t* spikes,
                                std::size_t count);
/// The same through the 32-bit view.
std::uint64_t conv_spike_kernel(const conv_projection::view<std::int32_t>& v, const std::uint32_t* spikes,
                                std::size_t count);
/// Adds the slices of `count` groups, group k times mults[k], through the 32-bit view.
void conv_group_kernel(const conv_projection::view<std::int32_t>& v, const std::uint32_t* groups,
                       const std::int32_t* mults, std::size_t count);

}  // namespace volley::snn::detail
