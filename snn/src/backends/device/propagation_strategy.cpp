// The device engine's propagation strategies (see propagation_strategy.hpp).

#include "backends/device/propagation_strategy.hpp"

#include <volley/error.hpp>

namespace volley::snn::detail {

std::span<const propagation_strategy> propagation_strategies() {
    // Costs: a spike's synapse is an atomic read-modify-write and a flag (about 4), a
    // target's synapse a read of the source's count (1) whether or not the source fired.
    static const propagation_strategy strategies[] = {
        {"presynaptic", device_propagation::presynaptic, [](const propagation_case&) { return true; },
         [](const propagation_case& c) {
             return c.spike_probability * (4.0 * static_cast<double>(c.synapses) + static_cast<double>(c.sources));
         }},
        {"postsynaptic", device_propagation::postsynaptic, [](const propagation_case& c) { return c.synapses > 0; },
         [](const propagation_case& c) { return static_cast<double>(c.synapses) + static_cast<double>(c.targets); }},
    };
    return strategies;
}

const propagation_strategy& choose_propagation(const propagation_case& c) {
    const propagation_strategy* best = nullptr;
    for (const auto& s : propagation_strategies())
        if (s.compatible(c) && (!best || s.cost(c) < best->cost(c))) best = &s;
    if (!best) throw internal_error("no propagation strategy for a projection");
    return *best;
}

}  // namespace volley::snn::detail
