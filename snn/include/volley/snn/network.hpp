#pragma once
// The network: plain data describing populations, projections and stimuli. It validates every
// addition, so a network that exists is a network that can be built (except for checks that
// need the run settings, such as a delay below dt, which the simulation makes).

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include <volley/snn/connectors.hpp>
#include <volley/snn/neuron_models.hpp>
#include <volley/snn/plasticity.hpp>
#include <volley/snn/stimuli.hpp>
#include <volley/snn/types.hpp>
#include <volley/snn/value.hpp>

namespace volley::snn {

/// The synaptic receptor a projection feeds: excitatory or inhibitory current.
enum class receptor_type : std::uint8_t { excitatory, inhibitory };
inline constexpr receptor_type excitatory = receptor_type::excitatory;
inline constexpr receptor_type inhibitory = receptor_type::inhibitory;

/// How each synapse of a projection is parameterised.
struct synapse_spec {
    value_spec weight = 1.0;    ///< [mV] (R·I for current synapses, a jump for lif_delta)
    /// [ms]; rounded to the nearest step, which must be >= 1. The constant 0 delivers in the
    /// same step (feed-forward chains updated in one step, as in converted CNNs); zero-delay
    /// projections must not form a cycle.
    value_spec delay_ms = 1.0;
    receptor_type receptor = receptor_type::excitatory;
    /// STDP rule (docs/plasticity.md); std::monostate (the default) for static synapses. The
    /// initial weights must lie within the rule's [w_min, w_max].
    plasticity_rule plasticity{};
    friend bool operator==(const synapse_spec&, const synapse_spec&) = default;
};

/// True when the synapses deliver in the step of the spike (delay_ms is the constant 0).
inline bool is_zero_delay(const synapse_spec& s) {
    const auto* d = std::get_if<double>(&s.delay_ms);
    return d && *d == 0;
}

/// A named group of neurons sharing one model.
struct population {
    std::string name;
    std::uint32_t size = 0;
    neuron_model model;  ///< default parameters for every neuron
    /// Per-neuron overrides of scalar parameters, in the order they were set.
    std::vector<std::pair<std::string, value_spec>> parameters;
    /// Initial values of state variables, in the order they were set.
    std::vector<std::pair<std::string, value_spec>> initial_values;
    friend bool operator==(const population&, const population&) = default;
};

/// Synapses from one population to another.
struct projection {
    population_index source;
    population_index target;
    connector rule;
    synapse_spec synapse;
    friend bool operator==(const projection&, const projection&) = default;
};

/// A whole network description.
class network {
public:
    /// Adds a population. Throws invalid_parameter for an empty or duplicate name, a size of 0
    /// or an invalid model parameter.
    population_index add_population(std::string name, std::uint32_t size, neuron_model model);

    /// Overrides a scalar parameter per neuron (a constant, a list of `size` values or a
    /// distribution). Throws unknown_name or invalid_parameter.
    void set_parameter(population_index pop, const std::string& name, value_spec value);

    /// Sets the integration scheme of an ODE population (ode_integrator.hpp). Throws
    /// unsupported_model naming the model and the scheme when the model does not support it or
    /// is not an ODE model, invalid_parameter for a tolerance outside (0, 1).
    void set_integrator(population_index pop, const ode_integrator& integrator);

    /// Sets the initial value of a state variable, e.g. initialise(exc, "v_mv", uniform{-60, -50}).
    void initialise(population_index pop, const std::string& state_variable, value_spec value);

    /// Connects two populations. Throws invalid_parameter for a bad connector or synapse spec
    /// (p outside [0, 1], k larger than the source, non-finite weights, delay <= 0, ...).
    std::size_t connect(population_index source, population_index target, connector rule,
                        synapse_spec synapse = {});

    /// Injects a current into a population (or the listed neurons of it).
    void inject(population_index target, current_waveform waveform,
                std::vector<std::uint32_t> neurons = {});

    /// Replaces the waveform of current stimulus `stimulus` (its index in stimuli()); its target
    /// and neurons stay. Throws invalid_parameter as inject() does, and for an index out of range.
    void set_current(std::size_t stimulus, current_waveform waveform);

    /// Replaces the spike trains of a spike_source population (one train per neuron). Throws
    /// invalid_parameter for another model, another number of trains or a time that is not
    /// finite or negative.
    void set_spike_times(population_index pop, std::vector<std::vector<double>> spike_times_ms);

    /// The population of the given name; throws unknown_name if there is none.
    population_index find(std::string_view name) const;
    const population& at(population_index pop) const;

    const std::vector<population>& populations() const noexcept { return populations_; }
    const std::vector<projection>& projections() const noexcept { return projections_; }
    const std::vector<current_stimulus>& stimuli() const noexcept { return stimuli_; }

    /// Total number of neurons (sources included).
    std::uint64_t neuron_count() const noexcept;

    friend bool operator==(const network&, const network&) = default;

private:
    population& checked(population_index pop, const char* what);
    std::vector<population> populations_;
    std::vector<projection> projections_;
    std::vector<current_stimulus> stimuli_;
};

}  // namespace volley::snn
