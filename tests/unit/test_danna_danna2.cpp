// The danna2 model against cases worked out by hand: chain timing, refractory dropping,
// saturation, leak, strict thresholds, FIFO overflow counting, LTP/LTD weight trajectories.

#include "danna_test_networks.hpp"

#include <volley/danna/danna2_processor.hpp>
#include <volley/error.hpp>

#include <gtest/gtest.h>

using namespace volley::danna;
using danna_test::neurons;

namespace {

/// Records fire times of neurons 0..n-1.
void track_all(danna2_processor& p, std::size_t n) {
    for (std::size_t i = 0; i < n; ++i) p.track_neuron_events(static_cast<node_id>(i));
}

}  // namespace

TEST(danna2, chain_fires_at_the_sum_of_delays) {
    auto net = neurons({{1, 1}, {1, 1}, {1, 1}});
    net.synapses = {{0, 1, 1, 3, false}, {1, 2, 1, 2, false}};
    net.inputs = {0};
    net.outputs = {2};
    danna2_processor p;
    p.load_hardware_network(net);
    track_all(p, 3);
    p.apply_spike({0, 0, 1}, false);
    p.run(10);
    // 0 fires at 0; its fire reaches 1 at 0 + 3; 1 fires at 3 and reaches 2 at 3 + 2 = 5.
    EXPECT_EQ(p.neuron_vectors(), (std::vector<std::vector<double>>{{0}, {3}, {5}}));
    EXPECT_EQ(p.output_vector(0), (std::vector<double>{5}));
}

TEST(danna2, refractory_neuron_drops_and_counts_its_inputs) {
    auto net = neurons({{1, 2}});
    net.inputs = {0};
    net.outputs = {0};
    danna2_processor p;
    p.load_hardware_network(net);
    for (int t = 0; t < 4; ++t) p.apply_spike({0, static_cast<double>(t), 1}, false);
    p.run(6);
    // Fire at 0, refractory for cycles 1 and 2 (inputs dropped), fire again at 3.
    EXPECT_EQ(p.output_vector(0), (std::vector<double>{0, 3}));
    EXPECT_EQ(p.counts().refractory_drops, 2);
    EXPECT_EQ(p.counts().inputs, 2);
}

TEST(danna2, charge_saturates_at_16_bits) {
    auto net = neurons({{1023, 1}});
    net.inputs = {0};
    danna2_processor p;
    p.load_hardware_network(net);
    p.apply_spike({0, 0, -30000}, false);
    p.apply_spike({0, 1, -30000}, false);
    p.apply_spike({0, 2, 32767}, false);
    p.run(1);
    EXPECT_EQ(p.neuron_charges()[0], -30000);
    p.run(1);
    EXPECT_EQ(p.neuron_charges()[0], -32768);  // -60000 saturates
    p.run(1);
    EXPECT_EQ(p.neuron_charges()[0], -1);  // -32768 + 32767, not -60000 + 32767
}

TEST(danna2, leak_is_applied_every_cycle_before_the_threshold_test) {
    auto net = neurons({{100, 1}, {100, 1}});
    net.inputs = {0, 1};
    danna2_params params;
    params.rules.leak_shift = 2;
    danna2_processor p(params);
    p.load_hardware_network(net);
    p.track_neuron_events(0);
    p.apply_spike({0, 0, 64}, false);
    p.apply_spike({1, 0, -7}, false);
    p.apply_spike({0, 4, 90}, false);
    // Neuron 0: 64 -> 64-16 = 48 -> 48-12 = 36 -> 36-9 = 27 -> 27-6 = 21.
    // Neuron 1: -7 -> -7+2 = -5 -> -5+2 = -3 -> -3+1 = -2 -> -2+1 = -1 (arithmetic shifts).
    p.run(1);
    EXPECT_EQ(p.neuron_charges(), (std::vector<double>{48, -5}));
    p.run(3);
    EXPECT_EQ(p.neuron_charges(), (std::vector<double>{21, -1}));
    // Cycle 4: 21 + 90 = 111 >= 100, but the leak comes first: 111 - 27 = 84, no fire.
    // Neuron 1: -1 - (-1) = 0.
    p.run(1);
    EXPECT_EQ(p.neuron_charges(), (std::vector<double>{84, 0}));
    EXPECT_EQ(p.neuron_counts()[0], 0);
}

TEST(danna2, strict_threshold_needs_more_than_the_threshold) {
    auto net = neurons({{2, 0}});
    net.inputs = {0};
    net.outputs = {0};
    danna2_params params;
    params.rules.threshold_inclusive = false;
    danna2_processor p(params);
    p.load_hardware_network(net);
    p.apply_spike({0, 0, 2}, false);  // charge 2: not > 2
    p.apply_spike({0, 1, 1}, false);  // charge 3 > 2: fires at 1
    p.run(3);
    EXPECT_EQ(p.output_vector(0), (std::vector<double>{1}));
}

TEST(danna2, full_delay_fifo_drops_and_counts_fires) {
    auto net = neurons({{1, 0}, {100, 1}});
    net.synapses = {{0, 1, 1, 5, false}};
    net.inputs = {0};
    danna2_params params;
    params.rules.fifo_depth = 2;
    danna2_processor p(params);
    p.load_hardware_network(net);
    for (int t = 0; t < 4; ++t) p.apply_spike({0, static_cast<double>(t), 1}, false);
    p.run(10);
    // Fires at 0,1,2,3. At 2 and 3 two fires are already in flight (due at 5 and 6): both
    // are dropped. Neuron 1 receives 1 + 1.
    EXPECT_EQ(p.neuron_counts()[0], 4);
    EXPECT_EQ(p.counts().fifo_overflows, 2);
    EXPECT_EQ(p.counts().synapse_deliveries, 2);
    EXPECT_EQ(p.neuron_charges()[1], 2);
}

TEST(danna2, ltp_and_ltd_follow_the_hand_computed_weight_trajectory) {
    auto net = neurons({{1, 0}, {5, 2}});
    net.synapses = {{0, 1, 5, 1, true}};
    net.inputs = {0};
    net.outputs = {1};
    danna2_params params;
    params.rules.ltp_window = 2;
    danna2_processor p(params);
    p.load_hardware_network(net);
    for (int t : {0, 1, 2, 5, 7}) p.apply_spike({0, static_cast<double>(t), 1}, false);
    const auto weight = [&] { return p.learnt_network().synapses[0].weight; };
    // Deliveries at 1, 2, 3, 6, 8.
    p.run(2);  // cycle 1: 5 >= 5, fires; delivered in the same cycle: LTP 5 -> 6
    EXPECT_EQ(weight(), 6);
    EXPECT_EQ(p.output_vector(0), (std::vector<double>{1}));
    p.run(1);  // cycle 2: refractory until 3, dropped: LTD 6 -> 5
    EXPECT_EQ(weight(), 5);
    p.run(1);  // cycle 3: still refractory: LTD 5 -> 4
    EXPECT_EQ(weight(), 4);
    p.run(3);  // cycle 6: charge 4 < 5, no fire, no change
    EXPECT_EQ(weight(), 4);
    p.run(3);  // cycle 8: 4 + 4 = 8 fires at 8 (relative 1); LTP 4 -> 5
    EXPECT_EQ(weight(), 5);
    EXPECT_EQ(p.output_vector(0), (std::vector<double>{1}));
    EXPECT_EQ(p.counts().ltp_updates, 2);
    EXPECT_EQ(p.counts().ltd_updates, 2);
}

TEST(danna2, learning_saturates_at_the_weight_range) {
    auto net = neurons({{1, 0}, {1, 0}});
    net.synapses = {{0, 1, 1023, 1, true}};
    net.inputs = {0};
    danna2_processor p;
    p.load_hardware_network(net);
    p.apply_spike({0, 0, 1}, false);
    p.run(3);
    EXPECT_EQ(p.learnt_network().synapses[0].weight, 1023);
    EXPECT_EQ(p.counts().ltp_updates, 1);
}

TEST(danna2, fires_in_flight_carry_over_between_runs_and_clear_activity_drops_them) {
    auto net = neurons({{1, 1}, {1, 1}});
    net.synapses = {{0, 1, 1, 4, false}};
    net.inputs = {0};
    net.outputs = {1};
    danna2_processor p;
    p.load_hardware_network(net);
    p.apply_spike({0, 1, 1}, false);
    p.run(3);  // 0 fires at 1; due at 5
    EXPECT_EQ(p.output_count(0), 0);
    p.run(5);  // cycles 3..7: delivery at 5 = relative 2
    EXPECT_EQ(p.output_vector(0), (std::vector<double>{2}));
    EXPECT_EQ(p.total_steps(), 8);
    p.apply_spike({0, 0, 1}, false);
    p.run(2);
    p.clear_activity();
    EXPECT_EQ(p.total_steps(), 0);
    p.run(10);
    EXPECT_EQ(p.output_count(0), 0);
}

TEST(danna2, rejects_values_outside_its_ranges_naming_the_element) {
    auto net = neurons({{1024, 1}});
    danna2_processor p;
    try {
        p.load_hardware_network(net);
        FAIL() << "threshold 1024 accepted";
    } catch (const volley::invalid_parameter& e) {
        EXPECT_NE(std::string(e.what()).find("node 0"), std::string::npos) << e.what();
        EXPECT_EQ(e.value(), "1024");
    }
    auto net2 = neurons({{1, 1}, {1, 1}});
    net2.synapses = {{0, 1, 1, 0, false}};
    EXPECT_THROW(p.load_hardware_network(net2), volley::invalid_parameter);
}

TEST(danna2, threshold_zero_neuron_fires_on_its_own_every_refractory_period) {
    auto net = neurons({{0, 2}});
    net.outputs = {0};
    danna2_processor p;
    p.load_hardware_network(net);
    p.run(7);
    // Charge 0 >= 0 whenever it is not refractory: 0, 3, 6.
    EXPECT_EQ(p.output_vector(0), (std::vector<double>{0, 3, 6}));
}
