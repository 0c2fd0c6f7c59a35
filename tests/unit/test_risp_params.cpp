// RISP parameters: the reference's validation order and messages, the echo and the pack.

#include <volley/hw/risp_params.hpp>
#include <volley/hw/tennlab_error.hpp>
#include <volley/hw/tennlab_json.hpp>

#include <gtest/gtest.h>

using namespace volley::hw;
using nlohmann::json;

namespace {

json base() {
    return {{"discrete", true},   {"max_delay", 5},         {"min_threshold", 0},
            {"max_threshold", 3}, {"min_potential", -2},    {"min_weight", -3},
            {"max_weight", 3},    {"spike_value_factor", 3}};
}

std::string message(const json& j) {
    try {
        risp_params::from_json(j);
    } catch (const tennlab_error& e) {
        return e.reference_message();
    }
    return "(no error)";
}

}  // namespace

TEST(risp_params, accepts_a_minimal_set_with_defaults) {
    const auto p = risp_params::from_json(base());
    EXPECT_TRUE(p.discrete);
    EXPECT_EQ(p.max_delay, 5u);
    EXPECT_EQ(p.leak, leak_mode::none);
    EXPECT_TRUE(p.threshold_inclusive);
    EXPECT_FALSE(p.run_time_inclusive);
    EXPECT_FALSE(p.fire_like_ravens);
    EXPECT_EQ(p.spike_value_factor, 3);
    EXPECT_TRUE(p.warnings.empty());
}

TEST(risp_params, unknown_key_is_rejected_in_sorted_order) {
    json j = base();
    j["zz_unknown"] = 1;
    j["log"] = true;
    EXPECT_EQ(message(j), "Illegal parameter: log\n");
}

TEST(risp_params, wrong_types_are_named) {
    json j = base();
    j["discrete"] = 1;
    EXPECT_EQ(message(j), "Parameter discrete: must be a boolean.\n");
    j = base();
    j["leak_mode"] = 3;
    EXPECT_EQ(message(j), "Parameter leak_mode: must be a string.\n");
    j = base();
    j["max_delay"] = 2.7;
    EXPECT_EQ(risp_params::from_json(j).max_delay, 2u);
}

TEST(risp_params, missing_required_keys_are_listed_together_in_order) {
    json j = base();
    j.erase("discrete");
    j.erase("max_delay");
    EXPECT_EQ(message(j), "Missing parameter \"max_delay\"\nMissing parameter \"discrete\"\n");
}

TEST(risp_params, retired_keys_come_first) {
    json j = base();
    j["input_scaling_value"] = 1;
    j["bogus"] = 1;
    EXPECT_EQ(message(j),
              "RISP: input_scaling_value is no longer supported.\n"
              "      Please change that parameter to spike_value_factor.\n");
}

TEST(risp_params, weight_table_rules) {
    json j = base();
    j.erase("min_weight");
    j.erase("max_weight");
    j.erase("spike_value_factor");
    j["weights"] = {-2, 1, 3};
    EXPECT_EQ(message(j),
              "RISP: If you specify weights, then you must specify inputs_from_weights.");
    j["inputs_from_weights"] = false;
    EXPECT_EQ(message(j),
              "RISP: If inputs_from_weights is false, you must specify spike_value_factor.");
    j["inputs_from_weights"] = true;
    EXPECT_EQ(message(j), "(no error)");
    j["weights"] = {-2, 3, 1};
    EXPECT_EQ(message(j), "RISP: If you specify weights, then they must be sorted.\n");
    j["weights"] = {-2, 1.5, 3};
    EXPECT_EQ(message(j), "RISP: Since discrete is true, weights must be integers.\n");
    j["weights"] = {-2.5, 1, 3};
    EXPECT_EQ(message(j), "When discrete = true, all weights must be integers.");
    j["weights"] = {-2, 1, 3};
    j["min_weight"] = 0;
    EXPECT_EQ(message(j), "RISP: Cannot have weights and min_weight.");
}

TEST(risp_params, inputs_from_weights_without_weights_is_rejected) {
    json j = base();
    j["inputs_from_weights"] = true;
    EXPECT_EQ(message(j),
              "RISP: If you don't specify weights, you cannot specify inputs_from_weights.");
    j = base();
    j.erase("max_weight");
    EXPECT_EQ(message(j), "RISP: Need parameter max_weight.");
}

TEST(risp_params, value_checks) {
    json j = base();
    j["leak_mode"] = "some";
    EXPECT_EQ(message(j),
              "Reading processor json - bad leak_mode.  Must be all, none or configurable");
    j = base();
    j["min_threshold"] = 0.5;
    EXPECT_EQ(message(j), "When discrete = true, min_threshold must be an integer.");
    j = base();
    j["min_potential"] = 1;
    EXPECT_EQ(message(j), "Reading processor json - min_potential must be <= 0");
    j = base();
    j["noisy_stddev"] = 0.1;
    EXPECT_EQ(message(j), "Cannot specify noisy_stddev and discrete = true.");
}

TEST(risp_params, default_spike_value_factor_warns_like_the_reference) {
    json j = base();
    j.erase("spike_value_factor");
    j["max_weight"] = 2;
    const auto p = risp_params::from_json(j);
    EXPECT_EQ(p.spike_value_factor, 2);
    ASSERT_EQ(p.warnings.size(), 2u);
    EXPECT_EQ(p.warnings[0], "Warning: max_weight <= max_threshold and spike_value_factor unset.");
    EXPECT_EQ(p.warnings[1], "Spike_value_factor set to 2.");
}

TEST(risp_params, echo_and_property_pack) {
    json j = base();
    j["leak_mode"] = "configurable";
    const auto p = risp_params::from_json(j);
    EXPECT_EQ(compact_json(p.to_json()),
              R"({"discrete":true,"fire_like_ravens":false,"leak_mode":"configurable",)"
              R"("max_delay":5,"max_threshold":3.0,"max_weight":3.0,"min_potential":-2.0,)"
              R"("min_threshold":0.0,"min_weight":-3.0,"run_time_inclusive":false,)"
              R"("spike_value_factor":3.0,"threshold_inclusive":true})");
    const property_pack pack = p.network_properties();
    ASSERT_EQ(pack.node.size(), 2u);
    EXPECT_EQ(pack.node[1].name, "Leak");
    EXPECT_EQ(pack.edge[1].max_value, 5);
    EXPECT_EQ(pack.pretty_text(),
              "{ \"node_properties\": [\n"
              "    { \"name\":\"Leak\", \"type\":66, \"index\":1, \"size\":1, \"min_value\":0.0, "
              "\"max_value\":1.0 },\n"
              "    { \"name\":\"Threshold\", \"type\":73, \"index\":0, \"size\":1, "
              "\"min_value\":0.0, \"max_value\":3.0 }],\n"
              "  \"edge_properties\": [\n"
              "    { \"name\":\"Delay\", \"type\":73, \"index\":1, \"size\":1, \"min_value\":1.0, "
              "\"max_value\":5.0 },\n"
              "    { \"name\":\"Weight\", \"type\":73, \"index\":0, \"size\":1, "
              "\"min_value\":-3.0, \"max_value\":3.0 }],\n"
              "  \"network_properties\": [] }");
}
