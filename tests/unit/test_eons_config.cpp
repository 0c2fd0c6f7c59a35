// eons_config: defaults, JSON round trip, and errors naming the key and the value.

#include <volley/eons/evolution.hpp>

#include <volley/error.hpp>

#include <gtest/gtest.h>

#include <string>

using volley::eons::eons_config;

namespace {

/// The message of the invalid_parameter that parsing `j` throws (fails the test otherwise).
volley::invalid_parameter parse_error(const nlohmann::json& j) {
    try {
        eons_config::from_json(j, "evolve.json");
    } catch (const volley::invalid_parameter& e) {
        return e;
    }
    ADD_FAILURE() << "no invalid_parameter for " << j.dump();
    return volley::invalid_parameter("", "", "", "");
}

}  // namespace

TEST(EonsConfig, UnknownKeyIsNamedWithItsValue) {
    const auto e = parse_error({{"population", 10}, {"populaton", 12}});
    EXPECT_EQ(e.parameter(), "populaton");
    EXPECT_EQ(e.value(), "12");
    EXPECT_NE(std::string(e.what()).find("evolve.json"), std::string::npos) << e.what();
    EXPECT_NE(std::string(e.what()).find("populaton"), std::string::npos) << e.what();
}

TEST(EonsConfig, AnUnknownSelectionIsNamedWithItsValue) {
    const auto e = parse_error({{"selection", "roulette"}});
    EXPECT_EQ(e.parameter(), "selection");
    EXPECT_EQ(e.value(), "\"roulette\"");
    EXPECT_NE(std::string(e.what()).find("lexicase"), std::string::npos) << e.what();
    EXPECT_EQ(eons_config{}.selection, eons_config::selection_kind::tournament);
}

TEST(EonsConfig, OutOfRangeValuesAreNamedWithTheirValue) {
    struct bad {
        nlohmann::json config;
        std::string key, value;
    };
    const bad cases[] = {
        {{{"population", 1}}, "population", "1"},
        {{{"population", 10}, {"num_best", 10}}, "num_best", "10"},
        {{{"num_best", -1}}, "num_best", "-1"},
        {{{"tournament_size", 0}}, "tournament_size", "0"},
        {{{"random_fraction", 1.5}}, "random_fraction", "1.5"},
        {{{"crossover_rate", -0.25}}, "crossover_rate", "-0.25"},
        {{{"merge_rate", 2}}, "merge_rate", "2"},
        {{{"crossover_rate", 0.75}, {"merge_rate", 0.5}}, "merge_rate", "0.5"},
        {{{"mutation_rate", 1.01}}, "mutation_rate", "1.01"},
        {{{"max_mutations", 0}}, "max_mutations", "0"},
        {{{"add_edge_rate", -1}}, "add_edge_rate", "-1"},
        {{{"edge_param_rate", -0.5}}, "edge_param_rate", "-0.5"},
        {{{"starting_nodes", -2}}, "starting_nodes", "-2"},
        {{{"starting_edges", -1}}, "starting_edges", "-1"},
        {{{"max_nodes", 0}}, "max_nodes", "0"},
        {{{"size_penalty", -0.1}}, "size_penalty", "-0.1"},
        {{{"population", 2.5}}, "population", "2.5"},
        {{{"population", "ten"}}, "population", "\"ten\""},
        {{{"self_edges", 1}}, "self_edges", "1"},
        {{{"mutation_rate", 0.5},
          {"add_node_rate", 0},
          {"delete_node_rate", 0},
          {"add_edge_rate", 0},
          {"delete_edge_rate", 0},
          {"node_param_rate", 0},
          {"edge_param_rate", 0}},
         "mutation_rate",
         "0.5"},
    };
    for (const auto& c : cases) {
        const auto e = parse_error(c.config);
        EXPECT_EQ(e.parameter(), c.key) << c.config.dump();
        EXPECT_EQ(e.value(), c.value) << c.config.dump();
        const std::string what = e.what();
        EXPECT_NE(what.find(c.key + " = " + c.value), std::string::npos) << what;
    }
    EXPECT_THROW(eons_config::from_json(nlohmann::json::array(), "x.json"),
                 volley::invalid_parameter);
}

TEST(EonsConfig, DefaultsAreTheDocumentedOnes) {
    const nlohmann::json expected = {
        {"population", 100},       {"num_best", 4},          {"tournament_size", 3},
        {"random_fraction", 0.05}, {"crossover_rate", 0.5},  {"merge_rate", 0.0},
        {"mutation_rate", 0.9},    {"max_mutations", 3},     {"add_node_rate", 1.0},
        {"delete_node_rate", 1.0}, {"add_edge_rate", 2.0},   {"delete_edge_rate", 1.0},
        {"node_param_rate", 2.0},  {"edge_param_rate", 3.0}, {"starting_nodes", 0},
        {"starting_edges", 0},     {"max_nodes", 64},        {"size_penalty", 0.0},
        {"self_edges", true},      {"perturb_rate", 0.0},    {"perturb_span", 0.1},
        {"selection", "tournament"}};
    EXPECT_EQ(eons_config{}.to_json(), expected);
    EXPECT_EQ(eons_config::from_json(nlohmann::json::object(), "empty").to_json(), expected);
}

TEST(EonsConfig, EveryKeyRoundTrips) {
    const nlohmann::json j = {
        {"population", 17},         {"num_best", 2},          {"tournament_size", 5},
        {"random_fraction", 0.125}, {"crossover_rate", 0.3},  {"merge_rate", 0.2},
        {"mutation_rate", 0.7},     {"max_mutations", 4},     {"add_node_rate", 1.5},
        {"delete_node_rate", 0.5},  {"add_edge_rate", 2.5},   {"delete_edge_rate", 0.25},
        {"node_param_rate", 3.0},   {"edge_param_rate", 0.1}, {"starting_nodes", 3},
        {"starting_edges", 9},      {"max_nodes", 20},        {"size_penalty", 0.01},
        {"self_edges", false},      {"perturb_rate", 0.25},   {"perturb_span", 0.5},
        {"selection", "lexicase"}};
    const eons_config c = eons_config::from_json(j, "full.json");
    EXPECT_EQ(c.selection, eons_config::selection_kind::lexicase);
    EXPECT_EQ(c.population, 17);
    EXPECT_EQ(c.random_fraction, 0.125);
    EXPECT_EQ(c.edge_param_rate, 0.1);
    EXPECT_FALSE(c.self_edges);
    EXPECT_EQ(c.to_json(), j);
    EXPECT_EQ(eons_config::from_json(nlohmann::json::parse(c.to_json().dump()), "again").to_json(),
              j);
}
