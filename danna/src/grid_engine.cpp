#include <volley/danna/grid_engine.hpp>

#include <volley/error.hpp>

#include <algorithm>

namespace volley::danna {

namespace {

using kind_t = element_kind;

/// Compressed rows from (key, item) pairs, items kept in pair order.
void build_csr(std::size_t keys, const std::vector<std::pair<std::uint32_t, std::uint32_t>>& pairs,
               std::vector<std::uint32_t>& begin, std::vector<std::uint32_t>& items) {
    begin.assign(keys + 1, 0);
    for (const auto& [k, i] : pairs) ++begin[k + 1];
    for (std::size_t k = 0; k < keys; ++k) begin[k + 1] += begin[k];
    items.assign(pairs.size(), 0);
    std::vector<std::uint32_t> fill(begin.begin(), begin.end() - 1);
    for (const auto& [k, i] : pairs) items[fill[k]++] = i;
}

}  // namespace

grid_engine::grid_engine(const grid_programme& prog) : prog_(prog), rules_(prog.params.rules) {
    prog_.validate();
    const auto n = static_cast<std::size_t>(prog_.params.cells());
    threshold_ = prog_.threshold;
    refractory_ = prog_.refractory;
    weight_ = prog_.weight;
    delay_ = prog_.delay;
    learning_.assign(n, 0);
    target_.assign(n, 0);
    std::vector<std::pair<std::uint32_t, std::uint32_t>> syn, fan, in;
    int max_delay = 1;
    for (std::uint32_t c = 0; c < n; ++c) {
        const auto k = prog_.kind[c];
        if (k == kind_t::empty) continue;
        for (int p = 0; p < ports_per_element; ++p) {
            if ((prog_.ports[c] >> p & 1) == 0) continue;
            const auto s = static_cast<std::uint32_t>(prog_.port_source(static_cast<int>(c), p));
            if (k == kind_t::neuron) {
                target_[s] = c;
                in.emplace_back(c, s);
            } else if (k == kind_t::synapse) {
                syn.emplace_back(s, c);
            } else {
                fan.emplace_back(s, c);
            }
        }
        if (k == kind_t::synapse) {
            learning_[c] = prog_.learning[c];
            any_learning_ = any_learning_ || prog_.learning[c];
            max_delay = std::max(max_delay, prog_.delay[c]);
        }
        if (k == kind_t::neuron && rules_.threshold_inclusive && threshold_[c] <= 0)
            self_firing_.push_back(c);
    }
    build_csr(n, syn, syn_begin_, syn_);
    build_csr(n, fan, fan_begin_, fan_);
    build_csr(n, in, in_begin_, in_);
    node_of_cell_.assign(n, -1);
    for (std::size_t i = 0; i < prog_.nodes.size(); ++i) {
        node_of_cell_[static_cast<std::size_t>(prog_.nodes[i].cell)] = static_cast<std::int32_t>(i);
        node_cell_.push_back(static_cast<std::uint32_t>(prog_.nodes[i].cell));
    }
    ring_.resize(static_cast<std::size_t>(max_delay) + 1);
    clear_activity();
}

void grid_engine::clear_activity() {
    const auto n = static_cast<std::size_t>(prog_.params.cells());
    charge_.assign(n, 0);
    in_flight_.assign(n, 0);
    touched_.assign(n, 0);
    refractory_end_.assign(n, -1);
    last_update_.assign(n, -1);
    last_delivery_.assign(n, -1);
    sum_.assign(n, 0);
    touched_list_.clear();
    relay_now_.clear();
    relay_next_.clear();
    for (auto& bucket : ring_) bucket.clear();
    inputs_.clear();
    now_ = 0;
    counts_ = {};
}

void grid_engine::inject(std::uint32_t neuron, cycle_t cycle, std::int32_t value) {
    inputs_[cycle].emplace_back(node_cell_.at(neuron), value);
}

std::int32_t grid_engine::leaked(std::int32_t c, cycle_t cycles) const {
    if (rules_.leak_shift == 0) return c;
    for (cycle_t k = 0; k < cycles; ++k) {
        const std::int32_t d = c >> rules_.leak_shift;
        if (d == 0) break;
        c -= d;
    }
    return c;
}

std::int32_t grid_engine::element_charge(int c) const {
    const auto i = static_cast<std::size_t>(c);
    if (prog_.kind[i] != kind_t::neuron) return 0;
    return leaked(charge_[i], now_ - 1 - last_update_[i]);
}

std::int32_t grid_engine::charge(std::uint32_t neuron) const {
    return element_charge(static_cast<int>(node_cell_.at(neuron)));
}

std::vector<int> grid_engine::weights() const {
    std::vector<int> out;
    for (int c : prog_.synapse_cells) out.push_back(weight_[static_cast<std::size_t>(c)]);
    return out;
}

grid_programme grid_engine::learnt_programme() const {
    grid_programme g = prog_;
    g.weight = weight_;
    return g;
}

void grid_engine::touch(std::uint32_t n) {
    if (!touched_[n]) {
        touched_[n] = 1;
        touched_list_.push_back(n);
    }
}

void grid_engine::run_until(cycle_t end, std::vector<fire_event>& fires) {
    for (; now_ < end; ++now_) {
        step(now_, fires);
        if (monitor_ != nullptr && monitor_->wants(now_)) record_frame(now_);
    }
}

void grid_engine::propagate(std::uint32_t source, cycle_t t) {
    for (std::uint32_t k = fan_begin_[source]; k < fan_begin_[source + 1]; ++k)
        relay_next_.push_back(fan_[k]);
    for (std::uint32_t k = syn_begin_[source]; k < syn_begin_[source + 1]; ++k) {
        const std::uint32_t s = syn_[k];
        if (in_flight_[s] >= rules_.fifo_depth) {
            ++counts_.fifo_overflows;
            continue;
        }
        ++in_flight_[s];
        ring_[static_cast<std::size_t>(t + delay_[s]) % ring_.size()].push_back(s);
    }
}

void grid_engine::step(cycle_t t, std::vector<fire_event>& fires) {
    const bool monitoring = monitor_ != nullptr && monitor_->wants(t);
    if (monitoring) fired_cells_.clear();
    // 1. Fan-outs repeat the fires of the previous cycle.
    relay_now_.swap(relay_next_);
    relay_next_.clear();
    for (const std::uint32_t f : relay_now_) {
        ++counts_.fanout_relays;
        ++counts_.element_updates;
        if (monitoring) fired_cells_.push_back(f);
        propagate(f, t);
    }
    // 2. Synapses deliver what is due; a refractory target drops it (LTD if enabled).
    auto& due = ring_[static_cast<std::size_t>(t) % ring_.size()];
    for (const std::uint32_t s : due) {
        --in_flight_[s];
        ++counts_.element_updates;
        const std::uint32_t n = target_[s];
        if (monitoring) fired_cells_.push_back(s);
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
    // 3. External inputs on the designated input neurons.
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
    // 4-5. Integrate, leak, threshold test, fire.
    for (const std::uint32_t n : touched_list_) {
        touched_[n] = 0;
        ++counts_.element_updates;
        std::int32_t c = leaked(charge_[n], t - 1 - last_update_[n]);
        c = saturate_charge(c + sum_[n], rules_);
        sum_[n] = 0;
        if (rules_.leak_shift != 0) c -= c >> rules_.leak_shift;
        charge_[n] = c;
        last_update_[n] = t;
        if (rules_.threshold_inclusive ? c >= threshold_[n] : c > threshold_[n]) {
            if (monitoring) fired_cells_.push_back(n);
            fire(n, t, fires);
        }
    }
    touched_list_.clear();
}

void grid_engine::fire(std::uint32_t n, cycle_t t, std::vector<fire_event>& fires) {
    charge_[n] = 0;
    refractory_end_[n] = t + refractory_[n];
    ++counts_.neuron_fires;
    if (node_of_cell_[n] >= 0) fires.push_back({static_cast<std::uint32_t>(node_of_cell_[n]), t});
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
    propagate(n, t);
}

void grid_engine::record_frame(cycle_t t) {
    const auto n = static_cast<std::size_t>(prog_.params.cells());
    std::vector<std::int16_t> charge(n, 0);
    std::vector<std::uint8_t> fired(n, 0);
    for (std::size_t c = 0; c < n; ++c)
        if (prog_.kind[c] == kind_t::neuron)
            charge[c] = static_cast<std::int16_t>(
                std::clamp<std::int32_t>(leaked(charge_[c], t - last_update_[c]), -32768, 32767));
    for (const auto c : fired_cells_) fired[c] = 1;
    monitor_->record(t, charge, fired);
}

}  // namespace volley::danna
