// Recorders and the run loop: subsets, rates, times, sampling steps, repeated runs and the
// progress callback.

#include "../support/snn_test_support.hpp"

#include <algorithm>
#include <cmath>
#include <set>

namespace volley::snn {
namespace {

constexpr double dt = 0.1;

network noise_network() {
    network net;
    const auto noise = net.add_population("noise", 200, poisson_source{{.rate_hz = 20}});
    const auto cells = net.add_population("cells", 300, lif_exp{});
    net.initialise(cells, "v_mv", uniform{-60, -50});
    net.connect(noise, cells, fixed_probability{.p = 0.1}, {.weight = 2.0, .delay_ms = 1.0});
    net.connect(cells, cells, fixed_probability{.p = 0.05},
                {.weight = uniform{-3, 1}, .delay_ms = uniform{0.5, 3.0}, .receptor = inhibitory});
    return net;
}

TEST(spike_recorder, subset_returns_only_the_listed_neurons_and_all_their_spikes) {
    network net;
    const auto pop = net.add_population("noise", 50, poisson_source{{.rate_hz = 50}});
    simulation sim(net, context{.threads = 1}, {.dt_ms = dt});
    auto all = sim.record_spikes(pop);
    auto some = sim.record_spikes(pop, {3, 7, 20});
    sim.run(1000);
    const std::set<std::uint32_t> chosen{3, 7, 20};
    std::vector<std::pair<std::int64_t, std::uint32_t>> expected, got;
    for (std::size_t i = 0; i < all.size(); ++i)
        if (chosen.contains(all.node_ids()[i])) expected.emplace_back(all.steps()[i], all.node_ids()[i]);
    for (std::size_t i = 0; i < some.size(); ++i) got.emplace_back(some.steps()[i], some.node_ids()[i]);
    std::sort(expected.begin(), expected.end());
    std::sort(got.begin(), got.end());
    EXPECT_GT(got.size(), 50u);
    EXPECT_EQ(got, expected);
    EXPECT_EQ(some.data().recorded_neurons, 3u);
    EXPECT_EQ(all.data().recorded_neurons, 50u);
}

TEST(spike_recorder, repeated_subset_entries_count_once) {
    network net;
    const auto pop = net.add_population("noise", 10, poisson_source{{.rate_hz = 50}});
    simulation sim(net, context{.threads = 1}, {.dt_ms = dt});
    auto rec = sim.record_spikes(pop, {2, 2, 5});
    sim.run(500);
    EXPECT_EQ(rec.data().recorded_neurons, 2u);
    EXPECT_DOUBLE_EQ(rec.mean_rate_hz(), static_cast<double>(rec.size()) / (0.5 * 2));
}

TEST(spike_recorder, mean_rate_is_spikes_per_neuron_per_second_and_times_are_steps_times_dt) {
    network net;
    const auto pop = net.add_population("input", 4, spike_source{{{1.0, 2.0, 3.0}, {}, {10.0}, {50.0, 60.0}}});
    simulation sim(net, context{.threads = 1}, {.dt_ms = dt});
    auto rec = sim.record_spikes(pop);
    EXPECT_EQ(rec.mean_rate_hz(), 0.0);  // nothing simulated yet
    sim.run(100);
    ASSERT_EQ(rec.size(), 6u);
    EXPECT_DOUBLE_EQ(rec.mean_rate_hz(), 6 / (0.1 * 4));
    EXPECT_EQ(rec.data().steps_recorded, 1000);
    const auto t = rec.times_ms();
    std::vector<double> sorted(t.begin(), t.end());
    std::sort(sorted.begin(), sorted.end());
    const std::vector<double> expected{1.0, 2.0, 3.0, 10.0, 50.0, 60.0};
    for (std::size_t i = 0; i < 6; ++i) EXPECT_NEAR(sorted[i], expected[i], 1e-12);
}

TEST(spike_recorder, created_after_a_run_sees_only_later_spikes_and_rates_over_its_own_time) {
    network net;
    const auto pop = net.add_population("input", 1, spike_source{{{5.0, 15.0, 25.0}}});
    simulation sim(net, context{.threads = 1}, {.dt_ms = dt});
    sim.run(10);
    auto rec = sim.record_spikes(pop);
    sim.run(20);
    EXPECT_EQ(rec.steps(), (std::vector<std::int64_t>{150, 250}));
    EXPECT_EQ(rec.data().steps_recorded, 200);
    EXPECT_DOUBLE_EQ(rec.mean_rate_hz(), 2 / 0.02);
}

TEST(state_recorder, samples_at_creation_and_every_interval_after) {
    network net;
    const auto pop = net.add_population("cells", 5, lif_exp{});
    simulation sim(net, context{.threads = 1}, {.dt_ms = dt});
    auto a = sim.record_state(pop, "v_mv", 1.0, {4, 1});
    sim.run(5);
    auto b = sim.record_state(pop, "i_syn_e_mv", 0.3);
    sim.run(5.1);
    std::vector<std::int64_t> expected_a;
    for (std::int64_t s = 0; s <= 100; s += 10) expected_a.push_back(s);
    EXPECT_EQ(a.data().sample_steps, expected_a);
    EXPECT_EQ(a.node_ids(), (std::vector<std::uint32_t>{4, 1}));
    EXPECT_EQ(a.data().values.size(), expected_a.size() * 2);
    std::vector<std::int64_t> expected_b;
    for (std::int64_t s = 50; s <= 101; s += 3) expected_b.push_back(s);
    EXPECT_EQ(b.data().sample_steps, expected_b);
    EXPECT_EQ(b.node_ids().size(), 5u);
    EXPECT_EQ(b.data().interval_steps, 3);
}

// Columns follow node_ids: neuron 1 is driven, neuron 4 is not.
TEST(state_recorder, columns_follow_the_requested_node_order) {
    network net;
    const auto pop = net.add_population("cells", 5, lif_delta{{.tau_m_ms = 10, .v_rest_mv = -70, .v_reset_mv = -80,
                                                               .v_thresh_mv = 100, .t_ref_ms = 0, .i_e_mv = 0}});
    net.inject(pop, dc_current{.amplitude_mv = 10}, {1});
    simulation sim(net, context{.threads = 1}, {.dt_ms = dt});
    auto v = sim.record_state(pop, "v_mv", dt, {4, 1});
    sim.run(10);
    EXPECT_EQ(v.at(100, 0), -70.0);
    EXPECT_NEAR(v.at(100, 1), -70 + 10 * (1 - std::exp(-1.0)), 1e-9);
}

TEST(run, two_runs_of_half_the_time_equal_one_run) {
    const auto net = noise_network();
    simulation one(net, context{.threads = 1}, {.dt_ms = dt, .seed = 9});
    auto r1 = one.record_spikes(net.find("cells"));
    auto n1 = one.record_spikes(net.find("noise"));
    one.run(500);
    simulation two(net, context{.threads = 2}, {.dt_ms = dt, .seed = 9});
    auto r2 = two.record_spikes(net.find("cells"));
    auto n2 = two.record_spikes(net.find("noise"));
    two.run(250);
    two.run(250);
    EXPECT_GT(r1.size(), 500u);
    EXPECT_EQ(testing::raster({&r1, &n1}), testing::raster({&r2, &n2}));
    EXPECT_EQ(two.current_step().value, 5000);
    EXPECT_DOUBLE_EQ(two.time_ms(), 500.0);
    // Uneven split into three runs.
    simulation three(net, context{.threads = 1}, {.dt_ms = dt, .seed = 9});
    auto r3 = three.record_spikes(net.find("cells"));
    auto n3 = three.record_spikes(net.find("noise"));
    three.run(123.4);
    three.run(0);
    three.run(376.6);
    EXPECT_EQ(testing::raster({&r1, &n1}), testing::raster({&r3, &n3}));
}

TEST(run, progress_callback_returning_false_stops_after_the_current_step_and_the_run_resumes) {
    const auto net = noise_network();
    simulation sim(net, context{.threads = 1}, {.dt_ms = dt, .seed = 9});
    auto rec = sim.record_spikes(net.find("cells"));
    std::vector<std::pair<std::int64_t, std::int64_t>> calls;
    sim.on_progress(
        [&](std::int64_t done, std::int64_t total) {
            calls.emplace_back(done, total);
            return done < 3000;
        },
        1000);
    EXPECT_FALSE(sim.run(1000));
    EXPECT_EQ(calls, (std::vector<std::pair<std::int64_t, std::int64_t>>{{1000, 10000}, {2000, 10000}, {3000, 10000}}));
    EXPECT_EQ(sim.current_step().value, 3000);
    EXPECT_EQ(sim.stats().steps, 3000);
    EXPECT_EQ(rec.data().steps_recorded, 3000);
    for (auto s : rec.steps()) EXPECT_LE(s, 3000);

    // Resuming without a callback continues from step 3000 and matches an uninterrupted run.
    sim.on_progress(nullptr, 0);
    EXPECT_TRUE(sim.run(700));
    EXPECT_EQ(sim.current_step().value, 10000);
    simulation ref(net, context{.threads = 1}, {.dt_ms = dt, .seed = 9});
    auto rr = ref.record_spikes(net.find("cells"));
    ref.run(1000);
    EXPECT_EQ(testing::raster({&rec}), testing::raster({&rr}));
}

TEST(run, progress_callback_that_always_continues_lets_the_run_finish) {
    network net;
    net.add_population("cells", 3, lif_exp{});
    simulation sim(net, context{.threads = 1}, {.dt_ms = dt});
    int calls = 0;
    sim.on_progress([&](std::int64_t, std::int64_t) { return ++calls > 0; }, 7);
    EXPECT_TRUE(sim.run(10));
    EXPECT_EQ(calls, 100 / 7);
}

TEST(stats, counts_spikes_and_synaptic_events_independently_computed) {
    network net;
    const auto src = net.add_population("input", 3, spike_source{{{1.0, 2.0}, {3.0}, {}}});
    // v_rest = -70, threshold -55: the 0.1 mV inputs keep every target silent.
    const auto tgt = net.add_population("cells", 4, lif_exp{{.tau_m_ms = 20, .tau_syn_e_ms = 5, .tau_syn_i_ms = 10,
                                                             .v_rest_mv = -70, .v_reset_mv = -70, .v_thresh_mv = -55,
                                                             .t_ref_ms = 2, .i_e_mv = 0}});
    net.connect(src, tgt, all_to_all{}, {.weight = 0.1, .delay_ms = 1.0});
    simulation sim(net, context{.threads = 2}, {.dt_ms = dt});
    sim.run(10);
    const auto st = sim.stats();
    EXPECT_EQ(st.neurons, 7u);
    EXPECT_EQ(st.synapses, 12u);
    EXPECT_EQ(st.spikes, 3u);              // the targets stay subthreshold
    EXPECT_EQ(st.synaptic_events, 3u * 4);  // each source spike reaches 4 synapses
    EXPECT_EQ(st.steps, 100);
    EXPECT_EQ(st.threads, 2);
}

}  // namespace
}  // namespace volley::snn
