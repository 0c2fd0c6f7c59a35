#pragma once
// The leader of a gated max-pool window (the max_pool_gate connector, connectors.hpp), one rule
// for the CPU's gate_projection and the device backends' deliver_gate: the source neuron of
// the window with the highest spike count so far, the first in row-major order on ties.

#include <cstdint>

#include "backends/host_device.hpp"

namespace volley::snn::detail {

/// A gate's window geometry: the source map (rows, columns), the pool, stride and padding.
struct pool_window_geometry {
    std::uint32_t in_h, in_w, pool_h, pool_w, stride_h, stride_w, pad_top, pad_left;
};

/// The leader of window (oy, ox) of channel c, given every source neuron's count (CHW); false
/// when the window holds no source (it lies in the padding).
VOLLEY_HD inline bool max_pool_leader(const std::uint32_t* count, const pool_window_geometry& g, std::uint32_t c,
                                      std::uint32_t oy, std::uint32_t ox, std::uint32_t& leader) {
    const std::int64_t y0 = std::int64_t{oy} * g.stride_h - g.pad_top, x0 = std::int64_t{ox} * g.stride_w - g.pad_left;
    const std::int64_t y_lo = y0 < 0 ? 0 : y0, x_lo = x0 < 0 ? 0 : x0;
    const std::int64_t y_hi = y0 + g.pool_h < g.in_h ? y0 + g.pool_h : g.in_h;
    const std::int64_t x_hi = x0 + g.pool_w < g.in_w ? x0 + g.pool_w : g.in_w;
    std::uint32_t best_count = 0;
    bool any = false;
    for (std::int64_t y = y_lo; y < y_hi; ++y)
        for (std::int64_t x = x_lo; x < x_hi; ++x) {
            const auto i = static_cast<std::uint32_t>((std::int64_t{c} * g.in_h + y) * g.in_w + x);
            if (!any || count[i] > best_count) {  // strictly greater: the first keeps a tie
                leader = i;
                best_count = count[i];
                any = true;
            }
        }
    return any;
}

}  // namespace volley::snn::detail
