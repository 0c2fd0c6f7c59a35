// Spike-train distances: closed forms and hand-computed cases, Elephant (van Rossum,
// Victor-Purpura) and PySpike (ISI, SPIKE, SPIKE-synchronization) on the fixture trains, and
// matrices that do not depend on the thread count.

#include <volley/error.hpp>
#include <volley/snn/analysis/distances.hpp>

#include "analysis_reference.hpp"

#include <gtest/gtest.h>
#include <omp.h>

#include <algorithm>
#include <cmath>
#include <random>

namespace va = volley::snn::analysis;
using volley::test::analysis_reference;
using volley::test::close_relative;
using volley::test::flat_matrix;
using volley::test::max_relative_difference;

namespace {

const va::time_window reference_window{0, 2000};

std::vector<double> regular(double first, double period, double last) {
    std::vector<double> t;
    for (double x = first; x <= last + 1e-9; x += period) t.push_back(x);
    return t;
}

// The fixture's trains, plus the empty train PySpike's matrices include as index 8.
std::vector<std::vector<double>> trains_with_empty() {
    auto t = volley::test::reference_trains();
    t.emplace_back();
    return t;
}

va::distance_options kreuz_options(double mrts = 0, double max_tau = 0) {
    va::distance_options o;
    o.kreuz.window = reference_window;
    o.kreuz.mrts_ms = mrts;
    o.kreuz.max_tau_ms = max_tau;
    return o;
}

}  // namespace

TEST(van_rossum, one_spike_each_matches_the_closed_form) {
    for (double delta : {0.0, 1.0, 5.0, 30.0}) {
        const std::vector<double> a{100.0}, b{100.0 + delta};
        EXPECT_TRUE(close_relative(va::van_rossum_distance(va::view(a), va::view(b), 10.0),
                                   std::sqrt(2 * (1 - std::exp(-delta / 10.0))), 1e-12))
            << "delta " << delta;
    }
}

TEST(van_rossum, empty_train_against_regular_train_is_the_self_term) {
    const std::vector<double> none, b{0.0, 10.0};
    // sum_ij e^{-|b_i - b_j|/tau} = 2 + 2 e^{-1}.
    EXPECT_TRUE(close_relative(va::van_rossum_distance(va::view(none), va::view(b), 10.0),
                               std::sqrt(2 + 2 * std::exp(-1.0)), 1e-12));
    EXPECT_EQ(va::van_rossum_distance(va::view(b), va::view(b), 10.0), 0.0);
}

TEST(victor_purpura, hand_computed_edit_costs) {
    const std::vector<double> a{10.0}, b{12.0}, none, three{1.0, 2.0, 3.0}, two{10.0, 20.0},
        one{11.0};
    EXPECT_NEAR(va::victor_purpura_distance(va::view(a), va::view(b), 0.1), 0.2,
                1e-12);  // shift 2 ms
    EXPECT_NEAR(va::victor_purpura_distance(va::view(a), va::view(b), 1.5), 2.0,
                1e-12);  // delete + insert
    EXPECT_NEAR(va::victor_purpura_distance(va::view(none), va::view(three), 0.1), 3.0, 1e-12);
    EXPECT_NEAR(va::victor_purpura_distance(va::view(two), va::view(one), 0.5), 1.5,
                1e-12);  // shift + delete
    EXPECT_NEAR(va::victor_purpura_distance(va::view(two), va::view(one), 0.0), 1.0,
                1e-12);  // count difference
}

TEST(kreuz_distances,
     equal_period_trains_have_zero_isi_distance_and_offset_half_period_gives_spike_half) {
    // a = 0, 10, ..., 100 and b = 5, 15, ..., 95 on [0, 100]: every ISI is 10 (also at the edges,
    // by the edge correction), every nearest-spike distance 5: S(t) = 0.5 everywhere.
    const auto a = regular(0, 10, 100), b = regular(5, 10, 95);
    va::kreuz_options o;
    o.window = {0, 100};
    EXPECT_NEAR(va::isi_distance(va::view(a), va::view(b), o), 0.0, 1e-12);
    EXPECT_NEAR(va::spike_distance(va::view(a), va::view(b), o), 0.5, 1e-12);
    EXPECT_NEAR(va::spike_distance(va::view(a), va::view(a), o), 0.0, 1e-12);
}

TEST(kreuz_distances, periods_ten_and_twenty_give_isi_distance_one_half) {
    const auto a = regular(0, 10, 100), b = regular(0, 20, 100);
    va::kreuz_options o;
    o.window = {0, 100};
    EXPECT_NEAR(va::isi_distance(va::view(a), va::view(b), o), 0.5, 1e-12);  // |10 - 20| / 20
}

TEST(spike_synchronization, identical_close_and_distant_single_spikes) {
    va::kreuz_options o;
    o.window = {0, 100};
    const std::vector<double> a{10.0}, close{12.0}, far{90.0}, none;
    EXPECT_DOUBLE_EQ(va::spike_synchronization(va::view(a), va::view(a), o), 1.0);
    EXPECT_DOUBLE_EQ(va::spike_synchronization(va::view(a), va::view(close), o),
                     1.0);  // 2 < tau = 50
    EXPECT_DOUBLE_EQ(va::spike_synchronization(va::view(a), va::view(far), o), 0.0);  // 80 > 50
    EXPECT_DOUBLE_EQ(va::spike_synchronization(va::view(none), va::view(none), o), 1.0);
    o.max_tau_ms = 1.0;  // the window is capped at 1 ms
    EXPECT_DOUBLE_EQ(va::spike_synchronization(va::view(a), va::view(close), o), 0.0);
}

TEST(van_rossum_and_victor_purpura, matrices_agree_with_elephant_within_1e_9) {
    const auto& ref = analysis_reference();
    const auto trains = volley::test::reference_trains();
    const auto spans = va::views(trains);
    va::distance_options o;
    o.tau_ms = ref.at("tau_ms").get<double>();
    o.cost_per_ms = ref.at("cost_per_ms").get<double>();
    const auto vr = va::distance_matrix(spans, va::distance_measure::van_rossum, o);
    const auto vp = va::distance_matrix(spans, va::distance_measure::victor_purpura, o);
    EXPECT_LT(max_relative_difference(vr, flat_matrix(ref.at("van_rossum"))), 1e-9);
    EXPECT_LT(max_relative_difference(vp, flat_matrix(ref.at("victor_purpura"))), 1e-9);
    // The pairwise functions give the matrix entries.
    EXPECT_EQ(va::van_rossum_distance(spans[0], spans[4], o.tau_ms), vr[0 * trains.size() + 4]);
    EXPECT_EQ(va::victor_purpura_distance(spans[2], spans[5], o.cost_per_ms),
              vp[2 * trains.size() + 5]);
}

TEST(kreuz_distances, isi_spike_and_sync_matrices_agree_with_pyspike_within_1e_9) {
    const auto& ref = analysis_reference();
    const auto trains = trains_with_empty();
    const auto spans = va::views(trains);
    const auto o = kreuz_options();
    EXPECT_LT(max_relative_difference(va::distance_matrix(spans, va::distance_measure::isi, o),
                                      flat_matrix(ref.at("isi_distance"))),
              1e-9);
    EXPECT_LT(max_relative_difference(va::distance_matrix(spans, va::distance_measure::spike, o),
                                      flat_matrix(ref.at("spike_distance"))),
              1e-9);
    EXPECT_LT(
        max_relative_difference(va::distance_matrix(spans, va::distance_measure::spike_sync, o),
                                flat_matrix(ref.at("spike_sync"))),
        1e-9);
    const auto& sync_tau = ref.at("spike_sync_max_tau");
    EXPECT_LT(max_relative_difference(
                  va::distance_matrix(spans, va::distance_measure::spike_sync,
                                      kreuz_options(0, sync_tau.at("max_tau_ms").get<double>())),
                  flat_matrix(sync_tau.at("matrix"))),
              1e-9);
    const auto& spike_mrts = ref.at("spike_distance_mrts");
    EXPECT_LT(max_relative_difference(
                  va::distance_matrix(spans, va::distance_measure::spike,
                                      kreuz_options(spike_mrts.at("mrts_ms").get<double>())),
                  flat_matrix(spike_mrts.at("matrix"))),
              1e-9);
    const auto& isi_mrts = ref.at("isi_distance_mrts");
    EXPECT_LT(max_relative_difference(
                  va::distance_matrix(spans, va::distance_measure::isi,
                                      kreuz_options(isi_mrts.at("mrts_ms").get<double>())),
                  flat_matrix(isi_mrts.at("matrix"))),
              1e-9);
}

TEST(distance_matrix, results_do_not_depend_on_the_thread_count) {
    const auto trains = trains_with_empty();
    const auto spans = va::views(trains);
    for (auto m : {va::distance_measure::van_rossum, va::distance_measure::victor_purpura,
                   va::distance_measure::isi, va::distance_measure::spike,
                   va::distance_measure::spike_sync}) {
        const int saved = omp_get_max_threads();
        omp_set_num_threads(1);
        const auto one = va::distance_matrix(spans, m, kreuz_options());
        omp_set_num_threads(2);
        const auto two = va::distance_matrix(spans, m, kreuz_options());
        omp_set_num_threads(saved);
        EXPECT_EQ(one, two);
    }
}

TEST(kreuz_distances, isi_and_spike_matrices_agree_with_pyspike_on_the_portable_kernels_too) {
    auto o = kreuz_options();
    o.max_isa = volley::snn::instruction_set::baseline;
    const auto trains = trains_with_empty();
    EXPECT_LT(max_relative_difference(
                  va::distance_matrix(va::views(trains), va::distance_measure::spike, o),
                  flat_matrix(analysis_reference().at("spike_distance"))),
              1e-9);
    EXPECT_LT(max_relative_difference(
                  va::distance_matrix(va::views(trains), va::distance_measure::isi, o),
                  flat_matrix(analysis_reference().at("isi_distance"))),
              1e-9);
}

TEST(distance_matrix, isi_and_spike_vector_kernels_give_the_portable_doubles) {
    // Trains that put every edge rule into lanes side by side: Poisson trains of 5 to 80 Hz, an
    // exact copy (both trains fire at once) and a jittered one, a single spike, a single spike
    // on start, spikes on start and stop, empty trains. 25 trains, 300 pairs: whole vector
    // walks and a short last one. On a CPU without AVX-512 both come from the portable walks.
    std::mt19937_64 rng(2025);
    std::vector<std::vector<double>> trains;
    for (int i = 0; i < 16; ++i) {
        std::exponential_distribution<double> isi((5.0 + 5.0 * i) / 1000.0);
        trains.emplace_back();
        for (double t = isi(rng); t < 2000; t += isi(rng)) trains.back().push_back(t);
    }
    trains.push_back(trains[3]);
    trains.push_back(trains[5]);
    std::normal_distribution<double> jitter(0.0, 2.0);
    for (double& t : trains.back()) t = std::clamp(t + jitter(rng), 0.0, 2000.0);
    std::sort(trains.back().begin(), trains.back().end());
    for (std::vector<double> t : {std::vector<double>{500.0},
                                  {0.0},
                                  {0.0, 1000.0, 2000.0},
                                  {},
                                  {0.0, 3.0, 1999.5},
                                  {1.0, 1999.0},
                                  {}})
        trains.push_back(t);
    const auto spans = va::views(trains);
    const std::size_t n = trains.size();
    for (double mrts : {0.0, 50.0}) {
        auto o = kreuz_options(mrts);
        for (auto m : {va::distance_measure::isi, va::distance_measure::spike}) {
            o.max_isa = volley::snn::instruction_set::baseline;
            const auto portable = va::distance_matrix(spans, m, o);
            o.max_isa = volley::snn::instruction_set::best;
            const auto best = va::distance_matrix(spans, m, o);
            EXPECT_EQ(portable, best) << "mrts " << mrts;
        }
        const auto spike = va::distance_matrix(spans, va::distance_measure::spike, o);
        EXPECT_EQ(va::spike_distance(spans[3], spans[16], o.kreuz), spike[3 * n + 16]);
        EXPECT_EQ(va::spike_distance(spans[20], spans[7], o.kreuz), spike[20 * n + 7]);
        const auto isi = va::distance_matrix(spans, va::distance_measure::isi, o);
        EXPECT_EQ(va::isi_distance(spans[3], spans[16], o.kreuz), isi[3 * n + 16]);
        EXPECT_EQ(va::isi_distance(spans[20], spans[7], o.kreuz), isi[20 * n + 7]);
    }
}

TEST(distance_matrix, bad_parameters_and_trains_are_typed_errors_naming_the_train) {
    const std::vector<std::vector<double>> trains{{1.0, 2.0}, {3.0, 1.0}};
    const auto spans = va::views(trains);
    try {
        va::distance_matrix(spans, va::distance_measure::van_rossum, {});
        FAIL() << "no exception";
    } catch (const volley::invalid_parameter& e) {
        EXPECT_EQ(e.object(), "spike train 1");
        EXPECT_EQ(e.value(), "1");
    }
    const std::vector<double> a{1.0};
    EXPECT_THROW(va::van_rossum_distance(va::view(a), va::view(a), 0.0), volley::invalid_parameter);
    EXPECT_THROW(va::victor_purpura_distance(va::view(a), va::view(a), -1.0),
                 volley::invalid_parameter);
    va::kreuz_options o;
    o.window = {5, 5};
    EXPECT_THROW(va::spike_distance(va::view(a), va::view(a), o), volley::invalid_parameter);
}
