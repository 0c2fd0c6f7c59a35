#pragma once
// Spike-source populations: Poisson sources and spike arrays. They have no state variables;
// each step they emit the spikes that fall into it.

#include <cstdint>
#include <span>
#include <string>
#include <vector>

#include <volley/snn/network.hpp>

#include "backends/cpu/population_kernel.hpp"
#include "build/poisson_parameters.hpp"
#include "checkpoint/state_archive.hpp"
#include "random/counter_rng.hpp"

namespace volley::snn::detail {

class source_population {
public:
    source_population(const network& net, population_index pop, double dt_ms, std::uint64_t seed);

    static constexpr kernel_input input() { return kernel_input::none; }

    /// One step (population_kernel.hpp): update().
    void step(const population_step& st, std::vector<std::uint32_t>& spikes) { update(st.s, st.begin, st.end, 0, spikes); }
    /// Throws unknown_name: spike sources have no state variables.
    void sample_state(const std::string& variable, std::int64_t, std::span<const std::uint32_t>,
                      std::vector<double>&) const {
        throw_no_state(name_, variable);
    }

    /// Emits the spikes of neurons [begin, end) that fall in step (s·dt, (s+1)·dt]. A Poisson
    /// source may fire more than once in a step; each spike is appended.
    void update(std::int64_t s, std::uint32_t begin, std::uint32_t end, std::uint32_t first_global,
                std::vector<std::uint32_t>& spikes);

    /// Saves or restores the dynamic state (checkpoint/state_archive.hpp).
    void visit_state(state_archive& a) { a.field("next_ms", next_ms_), a.field("rng", rng_), a.field("cursor", cursor_); }

    std::uint32_t size() const noexcept { return n_; }

    /// The population changed in `net` between runs, `done` steps into the run: a spike array's
    /// new trains (simulation::set_spike_times, which refused the times already past) are sent
    /// from the next step on; a Poisson source's new parameters (simulation::set_parameter) hold
    /// from now, each neuron's next interval drawn anew from its own stream (exact for a Poisson
    /// process, which has no memory; a renewal process starts afresh). Throws invalid_parameter,
    /// changing nothing, for a parameter out of range.
    void refresh(const network& net, population_index pop, std::int64_t done);

private:
    bool poisson_ = false;
    std::uint32_t n_ = 0;
    std::string name_;
    double dt_ms_ = 0;
    std::uint64_t seed_ = 0;
    // Poisson sources: rate, start and stop (one value, or one per neuron), the next spike
    // time per neuron and its own stream.
    poisson_columns poisson_params_;
    std::vector<double> next_ms_;
    std::vector<counter_rng> rng_;
    // Spike arrays: spike steps per neuron (ascending) and a cursor.
    std::vector<std::vector<std::int64_t>> steps_;
    std::vector<std::size_t> cursor_;
    /// The spike steps of a spike_source population, by neuron, sorted (spike_time_step).
    static std::vector<std::vector<std::int64_t>> spike_steps(const population& p, double dt_ms);
};

}  // namespace volley::snn::detail
