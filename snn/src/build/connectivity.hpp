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
    /// The element of each synapse in a per-synapse list (the connectors that take lists:
    /// all_to_all, one_to_one, from_list); empty for the others.
    std::vector<std::size_t> list_index;
    std::size_t size() const noexcept { return source.size(); }
};

/// Expands one projection target by target, reusing its buffers: the build streams synapses
/// straight into the synapse tables without a list of the whole projection.
class projection_expander {
public:
    projection_expander(const network& net, std::size_t index, std::uint64_t seed, double dt_ms);

    /// Fills `sources`, `weights` and `delays` with the synapses onto target `j` (local index).
    /// Targets must be expanded in ascending order (from_list walks its pairs once).
    void expand(std::uint32_t j);

    std::vector<std::uint32_t> sources;  ///< local indices in the source population
    std::vector<double> weights;         ///< [mV]
    std::vector<std::int32_t> delays;    ///< [steps], >= 1
    /// The element of each synapse in a per-synapse list; empty for connectors without lists.
    const std::vector<std::size_t>& list_indices() const noexcept { return list_index_; }

private:
    const network& net_;
    const projection& proj_;
    std::uint64_t seed_;
    double dt_ms_;
    std::uint32_t key_, n_src_, n_tgt_;
    bool same_;
    std::string object_;
    std::vector<double> kernel_weights_;   ///< convolution: the kernel value of each source
    std::vector<std::size_t> list_index_;  ///< element index for list-valued weights and delays
    std::vector<std::uint32_t> in_degree_; ///< fixed_total_number: the synapses of each target
    std::vector<std::size_t> by_target_;   ///< from_list pairs sorted by target
    std::vector<std::size_t>::iterator cursor_;
};

/// Appends the synapses of projection `index` whose targets are in [target_begin, target_end).
/// Throws invalid_parameter for a delay that rounds below one step.
void expand_projection(const network& net, std::size_t index, std::uint64_t seed, double dt_ms,
                       std::uint32_t target_begin, std::uint32_t target_end, synapse_list& out);

/// The sources of target `j` (local index, CHW) of a convolution, in ascending order, with
/// the kernel value of each; positions in the padding are left out.
void sources_convolution(const convolution& c, std::uint32_t j, std::vector<std::uint32_t>& sources,
                         std::vector<double>& weights);

/// Rounds a delay [ms] to steps: 0 for exactly 0 (same-step delivery); otherwise throws
/// invalid_parameter naming `object` if below one step.
std::int32_t delay_steps(double delay_ms, double dt_ms, const std::string& object);

}  // namespace volley::snn::detail
