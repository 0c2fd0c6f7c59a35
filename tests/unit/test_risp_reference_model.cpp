// Differential test: the optimised RISP processor against a deliberately simple, slow model
// written straight from RISP.md b.2-b.3 and c (one pending-event map, three passes per
// step, no ring buffers, no delay groups), on random networks, parameters and scripts.

#include <volley/hw/risp_processor.hpp>

#include "edge_order.hpp"

#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <map>
#include <random>
#include <set>

using namespace volley::hw;

namespace {

struct simple_risp {
    risp_params p;
    std::vector<node_id> ids;
    std::vector<double> charge, threshold;
    std::vector<bool> leak, input;
    struct syn {
        int target;
        double value;
        long delay;
    };
    std::vector<std::vector<syn>> out;
    std::map<long, std::vector<std::pair<int, double>>> queue;  // relative to the next run
    std::vector<int> to_fire;
    long clock = 0;
    std::vector<std::vector<double>> fires;

    simple_risp(const risp_params& params, const tennlab_network& net) : p(params) {
        for (const auto& n : net.nodes) ids.push_back(n.id);
        std::sort(ids.begin(), ids.end());
        const std::size_t n = ids.size();
        charge.assign(n, 0);
        threshold.resize(n);
        leak.assign(n, false);
        input.assign(n, false);
        out.resize(n);
        fires.resize(n);
        for (const auto& node : net.nodes) {
            const int i = index(node.id);
            const double t = node.values[0];
            threshold[i] = p.threshold_inclusive ? t : p.discrete ? t + 1 : t + 0.0000001;
            leak[i] = p.leak == leak_mode::all ||
                      (p.leak == leak_mode::configurable && node.values[1] != 0);
        }
        for (node_id id : net.inputs) input[index(id)] = true;
        std::vector<std::pair<std::uint32_t, std::uint32_t>> pairs;
        for (const auto& e : net.edges) pairs.emplace_back(e.from, e.to);
        for (std::size_t k : detail::reference_edge_order(pairs)) {
            const auto& e = net.edges[k];
            const double w = e.values[0];
            const double v = p.weights.empty() ? w : p.weights[static_cast<std::size_t>(w)];
            out[index(e.from)].push_back({index(e.to), v, static_cast<long>(e.values[1])});
        }
    }

    int index(node_id id) const {
        return static_cast<int>(std::lower_bound(ids.begin(), ids.end(), id) - ids.begin());
    }

    void apply(node_id id, double time, double value, bool normalized) {
        double v;
        if (p.inputs_from_weights) {
            const std::size_t len = p.weights.size();
            std::size_t i = normalized ? static_cast<std::size_t>(value * len)
                                       : static_cast<std::size_t>(std::trunc(value));
            if (i >= len) i = len - 1;
            v = p.weights[i];
        } else if (normalized) {
            v = p.discrete ? std::floor(value * p.spike_value_factor)
                           : value * p.spike_value_factor;
        } else {
            v = value;
        }
        queue[static_cast<long>(std::trunc(time))].emplace_back(index(id), v);
    }

    void run(double d) {
        const long last = static_cast<long>(std::trunc(p.run_time_inclusive ? d : d - 1));
        if (last < 0) return;
        for (auto& f : fires) f.clear();
        clock += last + 1;
        for (long t = 0; t <= last; ++t) {
            std::vector<std::pair<int, double>> events;
            if (auto it = queue.find(t); it != queue.end()) {
                events = std::move(it->second);
                queue.erase(it);
            }
            for (int n : to_fire) {
                fires[n].push_back(static_cast<double>(t));
                charge[n] = 0;
            }
            to_fire.clear();
            for (const auto& [n, v] : events) {
                if (leak[n]) charge[n] = 0;
                if (charge[n] < p.min_potential) charge[n] = p.min_potential;
            }
            std::vector<bool> touched(ids.size(), false);
            for (const auto& [n, v] : events) {
                charge[n] += v;
                touched[n] = true;
            }
            for (const auto& [n, v] : events) {
                if (!touched[n]) continue;
                touched[n] = false;
                if (charge[n] < threshold[n]) continue;
                for (const syn& s : out[n]) queue[t + s.delay].emplace_back(s.target, s.value);
                if (p.fire_like_ravens) {
                    to_fire.push_back(n);
                } else {
                    fires[n].push_back(static_cast<double>(t));
                    charge[n] = 0;
                }
            }
        }
        std::map<long, std::vector<std::pair<int, double>>> shifted;
        for (auto& [k, v] : queue) shifted[k - (last + 1)] = std::move(v);
        queue = std::move(shifted);
        for (std::size_t n = 0; n < ids.size(); ++n) {
            if (leak[n]) charge[n] = 0;
            if (charge[n] < p.min_potential) charge[n] = p.min_potential;
        }
    }

    void clear_activity() {
        std::fill(charge.begin(), charge.end(), 0.0);
        for (auto& f : fires) f.clear();
        queue.clear();
        to_fire.clear();
        clock = 0;
    }
};

struct random_case {
    risp_params params;
    tennlab_network net;
};

/// A random case; `busy` makes dense integer networks where most neurons fire every step.
random_case make_case(std::mt19937& rng, bool busy) {
    auto coin = [&](double p) { return std::uniform_real_distribution<double>(0, 1)(rng) < p; };
    auto integer = [&](int lo, int hi) { return std::uniform_int_distribution<int>(lo, hi)(rng); };
    auto real = [&](double lo, double hi) {
        return std::uniform_real_distribution<double>(lo, hi)(rng);
    };
    random_case c;
    risp_params& p = c.params;
    p.discrete = busy || coin(0.5);
    p.max_delay = static_cast<std::uint32_t>(integer(1, 6));
    p.min_threshold = p.discrete ? -1 : -0.5;
    p.max_threshold = p.discrete ? 4 : 2;
    p.min_potential = p.discrete ? -integer(0, 4) : -real(0, 2);
    p.leak = static_cast<leak_mode>(integer(0, 2));
    p.threshold_inclusive = coin(0.6);
    p.run_time_inclusive = coin(0.3);
    p.fire_like_ravens = coin(0.3);
    if (coin(0.25)) {
        p.weights = p.discrete ? std::vector<double>{-3, -1, 0, 1, 2, 4}
                               : std::vector<double>{-0.7, -0.1, 0.25, 0.6, 1.3};
        p.inputs_from_weights = coin(0.5);
        if (!p.inputs_from_weights) p.spike_value_factor = p.discrete ? 3 : 1.5;
    } else {
        p.min_weight = p.discrete ? -3 : -1.5;
        p.max_weight = p.discrete ? 3 : 1.5;
        p.spike_value_factor = p.discrete ? integer(1, 4) : real(0.5, 2);
    }
    tennlab_network& net = c.net;
    net.properties = p.network_properties();
    const int n = integer(1, 25);
    std::vector<node_id> ids;
    std::set<node_id> used;
    while (static_cast<int>(ids.size()) < n) {
        const auto id = static_cast<node_id>(integer(0, 200));
        if (used.insert(id).second) ids.push_back(id);
    }
    for (node_id id : ids) {
        tennlab_node node;
        node.id = id;
        node.values.push_back(busy ? integer(-1, 2) : p.discrete ? integer(-1, 4) : real(-0.5, 2));
        if (p.leak == leak_mode::configurable) node.values.push_back(integer(0, 1));
        net.nodes.push_back(node);
    }
    std::set<std::pair<node_id, node_id>> pairs;
    const int edges = busy ? n * 8 : integer(0, n * 5);
    for (int k = 0; k < edges; ++k) {
        const node_id a = ids[static_cast<std::size_t>(integer(0, n - 1))];
        const node_id b = ids[static_cast<std::size_t>(integer(0, n - 1))];
        if (!pairs.insert({a, b}).second) continue;
        tennlab_edge e;
        e.from = a;
        e.to = b;
        double w;
        if (!p.weights.empty())
            w = integer(0, static_cast<int>(p.weights.size()) - 1);
        else
            w = busy ? integer(-1, 3) : p.discrete ? integer(-3, 3) : real(-1.5, 1.5);
        e.values = {w, static_cast<double>(integer(1, static_cast<int>(p.max_delay)))};
        net.edges.push_back(e);
    }
    for (node_id id : ids) {
        if (coin(0.4) || net.inputs.empty())
            net.inputs.push_back(id);
        else if (coin(0.3))
            net.outputs.push_back(id);
    }
    return c;
}

}  // namespace

namespace {

/// Runs `trials` random cases on both implementations; returns the number of fires seen.
int compare_on_random_cases(std::uint32_t seed, int trials, bool busy) {
    std::mt19937 rng(seed);
    int fired = 0;
    for (int trial = 0; trial < trials; ++trial) {
        random_case c = make_case(rng, busy);
        risp_processor proc(c.params);
        proc.load_network(c.net);
        for (const auto& node : c.net.nodes) proc.track_neuron_events(node.id);
        simple_risp model(c.params, c.net);
        for (int round = 0; round < 8; ++round) {
            const int spikes = std::uniform_int_distribution<int>(0, 6)(rng);
            for (int s = 0; s < spikes; ++s) {
                const node_id id = c.net.inputs[std::uniform_int_distribution<std::size_t>(
                    0, c.net.inputs.size() - 1)(rng)];
                const double time =
                    std::uniform_int_distribution<int>(0, 12)(rng) + (rng() % 4 == 0 ? 0.6 : 0.0);
                const bool normalized = rng() % 3 != 0;
                double value = std::uniform_real_distribution<double>(0, 1)(rng);
                if (!normalized)
                    value = c.params.inputs_from_weights
                                ? static_cast<double>(rng() % c.params.weights.size())
                                : std::uniform_real_distribution<double>(-2, 3)(rng);
                proc.apply_spike({id, time, value}, normalized);
                model.apply(id, time, value, normalized);
            }
            const double duration =
                std::uniform_int_distribution<int>(1, 9)(rng) + (rng() % 5 == 0 ? 0.5 : 0.0);
            proc.run(duration);
            model.run(duration);
            if (rng() % 10 == 0) {
                proc.clear_activity();
                model.clear_activity();
            }
            EXPECT_EQ(proc.total_steps(), model.clock) << "trial " << trial;
            const auto charges = proc.neuron_charges();
            const auto times = proc.neuron_vectors();
            const auto counts = proc.neuron_counts();
            const auto last = proc.neuron_last_fires();
            for (std::size_t n = 0; n < model.ids.size(); ++n) {
                EXPECT_EQ(charges[n], model.charge[n]) << "trial " << trial << " round " << round;
                EXPECT_EQ(times[n], model.fires[n]) << "trial " << trial << " round " << round;
                EXPECT_EQ(counts[n], static_cast<int>(model.fires[n].size()));
                EXPECT_EQ(last[n], model.fires[n].empty() ? -1.0 : model.fires[n].back());
                fired += static_cast<int>(model.fires[n].size());
            }
            if (::testing::Test::HasFailure()) return fired;
        }
    }
    return fired;
}

}  // namespace

TEST(risp_reference_model, random_networks_agree_with_the_simple_model) {
    EXPECT_GT(compare_on_random_cases(20240611, 400, false), 1000);  // not vacuous
}

TEST(risp_reference_model, busy_integer_networks_agree_with_the_simple_model) {
    // Most steps here take the order-independent dense path of exact (integer) mode.
    EXPECT_GT(compare_on_random_cases(777, 200, true), 20000);
}
