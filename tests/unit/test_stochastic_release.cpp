// Stochastic release (stochastic_release, NEST's bernoulli_synapse): each spike crosses each
// synapse with its probability, independently of the other synapses and spikes. Checked on 400
// synapses × 500 spikes against the binomial: the count per synapse (mean and variance), the
// correlation of neighbouring synapses, p = 0 and 1 exactly, the same draws on 1 and 3 threads,
// other draws for another seed, and one probability per synapse.

#include <volley/snn.hpp>

#include <gtest/gtest.h>

#include <cmath>

namespace vs = volley::snn;

namespace {

constexpr double dt = 0.1, w = 1.5;

/// transmitted[j][n]: whether spike n of the one source reached target j (a lif_delta jump).
std::vector<std::vector<int>> transmitted(std::uint32_t targets, std::uint32_t spikes, vs::value_spec p, int threads,
                                          std::uint64_t seed) {
    std::vector<double> times;
    for (std::uint32_t n = 1; n <= spikes; ++n) times.push_back(n * 2.0);
    vs::network net;
    const auto src = net.add_population("src", 1, vs::spike_source{{times}});
    const auto tgt = net.add_population(
        "tgt", targets, vs::lif_delta{{.tau_m_ms = 1e7, .v_rest_mv = 0, .v_reset_mv = -1, .v_thresh_mv = 1e9, .t_ref_ms = 0}});
    net.connect(src, tgt, vs::all_to_all{}, {.weight = w, .delay_ms = dt, .plasticity = vs::stochastic_release{p}});
    vs::simulation sim(net, vs::context{.threads = threads}, {.dt_ms = dt, .seed = seed});
    auto v = sim.record_state(tgt, "v_mv", dt);
    sim.run(times.back() + 1);
    const double keep = std::exp(-dt / 1e7);
    std::vector<std::vector<int>> out(targets, std::vector<int>(spikes, 0));
    for (std::uint32_t j = 0; j < targets; ++j)
        for (std::uint32_t n = 0; n < spikes; ++n) {
            const auto k = static_cast<std::size_t>(std::llround(times[n] / dt));  // a window around the arrival
            double jump = 0;
            for (std::size_t s = k; s < k + 4; ++s) jump += v.at(s + 1, j) - v.at(s, j) * keep;
            EXPECT_TRUE(std::abs(jump) < 1e-6 || std::abs(jump - w) < 1e-6) << "a partial jump " << jump;
            out[j][n] = jump > w / 2;
        }
    return out;
}

}  // namespace

TEST(StochasticRelease, EachSpikeCrossesEachSynapseWithItsProbabilityIndependently) {
    const std::uint32_t targets = 400, spikes = 500;
    const double p = 0.3;
    const auto got = transmitted(targets, spikes, p, 1, 42);
    double sum = 0, sum2 = 0, cross = 0;
    for (std::uint32_t j = 0; j < targets; ++j) {
        double c = 0;
        for (int x : got[j]) c += x;
        sum += c, sum2 += c * c;
        if (j > 0)
            for (std::uint32_t n = 0; n < spikes; ++n) cross += (got[j][n] - p) * (got[j - 1][n] - p);
    }
    const double mean = sum / targets, var = sum2 / targets - mean * mean;
    const double bin_mean = spikes * p, bin_var = spikes * p * (1 - p);
    EXPECT_NEAR(mean, bin_mean, 3.3 * std::sqrt(bin_var / targets));
    EXPECT_NEAR(var, bin_var, 3.3 * bin_var * std::sqrt(2.0 / targets));
    const double pairs = (targets - 1.0) * spikes;
    EXPECT_NEAR(cross / pairs / (p * (1 - p)), 0.0, 3.3 / std::sqrt(pairs)) << "neighbouring synapses correlate";
    EXPECT_EQ(transmitted(targets, spikes, p, 3, 42), got) << "the draws depend on the thread count";
    EXPECT_NE(transmitted(targets, spikes, p, 1, 43), got) << "another seed gave the same draws";
}

TEST(StochasticRelease, ProbabilitiesZeroOneAndOnePerSynapse) {
    const auto got = transmitted(4, 200, std::vector<double>{0.0, 0.5, 0.5, 1.0}, 2, 7);
    auto count = [](const std::vector<int>& x) {
        int c = 0;
        for (int v : x) c += v;
        return c;
    };
    EXPECT_EQ(count(got[0]), 0);
    EXPECT_EQ(count(got[3]), 200);
    EXPECT_NEAR(count(got[1]), 100, 3.3 * std::sqrt(50.0));
    EXPECT_NEAR(count(got[2]), 100, 3.3 * std::sqrt(50.0));
    EXPECT_NE(got[1], got[2]) << "two synapses of one source drew alike";
}

TEST(StochasticRelease, ProbabilitiesOutsideZeroOneAreRefusedNamingThem) {
    vs::network net;
    const auto a = net.add_population("a", 2, vs::spike_source{});
    const auto b = net.add_population("b", 2, vs::lif_exp{});
    for (const vs::value_spec& p : {vs::value_spec{1.5}, vs::value_spec{-0.1}, vs::value_spec{std::vector<double>{0.5, 0.5, 2.0, 0.5}}}) {
        try {
            net.connect(a, b, vs::all_to_all{}, {.weight = 1.0, .plasticity = vs::stochastic_release{p}});
            ADD_FAILURE() << "accepted p_transmit " << vs::describe(p);
        } catch (const volley::invalid_parameter& e) {
            EXPECT_NE(std::string(e.what()).find("p_transmit"), std::string::npos) << e.what();
        }
    }
    EXPECT_TRUE(net.projections().empty());
}
