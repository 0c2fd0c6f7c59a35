#pragma once
// The lowering's domain decomposition (docs/engine.md, "Epochs and ranks"): which neurons each
// rank of a distributed context owns.

#include <volley/snn/network.hpp>

#include <cstdint>
#include <vector>

namespace volley::snn::detail {

/// Rank r owns the global neuron ids [bounds[r], bounds[r + 1]) (ranks + 1 entries, from 0 to
/// the neuron count). Each cut lies as near as it can to an equal share of the neurons that
/// integrate, spike sources not counted (a Poisson drive of one source per neuron, as in
/// hpc_benchmark and the microcircuit, would otherwise fill whole ranks), but never inside a
/// compound unit (update_order.hpp): a population joined to another by zero-delay projections
/// is never cut, nor is the range of population indices a unit spans. Ranks may own nothing.
/// The result depends only on the network and `ranks`, so every rank computes the same.
std::vector<std::uint32_t> rank_bounds(const network& net, int ranks);

}  // namespace volley::snn::detail
