// Stimuli: spike arrays fire at exactly their times, and current waveforms switch at the steps
// their times name ("a change at time t takes effect in the step that starts at t").

#include "../support/snn_test_support.hpp"

#include <cmath>

namespace volley::snn {
namespace {

constexpr double dt = 0.1;

TEST(spike_source, emits_each_time_at_step_time_over_dt) {
    network net;
    const auto src = net.add_population(
        "input", 3, spike_source{{{0.1, 2.5, 2.6, 100.0}, {}, {7.3, 0.4}}});  // neuron 2 unsorted
    simulation sim(net, context{.threads = 1}, {.dt_ms = dt});
    auto rec = sim.record_spikes(src);
    sim.run(200);
    const auto by = testing::spike_steps_by_neuron(rec);
    EXPECT_EQ(by[0], (std::vector<std::int64_t>{1, 25, 26, 1000}));
    EXPECT_TRUE(by[1].empty());
    EXPECT_EQ(by[2], (std::vector<std::int64_t>{4, 73}));
    const auto t = rec.times_ms();
    for (std::size_t i = 0; i < t.size(); ++i) EXPECT_DOUBLE_EQ(t[i], static_cast<double>(rec.steps()[i]) * dt);
}

TEST(spike_source, spikes_after_the_end_of_the_run_come_in_the_next_run) {
    network net;
    const auto src = net.add_population("input", 1, spike_source{{{5.0, 15.0}}});
    simulation sim(net, context{.threads = 1}, {.dt_ms = dt});
    auto rec = sim.record_spikes(src);
    sim.run(10);
    ASSERT_EQ(rec.steps(), (std::vector<std::int64_t>{50}));
    sim.run(10);
    EXPECT_EQ(rec.steps(), (std::vector<std::int64_t>{50, 150}));
}

// A spike at the last step of a run (t = run end) belongs to that run.
TEST(spike_source, spike_at_the_end_of_a_run_is_emitted_in_it) {
    network net;
    const auto src = net.add_population("input", 1, spike_source{{{10.0}}});
    simulation sim(net, context{.threads = 1}, {.dt_ms = dt});
    auto rec = sim.record_spikes(src);
    sim.run(10);
    EXPECT_EQ(rec.steps(), (std::vector<std::int64_t>{100}));
}

lif_delta passive_cell(double tau_m) {
    return lif_delta{{.tau_m_ms = tau_m, .v_rest_mv = -70, .v_reset_mv = -80, .v_thresh_mv = 100, .t_ref_ms = 2,
                      .i_e_mv = 0}};
}

/// The exact v after one step from v with a constant current I.
double step_v(double v, double I, double tau) {
    const double p = std::exp(-dt / tau);
    return -70 + (v + 70) * p + I * (1 - p);
}

/// The expected v trace under a piecewise-constant current given per step, integrated
/// independently step by step with the exact one-step map.
std::vector<double> expected_trace(const std::vector<double>& current_per_step, double tau) {
    std::vector<double> v{-70.0};
    for (double I : current_per_step) v.push_back(step_v(v.back(), I, tau));
    return v;
}

TEST(dc_current, starts_and_stops_at_the_steps_of_start_and_stop) {
    const double tau = 10, A = 8.0;
    network net;
    const auto pop = net.add_population("cell", 2, passive_cell(tau));
    net.inject(pop, dc_current{.amplitude_mv = A, .start_ms = 5.0, .stop_ms = 15.0}, {1});
    simulation sim(net, context{.threads = 1}, {.dt_ms = dt});
    auto v = sim.record_state(pop, "v_mv", dt);
    sim.run(30);
    std::vector<double> current(300, 0.0);
    for (std::size_t s = 50; s < 150; ++s) current[s] = A;
    const auto expected = expected_trace(current, tau);
    ASSERT_EQ(v.samples(), expected.size());
    for (std::size_t k = 0; k < v.samples(); ++k) {
        EXPECT_EQ(v.at(k, 0), -70.0) << "neuron 0 is not injected, step " << k;
        ASSERT_NEAR(v.at(k, 1), expected[k], 1e-12 * 70) << "step " << k;
    }
    // Sharp edges: unchanged up to and including step 50, rising at 51; decaying from 151.
    EXPECT_EQ(v.at(50, 1), -70.0);
    EXPECT_GT(v.at(51, 1), -70.0);
    EXPECT_GT(v.at(150, 1), v.at(149, 1));
    EXPECT_LT(v.at(151, 1), v.at(150, 1));
}

TEST(step_current, switches_amplitude_at_each_listed_time) {
    const double tau = 7;
    network net;
    const auto pop = net.add_population("cell", 1, passive_cell(tau));
    net.inject(pop, step_current{.times_ms = {2.0, 4.5, 9.0}, .amplitudes_mv = {5.0, -3.0, 12.0}});
    simulation sim(net, context{.threads = 1}, {.dt_ms = dt});
    auto v = sim.record_state(pop, "v_mv", dt);
    sim.run(20);
    std::vector<double> current(200, 0.0);
    for (std::size_t s = 0; s < 200; ++s) current[s] = s < 20 ? 0.0 : s < 45 ? 5.0 : s < 90 ? -3.0 : 12.0;
    const auto expected = expected_trace(current, tau);
    for (std::size_t k = 0; k < v.samples(); ++k) ASSERT_NEAR(v.at(k, 0), expected[k], 1e-12 * 70) << "step " << k;
    EXPECT_EQ(v.at(20, 0), -70.0);
    EXPECT_GT(v.at(21, 0), -70.0);
}

// Two stimuli on the same neuron add, and add to the bias current i_e.
TEST(current_stimuli, superpose_with_each_other_and_with_the_bias) {
    const double tau = 10;
    network net;
    auto model = passive_cell(tau);
    model.p.i_e_mv = 1.5;
    const auto pop = net.add_population("cell", 1, model);
    net.inject(pop, dc_current{.amplitude_mv = 2.0, .start_ms = 1.0, .stop_ms = 6.0});
    net.inject(pop, step_current{.times_ms = {3.0}, .amplitudes_mv = {4.0}});
    simulation sim(net, context{.threads = 1}, {.dt_ms = dt});
    auto v = sim.record_state(pop, "v_mv", dt);
    sim.run(10);
    std::vector<double> current(100, 1.5);
    for (std::size_t s = 10; s < 60; ++s) current[s] += 2.0;
    for (std::size_t s = 30; s < 100; ++s) current[s] += 4.0;
    const auto expected = expected_trace(current, tau);
    for (std::size_t k = 0; k < v.samples(); ++k) ASSERT_NEAR(v.at(k, 0), expected[k], 1e-12 * 70) << "step " << k;
}

// A stimulus whose change falls in a later run still switches at its step.
TEST(dc_current, switch_in_a_later_run_happens_at_the_right_step) {
    const double tau = 10, A = 6.0;
    network net;
    const auto pop = net.add_population("cell", 1, passive_cell(tau));
    net.inject(pop, dc_current{.amplitude_mv = A, .start_ms = 12.3, .stop_ms = 17.0});
    simulation sim(net, context{.threads = 1}, {.dt_ms = dt});
    auto v = sim.record_state(pop, "v_mv", dt);
    sim.run(10);
    sim.run(15);
    std::vector<double> current(250, 0.0);
    for (std::size_t s = 123; s < 170; ++s) current[s] = A;
    const auto expected = expected_trace(current, tau);
    ASSERT_EQ(v.samples(), expected.size());
    for (std::size_t k = 0; k < v.samples(); ++k) ASSERT_NEAR(v.at(k, 0), expected[k], 1e-12 * 70) << "step " << k;
}

// Stimuli on a subset of neurons when thread ranges split the population: each neuron sees
// exactly its own current, whichever thread updates it.
TEST(dc_current, subset_injection_is_exact_on_three_threads) {
    const double tau = 10;
    network net;
    const auto pop = net.add_population("cell", 10, passive_cell(tau));
    net.inject(pop, dc_current{.amplitude_mv = 4.0, .start_ms = 1.0, .stop_ms = 3.0}, {0, 4, 9});
    net.inject(pop, step_current{.times_ms = {0.5, 2.0}, .amplitudes_mv = {2.0, -1.0}}, {3, 4, 5});
    simulation sim(net, context{.threads = 3}, {.dt_ms = dt});
    auto v = sim.record_state(pop, "v_mv", dt);
    sim.run(5);
    for (std::uint32_t n = 0; n < 10; ++n) {
        std::vector<double> current(50, 0.0);
        const bool dc = n == 0 || n == 4 || n == 9, st = n >= 3 && n <= 5;
        for (std::size_t s = 0; s < 50; ++s) {
            if (dc && s >= 10 && s < 30) current[s] += 4.0;
            if (st && s >= 5) current[s] += s < 20 ? 2.0 : -1.0;
        }
        const auto expected = expected_trace(current, tau);
        for (std::size_t k = 0; k < v.samples(); ++k)
            ASSERT_NEAR(v.at(k, n), expected[k], 1e-12 * 70) << "neuron " << n << " step " << k;
    }
}

}  // namespace
}  // namespace volley::snn
