// The mean drift of additive all-to-all STDP under independent Poisson pre and post spike
// trains at equal rates (Kempter, Gerstner & van Hemmen 1999; Song et al. 2000):
//   E[dw/dt] = r_pre · r_post · ∫ W(s) ds = r_pre · r_post · (A+ τ+ − A− τ−).
// On the dt grid the integral becomes a sum over lags k·dt (lag 0 counts as potentiation):
//   ∫ W → dt · (A+ Σ_{k>=0} q+^k − A− Σ_{k>=1} q−^k),  q± = exp(−dt/τ±),
// which differs from the continuous value by O(dt/τ) (0.3 % here). N independent synapses
// (each with its own pre and post neuron) give N independent samples of Δw; their mean must
// match the theory within 4 standard errors.

#include <volley/snn.hpp>

#include <gtest/gtest.h>

#include <cmath>
#include <numeric>

namespace vs = volley::snn;

TEST(StdpDrift, MeanDriftUnderUncorrelatedPoissonSpikesMatchesTheory) {
    const std::uint32_t n = 400;
    const double rate = 10, seconds = 50, dt = 0.1;
    const double ap = 1e-3, am = 1e-3, tp = 20, tm = 30, w0 = 0.5;
    vs::network net;
    const auto pre = net.add_population("pre", n, vs::poisson_source{{.rate_hz = rate}});
    const auto drive = net.add_population("drive", n, vs::poisson_source{{.rate_hz = rate}});
    const auto post = net.add_population("post", n, vs::lif_delta{{.t_ref_ms = 0.1}});
    net.connect(drive, post, vs::one_to_one{}, {.weight = 100.0, .delay_ms = dt});
    const auto q = net.connect(pre, post, vs::one_to_one{},
                               {.weight = w0,
                                .delay_ms = dt,
                                .plasticity = vs::stdp_pair{.tau_plus_ms = tp, .tau_minus_ms = tm, .a_plus = ap,
                                                            .a_minus = am, .w_min = 0, .w_max = 1}});
    vs::simulation sim(net, vs::context{.threads = 2}, {.dt_ms = dt, .seed = 2024});
    auto rpre = sim.record_spikes(pre);
    auto rpost = sim.record_spikes(post);
    sim.run(seconds * 1000);

    const auto w = sim.weights(q);
    ASSERT_EQ(w.size(), n);
    double sum = 0, sum2 = 0;
    for (double x : w.weights) {
        ASSERT_GT(x, 0.0) << "a weight reached a bound: the drift is no longer free";
        ASSERT_LT(x, 1.0);
        sum += x - w0;
        sum2 += (x - w0) * (x - w0);
    }
    const double mean = sum / n, var = (sum2 - n * mean * mean) / (n - 1), se = std::sqrt(var / n);
    const double r_pre = rpre.mean_rate_hz(), r_post = rpost.mean_rate_hz();
    EXPECT_NEAR(r_pre, rate, 0.2);
    EXPECT_NEAR(r_post, rate, 0.2);

    const double qp = std::exp(-dt / tp), qm = std::exp(-dt / tm);
    const double window_grid_s = dt * 1e-3 * (ap / (1 - qp) - am * qm / (1 - qm));  // [s]
    const double window_s = (ap * tp - am * tm) * 1e-3;                                          // [s]
    const double theory_grid = r_pre * r_post * window_grid_s * seconds;
    const double theory = r_pre * r_post * window_s * seconds;
    RecordProperty("mean_dw", std::to_string(mean));
    RecordProperty("theory_dw", std::to_string(theory));
    RecordProperty("standard_error", std::to_string(se));
    EXPECT_GT(std::abs(theory), 15 * se) << "the test must be able to tell the drift from zero";
    EXPECT_NEAR(mean, theory_grid, 4 * se) << "continuous theory " << theory << ", SE " << se;
    EXPECT_NEAR(mean, theory, 4 * se + std::abs(theory - theory_grid));
}
