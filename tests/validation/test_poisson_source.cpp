// Poisson sources against the statistics of a Poisson process. Every bound is a two-sided
// 99.9% interval (z = 3.29, rounded up to 3.3), so each test fails by chance once in a
// thousand seeds; the seeds are fixed, so the outcome is reproducible.

#include "../support/snn_test_support.hpp"

#include <cmath>

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

}  // namespace
}  // namespace volley::snn
