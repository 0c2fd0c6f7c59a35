// Spike-source populations (see source_population.hpp).
//
// A Poisson source draws exponential inter-spike intervals in continuous time from its own
// counter-based stream (keyed by seed, population and neuron), at its own rate, and each spike
// lands in the step that contains it. So the train is an exact Poisson process sampled at dt,
// and it does not depend on the thread count. With a dead time or a gamma shape the intervals
// are drawn by poisson_interval (build/poisson_parameters.hpp) from the same stream.

#include "backends/cpu/source_population.hpp"

#include <volley/error.hpp>

#include <algorithm>
#include <cmath>
#include <limits>

#include "model/spike_time_step.hpp"

namespace volley::snn::detail {

source_population::source_population(const network& net, population_index pop, double dt_ms, std::uint64_t seed)
    : n_(net.at(pop).size), name_(net.at(pop).name), dt_ms_(dt_ms), seed_(seed) {
    const auto& p = net.at(pop);
    if (std::holds_alternative<poisson_source>(p.model)) {
        poisson_ = true;
        poisson_params_ = poisson_parameters(net, pop, seed);
        const auto& c = poisson_params_;
        next_ms_.resize(n_);
        rng_.reserve(n_);
        for (std::uint32_t i = 0; i < n_; ++i) {
            rng_.emplace_back(seed, stream_purpose::poisson, pop.value, i);
            const std::size_t k = c.at(i);
            next_ms_[i] = c.rate_per_ms[k] > 0 ? c.start_ms[k] + poisson_interval(c, k, rng_[i])
                                               : std::numeric_limits<double>::infinity();
        }
        return;
    }
    steps_ = spike_steps(p, dt_ms);
    cursor_.assign(n_, 0);
}

std::vector<std::vector<std::int64_t>> source_population::spike_steps(const population& p, double dt_ms) {
    const auto& times = std::get<spike_source>(p.model).spike_times_ms;
    std::vector<std::vector<std::int64_t>> steps(p.size);
    for (std::uint32_t i = 0; i < p.size; ++i) {
        for (double t : times[i]) steps[i].push_back(spike_time_step(t, dt_ms));
        std::sort(steps[i].begin(), steps[i].end());
    }
    return steps;
}

void source_population::refresh(const network& net, population_index pop, std::int64_t done) {
    if (!poisson_) {
        steps_ = spike_steps(net.at(pop), dt_ms_);
        cursor_.assign(n_, 0);  // update() skips what is past; simulation::set_spike_times refused it
        return;
    }
    auto c = poisson_parameters(net, pop, seed_);
    const double now = static_cast<double>(done) * dt_ms_;
    for (std::uint32_t i = 0; i < n_; ++i) {
        const std::size_t k = c.at(i);
        next_ms_[i] = c.rate_per_ms[k] > 0 ? std::max(now, c.start_ms[k]) + poisson_interval(c, k, rng_[i])
                                           : std::numeric_limits<double>::infinity();
    }
    poisson_params_ = std::move(c);
}

void source_population::update(std::int64_t s, std::uint32_t begin, std::uint32_t end,
                               std::uint32_t first_global, std::vector<std::uint32_t>& spikes) {
    if (poisson_) {
        const double t_end = static_cast<double>(s + 1) * dt_ms_;
        const auto& c = poisson_params_;
        for (std::uint32_t i = begin; i < end; ++i) {
            const std::size_t k = c.at(i);
            while (next_ms_[i] <= t_end) {
                if (next_ms_[i] > c.stop_ms[k]) {
                    next_ms_[i] = std::numeric_limits<double>::infinity();
                    break;
                }
                spikes.push_back(first_global + i);
                next_ms_[i] += poisson_interval(c, k, rng_[i]);
            }
        }
        return;
    }
    for (std::uint32_t i = begin; i < end; ++i) {
        auto& c = cursor_[i];
        const auto& st = steps_[i];
        while (c < st.size() && st[c] <= s + 1) {
            if (st[c] == s + 1) spikes.push_back(first_global + i);
            ++c;
        }
    }
}

}  // namespace volley::snn::detail
