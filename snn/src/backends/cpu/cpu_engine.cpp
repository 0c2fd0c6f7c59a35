// The CPU backend (see cpu_engine.hpp).

#include "backends/cpu/cpu_engine.hpp"

#include <volley/error.hpp>

#include <algorithm>
#include <bit>
#include <chrono>
#include <cmath>
#include <atomic>
#include <barrier>
#include <exception>

#include <omp.h>

#include "build/connectivity.hpp"

namespace volley::snn::detail {

namespace {

double seconds_since(std::chrono::steady_clock::time_point t0) {
    return std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
}

/// Runs f(t) on `threads` OpenMP threads and rethrows the first exception, by thread index,
/// so that errors are reported the same way whatever the thread timing.
template <class F>
void parallel_for_threads(int threads, F&& f) {
    std::vector<std::exception_ptr> errors(static_cast<std::size_t>(threads));
#pragma omp parallel num_threads(threads)
    {
        const int t = omp_get_thread_num();
        try {
            if (omp_get_num_threads() != threads)
                throw internal_error("OpenMP gave " + std::to_string(omp_get_num_threads()) + " threads, not " +
                                     std::to_string(threads));
            f(t);
        } catch (...) {
            errors[static_cast<std::size_t>(t)] = std::current_exception();
        }
    }
    for (auto& e : errors)
        if (e) std::rethrow_exception(e);
}

}  // namespace

cpu_engine::cpu_engine(const network& net, int threads, const simulation_options& options) : threads_(threads) {
    const auto t0 = std::chrono::steady_clock::now();
    if (!(options.dt_ms > 0) || !std::isfinite(options.dt_ms))
        throw invalid_parameter("simulation", "dt_ms", std::to_string(options.dt_ms), "must be finite and > 0");
    if (net.neuron_count() >= (std::uint64_t{1} << 32) - 1)
        throw invalid_parameter("network", "neurons", std::to_string(net.neuron_count()), "more than 2^32 - 2 neurons");
    n_ = static_cast<std::uint32_t>(net.neuron_count());
    for (std::uint32_t p = 0; p < net.populations().size(); ++p) {
        first_.push_back(p == 0 ? 0 : first_.back() + net.populations()[p - 1].size);
        if (is_source_model(net.populations()[p].model))
            pops_.emplace_back(std::in_place_type<source_population>, net, population_index{p}, options.dt_ms, options.seed);
        else
            pops_.emplace_back(std::in_place_type<lif_population>, net, population_index{p}, options.dt_ms, options.seed);
    }
    first_.push_back(n_);
    for (int t = 0; t <= threads_; ++t)
        lo_.push_back(static_cast<std::uint32_t>(std::uint64_t{n_} * static_cast<std::uint64_t>(t) /
                                                 static_cast<std::uint64_t>(threads_)));
    build_synapses(net, options);
    for (auto& buffer : spikes_) buffer.resize(static_cast<std::size_t>(threads_));
    counters_.resize(static_cast<std::size_t>(threads_));
    build_s_ = seconds_since(t0);
}

void cpu_engine::build_synapses(const network& net, const simulation_options& options) {
    const auto& projs = net.projections();
    const std::size_t n_pops = net.populations().size();
    const auto T = static_cast<std::size_t>(threads_);
    // Phase 1: every thread draws the synapses of the targets it owns.
    std::vector<std::vector<synapse_list>> lists(T, std::vector<synapse_list>(projs.size()));
    parallel_for_threads(threads_, [&](int t) {
        for (std::size_t q = 0; q < projs.size(); ++q) {
            const std::uint32_t tp = projs[q].target.value;
            const std::uint32_t b = std::max(lo_[t], first_[tp]), e = std::min(lo_[t + 1], first_[tp + 1]);
            if (b < e) expand_projection(net, q, options.seed, options.dt_ms, b - first_[tp], e - first_[tp], lists[t][q]);
        }
    });
    // The fixed-point scale of each (target population, receptor) and the longest delay.
    std::vector<double> max_w(n_pops * 2, 0.0);
    std::int32_t max_delay = 1;
    for (std::size_t t = 0; t < T; ++t)
        for (std::size_t q = 0; q < projs.size(); ++q) {
            const std::size_t key = projs[q].target.value * 2 + static_cast<std::size_t>(projs[q].synapse.receptor);
            for (double w : lists[t][q].weight) max_w[key] = std::max(max_w[key], std::abs(w));
            for (std::int32_t d : lists[t][q].delay) max_delay = std::max(max_delay, d);
        }
    scale_.resize(n_pops * 2);
    std::vector<double> to_fixed(n_pops * 2);
    for (std::size_t k = 0; k < n_pops * 2; ++k) {
        const int f = fixed_point_exponent(max_w[k]);
        to_fixed[k] = std::ldexp(1.0, f);
        scale_[k] = std::ldexp(1.0, -f);
    }
    // Phase 2: every thread packs its synapses into one table per source population.
    tables_.assign(T, std::vector<synapse_table>(n_pops));
    parallel_for_threads(threads_, [&](int t) {
        for (std::uint32_t sp = 0; sp < n_pops; ++sp) {
            std::vector<synapse_entry> entries;
            for (std::size_t q = 0; q < projs.size(); ++q) {
                if (projs[q].source.value != sp) continue;
                auto& l = lists[t][q];
                const auto r = static_cast<std::uint8_t>(projs[q].synapse.receptor);
                const double fx = to_fixed[projs[q].target.value * 2 + r];
                const std::uint32_t base = first_[projs[q].target.value] - lo_[t];
                for (std::size_t k = 0; k < l.size(); ++k)
                    entries.push_back({l.source[k], base + l.target[k], r, static_cast<std::uint32_t>(l.delay[k]),
                                       static_cast<std::int32_t>(std::llround(l.weight[k] * fx))});
                l = synapse_list{};
            }
            const std::uint32_t span = std::max<std::uint32_t>(lo_[t + 1] - lo_[t], 1) - 1;
            tables_[t][sp] = synapse_table(std::move(entries), net.populations()[sp].size, span,
                                           static_cast<std::uint32_t>(max_delay));
        }
    });
    for (const auto& per_thread : tables_)
        for (const auto& tab : per_thread) {
            synapse_count_ += tab.synapses();
            table_bytes_ += tab.bytes();
        }
    const auto slots = std::bit_ceil(static_cast<std::uint64_t>(max_delay) + 1);
    slot_mask_ = static_cast<std::int64_t>(slots - 1);
    ring_.assign(slots * 2 * n_, 0);
}

std::uint32_t cpu_engine::population_of(std::uint32_t global) const {
    return static_cast<std::uint32_t>(std::upper_bound(first_.begin(), first_.end(), global) - first_.begin() - 1);
}

void cpu_engine::update_range(int t, std::int64_t s) {
    auto& out = spikes_of(s)[static_cast<std::size_t>(t)];
    out.clear();
    const std::int64_t slot = s & slot_mask_;
    for (std::uint32_t p = 0; p < pops_.size(); ++p) {
        const std::uint32_t b = std::max(lo_[t], first_[p]), e = std::min(lo_[t + 1], first_[p + 1]);
        if (b >= e) continue;
        const std::uint32_t lb = b - first_[p], le = e - first_[p];
        if (auto* lif = std::get_if<lif_population>(&pops_[p])) {
            if (s > 0 && lif->currents_change_at(s)) lif->apply_currents(s, lb, le);
            std::int64_t* in_e = ring_.data() + (slot * 2 + 0) * n_ + first_[p];
            std::int64_t* in_i = ring_.data() + (slot * 2 + 1) * n_ + first_[p];
            lif->update(lb, le, in_e, in_i, scale_[p * 2], scale_[p * 2 + 1], first_[p], out);
        } else {
            std::get<source_population>(pops_[p]).update(s, lb, le, first_[p], out);
        }
    }
}

void cpu_engine::deliver(int t, std::int64_t s) {
    const std::uint32_t lo = lo_[t];
    std::int64_t* ring = ring_.data();
    const std::int64_t n = n_;
    const auto& tables = tables_[static_cast<std::size_t>(t)];
    std::uint64_t events = 0;
    for (const auto& list : spikes_of(s)) {
        for (std::uint32_t g : list) {
            const std::uint32_t p = population_of(g);
            const auto& table = tables[p];
            events += table.row_size(g - first_[p]);
            table.for_each_synapse(g - first_[p], [&](std::uint32_t off, std::uint32_t r, std::uint32_t d, std::int32_t w) {
                ring[(((s + d) & slot_mask_) * 2 + r) * n + lo + off] += w;
            });
        }
    }
    counters_[static_cast<std::size_t>(t)].events += events;
}

void cpu_engine::record_spikes(std::int64_t s) {
    for (const auto& list : spikes_of(s)) {
        spike_count_ += list.size();
        for (auto& sink : spike_sinks_) {
            auto& d = *sink.data;
            const std::uint32_t b = first_[d.pop.value], e = first_[d.pop.value + 1];
            for (std::uint32_t g : list) {
                if (g < b || g >= e || (!sink.mask.empty() && !sink.mask[g - b])) continue;
                d.node_ids.push_back(g - b);
                d.steps.push_back(s + 1);
            }
        }
    }
}

void cpu_engine::sample_state(const state_sink& sink) {
    auto& d = *sink.data;
    const auto& column = std::get<lif_population>(pops_[sink.pop]).state(d.variable);
    d.sample_steps.push_back(step_);
    for (std::uint32_t i : d.node_ids) d.values.push_back(column[i]);
}

void cpu_engine::add_spike_recorder(std::shared_ptr<spike_data> data, std::vector<std::uint8_t> mask) {
    data->first_neuron = first_[data->pop.value];
    spike_sinks_.push_back({std::move(data), std::move(mask)});
}

void cpu_engine::add_state_recorder(std::shared_ptr<state_data> data, population_index pop) {
    if (!std::holds_alternative<lif_population>(pops_[pop.value]))
        throw unknown_name("state variable", data->variable,
                           "population '" + data->population + "' (spike sources have no state)");
    std::get<lif_population>(pops_[pop.value]).state(data->variable);  // throws unknown_name
    state_sinks_.push_back({std::move(data), pop.value, step_});
    sample_state(state_sinks_.back());
}

std::int64_t cpu_engine::run(std::int64_t steps, const progress_callback& progress, std::int64_t interval) {
    const auto t0 = std::chrono::steady_clock::now();
    const std::int64_t s0 = step_, s1 = step_ + steps;
    std::int64_t done = 0;
    // Thread 0 decides to stop (progress callback, or a failure while recording) before the
    // step's barrier, by naming the step to stop after; every thread reads it after that
    // barrier, so all of them leave the loop at the same step.
    std::atomic<std::int64_t> stop_after{-1};
    std::exception_ptr failure;
    // std::barrier waits on a futex after a short spin; OpenMP's barrier spins far longer,
    // which is ruinous when the machine has other work (or ctest runs tests side by side).
    std::barrier<> step_barrier(threads_);
    parallel_for_threads(threads_, [&](int t) {
        for (std::int64_t s = s0; s < s1; ++s) {
            update_range(t, s);
            // Every thread decides the same way whether this step takes a state sample, which
            // needs a second barrier so that no thread updates step s + 1 while it is read.
            bool sample_due = false;
            for (const auto& sink : state_sinks_) sample_due |= (s + 1 - sink.start) % sink.data->interval_steps == 0;
            if (t == 0) {
                try {
                    if (failure || (progress && interval > 0 && (s + 1 - s0) % interval == 0 && !progress(s + 1 - s0, steps)))
                        stop_after.store(s);
                } catch (...) {
                    failure = std::current_exception();
                    stop_after.store(s);
                }
            }
            step_barrier.arrive_and_wait();
            if (t == 0 && !failure) {
                try {
                    record_spikes(s);
                    step_ = s + 1;
                    done = s + 1 - s0;
                    for (const auto& sink : state_sinks_)
                        if ((step_ - sink.start) % sink.data->interval_steps == 0) sample_state(sink);
                } catch (...) {
                    failure = std::current_exception();
                }
            }
            deliver(t, s);
            if (sample_due) step_barrier.arrive_and_wait();
            if (stop_after.load() == s) break;
        }
    });
    for (auto& sink : spike_sinks_) sink.data->steps_recorded += done;
    sim_s_ += seconds_since(t0);
    if (failure) std::rethrow_exception(failure);
    return done;
}

simulation_stats cpu_engine::stats() const {
    simulation_stats st;
    st.neurons = n_;
    st.synapses = synapse_count_;
    st.synapse_table_bytes = table_bytes_;
    st.spikes = spike_count_;
    for (const auto& c : counters_) st.synaptic_events += c.events;
    st.steps = step_;
    st.build_s = build_s_;
    st.sim_s = sim_s_;
    st.threads = threads_;
    return st;
}

}  // namespace volley::snn::detail
