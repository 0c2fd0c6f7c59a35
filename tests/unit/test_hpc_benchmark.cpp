// NEST's hpc_benchmark as `hpc_benchmark_network` and `volley bench hpc` (docs/benchmarks.md):
// J_E against hpc_benchmark.py's closed form (Lambert W, written here independently), the EPSP
// that J_E makes on the benchmark's neuron (0.14 mV), the wiring (sizes, exact in-degrees with
// multapses and without autapses, weights, delays, drive rate, the STDP rule's constants), and
// fixed in-degree with multapses.

#include "../support/cli_runner.hpp"

#include <volley/error.hpp>
#include <volley/snn.hpp>
#include <volley/snn/network_json.hpp>
#include <volley/snn/standard_networks.hpp>

#include <gtest/gtest.h>

#include <unistd.h>

#include <algorithm>
#include <cmath>
#include <filesystem>
#include <map>
#include <numbers>

namespace {

namespace vs = volley::snn;

constexpr double tau_m = 10, tau_syn = 0.32582722403722841, c_m = 250;

/// The lower branch W_{-1}(x) of Lambert's W for x in (-1/e, 0), by Halley's iteration from
/// the usual series start (the GSL function hpc_benchmark.py calls).
double lambert_wm1(double x) {
    double w = std::log(-x) - std::log(-std::log(-x));
    for (int k = 0; k < 100; ++k) {
        const double e = std::exp(w), f = w * e - x;
        const double step = f / (e * (w + 1) - (w + 2) * f / (2 * w + 2));
        w -= step;
        if (std::abs(step) < 1e-15 * std::abs(w)) break;
    }
    return w;
}

/// hpc_benchmark.py's convert_synapse_weight(tau_m, tau_syn, C_m): pA per mV of EPSP peak.
double convert_synapse_weight() {
    const double a = tau_m / tau_syn, b = 1 / tau_syn - 1 / tau_m;
    const double t_rise = 1 / b * (-lambert_wm1(-std::exp(-1 / a) / a) - 1 / a);
    const double v_max = std::numbers::e / (tau_syn * c_m * b) *
                         ((std::exp(-t_rise / tau_m) - std::exp(-t_rise / tau_syn)) / b - t_rise * std::exp(-t_rise / tau_syn));
    return 1 / v_max;
}

TEST(HpcBenchmark, JeIsTheClosedFormOfHpcBenchmarkPy) {
    const double je_pa = convert_synapse_weight() * 0.14;
    EXPECT_NEAR(vs::hpc_benchmark_je_pa(), je_pa, 1e-9 * je_pa);
    EXPECT_GT(je_pa, 30);  // a sanity range: tens of pA for a 0.14 mV EPSP on 250 pF
    EXPECT_LT(je_pa, 60);
}

// The engine's own answer: one spike of weight J_E onto the benchmark's neuron at rest.
TEST(HpcBenchmark, OneSpikeOfJeMakesAnEpspOf014mV) {
    const auto hpc = vs::hpc_benchmark_network({.scale = 0.2, .in_degree_scale = 0.01});
    const double j_e = std::get<double>(hpc.projections()[2].synapse.weight);  // E -> E
    vs::network net;
    const auto src = net.add_population("s", 1, vs::spike_source{{{10.0}}});
    const auto n = net.add_population("n", 1, hpc.at(hpc.find("E")).model);
    net.connect(src, n, vs::one_to_one{}, {.weight = j_e, .delay_ms = 1.5});
    vs::simulation sim(net, vs::context{.threads = 1}, {.dt_ms = 0.01, .seed = 1});
    auto v = sim.record_state(n, "v_mv", 0.01);
    sim.run(30);
    double peak = 0, t_peak = 0;
    for (std::size_t k = 0; k < v.samples(); ++k)
        if (v.at(k, 0) > peak) peak = v.at(k, 0), t_peak = 0.01 * static_cast<double>(k + 1);
    EXPECT_NEAR(peak, 0.14, 1e-5) << "the EPSP peak [mV]";
    EXPECT_NEAR(t_peak - 11.5, 1.70, 0.02) << "t_rise of hpc_benchmark.py: 1.700759 ms";
}

TEST(HpcBenchmark, WiringIsHpcBenchmarkPys) {
    const auto net = vs::hpc_benchmark_network({.scale = 0.2, .in_degree_scale = 0.01});
    const auto E = net.find("E"), I = net.find("I");
    ASSERT_EQ(net.at(E).size, 1800u);
    ASSERT_EQ(net.at(I).size, 450u);
    const double r = tau_m / c_m;  // mV per pA
    const double je = convert_synapse_weight() * 0.14 * r;
    // The drive: eta times the threshold rate of C_E = 9,000 inputs, per neuron.
    const double nu_th = 20 / (9000 * r * (je / r) * std::numbers::e * tau_syn);
    const auto& drive = std::get<vs::poisson_source>(net.at(net.find("drive_E")).model);
    EXPECT_NEAR(drive.p.rate_hz, 1.685 * nu_th * 9000 * 1000, 1e-6);
    const auto& lif = std::get<vs::lif_alpha>(net.at(E).model).p;
    EXPECT_EQ(lif.tau_m_ms, 10);
    EXPECT_EQ(lif.v_thresh_mv, 20);
    EXPECT_EQ(lif.t_ref_ms, 0.5);
    EXPECT_EQ(lif.tau_syn_e_ms, tau_syn);

    vs::simulation sim(net, vs::context{.threads = 2}, {.dt_ms = 0.1, .seed = 3});
    // Projections: drive_E -> E, drive_I -> I, E -> E, I -> E, E -> I, I -> I.
    const std::size_t k_expected[] = {1, 1, 90, 22, 90, 22};
    const double w_expected[] = {je, je, je, -5 * je, je, -5 * je};
    for (std::size_t q = 0; q < 6; ++q) {
        const auto& proj = net.projections()[q];
        EXPECT_EQ(std::get<double>(proj.synapse.delay_ms), 1.5);
        const auto w = sim.weights(q);
        std::map<std::uint32_t, std::size_t> in_degree;
        bool multapse = false;
        std::map<std::pair<std::uint32_t, std::uint32_t>, int> pairs;
        for (std::size_t k = 0; k < w.size(); ++k) {
            ++in_degree[w.targets[k]];
            multapse |= ++pairs[{w.sources[k], w.targets[k]}] > 1;
            EXPECT_NEAR(w.weights[k], w_expected[q], 1e-12) << "projection " << q;
            if (proj.source == proj.target) {
                ASSERT_NE(w.sources[k], w.targets[k]) << "an autapse in projection " << q;
            }
        }
        EXPECT_EQ(in_degree.size(), net.at(proj.target).size) << "projection " << q;
        for (const auto& [target, k] : in_degree) ASSERT_EQ(k, k_expected[q]) << "projection " << q << " target " << target;
        if (q == 2) {
            EXPECT_TRUE(multapse) << "90 draws of 1,800 sources for 1,800 targets repeat somewhere";
        }
    }
    const auto& stdp = std::get<vs::stdp_pair>(net.projections()[2].synapse.plasticity);
    EXPECT_EQ(stdp.dependence, vs::stdp_weight_dependence::power_law);
    EXPECT_NEAR(stdp.a_plus, 0.1 * std::pow(r, 0.6), 1e-15);  // lambda·R^(1 - mu): NEST's rule in pA
    EXPECT_NEAR(stdp.a_minus, 0.1 * 0.0513, 1e-15);
    EXPECT_EQ(stdp.tau_plus_ms, 15);
    EXPECT_EQ(stdp.tau_minus_ms, 30);
    EXPECT_EQ(stdp.mu, 0.4);
    EXPECT_EQ(stdp.dendritic_delay_ms, 1.5);  // NEST's stdp_pl_synapse_hom: the whole delay is dendritic
    EXPECT_FALSE(vs::is_plastic(vs::hpc_benchmark_network({.scale = 0.2, .in_degree_scale = 0.01, .plastic = false})
                                    .projections()[2].synapse.plasticity));
    EXPECT_THROW(vs::hpc_benchmark_network({.scale = 0}), volley::invalid_parameter);
    EXPECT_THROW(vs::hpc_benchmark_network({.scale = 1, .in_degree_scale = 1.5}), volley::invalid_parameter);
}

TEST(FixedInDegree, MultapsesAllowMoreDrawsThanSourcesAndRoundTripThroughJson) {
    vs::network net;
    const auto a = net.add_population("a", 3, vs::lif_delta{});
    EXPECT_THROW(net.connect(a, a, vs::fixed_in_degree{5, false, false}, {}), volley::invalid_parameter);
    net.connect(a, a, vs::fixed_in_degree{5, false, true}, {});
    vs::simulation sim(net, vs::context{.threads = 1}, {.dt_ms = 0.1, .seed = 3});
    const auto w = sim.weights(0);
    ASSERT_EQ(w.size(), 15u);
    for (std::size_t k = 0; k < w.size(); ++k) EXPECT_NE(w.sources[k], w.targets[k]);
    const auto back = vs::parse_network_json(vs::to_network_json(net), "net.json");
    EXPECT_EQ(back.net, net);
    EXPECT_TRUE(std::get<vs::fixed_in_degree>(back.net.projections()[0].rule).allow_multapses);
}

// `volley bench hpc` on a reduced in-degree: it runs, its raster does not depend on the thread
// count, and it reports the rate check (not applicable below scale 10).
TEST(HpcBenchmarkCli, BenchHpcRunsAndGivesTheSameRasterOnTwoThreads) {
    const auto dir = std::filesystem::temp_directory_path() / ("volley_hpc_" + std::to_string(::getpid()));
    std::filesystem::create_directories(dir);
    const auto r = volley::testing::run_volley_in(
        dir, "bench hpc --scale 0.2 --in-degree-scale 0.02 --duration 60 --threads 2 --json --quiet");
    ASSERT_EQ(r.code, 0) << r.err;
    const auto j = r.json();
    EXPECT_EQ(j["network"], "hpc");
    EXPECT_EQ(j["neurons"], 2250 * 2);  // with the drive's sources
    EXPECT_EQ(j["raster_matches_1_thread"], true);
    EXPECT_EQ(j["hpc_rate_check"], "not applicable below scale 10");
    EXPECT_GT(j["mean_rate_hz"].get<double>(), 0.5);
    const auto bad = volley::testing::run_volley_in(dir, "bench hpc --in-degree-scale 2 --duration 1");
    EXPECT_EQ(bad.code, 2);
    EXPECT_NE(bad.err.find("in_degree_scale"), std::string::npos) << bad.err;
    std::filesystem::remove_all(dir);
}

// `volley bench hpc --project-ranks 2`: rank 0 of 2 run alone. Its domain is the first half of
// the 2,250 neurons (the drive weighs nothing in the cuts), so the mirror hands it exactly
// twice the spikes it sends; the modelled exchange is the formula of bench/mpi/README.md,
// worked out here from the figures: one latency per epoch (log2 2 = 1 step) and half the
// gathered bytes over the bandwidth.
TEST(HpcBenchmarkCli, ProjectedRankReportsItsWorkAndTheModelledExchange) {
    const auto dir = std::filesystem::temp_directory_path() / ("volley_hpc_projected_" + std::to_string(::getpid()));
    std::filesystem::create_directories(dir);
    const auto r = volley::testing::run_volley_in(
        dir, "bench hpc --scale 0.2 --in-degree-scale 0.02 --duration 60 --threads 1 --count-only --project-ranks 2 "
             "--model-latency-us 10 --model-bandwidth-gbs 1 --json --quiet");
    ASSERT_EQ(r.code, 0) << r.err;
    const auto p = r.json()["projection"];
    EXPECT_EQ(p["ranks"], 2);
    const double epochs = p["epochs"].get<double>();
    EXPECT_EQ(epochs, 40) << "60 ms in epochs of the 1.5 ms delay";
    const double sent = p["sent_events_per_epoch"].get<double>(), gathered = p["gathered_events_per_epoch"].get<double>();
    EXPECT_GT(sent, 1.0);
    EXPECT_DOUBLE_EQ(gathered, 2 * sent);
    EXPECT_DOUBLE_EQ(p["gathered_bytes_per_epoch"].get<double>(), 16 * gathered);
    const double exchange = epochs * (10e-6 + 16 * gathered / 2 / 1e9);
    EXPECT_NEAR(p["modelled_exchange_s"].get<double>(), exchange, 1e-9 * exchange);
    EXPECT_NEAR(p["modelled_sim_s"].get<double>(), p["rank_work_s"].get<double>() + exchange, 1e-9);
    const auto counted = volley::testing::run_volley_in(dir, "bench hpc --scale 0.2 --duration 1 --project-ranks 2");
    EXPECT_EQ(counted.code, 2) << "the mirrored spikes are not the network's: --count-only is required";
    EXPECT_NE(counted.err.find("--count-only"), std::string::npos) << counted.err;
    std::filesystem::remove_all(dir);
}

}  // namespace
