// The RISP <-> engine bridge: random RISP networks give the same fire times on the RISP
// processor and on the engine, and the conversion round-trips.

#include <volley/error.hpp>
#include <volley/hw/risp_bridge.hpp>
#include <volley/hw/risp_processor.hpp>
#include <volley/snn/simulation.hpp>

#include <gtest/gtest.h>

#include <map>
#include <random>

namespace vh = volley::hw;
namespace vs = volley::snn;

namespace {

nlohmann::json proc_params(const std::string& leak) {
    return {{"min_weight", -3}, {"max_weight", 3},      {"min_threshold", 1}, {"max_threshold", 6},
            {"min_potential", -1000000},               {"max_delay", 5},     {"discrete", true},
            {"leak_mode", leak}, {"spike_value_factor", 3}};
}

/// A random network with nodes 0..n-1 in order; the first `n_in` are inputs, the last 2 outputs.
nlohmann::json random_network(std::mt19937& rng, const nlohmann::json& params, bool with_leak) {
    std::uniform_int_distribution<int> n_dist(4, 24), thr(1, 6), w(-3, 3), d(1, 5), coin(0, 1);
    const int n = n_dist(rng);
    // The property pack is the one the processor expects (RISP.md a.4).
    nlohmann::json j = {
        {"Properties", vh::risp_params::from_json(params).network_properties().to_json()},
        {"Nodes", nlohmann::json::array()},
        {"Edges", nlohmann::json::array()},
        {"Inputs", nlohmann::json::array()},
        {"Outputs", {n - 2, n - 1}},
        {"Network_Values", nlohmann::json::array()},
        {"Associated_Data", {{"other", {{"proc_name", "risp"}}}, {"proc_params", params}}}};
    for (int i = 0; i < n; ++i) {
        nlohmann::json values = {thr(rng)};
        if (with_leak) values.push_back(coin(rng));
        j["Nodes"].push_back({{"id", i}, {"values", values}});
    }
    for (int i = 0; i < 3; ++i) j["Inputs"].push_back(i);
    std::bernoulli_distribution edge(0.2);
    for (int a = 0; a < n; ++a)
        for (int b = 0; b < n; ++b)
            if (edge(rng)) j["Edges"].push_back({{"from", a}, {"to", b}, {"values", {w(rng), d(rng)}}});
    return j;
}

/// Fire times per node id on the RISP processor.
std::map<vh::node_id, std::vector<double>> risp_fires(const vh::tennlab_network& net, const nlohmann::json& params,
                                                     const std::vector<vh::spike>& spikes, int steps) {
    vh::risp_processor proc(params);
    proc.load_network(net);
    for (auto id : proc.neuron_ids()) proc.track_neuron_events(id);  // record every neuron's fires
    for (const auto& s : spikes) proc.apply_spike(s, false);
    proc.run(steps);
    std::map<vh::node_id, std::vector<double>> out;
    const auto ids = proc.neuron_ids();
    const auto vectors = proc.neuron_vectors();
    for (std::size_t i = 0; i < ids.size(); ++i) out[ids[i]] = vectors[i];
    return out;
}

/// Fire times per node id on the engine, shifted back to RISP time.
std::map<vh::node_id, std::vector<double>> engine_fires(const vh::risp_engine_network& bridged, int steps) {
    vs::simulation sim(bridged.net, {.threads = 1}, {.dt_ms = 1.0, .seed = 1});
    auto rec = sim.record_spikes(bridged.net.find("neurons"));
    sim.run(steps + vh::engine_step_offset);
    std::map<vh::node_id, std::vector<double>> out;
    for (auto id : bridged.node_of_neuron) out[id];
    for (std::size_t k = 0; k < rec.size(); ++k) {
        const auto t = rec.steps()[k] - vh::engine_step_offset;
        if (t < steps) out[bridged.node_of_neuron[rec.node_ids()[k]]].push_back(static_cast<double>(t));
    }
    return out;
}

}  // namespace

TEST(RispBridge, RandomNetworksFireAtTheSameTimesOnRispAndTheEngine) {
    std::mt19937 rng(20261130);
    int compared_fires = 0;
    for (int trial = 0; trial < 150; ++trial) {
        const std::string leak = trial % 3 == 0 ? "none" : trial % 3 == 1 ? "all" : "configurable";
        const auto params = proc_params(leak);
        const auto j = random_network(rng, params, leak == "configurable");
        const auto net = vh::tennlab_network::from_json(j, "random");
        std::vector<vh::spike> spikes;
        std::uniform_int_distribution<int> t(0, 30), v(1, 3), which(0, 2);
        for (int k = 0; k < 12; ++k)
            spikes.push_back({static_cast<vh::node_id>(which(rng)), static_cast<double>(t(rng)), static_cast<double>(v(rng))});
        const int steps = 60;
        const auto expected = risp_fires(net, params, spikes, steps);
        const auto bridged = vh::risp_to_snn(net, vh::risp_params::from_json(params), spikes);
        const auto got = engine_fires(bridged, steps);
        ASSERT_EQ(got, expected) << "trial " << trial << " (leak_mode " << leak << ")\n" << j.dump();
        for (const auto& [id, times] : expected) compared_fires += static_cast<int>(times.size());
    }
    EXPECT_GT(compared_fires, 500);  // the networks were active, so the comparison means something
}

TEST(RispBridge, ConversionRoundTrips) {
    std::mt19937 rng(7);
    const auto params = proc_params("configurable");
    const auto net = vh::tennlab_network::from_json(random_network(rng, params, true), "random");
    const auto p = vh::risp_params::from_json(params);
    const auto back = vh::snn_to_risp(vh::risp_to_snn(net, p).net, p);
    ASSERT_EQ(back.nodes.size(), net.nodes.size());
    for (std::size_t i = 0; i < net.nodes.size(); ++i) {
        EXPECT_EQ(back.nodes[i].id, net.nodes[i].id);
        EXPECT_EQ(back.nodes[i].values, net.nodes[i].values);
    }
    ASSERT_EQ(back.edges.size(), net.edges.size());
    for (std::size_t k = 0; k < net.edges.size(); ++k) {
        EXPECT_EQ(back.edges[k].from, net.edges[k].from);
        EXPECT_EQ(back.edges[k].to, net.edges[k].to);
        EXPECT_EQ(back.edges[k].values, net.edges[k].values);
    }
}

TEST(RispBridge, RefusesWhatTheEngineCannotExpress) {
    std::mt19937 rng(3);
    auto params = proc_params("none");
    const auto net = vh::tennlab_network::from_json(random_network(rng, params, false), "random");
    params["discrete"] = false;  // RISP allows noise only in floating point
    params["noisy_stddev"] = 0.5;
    params["noisy_seed"] = 1;
    try {
        vh::risp_to_snn(net, vh::risp_params::from_json(params));
        FAIL() << "a noisy network was bridged";
    } catch (const volley::invalid_parameter& e) {
        EXPECT_NE(std::string(e.what()).find("noise"), std::string::npos);
    }
    auto zero = proc_params("none");
    zero["min_threshold"] = 0;
    auto j = random_network(rng, zero, false);
    j["Properties"]["node_properties"][0]["min_value"] = 0;
    j["Nodes"][1]["values"][0] = 0;
    const auto zero_net = vh::tennlab_network::from_json(j, "random");
    try {
        vh::risp_to_snn(zero_net, vh::risp_params::from_json(zero));
        FAIL() << "a threshold of 0 was bridged";
    } catch (const volley::invalid_parameter& e) {
        EXPECT_NE(std::string(e.what()).find("node 1"), std::string::npos) << e.what();
    }
}
