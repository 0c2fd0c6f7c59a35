#pragma once
// The per-neuron parameters of a Poisson source population, resolved once for every engine
// (the CPU's source_population, the device engines' columns), so that they all draw the same
// trains from the same values.

#include <cstdint>
#include <vector>

#include <volley/snn/network.hpp>

#include "random/counter_rng.hpp"

namespace volley::snn::detail {

/// Rate, start and stop of each neuron of a poisson_source population: the model's values,
/// overridden by the population's per-neuron values (network::set_parameter: a constant, a list
/// or a distribution, drawn from the neuron-value streams as every model draws them). Each
/// column holds one value for the whole population (no override) or one per neuron.
struct poisson_columns {
    std::vector<double> rate_per_ms;  ///< [1/ms], >= 0
    std::vector<double> start_ms;     ///< no spike at or before this time [ms]
    std::vector<double> stop_ms;      ///< nor after this one [ms]
    std::vector<double> dead_ms;      ///< dead time after each spike [ms]
    std::vector<double> shape;        ///< gamma shape of the rest of the interval
    /// [ms] the mean of the gamma part (1/rate - dead time), by column
    std::vector<double> gamma_mean_ms;
    bool renewal = false;             ///< some neuron has a dead time or a shape other than 1

    /// True when the columns hold one value per neuron.
    bool per_neuron() const noexcept { return rate_per_ms.size() > 1; }
    /// The column index of neuron i (0 when the population shares one value).
    std::size_t at(std::uint32_t i) const noexcept { return per_neuron() ? i : 0; }
};

/// The columns of population `pop`, which must be a poisson_source. Throws invalid_parameter
/// naming the population, the neuron, the parameter and the value for a drawn value out of
/// range (a negative rate, a stop before the start, a dead time as long as the mean interval).
poisson_columns poisson_parameters(const network& net, population_index pop, std::uint64_t seed);

/// The next interval [ms] of column k's process from `rng`: an exponential of rate
/// rate_per_ms[k] for a plain Poisson source (the draw it always was), else the dead time plus a
/// gamma variate (Marsaglia & Tsang 2000) of the column's shape and mean.
double poisson_interval(const poisson_columns& c, std::size_t k, counter_rng& rng);

}  // namespace volley::snn::detail
