// The processor_tool command language on DANNA models (`volley danna --model`), and the
// cost report of a run.

#include <volley/danna/danna2_processor.hpp>
#include <volley/danna/grid_processor.hpp>
#include <volley/danna/processor_factory.hpp>
#include <volley/hw/processor_tool.hpp>

#include <gtest/gtest.h>

#include <sstream>

using namespace volley;

namespace {

// RISP.md e.3's coincidence detector, without leak (DANNA has no "all" leak mode).
const char* const network = R"({
 "Properties": {"node_properties": [{"name": "Threshold", "type": 73, "index": 0, "size": 1, "min_value": 0, "max_value": 2}],
   "edge_properties": [{"name": "Weight", "type": 73, "index": 0, "size": 1, "min_value": -1, "max_value": 1},
                       {"name": "Delay", "type": 73, "index": 1, "size": 1, "min_value": 1, "max_value": 3}],
   "network_properties": []},
 "Nodes": [{"id": 0, "name": "left", "values": [1]}, {"id": 1, "name": "right", "values": [1]},
           {"id": 2, "name": "both", "values": [2]}],
 "Edges": [{"from": 0, "to": 2, "values": [1, 1]}, {"from": 1, "to": 2, "values": [1, 2]}],
 "Inputs": [0, 1], "Outputs": [2], "Network_Values": [],
 "Associated_Data": {"other": {"proc_name": "risp"},
   "proc_params": {"discrete": true, "leak_mode": "none", "min_weight": -1, "max_weight": 1,
     "min_threshold": 0, "max_threshold": 2, "min_potential": -1, "max_delay": 3,
     "spike_value_factor": 1}}}
)";

std::string run_tool(const hw::processor_factory& factory, const std::string& script) {
    std::istringstream in(script);
    std::ostringstream out, err;
    hw::processor_tool tool(in, out, err, "", factory);
    tool.run();
    return out.str();
}

}  // namespace

TEST(danna_tool, risp_script_prints_the_same_on_both_danna_models_as_on_risp) {
    const std::string script =
        std::string("ML\n") + network + "AS 0 1 1 1 0 1\nRUN 8\nGSR\nOT\nOC\nGT\nNCH\nCA\nGT\n";
    // Left fires at 1 and reaches "both" at 2; right fires at 0 and reaches it at 2: 1+1 = 2.
    const std::string expected =
        "0(left)  INPUT  : 010\n"
        "1(right) INPUT  : 100\n"
        "2(both)  OUTPUT : 001\n"
        "node 2(both) spike times: 2.0\n"
        "node 2(both) spike counts: 1\n"
        "time: 8.0\n"
        "Node  0(left) charge: 0\n"
        "Node 1(right) charge: 0\n"
        "Node  2(both) charge: 0\n"
        "time: 0.0\n";
    EXPECT_EQ(run_tool({}, script), expected);  // RISP itself
    EXPECT_EQ(run_tool(danna::tool_factory("danna2"), script), expected);
    EXPECT_EQ(run_tool(danna::tool_factory("danna"), script), expected);
}

TEST(danna_tool, name_and_unknown_processor_messages_use_the_model) {
    const std::string bad = std::string(network);
    std::string other = bad;
    other.replace(other.find("\"proc_name\": \"risp\""), 19, "\"proc_name\": \"xyz\"");
    EXPECT_EQ(run_tool(danna::tool_factory("danna2"), "ML\n" + bad + "NAME\n"), "danna2\n");
    EXPECT_EQ(run_tool(danna::tool_factory("danna2"), "ML\n" + other + "NAME\n"),
              "Processor::make() called with a name (xyz) not equal to danna2\n"
              "Must make a processor first\n");
}

TEST(danna_costs, grid_report_counts_events_and_times_at_the_preset_clock) {
    danna::grid_processor p(danna::grid_preset("fpga2014"));
    danna::hardware_network net;
    net.neurons = {{0, 1, 1, "", {}}, {1, 1, 1, "", {}}};
    net.synapses = {{0, 1, 5, 3, false}};
    net.inputs = {0};
    net.outputs = {1};
    p.load_hardware_network(net);
    p.apply_spike({0, 0, 1}, false);
    p.run(10);
    const auto r = p.costs();
    EXPECT_EQ(r.processor, "danna");
    EXPECT_EQ(r.cycles, 10);
    EXPECT_EQ(r.events.at("neuron_fires"), 2);
    EXPECT_EQ(r.events.at("synapse_deliveries"), 1);
    EXPECT_EQ(r.events.at("inputs"), 1);
    EXPECT_EQ(r.neurons, 2);
    EXPECT_EQ(r.synapses, 1);
    // 10 cycles x 16 element clocks at 100 MHz = 1.6 us.
    EXPECT_DOUBLE_EQ(r.time_s(), 10.0 * 16 / 100.0e6);
    // 2 fires x 20 pJ + 1 delivery x 10 pJ + 1 input x 10 pJ + relays x 5 pJ.
    EXPECT_DOUBLE_EQ(r.energy_j(), 2 * 20e-12 + 10e-12 + 10e-12 +
                                       static_cast<double>(r.events.at("fanout_relays")) * 5e-12);
    EXPECT_NE(r.clock_hz.source.find("assumption"), std::string::npos);
    const auto vlsi = danna::grid_preset("vlsi2016");
    EXPECT_DOUBLE_EQ(vlsi.element_clock_hz.value,
                     10 * danna::grid_preset("fpga2014").element_clock_hz.value);
}
