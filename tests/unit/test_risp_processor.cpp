// The RISP processor through the neuroprocessor interface: analytic cases, input and value
// errors, several networks, and noise replay.

#include <volley/hw/risp_benchmark.hpp>
#include <volley/hw/risp_processor.hpp>
#include <volley/hw/tennlab_error.hpp>

#include <gtest/gtest.h>

#include <algorithm>
#include <memory>

using namespace volley::hw;

namespace {

risp_params discrete_params() {
    risp_params p;
    p.discrete = true;
    p.max_delay = 10;
    p.min_threshold = 0;
    p.max_threshold = 5;
    p.min_potential = -5;
    p.min_weight = -5;
    p.max_weight = 5;
    p.spike_value_factor = 5;
    return p;
}

/// A chain 0 -> 1 -> ... -> n-1 with the given delays, threshold 1 and weight 1.
tennlab_network chain(const risp_params& p, const std::vector<int>& delays) {
    tennlab_network net;
    net.properties = p.network_properties();
    for (std::size_t i = 0; i <= delays.size(); ++i) {
        tennlab_node n;
        n.id = static_cast<node_id>(i);
        n.values = {1};
        net.nodes.push_back(n);
    }
    for (std::size_t i = 0; i < delays.size(); ++i)
        net.edges.push_back({static_cast<node_id>(i),
                             static_cast<node_id>(i + 1),
                             {1, static_cast<double>(delays[i])},
                             {},
                             {}});
    net.inputs = {0};
    net.outputs = {static_cast<node_id>(delays.size())};
    return net;
}

}  // namespace

TEST(risp_processor, chain_fires_at_the_sum_of_delays) {
    const auto p = discrete_params();
    risp_processor proc(p);
    neuroprocessor& np = proc;
    np.load_network(chain(p, {2, 3, 4}));
    np.apply_spike({0, 1, 1.0});
    np.run(20);
    EXPECT_EQ(np.output_count(0), 1);
    EXPECT_EQ(np.output_last_fire(0), 10.0);
    EXPECT_EQ(np.output_vector(0), std::vector<double>{10.0});
    EXPECT_EQ(np.total_steps(), 20);
    EXPECT_EQ(np.neuron_counts(), (std::vector<int>{1, 1, 1, 1}));
    EXPECT_EQ(np.neuron_last_fires(), (std::vector<double>{1, 3, 6, 10}));
}

TEST(risp_processor, events_in_flight_carry_over_into_the_next_run) {
    const auto p = discrete_params();
    risp_processor proc(p);
    proc.load_network(chain(p, {7}));
    proc.apply_spike({0, 0, 1.0});
    proc.run(3);
    EXPECT_EQ(proc.output_count(0), 0);
    proc.run(3);
    EXPECT_EQ(proc.output_count(0), 0);
    proc.run(3);
    EXPECT_EQ(proc.output_vector(0), std::vector<double>{1.0});  // absolute step 7 = 6 + 1
    proc.apply_spike({0, 100, 1.0});                             // far beyond the ring
    proc.run(110);
    EXPECT_EQ(proc.output_vector(0), std::vector<double>{107.0});
}

TEST(risp_processor, leak_and_floor_apply_at_the_end_of_a_run) {
    auto p = discrete_params();
    p.min_potential = -2;
    risp_processor proc(p);
    auto net = chain(p, {1});
    net.edges[0].values[0] = -5;
    net.nodes[0].values[0] = 0;
    proc.load_network(net);
    proc.apply_spike({0, 0, 0.0});  // a zero-valued event still makes a threshold-0 node fire
    proc.run(3);
    EXPECT_EQ(proc.neuron_counts()[0], 1);
    EXPECT_EQ(proc.neuron_charges()[1], -2);  // -5 clamped to min_potential at the run's end
}

TEST(risp_processor, spike_errors_use_the_reference_messages) {
    const auto p = discrete_params();
    risp_processor proc(p);
    proc.load_network(chain(p, {1}));
    try {
        proc.apply_spike({0, 0, -0.5});
        FAIL();
    } catch (const tennlab_error& e) {
        EXPECT_EQ(e.reference_message(),
                  "risp::Network::apply_spike() - value (-0.5) must be in [-1,1].");
    }
    try {
        proc.apply_spike({1, 0, 0.5});
        FAIL();
    } catch (const tennlab_error& e) {
        EXPECT_EQ(e.reference_message(), "node 1 is not an input node");
    }
    EXPECT_THROW(proc.apply_spike({9, 0, 0.5}), tennlab_error);
    EXPECT_NO_THROW(proc.apply_spike({0, 0, 3.0}, false));
}

TEST(risp_processor, strict_loading_names_the_node_and_property) {
    const auto p = discrete_params();
    auto net = chain(p, {1, 2});
    net.nodes[1].values[0] = 7;
    risp_processor proc(p);
    try {
        proc.load_network(net);
        FAIL();
    } catch (const tennlab_error& e) {
        EXPECT_EQ(std::string(e.what()), "node 1: Threshold = 7: outside [0, 5]");
    }
    net.nodes[1].values[0] = 1;
    net.edges[1].values[1] = 11;
    EXPECT_THROW(proc.load_network(net), tennlab_error);
    net.edges[1].values[1] = 0;
    proc.set_strict_values(false);
    try {
        proc.load_network(net);
        FAIL();
    } catch (const tennlab_error& e) {
        EXPECT_NE(std::string(e.what()).find("edge 1 -> 2: Delay = 0"), std::string::npos);
    }
    net.edges[1].values[1] = 11;
    EXPECT_NO_THROW(proc.load_network(net));  // the reference accepts it; so does compat mode
}

TEST(risp_processor, mismatched_properties_are_rejected) {
    const auto p = discrete_params();
    auto net = chain(p, {1});
    net.properties.node[0].max_value = 4;
    risp_processor proc(p);
    try {
        proc.load_network(net);
        FAIL();
    } catch (const tennlab_error& e) {
        EXPECT_EQ(e.reference_message(), "network and processor properties do not match.");
    }
}

TEST(risp_processor, several_networks_run_independently) {
    const auto p = discrete_params();
    risp_processor proc(p);
    proc.load_networks({chain(p, {1}), chain(p, {4})});
    proc.apply_spike({0, 0, 1.0}, true, 1);
    proc.run(10, 0);
    proc.run(10, 1);
    EXPECT_EQ(proc.output_count(0, 0), 0);
    EXPECT_EQ(proc.output_last_fire(0, 1), 4.0);
    EXPECT_EQ(proc.total_steps(0), 10);
    proc.clear(0);
    EXPECT_FALSE(proc.has_network(0));
    EXPECT_THROW(proc.run(1, 0), tennlab_error);
}

TEST(risp_processor, clear_activity_drops_pending_events) {
    const auto p = discrete_params();
    risp_processor proc(p);
    proc.load_network(chain(p, {3}));
    proc.apply_spike({0, 0, 1.0});
    proc.apply_spike({0, 50, 1.0});
    proc.run(2);
    proc.clear_activity();
    EXPECT_EQ(proc.total_steps(), 0);
    proc.run(60);
    EXPECT_EQ(proc.neuron_counts(), (std::vector<int>{0, 0}));
}

TEST(risp_processor, noise_replays_with_the_same_seed_and_differs_with_another) {
    risp_params p;
    p.discrete = false;
    p.max_delay = 3;
    p.min_threshold = -1;
    p.max_threshold = 1;
    p.min_potential = -1;
    p.min_weight = -1;
    p.max_weight = 1;
    p.spike_value_factor = 1;
    p.noisy_stddev = 0.1;
    p.noisy_seed = 42;
    auto run_once = [](const risp_params& params) {
        risp_processor proc(params);
        auto net = chain(params, {1, 2});
        net.nodes[1].values[0] = 0.9;
        net.nodes[2].values[0] = 0.95;
        proc.load_network(net);
        for (int t = 0; t < 5; ++t) proc.apply_spike({0, static_cast<double>(t), 1.0});
        proc.run(8);
        return proc.neuron_charges();
    };
    const auto a = run_once(p), b = run_once(p);
    EXPECT_EQ(a, b);
    p.noisy_seed = 43;
    EXPECT_NE(run_once(p), a);
}

TEST(risp_benchmark, saturated_network_counts_match_the_analytic_values) {
    risp_benchmark_config c;
    c.neurons = 300;
    c.fan_out = 8;
    c.steps = 40;
    const tennlab_network net = make_risp_benchmark_network(c);
    std::vector<int> in_degree(300, 0);
    for (const auto& e : net.edges) ++in_degree[e.to];
    const auto silent = std::count(in_degree.begin(), in_degree.end(), 0);
    // Every neuron with an in-edge fires at every step; the others only at t = 0. Events of
    // the last step's fires fall beyond the run.
    const std::int64_t fires = (300 - silent) * c.steps + silent;
    const auto r = run_risp_benchmark(c);
    EXPECT_EQ(net.edges.size(), 300u * 8u);
    EXPECT_EQ(r.fires, fires);
    EXPECT_EQ(r.synaptic_events, 8 * (fires - (300 - silent)));
}

TEST(risp_benchmark, sparse_network_keeps_one_percent_active) {
    risp_benchmark_config c;
    c.neurons = 1000;
    c.active_fraction = 0.01;
    c.steps = 500;
    const auto r = run_risp_benchmark(c);
    EXPECT_EQ(r.fires, 10 * 500);
    EXPECT_EQ(r.synaptic_events, 10 * 16 * 499);
}

TEST(risp_benchmark, exact_and_ordered_paths_agree_on_the_saturated_network) {
    risp_benchmark_config c;
    c.neurons = 400;
    c.steps = 60;
    const tennlab_network net = make_risp_benchmark_network(c);
    auto run = [&](bool force_ordered) {
        risp_processor proc(risp_benchmark_params(c));
        proc.load_network(net);
        for (const auto& node : net.nodes) proc.track_neuron_events(node.id);
        for (node_id id : net.inputs) proc.apply_spike({id, 0, 1.0});
        // A non-integer input far beyond the run switches exact mode off without changing
        // anything inside the run.
        if (force_ordered) proc.apply_spike({0, 1000, 0.5}, false);
        proc.run(static_cast<double>(c.steps));
        return std::make_pair(proc.neuron_vectors(), proc.neuron_charges());
    };
    const auto exact = run(false), ordered = run(true);
    EXPECT_EQ(exact.first, ordered.first);
    EXPECT_EQ(exact.second, ordered.second);
    EXPECT_EQ(exact.first[0].size(), 60u);
}
