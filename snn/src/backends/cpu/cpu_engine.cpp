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

cpu_engine::cpu_engine(const network& net, int threads, const simulation_options& options)
    : threads_(threads), isa_(cpu_isa_level(options.max_isa)), step_pairs_(options.step_pairs) {
    const auto t0 = std::chrono::steady_clock::now();
    if (!(options.dt_ms > 0) || !std::isfinite(options.dt_ms))
        throw invalid_parameter("simulation", "dt_ms", std::to_string(options.dt_ms), "must be finite and > 0");
    if (net.neuron_count() >= (std::uint64_t{1} << 32) - 1)
        throw invalid_parameter("network", "neurons", std::to_string(net.neuron_count()), "more than 2^32 - 2 neurons");
    n_ = static_cast<std::uint32_t>(net.neuron_count());
    dt_ms_ = options.dt_ms;
    seed_ = options.seed;
    for (std::uint32_t p = 0; p < net.populations().size(); ++p)
        first_.push_back(p == 0 ? 0 : first_.back() + net.populations()[p - 1].size);
    first_.push_back(n_);
    for (std::uint32_t p = 0; p < net.populations().size(); ++p) pops_.push_back(make_population(net, p));
    for (int t = 0; t <= threads_; ++t)
        lo_.push_back(static_cast<std::uint32_t>(std::uint64_t{n_} * static_cast<std::uint64_t>(t) /
                                                 static_cast<std::uint64_t>(threads_)));
    n_pops_ = static_cast<std::uint32_t>(pops_.size());
    order_populations(net);
    inhibited_.assign(n_pops_, 0);
    fed_.assign(n_pops_, 0);
    for (const auto& q : net.projections()) {
        fed_[q.target.value] = 1;
        if (q.synapse.receptor == receptor_type::inhibitory) inhibited_[q.target.value] = 1;
    }
    build_synapses(net, options);
    for (auto& buffer : spikes_) buffer.resize(static_cast<std::size_t>(threads_) * n_pops_);
    touched_.resize(static_cast<std::size_t>(threads_) * n_pops_ * slots_);
    counters_.resize(static_cast<std::size_t>(threads_));
    population_spikes_.assign(n_pops_, 0);
    build_s_ = seconds_since(t0);
}

// The tables are built in two passes over the connectors, each target drawing from its own
// streams: the first counts each row and finds the largest weight and delay, the second
// regenerates the same synapses straight into their rows. No list of all synapses ever exists,
// so the peak memory of the build is the tables themselves plus one counter per source neuron.
void cpu_engine::build_synapses(const network& net, const simulation_options& options) {
    const auto& projs = net.projections();
    const std::size_t P = n_pops_, T = static_cast<std::size_t>(threads_);
    struct table_plan {
        std::vector<std::uint32_t> row_sizes;
        synapse_table_shape shape;
    };
    std::vector<std::vector<table_plan>> plans(T, std::vector<table_plan>(2 * P * P));
    // Zero-delay projections have tables of their own, stored with delay 1 (see tables_).
    auto table_key = [&](const projection& q) {
        return (is_zero_delay(q.synapse) ? P * P : 0) + std::size_t{q.source.value} * P + q.target.value;
    };
    std::vector<std::vector<double>> max_w(T, std::vector<double>(P * 2, 0.0));
    std::vector<std::size_t> plastic_index(projs.size(), 0);  // position among the plastic projections
    for (std::size_t q = 0, n = 0; q < projs.size(); ++q)
        if (is_plastic(projs[q].synapse.plasticity)) plastic_index[q] = n++;
    plastic_.assign(T, std::vector<plastic_table>(static_cast<std::size_t>(
                           std::count_if(projs.begin(), projs.end(),
                                         [](const projection& p) { return is_plastic(p.synapse.plasticity); }))));
    parallel_for_threads(threads_, [&](int ti) {
        const auto t = static_cast<std::size_t>(ti);
        for (std::size_t q = 0; q < projs.size(); ++q) {
            if (std::holds_alternative<convolution>(projs[q].rule) || std::holds_alternative<max_pool_gate>(projs[q].rule)) continue;
            const std::uint32_t sp = projs[q].source.value, tp = projs[q].target.value;
            const auto [b, e] = local_range(static_cast<int>(t), tp);
            if (b >= e) continue;
            if (is_plastic(projs[q].synapse.plasticity)) {  // its own table; the bounds set the scale
                const auto [w_lo, w_hi] = weight_bounds(projs[q].synapse.plasticity);
                double& mw = max_w[t][tp * 2 + static_cast<std::uint8_t>(projs[q].synapse.receptor)];
                mw = std::max({mw, std::abs(w_lo), std::abs(w_hi)});
                plastic_[t][plastic_index[q]] = plastic_table(net, q, options, b, e, first_[tp] + b - lo_[t]);
                continue;
            }
            auto& plan = plans[t][table_key(projs[q])];
            plan.row_sizes.resize(net.populations()[sp].size, 0);
            const auto r = static_cast<std::uint8_t>(projs[q].synapse.receptor);
            double& mw = max_w[t][tp * 2 + r];
            projection_expander ex(net, q, options.seed, options.dt_ms);
            for (std::uint32_t j = b; j < e; ++j) {
                ex.expand(j);
                for (std::size_t k = 0; k < ex.sources.size(); ++k) {
                    ++plan.row_sizes[ex.sources[k]];
                    mw = std::max(mw, std::abs(ex.weights[k]));
                    plan.shape.add(r, static_cast<std::uint32_t>(std::max(ex.delays[k], 1)), ex.weights[k]);
                }
            }
        }
    });
    // Convolutions keep their kernel, not a table; their largest weight sets the scale too.
    // The longest delay sets the ring's slots: one slot when every projection has zero delay.
    std::uint32_t max_delay = 0;
    std::vector<std::uint32_t> conv_delay(projs.size(), 0);
    for (std::size_t q = 0; q < projs.size(); ++q) {
        const auto* cv = std::get_if<convolution>(&projs[q].rule);
        if (std::holds_alternative<max_pool_gate>(projs[q].rule))  // gate hook: its weight and delay count too
            note_gate(net, q, options, max_w[0], conv_delay[q], max_delay);
        if (!cv) continue;
        const std::string object = "projection " + std::to_string(q) + " ('" + net.at(projs[q].source).name +
                                   "' -> '" + net.at(projs[q].target).name + "')";
        conv_delay[q] = static_cast<std::uint32_t>(delay_steps(std::get<double>(projs[q].synapse.delay_ms), options.dt_ms, object));
        max_delay = std::max(max_delay, conv_delay[q]);
        double m = 0;
        for (const double w : cv->kernel) m = std::max(m, std::abs(w));
        double& mw = max_w[0][projs[q].target.value * 2 + static_cast<std::uint8_t>(projs[q].synapse.receptor)];
        mw = std::max(mw, m);
    }
    // The fixed-point scale of each (target population, receptor) and the longest delay.
    std::vector<double> to_fixed(P * 2);
    scale_.resize(P * 2);
    for (std::size_t k = 0; k < P * 2; ++k) {
        double m = 0;
        for (std::size_t t = 0; t < T; ++t) m = std::max(m, max_w[t][k]);
        const int f = fixed_point_exponent(m);
        to_fixed[k] = std::ldexp(1.0, f);
        scale_[k] = std::ldexp(1.0, -f);
    }
    for (const auto& per_thread : plans)  // the delayed tables (zero-delay ones hold delay 1)
        for (std::size_t k = 0; k < P * P; ++k)
            if (!per_thread[k].row_sizes.empty()) max_delay = std::max(max_delay, per_thread[k].shape.max_delay);
    for (auto& per_thread : plastic_)
        for (auto& table : per_thread) {
            max_delay = std::max(max_delay, table.max_delay());
            table.set_fixed_point(to_fixed[table.target_population() * 2 + table.receptor()]);
            plastic_count_ += table.synapses();
            plastic_bytes_ += table.bytes();
        }
    synapse_count_ += plastic_count_;
    table_bytes_ += plastic_bytes_;
    tables_.assign(T, std::vector<synapse_table>(2 * P * P));
    parallel_for_threads(threads_, [&](int ti) {
        const auto t = static_cast<std::size_t>(ti);
        const std::uint32_t span = std::max<std::uint32_t>(lo_[t + 1] - lo_[t], 1) - 1;
        for (std::size_t k = 0; k < 2 * P * P; ++k) {
            auto& plan = plans[t][k];
            if (plan.row_sizes.empty()) continue;
            const std::size_t tp = k % P;
            const auto fixed = static_cast<std::int32_t>(std::llround(plan.shape.weight * to_fixed[tp * 2 + plan.shape.receptor]));
            tables_[t][k] = synapse_table(plan.row_sizes, plan.shape, fixed, span);
            plan.row_sizes = {};
        }
        for (std::size_t q = 0; q < projs.size(); ++q) {
            if (std::holds_alternative<convolution>(projs[q].rule) || std::holds_alternative<max_pool_gate>(projs[q].rule)) continue;
            const std::uint32_t tp = projs[q].target.value;
            const auto [b, e] = local_range(static_cast<int>(t), tp);
            if (b >= e || is_plastic(projs[q].synapse.plasticity)) continue;
            auto& table = tables_[t][table_key(projs[q])];
            const auto r = static_cast<std::uint8_t>(projs[q].synapse.receptor);
            const double fx = to_fixed[tp * 2 + r];
            const std::uint32_t base = first_[tp] - lo_[t];
            projection_expander ex(net, q, options.seed, options.dt_ms);
            for (std::uint32_t j = b; j < e; ++j) {
                ex.expand(j);
                for (std::size_t k = 0; k < ex.sources.size(); ++k)
                    table.put(ex.sources[k], base + j, r, static_cast<std::uint32_t>(std::max(ex.delays[k], 1)),
                              static_cast<std::int32_t>(std::llround(ex.weights[k] * fx)));
            }
        }
        for (auto& table : tables_[t]) table.finish();
    });
    convs_.resize(T);
    conv_values_.resize(T);
    row_sums_.resize(T);
    for (std::size_t t = 0; t < T; ++t)
        for (std::size_t q = 0; q < projs.size(); ++q) {
            const auto* cv = std::get_if<convolution>(&projs[q].rule);
            if (!cv) continue;
            const std::uint32_t sp = projs[q].source.value, tp = projs[q].target.value;
            const auto [b, e] = local_range(static_cast<int>(t), tp);
            if (b >= e) continue;
            const auto r = static_cast<std::uint8_t>(projs[q].synapse.receptor);
            // LIF and discrete neurons fire at most once per step; spike sources and ODE neurons
            // (several events in one step) may repeat a neuron.
            const bool once = std::holds_alternative<lif_population>(pops_[sp]) ||
                              std::holds_alternative<discrete_population>(pops_[sp]);
            convs_[t].emplace_back(*cv, sp, tp, r, conv_delay[q], to_fixed[tp * 2 + r], b, e, once);
            convs_[t].back().set_isa(isa_);
            table_bytes_ += convs_[t].back().bytes();
            synapse_count_ += convs_[t].back().synapses();
        }
    build_gates(net, conv_delay, to_fixed);  // gate hook
    find_in_place_convs(net);
    for (const auto& per_thread : tables_)
        for (const auto& tab : per_thread) {
            synapse_count_ += tab.synapses();
            table_bytes_ += tab.bytes();
        }
    find_direct_tables();
    slots_ = std::bit_ceil(static_cast<std::size_t>(max_delay) + 1);
    slot_mask_ = static_cast<std::int64_t>(slots_ - 1);
    if (uses_ring()) ring_.assign(slots_ * 2 * n_, 0);
}

void cpu_engine::order_populations(const network& net) {
    const auto& projs = net.projections();
    std::vector<std::uint32_t> pending(n_pops_, 0);  // zero-delay inputs from populations not yet placed
    sends_now_.assign(n_pops_, 0);
    for (const auto& q : projs)
        if (is_zero_delay(q.synapse)) {
            ++pending[q.target.value];
            sends_now_[q.source.value] = 1;
        }
    std::vector<std::uint8_t> placed(n_pops_, 0);
    order_.clear();
    while (order_.size() < n_pops_) {
        std::uint32_t p = 0;
        while (p < n_pops_ && (placed[p] || pending[p] > 0)) ++p;
        if (p == n_pops_) {
            std::string names;
            for (std::uint32_t k = 0; k < n_pops_; ++k)
                if (!placed[k] && pending[k] > 0) names += (names.empty() ? "'" : ", '") + net.populations()[k].name + "'";
            for (std::size_t q = 0; q < projs.size(); ++q)
                if (is_zero_delay(projs[q].synapse) && !placed[projs[q].source.value])
                    throw invalid_parameter("projection " + std::to_string(q) + " ('" + net.at(projs[q].source).name +
                                                "' -> '" + net.at(projs[q].target).name + "')",
                                            "delay_ms", "0",
                                            "zero-delay projections form a cycle among populations " + names +
                                                "; give one projection of the cycle a delay of at least one step");
        }
        placed[p] = 1;
        order_.push_back(p);
        for (const auto& q : projs)
            if (is_zero_delay(q.synapse) && q.source.value == p) --pending[q.target.value];
    }
}

void cpu_engine::update_range(int t, std::int64_t s, std::barrier<>* sync) {
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
    std::int64_t* cells = ring_.empty() ? nullptr : ring_.data() + (static_cast<std::size_t>(slot) * n_ + first_[p]) * 2;
    const std::int64_t shift = std::int64_t{lo_[t]} - first_[p];
    if (auto* lif = std::get_if<lif_population>(&pops_[p])) {
        if (s > 0 && lif->currents_change_at(s)) lif->apply_currents(s, lb, le);
        lif->update(t, s, lb, le, {cells, in, shift, scale_[p * 2], scale_[p * 2 + 1]}, out);
        if (s > 0 && direct_[p]) deliver_direct(t, s - 1, p, *lif);
    } else if (auto* ode = std::get_if<ode_population>(&pops_[p])) {
        if (s > 0 && ode->currents_change_at(s)) ode->apply_currents(s, lb, le);
        ode->update(s, lb, le, {cells, in, shift, scale_[p * 2], scale_[p * 2 + 1]}, out);
    } else if (auto* dn = std::get_if<discrete_population>(&pops_[p])) {
        discrete_population::step_input input{cells, scale_[p * 2], scale_[p * 2 + 1], inhibited_[p] != 0, fed_[p] != 0};
        if (const std::int32_t k = in_place_conv_[static_cast<std::size_t>(t)][p]; k >= 0) {
            const auto sums = convs_[static_cast<std::size_t>(t)][static_cast<std::size_t>(k)].take_in_place();
            input.sums = sums.sums;
            input.sums_shift = sums.shift;
        }
        dn->update(lb, le, input, out);
    } else if (const auto* an = std::get_if<analog_population>(&pops_[p])) {
        for (std::uint32_t k : in) cells[2 * (k + shift)] = cells[2 * (k + shift) + 1] = 0;  // sources take no input
        an->update(s, lb, le, out);
    } else {
        for (std::uint32_t k : in) cells[2 * (k + shift)] = cells[2 * (k + shift) + 1] = 0;  // sources take no input
        std::get<source_population>(pops_[p]).update(s, lb, le, 0, out);
    }
    in.clear();
}

void cpu_engine::deliver(int t, std::int64_t s) {
    std::uint64_t events = 0;
    for (std::uint32_t sp = 0; sp < n_pops_; ++sp) events += deliver_from(t, s, sp, false);
    for (auto& table : plastic_[static_cast<std::size_t>(t)]) events += deliver_plastic(t, s, table);
    counters_[static_cast<std::size_t>(t)].events += events;
}

std::uint64_t cpu_engine::deliver_from(int t, std::int64_t s, std::uint32_t sp, bool now) {
    const std::size_t lo = lo_[t];
    std::int64_t* ring = ring_.data();
    const std::size_t n = n_;
    // Zero-delay tables hold delay 1: they arrive in step s as if sent in step s - 1.
    const std::int64_t sent = now ? s - 1 : s;
    const auto* tables = tables_[static_cast<std::size_t>(t)].data() + (now ? std::size_t{n_pops_} * n_pops_ : 0) +
                         std::size_t{sp} * n_pops_;
    std::uint64_t events = 0;
    for (std::uint32_t tp = 0; tp < n_pops_; ++tp) {
        const auto& table = tables[tp];
        if (table.synapses() == 0 || (!now && is_direct(t, sp, tp))) continue;
        if (std::holds_alternative<analog_population>(pops_[sp])) {
            events += deliver_analog(t, s, sent, sp, tp, table);
        } else if (table.uniform()) {
            // One receptor, delay and weight: add the weight at each target and list the
            // row as touched, in one pass over it.
            const std::int64_t slot = (sent + table.delay()) & slot_mask_;
            std::int64_t* cells = ring + (static_cast<std::size_t>(slot) * n + lo) * 2 + table.receptor();
            const std::int64_t w = table.weight();
            auto& hit = touched(t, tp, slot);
            for (int u = 0; u < threads_; ++u)
                for (const std::uint32_t g : spikes_of(s, u, sp)) {
                    const auto row = table.row(g);
                    events += row.size();
                    for (const std::uint32_t off : row) cells[2 * std::size_t{off}] += w;
                    hit.insert(hit.end(), row.begin(), row.end());
                }
        } else if (table.one_route() && !follows_touched_list(tp)) {
            // One receptor and delay onto a population that reads every cell (a converted
            // dense layer): the row's weights add into one slot, with no list to keep.
            const std::int64_t slot = (sent + table.delay()) & slot_mask_;
            std::int64_t* cells = ring + (static_cast<std::size_t>(slot) * n + lo) * 2 + table.receptor();
            if (table.shared_targets()) {
                events += deliver_shared_targets(t, s, sp, table, cells);
                continue;
            }
            for (int u = 0; u < threads_; ++u)
                for (const std::uint32_t g : spikes_of(s, u, sp)) {
                    const auto row = table.row(g);
                    const std::int32_t* weights = table.row_weights(g);
                    events += row.size();
                    for (std::size_t k = 0; k < row.size(); ++k) cells[2 * std::size_t{table.target_of(row[k])}] += weights[k];
                }
        } else {
            // Discrete populations read every ring cell: no touched list to keep.
            const bool listed = follows_touched_list(tp);
            for (int u = 0; u < threads_; ++u)
                for (const std::uint32_t g : spikes_of(s, u, sp)) {
                    const auto row = table.row(g);
                    const std::int32_t* weights = table.row_weights(g);
                    events += row.size();
                    for (std::size_t k = 0; k < row.size(); ++k) {
                        const std::uint32_t word = row[k], off = table.target_of(word);
                        const std::int64_t slot = (sent + table.delay_of(word)) & slot_mask_;
                        ring[(static_cast<std::size_t>(slot) * n + lo + off) * 2 + table.receptor_of(word)] += weights[k];
                        if (listed) touched(t, tp, slot).push_back(off);
                    }
                }
        }
    }
    for (auto& conv : convs_[static_cast<std::size_t>(t)]) {
        if (conv.source() != sp || (conv.delay() == 0) != now) continue;
        const auto* analog = std::get_if<analog_population>(&pops_[sp]);
        for (int u = 0; u < threads_; ++u) {
            const auto& spikes = spikes_of(s, u, sp);
            if (!analog) {
                events += conv.add_spikes(spikes);
                continue;
            }
            auto& values = conv_values_[static_cast<std::size_t>(t)];
            values.clear();
            for (const std::uint32_t g : spikes) values.push_back(analog->value(s, g));
            events += conv.add_spikes(spikes, values.data());
        }
        const std::int64_t slot = (s + conv.delay()) & slot_mask_;
        // Discrete populations read every ring cell; LIF and ODE populations follow the touched list.
        const bool listed = follows_touched_list(conv.target());
        conv.flush(ring + (static_cast<std::size_t>(slot) * n + first_[conv.target()]) * 2 + conv.receptor(),
                   std::int64_t{first_[conv.target()]} - static_cast<std::int64_t>(lo),
                   listed ? &touched(t, conv.target(), slot) : nullptr);
    }
    events += deliver_gates(t, s, sp, now);
    return events;
}

// Pre spikes first (depression, then delivery of the new weight), then the post spikes of the
// thread's own targets (potentiation): the same order for every thread count.
std::uint64_t cpu_engine::deliver_plastic(int t, std::int64_t s, plastic_table& table) {
    if (table.synapses() == 0) return 0;
    const std::size_t lo = lo_[t], n = n_;
    const std::uint32_t tp = table.target_population(), r = table.receptor();
    std::uint64_t events = 0;
    auto add = [&](std::uint32_t off, std::uint32_t delay, std::int32_t w) {
        const std::int64_t slot = (s + delay) & slot_mask_;
        ring_[(static_cast<std::size_t>(slot) * n + lo + off) * 2 + r] += w;
        touched(t, tp, slot).push_back(off);
    };
    for (int u = 0; u < threads_; ++u)
        for (const std::uint32_t g : spikes_of(s, u, table.source_population())) events += table.on_pre_spike(g, s + 1, add);
    for (const std::uint32_t j : spikes_of(s, t, tp)) table.on_post_spike(j, s + 1);
    return events;
}

std::int64_t cpu_engine::run(std::int64_t steps, const progress_callback& progress, std::int64_t interval) {
    if (threads_ == 1) return run_one_thread(steps, progress, interval);
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
    const bool pairs = pairs_allowed(progress, interval);
    parallel_for_threads(threads_, [&](int t) {
        std::int64_t s = s0;
        if (pairs) {  // the same sequence, two steps at a time (cpu_engine_pairs.cpp)
            bool stopped = false;
            for (; s + 1 < s1 && !stopped; s += 2) {
                prepare_pair(t, s, s == s0);
                step_barrier.arrive_and_wait();  // every thread has read the spikes it adds or sorts
                update_pair(t, s);
                if (t == 0) {
                    try {
                        if (failure ||
                            (progress && interval > 0 && (s + 2 - s0) % interval == 0 && !progress(s + 2 - s0, steps)))
                            stop_after.store(s + 1);
                    } catch (...) {
                        failure = std::current_exception();
                        stop_after.store(s + 1);
                    }
                }
                step_barrier.arrive_and_wait();  // every thread's spikes are in
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
                step_barrier.arrive_and_wait();  // before any thread overwrites the spikes it read
            }
            if (stopped) return;
        }
        for (; s < s1; ++s) {
            update_range(t, s, &step_barrier);
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

// The same sequence as run() without the thread team and its barriers, which would cost more
// than a small network's whole step.
std::int64_t cpu_engine::run_one_thread(std::int64_t steps, const progress_callback& progress, std::int64_t interval) {
    const auto t0 = std::chrono::steady_clock::now();
    const std::int64_t s0 = step_, s1 = step_ + steps;
    std::int64_t done = 0;
    std::exception_ptr failure;
    std::int64_t s = s0;
    bool stop = false;
    if (pairs_allowed(progress, interval)) {  // the same sequence, two steps at a time (cpu_engine_pairs.cpp)
        for (; s + 1 < s1 && !stop; s += 2) {
            prepare_pair(0, s, s == s0);
            update_pair(0, s);
            try {
                stop = progress && interval > 0 && (s + 2 - s0) % interval == 0 && !progress(s + 2 - s0, steps);
                record_pair(s);
                done = s + 2 - s0;
            } catch (...) {
                failure = std::current_exception();
                stop = true;
            }
        }
        if (s > s0) finish_pairs(0, s);
    }
    for (; s < s1 && !stop; ++s) {
        update_range(0, s, nullptr);
        try {
            stop = progress && interval > 0 && (s + 1 - s0) % interval == 0 && !progress(s + 1 - s0, steps);
            record_spikes(s);
            step_ = s + 1;
            done = s + 1 - s0;
            for (const auto& sink : state_sinks_)
                if ((step_ - sink.start) % sink.data->interval_steps == 0) sample_state(sink);
        } catch (...) {
            failure = std::current_exception();
            stop = true;
        }
        deliver(0, s);
    }
    for (auto& sink : spike_sinks_) sink.data->steps_recorded += done;
    sim_s_ += seconds_since(t0);
    if (failure) std::rethrow_exception(failure);
    return done;
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
    st.threads = threads_;
    return st;
}

}  // namespace volley::snn::detail
