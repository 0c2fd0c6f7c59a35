// The CPU engine's build of its synapse tables, fixed-point scales, ring buffer and epoch
// length (see cpu_engine.hpp).

#include "backends/cpu/cpu_engine.hpp"

#include <algorithm>
#include <bit>
#include <cmath>
#include <limits>

#include "backends/cpu/thread_team.hpp"
#include "build/connectivity.hpp"

namespace volley::snn::detail {

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
    std::uint32_t min_delay = std::numeric_limits<std::uint32_t>::max();  // of every projection but the zero-delay ones
    std::vector<std::uint32_t> conv_delay(projs.size(), 0);
    for (std::size_t q = 0; q < projs.size(); ++q) {
        const auto* cv = std::get_if<convolution>(&projs[q].rule);
        if (std::holds_alternative<max_pool_gate>(projs[q].rule)) {  // gate hook: its weight and delay count too
            note_gate(net, q, options, max_w[0], conv_delay[q], max_delay);
            if (conv_delay[q] > 0) min_delay = std::min(min_delay, conv_delay[q]);
        }
        if (!cv) continue;
        const std::string object = "projection " + std::to_string(q) + " ('" + net.at(projs[q].source).name +
                                   "' -> '" + net.at(projs[q].target).name + "')";
        conv_delay[q] = static_cast<std::uint32_t>(delay_steps(std::get<double>(projs[q].synapse.delay_ms), options.dt_ms, object));
        max_delay = std::max(max_delay, conv_delay[q]);
        if (conv_delay[q] > 0) min_delay = std::min(min_delay, conv_delay[q]);
        double m = 0;
        for (const double w : cv->kernel) m = std::max(m, std::abs(w));
        double& mw = max_w[0][projs[q].target.value * 2 + static_cast<std::uint8_t>(projs[q].synapse.receptor)];
        mw = std::max(mw, m);
    }
    // The fixed-point scale of each (target population, receptor), over every thread and rank.
    std::vector<double> to_fixed(P * 2);
    scale_.resize(P * 2);
    for (std::size_t k = 0; k < P * 2; ++k) {
        double m = 0;
        for (std::size_t t = 0; t < T; ++t) m = std::max(m, max_w[t][k]);
        // The largest weight over every rank, not this rank's targets only: otherwise a rank
        // whose share of the weights stays below a power of two would round differently from
        // one process (collective, in the same order on every rank).
        const int f = static_cast<int>(dist_.min(fixed_point_exponent(m)));
        to_fixed[k] = std::ldexp(1.0, f);
        scale_[k] = std::ldexp(1.0, -f);
    }
    for (const auto& per_thread : plans)  // the delayed tables (zero-delay ones hold delay 1)
        for (std::size_t k = 0; k < P * P; ++k)
            if (!per_thread[k].row_sizes.empty()) {
                max_delay = std::max(max_delay, per_thread[k].shape.max_delay);
                min_delay = std::min(min_delay, per_thread[k].shape.min_delay);
            }
    for (auto& per_thread : plastic_)
        for (auto& table : per_thread) {
            max_delay = std::max(max_delay, table.max_delay());
            min_delay = std::min(min_delay, table.min_delay());
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
            const auto fixed = static_cast<std::int32_t>(to_fixed_point(plan.shape.weight, to_fixed[tp * 2 + plan.shape.receptor]));
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
                              static_cast<std::int32_t>(to_fixed_point(ex.weights[k], fx)));
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
            const bool once =
                std::visit([](const auto& k) { return std::decay_t<decltype(k)>::spikes_once_per_step; }, pops_[sp]);
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
    choose_deliveries(net, options.dt_ms);
    epoch_ = epoch_steps(min_delay, max_delay);
    // Deliveries after an epoch reach up to max_delay steps past its last step, while the
    // epoch's own slots are still being read: max_delay + epoch_ slots.
    slots_ = std::bit_ceil(static_cast<std::size_t>(max_delay) + static_cast<std::size_t>(epoch_));
    slot_mask_ = static_cast<std::int64_t>(slots_ - 1);
    if (uses_ring()) ring_.assign(slots_ * 2 * n_, 0);
}

}  // namespace volley::snn::detail
