// Plastic synapses in the engine: determinism across thread counts, the weights API and its
// recording, the HDF5 /weights group (also from `volley run`), the JSON field, bytes per
// synapse, and typed errors for bad rules.

#include "stdp_reference.hpp"

#include "../support/snn_test_support.hpp"

#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <fstream>

namespace {

using namespace stdp_test;
using volley::snn::testing::raster;
using volley::snn::testing::throws_naming;

/// Poisson input onto a LIF population through plastic pair synapses strong enough to make it
/// fire, and plastic triplet synapses inside the population.
vs::network plastic_network() {
    vs::network net;
    const auto in = net.add_population("in", 300, vs::poisson_source{{.rate_hz = 20}});
    const auto exc = net.add_population("exc", 120, vs::lif_exp{});
    net.initialise(exc, "v_mv", vs::uniform{-60, -50});
    vs::stdp_pair pair{.a_plus = 0.02, .a_minus = 0.021, .w_min = 0, .w_max = 2.0};
    net.connect(in, exc, vs::fixed_probability{0.2}, {.weight = vs::uniform{0, 2.0}, .delay_ms = vs::uniform{0.5, 3}, .plasticity = pair});
    auto trip = vs::stdp_triplet::visual_cortex(vs::stdp_pairing::nearest).scaled(0.5);
    net.connect(exc, exc, vs::fixed_probability{0.1, false}, {.weight = 0.25, .delay_ms = 1.5, .plasticity = trip});
    net.connect(exc, exc, vs::fixed_probability{0.05, false}, {.weight = -1.0, .delay_ms = 1.0, .receptor = vs::inhibitory});
    return net;
}

struct run_outcome {
    std::vector<volley::snn::testing::raster_event> raster;
    std::vector<vs::projection_weights> weights;
    vs::simulation_stats stats;
};

run_outcome run_plastic(int threads, double ms = 1000) {
    const auto net = plastic_network();
    vs::simulation sim(net, vs::context{.threads = threads}, {.dt_ms = 0.1, .seed = 11});
    auto a = sim.record_spikes(vs::population_index{0});
    auto b = sim.record_spikes(vs::population_index{1});
    sim.run(ms);
    run_outcome out{raster({&a, &b}), {}, sim.stats()};
    for (std::size_t q = 0; q < net.projections().size(); ++q) out.weights.push_back(sim.weights(q));
    return out;
}

bool bit_identical(const std::vector<double>& a, const std::vector<double>& b) {
    return a.size() == b.size() && std::memcmp(a.data(), b.data(), a.size() * sizeof(double)) == 0;
}

TEST(StdpEngine, PlasticRunsAreBitIdenticalForOneTwoAndThreeThreads) {
    const auto one = run_plastic(1);
    std::size_t exc_spikes = 0;
    for (const auto& e : one.raster) exc_spikes += e.neuron >= 300;
    ASSERT_GT(exc_spikes, 500u) << "the plastic input must make the population fire";
    // The weights have moved, and differently per synapse.
    const auto built = vs::simulation(plastic_network(), vs::context{.threads = 1}, {.dt_ms = 0.1, .seed = 11}).weights(0);
    ASSERT_EQ(built.size(), one.weights[0].size());
    std::size_t changed = 0;
    for (std::size_t k = 0; k < built.size(); ++k) changed += built.weights[k] != one.weights[0].weights[k];
    EXPECT_GT(changed, built.size() * 9 / 10);
    for (int threads : {2, 3}) {
        const auto other = run_plastic(threads);
        EXPECT_EQ(other.raster, one.raster) << threads << " threads";
        for (std::size_t q = 0; q < one.weights.size(); ++q) {
            EXPECT_EQ(other.weights[q].sources, one.weights[q].sources);
            EXPECT_EQ(other.weights[q].targets, one.weights[q].targets);
            EXPECT_TRUE(bit_identical(other.weights[q].weights, one.weights[q].weights)) << "projection " << q;
        }
    }
}

TEST(StdpEngine, WeightsStayWithinTheBoundsAndStaticProjectionsKeepTheirs) {
    const auto r = run_plastic(2, 500);
    for (double w : r.weights[0].weights) {
        EXPECT_GE(w, 0.0);
        EXPECT_LE(w, 2.0);
    }
    for (double w : r.weights[2].weights) EXPECT_EQ(w, -1.0);
    // The synapses listed are the connector's: the same pairs as the static expansion of the
    // same connector and seed.
    auto net = plastic_network();
    vs::network twin;
    twin.add_population("in", 300, vs::poisson_source{{.rate_hz = 20}});
    twin.add_population("exc", 120, vs::lif_exp{});
    twin.connect({0}, {1}, vs::fixed_probability{0.2}, {.weight = vs::uniform{0, 2.0}, .delay_ms = vs::uniform{0.5, 3}});
    vs::simulation sim(twin, vs::context{.threads = 3}, {.dt_ms = 0.1, .seed = 11});
    const auto st = sim.weights(0);
    EXPECT_EQ(st.sources, r.weights[0].sources);
    EXPECT_EQ(st.targets, r.weights[0].targets);
    EXPECT_THROW(sim.weights(5), volley::invalid_parameter);
}

TEST(StdpEngine, RecordedWeightsAreSampledOnScheduleWithoutChangingTheRun) {
    const auto net = plastic_network();
    vs::simulation sim(net, vs::context{.threads = 2}, {.dt_ms = 0.1, .seed = 11});
    auto a = sim.record_spikes(vs::population_index{0});
    auto b = sim.record_spikes(vs::population_index{1});
    const auto initial = sim.weights(0);
    auto rec = sim.record_weights(0, 25.0);
    std::int64_t calls = 0, last_done = 0;
    sim.on_progress(
        [&](std::int64_t done, std::int64_t total) {
            ++calls;
            EXPECT_GT(done, last_done);
            EXPECT_EQ(total, 10000);
            last_done = done;
            return true;
        },
        1000);
    sim.run(1000);
    EXPECT_EQ(calls, 10);
    ASSERT_EQ(rec.samples(), 41u);
    for (std::size_t i = 0; i < rec.samples(); ++i) EXPECT_EQ(rec.data().sample_steps[i], static_cast<std::int64_t>(250 * i));
    ASSERT_EQ(rec.synapses(), initial.size());
    for (std::size_t k = 0; k < initial.size(); ++k) {
        EXPECT_EQ(rec.at(0, k), initial.weights[k]);
        EXPECT_EQ(rec.at(40, k), sim.weights(0).weights[k]);
    }
    const auto plain = run_plastic(2);
    EXPECT_EQ(raster({&a, &b}), plain.raster);
    EXPECT_TRUE(bit_identical(sim.weights(0).weights, plain.weights[0].weights));
}

TEST(StdpEngine, ResetRestoresTheBuiltWeightsAndRepeatsTheRun) {
    const auto net = plastic_network();
    vs::simulation sim(net, vs::context{.threads = 2}, {.dt_ms = 0.1, .seed = 11});
    auto a = sim.record_spikes(vs::population_index{0});
    auto b = sim.record_spikes(vs::population_index{1});
    const auto built = sim.weights(0);
    auto rec = sim.record_weights(0, 100.0);
    sim.run(300);
    const auto first_raster = raster({&a, &b});
    const auto first = sim.weights(0);
    ASSERT_FALSE(bit_identical(first.weights, built.weights));
    sim.reset();
    EXPECT_TRUE(bit_identical(sim.weights(0).weights, built.weights));
    ASSERT_EQ(rec.samples(), 1u);
    sim.run(300);
    EXPECT_EQ(raster({&a, &b}), first_raster);
    EXPECT_TRUE(bit_identical(sim.weights(0).weights, first.weights));
    EXPECT_EQ(rec.samples(), 4u);
    auto fixed = sim.record_weights(2, 50.0);  // a static projection: the built weights each time
    sim.run(100);
    ASSERT_EQ(fixed.samples(), 3u);
    for (std::size_t k = 0; k < fixed.synapses(); ++k) EXPECT_EQ(fixed.at(2, k), -1.0);
}

// Per plastic synapse: 4-byte word, 8-byte weight, 8 bytes of target index; per source and
// per target: a 4-byte index entry and 24 bytes of traces; per table 32 KiB of decay factors
// (docs/plasticity.md).
TEST(StdpEngine, BytesPerPlasticSynapseAreAsDocumented) {
    vs::network net;
    const auto in = net.add_population("in", 50, vs::poisson_source{});
    const auto out = net.add_population("out", 40, vs::lif_delta{});
    net.connect(in, out, vs::all_to_all{}, {.weight = 0.5, .plasticity = vs::stdp_pair{}});
    vs::simulation sim(net, vs::context{.threads = 1}, {});
    const auto st = sim.stats();
    EXPECT_EQ(st.synapses, 2000u);
    EXPECT_EQ(st.plastic_synapses, 2000u);
    EXPECT_EQ(st.plastic_table_bytes, 20u * 2000 + 28u * 50 + 28u * 40 + 8u + 32768u);
    EXPECT_EQ(st.synapse_table_bytes, st.plastic_table_bytes);
}

TEST(StdpWeightsFile, WriteAndReadBack) {
    const auto dir = std::filesystem::temp_directory_path() / "volley_stdp_weights";
    std::filesystem::create_directories(dir);
    const auto file = dir / "w.h5";
    std::filesystem::remove(file);
    vs::projection_weight_record a{3, "in", "exc", "stdp_pair", {0, 1, 1}, {0, 0, 2}, {0.25, 0.5, 1.75}, 100.0, {}, {}};
    vs::projection_weight_record b{0, "x", "y", "stdp_triplet", {4}, {2}, {0.125}, 50.0, {0, 25}, {0.1, 0.125}};
    vs::write_weights(file, {a, b});
    const auto back = vs::read_weights(file);
    ASSERT_EQ(back.size(), 2u);
    for (std::size_t i = 0; i < 2; ++i) {
        const auto& w = i == 0 ? a : b;
        EXPECT_EQ(back[i].projection, w.projection);
        EXPECT_EQ(back[i].source, w.source);
        EXPECT_EQ(back[i].target, w.target);
        EXPECT_EQ(back[i].rule, w.rule);
        EXPECT_EQ(back[i].sources, w.sources);
        EXPECT_EQ(back[i].targets, w.targets);
        EXPECT_EQ(back[i].weights, w.weights);
        EXPECT_EQ(back[i].time_ms, w.time_ms);
        EXPECT_EQ(back[i].history_time_ms, w.history_time_ms);
        EXPECT_EQ(back[i].history, w.history);
    }
    EXPECT_TRUE(throws_naming<volley::invalid_parameter>([&] { vs::write_weights(file, {a}); }, {"projection_3", "already exists"}));
    a.targets.pop_back();
    EXPECT_TRUE(throws_naming<volley::invalid_parameter>([&] { vs::write_weights(dir / "x.h5", {a}); }, {"projection_3"}));
}

TEST(StdpJson, PlasticityRoundTripsAndErrorsNameThePath) {
    auto net = plastic_network();
    const auto text = vs::to_network_json(net);
    const auto back = vs::parse_network_json(text, "net.json");
    EXPECT_EQ(back.net, net);
    const std::string head = R"({"format": "volley-network", "version": 1, "populations": [{"name": "a", "size": 2, "model": "poisson_source"},
        {"name": "b", "size": 2, "model": "lif_delta"}], "projections": [{"source": "a", "target": "b",
        "connector": {"type": "all_to_all"}, "weight": 0.5, "plasticity": )";
    const auto parsed = vs::parse_network_json(head + R"({"type": "stdp_triplet", "pairing": "nearest", "scale": 2}}]})", "p.json");
    EXPECT_EQ(std::get<vs::stdp_triplet>(parsed.net.projections()[0].synapse.plasticity),
              vs::stdp_triplet::visual_cortex(vs::stdp_pairing::nearest).scaled(2));
    auto fails = [&](const std::string& rule, std::initializer_list<std::string> needles) {
        return throws_naming<volley::file_format_error>([&] { vs::parse_network_json(head + rule + "}]}", "p.json"); },
                                                        needles);
    };
    EXPECT_TRUE(fails(R"({"type": "stdp_pair", "tau_plus_ms": 0})", {"p.json", "/projections/0", "tau_plus_ms", "0"}));
    EXPECT_TRUE(fails(R"({"type": "stdp_pair", "w_max": 0.25})", {"/projections/0", "weight", "0.5", "w_max"}));
    EXPECT_TRUE(fails(R"({"type": "stdp_pair", "pairing": "closest"})", {"/projections/0/plasticity/pairing", "closest"}));
    EXPECT_TRUE(fails(R"({"type": "stdp_quad"})", {"/projections/0/plasticity/type", "stdp_quad"}));
    EXPECT_TRUE(fails(R"({"type": "stdp_pair", "lambda": 1})", {"/projections/0/plasticity/lambda"}));
    EXPECT_TRUE(fails(R"({"type": "stdp_pair", "dendritic_delay_ms": -1})", {"/projections/0", "dendritic_delay_ms", "-1"}));
    // Soft bounds and a dendritic delay round-trip; a rule without a delay writes no key for it.
    const auto soft = vs::parse_network_json(
        head + R"({"type": "stdp_pair", "weight_dependence": "soft_bounds", "dendritic_delay_ms": 1.5}}]})", "p.json");
    const auto& rule = std::get<vs::stdp_pair>(soft.net.projections()[0].synapse.plasticity);
    EXPECT_EQ(rule.dependence, vs::stdp_weight_dependence::soft_bounds);
    EXPECT_EQ(rule.dendritic_delay_ms, 1.5);
    EXPECT_EQ(vs::parse_network_json(vs::to_network_json(soft.net), "again.json").net, soft.net);
    EXPECT_EQ(vs::to_network_json(net).find("dendritic_delay_ms"), std::string::npos);
    // The power-law dependence (hpc_benchmark's rule) and its exponent.
    const auto pl = vs::parse_network_json(
        head + R"({"type": "stdp_pair", "weight_dependence": "power_law", "mu": 0.25, "w_max": 4}}]})", "p.json");
    const auto& pl_rule = std::get<vs::stdp_pair>(pl.net.projections()[0].synapse.plasticity);
    EXPECT_EQ(pl_rule.dependence, vs::stdp_weight_dependence::power_law);
    EXPECT_EQ(pl_rule.mu, 0.25);
    EXPECT_EQ(vs::parse_network_json(vs::to_network_json(pl.net), "back.json").net, pl.net);
    EXPECT_TRUE(fails(R"({"type": "stdp_pair", "mu": 0.4})", {"/projections/0/plasticity/mu", "power_law"}));
    EXPECT_TRUE(fails(R"({"type": "stdp_pair", "weight_dependence": "power_law", "mu": 2})", {"/projections/0", "mu", "2"}));
}

TEST(StdpErrors, BadRulesAndInitialWeightsAreTypedErrorsNamingTheParameter) {
    vs::network net;
    const auto a = net.add_population("a", 4, vs::poisson_source{});
    const auto b = net.add_population("b", 4, vs::lif_delta{});
    auto connect = [&](vs::value_spec w, vs::plasticity_rule r) {
        return [&net, a, b, w, r] { net.connect(a, b, vs::all_to_all{}, {.weight = w, .plasticity = r}); };
    };
    using ip = volley::invalid_parameter;
    EXPECT_TRUE(throws_naming<ip>(connect(0.5, vs::stdp_pair{.tau_plus_ms = 0}), {"'a' -> 'b'", "tau_plus_ms", "= 0"}));
    EXPECT_TRUE(throws_naming<ip>(connect(0.5, vs::stdp_pair{.tau_minus_ms = -5}), {"tau_minus_ms", "-5"}));
    EXPECT_TRUE(throws_naming<ip>(connect(0.5, vs::stdp_pair{.a_minus = -0.1}), {"a_minus", "-0.1"}));
    EXPECT_TRUE(throws_naming<ip>(connect(0.5, vs::stdp_pair{.w_min = 2, .w_max = 1}), {"w_min", "2", "w_max"}));
    EXPECT_TRUE(throws_naming<ip>(connect(0.5, vs::stdp_triplet{.tau_y_ms = 0}), {"stdp_triplet", "tau_y_ms"}));
    EXPECT_TRUE(throws_naming<ip>(connect(0.5, vs::stdp_triplet{.tau_x_ms = std::nan("")}), {"tau_x_ms", "nan"}));
    EXPECT_TRUE(throws_naming<ip>(connect(0.5, vs::stdp_triplet{.a3_plus = -1}), {"a3_plus"}));
    EXPECT_TRUE(throws_naming<ip>(connect(1.5, vs::stdp_pair{}), {"weight", "1.5", "[w_min, w_max]"}));
    EXPECT_TRUE(throws_naming<ip>(connect(std::vector<double>(16, 0.5), vs::stdp_pair{.w_min = 0.6}), {"weight[0]", "0.5"}));
    EXPECT_TRUE(throws_naming<ip>(connect(vs::uniform{0.5, 1.5}, vs::stdp_pair{}), {"uniform high", "1.5"}));
    EXPECT_TRUE(throws_naming<ip>(connect(vs::normal{0.5, 0.1}, vs::stdp_pair{}), {"weight", "normal"}));
    EXPECT_TRUE(throws_naming<ip>([] { (void)vs::stdp_triplet{}.scaled(0); }, {"scale"}));
    const auto power_law = vs::stdp_weight_dependence::power_law;
    EXPECT_TRUE(throws_naming<ip>(connect(0.5, vs::stdp_pair{.dependence = power_law, .mu = -0.5}), {"mu", "-0.5", "[0, 1]"}));
    EXPECT_TRUE(throws_naming<ip>(connect(0.5, vs::stdp_pair{.w_min = -1, .dependence = power_law}), {"w_min", "-1", "power-law"}));
    const auto analog = net.add_population("x", 4, vs::analog_source{{{1, 0, 0, 0}}});
    EXPECT_TRUE(throws_naming<ip>([&] { net.connect(analog, b, vs::one_to_one{}, {.weight = 0.5, .plasticity = vs::stdp_pair{}}); },
                                  {"'x' -> 'b'", "plasticity", "analog_source"}));
    EXPECT_EQ(net.projections().size(), 0u);
    EXPECT_NO_THROW(connect(1.0, vs::stdp_pair{})());
}

TEST(StdpCli, VolleyRunWritesTheFinalWeights) {
    const auto dir = std::filesystem::temp_directory_path() / "volley_stdp_cli";
    std::filesystem::create_directories(dir);
    const auto net = plastic_network();
    vs::save_network_json(net, dir / "net.json", {.dt_ms = 0.1, .duration_ms = 300, .seed = 11});
    std::filesystem::remove(dir / "rec.h5");
    const std::string cmd = "cd \"" + dir.string() + "\" && \"" VOLLEY_CLI "\" run net.json --out rec.h5 --threads 2 --quiet > /dev/null";
    ASSERT_EQ(std::system(cmd.c_str()), 0);
    const auto recs = vs::read_weights(dir / "rec.h5");
    ASSERT_EQ(recs.size(), 2u) << "one group per plastic projection";
    vs::simulation sim(net, vs::context{.threads = 1}, {.dt_ms = 0.1, .seed = 11});
    sim.run(300);
    for (const auto& r : recs) {
        const auto w = sim.weights(r.projection);
        EXPECT_EQ(r.sources, w.sources);
        EXPECT_EQ(r.targets, w.targets);
        EXPECT_TRUE(bit_identical(r.weights, w.weights));
        EXPECT_EQ(r.time_ms, 300);
    }
    EXPECT_EQ(recs[0].rule, "stdp_pair");
    EXPECT_EQ(recs[1].rule, "stdp_triplet");
    EXPECT_EQ(vs::read_sonata_spikes(dir / "rec.h5").size(), 2u) << "the spikes are still there";
}

}  // namespace
