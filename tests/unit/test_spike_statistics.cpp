// Single-train statistics: analytic Poisson and regular trains, Elephant's values on the
// fixture trains, and the typed errors for bad input.

#include <volley/error.hpp>
#include <volley/snn/analysis/statistics.hpp>

#include "analysis_reference.hpp"

#include <gtest/gtest.h>

#include <cmath>
#include <limits>
#include <numbers>
#include <random>

namespace va = volley::snn::analysis;
using volley::test::analysis_reference;
using volley::test::close_relative;
using volley::test::max_relative_difference;

namespace {

std::vector<double> poisson_train(double rate_hz, double duration_ms, std::uint64_t seed) {
    std::mt19937_64 rng(seed);
    std::exponential_distribution<double> isi(rate_hz / 1e3);
    std::vector<double> t;
    for (double now = isi(rng); now < duration_ms; now += isi(rng)) t.push_back(now);
    return t;
}

std::vector<double> regular_train(double period_ms, std::size_t n, double first_ms = 0) {
    std::vector<double> t;
    for (std::size_t i = 0; i < n; ++i) t.push_back(first_ms + static_cast<double>(i) * period_ms);
    return t;
}

const va::time_window reference_window{0, 2000};

}  // namespace

TEST(spike_statistics,
     poisson_train_has_its_rate_and_unit_cv_lv_cv2_and_fano_within_sampling_bounds) {
    const double rate = 50, duration = 100000;  // 5000 spikes expected
    const auto t = poisson_train(rate, duration, 12345);
    const va::time_window w{0, duration};
    // Count ~ Poisson(5000): sd 70.7 spikes = 0.71 Hz; bounds at 4 sd.
    EXPECT_NEAR(va::mean_rate_hz(va::view(t), w), rate,
                4 * std::sqrt(rate * duration / 1e3) / (duration / 1e3));
    // CV, CV2 and LV of an exponential ISI sequence are 1 with sd about 1/sqrt(n) (< 0.015).
    EXPECT_NEAR(va::cv(va::view(t)), 1.0, 0.06);
    EXPECT_NEAR(va::cv2(va::view(t)), 1.0, 0.06);
    EXPECT_NEAR(va::lv(va::view(t)), 1.0, 0.06);
    // 1000 windows of mean count 5: the Fano estimate has sd about sqrt(2 / 1000) = 0.045.
    EXPECT_NEAR(va::fano_factor(va::view(t), w, 100.0), 1.0, 0.18);
}

TEST(spike_statistics, regular_train_has_zero_cv_cv2_lv_and_fano) {
    const auto t = regular_train(10.0, 101, 5.0);  // 5, 15, ..., 1005 ms
    EXPECT_NEAR(va::cv(va::view(t)), 0.0, 1e-12);
    EXPECT_NEAR(va::cv2(va::view(t)), 0.0, 1e-12);
    EXPECT_NEAR(va::lv(va::view(t)), 0.0, 1e-12);
    EXPECT_NEAR(va::fano_factor(va::view(t), {0, 1000}, 100.0), 0.0,
                1e-12);                                                 // 10 spikes per window
    EXPECT_DOUBLE_EQ(va::mean_rate_hz(va::view(t), {0, 1000}), 100.0);  // 100 spikes before 1000
    const auto isi = va::isis(va::view(t));
    ASSERT_EQ(isi.size(), 100u);
    for (double d : isi) EXPECT_NEAR(d, 10.0, 1e-12);
}

TEST(spike_statistics, binned_counts_drop_the_partial_last_bin_and_use_half_open_bins) {
    const std::vector<double> t{0.0, 0.5, 1.0, 2.999, 3.0, 9.5};
    const auto c = va::binned_counts(va::view(t), {0, 3.5}, 1.0);
    ASSERT_EQ(c.size(), 3u);
    EXPECT_EQ(c, (std::vector<double>{2, 1, 1}));
    const auto r = va::binned_rate_hz(va::view(t), {0, 3.5}, 1.0);
    EXPECT_DOUBLE_EQ(r[0], 2000.0);
}

TEST(spike_statistics,
     kernel_rates_of_one_spike_integrate_to_one_spike_and_match_their_closed_forms) {
    const std::vector<double> one{500.0};
    const va::time_window w{0, 1000};
    const auto g = va::kernel_rate_hz(va::view(one), w, va::rate_kernel::gaussian, 10.0, 0.5);
    const auto e = va::kernel_rate_hz(va::view(one), w, va::rate_kernel::exponential, 10.0, 0.5);
    double sum_g = 0, sum_e = 0;
    for (double v : g) sum_g += v * 0.5 / 1e3;
    for (double v : e) sum_e += v * 0.5 / 1e3;
    EXPECT_NEAR(sum_g, 1.0, 1e-9);
    EXPECT_NEAR(sum_e, 1.0, 0.03);  // a causal exponential sampled at bin centres: midpoint rule
    // Sample 1001 is at 500.75 ms.
    EXPECT_TRUE(close_relative(
        g[1001], 1e3 * std::exp(-0.5 * 0.075 * 0.075) / (std::sqrt(2 * std::numbers::pi) * 10.0),
        1e-12));
    EXPECT_TRUE(close_relative(e[1001], 1e3 * std::exp(-0.075) / 10.0, 1e-12));
    EXPECT_EQ(e[999], 0.0);  // 499.75 ms: before the spike
}

TEST(spike_statistics, rates_cv_cv2_lv_agree_with_elephant_within_1e_9) {
    const auto& ref = analysis_reference();
    const auto trains = volley::test::reference_trains();
    for (std::size_t i = 0; i < trains.size(); ++i) {
        const auto& row = ref.at("statistics").at(i);
        SCOPED_TRACE("train " + std::to_string(i));
        EXPECT_TRUE(close_relative(va::mean_rate_hz(va::view(trains[i]), reference_window, i),
                                   row.at("mean_rate_hz").get<double>()));
        if (!row.contains("cv")) continue;
        EXPECT_TRUE(close_relative(va::cv(va::view(trains[i]), i), row.at("cv").get<double>()));
        EXPECT_TRUE(close_relative(va::cv2(va::view(trains[i]), i), row.at("cv2").get<double>()));
        EXPECT_TRUE(close_relative(va::lv(va::view(trains[i]), i), row.at("lv").get<double>()));
        const auto s = va::isi_statistics(va::view(trains[i]), i);
        EXPECT_TRUE(close_relative(s.cv, row.at("cv").get<double>()));
        EXPECT_TRUE(close_relative(s.cv2, row.at("cv2").get<double>()));
        EXPECT_TRUE(close_relative(s.lv, row.at("lv").get<double>()));
    }
}

TEST(spike_statistics, binned_counts_and_fano_factors_agree_with_elephant_and_numpy) {
    const auto& ref = analysis_reference();
    const auto trains = volley::test::reference_trains();
    for (std::size_t i = 0; i < trains.size(); ++i)
        EXPECT_EQ(va::binned_counts(va::view(trains[i]), reference_window, 5.0, i),
                  ref.at("binned_counts").at(i).get<std::vector<double>>());
    const auto spans = va::views(trains);
    EXPECT_TRUE(close_relative(va::fano_factor(spans), ref.at("fano_factor_trials").get<double>()));
    const auto& fw = ref.at("fano_factor_windows");
    const auto k = fw.at("train").get<std::size_t>();
    EXPECT_TRUE(close_relative(
        va::fano_factor(spans[k], reference_window, fw.at("counting_ms").get<double>(), k),
        fw.at("value").get<double>()));
}

TEST(spike_statistics, kernel_rates_agree_with_exact_numpy_kernel_sums) {
    const auto& kr = analysis_reference().at("kernel_rate");
    const auto trains = volley::test::reference_trains();
    const auto k = kr.at("train").get<std::size_t>();
    const double width = kr.at("width_ms").get<double>(), dt = kr.at("sampling_ms").get<double>();
    const auto g = va::kernel_rate_hz(va::view(trains[k]), reference_window,
                                      va::rate_kernel::gaussian, width, dt);
    const auto e = va::kernel_rate_hz(va::view(trains[k]), reference_window,
                                      va::rate_kernel::exponential, width, dt);
    const auto g_ref = kr.at("gaussian_hz").get<std::vector<double>>();
    const auto e_ref = kr.at("exponential_hz").get<std::vector<double>>();
    ASSERT_EQ(g.size(), g_ref.size());
    ASSERT_EQ(e.size(), e_ref.size());
    // Relative to the peak: far from every spike both are ~0 and only absolute error matters.
    double peak = 0, worst_g = 0, worst_e = 0;
    for (double v : g_ref) peak = std::max(peak, v);
    for (std::size_t i = 0; i < g.size(); ++i) {
        worst_g = std::max(worst_g, std::abs(g[i] - g_ref[i]) / peak);
        worst_e = std::max(worst_e, std::abs(e[i] - e_ref[i]) / peak);
    }
    EXPECT_LT(worst_g, 1e-12);
    EXPECT_LT(worst_e, 1e-12);
}

TEST(spike_statistics, unsorted_negative_and_non_finite_times_name_the_train_and_value) {
    const std::vector<double> unsorted{1.0, 3.0, 2.0};
    try {
        va::cv(va::view(unsorted), 7);
        FAIL() << "no exception";
    } catch (const volley::invalid_parameter& e) {
        EXPECT_EQ(e.object(), "spike train 7");
        EXPECT_EQ(e.parameter(), "times_ms[2]");
        EXPECT_EQ(e.value(), "2");
    }
    const std::vector<double> negative{-0.5, 1.0};
    EXPECT_THROW(va::mean_rate_hz(va::view(negative), {0, 10}), volley::invalid_parameter);
    const std::vector<double> nan{1.0, std::numeric_limits<double>::quiet_NaN()};
    EXPECT_THROW(va::isis(va::view(nan)), volley::invalid_parameter);
}

TEST(spike_statistics, bad_windows_bins_and_too_few_spikes_are_typed_errors) {
    const std::vector<double> t{1.0, 2.0, 4.0};
    try {
        va::mean_rate_hz(va::view(t), {10, 10});
        FAIL() << "no exception";
    } catch (const volley::invalid_parameter& e) {
        EXPECT_EQ(e.parameter(), "stop_ms");
        EXPECT_EQ(e.value(), "10");
    }
    EXPECT_THROW(va::mean_rate_hz(va::view(t), {10, 5}), volley::invalid_parameter);
    try {
        va::binned_counts(va::view(t), {0, 10}, 0.0);
        FAIL() << "no exception";
    } catch (const volley::invalid_parameter& e) {
        EXPECT_EQ(e.parameter(), "bin_ms");
        EXPECT_EQ(e.value(), "0");
    }
    EXPECT_THROW(va::kernel_rate_hz(va::view(t), {0, 10}, va::rate_kernel::gaussian, 0.0, 1.0),
                 volley::invalid_parameter);
    const std::vector<double> two{1.0, 2.0};
    try {
        va::cv(va::view(two), 4);
        FAIL() << "no exception";
    } catch (const volley::invalid_parameter& e) {
        EXPECT_EQ(e.object(), "spike train 4");
        EXPECT_EQ(e.value(), "2");
    }
    const std::vector<double> none;
    EXPECT_THROW(va::fano_factor(va::view(none), {0, 100}, 10.0), volley::invalid_parameter);
    const std::vector<double> repeated{1.0, 1.0, 1.0};
    EXPECT_THROW(va::cv(va::view(repeated)), volley::invalid_parameter);
}
