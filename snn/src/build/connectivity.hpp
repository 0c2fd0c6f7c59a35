#pragma once
// Expanding a projection's connector into synapses, for a range of target neurons.
// Every target draws from its own streams, keyed by (seed, projection, target): the synapses
// of a target are the same whichever thread or rank builds them.

#include <cstdint>
#include <vector>

#include <volley/snn/network.hpp>

namespace volley::snn::detail {

/// Synapses as parallel arrays, grouped by target in ascending order.
struct synapse_list {
    std::vector<std::uint32_t> source;  ///< local index in the source population
    std::vector<std::uint32_t> target;  ///< local index in the target population
    std::vector<double> weight;         ///< [mV]
    std::vector<std::int32_t> delay;    ///< [steps], >= 1
    std::size_t size() const noexcept { return source.size(); }
};

/// Appends the synapses of projection `index` whose targets are in [target_begin, target_end).
/// Throws invalid_parameter for a delay that rounds below one step.
void expand_projection(const network& net, std::size_t index, std::uint64_t seed, double dt_ms,
                       std::uint32_t target_begin, std::uint32_t target_end, synapse_list& out);

/// Rounds a delay [ms] to steps; throws invalid_parameter naming `object` if below one step.
std::int32_t delay_steps(double delay_ms, double dt_ms, const std::string& object);

}  // namespace volley::snn::detail
