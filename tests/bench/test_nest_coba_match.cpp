// The peer harness runs the same COBA network on NEST (bench/peers/nest_coba.py, iaf_cond_exp)
// as volley::snn::coba_network builds: the parameters a NEST node holds are Volley's
// lif_cond_exp parameters, the weights and delay are the network's, and the mean rates over
// three network draws agree. Every test skips when no python3 can import nest.

#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

#include "../support/nest_python.hpp"

#include <volley/snn/simulation.hpp>
#include <volley/snn/standard_networks.hpp>

#include <string>

namespace volley::snn {
namespace {

using volley::testing::nest_python;
using volley::testing::run_json;

std::string script(const std::string& args) { return nest_python() + " " VOLLEY_NEST_COBA_SCRIPT " " + args; }

TEST(nest_coba_match, parameters_nest_holds_are_volleys) {
    SKIP_WITHOUT_NEST();
    const auto p = run_json(script("params"));
    ASSERT_FALSE(p.is_null());
    const auto& n = p["nest"];
    const auto net = coba_network(4000, 0.1);
    for (const char* pop : {"exc", "inh"}) {
        const auto& m = std::get<lif_cond_exp>(net.at(net.find(pop)).model).p;
        EXPECT_EQ(n["C_m"].get<double>(), m.c_m_pf);
        EXPECT_EQ(n["g_L"].get<double>(), m.g_l_ns);
        EXPECT_EQ(n["E_L"].get<double>(), m.e_l_mv);
        EXPECT_EQ(n["V_reset"].get<double>(), m.v_reset_mv);
        EXPECT_EQ(n["V_th"].get<double>(), m.v_thresh_mv);
        EXPECT_EQ(n["t_ref"].get<double>(), m.t_ref_ms);
        EXPECT_EQ(n["E_ex"].get<double>(), m.e_ex_mv);
        EXPECT_EQ(n["E_in"].get<double>(), m.e_in_mv);
        EXPECT_EQ(n["tau_syn_ex"].get<double>(), m.tau_syn_e_ms);
        EXPECT_EQ(n["tau_syn_in"].get<double>(), m.tau_syn_i_ms);
        EXPECT_EQ(n["I_e"].get<double>(), m.i_e_pa);
    }
    EXPECT_EQ(n["resolution"].get<double>(), 0.1);
    for (const auto& pr : net.projections()) {
        const bool exc = pr.source == net.find("exc");
        EXPECT_EQ(std::get<double>(pr.synapse.weight), (exc ? p["w_e_ns"] : p["w_i_ns"]).get<double>());
        EXPECT_EQ(std::get<double>(pr.synapse.delay_ms), p["delay_ms"].get<double>());
    }
}

/// Volley's mean rate [Hz] over `ms` of COBA(4000), adaptive scheme (as NEST's), with `seed`.
double volley_rate(std::uint64_t seed, double ms) {
    auto net = coba_network(4000, 0.1);
    for (const char* pop : {"exc", "inh"}) net.set_integrator(net.find(pop), {.scheme = ode_scheme::adaptive});
    simulation sim(net, context{.threads = 1}, {.dt_ms = 0.1, .seed = seed});
    auto exc = sim.record_spikes(net.find("exc"));
    auto inh = sim.record_spikes(net.find("inh"));
    sim.run(ms);
    return double(exc.size() + inh.size()) / (4000 * ms / 1000);
}

TEST(nest_coba_match, mean_rate_over_three_draws_agrees_with_volley) {
    SKIP_WITHOUT_NEST();
    // Over 300 ms one draw of COBA(4000) ranges over about +-10 % from seed to seed in both
    // tools (1 s: Volley 18.3-20.3 Hz, NEST 18.0-19.6 Hz on seeds 42-44), so two means of three
    // are compared within 15 %. A sign slip fails it: inhibitory weights of +67 nS (NEST adds a
    // positive weight to g_ex) make the network run away, 197 Hz instead of 17 Hz (seed 1).
    double nest = 0, volley = 0;
    for (int seed = 1; seed <= 3; ++seed) {
        const auto r = run_json(script("run --neurons 4000 --duration 300 --seed " + std::to_string(seed)));
        ASSERT_FALSE(r.is_null()) << "seed " << seed;
        EXPECT_EQ(r["model"].get<std::string>(), "iaf_cond_exp");
        EXPECT_NEAR(r["in_degree_mean"].get<double>(), 80.0, 0.6) << "seed " << seed;
        nest += r["mean_rate_hz"].get<double>() / 3;
        volley += volley_rate(static_cast<std::uint64_t>(seed), 300) / 3;
    }
    EXPECT_GT(nest, 5.0);
    EXPECT_NEAR(volley / nest, 1.0, 0.15) << "volley " << volley << " Hz, nest " << nest << " Hz";
}

}  // namespace
}  // namespace volley::snn
