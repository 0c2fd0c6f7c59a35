// Plastic synapse tables (see plastic_table.hpp).

#include "backends/cpu/plastic_table.hpp"

#include <volley/error.hpp>

#include <algorithm>
#include <bit>
#include <cmath>

#include "model/format_number.hpp"

namespace volley::snn::detail {

namespace {

/// A rule parameter of list element k: the constant, or its element (network::connect allowed
/// lists only for connectors that give each synapse its element).
double rule_value(const value_spec& v, const synapse_list& list, std::size_t k) {
    if (const auto* c = std::get_if<double>(&v)) return *c;
    return std::get<std::vector<double>>(v)[list.list_index[k]];
}

}  // namespace

stdp_constants stdp_constants::from(const plasticity_rule& rule) {
    stdp_constants k;
    if (const auto* p = std::get_if<stdp_pair>(&rule)) {
        k.tau_r1_ms = k.tau_r2_ms = p->tau_plus_ms;
        k.tau_o1_ms = k.tau_o2_ms = p->tau_minus_ms;
        k.a2_plus = p->a_plus;
        k.a2_minus = p->a_minus;
        k.w_min = p->w_min;
        k.w_max = p->w_max;
        k.nearest = p->pairing == stdp_pairing::nearest;
        k.dependence = p->dependence;
        k.mu = p->mu;
        k.dendritic_delay_ms = p->dendritic_delay_ms;
    } else if (const auto* t = std::get_if<stdp_triplet>(&rule)) {
        k.tau_r1_ms = t->tau_plus_ms;
        k.tau_r2_ms = t->tau_x_ms;
        k.tau_o1_ms = t->tau_minus_ms;
        k.tau_o2_ms = t->tau_y_ms;
        k.a2_plus = t->a2_plus;
        k.a3_plus = t->a3_plus;
        k.a2_minus = t->a2_minus;
        k.a3_minus = t->a3_minus;
        k.w_min = t->w_min;
        k.w_max = t->w_max;
        k.nearest = t->pairing == stdp_pairing::nearest;
        k.triplet = true;
    }
    return k;
}

plastic_table::plastic_table(const network& net, std::size_t projection, const simulation_options& options,
                             std::uint32_t begin, std::uint32_t end, std::uint32_t ring_base)
    : projection_(projection), begin_(begin), ring_base_(ring_base), dt_ms_(options.dt_ms) {
    const auto& proj = net.projections()[projection];
    k_ = stdp_constants::from(proj.synapse.plasticity);
    post_shift_ = std::llround(k_.dendritic_delay_ms / options.dt_ms);
    source_pop_ = proj.source.value;
    target_pop_ = proj.target.value;
    receptor_ = static_cast<std::uint32_t>(proj.synapse.receptor);
    const std::uint32_t n_src = net.at(proj.source).size;

    synapse_list list;
    expand_projection(net, projection, options.seed, options.dt_ms, begin, end, list);
    const std::string object = "projection " + std::to_string(projection) + " ('" + net.at(proj.source).name +
                               "' -> '" + net.at(proj.target).name + "')";
    const auto* stp = std::get_if<tsodyks_markram>(&proj.synapse.plasticity);
    const auto* release = std::get_if<stochastic_release>(&proj.synapse.plasticity);
    const bool bounded = changes_weights(proj.synapse.plasticity);
    for (std::size_t k = 0; k < list.size(); ++k) {
        if (bounded && (list.weight[k] < k_.w_min || list.weight[k] > k_.w_max))
            throw invalid_parameter(object, "weight", format_number(list.weight[k]),
                                    "a plastic synapse's initial weight must lie within [w_min, w_max] = [" +
                                        format_number(k_.w_min) + ", " + format_number(k_.w_max) + "]");
        max_delay_ = std::max(max_delay_, static_cast<std::uint32_t>(list.delay[k]));
        min_delay_ = std::min(min_delay_, static_cast<std::uint32_t>(list.delay[k]));
    }
    if (list.size() >= (std::uint64_t{1} << 32))
        throw error(object + ": 2^32 or more plastic synapses onto one thread's targets; use more threads");
    delay_bits_ = static_cast<std::uint32_t>(std::bit_width(std::max<std::uint32_t>(max_delay_, 2) - 1));
    delay_mask_ = (1u << delay_bits_) - 1;
    const std::uint32_t n_tgt = end > begin ? end - begin : 0;
    if (n_tgt > 0 && std::bit_width(n_tgt - 1) + delay_bits_ > 32)
        throw error(object + ": " + std::to_string(n_tgt) + " targets per thread with delays up to " +
                    std::to_string(max_delay_) + " steps do not fit the 32-bit synapse word; use more threads");

    // Rows by source (counting sort of the target-major list); the target index keeps the
    // list's order, which is the connector's.
    row_begin_.assign(n_src + 1, 0);
    for (std::uint32_t s : list.source) ++row_begin_[s + 1];
    for (std::uint32_t i = 0; i < n_src; ++i) row_begin_[i + 1] += row_begin_[i];
    std::vector<std::uint32_t> cursor(row_begin_.begin(), row_begin_.end() - 1);
    words_.resize(list.size());
    weights_.resize(list.size());
    col_begin_.assign(n_tgt + 1, 0);
    col_synapse_.resize(list.size());
    col_source_.resize(list.size());
    for (std::size_t k = 0; k < list.size(); ++k) {
        const std::uint32_t j = list.target[k] - begin, pos = cursor[list.source[k]]++;
        words_[pos] = (j << delay_bits_) | static_cast<std::uint32_t>(list.delay[k] - 1);
        weights_[pos] = list.weight[k];
        ++col_begin_[j + 1];
        col_synapse_[k] = pos;
        col_source_[k] = list.source[k];
    }
    for (std::uint32_t j = 0; j < n_tgt; ++j) col_begin_[j + 1] += col_begin_[j];
    auto value = [&](const value_spec& v, std::size_t k) { return rule_value(v, list, k); };
    const auto* quantal = std::get_if<quantal_release>(&proj.synapse.plasticity);
    if (release || quantal) {  // the draws of a synapse are named by its place among its target's
        release_rank_.resize(list.size());
        for (std::uint32_t j = 0; j < n_tgt; ++j)
            for (std::uint32_t k = col_begin_[j]; k < col_begin_[j + 1]; ++k) release_rank_[col_synapse_[k]] = k - col_begin_[j];
        release_key_ = options.seed + 0x9E3779B97F4A7C15ull * (static_cast<std::uint64_t>(projection) + 1);
    }
    if (release) {
        const bool per_synapse = !std::holds_alternative<double>(release->p_transmit);
        if (per_synapse && list.list_index.size() != list.size())
            throw error(object + ": stochastic_release probabilities per synapse need a connector with lists");
        release_p_.assign(per_synapse ? list.size() : 1, per_synapse ? 0.0 : std::get<double>(release->p_transmit));
        if (per_synapse)
            for (std::size_t k = 0; k < list.size(); ++k) release_p_[col_synapse_[k]] = value(release->p_transmit, k);
        release_on_ = true;
    }
    if (quantal) build_quantal(*quantal, list, object);
    if (stp) {
        const bool per_synapse = !std::holds_alternative<double>(stp->u) || !std::holds_alternative<double>(stp->tau_rec_ms) ||
                                 !std::holds_alternative<double>(stp->tau_facil_ms) ||
                                 !std::holds_alternative<double>(stp->tau_psc_ms);
        if (per_synapse && list.list_index.size() != list.size())
            throw error(object + ": tsodyks_markram parameters per synapse need a connector with lists");
        stp_k_.resize(per_synapse ? list.size() : 1);
        for (std::size_t k = 0; k < (per_synapse ? list.size() : std::size_t{1}); ++k) {
            const std::size_t pos = per_synapse ? col_synapse_[k] : 0;
            stp_k_[pos] = {value(stp->u, k), value(stp->tau_rec_ms, k), value(stp->tau_facil_ms, k), value(stp->tau_psc_ms, k)};
        }
        stp_.assign(list.size(), {});
        stp_on_ = true;
    }
    pre_.assign(n_src, {});
    if (quantal_on_)
        for (auto& p : pre_) p.last = no_spike;
    post_.assign(n_tgt, {});
    tau_ms_[trace_o1] = k_.tau_o1_ms;
    tau_ms_[trace_r1] = k_.tau_r1_ms;
    tau_ms_[trace_r2] = k_.tau_r2_ms;
    tau_ms_[trace_o2] = k_.tau_o2_ms;
    decay_.resize(4 * decay_steps);
    for (std::size_t i = 0; i < 4; ++i)
        for (std::int64_t lag = 0; lag < decay_steps; ++lag)
            decay_[i * decay_steps + static_cast<std::size_t>(lag)] = decay_factor(lag, static_cast<trace_kind>(i));
}

void plastic_table::build_quantal(const quantal_release& rule, const synapse_list& list, const std::string& object) {
    std::vector<const value_spec*> specs{&rule.u, &rule.tau_rec_ms, &rule.tau_facil_ms, &rule.sites};
    if (rule.initial_u) specs.push_back(&*rule.initial_u);
    if (rule.initial_available) specs.push_back(&*rule.initial_available);
    const bool per_synapse =
        std::any_of(specs.begin(), specs.end(), [](const value_spec* v) { return !std::holds_alternative<double>(*v); });
    if (per_synapse && list.list_index.size() != list.size())
        throw error(object + ": quantal_release parameters per synapse need a connector with lists");
    auto value = [&](const value_spec& v, std::size_t k) { return rule_value(v, list, k); };
    quantal_k_.resize(per_synapse ? list.size() : 1);
    quantal_.resize(list.size());
    for (std::size_t k = 0; k < list.size(); ++k) {
        const std::size_t pos = col_synapse_[k];
        const quantal_constants c{value(rule.u, k), value(rule.tau_rec_ms, k), value(rule.tau_facil_ms, k),
                                  static_cast<std::uint32_t>(value(rule.sites, k))};
        quantal_k_[per_synapse ? pos : 0] = c;
        quantal_[pos] = {rule.initial_u ? value(*rule.initial_u, k) : c.u,
                         rule.initial_available ? static_cast<std::uint32_t>(value(*rule.initial_available, k)) : c.sites};
    }
    quantal_on_ = true;
}

void plastic_table::rebuild(const network& net, const simulation_options& options) {
    if (row_begin_.empty()) return;  // a thread without targets of this projection
    const double to_fixed = to_fixed_;
    *this = plastic_table(net, projection_, options, begin_, begin_ + static_cast<std::uint32_t>(post_.size()), ring_base_);
    to_fixed_ = to_fixed;
}

void plastic_table::jump(double& a, double& b, std::int64_t& last, std::int64_t now, trace_kind ka,
                         trace_kind kb) const {
    if (k_.nearest) {
        a = 1;
        b = 1;
    } else {
        a = decayed(a, last, now, ka) + 1;
        if (k_.triplet) b = decayed(b, last, now, kb) + 1;
    }
    last = now;
}

void plastic_table::on_post_spike(std::uint32_t target, std::int64_t stamp) {
    if (stp_on_ || release_on_ || quantal_on_ || target < begin_ || target - begin_ >= post_.size()) return;
    const std::uint32_t j = target - begin_;
    auto& post = post_[j];
    const double o2 = k_.triplet ? decayed(post.x2, post.last, stamp, trace_o2) : 0.0;
    const double amp = k_.a2_plus + k_.a3_plus * o2;
    if (k_.dependence == stdp_weight_dependence::power_law) potentiate_column<stdp_weight_dependence::power_law>(j, amp, stamp);
    else if (k_.dependence == stdp_weight_dependence::soft_bounds) potentiate_column<stdp_weight_dependence::soft_bounds>(j, amp, stamp);
    else potentiate_column<stdp_weight_dependence::additive>(j, amp, stamp);  // multiplicative potentiates additively
    jump(post.x1, post.x2, post.last, stamp, trace_o1, trace_o2);
}

template <stdp_weight_dependence D>
void plastic_table::potentiate_column(std::uint32_t j, double amp, std::int64_t stamp) {
    // The column's weights lie scattered over the rows, and its sources' traces over the
    // sources (one cache miss each in a large table, or with many sources, as on one of many
    // ranks): fetch both some synapses ahead, so the misses overlap instead of adding up.
    constexpr std::uint32_t ahead = 16;
    const std::uint32_t end = col_begin_[j + 1];
    const double span = k_.w_max - k_.w_min;
    for (std::uint32_t c = col_begin_[j]; c < end; ++c) {
        if (c + ahead < end) {
            __builtin_prefetch(&weights_[col_synapse_[c + ahead]], 1, 0);
            __builtin_prefetch(&pre_[col_source_[c + ahead]], 0, 0);
        }
        const auto& pre = pre_[col_source_[c]];
        double& w = weights_[col_synapse_[c]];
        double dw = decayed(pre.x1, pre.last, stamp, trace_r1) * amp;
        if constexpr (D == stdp_weight_dependence::power_law) dw *= std::pow(w, k_.mu);
        if constexpr (D == stdp_weight_dependence::soft_bounds) dw *= (k_.w_max - w) / span;
        w = std::min(k_.w_max, w + dw);
    }
}

void plastic_table::append_weights(std::vector<std::uint32_t>& sources, std::vector<std::uint32_t>& targets,
                                   std::vector<double>& weights) const {
    for (std::uint32_t j = 0; j + 1 < col_begin_.size(); ++j)
        for (std::uint32_t c = col_begin_[j]; c < col_begin_[j + 1]; ++c) {
            sources.push_back(col_source_[c]);
            targets.push_back(begin_ + j);
            weights.push_back(weights_[col_synapse_[c]]);
        }
}

std::uint64_t plastic_table::bytes() const noexcept {
    return 4 * (row_begin_.size() + words_.size() + col_begin_.size() + col_synapse_.size() + col_source_.size()) +
           8 * (weights_.size() + decay_.size()) + sizeof(trace) * (pre_.size() + post_.size()) +
           sizeof(stp_state) * stp_.size() + sizeof(stp_constants) * stp_k_.size() +
           8 * release_p_.size() + 4 * release_rank_.size() + sizeof(quantal_constants) * quantal_k_.size() +
           sizeof(quantal_state) * quantal_.size();
}

}  // namespace volley::snn::detail
