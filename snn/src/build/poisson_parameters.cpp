// Per-neuron Poisson parameters (see poisson_parameters.hpp).

#include "build/poisson_parameters.hpp"

#include <volley/error.hpp>

#include <algorithm>
#include <cmath>
#include <limits>
#include <string>

#include "build/neuron_model_of.hpp"
#include "model/format_number.hpp"

namespace volley::snn::detail {

poisson_columns poisson_parameters(const network& net, population_index pop, std::uint64_t seed) {
    const auto& p = net.at(pop);
    const auto* model = std::get_if<poisson_source>(&p.model);
    if (!model)
        throw internal_error("poisson_parameters: population '" + p.name +
                             "' is not a poisson_source");
    poisson_columns c;
    const std::string object = "population '" + p.name + "'";
    auto add = [&](const poisson_source::params& q, const std::string& who) {
        c.rate_per_ms.push_back(q.rate_hz / 1000.0);
        c.start_ms.push_back(q.start_ms);
        c.stop_ms.push_back(q.stop_ms);
        c.dead_ms.push_back(q.dead_time_ms);
        c.shape.push_back(q.gamma_shape);
        c.renewal = c.renewal || q.dead_time_ms != 0 || q.gamma_shape != 1;
        const double mean_ms = q.rate_hz > 0 ? 1000.0 / q.rate_hz : std::numeric_limits<double>::infinity();
        if (q.rate_hz > 0 && !(q.dead_time_ms < mean_ms))
            throw invalid_parameter(who, "dead_time_ms", format_number(q.dead_time_ms),
                                    "must be shorter than the mean interval 1/rate_hz (" + format_number(mean_ms) +
                                        " ms)");
        c.gamma_mean_ms.push_back(mean_ms - q.dead_time_ms);
    };
    if (p.parameters.empty()) {
        add(model->p, object);
        return c;
    }
    // As every model with per-neuron values: neuron i's value of parameter k comes from stream
    // (seed, pop, k, i), checked against the model's bounds (neuron_model_of.hpp).
    for (std::uint32_t i = 0; i < p.size; ++i) {
        const neuron_model m = neuron_model_of(p, pop, seed, i, object);
        add(std::get<poisson_source>(m).p, object + " neuron " + std::to_string(i));
    }
    return c;
}

double poisson_interval(const poisson_columns& c, std::size_t k, counter_rng& rng) {
    if (!c.renewal) return rng.exponential(c.rate_per_ms[k]);
    const double shape = c.shape[k];
    // Marsaglia & Tsang: for shape >= 1 directly, below 1 from shape + 1 times u^(1/shape).
    const double a = shape < 1 ? shape + 1 : shape;
    const double d = a - 1.0 / 3.0, cc = 1.0 / std::sqrt(9.0 * d);
    double g = 0;
    for (;;) {
        const double x = rng.standard_normal();
        const double v = 1 + cc * x;
        if (v <= 0) continue;
        const double v3 = v * v * v, u = rng.uniform_open0();
        if (std::log(u) < 0.5 * x * x + d - d * v3 + d * std::log(v3)) {
            g = d * v3;
            break;
        }
    }
    if (shape < 1) g *= std::pow(rng.uniform_open0(), 1.0 / shape);
    return c.dead_ms[k] + g * c.gamma_mean_ms[k] / shape;  // Gamma(shape, scale = mean / shape)
}

}  // namespace volley::snn::detail
