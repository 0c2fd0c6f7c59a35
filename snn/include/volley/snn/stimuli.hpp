#pragma once
// Current stimuli injected into a population. Spike stimuli (Poisson sources and spike arrays)
// are source populations instead (neuron_models.hpp), so they connect through projections.
// Currents are given as R·I in mV (see neuron_models.hpp) and are piecewise constant on the
// dt grid: a change at time t takes effect in the step that starts at t.

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

/// Every current stimulus the engine knows.
using current_waveform = std::variant<dc_current, step_current>;

/// A current stimulus and the neurons it drives.
struct current_stimulus {
    population_index target;
    current_waveform waveform;
    std::vector<std::uint32_t> neurons;  ///< local indices; empty means the whole population
    friend bool operator==(const current_stimulus&, const current_stimulus&) = default;
};

}  // namespace volley::snn
