// Multi-quantal release (quantal_release, NEST's quantal_stp_synapse): each spike releases
// each available site with probability u, depleted sites recover with probability
// 1 - exp(-h / tau_rec), and u facilitates as U + u·(1 - U)·exp(-h / tau_facil). Checked on
// thousands of synapses against the analytic distributions of three regimes that isolate each
// process (release alone: binomial; depletion without recovery: every site released exactly
// once; recovery alone, U = 1: binomial in 1 - exp(-h / tau_rec)), the facilitation recursion,
// the state before the first spike, the same draws on 1 and 3 threads, and the refusals.

#include <volley/error.hpp>
#include <volley/snn.hpp>

#include <gtest/gtest.h>

#include <cmath>
#include <filesystem>

namespace vs = volley::snn;

namespace {

constexpr double dt = 0.1, w = 0.5;

/// released[j][n]: the sites that spike n of the one source released onto target j (the
/// lif_delta jump divided by the weight); spikes every `interval` ms from 1 ms.
std::vector<std::vector<int>> released(std::uint32_t targets, std::uint32_t spikes, double interval,
                                       const vs::quantal_release& rule, int threads = 1, std::uint64_t seed = 42) {
    std::vector<double> times;
    for (std::uint32_t n = 0; n < spikes; ++n) times.push_back(1.0 + n * interval);
    vs::network net;
    const auto src = net.add_population("src", 1, vs::spike_source{{times}});
    const auto tgt = net.add_population(
        "tgt", targets, vs::lif_delta{{.tau_m_ms = 1e9, .v_rest_mv = 0, .v_reset_mv = -1, .v_thresh_mv = 1e9, .t_ref_ms = 0}});
    net.connect(src, tgt, vs::all_to_all{}, {.weight = w, .delay_ms = dt, .plasticity = rule});
    vs::simulation sim(net, vs::context{.threads = threads}, {.dt_ms = dt, .seed = seed});
    auto v = sim.record_state(tgt, "v_mv", dt);
    sim.run(times.back() + 1);
    std::vector<std::vector<int>> out(targets, std::vector<int>(spikes, 0));
    for (std::uint32_t j = 0; j < targets; ++j)
        for (std::uint32_t n = 0; n < spikes; ++n) {
            const auto k = static_cast<std::size_t>(std::llround(times[n] / dt));
            const double jump = v.at(k + 3, j) - v.at(k, j);  // the arrival lies within these steps
            const double sites = jump / w;
            EXPECT_NEAR(sites, std::round(sites), 1e-6) << "not a whole number of quanta";
            out[j][n] = static_cast<int>(std::lround(sites));
        }
    return out;
}

/// Mean and variance over the targets of the sites released by spike n.
std::pair<double, double> moments(const std::vector<std::vector<int>>& r, std::size_t n) {
    double sum = 0, sum2 = 0;
    for (const auto& row : r) sum += row[n], sum2 += double(row[n]) * row[n];
    const double mean = sum / static_cast<double>(r.size());
    return {mean, sum2 / static_cast<double>(r.size()) - mean * mean};
}

/// Checks spike n's mean and variance against a binomial of `trials` and `p` (3.5 standard errors).
void expect_binomial(const std::vector<std::vector<int>>& r, std::size_t n, double trials, double p) {
    const auto [mean, var] = moments(r, n);
    const double m = trials * p, v = trials * p * (1 - p), count = static_cast<double>(r.size());
    EXPECT_NEAR(mean, m, 3.5 * std::sqrt(v / count) + 1e-12) << "spike " << n;
    EXPECT_NEAR(var, v, 3.5 * std::sqrt(2.0 / count) * v + 1e-12) << "spike " << n;
}

}  // namespace

TEST(QuantalRelease, WithImmediateRecoveryEachSpikeReleasesABinomialOfTheSites) {
    // tau_rec far below the interval: every depleted site is back (1 - exp(-h / tau) is 1).
    const auto r = released(2000, 30, 2.0, {.u = 0.3, .tau_rec_ms = 1e-3, .sites = 5.0});
    for (std::size_t n = 0; n < 30; ++n) expect_binomial(r, n, 5, 0.3);
}

TEST(QuantalRelease, WithoutRecoveryEverySiteIsReleasedOnceAndTheReleasesDecayGeometrically) {
    const double u = 0.4, sites = 4;
    const auto r = released(2000, 80, 1.0, {.u = u, .tau_rec_ms = 1e15, .sites = sites});
    for (const auto& row : r) {
        int total = 0;
        for (int k : row) total += k;
        EXPECT_EQ(total, 4) << "a site released twice or never (0.6^80 of a chance)";
    }
    // Spike n releases Binomial(sites, u (1 - u)^n) marginally: each site still there with (1 - u)^n.
    for (std::size_t n = 0; n < 6; ++n) expect_binomial(r, n, sites, u * std::pow(1 - u, static_cast<double>(n)));
}

TEST(QuantalRelease, WithUOneTheReleasesAreTheSitesRecoveredSinceTheLastSpike) {
    const double tau_rec = 10, h = 5, sites = 8;
    const auto r = released(2000, 20, h, {.u = 1.0, .tau_rec_ms = tau_rec, .sites = sites});
    for (const auto& row : r) EXPECT_EQ(row[0], 8) << "the first spike releases every available site";
    for (std::size_t n = 1; n < 20; ++n) expect_binomial(r, n, sites, 1 - std::exp(-h / tau_rec));
}

TEST(QuantalRelease, FacilitationFollowsItsRecursionFromTheStartingProbability) {
    const double big_u = 0.1, tau_f = 50, h = 10, sites = 20;
    const auto r = released(2000, 12, h, {.u = big_u, .tau_rec_ms = 1e-3, .tau_facil_ms = tau_f, .sites = sites});
    double u = big_u;  // the first spike uses u as it starts (NEST: no update at the first spike)
    for (std::size_t n = 0; n < 12; ++n) {
        expect_binomial(r, n, sites, u);
        u = big_u + u * (1 - big_u) * std::exp(-h / tau_f);
    }
    EXPECT_GT(u, 2 * big_u) << "the test does not exercise facilitation";
}

TEST(QuantalRelease, TheStateBeforeTheFirstSpikeIsTheInitialOne) {
    // No site available and u = 1: the first spike releases nothing, the second (all sites back) all of them.
    auto r = released(50, 3, 2.0, {.u = 1.0, .tau_rec_ms = 1e-3, .sites = 3.0, .initial_available = 0.0});
    for (const auto& row : r) EXPECT_EQ(row, (std::vector<int>{0, 3, 3}));
    // u starts at 0: nothing at the first spike; u = U afterwards.
    r = released(50, 3, 2.0, {.u = 1.0, .tau_rec_ms = 1e-3, .sites = 2.0, .initial_u = 0.0});
    for (const auto& row : r) EXPECT_EQ(row, (std::vector<int>{0, 2, 2}));
}

TEST(QuantalRelease, TheDrawsAreTheSameForAnyThreadCountAndDifferForAnotherSeed) {
    const vs::quantal_release rule{.u = 0.5, .tau_rec_ms = 20.0, .tau_facil_ms = 10.0, .sites = 3.0};
    const auto one = released(300, 40, 3.0, rule, 1, 9);
    EXPECT_EQ(released(300, 40, 3.0, rule, 3, 9), one);
    EXPECT_NE(released(300, 40, 3.0, rule, 1, 10), one);
    EXPECT_NE(one[0], one[1]) << "two synapses of one source drew alike";
}

TEST(QuantalRelease, ParametersOutOfRangeAreRefusedNamingThem) {
    vs::network net;
    const auto a = net.add_population("a", 2, vs::spike_source{});
    const auto b = net.add_population("b", 2, vs::lif_exp{});
    const std::pair<vs::quantal_release, const char*> bad[] = {
        {{.u = 1.5}, "u"},
        {{.tau_rec_ms = 0.0}, "tau_rec_ms"},
        {{.tau_facil_ms = -1.0}, "tau_facil_ms"},
        {{.sites = 0.0}, "sites"},
        {{.sites = 2.5}, "sites"},
        {{.sites = 70000.0}, "sites"},
        {{.initial_u = -0.1}, "initial_u"},
        {{.sites = 5.0, .initial_available = 6.0}, "initial_available"},
        {{.sites = std::vector<double>{1, 2, 3, 4}, .initial_available = std::vector<double>{1, 3, 3, 4}}, "initial_available[1]"},
    };
    for (const auto& [rule, name] : bad) {
        try {
            net.connect(a, b, vs::all_to_all{}, {.weight = 1.0, .plasticity = rule});
            ADD_FAILURE() << "accepted a bad " << name;
        } catch (const volley::invalid_parameter& e) {
            EXPECT_NE(std::string(e.what()).find(std::string("quantal_release")), std::string::npos) << e.what();
            EXPECT_NE(std::string(e.what()).find(name), std::string::npos) << e.what();
        }
    }
    EXPECT_TRUE(net.projections().empty());
}

TEST(QuantalRelease, ACheckpointResumesToTheUninterruptedReleases) {
    // Depleted sites, facilitated u and the source's last spike live in the checkpoint: the
    // resumed run gives the releases of the uninterrupted one.
    std::vector<double> times;
    for (int n = 0; n < 40; ++n) times.push_back(1.0 + 2.5 * n);
    vs::network net;
    const auto src = net.add_population("src", 1, vs::spike_source{{times}});
    const auto tgt = net.add_population(
        "tgt", 200, vs::lif_delta{{.tau_m_ms = 1e9, .v_rest_mv = 0, .v_reset_mv = -1, .v_thresh_mv = 1e9, .t_ref_ms = 0}});
    net.connect(src, tgt, vs::all_to_all{},
                {.weight = w, .delay_ms = dt,
                 .plasticity = vs::quantal_release{.u = 0.2, .tau_rec_ms = 30.0, .tau_facil_ms = 40.0, .sites = 6.0}});
    const vs::simulation_options options{.dt_ms = dt, .seed = 5};
    auto final_v = [&](vs::simulation& sim) {
        auto v = sim.record_state(tgt, "v_mv", dt);  // the last sample is at the last step
        sim.run(102.0 - sim.time_ms());
        std::vector<double> last;
        for (std::uint32_t j = 0; j < 200; ++j) last.push_back(v.at(v.samples() - 1, j));
        return last;
    };
    vs::simulation whole(net, vs::context{.threads = 2}, options);
    const auto expected = final_v(whole);
    const auto file = std::filesystem::temp_directory_path() / "volley_quantal_checkpoint.h5";
    {
        vs::simulation first(net, vs::context{.threads = 2}, options);
        first.run(51.3);  // 20 spikes done, sites depleted, u facilitated
        first.checkpoint(file);
    }
    vs::simulation resumed(net, vs::context{.threads = 2}, options);
    resumed.restore(file);
    EXPECT_EQ(final_v(resumed), expected);
    std::filesystem::remove(file);
}
