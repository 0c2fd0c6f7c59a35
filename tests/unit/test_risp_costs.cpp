// The RISP cost report: the same fields as the DANNA models, with counts worked out by hand.

#include <volley/hw/risp_processor.hpp>

#include <gtest/gtest.h>

namespace vh = volley::hw;

TEST(RispCosts, ChainCountsFiresEventsCyclesTimeAndEnergy) {
    // tests/data/risp-vectors/01_chain_delays: input 2 -> 10 (delay 1) -> 100 (3) -> 7 (2) -> 31 (4),
    // all weights 1 and thresholds 1. One input spike at t = 0 makes each of the 5 nodes fire
    // once (at 0, 1, 4, 6, 10): 5 fires, and 1 input + 4 deliveries = 5 integrated events.
    const auto net = vh::load_tennlab_network(VOLLEY_TEST_DATA_DIR "/risp-vectors/01_chain_delays/network.json");
    vh::risp_processor proc(net.associated_data["proc_params"]);
    proc.load_network(net);
    proc.apply_spike({2, 0, 1});
    proc.run(20);
    const vh::cost_report r = proc.costs();
    EXPECT_EQ(r.processor, "risp");
    EXPECT_EQ(r.neurons, 5);
    EXPECT_EQ(r.synapses, 4);
    EXPECT_EQ(r.cycles, 20);
    EXPECT_EQ(r.events.at("neuron_fires"), 5);
    EXPECT_EQ(r.events.at("integrated_events"), 5);
    EXPECT_DOUBLE_EQ(r.time_s(), 20 / 100.0e6);
    EXPECT_DOUBLE_EQ(r.energy_j(), 5 * 5.0e-12 + 5 * 2.0e-12);
    EXPECT_NE(r.clock_hz.source.find("assumption"), std::string::npos);
    for (const auto& [kind, c] : r.energy_per_event_j) EXPECT_NE(c.source.find("assumption"), std::string::npos) << kind;
    const auto j = r.to_json();
    EXPECT_TRUE(j.contains("events"));
}
