// The lowering's synapse plan (see synapse_plan.hpp). The tables are planned by expanding every
// connector once per part, each target drawing from its own streams, and counting each row:
// no list of all synapses ever exists. The engine's fill regenerates the same synapses.

#include "lowering/synapse_plan.hpp"

#include <volley/snn/distributed_context.hpp>

#include <algorithm>
#include <cmath>
#include <string>

#include "build/connectivity.hpp"
#include "lowering/fixed_point.hpp"

namespace volley::snn::detail {

std::size_t table_key(const projection& q, std::size_t populations) {
    return (is_zero_delay(q.synapse) ? populations * populations : 0) + std::size_t{q.source.value} * populations +
           q.target.value;
}

bool is_structured(const connector& rule) {
    return std::holds_alternative<convolution>(rule) || std::holds_alternative<max_pool_gate>(rule);
}

namespace {

std::string projection_object(const network& net, std::size_t q) {
    const auto& proj = net.projections()[q];
    return "projection " + std::to_string(q) + " ('" + net.at(proj.source).name + "' -> '" + net.at(proj.target).name +
           "')";
}

/// Counts part k's rows of every table projection and folds in their weights and delays.
/// max_w: [target · 2 + receptor]; plastic: the delays of plastic synapses.
void plan_part(const network& net, const simulation_options& options, std::uint32_t lo, std::uint32_t hi,
               const std::vector<std::uint32_t>& first, std::vector<table_plan>& tables, std::vector<double>& max_w,
               synapse_table_shape& plastic) {
    const auto& projs = net.projections();
    const std::size_t P = net.populations().size();
    for (std::size_t q = 0; q < projs.size(); ++q) {
        const auto& proj = projs[q];
        if (is_structured(proj.rule)) continue;
        const std::uint32_t tp = proj.target.value;
        const std::uint32_t gb = std::max(lo, first[tp]), ge = std::min(hi, first[tp + 1]);
        if (gb >= ge) continue;  // no target of this part
        const auto r = static_cast<std::uint8_t>(proj.synapse.receptor);
        double& mw = max_w[tp * 2 + r];
        const bool plastic_q = is_plastic(proj.synapse.plasticity);
        if (plastic_q) {  // its own table; the bounds set the scale
            const auto [w_lo, w_hi] = weight_bounds(proj.synapse.plasticity);
            mw = std::max({mw, std::abs(w_lo), std::abs(w_hi)});
        }
        projection_expander ex(net, q, options.seed, options.dt_ms);
        if (plastic_q) {  // only its delays: its weights change, and it fills a table of its own
            // short-term plasticity delivers at most w, multi-quantal release w times its sites
            const double most = max_delivery_factor(proj.synapse.plasticity);
            for (std::uint32_t j = gb - first[tp]; j < ge - first[tp]; ++j) {
                ex.expand(j);
                for (std::size_t k = 0; k < ex.sources.size(); ++k) {
                    mw = std::max(mw, std::abs(ex.weights[k]) * most);
                    plastic.add(r, static_cast<std::uint32_t>(std::max(ex.delays[k], 1)), ex.weights[k]);
                }
            }
            continue;
        }
        auto& table = tables[table_key(proj, P)];
        table.row_sizes.resize(net.at(proj.source).size, 0);
        for (std::uint32_t j = gb - first[tp]; j < ge - first[tp]; ++j) {
            ex.expand(j);
            for (std::size_t k = 0; k < ex.sources.size(); ++k) {
                ++table.row_sizes[ex.sources[k]];
                mw = std::max(mw, std::abs(ex.weights[k]));
                table.shape.add(r, static_cast<std::uint32_t>(std::max(ex.delays[k], 1)), ex.weights[k]);
            }
        }
    }
}

}  // namespace

synapse_plan plan_synapses(const network& net, const simulation_options& options,
                           const std::vector<std::uint32_t>& bounds, const distributed_context& dist,
                           part_runner run) {
    const auto& projs = net.projections();
    const std::size_t P = net.populations().size(), parts = bounds.size() - 1;
    std::vector<std::uint32_t> first(P + 1, 0);
    for (std::size_t p = 0; p < P; ++p) first[p + 1] = first[p] + net.populations()[p].size;
    synapse_plan plan;
    plan.tables.assign(parts, std::vector<table_plan>(2 * P * P));
    std::vector<std::vector<double>> max_w(parts, std::vector<double>(P * 2, 0.0));
    std::vector<synapse_table_shape> plastic(parts);
    run(static_cast<int>(parts), [&](int k) {
        const auto i = static_cast<std::size_t>(k);
        plan_part(net, options, bounds[i], bounds[i + 1], first, plan.tables[i], max_w[i], plastic[i]);
    });
    for (std::size_t k = 1; k < parts; ++k)
        for (std::size_t i = 0; i < P * 2; ++i) max_w[0][i] = std::max(max_w[0][i], max_w[k][i]);
    // Convolutions keep their kernel and gates their weight: both set the scale too.
    plan.structured_delay.assign(projs.size(), 0);
    for (std::size_t q = 0; q < projs.size(); ++q) {
        if (!is_structured(projs[q].rule)) continue;
        const auto& proj = projs[q];
        const auto d = static_cast<std::uint32_t>(
            delay_steps(std::get<double>(proj.synapse.delay_ms), options.dt_ms, projection_object(net, q)));
        plan.structured_delay[q] = d;
        plan.max_delay = std::max(plan.max_delay, d);
        if (d > 0) plan.min_delay = std::min(plan.min_delay, d);
        double m = 0;
        if (const auto* cv = std::get_if<convolution>(&proj.rule))
            for (const double w : cv->kernel) m = std::max(m, std::abs(w));
        else
            m = std::abs(std::get<double>(proj.synapse.weight));
        double& mw = max_w[0][proj.target.value * 2 + static_cast<std::uint8_t>(proj.synapse.receptor)];
        mw = std::max(mw, m);
    }
    // The largest weight over every rank, not this rank's targets only: otherwise a rank whose
    // share of the weights stays below a power of two would round differently from one process.
    plan.to_fixed.resize(P * 2);
    plan.scale.resize(P * 2);
    for (std::size_t i = 0; i < P * 2; ++i) {
        const int f = static_cast<int>(dist.min(fixed_point_exponent(max_w[0][i])));
        plan.to_fixed[i] = std::ldexp(1.0, f);
        plan.scale[i] = std::ldexp(1.0, -f);
    }
    for (std::size_t k = 0; k < parts; ++k) {
        for (std::size_t key = 0; key < P * P; ++key)  // the delayed tables (zero-delay ones hold delay 1)
            if (const auto& t = plan.tables[k][key]; !t.row_sizes.empty()) {
                plan.max_delay = std::max(plan.max_delay, t.shape.max_delay);
                plan.min_delay = std::min(plan.min_delay, t.shape.min_delay);
            }
        if (plastic[k].delay != 0) {
            plan.max_delay = std::max(plan.max_delay, plastic[k].max_delay);
            plan.min_delay = std::min(plan.min_delay, plastic[k].min_delay);
        }
    }
    return plan;
}

}  // namespace volley::snn::detail
