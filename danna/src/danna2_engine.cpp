#include "danna2_engine.hpp"

#include <algorithm>

namespace volley::danna::detail {

namespace {

/// Compressed rows: for each key k, the items with that key, in item order.
void build_csr(std::size_t keys, const std::vector<std::uint32_t>& key_of,
               std::vector<std::uint32_t>& begin, std::vector<std::uint32_t>& items) {
    begin.assign(keys + 1, 0);
    for (auto k : key_of) ++begin[k + 1];
    for (std::size_t k = 0; k < keys; ++k) begin[k + 1] += begin[k];
    items.assign(key_of.size(), 0);
    std::vector<std::uint32_t> fill(begin.begin(), begin.end() - 1);
    for (std::uint32_t i = 0; i < key_of.size(); ++i) items[fill[key_of[i]]++] = i;
}

}  // namespace

danna2_engine::danna2_engine(const hardware_network& net, const cycle_rules& rules)
    : rules_(rules) {
    const std::size_t n = net.neurons.size();
    std::map<node_id, std::uint32_t> index;
    for (std::uint32_t i = 0; i < n; ++i) {
        index[net.neurons[i].id] = i;
        threshold_.push_back(net.neurons[i].threshold);
        refractory_.push_back(net.neurons[i].refractory);
        if (rules_.threshold_inclusive && net.neurons[i].threshold <= 0) self_firing_.push_back(i);
    }
    std::vector<std::uint32_t> pre, post;
    int max_delay = 1;
    for (const auto& s : net.synapses) {
        pre.push_back(index.at(s.from));
        post.push_back(index.at(s.to));
        target_.push_back(index.at(s.to));
        weight_.push_back(s.weight);
        delay_.push_back(s.delay);
        learning_.push_back(s.learning ? 1 : 0);
        any_learning_ = any_learning_ || s.learning;
        max_delay = std::max(max_delay, s.delay);
    }
    build_csr(n, pre, out_begin_, out_);
    build_csr(n, post, in_begin_, in_);
    ring_.resize(static_cast<std::size_t>(max_delay) + 1);
    clear_activity();
    counts_ = {};
}

void danna2_engine::clear_activity() {
    const std::size_t n = threshold_.size();
    charge_.assign(n, 0);
    refractory_end_.assign(n, -1);
    last_update_.assign(n, -1);
    sum_.assign(n, 0);
    touched_.assign(n, 0);
    touched_list_.clear();
    in_flight_.assign(target_.size(), 0);
    last_delivery_.assign(target_.size(), -1);
    for (auto& bucket : ring_) bucket.clear();
    inputs_.clear();
    now_ = 0;
    counts_ = {};
}

void danna2_engine::inject(std::uint32_t neuron, cycle_t cycle, std::int32_t value) {
    inputs_[cycle].emplace_back(neuron, value);
}

std::int32_t danna2_engine::leaked(std::int32_t c, cycle_t cycles) const {
    if (rules_.leak_shift == 0) return c;
    for (cycle_t k = 0; k < cycles; ++k) {
        const std::int32_t d = c >> rules_.leak_shift;
        if (d == 0) break;
        c -= d;
    }
    return c;
}

std::int32_t danna2_engine::charge(std::uint32_t neuron) const {
    return leaked(charge_[neuron], now_ - 1 - last_update_[neuron]);
}

void danna2_engine::touch(std::uint32_t n) {
    if (!touched_[n]) {
        touched_[n] = 1;
        touched_list_.push_back(n);
    }
}

void danna2_engine::run_until(cycle_t end, std::vector<fire_event>& fires) {
    for (; now_ < end; ++now_) step(now_, fires);
}

void danna2_engine::step(cycle_t t, std::vector<fire_event>& fires) {
    // Deliveries due now: dropped (with LTD) while the target is refractory.
    auto& due = ring_[static_cast<std::size_t>(t) % ring_.size()];
    for (const std::uint32_t s : due) {
        --in_flight_[s];
        const std::uint32_t n = target_[s];
        if (t <= refractory_end_[n]) {
            ++counts_.refractory_drops;
            if (learning_[s]) {
                weight_[s] = std::max(rules_.weight_min, weight_[s] - rules_.ltd_step);
                ++counts_.ltd_updates;
            }
            continue;
        }
        sum_[n] += weight_[s];
        last_delivery_[s] = t;
        ++counts_.synapse_deliveries;
        touch(n);
    }
    due.clear();
    // External inputs.
    if (!inputs_.empty() && inputs_.begin()->first <= t) {
        for (const auto& [n, v] : inputs_.begin()->second) {
            if (t <= refractory_end_[n]) {
                ++counts_.refractory_drops;
                continue;
            }
            sum_[n] += v;
            ++counts_.inputs;
            touch(n);
        }
        inputs_.erase(inputs_.begin());
    }
    for (const std::uint32_t n : self_firing_)
        if (t > refractory_end_[n]) touch(n);
    // Integrate, leak, threshold test.
    for (const std::uint32_t n : touched_list_) {
        touched_[n] = 0;
        ++counts_.element_updates;
        std::int32_t c = leaked(charge_[n], t - 1 - last_update_[n]);
        c = saturate_charge(c + sum_[n], rules_);
        sum_[n] = 0;
        if (rules_.leak_shift != 0) c -= c >> rules_.leak_shift;
        charge_[n] = c;
        last_update_[n] = t;
        if (rules_.threshold_inclusive ? c >= threshold_[n] : c > threshold_[n]) fire(n, t, fires);
    }
    touched_list_.clear();
}

void danna2_engine::fire(std::uint32_t n, cycle_t t, std::vector<fire_event>& fires) {
    charge_[n] = 0;
    refractory_end_[n] = t + refractory_[n];
    fires.push_back({n, t});
    ++counts_.neuron_fires;
    if (any_learning_) {
        for (std::uint32_t k = in_begin_[n]; k < in_begin_[n + 1]; ++k) {
            const std::uint32_t s = in_[k];
            if (learning_[s] && last_delivery_[s] >= 0 &&
                t - last_delivery_[s] < rules_.ltp_window) {
                weight_[s] = std::min(rules_.weight_max, weight_[s] + rules_.ltp_step);
                last_delivery_[s] = -1;
                ++counts_.ltp_updates;
            }
        }
    }
    for (std::uint32_t k = out_begin_[n]; k < out_begin_[n + 1]; ++k) {
        const std::uint32_t s = out_[k];
        if (in_flight_[s] >= rules_.fifo_depth) {
            ++counts_.fifo_overflows;
            continue;
        }
        ++in_flight_[s];
        ring_[static_cast<std::size_t>(t + delay_[s]) % ring_.size()].push_back(s);
    }
}

}  // namespace volley::danna::detail
