#pragma once
// The figures of a recorded run (recorded_run.hpp): what `volley run` and `volley bench` print,
// and `--json` writes (run_figures_json.hpp), for the span of simulated time the run covered.

#include <cstddef>
#include <cstdint>
#include <filesystem>
#include <optional>
#include <string>
#include <vector>

namespace volley::snn {

/// One population's figures.
struct population_figures {
    std::string name;
    std::string model;  ///< model_name()
    std::uint64_t size = 0;
    std::uint64_t spikes = 0;  ///< the engine's count over the run
    double mean_rate_hz = 0;   ///< spikes / (duration * size) [Hz]
    std::optional<std::string> integrator{};  ///< an ODE model's scheme
    /// The rate counting only spikes from recorded_run_options::transient_ms on [Hz].
    std::optional<double> rate_after_transient_hz{};
};

/// The figures of one recorded run. Counts and rates cover [start_ms, start_ms + duration_ms];
/// on several ranks they are every rank's, and the times the slowest rank's.
struct run_figures {
    std::uint64_t neurons = 0;
    std::uint64_t synapses = 0;
    std::uint64_t spikes = 0;           ///< every spike, sources included
    std::uint64_t synaptic_events = 0;  ///< spike deliveries to synapses
    double mean_rate_hz = 0;            ///< over the neurons that are not sources [Hz]
    double build_s = 0;                 ///< wall time of the simulation's construction [s]
    double sim_s = 0;                   ///< wall time of this run [s]
    /// Several ranks: this rank's time in the spike exchange [s], waiting included, and its share of sim_s.
    std::optional<double> exchange_s{};
    std::optional<double> exchange_share{};
    double events_per_s = 0;       ///< synaptic events per second of sim_s
    double real_time_factor = 0;   ///< sim_s per simulated second
    std::uint64_t peak_rss_bytes = 0;  ///< of the process, at the end [bytes]
    double bytes_per_synapse = 0;
    int threads = 1;
    std::string backend;  ///< "cpu", "portable" or "cuda"
    int ranks = 1;
    /// With plastic projections: their synapses and the bytes of each with its traces.
    std::optional<std::uint64_t> plastic_synapses{};
    std::optional<double> bytes_per_plastic_synapse{};
    /// SHA-256 of the recorded raster (spike_checksum.hpp); none when spikes were only counted.
    std::optional<std::string> spike_checksum{};
    std::vector<population_figures> populations;
    double dt_ms = 0;
    double duration_ms = 0;  ///< simulated in this run (less than asked when it was stopped)
    double start_ms = 0;     ///< where it started (after a resume: the checkpoint's time)
    std::optional<std::filesystem::path> resumed_from{};
    std::optional<std::filesystem::path> checkpoint{};
    std::uint64_t seed = 0;
    bool completed = true;  ///< false when the observer stopped it
    std::optional<std::filesystem::path> output{};
    std::optional<std::filesystem::path> plot{};
};

/// The peak resident set size of this process so far [bytes] (getrusage).
std::size_t peak_rss_bytes();

}  // namespace volley::snn
