// TENNLab network JSON: reading, writing, and the reference's validation messages.

#include <volley/hw/tennlab_error.hpp>
#include <volley/hw/tennlab_json.hpp>
#include <volley/hw/tennlab_network.hpp>

#include <gtest/gtest.h>

#include <cstdio>
#include <fstream>
#include <string>

using namespace volley::hw;
using nlohmann::json;

namespace {

json small_network() {
    return json::parse(R"({
      "Properties": {
        "node_properties": [{"name": "Threshold", "type": 73, "index": 0, "size": 1, "min_value": 0, "max_value": 2}],
        "edge_properties": [{"name": "Weight", "type": 73, "index": 0, "size": 1, "min_value": -1, "max_value": 1},
                            {"name": "Delay", "type": 73, "index": 1, "size": 1, "min_value": 1, "max_value": 3}],
        "network_properties": []},
      "Nodes": [{"id": 0, "name": "left", "values": [1]}, {"id": 1, "values": [1], "coords": [1.5, 2]},
                {"id": 2, "name": "both", "values": [2]}],
      "Edges": [{"from": 0, "to": 2, "values": [1, 1]}, {"from": 1, "to": 2, "values": [1, 2], "control_point": [0.25]}],
      "Inputs": [0, 1], "Outputs": [2], "Network_Values": [],
      "Associated_Data": {"other": {"proc_name": "risp", "app_name": "x"}, "app_params": {"seed": 3},
                          "proc_params": {"discrete": true, "min_weight": -1, "max_weight": 1,
                                          "min_threshold": 0, "max_threshold": 2, "min_potential": -1,
                                          "max_delay": 3, "spike_value_factor": 1}}})");
}

std::string reference_message_of(const json& j) {
    try {
        tennlab_network::from_json(j, "t.json");
    } catch (const tennlab_error& e) {
        return e.reference_message();
    }
    return "(no error)";
}

std::string what_of(const json& j) {
    try {
        tennlab_network::from_json(j, "t.json");
    } catch (const tennlab_error& e) {
        return e.what();
    }
    return "(no error)";
}

}  // namespace

TEST(tennlab_json, doubles_use_the_framework_layout) {
    EXPECT_EQ(format_json_double(1.0), "1.0");
    EXPECT_EQ(format_json_double(15.0), "15.0");
    EXPECT_EQ(format_json_double(100000000.0), "100000000.0");
    EXPECT_EQ(format_json_double(123456.789), "123456.789");
    EXPECT_EQ(format_json_double(1.5), "1.5");
    EXPECT_EQ(format_json_double(0.5), "0.5");
    EXPECT_EQ(format_json_double(0.1), "0.1");
    EXPECT_EQ(format_json_double(0.0001), "0.0001");
    EXPECT_EQ(format_json_double(1e-05), "1e-05");
    EXPECT_EQ(format_json_double(1e15), "1e+15");
    EXPECT_EQ(format_json_double(-1e20), "-1e+20");
    EXPECT_EQ(format_json_double(1.5e16), "1.5e+16");
    EXPECT_EQ(format_json_double(0.0), "0.0");
    EXPECT_EQ(format_json_double(-99999999.99), "-99999999.99");
}

TEST(tennlab_json, compact_form_sorts_keys_and_keeps_integers) {
    const json j = {{"b", 1.0}, {"a", {1, 2.5}}, {"c", json::object({{"z", true}, {"y", "s"}})}};
    EXPECT_EQ(compact_json(j), R"({"a":[1,2.5],"b":1.0,"c":{"y":"s","z":true}})");
}

TEST(tennlab_json, pretty_form_breaks_long_objects) {
    const json shortj = {{"a", 1}};
    EXPECT_EQ(pretty_json(shortj), R"({"a":1})");
    json longj = {{"key_one", std::string(60, 'x')}, {"k2", 2}};
    EXPECT_EQ(pretty_json(longj),
              " { \"k2\": 2,\n   \"key_one\": \"" + std::string(60, 'x') + "\"}");
}

TEST(tennlab_network, reads_nodes_edges_and_io_lists) {
    const auto net = tennlab_network::from_json(small_network(), "t.json");
    ASSERT_EQ(net.nodes.size(), 3u);
    EXPECT_EQ(net.nodes[0].name, "left");
    EXPECT_EQ(tennlab_network::display_name(net.nodes[0]), "0(left)");
    EXPECT_EQ(tennlab_network::display_name(net.nodes[1]), "1");
    ASSERT_EQ(net.edges.size(), 2u);
    EXPECT_EQ(net.edges[1].values, (std::vector<double>{1, 2}));
    EXPECT_EQ(net.inputs, (std::vector<node_id>{0, 1}));
    EXPECT_EQ(net.outputs, (std::vector<node_id>{2}));
    EXPECT_EQ(net.properties.edge_slots(), 2);
}

TEST(tennlab_network, round_trip_keeps_associated_data_and_unknown_keys) {
    json j = small_network();
    j["Nodes"][0]["colour"] = "red";
    j["Edges"][0]["note"] = {1, 2};
    j["Top_Extra"] = {{"x", 1}};
    const auto net = tennlab_network::from_json(j, "t.json", unknown_keys::keep);
    const std::string path = ::testing::TempDir() + "risp_round_trip.json";
    save_tennlab_network(net, path);
    const auto again = load_tennlab_network(path, unknown_keys::keep);
    std::remove(path.c_str());
    EXPECT_EQ(again.to_json(), net.to_json());
    const json out = again.to_json();
    EXPECT_EQ(out["Associated_Data"], j["Associated_Data"]);
    EXPECT_EQ(out["Nodes"][0]["colour"], "red");
    EXPECT_EQ(out["Edges"][0]["note"], json({1, 2}));
    EXPECT_EQ(out["Top_Extra"], j["Top_Extra"]);
    EXPECT_EQ(out["Nodes"][1]["coords"], json({1.5, 2}));
    EXPECT_EQ(out["Edges"][1]["control_point"], json({0.25}));
    EXPECT_EQ(out["Properties"],
              tennlab_network::from_json(j, "t", unknown_keys::keep).properties.to_json());
}

TEST(tennlab_network, unknown_keys_are_rejected_like_the_reference) {
    json j = small_network();
    j["Nodes"][1]["colour"] = "red";
    EXPECT_EQ(reference_message_of(j), "Illegal parameter: colour\n");
    EXPECT_NE(what_of(j).find("t.json: Nodes[1]"), std::string::npos);
}

TEST(tennlab_network, missing_top_level_key_lists_it) {
    json j = small_network();
    j.erase("Network_Values");
    j.erase("Inputs");
    EXPECT_EQ(reference_message_of(j),
              "Missing parameter \"Inputs\"\nMissing parameter \"Network_Values\"\n");
}

TEST(tennlab_network, wrong_key_type_names_the_type) {
    json j = small_network();
    j["Nodes"] = json::object();
    EXPECT_EQ(reference_message_of(j), "Parameter Nodes: must be a json array.\n");
}

TEST(tennlab_network, node_errors_name_the_node) {
    json j = small_network();
    j["Nodes"][2]["id"] = 0;
    EXPECT_EQ(reference_message_of(j), "Node 0 already exists at specified index.");
    j = small_network();
    j["Nodes"][1]["id"] = 1.0;
    j["Nodes"][1]["values"] = {1, 2};
    EXPECT_EQ(reference_message_of(j),
              "Error in the network JSON: Node 1.0's value array's size does not match the node "
              "PropertyPack");
    EXPECT_NE(what_of(j).find("node 1.0"), std::string::npos);
}

TEST(tennlab_network, edge_errors_name_the_edge) {
    json j = small_network();
    j["Edges"][1]["from"] = 0;
    EXPECT_EQ(reference_message_of(j), "Edge 0 -> 2 already exists.");
    j = small_network();
    j["Edges"][1]["to"] = 9;
    EXPECT_EQ(reference_message_of(j), "Unable to get node 1 and/or 9");
    j = small_network();
    j["Edges"][0]["values"] = {1};
    EXPECT_EQ(reference_message_of(j),
              "Error in the network JSON: Edge 0->2's value array's size does not match the edge "
              "PropertyPack");
}

TEST(tennlab_network, input_and_output_errors) {
    json j = small_network();
    j["Inputs"] = {0, -1};
    EXPECT_EQ(reference_message_of(j), "Bad Network JSON - Input[1] is < 0.");
    j["Inputs"] = {0, 7};
    EXPECT_EQ(reference_message_of(j), "Node 7 does not exist.");
    j["Inputs"] = {1, 0, 1};
    EXPECT_EQ(reference_message_of(j), "Node 1 was already set as an input (0).");
    j = small_network();
    j["Outputs"] = {2, 2};
    EXPECT_EQ(reference_message_of(j), "Node 2 was already set as an output (0).");
}

TEST(tennlab_network, property_pack_errors) {
    json j = small_network();
    j["Properties"]["edge_properties"][1]["index"] = 2;
    EXPECT_EQ(reference_message_of(j),
              "Property Pack: non-matching index in edge json:\n"
              R"({"index":2,"max_value":3.0,"min_value":1.0,"name":"Delay","size":1,"type":73})");
    j = small_network();
    j["Properties"]["node_properties"][0]["type"] = 70;
    EXPECT_EQ(reference_message_of(j).substr(0, 58),
              "Bad Property JSON - Type must be D (68), I (73) or B (66).");
    j = small_network();
    j["Properties"]["node_properties"][0]["size"] = 0;
    EXPECT_EQ(reference_message_of(j), "Count must be > 0.\n");
    j = small_network();
    j["Network_Values"] = {1};
    EXPECT_EQ(reference_message_of(j),
              "Error in network JSON: Network_Value's array's size doesn't match the network "
              "Propery Pack");
}

TEST(tennlab_network, malformed_and_missing_files) {
    const std::string path = ::testing::TempDir() + "risp_bad.json";
    std::ofstream(path) << "{ \"Nodes\": [ 1, ";
    EXPECT_THROW(load_tennlab_network(path), tennlab_error);
    std::remove(path.c_str());
    EXPECT_THROW(load_tennlab_network(path), volley::io_error);
}
