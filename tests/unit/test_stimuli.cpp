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
        "input", 3, spike_source{{{0.1, 2.5, 2.6, 100.0}, {}, {0.4, 7.3}}});
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

TEST(spike_source, unsorted_or_non_positive_times_are_refused_naming_the_neuron_and_time) {
    network net;
    try {
        net.add_population("input", 3, spike_source{{{0.1}, {}, {7.3, 0.4}}});
        ADD_FAILURE() << "an unsorted train was accepted";
    } catch (const invalid_parameter& e) {
        const std::string what = e.what();
        EXPECT_NE(what.find("population 'input'"), std::string::npos) << what;
        EXPECT_NE(what.find("spike_times_ms[2]"), std::string::npos) << what;
        EXPECT_NE(what.find("0.4"), std::string::npos) << what;
        EXPECT_NE(what.find("ascending"), std::string::npos) << what;
    }
    EXPECT_THROW(net.add_population("zero", 1, spike_source{{{0.0}}}), invalid_parameter);
    EXPECT_THROW(net.add_population("nan", 1, spike_source{{{std::nan("")}}}), invalid_parameter);
    EXPECT_THROW(net.add_population("inf", 1, spike_source{{{1.0, HUGE_VAL}}}), invalid_parameter);
}

// Times off the dt grid (PyNN's spike_precision "off_grid"): a grid-timed kernel receives the
// spike at the end of the step that holds it, (k - 1)·dt < t <= k·dt, as NEST's grid-based
// neurons receive a precise spike; the recording keeps the exact time.
TEST(spike_source, off_grid_times_are_recorded_exactly_and_received_at_the_end_of_their_step) {
    const double h = 0.05;
    const std::vector<double> times{0.075, 10.025, 12.34, 12.345, 1000.025};
    network net;
    const auto src = net.add_population("input", 1, spike_source{{times}});
    simulation sim(net, context{.threads = 1}, {.dt_ms = h});
    auto rec = sim.record_spikes(src);
    sim.run(10);
    EXPECT_EQ(rec.steps(), (std::vector<std::int64_t>{2}));
    EXPECT_EQ(rec.times_ms(), (std::vector<double>{0.075}));
    sim.run(10);  // 12.34 and 12.345 share step 247
    EXPECT_EQ(rec.steps(), (std::vector<std::int64_t>{2, 201, 247, 247}));
    EXPECT_EQ(rec.times_ms(), (std::vector<double>{0.075, 10.025, 12.34, 12.345}));

    // Into a cell: the same membrane, step for step, as the train put at the ends of its steps.
    auto trace = [&](std::vector<double> train) {
        network n;
        const auto s = n.add_population("input", 1, spike_source{{std::move(train)}});
        lif_exp cell;
        cell.p.v_thresh_mv = 1e9;
        const auto c = n.add_population("cell", 1, cell);
        n.connect(s, c, all_to_all{}, {.weight = 2.0, .delay_ms = 0.2});
        simulation run(n, context{.threads = 1}, {.dt_ms = h});
        auto v = run.record_state(c, "v_mv", h);
        run.run(15);
        std::vector<double> out;
        for (std::size_t k = 0; k < v.samples(); ++k) out.push_back(v.at(k, 0));
        return out;
    };
    const auto off = trace({0.075, 10.025, 12.34, 12.345});
    const auto on = trace({0.1, 10.05, 12.35, 12.35});
    EXPECT_EQ(off, on);
    EXPECT_NE(off, trace({0.05, 10.0, 12.3, 12.3}));  // not the start of the step
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

// A sine is sampled at the start of each step of [start, stop), its phase counted from start.
TEST(ac_current, follows_the_sine_from_its_start_with_its_phase) {
    const double tau = 10, amp = 5, offset = 1.5, f = 100, phase = 90, start = 2.25, stop = 17.0;
    network net;
    const auto pop = net.add_population("cell", 2, passive_cell(tau));
    net.inject(pop, ac_current{.amplitude_mv = amp, .offset_mv = offset, .frequency_hz = f, .phase_deg = phase,
                               .start_ms = start, .stop_ms = stop}, {1});
    simulation sim(net, context{.threads = 1}, {.dt_ms = dt});
    auto v = sim.record_state(pop, "v_mv", dt);
    sim.run(12);
    sim.run(13);  // across two runs
    std::vector<double> current(250, 0.0);
    const double pi = 3.14159265358979323846;
    for (std::size_t s = 23; s < 170; ++s)  // llround(2.25 / 0.1) = 23 (ties away from zero)
        current[s] = offset + amp * std::sin(2 * pi * f * (static_cast<double>(s) * dt - start) / 1000 + pi / 2);
    const auto expected = expected_trace(current, tau);
    ASSERT_EQ(v.samples(), expected.size());
    for (std::size_t k = 0; k < v.samples(); ++k) {
        EXPECT_EQ(v.at(k, 0), -70.0);
        ASSERT_NEAR(v.at(k, 1), expected[k], 1e-12 * 70) << "step " << k;
    }
    // What the engine adds is what current_trace reports; the phase holds at start.
    const auto trace = current_trace(net, 0, 1, dt, 42, 250);
    for (std::size_t s = 0; s < 250; ++s) ASSERT_NEAR(trace[s], current[s], 1e-12) << "step " << s;
    EXPECT_NEAR(current_trace(net, 0, 1, dt, 42, 30)[23], offset + amp * std::sin(2 * pi * f * (2.3 - start) / 1000 + pi / 2),
                1e-12);
}

// Noise: each neuron draws its own N(mean, stdev) per interval and holds it; nothing outside the
// window; the draws do not depend on the thread count.
TEST(noise_current, draws_independent_gaussians_held_for_each_interval) {
    const std::uint32_t n = 400;
    const double mean = 3, sd = 2;
    network net;
    const auto pop = net.add_population("cells", n, passive_cell(10));
    net.inject(pop, noise_current{.mean_mv = mean, .stdev_mv = sd, .interval_ms = 0.5, .start_ms = 1, .stop_ms = 26});
    std::vector<std::vector<double>> traces;
    for (std::uint32_t i = 0; i < n; ++i) traces.push_back(current_trace(net, 0, i, dt, 7, 300));
    double sum = 0, sum2 = 0, cross = 0;
    std::size_t count = 0;
    for (std::uint32_t i = 0; i < n; ++i) {
        for (std::size_t s = 0; s < 300; ++s) {
            if (s < 10 || s >= 260) {
                ASSERT_EQ(traces[i][s], 0.0) << "neuron " << i << " step " << s;
                continue;
            }
            if ((s - 10) % 5 != 0) {
                ASSERT_EQ(traces[i][s], traces[i][s - 1]) << "held within an interval: neuron " << i << " step " << s;
                continue;
            }
            const double x = traces[i][s];
            sum += x, sum2 += x * x, ++count;
            if (i > 0) cross += (x - mean) * (traces[i - 1][s] - mean);
        }
    }
    ASSERT_EQ(count, std::size_t{n} * 50);
    const double m = sum / count, var = sum2 / count - m * m;
    EXPECT_NEAR(m, mean, 4 * sd / std::sqrt(count));                   // 20,000 draws
    EXPECT_NEAR(std::sqrt(var), sd, 4 * sd / std::sqrt(2.0 * count));  // the sd of a sample sd
    EXPECT_NEAR(cross / (count - 50) / (sd * sd), 0.0, 4 / std::sqrt(count - 50.0)) << "neighbours correlate";
    // Another seed, other draws.
    EXPECT_NE(current_trace(net, 0, 0, dt, 8, 300), traces[0]);

    // The engine adds exactly those values, on 1 and 3 threads.
    for (int threads : {1, 3}) {
        simulation sim(net, context{.threads = threads}, {.dt_ms = dt, .seed = 7});
        auto v = sim.record_state(pop, "v_mv", dt);
        sim.run(30);
        for (std::uint32_t i : {0u, 133u, 399u}) {
            const auto expected = expected_trace(traces[i], 10);
            for (std::size_t k = 0; k < v.samples(); ++k)
                ASSERT_NEAR(v.at(k, i), expected[k], 1e-12 * 70) << threads << " threads, neuron " << i << " step " << k;
        }
    }
}

TEST(current_stimuli, sine_and_noise_refuse_bad_parameters_naming_them) {
    network net;
    const auto pop = net.add_population("cells", 3, passive_cell(10));
    auto refuses = [&](current_waveform w, const std::string& what) {
        try {
            net.inject(pop, std::move(w));
            ADD_FAILURE() << "accepted " << what;
        } catch (const invalid_parameter& e) {
            EXPECT_NE(std::string(e.what()).find(what), std::string::npos) << e.what();
            EXPECT_NE(std::string(e.what()).find("'cells'"), std::string::npos) << e.what();
        }
    };
    refuses(ac_current{.amplitude_mv = 1, .frequency_hz = -3}, "frequency_hz = -3");
    refuses(ac_current{.amplitude_mv = std::nan(""), .frequency_hz = 3}, "amplitude_mv");
    refuses(ac_current{.amplitude_mv = 1, .frequency_hz = 3, .start_ms = 5, .stop_ms = 2}, "stop_ms = 2");
    refuses(noise_current{.mean_mv = 0, .stdev_mv = -1}, "stdev_mv = -1");
    refuses(noise_current{.mean_mv = 0, .stdev_mv = 1, .interval_ms = -0.5}, "interval_ms = -0.5");
    EXPECT_TRUE(net.stimuli().empty());
    // An interval that is not a whole number of steps is refused when the run's dt is known.
    net.inject(pop, noise_current{.mean_mv = 0, .stdev_mv = 1, .interval_ms = 0.25});
    try {
        simulation sim(net, context{.threads = 1}, {.dt_ms = dt});
        ADD_FAILURE() << "an interval of 2.5 steps was accepted";
    } catch (const invalid_parameter& e) {
        EXPECT_NE(std::string(e.what()).find("interval_ms = 0.25"), std::string::npos) << e.what();
    }
    EXPECT_THROW(current_trace(net, 1, 0, dt, 1, 10), invalid_parameter);
    EXPECT_THROW(current_trace(net, 0, 3, dt, 1, 10), invalid_parameter);
}

// Changing a current between runs (PyNN's DCSource.amplitude += ... after run()): the new
// waveform holds from the next step, on every thread count, and reset() keeps it.
TEST(set_current, replaces_a_waveform_from_the_next_step_on) {
    const double tau = 10;
    network net;
    const auto pop = net.add_population("cell", 4, passive_cell(tau));
    net.inject(pop, dc_current{.amplitude_mv = 3.0, .start_ms = 2.0, .stop_ms = 40.0}, {1, 2});
    std::vector<double> current(300, 0.0);
    for (std::size_t s = 20; s < 100; ++s) current[s] = 3.0;
    for (std::size_t s = 100; s < 250; ++s) current[s] = 3.0 + 0.5 * std::sin(0.01 * static_cast<double>(s));
    for (int threads : {1, 2}) {
        simulation sim(net, context{.threads = threads}, {.dt_ms = dt});
        auto v = sim.record_state(pop, "v_mv", dt);
        sim.run(10);
        // A step current that reproduces `current` from step 100 on, ending at 25 ms.
        std::vector<double> times, amps;
        for (std::size_t s = 100; s <= 250; ++s) times.push_back(static_cast<double>(s) * dt), amps.push_back(s < 250 ? current[s] : 0.0);
        sim.set_current(0, step_current{times, amps});
        sim.run(20);
        const auto expected = expected_trace(current, tau);
        ASSERT_EQ(v.samples(), expected.size());
        for (std::size_t k = 0; k < v.samples(); ++k) {
            ASSERT_EQ(v.at(k, 0), -70.0);
            ASSERT_NEAR(v.at(k, 2), expected[k], 1e-12 * 70) << threads << " threads, step " << k;
        }
        EXPECT_TRUE(sim.model().stimuli()[0].waveform == current_waveform(step_current{times, amps}));
        sim.reset();  // the change stays: from step 0 the step current, which starts at 10 ms
        sim.run(12);
        EXPECT_EQ(v.at(100, 2), -70.0);
        EXPECT_GT(v.at(101, 2), -70.0);
    }
    // A bad waveform or index is refused and changes nothing.
    simulation sim(net, context{.threads = 1}, {.dt_ms = dt});
    EXPECT_THROW(sim.set_current(1, dc_current{.amplitude_mv = 1}), invalid_parameter);
    EXPECT_THROW(sim.set_current(0, dc_current{.amplitude_mv = std::nan("")}), invalid_parameter);
    EXPECT_THROW(sim.set_current(0, noise_current{.mean_mv = 0, .stdev_mv = 1, .interval_ms = 0.25}), invalid_parameter);
    EXPECT_TRUE(sim.model().stimuli()[0].waveform == net.stimuli()[0].waveform);
}

// New spike trains between runs (PyNN's SpikeSourceArray.set(spike_times=...) after run()): a
// train may repeat what it sent, but not add a spike to the past.
TEST(set_spike_times, sends_the_new_trains_from_the_next_step_and_refuses_the_past) {
    network net;
    const auto src = net.add_population("input", 2, spike_source{});
    simulation sim(net, context{.threads = 1}, {.dt_ms = dt});
    auto rec = sim.record_spikes(src);
    sim.run(10);
    sim.set_spike_times(src, {{12, 15, 18}, {17, 19}});
    sim.run(10);
    try {
        sim.set_spike_times(src, {{22, 25}, {20.0, 27}});
        ADD_FAILURE() << "a spike at the time already simulated was accepted";
    } catch (const invalid_parameter& e) {
        const std::string what = e.what();
        EXPECT_NE(what.find("population 'input' neuron 1"), std::string::npos) << what;
        EXPECT_NE(what.find("= 20"), std::string::npos) << what;
    }
    EXPECT_THROW(sim.set_spike_times(src, {{25, 22}, {}}), invalid_parameter);  // not in order
    EXPECT_THROW(sim.set_spike_times(src, {{22}}), invalid_parameter);        // one train for two neurons
    // A train given whole again (neuron 0) sends only its new spikes; one without its past
    // (neuron 1) sends its new ones too.
    sim.set_spike_times(src, {{12, 15, 18, 22, 25}, {23, 27, 29}});
    sim.run(10);
    const auto by = testing::spike_steps_by_neuron(rec);
    EXPECT_EQ(by[0], (std::vector<std::int64_t>{120, 150, 180, 220, 250}));
    EXPECT_EQ(by[1], (std::vector<std::int64_t>{170, 190, 230, 270, 290}));
    network lif;
    const auto cells = lif.add_population("cells", 1, passive_cell(10));
    simulation other(lif, context{.threads = 1}, {.dt_ms = dt});
    EXPECT_THROW(other.set_spike_times(cells, {{5}}), invalid_parameter);
}

}  // namespace
}  // namespace volley::snn
