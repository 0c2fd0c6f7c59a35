#pragma once
// Builds a device_network from a network (host code, compiled once by the host compiler).

#include <string>

#include <volley/snn/network.hpp>
#include <volley/snn/simulation.hpp>

#include "backends/device/device_network.hpp"

namespace volley::snn::detail {

/// The populations, tables and delays a device backend (`backend`: "portable" or "cuda") runs.
/// Throws unsupported_model naming the population (or projection) and its model for what the
/// device backends do not run yet: models other than lif_delta, lif_exp, lif_alpha,
/// discrete_neuron, poisson_source, spike_source and analog_source (the ODE models), and plastic
/// projections. Zero-delay projections, convolutions and gated max-pools run.
device_network describe_for_device(const network& net, const simulation_options& options, const std::string& backend);
/// The same bias with the stimuli of population `p` of `net` as they are now (simulation::
/// set_current).
std::shared_ptr<const device_currents> currents_now(const device_currents& c, const network& net, std::uint32_t p,
                                                    const simulation_options& options);

/// Switches projection `q` (onto `targets` neurons) to the postsynaptic strategy, adding its
/// synapses by target (what describe_for_device does where that strategy is cheaper; tests
/// force it to compare both).
void use_postsynaptic(device_projection& q, std::uint32_t targets);

}  // namespace volley::snn::detail
