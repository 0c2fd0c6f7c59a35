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

}  // namespace
}  // namespace volley::snn
