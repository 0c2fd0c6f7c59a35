// The AdEx presets of Naud et al. (2008, Table 1) at the table's step currents, over 1 s at
// dt = 0.1 ms: the engine's spikes agree with an independent RK4 integration (each spike in the
// step holding the reference spike time, equal counts), and the trains show the published
// patterns: tonic (regular ISIs), adapting (ISIs lengthen several-fold), regular bursting
// (bursts of short ISIs separated by long pauses), irregular (ISIs that do not settle).

#include "../support/snn_test_support.hpp"
#include "ode_reference.hpp"

#include <algorithm>
#include <cmath>
#include <numeric>

namespace volley::snn {
namespace {

constexpr double dt = 0.1, duration = 1000;

std::vector<double> reference_spike_times(const adex::params& p) {
    auto f = [&](const std::array<double, 2>& x, std::array<double, 2>& d) {
        const double v = std::min(x[0], p.v_peak_mv);
        d[0] =
            (-p.g_l_ns * (v - p.e_l_mv) +
             p.g_l_ns * p.delta_t_mv * std::exp((v - p.v_t_mv) / p.delta_t_mv) - x[1] + p.i_e_pa) /
            p.c_m_pf;
        d[1] = (p.a_ns * (v - p.e_l_mv) - x[1]) / p.tau_w_ms;
    };
    auto reset = [&](std::array<double, 2>& x) {
        x[0] = p.v_reset_mv;
        x[1] += p.b_pa;
    };
    return testing::reference_spike_times<2>({p.e_l_mv, 0.0}, f, p.v_peak_mv, reset, duration,
                                             0.0005);
}

std::vector<double> check_against_reference(const std::string& name, std::size_t compare_first) {
    const auto model = adex::preset(name);
    network net;
    const auto pop = net.add_population("cell", 1, model);
    simulation sim(net, context{.threads = 1}, {.dt_ms = dt});
    auto rec = sim.record_spikes(pop);
    sim.run(duration);
    const auto ref = reference_spike_times(model.p);
    if (compare_first == 0) {
        EXPECT_EQ(rec.size(), ref.size()) << name;
    }
    const std::size_t n =
        std::min({rec.size(), ref.size(), compare_first == 0 ? rec.size() : compare_first});
    for (std::size_t k = 0; k < n; ++k) {
        const double stamp = static_cast<double>(rec.steps()[k]) * dt;
        EXPECT_GT(ref[k], stamp - dt - 1e-6) << name << " spike " << k;
        EXPECT_LE(ref[k], stamp + 1e-6) << name << " spike " << k;
    }
    return ref;
}

double cv(const std::vector<double>& x) {
    const double mean = std::accumulate(x.begin(), x.end(), 0.0) / static_cast<double>(x.size());
    double var = 0;
    for (double v : x) var += (v - mean) * (v - mean);
    return std::sqrt(var / static_cast<double>(x.size())) / mean;
}

TEST(adex_presets, tonic_fires_at_a_steady_rate) {
    const auto isi = testing::intervals(check_against_reference("tonic", 0));
    ASSERT_GE(isi.size(), 10u);
    const std::vector<double> late(isi.begin() + 2, isi.end());
    EXPECT_LT(cv(late), 0.02);
    EXPECT_LT(isi.back() / isi.front(), 1.5);
}

TEST(adex_presets, adapting_lengthens_its_intervals) {
    const auto isi = testing::intervals(check_against_reference("adapting", 0));
    ASSERT_GE(isi.size(), 5u);
    EXPECT_GT(isi.back() / isi.front(), 3.0);
    for (std::size_t k = 1; k < 4; ++k)
        EXPECT_GE(isi[k], isi[k - 1]) << k;  // monotone at the start
}

TEST(adex_presets, bursting_fires_regular_bursts) {
    const auto isi = testing::intervals(check_against_reference("bursting", 0));
    std::size_t pauses = 0, within = 0;
    for (double x : isi) {
        pauses += x > 20.0;
        within += x < 10.0;
    }
    EXPECT_GE(pauses, 4u);
    EXPECT_GE(within, pauses);               // at least two spikes per burst
    EXPECT_EQ(pauses + within, isi.size());  // two clearly separated interval classes
}

TEST(adex_presets, irregular_intervals_do_not_settle) {
    // Irregular firing is chaotic, so only the early spikes are compared spike by spike.
    const auto isi = testing::intervals(check_against_reference("irregular", 5));
    ASSERT_GE(isi.size(), 8u);
    const std::vector<double> late(isi.begin() + 2, isi.end());
    EXPECT_GT(cv(late), 0.1);
}

TEST(adex_presets, unknown_preset_is_an_unknown_name) {
    EXPECT_TRUE(testing::throws_naming<unknown_name>([] { adex::preset("chaotic"); },
                                                     {"chaotic", "tonic"}));
}

}  // namespace
}  // namespace volley::snn
