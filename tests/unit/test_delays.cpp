// Synaptic delays. A source spike stamped S (found at the end of step S-1) is written into the
// ring slot of step S-1+d; the targets read that slot in their update of step S-1+d, where a
// lif_delta neuron adds it to v and tests the threshold at once. So a suprathreshold input makes
// the target spike at the end of step S-1+d, stamped S+d: target spike step = source step + d,
// i.e. spike time + d·dt, the arrival time.

#include "../support/snn_test_support.hpp"

#include <numeric>

namespace volley::snn {
namespace {

constexpr double dt = 0.1;

lif_delta trigger_cell() {
    // Threshold 15 mV above rest; no refractoriness, so every input of 100 mV makes a spike.
    return lif_delta{{.tau_m_ms = 10, .v_rest_mv = -70, .v_reset_mv = -70, .v_thresh_mv = -55, .t_ref_ms = 0,
                      .i_e_mv = 0}};
}

TEST(delays, each_target_fires_exactly_its_delay_in_steps_after_the_source_spike) {
    const std::uint32_t n = 40;
    network net;
    const auto src = net.add_population("input", 1, spike_source{{{1.0}}});  // step 10
    const auto tgt = net.add_population("cells", n, trigger_cell());
    from_list pairs;
    std::vector<double> delays;
    for (std::uint32_t j = 0; j < n; ++j) {
        pairs.sources.push_back(0);
        pairs.targets.push_back(j);
        delays.push_back((j + 1) * dt);  // 1..40 steps
    }
    net.connect(src, tgt, pairs, {.weight = 100.0, .delay_ms = delays});
    simulation sim(net, context{.threads = 2}, {.dt_ms = dt});
    auto rec = sim.record_spikes(tgt);
    sim.run(10);
    const auto by = testing::spike_steps_by_neuron(rec);
    for (std::uint32_t j = 0; j < n; ++j)
        EXPECT_EQ(by[j], (std::vector<std::int64_t>{10 + static_cast<std::int64_t>(j) + 1})) << "target " << j;
}

// The all_to_all delay list is a row-major matrix [source * n_target + target].
TEST(delays, all_to_all_delay_list_is_indexed_source_major) {
    const std::uint32_t n_src = 3, n_tgt = 4;
    network net;
    const auto src = net.add_population("input", n_src, spike_source{{{1.0}, {21.0}, {41.0}}});
    const auto tgt = net.add_population("cells", n_tgt, trigger_cell());
    std::vector<double> delays;
    for (std::uint32_t i = 0; i < n_src; ++i)
        for (std::uint32_t j = 0; j < n_tgt; ++j) delays.push_back(static_cast<double>(1 + 10 * i + j) * dt);
    net.connect(src, tgt, all_to_all{}, {.weight = 100.0, .delay_ms = delays});
    simulation sim(net, context{.threads = 1}, {.dt_ms = dt});
    auto rec = sim.record_spikes(tgt);
    sim.run(60);
    const auto by = testing::spike_steps_by_neuron(rec);
    for (std::uint32_t j = 0; j < n_tgt; ++j) {
        std::vector<std::int64_t> expected;
        for (std::uint32_t i = 0; i < n_src; ++i) expected.push_back(10 + 200 * i + 1 + 10 * i + j);
        EXPECT_EQ(by[j], expected) << "target " << j;
    }
}

// delay_ms / dt is rounded to the nearest step: 0.14 -> 1, 0.26 -> 3, 0.34 -> 3, 0.66 -> 7.
TEST(delays, delay_not_a_multiple_of_dt_rounds_to_nearest_step) {
    const std::vector<double> delays{0.14, 0.26, 0.34, 0.66, 0.06};
    const std::vector<std::int64_t> steps{1, 3, 3, 7, 1};
    network net;
    const auto src = net.add_population("input", 1, spike_source{{{1.0}}});
    const auto tgt = net.add_population("cells", 5, trigger_cell());
    net.connect(src, tgt, all_to_all{}, {.weight = 100.0, .delay_ms = delays});
    simulation sim(net, context{.threads = 1}, {.dt_ms = dt});
    auto rec = sim.record_spikes(tgt);
    sim.run(5);
    const auto by = testing::spike_steps_by_neuron(rec);
    for (std::size_t j = 0; j < delays.size(); ++j)
        EXPECT_EQ(by[j], (std::vector<std::int64_t>{10 + steps[j]})) << "delay " << delays[j];
}

// A delay longer than the ring's smallest size and many spikes in flight at once: a train of
// source spikes every step through a 37-step delay comes out as the same train shifted by 37.
TEST(delays, spike_train_in_flight_is_shifted_intact) {
    std::vector<double> times;
    for (int s = 5; s < 60; s += (s % 3) + 1) times.push_back(s * dt);
    network net;
    const auto src = net.add_population("input", 1, spike_source{{times}});
    const auto tgt = net.add_population("cell", 1, trigger_cell());
    net.connect(src, tgt, one_to_one{}, {.weight = 100.0, .delay_ms = 3.7});
    simulation sim(net, context{.threads = 1}, {.dt_ms = dt});
    auto in = sim.record_spikes(src);
    auto out = sim.record_spikes(tgt);
    sim.run(20);
    ASSERT_EQ(out.size(), in.size());
    for (std::size_t k = 0; k < in.size(); ++k) EXPECT_EQ(out.steps()[k], in.steps()[k] + 37);
}

// Recurrent delays: a neuron driven by its own spike through an autapse of delay d fires every
// d steps once kicked (t_ref = 0, so the self-input is never lost).
TEST(delays, autapse_with_delay_d_sustains_a_period_of_d_steps) {
    network net;
    const auto src = net.add_population("kick", 1, spike_source{{{1.0}}});
    const auto cell = net.add_population("cell", 1, trigger_cell());
    net.connect(src, cell, one_to_one{}, {.weight = 100.0, .delay_ms = 0.1});
    net.connect(cell, cell, one_to_one{}, {.weight = 100.0, .delay_ms = 1.3});
    simulation sim(net, context{.threads = 1}, {.dt_ms = dt});
    auto rec = sim.record_spikes(cell);
    sim.run(10);
    std::vector<std::int64_t> expected;
    for (std::int64_t s = 11; s <= 100; s += 13) expected.push_back(s);
    EXPECT_EQ(rec.steps(), expected);
}

}  // namespace
}  // namespace volley::snn
