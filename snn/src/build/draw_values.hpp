#pragma once
// Drawing per-element values from a value_spec, each element from its own random stream.

#include <volley/error.hpp>
#include <volley/snn/value.hpp>

#include "random/counter_rng.hpp"

namespace volley::snn::detail {

/// The value of element `index` of `spec`, drawing from `rng` for a distribution.
inline double draw_value(const value_spec& spec, std::size_t index, counter_rng& rng) {
    switch (spec.index()) {
        case 0: return std::get<double>(spec);
        case 1: return std::get<std::vector<double>>(spec)[index];
        case 2: {
            const auto& u = std::get<uniform>(spec);
            return u.low + (u.high - u.low) * rng.uniform01();
        }
        default: {
            const auto& n = std::get<normal>(spec);
            double x = n.mean + n.stddev * rng.standard_normal();
            // Redraw outside the bounds (check_finite keeps >= 0.1% of the mass inside, so this
            // ends; the cap only turns a broken invariant into an error rather than a hang).
            for (int redraws = 0; x < n.low || x > n.high; ++redraws) {
                if (redraws == 1'000'000)
                    throw invalid_parameter("value " + describe(spec), "redraws", "1000000", "no value within the bounds");
                x = n.mean + n.stddev * rng.standard_normal();
            }
            return x;
        }
    }
}

/// Per-neuron value: neuron i of population `pop` draws from stream (seed, pop, slot, i), so a
/// value never depends on how neurons are split among threads.
inline double draw_neuron_value(const value_spec& spec, std::uint64_t seed, std::uint32_t pop,
                                std::uint32_t slot, std::uint32_t neuron) {
    if (spec.index() < 2) {
        counter_rng unused(0, stream_purpose::neuron_values, 0, 0);
        return draw_value(spec, neuron, unused);
    }
    counter_rng rng(seed, stream_purpose::neuron_values, pop * 128 + slot, neuron);
    return draw_value(spec, neuron, rng);
}

}  // namespace volley::snn::detail
