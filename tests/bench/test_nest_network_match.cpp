// The peer harness runs the same CUBA network on NEST (bench/peers/nest_cuba.py, iaf_psc_exp)
// as volley::snn::cuba_network builds: the parameters NEST holds match Volley's model once the
// script's unit conversion (pA and C_m against Volley's currents in mV) is undone here, the
// script's connectivity has Binomial(N, 80/N) in-degrees, and the mean rates agree over 0.1 s.
// Every test skips when no python3 can import nest (scripts/setup --peers installs it).

#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

#include "../support/nest_python.hpp"

#include <volley/snn/simulation.hpp>
#include <volley/snn/standard_networks.hpp>

#include <cmath>
#include <string>

namespace volley::snn {
namespace {

using volley::testing::nest_python;
using volley::testing::run_json;

std::string script(const std::string& args) { return nest_python() + " " VOLLEY_NEST_SCRIPT " " + args; }

TEST(nest_network_match, parameters_nest_holds_are_volleys) {
    SKIP_WITHOUT_NEST();
    const auto p = run_json(script("params"));
    ASSERT_FALSE(p.is_null());
    ASSERT_TRUE(p["nest"].is_object()) << p.dump();
    const auto& n = p["nest"];  // read back from a NEST node, not the values the script meant
    const auto net = cuba_network(4000, 0.1);
    for (const char* pop : {"exc", "inh"}) {
        const auto& m = std::get<lif_exp>(net.at(net.find(pop)).model).p;
        EXPECT_EQ(n["tau_m"].get<double>(), m.tau_m_ms);
        EXPECT_EQ(n["tau_syn_ex"].get<double>(), m.tau_syn_e_ms);
        EXPECT_EQ(n["tau_syn_in"].get<double>(), m.tau_syn_i_ms);
        EXPECT_EQ(n["E_L"].get<double>(), m.v_rest_mv);
        EXPECT_EQ(n["V_reset"].get<double>(), m.v_reset_mv);
        EXPECT_EQ(n["V_th"].get<double>(), m.v_thresh_mv);
        EXPECT_EQ(n["t_ref"].get<double>(), m.t_ref_ms);
        EXPECT_EQ(n["I_e"].get<double>(), 0.0);
        EXPECT_EQ(m.i_e_mv, 0.0);
    }
    EXPECT_EQ(n["resolution"].get<double>(), 0.1);
    EXPECT_EQ(n["local_num_threads"].get<int>(), 1);
    EXPECT_EQ(net.at(net.find("exc")).size, 3200u);
    EXPECT_DOUBLE_EQ(p["exc_fraction"].get<double>(), 0.8);
    // NEST: dV/dt = (E_L - V)/tau_m + I/C_m [I in pA]; Volley: dv/dt = (v_rest - v + i)/tau_m
    // [i in mV]. The same dynamics need i = I tau_m / C_m, so a jump of J pA is J tau_m / C_m mV.
    const double mv_per_pa = n["tau_m"].get<double>() / n["C_m"].get<double>();
    const auto& projs = net.projections();
    ASSERT_EQ(projs.size(), 4u);
    for (const auto& pr : projs) {
        const bool exc = pr.source == net.find("exc");
        EXPECT_NEAR(std::get<double>(pr.synapse.weight), (exc ? p["w_e_pa"] : p["w_i_pa"]).get<double>() * mv_per_pa,
                    1e-12);
        EXPECT_DOUBLE_EQ(std::get<double>(pr.synapse.delay_ms), p["delay_steps"].get<int>() * 0.1);
        EXPECT_DOUBLE_EQ(std::get<fixed_probability>(pr.rule).p, p["inputs_per_neuron"].get<double>() / 4000);
        EXPECT_EQ(std::get<fixed_probability>(pr.rule).allow_autapses, p["autapses"].get<bool>());
    }
}

/// Volley's mean rate [Hz] over `ms` of CUBA(4000) with `seed`.
double volley_rate(std::uint64_t seed, double ms) {
    const auto net = cuba_network(4000, 0.1);
    simulation sim(net, context{.threads = 1}, {.dt_ms = 0.1, .seed = seed});
    auto exc = sim.record_spikes(net.find("exc"));
    auto inh = sim.record_spikes(net.find("inh"));
    sim.run(ms);
    return double(exc.size() + inh.size()) / (4000 * ms / 1000);
}

TEST(nest_network_match, in_degrees_and_mean_rate_over_100_ms_agree_with_volley) {
    SKIP_WITHOUT_NEST();
    // Three network draws on each side. Over 0.1 s the rate of one draw of CUBA(4000) varies
    // with the seed (seeds 1-6: NEST 5.55-6.74 Hz, mean 6.13, sd 7 %; Volley 5.80-6.37 Hz, mean
    // 6.04, sd 4 %), so the ratio of two means of three has an sd near 5 %, and 20 % is four of
    // them. A unit slip in the script fails it: C_m = 250 pF with the weights left in mV-as-pA
    // gives 10.7 Hz (+75 %), swapped synaptic time constants 54 Hz.
    double nest = 0, volley = 0;
    for (int seed = 1; seed <= 3; ++seed) {
        const auto r = run_json(script("run --neurons 4000 --duration 100 --seed " + std::to_string(seed)));
        ASSERT_FALSE(r.is_null()) << "seed " << seed;
        EXPECT_EQ(r["threads"].get<int>(), 1);
        EXPECT_EQ(r["model"].get<std::string>(), "iaf_psc_exp");
        // Bernoulli(80/4000) for each of 4000 sources: Binomial mean 80, sd 8.85; over 4000
        // targets the sample mean is within 0.15 (1 sd) and the sd within 0.1 (1 sd) or so.
        EXPECT_NEAR(r["in_degree_mean"].get<double>(), 80.0, 0.6) << "seed " << seed;
        EXPECT_NEAR(r["in_degree_std"].get<double>(), std::sqrt(4000 * 0.02 * 0.98), 0.5) << "seed " << seed;
        EXPECT_NEAR(r["synapses"].get<double>(), 4000 * r["in_degree_mean"].get<double>(), 0.5);
        nest += r["mean_rate_hz"].get<double>() / 3;
        volley += volley_rate(static_cast<std::uint64_t>(seed), 100) / 3;
    }
    EXPECT_NEAR(volley / nest, 1.0, 0.20) << "volley " << volley << " Hz, nest " << nest << " Hz";
}

}  // namespace
}  // namespace volley::snn
