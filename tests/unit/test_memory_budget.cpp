// A network too large for the memory it may use is refused when the simulation is built, at
// once and before anything large is allocated, naming the largest population and its size;
// the estimate is a lower bound that counts neurons, delay slots and synapses.

#include <gtest/gtest.h>

#include <volley/snn.hpp>

#include <cstdlib>
#include <filesystem>
#include <fstream>

#include "../support/cli_runner.hpp"
#include "../support/snn_test_support.hpp"
#include "lowering/memory_budget.hpp"

namespace volley::snn {
namespace {

using testing::throws_naming;

TEST(memory_budget, a_network_over_the_limit_is_refused_before_it_is_built) {
    network net;
    net.add_population("small", 10, lif_exp{});
    net.add_population("huge", 100'000'000, lif_exp{});
    // 100 million neurons need at least 1e8 * (16 + 16 * 1 slot) bytes = 3.2 GB > 1 GB.
    EXPECT_TRUE(throws_naming<invalid_parameter>(
        [&] { simulation sim(net, context{.threads = 1}, {.dt_ms = 0.1, .max_memory_bytes = 1ull << 30}); },
        {"'huge'", "size", "100000000", "1.0 GiB"}));
}

TEST(memory_budget, the_estimate_counts_neurons_delay_slots_and_synapses) {
    network net;
    const auto a = net.add_population("a", 1000, lif_exp{});
    const auto b = net.add_population("b", 500, lif_exp{});
    net.connect(a, b, all_to_all{}, {.weight = 0.1, .delay_ms = 0.5});  // 500,000 synapses, 5 steps
    const auto low = detail::lower(net, {.dt_ms = 0.1}, local_context(), 1,
                                   [](int parts, const std::function<void(int)>& body) {
                                       for (int k = 0; k < parts; ++k) body(k);
                                   });
    EXPECT_EQ(detail::minimum_engine_bytes(low), 1500u * 16 + 1500u * 16 * 6 + 500'000u * 4);
    // Within the limit nothing is refused, and the network runs.
    simulation sim(net, context{.threads = 1}, {.dt_ms = 0.1, .max_memory_bytes = 1ull << 30});
    sim.run(1);
}

TEST(memory_budget, volley_run_refuses_a_population_of_2_to_the_31_neurons_at_once) {
    // The case of the reliability issue: it used to fill arrays for minutes. 2^31 neurons need
    // at least 64 GiB, more than any machine this suite runs on has available.
    const auto dir = std::filesystem::temp_directory_path() / "volley_memory_budget";
    std::filesystem::create_directories(dir);
    std::ofstream(dir / "big.json") << R"({"format": "volley-network", "version": 1,
        "run": {"dt_ms": 0.1, "duration_ms": 10},
        "populations": [{"name": "p", "size": 2147483648, "model": "lif_exp"}]})";
    if (detail::available_memory_bytes() >= (64ull << 30)) GTEST_SKIP() << "this machine has 64 GiB available";
    const auto r = volley::testing::run_volley_in(dir, "run big.json --quiet");
    EXPECT_EQ(r.code, 2);
    EXPECT_NE(r.err.find("population 'p'"), std::string::npos) << r.err;
    EXPECT_NE(r.err.find("2147483648"), std::string::npos) << r.err;
}

// Connectors whose synapses cannot fit are refused from their expected counts, before the
// lowering expands them: a fixed_probability of 10^17 synapses once ran (and `volley info` hung)
// until the memory ran out.
TEST(memory_budget, connectors_that_cannot_fit_are_refused_from_their_expected_synapses_at_once) {
    network net;
    const auto a = net.add_population("a", 2'000'000, lif_exp{});
    const auto b = net.add_population("b", 1'000, lif_exp{});
    net.connect(a, b, fixed_in_degree{.k = 100}, {.weight = 0.1});
    net.connect(a, a, fixed_probability{.p = 0.1}, {.weight = 0.1});  // 4e11 synapses expected
    net.connect(b, b, all_to_all{}, {.weight = 0.1});
    EXPECT_DOUBLE_EQ(detail::expected_synapses(net, 0), 100.0 * 1000);
    EXPECT_DOUBLE_EQ(detail::expected_synapses(net, 1), 0.1 * 2e6 * 2e6);
    EXPECT_DOUBLE_EQ(detail::expected_synapses(net, 2), 1e6);
    EXPECT_TRUE(throws_naming<invalid_parameter>(
        [&] { simulation sim(net, context{.threads = 1}, {.dt_ms = 0.1, .max_memory_bytes = 1ull << 30}); },
        {"projection 1 ('a' -> 'a')", "about 4e+11", "1.0 GiB"}));
    // Without the big projection the network fits and runs.
    network small;
    const auto c = small.add_population("c", 100, lif_exp{});
    small.connect(c, c, fixed_probability{.p = 0.1}, {.weight = 0.1});
    EXPECT_NO_THROW(detail::check_expected_size(small, 1ull << 30, 1));
    const auto dir = std::filesystem::temp_directory_path() / "volley_memory_budget";
    std::filesystem::create_directories(dir);
    std::ofstream(dir / "dense.json") << R"({"format": "volley-network", "version": 1,
        "run": {"dt_ms": 0.1, "duration_ms": 10},
        "populations": [{"name": "p", "size": 2147483647, "model": "lif_exp"}],
        "projections": [{"source": "p", "target": "p", "connector": {"type": "fixed_probability", "p": 0.1},
                         "weight": 1.0, "delay_ms": 1.0}]})";
    const auto r = volley::testing::run_volley_in(dir, "run dense.json --quiet");
    EXPECT_EQ(r.code, 2);
    EXPECT_NE(r.err.find("projection 0 ('p' -> 'p'): synapses = about 4.61e+17"), std::string::npos) << r.err;
    const auto info = volley::testing::run_volley_in(dir, "info dense.json");
    EXPECT_EQ(info.code, 0) << info.err;
    EXPECT_NE(info.out.find("synapses not counted"), std::string::npos) << info.out;
}

}  // namespace
}  // namespace volley::snn
