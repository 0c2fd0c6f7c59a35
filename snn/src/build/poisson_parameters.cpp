// Per-neuron Poisson parameters (see poisson_parameters.hpp).

#include "build/poisson_parameters.hpp"

#include <volley/error.hpp>

#include <algorithm>
#include <string>

#include "build/neuron_model_of.hpp"

namespace volley::snn::detail {

poisson_columns poisson_parameters(const network& net, population_index pop, std::uint64_t seed) {
    const auto& p = net.at(pop);
    const auto* model = std::get_if<poisson_source>(&p.model);
    if (!model)
        throw internal_error("poisson_parameters: population '" + p.name +
                             "' is not a poisson_source");
    poisson_columns c;
    if (p.parameters.empty()) {
        c.rate_per_ms = {model->p.rate_hz / 1000.0};
        c.start_ms = {model->p.start_ms};
        c.stop_ms = {model->p.stop_ms};
        return c;
    }
    // As every model with per-neuron values: neuron i's value of parameter k comes from stream
    // (seed, pop, k, i), checked against the model's bounds (neuron_model_of.hpp).
    const std::string object = "population '" + p.name + "'";
    c.rate_per_ms.resize(p.size);
    c.start_ms.resize(p.size);
    c.stop_ms.resize(p.size);
    for (std::uint32_t i = 0; i < p.size; ++i) {
        const neuron_model m = neuron_model_of(p, pop, seed, i, object);
        const auto& q = std::get<poisson_source>(m).p;
        c.rate_per_ms[i] = q.rate_hz / 1000.0;
        c.start_ms[i] = q.start_ms;
        c.stop_ms[i] = q.stop_ms;
    }
    return c;
}

}  // namespace volley::snn::detail
