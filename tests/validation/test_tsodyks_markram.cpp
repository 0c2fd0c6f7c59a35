// Short-term plasticity (tsodyks_markram, NEST's tsodyks_synapse) against results that do not
// come from the engine's propagators:
// - depression only, tau_psc = 0, a regular train of period T: the fraction x_n before spike n
//   obeys x_{n+1} = 1 - (1 - x_n (1 - U)) e^{-T/tau_rec}, with the closed-form fixed point
//   x* = (1 - e^{-T/tau_rec}) / (1 - (1 - U) e^{-T/tau_rec}) (Tsodyks & Markram 1997);
// - facilitation, tau_psc = 0: u_{n+1} = U + u_n (1 - U) e^{-T/tau_facil}, fixed point
//   u* = U / (1 - (1 - U) e^{-T/tau_facil});
// - the full model with tau_psc > 0 and an irregular train: the three-state ODEs
//   (dy/dt = -y/tau_psc, dz/dt = y/tau_psc - z/tau_rec, dx/dt = z/tau_rec, du/dt = -u/tau_facil)
//   integrated with RK4 at 1 us between spikes, with the jumps at spikes.
// The delivered weight w·u·x is read as the jump of a lif_delta neuron (tau_m 1e7 ms, v_rest 0).

#include <volley/snn.hpp>

#include <gtest/gtest.h>

#include <array>
#include <cmath>

namespace vs = volley::snn;

namespace {

constexpr double dt = 0.1, w = 2.0;

/// The weights delivered at each spike of `times` through a tsodyks_markram synapse (or two
/// synapses with lists of parameters): the jumps of v of one lif_delta target per synapse.
std::vector<std::vector<double>> delivered(const std::vector<double>& times, const vs::tsodyks_markram& rule,
                                           std::uint32_t synapses = 1, int threads = 1) {
    vs::network net;
    const auto src = net.add_population("src", 1, vs::spike_source{{times}});
    const auto tgt = net.add_population(
        "tgt", synapses, vs::lif_delta{{.tau_m_ms = 1e7, .v_rest_mv = 0, .v_reset_mv = -1, .v_thresh_mv = 1e9, .t_ref_ms = 0}});
    net.connect(src, tgt, vs::all_to_all{}, {.weight = w, .delay_ms = dt, .plasticity = rule});
    vs::simulation sim(net, vs::context{.threads = threads}, {.dt_ms = dt});
    auto v = sim.record_state(tgt, "v_mv", dt);
    sim.run(times.back() + 1);
    const double keep = std::exp(-dt / 1e7);
    std::vector<std::vector<double>> out(synapses);  // the jumps, in order (one per spike)
    for (std::uint32_t j = 0; j < synapses; ++j)
        for (std::size_t k = 0; k + 1 < v.samples(); ++k)
            if (const double jump = v.at(k + 1, j) - v.at(k, j) * keep; std::abs(jump) > 1e-9) out[j].push_back(jump);
    for (const auto& o : out) EXPECT_EQ(o.size(), times.size()) << "one jump per spike";
    return out;
}

}  // namespace

TEST(TsodyksMarkram, DepressionFollowsTheRecursionAndReachesItsFixedPoint) {
    const double U = 0.45, tau_rec = 300, T = 25;
    std::vector<double> times;
    for (int n = 1; n <= 60; ++n) times.push_back(n * T);
    const auto got = delivered(times, {.u = U, .tau_rec_ms = tau_rec})[0];
    const double e = std::exp(-T / tau_rec);
    double x = 1;
    // The first spike comes T after the start, when x has stayed at 1.
    for (std::size_t n = 0; n < times.size(); ++n) {
        EXPECT_NEAR(got[n], w * U * x, 1e-6 * w) << "spike " << n;
        x = 1 - (1 - x * (1 - U)) * e;
    }
    const double fixed = (1 - e) / (1 - (1 - U) * e);
    EXPECT_NEAR(got.back(), w * U * fixed, 1e-6 * w);
    EXPECT_LT(got.back(), 0.2 * got.front());  // strongly depressed
}

TEST(TsodyksMarkram, FacilitationFollowsTheRecursionAndReachesItsFixedPoint) {
    const double U = 0.05, tau_facil = 500, T = 20;
    std::vector<double> times;
    for (int n = 1; n <= 250; ++n) times.push_back(n * T);  // ((1 - U) e^{-T/tau_facil})^250 ~ 1e-10: at the fixed point
    // tau_rec tiny next to T: x is back to 1 before each spike (to 1e-43), only u moves.
    const auto got = delivered(times, {.u = U, .tau_rec_ms = 0.2, .tau_facil_ms = tau_facil})[0];
    const double e = std::exp(-T / tau_facil);
    double u = U;  // u is 0 before the first spike and U after its jump
    for (std::size_t n = 0; n < times.size(); ++n) {
        EXPECT_NEAR(got[n], w * u, 1e-6 * w) << "spike " << n;
        u = U + u * (1 - U) * e;
    }
    EXPECT_NEAR(got.back(), w * U / (1 - (1 - U) * e), 1e-6 * w);
    EXPECT_GT(got.back(), 5 * got.front());  // strongly facilitated
}

TEST(TsodyksMarkram, TheFullModelMatchesItsOdesIntegratedByRk4) {
    const double U = 0.3, tau_rec = 120, tau_facil = 80, tau_psc = 5;
    const std::vector<double> times{3.0, 5.5, 6.0, 14.2, 40.0, 41.1, 95.0, 97.3, 99.9, 180.0, 181.0, 300.0};
    const auto got = delivered(times, {.u = U, .tau_rec_ms = tau_rec, .tau_facil_ms = tau_facil, .tau_psc_ms = tau_psc})[0];
    // State (x, y, z, u) between spikes by RK4 at h = 1 us.
    std::array<double, 4> s{1, 0, 0, 0};
    auto f = [&](const std::array<double, 4>& q) {
        return std::array<double, 4>{q[2] / tau_rec, -q[1] / tau_psc, q[1] / tau_psc - q[2] / tau_rec, -q[3] / tau_facil};
    };
    double t = 0;
    for (std::size_t n = 0; n < times.size(); ++n) {
        const double h = 1e-3;
        const auto steps = static_cast<long>(std::llround((times[n] - t) / h));
        for (long k = 0; k < steps; ++k) {
            const auto k1 = f(s);
            std::array<double, 4> a, b, c;
            for (int i = 0; i < 4; ++i) a[i] = s[i] + h / 2 * k1[i];
            const auto k2 = f(a);
            for (int i = 0; i < 4; ++i) b[i] = s[i] + h / 2 * k2[i];
            const auto k3 = f(b);
            for (int i = 0; i < 4; ++i) c[i] = s[i] + h * k3[i];
            const auto k4 = f(c);
            for (int i = 0; i < 4; ++i) s[i] += h / 6 * (k1[i] + 2 * k2[i] + 2 * k3[i] + k4[i]);
        }
        t = times[n];
        s[3] += U * (1 - s[3]);
        const double used = s[3] * s[0];
        s[0] -= used;
        s[1] += used;
        EXPECT_NEAR(got[n], w * used, 1e-6 * w) << "spike " << n << " at " << times[n] << " ms";
    }
}

TEST(TsodyksMarkram, ParametersPerSynapseAndAnyThreadCountGiveEachSynapseItsOwnDynamics) {
    std::vector<double> times;
    for (int n = 1; n <= 20; ++n) times.push_back(n * 10.0);
    const vs::tsodyks_markram lists{.u = std::vector<double>{0.2, 0.6, 0.9},
                                    .tau_rec_ms = std::vector<double>{50, 400, 800},
                                    .tau_facil_ms = 0.0,
                                    .tau_psc_ms = 3.0};
    const auto three = delivered(times, lists, 3, 1);
    EXPECT_EQ(delivered(times, lists, 3, 2), three);
    for (std::uint32_t j = 0; j < 3; ++j) {
        const vs::tsodyks_markram one{.u = std::get<std::vector<double>>(lists.u)[j],
                                      .tau_rec_ms = std::get<std::vector<double>>(lists.tau_rec_ms)[j],
                                      .tau_psc_ms = 3.0};
        EXPECT_EQ(delivered(times, one)[0], three[j]) << "synapse " << j;
    }
}

TEST(TsodyksMarkram, BadParametersAreRefusedNamingThem) {
    vs::network net;
    const auto a = net.add_population("a", 2, vs::spike_source{});
    const auto b = net.add_population("b", 2, vs::lif_exp{});
    auto refuses = [&](vs::connector c, vs::tsodyks_markram r, const std::string& what) {
        try {
            net.connect(a, b, c, {.weight = 1.0, .plasticity = r});
            ADD_FAILURE() << "accepted " << what;
        } catch (const volley::invalid_parameter& e) {
            EXPECT_NE(std::string(e.what()).find(what), std::string::npos) << e.what();
        }
    };
    refuses(vs::all_to_all{}, {.u = 0.0}, "u = 0");
    refuses(vs::all_to_all{}, {.u = 1.5}, "u = 1.5");
    refuses(vs::all_to_all{}, {.tau_rec_ms = -1.0}, "tau_rec_ms = -1");
    refuses(vs::all_to_all{}, {.tau_facil_ms = -2.0}, "tau_facil_ms = -2");
    refuses(vs::all_to_all{}, {.tau_rec_ms = 5.0, .tau_psc_ms = 5.0}, "tau_psc_ms = 5");
    refuses(vs::all_to_all{}, {.u = std::vector<double>{0.5, 0.5}}, "u");  // 4 synapses
    refuses(vs::all_to_all{}, {.u = std::vector<double>{0.5, 0.5, 2.0, 0.5}}, "u[2] = 2");
    refuses(vs::fixed_probability{.p = 0.5}, {.u = std::vector<double>{0.5, 0.5, 0.5, 0.5}}, "fixed_probability");
    refuses(vs::all_to_all{}, {.u = vs::uniform{0.1, 0.9}}, "one value per synapse");
    EXPECT_TRUE(net.projections().empty());
    // Weights of any size and sign: short-term plasticity keeps them (no [w_min, w_max]).
    EXPECT_NO_THROW(net.connect(a, b, vs::all_to_all{}, {.weight = -7.5, .receptor = vs::inhibitory, .plasticity = vs::tsodyks_markram{}}));
}
