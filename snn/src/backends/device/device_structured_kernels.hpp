#pragma once
// The structured connectors on the device (connectors.hpp): a convolution with one shared
// kernel and the gated max-pool, as __host__ __device__ functors with one thread per target
// neuron. Each target sums its own input, so no atomics on the cells; the integers are those
// the CPU's conv_projection and gate_projection add, so the rasters are the CPU's.

#include <cmath>
#include <cstdint>

#include "backends/device/device_atomics.hpp"
#include "backends/max_pool_leader.hpp"
#include "backends/host_device.hpp"

namespace volley::snn::detail::device_kernels {

/// The geometry of a convolution or gate (device_network.hpp: device_structured).
struct structured_geometry {
    std::uint32_t in_c, in_h, in_w, out_c, out_h, out_w, k_h, k_w, stride_h, stride_w, pad_top, pad_left, dil_h, dil_w,
        groups;
};

/// Where a target's input lands: ring slot (s + delay) of its cell for `receptor`.
struct structured_sink {
    std::int64_t* cells;     ///< the target's ring: [slot][neuron][receptor]
    std::uint32_t* touched;  ///< the target's ring: [slot][neuron]
    unsigned long long* events;
    std::int64_t s;
    std::uint32_t slots, n_target, receptor, delay;

    VOLLEY_HD void add(std::uint32_t j, std::int64_t value, unsigned long long hits) const {
        const auto slot = static_cast<std::uint64_t>((s + delay) % slots);
        const std::uint64_t at = slot * n_target + j;
        cells[2 * at + receptor] += value;
        touched[at] = 1;
        atomic_add<unsigned long long>(events, hits);
    }
};

/// Target (o, y, x) of a convolution sums kernel · count over its taps whose source fired this
/// step (an analog source: round(kernel · value) per tap, conv_projection.cpp); one event per
/// tap and spike, as the CPU counts a spike's fanout.
struct deliver_convolution {
    structured_geometry g;
    const std::int64_t* kernel;         ///< OIHW, fixed point (conv_fixed_kernel)
    const std::uint32_t* source_fired;  ///< [source neuron]: spikes in step s
    const double* values;               ///< an analog source's values of the step, or null
    structured_sink out;

    VOLLEY_HD void operator()(std::uint32_t j) const {
        const std::uint32_t hw = g.out_h * g.out_w, o = j / hw, y = j % hw / g.out_w, x = j % g.out_w;
        const std::uint32_t cg = g.in_c / g.groups, og = g.out_c / g.groups, first = o / og * cg;
        std::int64_t acc = 0;
        unsigned long long hits = 0;
        for (std::uint32_t ci = 0; ci < cg; ++ci)
            for (std::uint32_t ky = 0; ky < g.k_h; ++ky) {
                const std::int64_t iy = std::int64_t{y} * g.stride_h - g.pad_top + std::int64_t{ky} * g.dil_h;
                if (iy < 0 || iy >= g.in_h) continue;
                for (std::uint32_t kx = 0; kx < g.k_w; ++kx) {
                    const std::int64_t ix = std::int64_t{x} * g.stride_w - g.pad_left + std::int64_t{kx} * g.dil_w;
                    if (ix < 0 || ix >= g.in_w) continue;
                    const auto src = static_cast<std::uint32_t>((std::int64_t{first + ci} * g.in_h + iy) * g.in_w + ix);
                    const std::uint32_t c = source_fired[src];
                    if (c == 0) continue;
                    const std::int64_t w = kernel[((std::uint64_t{o} * cg + ci) * g.k_h + ky) * g.k_w + kx];
                    acc += values ? ::llround(static_cast<double>(w) * values[src]) : w * c;
                    hits += c;
                }
            }
        if (hits > 0) out.add(j, acc, hits);
    }
};

/// A gate's spike counts so far, this step's included (gate_projection::count).
struct count_gate_spikes {
    const std::uint32_t* source_fired;
    std::uint32_t* count;

    VOLLEY_HD void operator()(std::uint32_t i) const { count[i] += source_fired[i]; }
};

/// Window (c, y, x) passes one spike of the gate's weight when its leader (the source with the
/// highest count so far, the first in row-major order on ties) fired this step
/// (gate_projection::deliver); one event per spike passed.
struct deliver_gate {
    structured_geometry g;
    std::int64_t weight;
    const std::uint32_t* source_fired;
    const std::uint32_t* count;
    structured_sink out;

    VOLLEY_HD void operator()(std::uint32_t j) const {
        const std::uint32_t hw = g.out_h * g.out_w, c = j / hw, oy = j % hw / g.out_w, ox = j % g.out_w;
        const pool_window_geometry w{g.in_h, g.in_w, g.k_h, g.k_w, g.stride_h, g.stride_w, g.pad_top, g.pad_left};
        std::uint32_t leader = 0;
        if (max_pool_leader(count, w, c, oy, ox, leader) && source_fired[leader] > 0) out.add(j, weight, 1);
    }
};

}  // namespace volley::snn::detail::device_kernels
