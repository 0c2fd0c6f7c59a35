// The peer harness runs the same CUBA network on Brian2 (bench/peers/brian2_cuba.py) as
// volley::snn::cuba_network builds: identical parameters, the same in-degree statistics, and,
// when Brian2 is installed, mean rates that agree over 0.1 s.

#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

#include <volley/snn/simulation.hpp>
#include <volley/snn/standard_networks.hpp>

#include "build/connectivity.hpp"

#include <cmath>
#include <cstdio>
#include <filesystem>
#include <memory>
#include <string>

namespace volley::snn {
namespace {

const char* const python = "/usr/bin/python3";

/// The last JSON line printed by `cmd`, or null when it failed.
nlohmann::json run_json(const std::string& cmd) {
    std::unique_ptr<FILE, int (*)(FILE*)> p(popen((cmd + " 2>/dev/null").c_str(), "r"), pclose);
    if (!p) return nullptr;
    std::string out;
    char buf[4096];
    while (std::fgets(buf, sizeof buf, p.get())) out = buf;
    try {
        return nlohmann::json::parse(out);
    } catch (const std::exception&) {
        return nullptr;
    }
}

bool has_python_module(const std::string& module) {
    return std::filesystem::exists(python) &&
           std::system((std::string(python) + " -c 'import " + module + "' >/dev/null 2>&1").c_str()) == 0;
}

TEST(brian2_network_match, parameters_are_identical) {
    if (!std::filesystem::exists(python)) GTEST_SKIP() << python << " is absent";
    const auto p = run_json(std::string(python) + " " VOLLEY_BRIAN2_SCRIPT " params");
    ASSERT_FALSE(p.is_null());
    const auto net = cuba_network(4000, 0.1);
    const auto& model = std::get<lif_exp>(net.at(net.find("exc")).model).p;
    EXPECT_EQ(p["tau_m_ms"].get<double>(), model.tau_m_ms);
    EXPECT_EQ(p["tau_syn_e_ms"].get<double>(), model.tau_syn_e_ms);
    EXPECT_EQ(p["tau_syn_i_ms"].get<double>(), model.tau_syn_i_ms);
    EXPECT_EQ(p["v_rest_mv"].get<double>(), model.v_rest_mv);
    EXPECT_EQ(p["v_reset_mv"].get<double>(), model.v_reset_mv);
    EXPECT_EQ(p["v_thresh_mv"].get<double>(), model.v_thresh_mv);
    EXPECT_EQ(p["t_ref_ms"].get<double>(), model.t_ref_ms);
    EXPECT_EQ(net.at(net.find("exc")).size, 3200u);
    const auto& projs = net.projections();
    ASSERT_EQ(projs.size(), 4u);
    for (const auto& pr : projs) {
        const double w = std::get<double>(pr.synapse.weight);
        EXPECT_DOUBLE_EQ(w, pr.source == net.find("exc") ? p["w_e_mv"].get<double>() : p["w_i_mv"].get<double>());
        EXPECT_DOUBLE_EQ(std::get<double>(pr.synapse.delay_ms), p["delay_steps"].get<int>() * 0.1);
        EXPECT_DOUBLE_EQ(std::get<fixed_probability>(pr.rule).p, p["inputs_per_neuron"].get<double>() / 4000);
        EXPECT_EQ(std::get<fixed_probability>(pr.rule).allow_autapses, p["autapses"].get<bool>());
    }
}

TEST(brian2_network_match, in_degree_is_binomial_with_mean_80) {
    const auto net = cuba_network(4000, 0.1);
    std::vector<double> indeg(4000, 0);
    for (std::size_t q = 0; q < net.projections().size(); ++q) {
        detail::synapse_list l;
        const auto& pr = net.projections()[q];
        detail::expand_projection(net, q, 42, 0.1, 0, net.at(pr.target).size, l);
        const std::uint32_t base = pr.target == net.find("exc") ? 0 : 3200;
        for (std::uint32_t t : l.target) indeg[base + t] += 1;
    }
    double mean = 0, var = 0;
    for (double d : indeg) mean += d / 4000;
    for (double d : indeg) var += (d - mean) * (d - mean) / 4000;
    // Binomial(4000, 0.02): mean 80, sd 8.85; Brian2 measured 80.1 and 8.89 (bench/peers/README.md).
    EXPECT_NEAR(mean, 80.0, 0.5);
    EXPECT_NEAR(std::sqrt(var), 8.85, 0.5);
}

TEST(brian2_network_match, mean_rate_over_100_ms_agrees_with_brian2) {
    if (!has_python_module("brian2")) GTEST_SKIP() << "Brian2 is not installed (scripts/setup --peers)";
    const auto b = run_json(std::string(python) + " " VOLLEY_BRIAN2_SCRIPT " rate --neurons 4000 --duration 100");
    ASSERT_FALSE(b.is_null());
    const auto net = cuba_network(4000, 0.1);
    simulation sim(net, context{.threads = 1}, {.dt_ms = 0.1, .seed = 42});
    auto exc = sim.record_spikes(net.find("exc"));
    auto inh = sim.record_spikes(net.find("inh"));
    sim.run(100);
    const double rate = double(exc.size() + inh.size()) / (4000 * 0.1);
    // 0.1 s of one network each: the rates differ by network draw (about 4 % between seeds at
    // 1 s, more over 0.1 s), so this checks agreement, not the 5 % benchmark target.
    EXPECT_NEAR(rate / b["mean_rate_hz"].get<double>(), 1.0, 0.25) << "volley " << rate << " Hz, brian2 " << b["mean_rate_hz"];
}

}  // namespace
}  // namespace volley::snn
