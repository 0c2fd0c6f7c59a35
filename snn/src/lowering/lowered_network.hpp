#pragma once
// The lowering (docs/engine.md, "The lowering"): a network, the simulation's options and the
// distributed context become the backend-neutral decisions every engine must agree on to give
// the same spikes: neuron numbering, the update order with zero-delay sources first (and so the
// compound units), each rank's domain and its parts (a CPU engine's threads; a GPU engine's
// blocks), the populations grouped by model family (the kernel each needs), which population
// pairs take direct input, the synapse plan (row sizes, fixed-
// point scales, delays), and the spike sources each rank draws for itself. Engines consume it;
// none re-derives any of it.

#include <volley/snn/network.hpp>
#include <volley/snn/simulation.hpp>

#include <cstdint>
#include <vector>

#include "lowering/model_family.hpp"
#include "lowering/replicated_sources.hpp"
#include "lowering/synapse_plan.hpp"
#include "lowering/update_order.hpp"

namespace volley::snn {
class distributed_context;
}

namespace volley::snn::detail {

struct lowered_network {
    std::vector<std::uint32_t> first;        ///< [population]: global id of its neuron 0; then the neuron count
    update_order order;                      ///< update order and zero-delay sources (update_order.hpp)
    std::vector<std::uint32_t> rank_bounds;  ///< rank r owns global ids [rank_bounds[r], rank_bounds[r + 1])
    std::vector<std::uint32_t> part_bounds;  ///< this rank's part k owns [part_bounds[k], part_bounds[k + 1])
    std::vector<std::uint8_t> direct;        ///< [source · P + target]: direct input (direct_inputs.hpp)
    std::vector<std::uint8_t> fed;           ///< [population]: some projection reaches it
    std::vector<std::uint8_t> inhibited;     ///< [population]: some projection reaches its receptor 1
    /// [family]: the populations whose model is of that family (model_family.hpp), in update
    /// order: the kernel kinds a backend builds, and a GPU engine's launches.
    std::vector<std::vector<std::uint32_t>> by_family;
    synapse_plan synapses;                   ///< the tables of the parts (synapse_plan.hpp)
    replicated_sources sources;              ///< spike sources each rank draws itself (replicated_sources.hpp)
};

/// Lowers `net` for rank dist.id() of dist.size(), its domain cut into `parts` near-equal parts.
/// Throws invalid_parameter for a cycle of zero-delay projections or a delay below one step,
/// naming the projection; a network of 2^32 - 1 neurons or more is refused the same way.
lowered_network lower(const network& net, const simulation_options& options, const distributed_context& dist,
                      int parts, part_runner run);

}  // namespace volley::snn::detail
