// Poisson sources against the statistics of a Poisson process. Every bound is a two-sided
// 99.9% interval (z = 3.29, rounded up to 3.3), so each test fails by chance once in a
// thousand seeds; the seeds are fixed, so the outcome is reproducible.

#include "../support/snn_test_support.hpp"

#include <cmath>
#include <cstdio>
#include <functional>
#include <tuple>

namespace volley::snn {
namespace {

constexpr double z999 = 3.3;

TEST(poisson_source, spike_count_of_1000_sources_at_20_hz_for_10_s_is_within_poisson_bounds) {
    const std::uint32_t n = 1000;
    const double rate_hz = 20, duration_ms = 10000, dt = 0.1;
    network net;
    const auto pop = net.add_population("noise", n, poisson_source{{.rate_hz = rate_hz}});
    simulation sim(net, context{.threads = 1}, {.dt_ms = dt, .seed = 7});
    auto rec = sim.record_spikes(pop);
    sim.run(duration_ms);

    // The total count of n independent Poisson processes is Poisson(n·rate·T): sd = sqrt(mean).
    const double mean = n * rate_hz * duration_ms / 1000;
    EXPECT_NEAR(static_cast<double>(rec.size()), mean, z999 * std::sqrt(mean));
    EXPECT_NEAR(rec.mean_rate_hz(), rate_hz, z999 * std::sqrt(mean) / (n * duration_ms / 1000));

    // Inter-spike intervals are exponential, CV = 1. For n i.i.d. samples the sample CV c is
    // asymptotically normal with Var(c) = c²[(mu4 - s⁴)/(4 s⁴) - mu3/(s² mu) + s²/mu²]/n (the
    // delta method); for the exponential (s = mu, mu3 = 2mu³, mu4 = 9mu⁴) that is 1/n. With
    // ~2·10^5 intervals the normal approximation is excellent. Stamping spikes on the dt grid
    // adds dt²/6 to each interval's variance: a relative change of CV of ~3e-7 here, which we
    // allow for explicitly.
    const auto by = testing::spike_steps_by_neuron(rec);
    double sum = 0, sum2 = 0;
    std::size_t count = 0;
    for (const auto& steps : by)
        for (std::size_t k = 1; k < steps.size(); ++k) {
            const double isi = static_cast<double>(steps[k] - steps[k - 1]) * dt;
            sum += isi;
            sum2 += isi * isi;
            ++count;
        }
    ASSERT_GT(count, 100000u);
    const double m = sum / static_cast<double>(count);
    const double var = (sum2 - static_cast<double>(count) * m * m) / static_cast<double>(count - 1);
    const double cv = std::sqrt(var) / m;
    const double grid_bias = dt * dt / 6 / (2 * m * m);
    EXPECT_NEAR(cv, 1.0 + grid_bias, z999 / std::sqrt(static_cast<double>(count)));
    EXPECT_NEAR(m, 1000 / rate_hz, z999 * (1000 / rate_hz) / std::sqrt(static_cast<double>(count)));
}

// Active on (start, stop]: no spike stamped at or before start or after stop, and the count
// in the window is Poisson(n·rate·(stop - start)).
TEST(poisson_source, spikes_only_inside_start_stop_window_with_poisson_count) {
    const std::uint32_t n = 1000;
    const double rate_hz = 50, start = 200, stop = 700, dt = 0.1;
    network net;
    const auto pop = net.add_population("noise", n, poisson_source{{.rate_hz = rate_hz, .start_ms = start, .stop_ms = stop}});
    simulation sim(net, context{.threads = 1}, {.dt_ms = dt, .seed = 11});
    auto rec = sim.record_spikes(pop);
    sim.run(1000);
    ASSERT_GT(rec.size(), 0u);
    std::int64_t first = INT64_MAX, last = INT64_MIN;
    for (auto s : rec.steps()) {
        first = std::min(first, s);
        last = std::max(last, s);
    }
    EXPECT_GT(first, 2000);
    EXPECT_LE(last, 7000);
    // 1000 sources at 50 Hz leave no gap of 1 ms after start (P = e^-50) or before stop.
    EXPECT_LE(first, 2010);
    EXPECT_GE(last, 6990);
    const double mean = n * rate_hz * (stop - start) / 1000;
    EXPECT_NEAR(static_cast<double>(rec.size()), mean, z999 * std::sqrt(mean));
}

TEST(poisson_source, zero_rate_emits_nothing) {
    network net;
    const auto pop = net.add_population("silent", 100, poisson_source{{.rate_hz = 0}});
    simulation sim(net, context{.threads = 1}, {.dt_ms = 0.1});
    auto rec = sim.record_spikes(pop);
    sim.run(1000);
    EXPECT_EQ(rec.size(), 0u);
}

// Sources are independent: the spike counts of two halves are uncorrelated in time. A simple
// consequence we can test sharply: the counts per 10 ms bin are Poisson, so their variance
// equals their mean (index of dispersion 1). For B bins, (B-1)·D is approximately chi² with
// B-1 degrees of freedom: D = 1 ± 3.3·sqrt(2/(B-1)).
TEST(poisson_source, binned_population_counts_have_index_of_dispersion_one) {
    const std::uint32_t n = 200;
    const double rate_hz = 25, dt = 0.1;
    network net;
    const auto pop = net.add_population("noise", n, poisson_source{{.rate_hz = rate_hz}});
    simulation sim(net, context{.threads = 1}, {.dt_ms = dt, .seed = 3});
    auto rec = sim.record_spikes(pop);
    sim.run(10000);
    const std::size_t bins = 1000;  // 10 ms = 100 steps each
    std::vector<double> counts(bins, 0.0);
    for (auto s : rec.steps()) counts[static_cast<std::size_t>((s - 1) / 100)] += 1;
    double m = 0;
    for (double c : counts) m += c;
    m /= bins;
    double var = 0;
    for (double c : counts) var += (c - m) * (c - m);
    var /= bins - 1;
    EXPECT_NEAR(m, n * rate_hz * 0.01, z999 * std::sqrt(n * rate_hz * 0.01 / bins));
    EXPECT_NEAR(var / m, 1.0, z999 * std::sqrt(2.0 / (bins - 1)));
}

// Per-neuron rates (network::set_parameter on rate_hz, issue 52): 300 sources with rates 100,
// 200 and 1000 Hz in turn. Each group's count over 5 s is Poisson(100 · rate · 5 s), so each
// group's mean rate must lie within 3.3 sd of its own rate, far from the model's default 10 Hz.
TEST(poisson_source, per_neuron_rates_give_each_neuron_its_own_mean_rate) {
    const double rates_hz[3] = {100, 200, 1000};
    const std::uint32_t per_group = 100, n = 3 * per_group;
    const double duration_ms = 5000;
    network net;
    const auto pop = net.add_population("drive", n, poisson_source{});
    std::vector<double> rates(n);
    for (std::uint32_t i = 0; i < n; ++i) rates[i] = rates_hz[i % 3];
    net.set_parameter(pop, "rate_hz", rates);
    simulation sim(net, context{.threads = 2}, {.dt_ms = 0.1, .seed = 5});
    auto rec = sim.record_spikes(pop);
    sim.run(duration_ms);
    double count[3] = {0, 0, 0};
    for (const auto id : rec.node_ids()) count[id % 3] += 1;
    for (int g = 0; g < 3; ++g) {
        const double mean = per_group * rates_hz[g] * duration_ms / 1000;
        const double measured_hz = count[g] / (per_group * duration_ms / 1000);
        std::printf("rate %g Hz: measured %.2f Hz (%.0f spikes, expected %.0f +- %.0f)\n", rates_hz[g], measured_hz,
                    count[g], mean, std::sqrt(mean));
        EXPECT_NEAR(count[g], mean, z999 * std::sqrt(mean)) << "rate " << rates_hz[g] << " Hz";
    }
}

// The PyNN case of issue 52: three neurons at 100, 200 and 1000 Hz for 20 s, each within 3.3
// sd of its own rate.
TEST(poisson_source, three_neurons_at_100_200_1000_hz_fire_at_their_rates) {
    const std::vector<double> rates_hz{100, 200, 1000};
    const double duration_ms = 20000;
    network net;
    const auto pop = net.add_population("drive", 3, poisson_source{});
    net.set_parameter(pop, "rate_hz", rates_hz);
    simulation sim(net, context{.threads = 1}, {.dt_ms = 0.1, .seed = 9});
    auto rec = sim.record_spikes(pop);
    sim.run(duration_ms);
    const auto by = testing::spike_steps_by_neuron(rec);
    for (std::size_t i = 0; i < 3; ++i) {
        const double mean = rates_hz[i] * duration_ms / 1000;
        std::printf("neuron %zu at %g Hz: measured %.2f Hz\n", i, rates_hz[i],
                    static_cast<double>(by[i].size()) / (duration_ms / 1000));
        EXPECT_NEAR(static_cast<double>(by[i].size()), mean, z999 * std::sqrt(mean)) << "neuron " << i;
    }
}

// set_parameter with one value changes the rate of every neuron from the model's.
TEST(poisson_source, set_parameter_with_a_constant_overrides_the_model_rate) {
    const std::uint32_t n = 200;
    const double duration_ms = 2000, rate_hz = 150;
    network net;
    const auto pop = net.add_population("drive", n, poisson_source{{.rate_hz = 10}});
    net.set_parameter(pop, "rate_hz", rate_hz);
    simulation sim(net, context{.threads = 1}, {.dt_ms = 0.1, .seed = 13});
    auto rec = sim.record_spikes(pop);
    sim.run(duration_ms);
    const double mean = n * rate_hz * duration_ms / 1000;
    EXPECT_NEAR(static_cast<double>(rec.size()), mean, z999 * std::sqrt(mean));
}

// Each neuron keeps its own stream, keyed (seed, population, neuron): the same seed gives the
// same raster on 1 and 2 threads; a list of equal rates gives the raster of the model's rate;
// and changing one neuron's rate leaves the other neurons' trains as they were.
TEST(poisson_source, per_neuron_rates_keep_one_stream_per_neuron) {
    const std::uint32_t n = 40;
    auto run = [&](const std::function<void(network&, population_index)>& set, int threads) {
        network net;
        const auto pop = net.add_population("drive", n, poisson_source{{.rate_hz = 50}});
        set(net, pop);
        simulation sim(net, context{.threads = threads}, {.dt_ms = 0.1, .seed = 21});
        auto rec = sim.record_spikes(pop);
        sim.run(1000);
        return testing::spike_steps_by_neuron(rec);
    };
    const auto drawn = [](network& net, population_index pop) { net.set_parameter(pop, "rate_hz", uniform{20, 400}); };
    const auto one = run(drawn, 1), two = run(drawn, 2);
    EXPECT_EQ(one, two);
    std::size_t spikes = 0;
    for (const auto& t : one) spikes += t.size();
    EXPECT_GT(spikes, 1000u);

    const auto model_rate = run([](network&, population_index) {}, 1);
    const auto equal_list = run([](network& net, population_index pop) {
        net.set_parameter(pop, "rate_hz", std::vector<double>(n, 50.0));
    }, 2);
    EXPECT_EQ(model_rate, equal_list);

    const auto one_changed = run([](network& net, population_index pop) {
        std::vector<double> rates(n, 50.0);
        rates[7] = 700;
        net.set_parameter(pop, "rate_hz", rates);
    }, 1);
    for (std::uint32_t i = 0; i < n; ++i) {
        if (i == 7) continue;
        EXPECT_EQ(one_changed[i], model_rate[i]) << "neuron " << i;
    }
    EXPECT_GT(one_changed[7].size(), 3 * model_rate[7].size());
}

// Per-neuron windows: neuron i is active on (start_i, stop_i] only.
TEST(poisson_source, per_neuron_start_and_stop_bound_each_train) {
    const std::uint32_t n = 10;
    network net;
    const auto pop = net.add_population("drive", n, poisson_source{{.rate_hz = 2000}});
    std::vector<double> start(n), stop(n);
    for (std::uint32_t i = 0; i < n; ++i) start[i] = 10.0 * i, stop[i] = 10.0 * i + 20;
    net.set_parameter(pop, "start_ms", start);
    net.set_parameter(pop, "stop_ms", stop);
    simulation sim(net, context{.threads = 1}, {.dt_ms = 0.1, .seed = 4});
    auto rec = sim.record_spikes(pop);
    sim.run(150);
    const auto by = testing::spike_steps_by_neuron(rec);
    for (std::uint32_t i = 0; i < n; ++i) {
        ASSERT_FALSE(by[i].empty()) << "neuron " << i;  // 40 spikes expected: P(none) = e^-40
        EXPECT_GT(by[i].front(), std::llround(start[i] / 0.1)) << "neuron " << i;
        EXPECT_LE(by[i].back(), std::llround(stop[i] / 0.1)) << "neuron " << i;
    }
}

// A negative rate is refused with invalid_parameter naming the population, the parameter and
// the value: given as a value at once, a drawn one when the simulation is built.
TEST(poisson_source, negative_per_neuron_rate_is_an_invalid_parameter_naming_it) {
    network net;
    const auto pop = net.add_population("drive", 3, poisson_source{});
    try {
        net.set_parameter(pop, "rate_hz", std::vector<double>{100, -5, 1000});
        FAIL() << "a negative rate was accepted";
    } catch (const invalid_parameter& e) {
        EXPECT_EQ(e.object(), "population 'drive'");
        EXPECT_EQ(e.parameter(), "rate_hz");
        EXPECT_EQ(e.value(), "-5");
    }
    net.set_parameter(pop, "rate_hz", normal{.mean = -50, .stddev = 1});
    try {
        simulation sim(net, context{.threads = 1}, {.dt_ms = 0.1});
        FAIL() << "a drawn negative rate was accepted";
    } catch (const invalid_parameter& e) {
        EXPECT_EQ(e.object(), "population 'drive' neuron 0");
        EXPECT_EQ(e.parameter(), "rate_hz");
        EXPECT_LT(std::stod(e.value()), 0);
    }
}

/// (mean, sample variance) of the intervals [ms] of every train of `rec`, and their count.
std::tuple<double, double, std::size_t> interval_moments(const spike_recorder& rec, double dt,
                                                         std::uint32_t only = UINT32_MAX) {
    const auto by = testing::spike_steps_by_neuron(rec);
    double sum = 0, sum2 = 0;
    std::size_t count = 0;
    for (std::uint32_t i = 0; i < by.size(); ++i) {
        if (only != UINT32_MAX && i != only) continue;
        for (std::size_t k = 1; k < by[i].size(); ++k) {
            const double isi = static_cast<double>(by[i][k] - by[i][k - 1]) * dt;
            sum += isi, sum2 += isi * isi, ++count;
        }
    }
    const double m = sum / static_cast<double>(count);
    return {m, (sum2 - static_cast<double>(count) * m * m) / static_cast<double>(count - 1), count};
}

// A dead time d: no interval shorter than d, the mean interval still 1/rate, and the rest of
// each interval exponential of mean 1/rate - d (so the interval's sd is 1/rate - d).
TEST(poisson_source, a_dead_time_keeps_the_rate_and_shortens_nothing_below_it) {
    const double rate_hz = 50, dead = 5, dt = 0.1;
    network net;
    const auto pop = net.add_population("noise", 200, poisson_source{{.rate_hz = rate_hz, .dead_time_ms = dead}});
    simulation sim(net, context{.threads = 2}, {.dt_ms = dt, .seed = 11});
    auto rec = sim.record_spikes(pop);
    sim.run(20000);
    for (const auto& steps : testing::spike_steps_by_neuron(rec))
        for (std::size_t k = 1; k < steps.size(); ++k)
            ASSERT_GE(static_cast<double>(steps[k] - steps[k - 1]) * dt, dead - dt) << "an interval below the dead time";
    const auto [m, var, n] = interval_moments(rec, dt);
    ASSERT_GT(n, 150000u);
    const double mean = 1000 / rate_hz, sd = mean - dead;
    EXPECT_NEAR(m, mean, z999 * sd / std::sqrt(static_cast<double>(n)));
    // The sample variance of an exponential: Var(s²) = (mu4 - s⁴)/n = 8 s⁴ / n.
    EXPECT_NEAR(var, sd * sd + dt * dt / 6, z999 * std::sqrt(8.0 / static_cast<double>(n)) * sd * sd);
}

// A gamma shape k: mean interval 1/rate, variance (1/rate)²/k (PyNN's SpikeSourceGamma with
// alpha = k, beta = k·rate), for shapes above and below 1; the same trains on 1 and 3 threads.
TEST(poisson_source, a_gamma_shape_gives_intervals_of_that_shape_at_the_rate) {
    const double dt = 0.1;
    network net;
    const auto pop = net.add_population("noise", 3, poisson_source{});
    net.set_parameter(pop, "rate_hz", std::vector<double>{100.0 / 6, 50, 500});
    net.set_parameter(pop, "gamma_shape", std::vector<double>{6, 4, 0.5});
    std::vector<std::int64_t> first;
    for (int threads : {1, 3}) {
        simulation sim(net, context{.threads = threads}, {.dt_ms = dt, .seed = 5});
        auto rec = sim.record_spikes(pop);
        sim.run(200000);
        const std::vector<double> rates{100.0 / 6, 50, 500}, shapes{6, 4, 0.5};
        for (std::uint32_t i = 0; i < 3; ++i) {
            const auto [m, var, n] = interval_moments(rec, dt, i);
            const double mean = 1000 / rates[i], v = mean * mean / shapes[i];
            // Var of the sample variance of a gamma: (mu4 - s⁴)/n with mu4 = 3 s⁴ (1 + 2/k).
            const double sd_var = std::sqrt((3 * (1 + 2 / shapes[i]) - 1) / static_cast<double>(n)) * v;
            EXPECT_NEAR(m, mean, z999 * std::sqrt(v / static_cast<double>(n))) << "neuron " << i;
            EXPECT_NEAR(var, v + dt * dt / 6, z999 * sd_var + (shapes[i] < 1 ? 0.02 * v : 0.0)) << "neuron " << i;
        }
        if (first.empty()) first = rec.steps();
        else EXPECT_EQ(rec.steps(), first) << threads << " threads";
    }
}

TEST(poisson_source, a_dead_time_as_long_as_the_mean_interval_is_refused_naming_it) {
    network net;
    net.add_population("noise", 2, poisson_source{{.rate_hz = 100, .dead_time_ms = 10}});
    try {
        simulation sim(net, context{.threads = 1}, {.dt_ms = 0.1});
        ADD_FAILURE() << "a dead time of 10 ms at 100 Hz was accepted";
    } catch (const invalid_parameter& e) {
        EXPECT_NE(std::string(e.what()).find("dead_time_ms = 10"), std::string::npos) << e.what();
        EXPECT_NE(std::string(e.what()).find("'noise'"), std::string::npos) << e.what();
    }
    EXPECT_THROW(net.add_population("bad", 1, poisson_source{{.gamma_shape = 0}}), invalid_parameter);
    EXPECT_THROW(net.add_population("bad2", 1, poisson_source{{.dead_time_ms = -1}}), invalid_parameter);
}

// Rates changed between runs (simulation::set_parameter, PyNN's SpikeSourcePoisson.set(rate=...)
// after run()): each neuron fires at the new rate from then on, and only the Poisson sources'
// parameters may change.
TEST(poisson_source, a_rate_changed_between_runs_holds_from_then_on) {
    const std::uint32_t n = 500;
    const double dt = 0.1;
    network net;
    const auto pop = net.add_population("noise", n, poisson_source{{.rate_hz = 10}});
    const auto cells = net.add_population("cells", 2, lif_exp{});
    std::vector<std::int64_t> first;
    for (int threads : {1, 2}) {
        simulation sim(net, context{.threads = threads}, {.dt_ms = dt, .seed = 3});
        auto rec = sim.record_spikes(pop);
        sim.run(2000);
        std::vector<double> rates(n);
        for (std::uint32_t i = 0; i < n; ++i) rates[i] = i < n / 2 ? 100.0 : 0.0;
        sim.set_parameter(pop, "rate_hz", rates);
        sim.run(2000);
        std::size_t before = 0, after_low = 0, after_high = 0;
        const auto& d = rec.data();
        for (std::size_t k = 0; k < d.steps.size(); ++k) {
            if (d.steps[k] <= 20000) ++before;
            else if (d.node_ids[k] < n / 2) ++after_high;
            else ++after_low;
        }
        const double mean_before = n * 10 * 2.0, mean_after = n / 2 * 100 * 2.0;
        EXPECT_NEAR(static_cast<double>(before), mean_before, z999 * std::sqrt(mean_before));
        EXPECT_NEAR(static_cast<double>(after_high), mean_after, z999 * std::sqrt(mean_after));
        EXPECT_EQ(after_low, 0u) << "a rate of 0 fired";
        EXPECT_TRUE(sim.model().at(pop).parameters.size() == 1) << "the simulation's network keeps the change";
        if (first.empty()) first = rec.steps();
        else EXPECT_EQ(rec.steps(), first) << "the trains depend on the thread count";
        EXPECT_THROW(sim.set_parameter(pop, "rate_hz", -5.0), invalid_parameter);
        EXPECT_THROW(sim.set_parameter(cells, "tau_m_ms", 5.0), unsupported_model);
    }
}

}  // namespace
}  // namespace volley::snn
