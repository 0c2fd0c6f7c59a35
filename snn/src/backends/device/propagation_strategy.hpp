#pragma once
// The device engine's propagation strategies (GeNN's presynaptic update strategies): each is
// a name, a compatibility test and an estimated cost per step on what the build knows of a
// projection; the cheapest compatible one is chosen once per projection when the engine is
// built, never re-examined in the step. Every strategy adds the same integers into the same
// ring cells (or the same direct counts), so the choice changes the speed, never the spikes.
// Adding one is adding a row to propagation_strategies() and its functor (device_kernels.hpp).

#include <cstdint>
#include <span>

#include "backends/device/device_network.hpp"

namespace volley::snn::detail {

/// What a strategy sees of one projection.
struct propagation_case {
    std::uint64_t synapses = 0;
    std::uint32_t sources = 0, targets = 0;
    /// Expected spikes per source neuron and step: known for Poisson sources (rate · dt), an
    /// assumed sparse 0.001 otherwise.
    double spike_probability = 0.001;
};

struct propagation_strategy {
    const char* name;
    device_propagation kind;
    bool (*compatible)(const propagation_case&);
    double (*cost)(const propagation_case&);  ///< estimated memory operations per step
};

/// Every strategy, registered once.
std::span<const propagation_strategy> propagation_strategies();

/// The cheapest compatible strategy for `c`.
const propagation_strategy& choose_propagation(const propagation_case& c);

}  // namespace volley::snn::detail
