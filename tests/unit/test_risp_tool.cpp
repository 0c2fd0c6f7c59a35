// The processor_tool interpreter in-process: the spec's worked example, load errors, and
// that the tool carries on after errors as the reference does.

#include <volley/hw/processor_tool.hpp>

#include <gtest/gtest.h>

#include <nlohmann/json.hpp>

#include <cstdio>
#include <fstream>
#include <sstream>

using namespace volley::hw;
using nlohmann::json;

namespace {

/// The coincidence detector of RISP.md e.3.
json example_network() {
    return json::parse(R"({
      "Properties": {
        "node_properties": [{"name": "Threshold", "type": 73, "index": 0, "size": 1, "min_value": 0, "max_value": 2}],
        "edge_properties": [{"name": "Weight", "type": 73, "index": 0, "size": 1, "min_value": -1, "max_value": 1},
                            {"name": "Delay",  "type": 73, "index": 1, "size": 1, "min_value": 1, "max_value": 3}],
        "network_properties": []},
      "Nodes": [{"id": 0, "name": "left",  "values": [1]}, {"id": 1, "name": "right", "values": [1]},
                {"id": 2, "name": "both",  "values": [2]}],
      "Edges": [{"from": 0, "to": 2, "values": [1, 1]}, {"from": 1, "to": 2, "values": [1, 2]}],
      "Inputs": [0, 1], "Outputs": [2], "Network_Values": [],
      "Associated_Data": {"other": {"proc_name": "risp"},
        "proc_params": {"discrete": true, "leak_mode": "all", "min_weight": -1, "max_weight": 1,
                        "min_threshold": 0, "max_threshold": 2, "min_potential": -1, "max_delay": 3,
                        "spike_value_factor": 1}}})");
}

std::string write_temp(const std::string& name, const json& j) {
    const std::string path = ::testing::TempDir() + name;
    std::ofstream(path) << j.dump();
    return path;
}

std::string run_tool(const std::string& script, std::string* err_text = nullptr) {
    std::istringstream in(script);
    std::ostringstream out, err;
    processor_tool tool(in, out, err);
    EXPECT_EQ(tool.run(), 0);
    if (err_text) *err_text = err.str();
    return out.str();
}

}  // namespace

TEST(risp_tool, spec_example_prints_the_documented_output) {
    const std::string path = write_temp("risp_example.json", example_network());
    EXPECT_EQ(run_tool("ML " + path + "\nAS 0 1 1 1 0 1\nAS 0 5 1 1 5 1\nRUN 8\nGSR\nOT\nGT\n"),
              "0(left)  INPUT  : 010001\n"
              "1(right) INPUT  : 100001\n"
              "2(both)  OUTPUT : 001000\n"
              "node 2(both) spike times: 2.0\n"
              "time: 8.0\n");
    std::remove(path.c_str());
}

TEST(risp_tool, network_can_come_from_stdin) {
    const std::string text = example_network().dump(2);
    EXPECT_EQ(run_tool("ML\n" + text + "\nAS 0 0 1 1 0 1\nRUN 3\nOC\n"),
              "node 2(both) spike counts: 0\n");
}

TEST(risp_tool, parameter_errors_print_the_reference_message_and_unload) {
    json j = example_network();
    j["Associated_Data"]["proc_params"]["foo"] = 1;
    const std::string path = write_temp("risp_bad_param.json", j);
    EXPECT_EQ(run_tool("ML " + path + "\nGT\n"),
              "Illegal parameter: foo\n\nProcessor or network is not loaded\n");
    std::remove(path.c_str());
}

TEST(risp_tool, load_errors_are_reported_and_the_tool_continues) {
    json j = example_network();
    j["Associated_Data"]["proc_params"]["max_threshold"] = 3;
    std::string path = write_temp("risp_mismatch.json", j);
    const std::string good = write_temp("risp_good.json", example_network());
    EXPECT_EQ(run_tool("ML " + path + "\nML " + good + "\nGT\n"),
              "network and processor properties do not match.\ntime: 0.0\n");
    j = example_network();
    j["Associated_Data"].erase("proc_params");
    path = write_temp("risp_no_params.json", j);
    EXPECT_EQ(run_tool("ML " + path + "\n"), "Associated data key 'proc_params' not found\n");
    j = example_network();
    j["Associated_Data"]["proc_params"]["weights"] = {1, 2};
    path = write_temp("risp_weights.json", j);
    EXPECT_EQ(run_tool("ML " + path + "\n"), "RISP: Cannot have weights and min_weight.\n");
    j = example_network();
    j["Associated_Data"]["other"]["proc_name"] = 5;
    path = write_temp("risp_no_name.json", j);
    std::string err;
    EXPECT_EQ(run_tool("ML " + path + "\n", &err), "Unknown error when making processor\n");
    EXPECT_NE(err.find("proc_name"), std::string::npos);
    std::ofstream(path) << "{ not json";
    EXPECT_EQ(run_tool("ML " + path + "\nGT\n"),
              "usage: ML network_json. Bad json\nProcessor or network is not loaded\n");
    std::remove(path.c_str());
    std::remove(good.c_str());
}

TEST(risp_tool, make_emptynet_and_params) {
    const std::string params = write_temp("risp_params.json", {{"discrete", false},
                                                               {"max_delay", 2},
                                                               {"min_threshold", 0},
                                                               {"max_threshold", 1},
                                                               {"min_potential", 0},
                                                               {"min_weight", -1},
                                                               {"max_weight", 1},
                                                               {"spike_value_factor", 1}});
    const std::string out = run_tool("EMPTYNET\nM risp " + params + "\nNAME\nEMPTYNET\nPARAMS\n");
    EXPECT_EQ(out.substr(0, 28), "Must make a processor first\n");
    EXPECT_NE(out.find("risp\n{ \"Properties\":\n  { \"node_properties\": [\n"), std::string::npos);
    EXPECT_NE(out.find(" \"Network_Values\": [],\n \"Associated_Data\":\n"), std::string::npos);
    EXPECT_NE(out.find("\n  \"max_delay\": 2,\n"), std::string::npos);
    EXPECT_NE(out.find("\n  \"spike_value_factor\": 1.0,\n"), std::string::npos);
    std::remove(params.c_str());
}

TEST(risp_tool, commands_are_case_insensitive_and_unknown_ones_are_named) {
    EXPECT_EQ(run_tool("bogus 1\n# comment\n\nq\nGT\n"),
              "Invalid command BOGUS.  Use '?' to print a list of commands.\n");
    EXPECT_NE(run_tool("?\n").find("RUN"), std::string::npos);
}
