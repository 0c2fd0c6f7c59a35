// The CPU backend (see cpu_engine.hpp).

#include "backends/cpu/cpu_engine.hpp"

#include <volley/error.hpp>

#include <algorithm>
#include <bit>
#include <chrono>
#include <cmath>
#include <atomic>
#include <exception>

#include "backends/cpu/thread_team.hpp"
#include "lowering/lowered_network.hpp"
#include "lowering/memory_budget.hpp"

namespace volley::snn::detail {

namespace {

double seconds_since(std::chrono::steady_clock::time_point t0) {
    return std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
}

}  // namespace

std::int64_t cpu_engine::epoch_steps(std::uint32_t min_delay, std::uint32_t max_delay) const {
    // Longer epochs save barriers and exchanges, and cost ring slots: one thread on one rank
    // waits for nobody, so it takes single steps; no epoch is longer than the longest delay,
    // which keeps the ring within twice its one-step size (a converted network, whose
    // projections all have zero delay, keeps its two slots).
    const std::int64_t wanted =
        threads_ == 1 && dist_.size() == 1
            ? 1
            : std::min<std::int64_t>({min_delay, std::max<std::int64_t>(max_delay, 1), max_epoch_steps});
    return std::max<std::int64_t>(dist_.min(wanted), 1);
}

cpu_engine::cpu_engine(const network& net, int threads, const simulation_options& options, distributed_context dist)
    : threads_(threads), dist_(std::move(dist)), isa_(cpu_isa_level(options.max_isa)), step_pairs_(options.step_pairs) {
    const auto t0 = std::chrono::steady_clock::now();
    if (!(options.dt_ms > 0) || !std::isfinite(options.dt_ms))
        throw invalid_parameter("simulation", "dt_ms", std::to_string(options.dt_ms), "must be finite and > 0");
    dt_ms_ = options.dt_ms;
    seed_ = options.seed;
    check_expected_size(net, options.max_memory_bytes, dist_.size());
    auto low = lower(net, options, dist_, threads_,
                     [](int parts, const std::function<void(int)>& body) { parallel_for_threads(parts, body); });
    check_memory_budget(net, low, options.max_memory_bytes);
    for (std::uint32_t p = 0; p < net.populations().size(); ++p) pops_.push_back(make_population(net, p));
    first_ = std::move(low.first);
    n_ = first_.back();
    domain_lo_ = low.rank_bounds[static_cast<std::size_t>(dist_.id())];
    domain_hi_ = low.rank_bounds[static_cast<std::size_t>(dist_.id()) + 1];
    lo_ = std::move(low.part_bounds);
    sources_ = std::move(low.sources);
    n_pops_ = static_cast<std::uint32_t>(pops_.size());
    order_ = std::move(low.order.order);
    sends_now_ = std::move(low.order.sends_now);
    inhibited_ = std::move(low.inhibited);
    fed_ = std::move(low.fed);
    build_synapses(net, options, low);  // sets epoch_
    spike_mask_ = static_cast<std::int64_t>(std::bit_ceil(static_cast<std::uint64_t>(2 * epoch_))) - 1;
    spikes_.assign(static_cast<std::size_t>(spike_mask_ + 1),
                   std::vector<std::vector<std::uint32_t>>(static_cast<std::size_t>(threads_) * (n_pops_ + list_gap)));
    remote_.assign(static_cast<std::size_t>(spike_mask_ + 1), std::vector<remote_spikes>(n_pops_));
    touched_.resize(static_cast<std::size_t>(threads_) * (n_pops_ * slots_ + list_gap));
    counters_.resize(static_cast<std::size_t>(threads_));
    population_spikes_.assign(n_pops_, 0);
    build_s_ = seconds_since(t0);
}

void cpu_engine::update_range(int t, std::int64_t s, spin_barrier* sync) {
    for (const std::uint32_t p : order_) {
        update_population(t, s, p);
        if (!sends_now_[p]) continue;
        if (sync) sync->arrive_and_wait();  // every thread's spikes of p are in
        counters_[static_cast<std::size_t>(t)].events += deliver_from(t, s, p, true);
    }
}

void cpu_engine::update_population(int t, std::int64_t s, std::uint32_t p) {
    const std::int64_t slot = s & slot_mask_;
    auto& out = spikes_of(s, t, p);
    out.clear();
    const auto [lb, le] = local_range(t, p);
    if (lb >= le) return;
    auto& in = touched(t, p, slot);
    std::int64_t* cells = ring_.empty() || all_input_direct(p) ? nullptr : ring_at(slot, first_[p]);
    population_step step{.thread = t, .s = s, .begin = lb, .end = le, .cells = cells, .touched = in,
                         .shift = std::int64_t{lo_[t]} - first_[p], .scale_e = scale_[p * 2],
                         .scale_i = scale_[p * 2 + 1], .inhibitory = inhibited_[p] != 0, .fed = fed_[p] != 0};
    if (const std::int32_t k = in_place_conv_[static_cast<std::size_t>(t)][p]; k >= 0) {
        const auto sums = std::get<conv_projection>(structured_[static_cast<std::size_t>(t)][static_cast<std::size_t>(k)])
                              .take_in_place();
        step.sums = sums.sums;
        step.sums_shift = sums.shift;
    }
    std::visit(
        [&](auto& kernel) {
            if (kernel.input() == kernel_input::none)  // input to a source is dropped
                for (const std::uint32_t k : in) cells[2 * (k + step.shift)] = cells[2 * (k + step.shift) + 1] = 0;
            kernel.step(step, out);
        },
        pops_[p]);
    if (s > 0 && direct_[p]) {
        if (auto* lif = std::get_if<lif_population>(&pops_[p])) deliver_direct(t, s - 1, p, *lif);
        else deliver_direct(t, s - 1, p, std::get<ode_population>(pops_[p]));
    }
    in.clear();
}

// One loop for every thread and rank count: epochs of at most epoch_ steps (update, then
// exchange and delivery), or pairs of steps where pairs_allowed. With one thread the barriers
// do nothing and no thread team is started.
std::int64_t cpu_engine::run(std::int64_t steps, const progress_callback& progress, std::int64_t interval) {
    const auto t0 = std::chrono::steady_clock::now();
    const std::int64_t s0 = step_, s1 = step_ + steps;
    std::int64_t done = 0;
    // Thread 0 decides to stop (progress callback, or a failure while recording) before the
    // epoch's barrier, by naming the step to stop after; every thread reads it after that
    // barrier, so all of them leave the loop at the same step.
    std::atomic<std::int64_t> stop_after{-1};
    std::exception_ptr failure;
    team_barrier sync(threads_);
    const bool pairs = pairs_allowed(progress, interval);
    const bool distributed = dist_.size() > 1;
    // Whether the progress callback, asked at each multiple of `interval` among steps
    // [a, b), stops the run (thread 0 only).
    auto asked_to_stop = [&](std::int64_t a, std::int64_t b) {
        if (failure) return true;
        if (!progress || interval <= 0) return false;
        for (std::int64_t k = a; k < b; ++k)
            if ((k + 1 - s0) % interval == 0 && !progress(k + 1 - s0, steps)) return true;
        return false;
    };
    auto sample_after = [&](std::int64_t s) {  // a state sample is due after step s
        for (const auto& sink : state_sinks_)
            if ((s + 1 - sink.start) % sink.data->interval_steps == 0) return true;
        return false;
    };
    parallel_for_threads(threads_, [&](int t) {
        std::int64_t s = s0;
        if (pairs) {  // the same sequence, two steps at a time (cpu_engine_pairs.cpp)
            bool stopped = false;
            for (; s + 1 < s1 && !stopped; s += 2) {
                prepare_pair(t, s, s == s0);
                sync.wait();  // every thread has read the spikes it adds or sorts
                update_pair(t, s);
                if (t == 0) {
                    try {
                        if (asked_to_stop(s, s + 2)) stop_after.store(s + 1);
                    } catch (...) {
                        failure = std::current_exception();
                        stop_after.store(s + 1);
                    }
                }
                sync.wait();  // every thread's spikes are in
                if (t == 0 && !failure) {
                    try {
                        record_pair(s);
                        done = s + 2 - s0;
                    } catch (...) {
                        failure = std::current_exception();
                    }
                }
                stopped = stop_after.load() == s + 1;
            }
            if (s > s0) {
                finish_pairs(t, s);
                sync.wait();  // before any thread overwrites the spikes it read
            }
            if (stopped) return;
        }
        while (s < s1) {
            const std::int64_t a = s, b = std::min(s + epoch_, s1);
            for (; s < b; ++s) {
                update_range(t, s, sync.get());
                if (s + 1 < b && sample_after(s)) {  // a sample inside the epoch: no thread may go on
                    sync.wait();
                    if (t == 0 && !failure) {
                        try {
                            step_ = s + 1;
                            sample_due();
                        } catch (...) {
                            failure = std::current_exception();
                        }
                    }
                    sync.wait();
                }
            }
            const bool sample_at_end = sample_after(b - 1);
            if (t == 0) {
                try {
                    if (asked_to_stop(a, b)) stop_after.store(b - 1);
                } catch (...) {
                    failure = std::current_exception();
                    stop_after.store(b - 1);
                }
            }
            sync.wait();  // every thread's spikes of the epoch are in
            if (t == 0 && !failure) {
                try {
                    for (std::int64_t k = a; k < b; ++k) record_spikes(k);
                    step_ = b;
                    done = b - s0;
                    sample_due();
                } catch (...) {
                    failure = std::current_exception();
                }
            }
            if (distributed) {  // the ranks exchange the epoch's spikes and agree on stopping
                if (t == 0 && !failure) {
                    try {
                        const auto e0 = std::chrono::steady_clock::now();
                        exchange(a, b);
                        if (dist_.min(stop_after.load() == b - 1 ? 0 : 1) == 0) stop_after.store(b - 1);
                        exchange_s_ += seconds_since(e0);
                    } catch (...) {
                        failure = std::current_exception();
                    }
                }
                if (t == 0 && failure) stop_after.store(b - 1);
                sync.wait();
            }
            for (std::int64_t k = a; k < b; ++k) deliver(t, k);
            if (sample_at_end && !distributed) sync.wait();  // the sample is taken before any update
            if (stop_after.load() == b - 1) break;
        }
    });
    for (auto& sink : spike_sinks_) sink.data->steps_recorded += done;
    sim_s_ += seconds_since(t0);
    if (failure) std::rethrow_exception(failure);
    return done;
}

void cpu_engine::sample_due() {
    for (const auto& sink : state_sinks_)
        if ((step_ - sink.start) % sink.data->interval_steps == 0) sample_state(sink);
}

projection_weights cpu_engine::weights(std::size_t projection) const {
    projection_weights out;
    for (const auto& per_thread : plastic_)  // threads own ascending target ranges
        for (const auto& table : per_thread)
            if (table.projection() == projection && table.synapses() > 0)
                table.append_weights(out.sources, out.targets, out.weights);
    return out;
}

simulation_stats cpu_engine::stats() const {
    simulation_stats st;
    st.neurons = n_;
    st.synapses = synapse_count_;
    st.synapse_table_bytes = table_bytes_;
    st.plastic_synapses = plastic_count_;
    st.plastic_table_bytes = plastic_bytes_;
    st.spikes = spike_count_;
    st.population_spikes = population_spikes_;
    for (const auto& c : counters_) st.synaptic_events += c.events;
    st.steps = step_;
    st.build_s = build_s_;
    st.sim_s = sim_s_;
    st.exchange_s = exchange_s_;
    st.threads = threads_;
    return st;
}

}  // namespace volley::snn::detail
