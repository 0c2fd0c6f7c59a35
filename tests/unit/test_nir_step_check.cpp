// check_nir_step: a neuron node whose time constant is not longer than the step is reported by
// name, with the largest dt/tau and the number of neurons, and nir_to_network carries the same
// warnings. The case is Norse 1.1's exporter, which writes dt·tau (1e-5 s) for tau = 10 ms.

#include <volley/snn/nir_graph.hpp>
#include <volley/snn/nir_network.hpp>

#include <gtest/gtest.h>

namespace vs = volley::snn;

namespace {

/// Input(2) -> Linear -> LIF(2) with the given taus [s] -> Linear -> CubaLIF(1) -> Output.
vs::nir_graph graph(std::vector<double> tau, double tau_mem, double tau_syn) {
    using params = std::map<std::string, vs::nir_array>;
    auto shaped = [](std::vector<double> v, std::vector<std::size_t> s) {
        auto a = vs::nir_array::vector(std::move(v));
        a.shape = std::move(s);
        return a;
    };
    vs::nir_graph g;
    g.nodes.emplace_back("in", "Input", params{{"shape", vs::nir_array::vector({2}, vs::nir_dtype::int64)}});
    g.nodes.emplace_back("w1", "Linear", params{{"weight", shaped({1, 0, 0, 1}, {2, 2})}});
    g.nodes.emplace_back("lif", "LIF", params{{"tau", vs::nir_array::vector(std::move(tau))},
                                              {"r", vs::nir_array::vector({1, 1})},
                                              {"v_leak", vs::nir_array::vector({0, 0})},
                                              {"v_threshold", vs::nir_array::vector({1, 1})}});
    g.nodes.emplace_back("w2", "Linear", params{{"weight", shaped({1, 1}, {1, 2})}});
    g.nodes.emplace_back("cuba", "CubaLIF", params{{"tau_mem", vs::nir_array::vector({tau_mem})},
                                                   {"tau_syn", vs::nir_array::vector({tau_syn})},
                                                   {"r", vs::nir_array::vector({1})},
                                                   {"v_leak", vs::nir_array::vector({0})},
                                                   {"v_threshold", vs::nir_array::vector({1})}});
    g.nodes.emplace_back("out", "Output", params{{"shape", vs::nir_array::vector({1}, vs::nir_dtype::int64)}});
    g.edges = {{"in", "w1"}, {"w1", "lif"}, {"lif", "w2"}, {"w2", "cuba"}, {"cuba", "out"}};
    vs::analyse_nir_graph(g);
    return g;
}

}  // namespace

TEST(NirStepCheck, NorseExportersDtTimesTauIsReportedByNode) {
    const auto g = graph({1e-5, 1e-2}, 1e-2, 5e-3);
    const auto w = vs::check_nir_step(g, {.dt_s = 1e-3});
    ASSERT_EQ(w.size(), 1u);
    EXPECT_EQ(w[0].node, "lif");
    EXPECT_EQ(w[0].parameter, "tau");
    EXPECT_DOUBLE_EQ(w[0].dt_over_tau, 100);
    EXPECT_EQ(w[0].neurons, 1u);
    EXPECT_NE(w[0].message.find("LIF node 'lif'"), std::string::npos) << w[0].message;
    EXPECT_NE(w[0].message.find("unstable"), std::string::npos) << w[0].message;
    const auto m = vs::nir_to_network(g, {.dt_s = 1e-3});
    ASSERT_EQ(m.warnings.size(), 1u);
    EXPECT_EQ(m.warnings[0].message, w[0].message);
}

TEST(NirStepCheck, EachTimeConstantOfACubaNodeIsChecked) {
    const auto w = vs::check_nir_step(graph({1e-2, 1e-2}, 1e-3, 5e-4), {.dt_s = 1e-3});
    ASSERT_EQ(w.size(), 2u);
    EXPECT_EQ(w[0].node + " " + w[0].parameter, "cuba tau_mem");
    EXPECT_DOUBLE_EQ(w[0].dt_over_tau, 1);  // dt/tau = 1 already forgets v under Euler
    EXPECT_EQ(w[1].node + " " + w[1].parameter, "cuba tau_syn");
    EXPECT_DOUBLE_EQ(w[1].dt_over_tau, 2);
    const auto exact = vs::check_nir_step(graph({1e-2, 1e-2}, 1e-3, 5e-4),
                                          {.dt_s = 1e-3, .discretisation = vs::discrete_neuron::integration::exact});
    ASSERT_EQ(exact.size(), 2u);
    EXPECT_NE(exact[0].message.find("forgets"), std::string::npos) << exact[0].message;
}

TEST(NirStepCheck, TimeConstantsLongerThanTheStepGiveNoWarning) {
    EXPECT_TRUE(vs::check_nir_step(graph({1e-2, 2e-3}, 1e-2, 5e-3), {.dt_s = 1e-3}).empty());
    EXPECT_TRUE(vs::nir_to_network(graph({1e-2, 2e-3}, 1e-2, 5e-3), {.dt_s = 1e-3}).warnings.empty());
}
