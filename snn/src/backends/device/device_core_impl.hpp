#pragma once
// The device core (device_core.hpp), written once on Thrust and compiled twice: the including
// file defines VOLLEY_DEVICE_NS (the namespace of its instance), VOLLEY_DEVICE_POLICY (the
// Thrust execution policy) and includes the vector header that device_vector_t names. The two
// instances use distinct vector types and functor namespaces, so they link into one library.
//
// A step s, for each population in the lowering's update order (the source of each zero-delay
// projection before its target):
//   1. one thread per neuron: the ring input of slot s, the update (LIF: the dense update, the
//      refractory count, the direct input; discrete neurons: the general step of
//      discrete_population) or the step's spikes (sources; an analog source "fires" where its
//      value is not 0); a flag or count per neuron;
//   2. an inclusive scan of the counts and a scatter list the step's spikes, ascending, into
//      the population's event queue slot s mod (max_delay + 1) (GeNN's layout: a count and an
//      id array per delay slot);
//   3. its zero-delay projections are delivered into slot s of their targets, which come later;
// then every other projection is delivered: a synapse table by its strategy
// (propagation_strategy.hpp): one thread per spike of its source adds the row's fixed-point
// weights into the target's ring slots s + d with integer atomics (presynaptic), or one thread
// per target adds count · weight for the sources that fired into its own cells
// (postsynaptic); a convolution or gated max-pool with one thread per target
// (device_structured_kernels.hpp). An analog source's events carry round(weight · value).
// The queues hold max_delay + 1 steps of spikes, so spikes are copied back once per epoch of
// that many steps, into the recorders the CPU engine writes.

#include <thrust/copy.h>
#include <thrust/fill.h>
#include <thrust/for_each.h>
#include <thrust/iterator/counting_iterator.h>
#include <thrust/scan.h>

#include <algorithm>
#include <cstdint>
#include <limits>
#include <vector>

#include "backends/device/device_core.hpp"
#include "backends/device/device_kernels.hpp"
#include "backends/device/device_structured_kernels.hpp"

namespace volley::snn::detail::VOLLEY_DEVICE_NS {

template <class T>
T* raw(device_vector_t<T>& v) {
    return thrust::raw_pointer_cast(v.data());
}
template <class T>
const T* raw(const device_vector_t<T>& v) {
    return thrust::raw_pointer_cast(v.data());
}
template <class T>
device_vector_t<T> upload(const std::vector<T>& h) {
    return device_vector_t<T>(h.begin(), h.end());
}

/// One population's columns, input ring and event queue in device memory.
struct device_population_state {
    device_model model;
    std::uint32_t n = 0;
    bool scaled = false;
    std::int64_t rescale_period = 1;
    std::vector<double> decay_power[2], input_power[2];
    double scale_e = 0, scale_i = 0;
    double p21e0 = 0, p21i0 = 0;  ///< scaled: the gains at scale 1 (one value for the population)
    device_vector_t<double> v, ie, ii, xe, xi, v_rest, v_reset, v_thresh, p22, p20, i_ext, p11e, p11i, p21e, p21i, p31e,
        p31i, jump_e, jump_i;
    device_vector_t<std::int32_t> refractory, ref_steps;
    std::shared_ptr<const device_currents> currents;
    std::vector<double> i_ext_host;
    // Discrete neurons (v, v_reset, v_thresh above; i_ext is i_bias).
    int reset_mode = 0;
    device_vector_t<double> i_syn, v_leak, w_in, r, syn_keep, mem_keep, in_gain, cross;
    device_vector_t<std::uint8_t> has_syn, drive_from_i;
    // Analog sources: [step][neuron].
    device_vector_t<double> analog_values;
    std::int64_t analog_steps = 0;
    // The initial state, for restart(): LIF and discrete columns, Poisson streams, i_ext of LIF.
    device_vector_t<double> v0, ie0, ii0, xe0, xi0, i_syn0, next_ms0, i_ext0;
    device_vector_t<philox_stream> rng0;
    // Sources: Poisson rates [1/ms] and stops [ms], one value (stride 0) or one per neuron (1).
    device_vector_t<double> rate_per_ms, stop_ms;
    std::uint32_t poisson_stride = 0;
    device_vector_t<double> next_ms;
    device_vector_t<philox_stream> rng;
    device_vector_t<std::uint32_t> spike_begin, cursor;
    device_vector_t<std::int64_t> spike_steps;
    // Input ring [slot][neuron][receptor], its touched flags, and direct event counts.
    device_vector_t<std::int64_t> cells;
    device_vector_t<std::uint32_t> touched, direct;
    bool direct_in[2] = {false, false};
    std::int32_t direct_weight[2] = {0, 0};
    // This step's spike counts and their scan; the event queue (one id array per slot).
    device_vector_t<std::uint32_t> fired, offsets;
    std::vector<device_vector_t<std::uint32_t>> queue;
    std::vector<std::uint32_t> queue_count;
};

struct device_projection_state {
    std::uint32_t source = 0, target = 0, receptor = 0;
    bool direct = false;
    device_connector connector = device_connector::table;
    std::uint32_t delay = 1;
    device_kernels::structured_geometry geometry{};
    device_vector_t<std::int64_t> kernel;  ///< convolution
    std::int64_t gate_weight = 0;
    device_vector_t<std::uint32_t> gate_count;  ///< gate: spikes of each source so far
    device_propagation strategy = device_propagation::presynaptic;
    device_vector_t<std::uint32_t> row_begin, targets, col_begin, col_sources;
    device_vector_t<std::int32_t> weights, col_weights;
    device_vector_t<std::uint16_t> delays, col_delays;
};

class core final : public device_core {
public:
    explicit core(const device_network& net)
        : dt_ms_(net.dt_ms), slots_(net.max_delay + 1), order_(net.order), events_(1, 0) {
        for (const auto& p : net.populations) pops_.push_back(make_state(p));
        sends_now_.resize(pops_.size());
        for (const auto& q : net.projections) {
            (q.zero_delay ? sends_now_[q.source] : after_step_).push_back(projs_.size());
            device_projection_state d;
            d.source = q.source, d.target = q.target, d.receptor = q.receptor, d.direct = q.direct;
            d.connector = q.connector, d.delay = q.delay;
            if (q.connector != device_connector::table) {
                const auto& g = q.structured;
                d.geometry = {g.in_c,     g.in_h,     g.in_w,    g.out_c,    g.out_h, g.out_w, g.k_h, g.k_w,
                              g.stride_h, g.stride_w, g.pad_top, g.pad_left, g.dil_h, g.dil_w, g.groups};
                d.kernel = upload(g.kernel);
                d.gate_weight = g.weight;
                if (q.connector == device_connector::max_pool_gate)
                    d.gate_count = device_vector_t<std::uint32_t>(pops_[q.source].n, 0u);
                projs_.push_back(std::move(d));
                continue;
            }
            d.row_begin = upload(q.row_begin), d.targets = upload(q.targets);
            d.weights = upload(q.weights), d.delays = upload(q.delays);
            d.strategy = q.strategy;
            if (q.strategy == device_propagation::postsynaptic) {
                d.col_begin = upload(q.col_begin), d.col_sources = upload(q.col_sources);
                d.col_weights = upload(q.col_weights), d.col_delays = upload(q.col_delays);
            }
            if (q.direct) {
                auto& t = pops_[q.target];
                if (t.direct.empty()) t.direct = device_vector_t<std::uint32_t>(2 * std::size_t{t.n}, 0u);
                t.direct_in[q.receptor] = true;
                t.direct_weight[q.receptor] = q.direct_weight;
            }
            projs_.push_back(std::move(d));
        }
    }

    void run(std::int64_t s0, std::int64_t n, device_spike_log& log) override {
        log.steps.resize(pops_.size());
        log.ids.resize(pops_.size());
        std::int64_t epoch_start = s0;
        for (std::int64_t s = s0; s < s0 + n; ++s) {
            for (const std::uint32_t p : order_) {  // zero-delay projections reach their targets within the step
                update(pops_[p], s);
                for (const std::size_t q : sends_now_[p]) deliver(projs_[q], s);
            }
            for (const std::size_t q : after_step_) deliver(projs_[q], s);
            if (s + 1 - epoch_start == static_cast<std::int64_t>(slots_) || s + 1 == s0 + n) {
                copy_back(epoch_start, s + 1, log);
                epoch_start = s + 1;
            }
        }
    }

    std::uint64_t synaptic_events() const override { return static_cast<std::uint64_t>(events_[0]); }

    void copy_column(std::uint32_t pop, int column, std::vector<double>& out) const override {
        const auto& p = pops_[pop];
        const auto& c = column == 0                                      ? p.v
                        : column == 1 && p.model == device_model::discrete ? p.i_syn
                        : column == 1                                      ? p.ie
                                                                           : p.ii;
        out.resize(c.size());
        thrust::copy(c.begin(), c.end(), out.begin());
    }

    void restart() override {
        for (auto& p : pops_) {
            thrust::fill(p.cells.begin(), p.cells.end(), std::int64_t{0});
            thrust::fill(p.touched.begin(), p.touched.end(), 0u);
            thrust::fill(p.direct.begin(), p.direct.end(), 0u);
            thrust::fill(p.fired.begin(), p.fired.end(), 0u);
            std::fill(p.queue_count.begin(), p.queue_count.end(), 0u);
            thrust::fill(p.refractory.begin(), p.refractory.end(), 0);
            thrust::copy(p.v0.begin(), p.v0.end(), p.v.begin());
            thrust::copy(p.ie0.begin(), p.ie0.end(), p.ie.begin());
            thrust::copy(p.ii0.begin(), p.ii0.end(), p.ii.begin());
            thrust::copy(p.xe0.begin(), p.xe0.end(), p.xe.begin());
            thrust::copy(p.xi0.begin(), p.xi0.end(), p.xi.begin());
            thrust::copy(p.i_syn0.begin(), p.i_syn0.end(), p.i_syn.begin());
            thrust::copy(p.i_ext0.begin(), p.i_ext0.end(), p.i_ext.begin());  // LIF only: discrete keeps its bias
            thrust::copy(p.next_ms0.begin(), p.next_ms0.end(), p.next_ms.begin());
            thrust::copy(p.rng0.begin(), p.rng0.end(), p.rng.begin());
            if (!p.spike_begin.empty()) thrust::copy(p.spike_begin.begin(), p.spike_begin.end() - 1, p.cursor.begin());
        }
        for (auto& q : projs_) thrust::fill(q.gate_count.begin(), q.gate_count.end(), 0u);
        events_[0] = 0;
    }

    void set_bias(std::uint32_t pop, const std::vector<double>& bias) override {
        thrust::copy(bias.begin(), bias.end(), pops_[pop].i_ext.begin());
    }

    std::shared_ptr<const device_currents> currents(std::uint32_t pop) const override { return pops_[pop].currents; }

    void set_currents(std::uint32_t pop, std::shared_ptr<const device_currents> c, std::int64_t s) override {
        auto& p = pops_[pop];
        p.currents = std::move(c);
        currents_fill(*p.currents, 0, p.i_ext_host);
        thrust::copy(p.i_ext_host.begin(), p.i_ext_host.end(), p.i_ext0.begin());
        currents_fill(*p.currents, s, p.i_ext_host);
        thrust::copy(p.i_ext_host.begin(), p.i_ext_host.end(), p.i_ext.begin());
    }

    void set_analog_values(std::uint32_t pop, const std::vector<double>& values) override {
        set_analog_values_of(pops_[pop], values);
    }

private:
    device_population_state make_state(const device_population& p) {
        device_population_state d;
        d.model = p.model;
        d.n = p.n;
        d.scale_e = p.scale_e, d.scale_i = p.scale_i;
        const std::size_t n = p.n;
        d.cells = device_vector_t<std::int64_t>(slots_ * 2 * n, 0);
        d.touched = device_vector_t<std::uint32_t>(slots_ * n, 0u);
        d.fired = device_vector_t<std::uint32_t>(n, 0u);
        d.offsets = device_vector_t<std::uint32_t>(n, 0u);
        d.queue.resize(slots_);
        d.queue_count.assign(slots_, 0);
        if (p.model == device_model::poisson) {
            d.rate_per_ms = upload(p.rate_per_ms), d.stop_ms = upload(p.stop_ms);
            d.poisson_stride = p.rate_per_ms.size() > 1 ? 1u : 0u;
            std::vector<double> next(n);
            std::vector<philox_stream> rng(n);
            for (std::uint32_t i = 0; i < p.n; ++i) {  // as source_population's constructor
                const std::size_t k = std::size_t{i} * d.poisson_stride;
                rng[i] = philox_stream::make(p.seed, 4u, p.index, i);
                next[i] = p.rate_per_ms[k] > 0 ? p.start_ms[k] + rng[i].exponential(p.rate_per_ms[k])
                                               : std::numeric_limits<double>::infinity();
            }
            d.next_ms = upload(next), d.rng = upload(rng);
            d.next_ms0 = upload(next), d.rng0 = upload(rng);
            return d;
        }
        if (p.model == device_model::spike_array) {
            d.spike_begin = upload(p.spike_begin), d.spike_steps = upload(p.spike_steps);
            d.cursor = upload(std::vector<std::uint32_t>(p.spike_begin.begin(), p.spike_begin.end() - 1));
            return d;
        }
        if (p.model == device_model::analog) {
            set_analog_values_of(d, p.analog_values);
            return d;
        }
        if (p.model == device_model::discrete) {
            d.reset_mode = p.reset_mode;
            d.v = upload(p.v), d.v0 = upload(p.v), d.i_syn = upload(p.i_syn), d.i_syn0 = upload(p.i_syn);
            d.v_leak = upload(p.v_leak), d.v_thresh = upload(p.v_thresh), d.v_reset = upload(p.v_reset);
            d.w_in = upload(p.w_in), d.i_ext = upload(p.i_ext), d.r = upload(p.r), d.syn_keep = upload(p.syn_keep);
            d.mem_keep = upload(p.mem_keep), d.in_gain = upload(p.in_gain), d.cross = upload(p.cross);
            d.has_syn = upload(p.has_syn), d.drive_from_i = upload(p.drive_from_i);
            return d;
        }
        d.scaled = p.scaled;
        d.p21e0 = p.p21e.empty() ? 0 : p.p21e[0], d.p21i0 = p.p21i.empty() ? 0 : p.p21i[0];
        d.rescale_period = p.rescale_period;
        for (int r = 0; r < 2; ++r) d.decay_power[r] = p.decay_power[r], d.input_power[r] = p.input_power[r];
        const std::vector<double> zeros(n, 0.0);
        d.v = upload(p.v);
        d.ie = upload(p.ie.empty() ? zeros : p.ie), d.ii = upload(p.ii.empty() ? zeros : p.ii);
        d.xe = upload(p.xe.empty() ? zeros : p.xe), d.xi = upload(p.xi.empty() ? zeros : p.xi);
        d.v_rest = upload(p.v_rest), d.v_reset = upload(p.v_reset), d.v_thresh = upload(p.v_thresh);
        d.p22 = upload(p.p22), d.p20 = upload(p.p20), d.i_ext = upload(p.i_ext);
        d.p11e = upload(p.p11e), d.p11i = upload(p.p11i), d.p21e = upload(p.p21e), d.p21i = upload(p.p21i);
        d.p31e = upload(p.p31e), d.p31i = upload(p.p31i), d.jump_e = upload(p.jump_e), d.jump_i = upload(p.jump_i);
        d.ref_steps = upload(p.ref_steps);
        d.refractory = device_vector_t<std::int32_t>(n, 0);
        d.v0 = d.v, d.ie0 = d.ie, d.ii0 = d.ii, d.xe0 = d.xe, d.xi0 = d.xi, d.i_ext0 = d.i_ext;
        d.currents = p.currents;
        return d;
    }

    template <class F>
    static void for_each_index(std::uint32_t n, const F& f) {
        thrust::for_each(VOLLEY_DEVICE_POLICY, thrust::counting_iterator<std::uint32_t>(0),
                         thrust::counting_iterator<std::uint32_t>(n), f);
    }

    void update(device_population_state& p, std::int64_t s) {
        if (p.n == 0) return;
        const std::size_t slot = static_cast<std::size_t>(s % static_cast<std::int64_t>(slots_));
        std::int64_t* cells = raw(p.cells) + slot * 2 * p.n;
        std::uint32_t* touched = raw(p.touched) + slot * p.n;
        if (p.model == device_model::poisson) {
            for_each_index(p.n, device_kernels::poisson_step{raw(p.next_ms), raw(p.rng), raw(p.fired), touched, cells,
                                                             raw(p.stop_ms), raw(p.rate_per_ms), p.poisson_stride,
                                                             static_cast<double>(s + 1) * dt_ms_,
                                                             std::numeric_limits<double>::infinity()});
        } else if (p.model == device_model::spike_array) {
            for_each_index(p.n, device_kernels::spike_array_step{raw(p.spike_begin), raw(p.spike_steps), raw(p.cursor),
                                                                 raw(p.fired), touched, cells, s + 1});
        } else if (p.model == device_model::analog) {
            for_each_index(p.n, device_kernels::analog_step{analog_row(p, s), raw(p.fired), touched, cells});
        } else if (p.model == device_model::discrete) {
            update_discrete(p, cells, touched);
        } else {
            if (p.currents && s > 0 && currents_change_at(*p.currents, s)) {
                currents_fill(*p.currents, s, p.i_ext_host);
                thrust::copy(p.i_ext_host.begin(), p.i_ext_host.end(), p.i_ext.begin());
            }
            update_lif(p, s, cells, touched);
        }
        thrust::inclusive_scan(VOLLEY_DEVICE_POLICY, p.fired.begin(), p.fired.end(), p.offsets.begin());
        const std::uint32_t total = p.offsets[p.n - 1];
        auto& ids = p.queue[slot];
        if (ids.size() < total) ids.resize(std::max<std::size_t>(total, 2 * ids.size()));
        p.queue_count[slot] = total;
        if (total > 0) for_each_index(p.n, device_kernels::list_spikes{raw(p.fired), raw(p.offsets), raw(ids)});
    }

    void update_lif(device_population_state& p, std::int64_t s, std::int64_t* cells, std::uint32_t* touched) {
        double gain_e = 1.0, gain_i = 1.0, p21e_k = 0, p21i_k = 0, re = 1, ri = 1;
        bool rescale = false;
        if (p.scaled) {  // lif_population: input_gain, step_chunk's rescaling and gains of step s
            const auto k = static_cast<std::size_t>(s % p.rescale_period);
            gain_e = p.input_power[0][k], gain_i = p.input_power[1][k];
            p21e_k = p.p21e0 * p.decay_power[0][k];
            p21i_k = p.p21i0 * p.decay_power[1][k];
            rescale = s > 0 && k == 0;
            const auto period = static_cast<std::size_t>(p.rescale_period);
            re = p.decay_power[0][period], ri = p.decay_power[1][period];
        }
        // cpu_engine::direct_weight: the fixed-point weight times the scale times the gain.
        const double dw_e = static_cast<double>(p.direct_weight[0]) * p.scale_e * gain_e;
        const double dw_i = static_cast<double>(p.direct_weight[1]) * p.scale_i * gain_i;
        auto launch = [&]<int K>() {
            device_kernels::lif_step<K> f{raw(p.v), raw(p.ie), raw(p.ii), raw(p.xe), raw(p.xi), raw(p.v_rest),
                                          raw(p.v_reset), raw(p.v_thresh), raw(p.p22), raw(p.p20), raw(p.i_ext),
                                          raw(p.p11e), raw(p.p11i), raw(p.p21e), raw(p.p21i), raw(p.p31e),
                                          raw(p.p31i), raw(p.jump_e), raw(p.jump_i), raw(p.refractory),
                                          raw(p.ref_steps), cells, touched,
                                          p.direct.empty() ? nullptr : raw(p.direct), raw(p.fired), p.scale_e,
                                          p.scale_i, gain_e, gain_i, dw_e, dw_i, p21e_k, p21i_k, re, ri, rescale,
                                          dt_ms_};
            for_each_index(p.n, f);
        };
        switch (p.model) {
            case device_model::lif_delta: launch.template operator()<0>(); break;
            case device_model::lif_exp:
                if (p.scaled) launch.template operator()<3>();
                else launch.template operator()<1>();
                break;
            default: launch.template operator()<2>(); break;
        }
    }

    /// An analog source's values of step s, or null past its table.
    const double* analog_row(device_population_state& p, std::int64_t s) {
        if (p.model != device_model::analog || s < 0 || s >= p.analog_steps) return nullptr;
        return raw(p.analog_values) + static_cast<std::size_t>(s) * p.n;
    }

    static void set_analog_values_of(device_population_state& p, const std::vector<double>& values) {
        p.analog_values = upload(values);
        p.analog_steps = p.n == 0 ? 0 : static_cast<std::int64_t>(values.size() / p.n);
    }

    void update_discrete(device_population_state& p, std::int64_t* cells, std::uint32_t* touched) {
        auto launch = [&]<int R>() {
            for_each_index(p.n, device_kernels::discrete_step<R>{
                                    raw(p.v), raw(p.i_syn), raw(p.v_leak), raw(p.v_thresh), raw(p.v_reset), raw(p.w_in),
                                    raw(p.i_ext), raw(p.r), raw(p.syn_keep), raw(p.mem_keep), raw(p.in_gain),
                                    raw(p.cross), raw(p.has_syn), raw(p.drive_from_i), cells, touched, raw(p.fired),
                                    p.scale_e, p.scale_i});
        };
        switch (p.reset_mode) {
            case 0: return launch.template operator()<0>();
            case 1: return launch.template operator()<1>();
            case 2: return launch.template operator()<2>();
            case 3: return launch.template operator()<3>();
            case 4: return launch.template operator()<4>();
            default: return launch.template operator()<5>();
        }
    }

    void deliver(device_projection_state& q, std::int64_t s) {
        auto& src = pops_[q.source];
        auto& tgt = pops_[q.target];
        const std::size_t slot = static_cast<std::size_t>(s % static_cast<std::int64_t>(slots_));
        if (src.queue_count[slot] == 0) return;  // no spike: nothing to add (a gate's counts do not move)
        if (q.connector == device_connector::max_pool_gate) {
            for_each_index(src.n, device_kernels::count_gate_spikes{raw(src.fired), raw(q.gate_count)});
            for_each_index(tgt.n, device_kernels::deliver_gate{q.geometry, q.gate_weight, raw(src.fired),
                                                               raw(q.gate_count), sink(q, tgt, s)});
            return;
        }
        const double* values = analog_row(src, s);
        if (q.connector == device_connector::convolution) {
            for_each_index(tgt.n, device_kernels::deliver_convolution{q.geometry, raw(q.kernel), raw(src.fired), values,
                                                                      sink(q, tgt, s)});
            return;
        }
        if (q.strategy == device_propagation::postsynaptic) {
            for_each_index(tgt.n, device_kernels::deliver_postsynaptic{
                                      raw(src.fired), raw(q.col_begin), raw(q.col_sources), raw(q.col_weights),
                                      raw(q.col_delays), raw(tgt.cells), raw(tgt.touched),
                                      q.direct ? raw(tgt.direct) : nullptr, raw(events_), values, s,
                                      static_cast<std::uint32_t>(slots_), tgt.n, q.receptor});
            return;
        }
        device_kernels::deliver_presynaptic f{raw(src.queue[slot]), raw(q.row_begin), raw(q.targets), raw(q.weights),
                                              raw(q.delays), raw(tgt.cells), raw(tgt.touched),
                                              q.direct ? raw(tgt.direct) : nullptr, raw(events_), values, s,
                                              static_cast<std::uint32_t>(slots_), tgt.n, q.receptor};
        for_each_index(src.queue_count[slot], f);
    }

    device_kernels::structured_sink sink(const device_projection_state& q, device_population_state& tgt, std::int64_t s) {
        return {raw(tgt.cells), raw(tgt.touched), raw(events_), s, static_cast<std::uint32_t>(slots_), tgt.n, q.receptor,
                q.delay};
    }

    void copy_back(std::int64_t a, std::int64_t b, device_spike_log& log) {
        std::vector<std::uint32_t> host;
        for (std::size_t p = 0; p < pops_.size(); ++p)
            for (std::int64_t s = a; s < b; ++s) {
                const std::size_t slot = static_cast<std::size_t>(s % static_cast<std::int64_t>(slots_));
                const std::uint32_t count = pops_[p].queue_count[slot];
                if (count == 0) continue;
                host.resize(count);
                thrust::copy(pops_[p].queue[slot].begin(), pops_[p].queue[slot].begin() + count, host.begin());
                log.ids[p].insert(log.ids[p].end(), host.begin(), host.end());
                log.steps[p].insert(log.steps[p].end(), count, s + 1);
            }
    }

    double dt_ms_;
    std::size_t slots_;
    std::vector<std::uint32_t> order_;  ///< the update order (the lowering's)
    std::vector<std::vector<std::size_t>> sends_now_;  ///< [population]: its zero-delay projections
    std::vector<std::size_t> after_step_;              ///< the other projections, delivered after every update
    std::vector<device_population_state> pops_;
    std::vector<device_projection_state> projs_;
    device_vector_t<unsigned long long> events_;
};

}  // namespace volley::snn::detail::VOLLEY_DEVICE_NS
