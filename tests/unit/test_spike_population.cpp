// Population measures: PSTH, Golomb's chi, correlation coefficients and correlograms, against
// Elephant (time_histogram, correlation_coefficient, cross_correlation_histogram), numpy
// (chi, shift predictor) and analytic cases.

#include <volley/error.hpp>
#include <volley/snn/analysis/population.hpp>

#include "analysis_reference.hpp"

#include <gtest/gtest.h>

#include <cmath>
#include <numeric>

namespace va = volley::snn::analysis;
using volley::test::analysis_reference;
using volley::test::close_relative;
using volley::test::flat_matrix;
using volley::test::max_relative_difference;

namespace {

const va::time_window reference_window{0, 2000};

}  // namespace

TEST(psth, counts_and_rates_agree_with_elephant_time_histogram) {
    const auto& ref = analysis_reference().at("psth");
    const auto trains = volley::test::reference_trains();
    const auto h = va::psth(va::views(trains), reference_window, 5.0);
    EXPECT_EQ(h.counts, ref.at("counts").get<std::vector<double>>());
    EXPECT_LT(max_relative_difference(h.rate_hz, ref.at("rate_hz").get<std::vector<double>>()),
              1e-12);
}

TEST(golomb_chi, identical_trains_give_one_and_agrees_with_numpy) {
    const std::vector<double> t{1.0, 7.0, 8.5, 20.0, 33.0};
    const std::vector<va::spike_train> same{va::view(t), va::view(t), va::view(t)};
    EXPECT_NEAR(va::golomb_chi(same, {0, 40}, 2.0), 1.0, 1e-12);
    const auto trains = volley::test::reference_trains();
    EXPECT_TRUE(close_relative(va::golomb_chi(va::views(trains), reference_window, 5.0),
                               analysis_reference().at("golomb_chi").get<double>()));
}

TEST(correlation_matrix, agrees_with_elephant_and_silent_trains_give_nan) {
    const auto trains = volley::test::reference_trains();
    const auto c = va::correlation_matrix(va::views(trains), reference_window, 5.0);
    EXPECT_LT(
        max_relative_difference(c, flat_matrix(analysis_reference().at("correlation_matrix"))),
        1e-9);
    const std::vector<double> some{1.0, 3.0}, none;
    const std::vector<va::spike_train> pair{va::view(some), va::view(none)};
    const auto m = va::correlation_matrix(pair, {0, 10}, 1.0);
    EXPECT_DOUBLE_EQ(m[0], 1.0);
    EXPECT_TRUE(std::isnan(m[1]) && std::isnan(m[3]));
}

TEST(correlograms, cross_and_auto_correlograms_agree_with_elephant) {
    const auto& ref = analysis_reference();
    const auto trains = volley::test::reference_trains();
    const int lag = ref.at("max_lag_bins").get<int>();
    const auto& cc = ref.at("cross_correlogram");
    const auto a = cc.at("a").get<std::size_t>(), b = cc.at("b").get<std::size_t>();
    const auto c = va::cross_correlogram(va::view(trains[a]), va::view(trains[b]), reference_window,
                                         5.0, lag, a, b);
    EXPECT_EQ(c.counts, cc.at("counts").get<std::vector<double>>());
    EXPECT_DOUBLE_EQ(c.lag_ms(0), -5.0 * lag);
    const auto k = ref.at("auto_correlogram").at("train").get<std::size_t>();
    const auto ac = va::auto_correlogram(va::view(trains[k]), reference_window, 5.0, lag, k);
    EXPECT_EQ(ac.counts, ref.at("auto_correlogram").at("counts").get<std::vector<double>>());
}

TEST(correlograms, positive_lag_means_the_second_train_fires_later) {
    const std::vector<double> a{10.5}, b{13.5};
    const auto c = va::cross_correlogram(va::view(a), va::view(b), {0, 100}, 1.0, 5);
    EXPECT_EQ(c.counts[5 + 3], 1.0);
    EXPECT_EQ(std::accumulate(c.counts.begin(), c.counts.end(), 0.0), 1.0);
}

TEST(shift_predictor, stimulus_locked_identical_trials_cancel_and_agrees_with_numpy) {
    const std::vector<double> a{5.0, 20.0, 41.0}, b{6.0, 22.0, 40.0};
    const std::vector<va::spike_train> ta{va::view(a), va::view(a), va::view(a)},
        tb{va::view(b), va::view(b), va::view(b)};
    const auto s = va::shift_corrected_cross_correlogram(ta, tb, {0, 50}, 1.0, 4);
    for (double v : s.corrected.counts) EXPECT_EQ(v, 0.0);
    double raw = 0;
    for (double v : s.raw.counts) raw += v;
    EXPECT_GT(raw, 0.0);

    const auto& ref = analysis_reference().at("shift_predictor");
    const auto trains = volley::test::reference_trains();
    std::vector<va::spike_train> ra, rb;
    for (auto i : ref.at("trials_a").get<std::vector<std::size_t>>())
        ra.push_back(va::view(trains[i]));
    for (auto i : ref.at("trials_b").get<std::vector<std::size_t>>())
        rb.push_back(va::view(trains[i]));
    const int lag = analysis_reference().at("max_lag_bins").get<int>();
    const auto r = va::shift_corrected_cross_correlogram(ra, rb, reference_window, 5.0, lag);
    EXPECT_LT(max_relative_difference(r.raw.counts, ref.at("raw").get<std::vector<double>>()),
              1e-12);
    EXPECT_LT(
        max_relative_difference(r.predictor.counts, ref.at("predictor").get<std::vector<double>>()),
        1e-12);
    EXPECT_LT(
        max_relative_difference(r.corrected.counts, ref.at("corrected").get<std::vector<double>>()),
        1e-12);
}

TEST(population_errors, empty_populations_silent_trains_and_bad_lags_are_typed_errors) {
    const std::vector<va::spike_train> none;
    try {
        va::psth(none, {0, 10}, 1.0);
        FAIL() << "no exception";
    } catch (const volley::invalid_parameter& e) {
        EXPECT_EQ(e.object(), "population");
        EXPECT_EQ(e.value(), "0");
    }
    const std::vector<double> empty;
    const std::vector<va::spike_train> silent{va::view(empty), va::view(empty)};
    EXPECT_THROW(va::golomb_chi(silent, {0, 10}, 1.0), volley::invalid_parameter);
    const std::vector<double> a{1.0};
    EXPECT_THROW(va::cross_correlogram(va::view(a), va::view(a), {0, 10}, 1.0, 10),
                 volley::invalid_parameter);
    EXPECT_THROW(va::cross_correlogram(va::view(a), va::view(a), {0, 10}, 1.0, -1),
                 volley::invalid_parameter);
    const std::vector<va::spike_train> one_trial{va::view(a)};
    EXPECT_THROW(va::shift_corrected_cross_correlogram(one_trial, one_trial, {0, 10}, 1.0, 2),
                 volley::invalid_parameter);
}
