#include "risp_network.hpp"

#include <volley/hw/tennlab_error.hpp>

#include "edge_order.hpp"

#include <algorithm>
#include <bit>
#include <cmath>
#include <cstdio>
#include <numeric>

namespace volley::hw::detail {

namespace {

// Bounds of exact mode (see step_dense): |value| <= 2^16, in-degree <= 2^20 and
// |threshold|, |min_potential| <= 2^40 keep every charge below 2^42, far from 2^53.
constexpr double exact_value_limit = 65536.0;
constexpr double exact_charge_limit = 1099511627776.0;

std::string lg(double v) {
    char buf[64];
    std::snprintf(buf, sizeof buf, "%g", v);
    return buf;
}

/// Checks a value against its property's bounds and type (strict loading only).
void check_value(const property& p, double v, const std::string& object) {
    const bool integral = std::trunc(v) == v;
    std::string why;
    if (!std::isfinite(v))
        why = "not finite";
    else if (v < p.min_value || v > p.max_value)
        why = "outside [" + lg(p.min_value) + ", " + lg(p.max_value) + "]";
    else if (p.type != property_type::real && !integral)
        why = "not an integer";
    if (!why.empty()) throw tennlab_error(object, p.name + " = " + lg(v) + ": " + why, "");
}

}  // namespace

risp_network::risp_network(const risp_params& params, const tennlab_network& net,
                           bool strict_values)
    : min_potential_(params.min_potential),
      ravens_(params.fire_like_ravens),
      noisy_(params.noisy()),
      run_time_inclusive_(params.run_time_inclusive),
      params_(params) {
    const property_pack pack = params.network_properties();
    const std::size_t n = net.nodes.size();
    std::vector<std::size_t> by_id(n);
    std::iota(by_id.begin(), by_id.end(), 0);
    std::sort(by_id.begin(), by_id.end(),
              [&](std::size_t a, std::size_t b) { return net.nodes[a].id < net.nodes[b].id; });
    ids_.resize(n);
    charge_.assign(n, 0);
    threshold_.resize(n);
    leak_.assign(n, params.leak == leak_mode::all ? 1 : 0);
    touched_.assign(n, 0);
    tracked_.assign(n, 0);
    is_input_.assign(n, 0);
    fire_count_.assign(n, 0);
    last_fire_.assign(n, -1);
    for (std::size_t i = 0; i < n; ++i) {
        const tennlab_node& node = net.nodes[by_id[i]];
        ids_[i] = node.id;
        if (strict_values)
            for (const auto& p : pack.node)
                check_value(p, node.values[static_cast<std::size_t>(p.index)],
                            "node " + std::to_string(node.id));
        threshold_[i] = params.effective_threshold(node.values[0]);
        if (params.leak == leak_mode::configurable) leak_[i] = node.values[1] != 0 ? 1 : 0;
    }
    for (node_id id : net.inputs) is_input_[static_cast<std::size_t>(index_of(id))] = 1;
    for (node_id id : net.outputs) {
        outputs_.push_back(static_cast<std::uint32_t>(index_of(id)));
        tracked_[outputs_.back()] = 1;
    }

    // Synapses in reference order, bucketed by source neuron.
    std::vector<std::pair<std::uint32_t, std::uint32_t>> pairs;
    for (const auto& e : net.edges) pairs.emplace_back(e.from, e.to);
    const std::vector<std::size_t> order = reference_edge_order(pairs);
    std::vector<std::vector<std::size_t>> out_edges(n);
    std::uint32_t max_delay = 1;
    for (std::size_t k : order) {
        const tennlab_edge& e = net.edges[k];
        const std::string object = "edge " + std::to_string(e.from) + " -> " + std::to_string(e.to);
        if (strict_values)
            for (const auto& p : pack.edge)
                check_value(p, e.values[static_cast<std::size_t>(p.index)], object);
        const double w = e.values[0], d = e.values[1];
        if (!(d >= 1 && d < 1 << 24))
            throw tennlab_error(object, "Delay = " + lg(d) + ": must be in [1, 2^24)", "");
        if (!params.weights.empty() &&
            !(w >= 0 && std::trunc(w) < static_cast<double>(params.weights.size())))
            throw tennlab_error(object, "Weight = " + lg(w) + ": not an index of the weights table",
                                "");
        if (!std::isfinite(w)) throw tennlab_error(object, "Weight is not finite", "");
        max_delay = std::max(max_delay, static_cast<std::uint32_t>(d));
        out_edges[static_cast<std::size_t>(index_of(e.from))].push_back(k);
    }

    ord_begin_.push_back(0);
    group_begin_.push_back(0);
    for (std::size_t i = 0; i < n; ++i) {
        std::vector<std::uint32_t> local;  // positions into ord_* of this neuron's synapses
        for (std::size_t k : out_edges[i]) {
            const tennlab_edge& e = net.edges[k];
            local.push_back(static_cast<std::uint32_t>(ord_target_.size()));
            ord_target_.push_back(static_cast<std::uint32_t>(index_of(e.to)));
            ord_delay_.push_back(static_cast<std::uint32_t>(e.values[1]));
            ord_weight_.push_back(e.values[0]);
        }
        ord_begin_.push_back(static_cast<std::uint32_t>(ord_target_.size()));
        std::stable_sort(local.begin(), local.end(), [&](std::uint32_t a, std::uint32_t b) {
            return ord_delay_[a] < ord_delay_[b];
        });
        for (std::size_t s = 0; s < local.size(); ++s) {
            const std::uint32_t delay = ord_delay_[local[s]];
            if (s == 0 || ord_delay_[local[s - 1]] != delay)
                groups_.push_back({static_cast<std::uint32_t>(syn_target_.size()), 0, delay});
            const double w = ord_weight_[local[s]];
            syn_target_.push_back(ord_target_[local[s]]);
            syn_value_.push_back(
                params.weights.empty() ? w : params.weights[static_cast<std::size_t>(w)]);
            groups_.back().end = static_cast<std::uint32_t>(syn_target_.size());
        }
        group_begin_.push_back(static_cast<std::uint32_t>(groups_.size()));
    }
    touched_list_.resize(n);
    accumulator_.assign(n, 0.0);
    std::vector<std::uint32_t> in_degree(n, 0);
    for (std::uint32_t target : syn_target_) ++in_degree[target];
    exact_ = params.discrete && !noisy_ &&
             std::all_of(syn_value_.begin(), syn_value_.end(),
                         [](double v) {
                             return std::trunc(v) == v && std::fabs(v) <= exact_value_limit;
                         }) &&
             std::all_of(threshold_.begin(), threshold_.end(),
                         [](double v) { return std::fabs(v) <= exact_charge_limit; }) &&
             std::fabs(min_potential_) <= exact_charge_limit &&
             std::all_of(in_degree.begin(), in_degree.end(),
                         [](std::uint32_t d) { return d <= (1u << 20); });
    ring_.resize(std::bit_ceil(static_cast<std::size_t>(max_delay) + 1));
    ring_mask_ = static_cast<std::int64_t>(ring_.size()) - 1;
    rng_.seed(params.noisy_seed);
}

std::int64_t risp_network::index_of(node_id id) const {
    const auto it = std::lower_bound(ids_.begin(), ids_.end(), id);
    return it != ids_.end() && *it == id ? it - ids_.begin() : -1;
}

void risp_network::append(std::int64_t abs_step, const event_record& rec) {
    const std::int64_t horizon = now_ + ring_mask_;
    if (abs_step > horizon) {
        future_[abs_step].push_back(rec);
        return;
    }
    promote_future(horizon);
    ring_[static_cast<std::size_t>(abs_step & ring_mask_)].push_back(rec);
}

void risp_network::promote_future(std::int64_t limit) {
    while (!future_.empty() && future_.begin()->first <= limit) {
        auto node = future_.extract(future_.begin());
        auto& slot = ring_[static_cast<std::size_t>(node.key() & ring_mask_)];
        slot.insert(slot.end(), node.mapped().begin(), node.mapped().end());
    }
}

void risp_network::apply(std::uint32_t neuron, double time, double value, bool normalized) {
    const std::string object = "spike to node " + std::to_string(ids_[neuron]);
    if (normalized && (value < 0 || value > 1))
        throw tennlab_error(
            object, "risp::Network::apply_spike() - value (" + lg(value) + ") must be in [-1,1].");
    if (!(time >= 0 && time < 1e15))
        throw tennlab_error(object, "time " + lg(time) + " must be in [0, 1e15)", "");
    const std::vector<double>& weights = params_.weights;
    double v;
    if (params_.inputs_from_weights) {
        std::size_t index;
        if (!normalized) {
            const double t = std::trunc(value);
            if (!(t >= 0 && t < static_cast<double>(weights.size()))) {
                char buf[64];
                std::snprintf(buf, sizeof buf, "%.0f", std::isfinite(t) ? t : 0.0);
                throw tennlab_error(object, "weights index " + std::string(buf) + " out of range",
                                    buf);
            }
            index = static_cast<std::size_t>(t);
        } else {
            index = std::min(static_cast<std::size_t>(value * static_cast<double>(weights.size())),
                             weights.size() - 1);
        }
        v = params_.stds.empty() ? weights[index]
                                 : rng_.normal(weights[index], params_.stds[index]);
    } else if (normalized) {
        v = value * params_.spike_value_factor;
        if (params_.discrete) v = std::floor(v);
    } else {
        v = value;
    }
    if (params_.noisy_stddev != 0) v = rng_.normal(v, params_.noisy_stddev);
    if (!(std::trunc(v) == v && std::fabs(v) <= exact_value_limit)) exact_inputs_ = false;
    append(now_ + static_cast<std::int64_t>(time), {neuron, explicit_event, v});
}

void risp_network::run(double duration) {
    const double last = std::trunc(run_time_inclusive_ ? duration : duration - 1);
    if (!(last >= 0)) return;
    const std::int64_t steps = static_cast<std::int64_t>(last) + 1;
    std::fill(fire_count_.begin(), fire_count_.end(), 0);
    std::fill(last_fire_.begin(), last_fire_.end(), -1.0);
    fire_log_.clear();
    run_start_ = now_;
    for (std::int64_t t = 0; t < steps; ++t) step(now_ + t);
    now_ += steps;
    for (std::size_t i = 0; i < charge_.size(); ++i) {
        double c = leak_[i] ? 0.0 : charge_[i];
        charge_[i] = c < min_potential_ ? min_potential_ : c;
    }
}

void risp_network::record(std::uint32_t n, std::int64_t t) {
    const auto rel = static_cast<std::int32_t>(t - run_start_);
    ++fire_count_[n];
    last_fire_[n] = rel;
    if (tracked_[n]) fire_log_.emplace_back(n, rel);
    ++fires_;
}

double risp_network::synapse_value(std::uint32_t syn) {
    const double w = ord_weight_[syn];
    double base = w;
    if (!params_.weights.empty()) {
        const auto i = static_cast<std::size_t>(w);
        base = params_.stds.empty() ? params_.weights[i]
                                    : rng_.normal(params_.weights[i], params_.stds[i]);
    }
    return params_.noisy_stddev != 0 ? rng_.normal(base, params_.noisy_stddev) : base;
}

void risp_network::fire(std::uint32_t n, std::int64_t t) {
    if (noisy_) {
        for (std::uint32_t s = ord_begin_[n]; s < ord_begin_[n + 1]; ++s)
            ring_[static_cast<std::size_t>((t + ord_delay_[s]) & ring_mask_)].push_back(
                {ord_target_[s], explicit_event, synapse_value(s)});
    } else {
        for (std::uint32_t g = group_begin_[n]; g < group_begin_[n + 1]; ++g)
            ring_[static_cast<std::size_t>((t + groups_[g].delay) & ring_mask_)].push_back(
                {n, g, 0.0});
    }
    if (ravens_) {
        to_fire_.push_back(n);
    } else {
        record(n, t);
        charge_[n] = 0;
    }
}

void risp_network::step(std::int64_t t) {
    if (!future_.empty() && future_.begin()->first <= t + ring_mask_)
        promote_future(t + ring_mask_);
    for (std::uint32_t n : to_fire_) {
        record(n, t);
        charge_[n] = 0;
    }
    to_fire_.clear();

    auto& slot = ring_[static_cast<std::size_t>(t & ring_mask_)];
    if (exact_ && exact_inputs_) {
        std::size_t events = 0;
        for (const event_record& rec : slot)
            events +=
                rec.group == explicit_event ? 1 : groups_[rec.group].end - groups_[rec.group].begin;
        if (2 * events >= charge_.size()) {
            step_dense(slot, t);
            return;
        }
    }
    double* const charge = charge_.data();
    std::uint8_t* const touched = touched_.data();
    const std::uint8_t* const leak = leak_.data();
    const std::uint32_t* const target = syn_target_.data();
    const double* const value = syn_value_.data();
    const double floor = min_potential_;
    // touched_list_ has room for every neuron, and each neuron enters it at most once.
    std::uint32_t* const first_seen = touched_list_.data();
    std::size_t seen = 0;
    std::int64_t integrated = 0;
    // Leak and floor once per neuron before its first addition; then add in list order.
    auto deliver = [&](std::uint32_t n, double v) {
        if (!touched[n]) {
            touched[n] = 1;
            first_seen[seen++] = n;
            const double c = leak[n] ? 0.0 : charge[n];
            charge[n] = c < floor ? floor : c;
        }
        charge[n] += v;
    };
    for (const event_record& rec : slot) {
        if (rec.group == explicit_event) {
            deliver(rec.neuron, rec.value);
            ++integrated;
            continue;
        }
        const delay_group g = groups_[rec.group];
        for (std::uint32_t s = g.begin; s < g.end; ++s) deliver(target[s], value[s]);
        integrated += g.end - g.begin;
    }
    slot.clear();
    integrated_ += integrated;

    for (std::size_t i = 0; i < seen; ++i) {
        const std::uint32_t n = first_seen[i];
        touched[n] = 0;
        if (charge[n] >= threshold_[n]) fire(n, t);
    }
}

// In exact mode every delivered value and every charge is an integer well inside the range
// where doubles add exactly, so the sum of a step's events does not depend on their order,
// and neither does any later result (there is no noise). Busy steps can then add into a
// per-neuron accumulator without the first-touch test, and visit neurons in id order.
void risp_network::step_dense(std::vector<event_record>& slot, std::int64_t t) {
    double* const acc = accumulator_.data();
    std::uint8_t* const touched = touched_.data();
    const std::uint32_t* const target = syn_target_.data();
    const double* const value = syn_value_.data();
    std::int64_t integrated = 0;
    for (const event_record& rec : slot) {
        if (rec.group == explicit_event) {
            acc[rec.neuron] += rec.value;
            touched[rec.neuron] = 1;
            ++integrated;
            continue;
        }
        const delay_group g = groups_[rec.group];
        for (std::uint32_t s = g.begin; s < g.end; ++s) {
            acc[target[s]] += value[s];
            touched[target[s]] = 1;
        }
        integrated += g.end - g.begin;
    }
    slot.clear();
    integrated_ += integrated;
    double* const charge = charge_.data();
    const std::uint8_t* const leak = leak_.data();
    const double floor = min_potential_;
    const auto n_neurons = static_cast<std::uint32_t>(charge_.size());
    for (std::uint32_t n = 0; n < n_neurons; ++n) {
        if (!touched[n]) continue;
        touched[n] = 0;
        double c = leak[n] ? 0.0 : charge[n];
        c = (c < floor ? floor : c) + acc[n];
        acc[n] = 0;
        charge[n] = c;
        if (c >= threshold_[n]) fire(n, t);
    }
}

void risp_network::clear_activity() {
    exact_inputs_ = true;
    std::fill(charge_.begin(), charge_.end(), 0.0);
    std::fill(fire_count_.begin(), fire_count_.end(), 0);
    std::fill(last_fire_.begin(), last_fire_.end(), -1.0);
    fire_log_.clear();
    for (auto& slot : ring_) slot.clear();
    future_.clear();
    to_fire_.clear();
    now_ = 0;
    run_start_ = 0;
}

std::vector<std::vector<double>> risp_network::fire_times() const {
    std::vector<std::vector<double>> out(ids_.size());
    for (const auto& [n, t] : fire_log_) out[n].push_back(t);
    return out;
}

std::vector<double> risp_network::fire_times(std::uint32_t n) const {
    std::vector<double> out;
    for (const auto& [m, t] : fire_log_)
        if (m == n) out.push_back(t);
    return out;
}

std::vector<std::tuple<std::uint32_t, std::uint32_t, double>> risp_network::synapse_list() const {
    std::vector<std::tuple<std::uint32_t, std::uint32_t, double>> out;
    for (std::uint32_t n = 0; n + 1 < ord_begin_.size(); ++n)
        for (std::uint32_t s = ord_begin_[n]; s < ord_begin_[n + 1]; ++s)
            out.emplace_back(n, ord_target_[s], ord_weight_[s]);
    return out;
}

}  // namespace volley::hw::detail
