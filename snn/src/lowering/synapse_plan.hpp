#pragma once
// The lowering's synapse plan (docs/engine.md, "The lowering"): for each part of the targets an
// engine builds tables for (a CPU thread's neurons, a rank's, a GPU's), the row sizes and shape
// of every synapse table; the fixed-point scale of every (target population, receptor); and the
// delays in steps that size the ring and the epoch. Every engine builds its tables from this
// plan, so none re-derives a scale or a delay: they round alike and their sums are the same bits.
//
// Tables are keyed per (source, target) population pair, zero-delay projections apart: key
// (zero-delay ? P·P : 0) + source·P + target. Convolutions and max-pool gates keep no table
// (they store a kernel or a window rule); their delays are planned per projection.

#include <volley/snn/network.hpp>
#include <volley/snn/simulation.hpp>

#include <cstdint>
#include <functional>
#include <limits>
#include <vector>

namespace volley::snn {
class distributed_context;
}

namespace volley::snn::detail {

/// What a table's synapses have in common, found while counting them.
struct synapse_table_shape {
    bool uniform = true;          ///< one receptor, one delay and one weight for all
    bool one_route = true;        ///< one receptor and one delay for all (weights may differ)
    std::uint8_t receptor = 0;    ///< the receptor when uniform
    std::uint32_t delay = 0;      ///< [steps] the delay when uniform; 0 before the first synapse
    double weight = 0;            ///< [mV] the weight when uniform
    std::uint32_t max_delay = 1;  ///< [steps]
    std::uint32_t min_delay = std::numeric_limits<std::uint32_t>::max();  ///< [steps]; max() before the first synapse

    /// Folds one synapse into the shape.
    void add(std::uint8_t r, std::uint32_t d, double w) {
        if (delay == 0) {
            receptor = r;
            delay = d;
            weight = w;
        } else if (r != receptor || d != delay) {
            uniform = one_route = false;
        } else if (w != weight) {
            uniform = false;
        }
        if (d > max_delay) max_delay = d;
        if (d < min_delay) min_delay = d;
    }
};

/// One table of one part: the synapse count of each source neuron's row and the shape. Empty
/// row_sizes: no synapse (and no table).
struct table_plan {
    std::vector<std::uint32_t> row_sizes;
    synapse_table_shape shape;
};

struct synapse_plan {
    std::vector<std::vector<table_plan>> tables;  ///< [part][table key] (2·P·P keys)
    std::vector<double> to_fixed;                 ///< [target · 2 + receptor]: 2^f, weight -> fixed point
    std::vector<double> scale;                    ///< [target · 2 + receptor]: 2^-f, fixed point -> weight
    std::vector<std::uint32_t> structured_delay;  ///< [projection]: a convolution's or gate's delay [steps]; else 0
    /// [steps] over the synapses onto the parts' targets: the longest delay (0 when all are
    /// zero-delay) and the shortest but zero (max() when none).
    std::uint32_t max_delay = 0;
    std::uint32_t min_delay = std::numeric_limits<std::uint32_t>::max();
};

/// The key of projection q's table among P populations.
std::size_t table_key(const projection& q, std::size_t populations);

/// True for the connectors that keep no synapse table (convolution, max_pool_gate).
bool is_structured(const connector& rule);

/// Runs body(part) for every part in [0, parts), possibly in parallel; rethrows the exception
/// of the lowest part that throws.
using part_runner = void (*)(int parts, const std::function<void(int)>& body);

/// The plan for the parts whose targets are the global neurons [bounds[k], bounds[k + 1]).
/// Each (target population, receptor)'s exponent is the smallest over `dist`'s ranks (a
/// collective, in the same order on every rank): from the largest |weight| of its table
/// synapses, convolution kernels, gates and plastic weight bounds. Throws invalid_parameter for
/// a delay that rounds below one step, naming the projection.
synapse_plan plan_synapses(const network& net, const simulation_options& options,
                           const std::vector<std::uint32_t>& bounds, const distributed_context& dist,
                           part_runner run);

}  // namespace volley::snn::detail
