#pragma once
// The model of one neuron of a population with per-neuron values (network::set_parameter),
// drawn once for every engine and model family that resolves them neuron by neuron.

#include <volley/snn/network.hpp>
#include <volley/snn/neuron_models.hpp>

#include <algorithm>
#include <cstdint>
#include <string>

#include "build/draw_values.hpp"

namespace volley::snn::detail {

/// The population's model with each per-neuron parameter k of neuron i drawn from stream
/// (seed, pop, k, i) and checked against the model's bounds; invalid_parameter names `object`,
/// the neuron, the parameter and the value.
inline neuron_model neuron_model_of(const population& p, population_index pop, std::uint64_t seed, std::uint32_t i,
                                    const std::string& object) {
    const auto infos = model_parameters(p.model);
    neuron_model m = p.model;
    const std::string who = object + " neuron " + std::to_string(i);
    for (const auto& [name, spec] : p.parameters) {
        const auto k = static_cast<std::uint32_t>(
            std::find_if(infos.begin(), infos.end(), [&name = name](const auto& f) { return name == f.name; }) -
            infos.begin());
        const double v = draw_neuron_value(spec, seed, pop.value, k, i);
        check_parameter(m, name, v, who);
        set_parameter(m, name, v);
    }
    validate_model(m, who);
    return m;
}

}  // namespace volley::snn::detail
