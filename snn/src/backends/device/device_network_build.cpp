// The host side of the device backends (see device_network_build.hpp). Everything that decides
// a number the step uses comes from the code the CPU engine uses: the lowering (fixed-point
// scales, direct pairs), lif_population (propagators, initial state, refractory steps),
// projection_expander (synapses), current_schedule (stimuli). The device steps those numbers
// with its own kernels.

#include "backends/device/device_network_build.hpp"

#include <volley/error.hpp>

#include <algorithm>
#include <cmath>

#include "backends/cpu/current_schedule.hpp"
#include "backends/cpu/discrete_population.hpp"
#include "backends/cpu/lif_population.hpp"
#include "backends/cpu/structured/structured_projection.hpp"
#include "backends/cpu/thread_team.hpp"
#include "backends/device/propagation_strategy.hpp"
#include "build/connectivity.hpp"
#include "build/poisson_parameters.hpp"
#include "lowering/fixed_point.hpp"
#include "lowering/lowered_network.hpp"
#include "lowering/memory_budget.hpp"
#include "lowering/model_family.hpp"
#include "model/spike_time_step.hpp"

namespace volley::snn::detail {

struct device_currents {
    current_schedule schedule;
    std::vector<double> bias;  ///< [neuron]
};

bool currents_change_at(const device_currents& c, std::int64_t s) { return c.schedule.changes_at(s); }

void currents_fill(const device_currents& c, std::int64_t s, std::vector<double>& i_ext) {
    i_ext.assign(c.bias.begin(), c.bias.end());
    c.schedule.add_amplitudes(s, 0, static_cast<std::uint32_t>(i_ext.size()), i_ext);
}

std::shared_ptr<const device_currents> currents_now(const device_currents& c, const network& net, std::uint32_t p,
                                                    const simulation_options& options) {
    return std::make_shared<device_currents>(
        device_currents{current_schedule(net, population_index{p}, options.dt_ms, options.seed), c.bias});
}

namespace {

[[noreturn]] void unsupported(const std::string& backend, const std::string& model, const std::string& what) {
    throw unsupported_model(model, what + ": the " + backend +
                                       " backend runs lif_delta, lif_exp, lif_alpha, discrete_neuron, poisson_source, "
                                       "spike_source and analog_source populations with static projections; use the "
                                       "cpu backend");
}

device_population describe_lif(const network& net, std::uint32_t p, const simulation_options& options,
                               double scale_e, double scale_i) {
    const lif_population lif(net, population_index{p}, options.dt_ms, options.seed);
    auto b = lif.export_built_state();
    device_population d;
    d.model = b.kind == 0 ? device_model::lif_delta : b.kind == 1 ? device_model::lif_exp : device_model::lif_alpha;
    d.n = lif.size();
    d.scaled = b.scaled;
    d.rescale_period = b.rescale_period;
    for (int r = 0; r < 2; ++r) {
        d.decay_power[r] = std::move(b.decay_power[r]);
        d.input_power[r] = std::move(b.input_power[r]);
    }
    d.v = std::move(b.v), d.ie = std::move(b.ie), d.ii = std::move(b.ii), d.xe = std::move(b.xe), d.xi = std::move(b.xi);
    // Every parameter as a column of n: the same values as the CPU's single value, so the same
    // arithmetic. The scaled form keeps v relative to v_rest, its reset and threshold too.
    auto column = [&](std::vector<double> c) {
        if (c.size() == 1 && d.n != 1) c.assign(d.n, c[0]);
        return c;
    };
    const double v_rest0 = b.v_rest[0];
    d.v_rest = column(b.v_rest), d.p22 = column(b.p22), d.p20 = column(b.p20);
    d.v_reset = column(b.v_reset), d.v_thresh = column(b.v_thresh);
    if (d.scaled) {
        for (double& x : d.v_reset) x -= v_rest0;
        for (double& x : d.v_thresh) x -= v_rest0;
    }
    d.p11e = column(b.p11e), d.p11i = column(b.p11i), d.p21e = column(b.p21e), d.p21i = column(b.p21i);
    d.p31e = column(b.p31e), d.p31i = column(b.p31i), d.jump_e = column(b.jump_e), d.jump_i = column(b.jump_i);
    d.i_ext = column(b.i_bias);
    d.ref_steps.assign(d.n, b.ref_steps[0]);
    if (b.ref_steps.size() == d.n) d.ref_steps = b.ref_steps;
    current_schedule schedule(net, population_index{p}, options.dt_ms, options.seed);
    if (!schedule.empty()) {
        auto c = std::make_shared<device_currents>(device_currents{std::move(schedule), d.i_ext});
        currents_fill(*c, 0, d.i_ext);
        d.currents = std::move(c);
    }
    d.scale_e = scale_e, d.scale_i = scale_i;
    return d;
}

device_population describe_discrete(const network& net, std::uint32_t p, const simulation_options& options) {
    auto b = discrete_population(net, population_index{p}, options.dt_ms, options.seed).export_built_state();
    device_population d;
    d.model = device_model::discrete;
    d.n = net.populations()[p].size;
    d.reset_mode = static_cast<std::uint8_t>(b.reset);
    d.v = std::move(b.v), d.i_syn = std::move(b.i_syn), d.v_leak = std::move(b.v_leak);
    d.v_thresh = std::move(b.v_threshold), d.v_reset = std::move(b.v_reset), d.w_in = std::move(b.w_in);
    d.i_ext = std::move(b.i_bias), d.r = std::move(b.r), d.syn_keep = std::move(b.syn_keep);
    d.mem_keep = std::move(b.mem_keep), d.in_gain = std::move(b.in_gain), d.cross = std::move(b.cross);
    d.has_syn = std::move(b.has_syn), d.drive_from_i = std::move(b.drive_from_i);
    return d;
}

/// A convolution or gate as the device runs it (the CPU's structured_factory.cpp).
void describe_structured(const network& net, std::size_t q, double to_fixed, device_projection& dq) {
    const auto& pr = net.projections()[q];
    auto& g = dq.structured;
    if (const auto* c = std::get_if<convolution>(&pr.rule)) {
        dq.connector = device_connector::convolution;
        g.in_c = c->in_channels, g.in_h = c->in_height, g.in_w = c->in_width;
        g.out_c = c->out_channels, g.out_h = c->out_height(), g.out_w = c->out_width();
        g.k_h = c->kernel_height, g.k_w = c->kernel_width, g.stride_h = c->stride_h, g.stride_w = c->stride_w;
        g.pad_top = c->pad_top, g.pad_left = c->pad_left, g.dil_h = c->dilation_h, g.dil_w = c->dilation_w;
        g.groups = c->groups;
        const bool once = spikes_once_per_step(family_of(net.populations()[pr.source.value].model));
        g.kernel = make_conv_fixed_kernel(*c, to_fixed, once).weights;
        return;
    }
    const auto& m = std::get<max_pool_gate>(pr.rule);
    dq.connector = device_connector::max_pool_gate;
    g.in_c = g.out_c = m.channels, g.in_h = m.in_height, g.in_w = m.in_width;
    g.out_h = m.out_height(), g.out_w = m.out_width();
    g.k_h = m.pool_h, g.k_w = m.pool_w, g.stride_h = m.stride_h, g.stride_w = m.stride_w;
    g.pad_top = m.pad_top, g.pad_left = m.pad_left;
    g.weight = to_fixed_point(std::get<double>(pr.synapse.weight), to_fixed);
}

}  // namespace

void use_postsynaptic(device_projection& q, std::uint32_t targets) {
    q.strategy = device_propagation::postsynaptic;
    q.col_begin.assign(targets + 1, 0);
    for (const std::uint32_t t : q.targets) ++q.col_begin[t + 1];
    for (std::uint32_t t = 0; t < targets; ++t) q.col_begin[t + 1] += q.col_begin[t];
    std::vector<std::uint32_t> cursor(q.col_begin.begin(), q.col_begin.end() - 1);
    const std::size_t n = q.targets.size();
    q.col_sources.resize(n);
    q.col_weights.resize(n);
    q.col_delays.resize(n);
    const auto sources = static_cast<std::uint32_t>(q.row_begin.size() - 1);
    for (std::uint32_t src = 0; src < sources; ++src)
        for (std::uint32_t k = q.row_begin[src]; k < q.row_begin[src + 1]; ++k) {
            const std::uint32_t at = cursor[q.targets[k]]++;
            q.col_sources[at] = src, q.col_weights[at] = q.weights[k], q.col_delays[at] = q.delays[k];
        }
}

device_network describe_for_device(const network& net, const simulation_options& options, const std::string& backend) {
    check_expected_size(net, options.max_memory_bytes, 1);  // before the connectors are expanded
    if (!(options.dt_ms > 0) || !std::isfinite(options.dt_ms))
        throw invalid_parameter("simulation", "dt_ms", std::to_string(options.dt_ms), "must be finite and > 0");
    const auto& pops = net.populations();
    const auto& projs = net.projections();
    for (const auto& p : pops)
        if (!std::holds_alternative<lif_delta>(p.model) && !std::holds_alternative<lif_exp>(p.model) &&
            !std::holds_alternative<lif_alpha>(p.model) && !std::holds_alternative<poisson_source>(p.model) &&
            !std::holds_alternative<spike_source>(p.model) && !std::holds_alternative<discrete_neuron>(p.model) &&
            !std::holds_alternative<analog_source>(p.model))
            unsupported(backend, model_name(p.model), "population '" + p.name + "'");
    for (std::size_t q = 0; q < projs.size(); ++q) {
        const auto& pr = projs[q];
        const std::string what = "projection " + std::to_string(q) + " ('" + pops[pr.source.value].name + "' -> '" +
                                 pops[pr.target.value].name + "')";
        if (is_plastic(pr.synapse.plasticity)) unsupported(backend, "plastic synapse", what);
    }
    const auto low = lower(net, options, local_context(), 1,
                           [](int parts, const std::function<void(int)>& body) { parallel_for_threads(parts, body); });
    const std::size_t P = pops.size();
    device_network d;
    d.dt_ms = options.dt_ms;
    d.order = low.order.order;
    for (std::uint32_t p = 0; p < P; ++p) {
        const auto& pop = pops[p];
        const double se = low.synapses.scale[p * 2], si = low.synapses.scale[p * 2 + 1];
        device_population dp;
        if (std::holds_alternative<poisson_source>(pop.model)) {
            dp.model = device_model::poisson;
            dp.n = pop.size;
            auto c = poisson_parameters(net, population_index{p}, options.seed);
            if (c.renewal)
                throw unsupported_model("poisson_source", "population '" + pop.name + "': a dead time or a gamma shape "
                                                          "other than 1 on the " + backend +
                                                          " backend (the cpu backend runs it)");
            dp.rate_per_ms = std::move(c.rate_per_ms);
            dp.start_ms = std::move(c.start_ms);
            dp.stop_ms = std::move(c.stop_ms);
            dp.seed = options.seed;
        } else if (const auto* ss = std::get_if<spike_source>(&pop.model)) {
            dp.model = device_model::spike_array;
            dp.n = pop.size;
            dp.spike_begin.push_back(0);
            for (std::uint32_t i = 0; i < pop.size; ++i) {  // the steps of the CPU's source_population
                std::vector<std::int64_t> steps;
                for (const double t : ss->spike_times_ms[i]) steps.push_back(spike_time_step(t, options.dt_ms));
                std::sort(steps.begin(), steps.end());
                dp.spike_steps.insert(dp.spike_steps.end(), steps.begin(), steps.end());
                dp.spike_begin.push_back(static_cast<std::uint32_t>(dp.spike_steps.size()));
            }
        } else if (std::holds_alternative<discrete_neuron>(pop.model)) {
            dp = describe_discrete(net, p, options);
        } else if (const auto* as = std::get_if<analog_source>(&pop.model)) {
            dp.model = device_model::analog;
            dp.n = pop.size;
            for (const auto& row : as->values) dp.analog_values.insert(dp.analog_values.end(), row.begin(), row.end());
        } else {
            dp = describe_lif(net, p, options, se, si);
        }
        dp.name = pop.name;
        dp.index = p;
        dp.scale_e = se, dp.scale_i = si;
        d.populations.push_back(std::move(dp));
    }
    for (std::size_t q = 0; q < projs.size(); ++q) {
        const auto& pr = projs[q];
        const std::uint32_t sp = pr.source.value, tp = pr.target.value;
        device_projection dq;
        dq.source = sp, dq.target = tp;
        dq.receptor = static_cast<std::uint32_t>(pr.synapse.receptor);
        dq.direct = low.direct[sp * P + tp] != 0;
        dq.zero_delay = is_zero_delay(pr.synapse);
        const double fx = low.synapses.to_fixed[tp * 2 + dq.receptor];
        if (is_structured(pr.rule)) {
            describe_structured(net, q, fx, dq);
            dq.delay = low.synapses.structured_delay[q];
            d.max_delay = std::max(d.max_delay, dq.delay);
            const structured_state cpu = make_structured({.net = net, .index = q, .delay = dq.delay, .to_fixed = fx,
                                                          .begin = 0, .end = pops[tp].size,
                                                          .source_spikes_once = false, .isa = cpu_isa::baseline});
            d.synapses += std::visit([](const auto& k) { return k.synapses(); }, cpu);  // the CPU's count
            d.table_bytes += 8 * dq.structured.kernel.size();
            d.projections.push_back(std::move(dq));
            continue;
        }
        // Expand by target (the streams are per target), then sort into rows by source.
        std::vector<std::uint32_t> src, tgt;
        std::vector<std::int32_t> w;
        std::vector<std::uint16_t> del;
        projection_expander ex(net, q, options.seed, options.dt_ms);
        for (std::uint32_t j = 0; j < pops[tp].size; ++j) {
            ex.expand(j);
            for (std::size_t k = 0; k < ex.sources.size(); ++k) {
                const int delay = dq.zero_delay ? 0 : std::max(ex.delays[k], 1);
                if (delay > 65535)
                    throw invalid_parameter("projection " + std::to_string(q), "delay_ms",
                                            std::to_string(delay) + " steps", "the device backends hold at most 65535");
                src.push_back(ex.sources[k]);
                tgt.push_back(j);
                w.push_back(static_cast<std::int32_t>(to_fixed_point(ex.weights[k], fx)));
                del.push_back(static_cast<std::uint16_t>(delay));
                d.max_delay = std::max<std::uint32_t>(d.max_delay, static_cast<std::uint32_t>(delay));
            }
        }
        const std::uint32_t ns = pops[sp].size;
        dq.row_begin.assign(ns + 1, 0);
        for (const std::uint32_t s : src) ++dq.row_begin[s + 1];
        for (std::uint32_t s = 0; s < ns; ++s) dq.row_begin[s + 1] += dq.row_begin[s];
        std::vector<std::uint32_t> cursor(dq.row_begin.begin(), dq.row_begin.end() - 1);
        dq.targets.resize(src.size());
        dq.weights.resize(src.size());
        dq.delays.resize(src.size());
        for (std::size_t k = 0; k < src.size(); ++k) {
            const std::uint32_t at = cursor[src[k]]++;
            dq.targets[at] = tgt[k], dq.weights[at] = w[k], dq.delays[at] = del[k];
        }
        if (dq.direct && !w.empty()) dq.direct_weight = w[0];
        propagation_case pc{.synapses = src.size(), .sources = ns, .targets = pops[tp].size};
        if (d.populations[sp].model == device_model::poisson) {  // the mean rate over the sources
            const auto& rate = d.populations[sp].rate_per_ms;
            double sum = 0;
            for (const double r : rate) sum += r;
            pc.spike_probability = rate.empty() ? 0 : sum / static_cast<double>(rate.size()) * options.dt_ms;
        }
        if (choose_propagation(pc).kind == device_propagation::postsynaptic) use_postsynaptic(dq, pops[tp].size);
        d.synapses += src.size();
        d.table_bytes += 4 * dq.row_begin.size() + 10 * src.size();
        d.projections.push_back(std::move(dq));
    }
    return d;
}

}  // namespace volley::snn::detail
