#pragma once
// The lowering's grouping of populations by the kind of kernel their model needs (docs/engine.md,
// "The lowering"): every backend's kernel factory takes a family, not a list of models, so a new
// model of an existing family needs no backend change, and a GPU engine can launch one kernel
// per family over the populations lowered_network::by_family lists.

#include <volley/snn/neuron_models.hpp>

#include <cstdint>

namespace volley::snn::detail {

enum class model_family : std::uint8_t {
    exact_linear,   ///< lif_delta, lif_exp, lif_alpha: integrated exactly between steps
    ode,            ///< conductance and nonlinear models (is_ode_model): integrated numerically
    discrete,       ///< discrete_neuron: a discrete-time update
    spike_source,   ///< poisson_source, spike_source
    analog_source,  ///< analog_source: a table of values per step
};
inline constexpr std::size_t model_families = 5;

/// The family of a model (every alternative of neuron_model has exactly one).
model_family family_of(const neuron_model& m);

/// Whether a family's populations list each neuron at most once a step, as one plain spike
/// (not an analog value): exact_linear and discrete. That bounds one step's input through a
/// convolution from them (conv_projection.hpp: the 32-bit path), on every backend alike.
constexpr bool spikes_once_per_step(model_family f) {
    return f == model_family::exact_linear || f == model_family::discrete;
}

}  // namespace volley::snn::detail
