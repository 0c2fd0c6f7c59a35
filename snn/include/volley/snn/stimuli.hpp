#pragma once
// Current stimuli injected into a population. Spike stimuli (Poisson sources and spike arrays)
// are source populations instead (neuron_models.hpp), so they connect through projections.
// Currents are given as R·I in mV (see neuron_models.hpp) and are piecewise constant on the
// dt grid: a change at time t takes effect in the step that starts at t.

#include <cstddef>
#include <cstdint>
#include <limits>
#include <variant>
#include <vector>

#include <volley/snn/types.hpp>

namespace volley::snn {

/// A constant current [mV] on [start_ms, stop_ms).
struct dc_current {
    double amplitude_mv = 0;
    double start_ms = 0;
    double stop_ms = std::numeric_limits<double>::infinity();
    friend bool operator==(const dc_current&, const dc_current&) = default;
};

/// A piecewise-constant current: amplitudes_mv[i] from times_ms[i] until the next time.
/// times_ms is strictly increasing and >= 0; before times_ms[0] the current is 0.
struct step_current {
    std::vector<double> times_ms;
    std::vector<double> amplitudes_mv;
    friend bool operator==(const step_current&, const step_current&) = default;
};

/// A sine on [start_ms, stop_ms) (PyNN's ACSource):
///   offset_mv + amplitude_mv · sin(2π · frequency_hz · (t - start_ms) / 1000 + phase_deg · π / 180),
/// sampled at the start of every step, so the phase holds at start_ms (not at t = 0 as NEST's
/// ac_generator has it).
struct ac_current {
    double amplitude_mv = 0;
    double offset_mv = 0;
    double frequency_hz = 0;  ///< >= 0
    double phase_deg = 0;
    double start_ms = 0;
    double stop_ms = std::numeric_limits<double>::infinity();
    friend bool operator==(const ac_current&, const ac_current&) = default;
};

/// Gaussian noise on [start_ms, stop_ms) (PyNN's NoisyCurrentSource, NEST's noise_generator):
/// every interval_ms from start_ms, each neuron draws mean_mv + stdev_mv · N(0, 1) of its own and
/// holds it for the interval. interval_ms is a whole number of steps (0: one step). The draws
/// are named by (seed, stimulus, neuron, interval), so they are the same for any thread count,
/// rank count and backend.
struct noise_current {
    double mean_mv = 0;
    double stdev_mv = 0;  ///< >= 0
    double interval_ms = 0;
    double start_ms = 0;
    double stop_ms = std::numeric_limits<double>::infinity();
    friend bool operator==(const noise_current&, const noise_current&) = default;
};

/// Every current stimulus the engine knows.
using current_waveform = std::variant<dc_current, step_current, ac_current, noise_current>;

/// A current stimulus and the neurons it drives.
struct current_stimulus {
    population_index target;
    current_waveform waveform;
    std::vector<std::uint32_t> neurons;  ///< local indices; empty means the whole population
    friend bool operator==(const current_stimulus&, const current_stimulus&) = default;
};

class network;

/// The current [mV] that stimulus `stimulus` (its index in network::stimuli()) gives neuron
/// `neuron` (a local index in its target) in each of the first `steps` steps of a run with step
/// `dt_ms` and `seed`: what the engine adds, step by step. Throws invalid_parameter for an index
/// out of range, a neuron the stimulus does not drive, or dt_ms not finite and > 0.
std::vector<double> current_trace(const network& net, std::size_t stimulus, std::uint32_t neuron,
                                  double dt_ms, std::uint64_t seed, std::int64_t steps);

}  // namespace volley::snn
