// eons_config: defaults, validation and JSON (docs/eons.md, "Configuration").

#include <volley/eons/evolution.hpp>

#include <volley/error.hpp>

#include <cmath>
#include <limits>
#include <string>

namespace volley::eons {

namespace {

/// The shortest text that reads back as `v`, without a trailing ".0" ("2", "0.1").
std::string text(double v) {
    std::string s = nlohmann::json(v).dump();
    if (s.size() > 2 && s.compare(s.size() - 2, 2, ".0") == 0) s.resize(s.size() - 2);
    return s;
}

void check_int(const std::string& source, const char* key, int v, int lo, const std::string& why) {
    if (v < lo) throw invalid_parameter(source, key, std::to_string(v), why);
}

void check_probability(const std::string& source, const char* key, double v) {
    if (!(v >= 0 && v <= 1)) throw invalid_parameter(source, key, text(v), "must be in [0, 1]");
}

void check_rate(const std::string& source, const char* key, double v) {
    if (!(v >= 0 && std::isfinite(v)))
        throw invalid_parameter(source, key, text(v), "must be a finite number >= 0");
}

/// A JSON integer (or an integral number) that fits an int.
int read_int(const nlohmann::json& v, const std::string& source, const std::string& key) {
    if (v.is_number_integer()) {
        const auto i = v.get<std::int64_t>();
        if (i >= std::numeric_limits<int>::min() && i <= std::numeric_limits<int>::max())
            return static_cast<int>(i);
    } else if (v.is_number_float()) {
        const double d = v.get<double>();
        if (std::trunc(d) == d && std::fabs(d) <= std::numeric_limits<int>::max())
            return static_cast<int>(d);
    }
    throw invalid_parameter(source, key, v.dump(), "must be an integer");
}

double read_double(const nlohmann::json& v, const std::string& source, const std::string& key) {
    if (!v.is_number()) throw invalid_parameter(source, key, v.dump(), "must be a number");
    return v.get<double>();
}

bool read_bool(const nlohmann::json& v, const std::string& source, const std::string& key) {
    if (!v.is_boolean()) throw invalid_parameter(source, key, v.dump(), "must be true or false");
    return v.get<bool>();
}

}  // namespace

void eons_config::validate(const std::string& source) const {
    check_int(source, "population", population, 2, "must be >= 2");
    check_int(source, "num_best", num_best, 0, "must be >= 0");
    if (num_best >= population)
        throw invalid_parameter(source, "num_best", std::to_string(num_best),
                                "must be below population (" + std::to_string(population) + ")");
    check_int(source, "tournament_size", tournament_size, 1, "must be >= 1");
    check_probability(source, "random_fraction", random_fraction);
    check_probability(source, "crossover_rate", crossover_rate);
    check_probability(source, "merge_rate", merge_rate);
    if (crossover_rate + merge_rate > 1)
        throw invalid_parameter(source, "merge_rate", text(merge_rate),
                                "crossover_rate + merge_rate must be <= 1 (crossover_rate = " +
                                    text(crossover_rate) + ")");
    check_probability(source, "mutation_rate", mutation_rate);
    check_int(source, "max_mutations", max_mutations, 1, "must be >= 1");
    const std::pair<const char*, double> rates[] = {
        {"add_node_rate", add_node_rate},     {"delete_node_rate", delete_node_rate},
        {"add_edge_rate", add_edge_rate},     {"delete_edge_rate", delete_edge_rate},
        {"node_param_rate", node_param_rate}, {"edge_param_rate", edge_param_rate}};
    double total = 0;
    for (const auto& [key, v] : rates) {
        check_rate(source, key, v);
        total += v;
    }
    if (mutation_rate > 0 && total == 0)
        throw invalid_parameter(source, "mutation_rate", text(mutation_rate),
                                "is > 0 but every mutation operator rate is 0");
    check_int(source, "starting_nodes", starting_nodes, 0, "must be >= 0");
    check_int(source, "starting_edges", starting_edges, 0, "must be >= 0");
    check_int(source, "max_nodes", max_nodes, 1, "must be >= 1");
    check_rate(source, "size_penalty", size_penalty);
    check_probability(source, "perturb_rate", perturb_rate);
    if (!(perturb_span > 0 && perturb_span <= 1))
        throw invalid_parameter(source, "perturb_span", text(perturb_span), "must be in (0, 1]");
}

eons_config eons_config::from_json(const nlohmann::json& j, const std::string& source) {
    if (!j.is_object())
        throw invalid_parameter(source, "EONS config", j.dump(), "must be a JSON object");
    eons_config c;
    int* ints[] = {&c.population,     &c.num_best,       &c.tournament_size, &c.max_mutations,
                   &c.starting_nodes, &c.starting_edges, &c.max_nodes};
    const char* int_keys[] = {"population",    "num_best",       "tournament_size",
                              "max_mutations", "starting_nodes", "starting_edges",
                              "max_nodes"};
    double* doubles[] = {&c.random_fraction, &c.crossover_rate,   &c.merge_rate,
                         &c.mutation_rate,   &c.add_node_rate,    &c.delete_node_rate,
                         &c.add_edge_rate,   &c.delete_edge_rate, &c.node_param_rate,
                         &c.edge_param_rate, &c.size_penalty,     &c.perturb_rate,
                         &c.perturb_span};
    const char* double_keys[] = {"random_fraction", "crossover_rate",   "merge_rate",
                                 "mutation_rate",   "add_node_rate",    "delete_node_rate",
                                 "add_edge_rate",   "delete_edge_rate", "node_param_rate",
                                 "edge_param_rate", "size_penalty",     "perturb_rate",
                                 "perturb_span"};
    for (const auto& [key, v] : j.items()) {
        bool found = false;
        for (std::size_t i = 0; i < std::size(int_keys) && !found; ++i)
            if (key == int_keys[i]) *ints[i] = read_int(v, source, key), found = true;
        for (std::size_t i = 0; i < std::size(double_keys) && !found; ++i)
            if (key == double_keys[i]) *doubles[i] = read_double(v, source, key), found = true;
        if (!found && key == "self_edges") c.self_edges = read_bool(v, source, key), found = true;
        if (!found && key == "selection") {
            if (v == "tournament") c.selection = selection_kind::tournament;
            else if (v == "lexicase") c.selection = selection_kind::lexicase;
            else throw invalid_parameter(source, key, v.dump(), "expected \"tournament\" or \"lexicase\"");
            found = true;
        }
        if (!found) throw invalid_parameter(source, key, v.dump(), "unknown EONS parameter");
    }
    c.validate(source);
    return c;
}

nlohmann::json eons_config::to_json() const {
    return {{"population", population},
            {"num_best", num_best},
            {"tournament_size", tournament_size},
            {"random_fraction", random_fraction},
            {"crossover_rate", crossover_rate},
            {"merge_rate", merge_rate},
            {"mutation_rate", mutation_rate},
            {"max_mutations", max_mutations},
            {"add_node_rate", add_node_rate},
            {"delete_node_rate", delete_node_rate},
            {"add_edge_rate", add_edge_rate},
            {"delete_edge_rate", delete_edge_rate},
            {"node_param_rate", node_param_rate},
            {"edge_param_rate", edge_param_rate},
            {"starting_nodes", starting_nodes},
            {"starting_edges", starting_edges},
            {"max_nodes", max_nodes},
            {"size_penalty", size_penalty},
            {"perturb_rate", perturb_rate},
            {"perturb_span", perturb_span},
            {"self_edges", self_edges},
            {"selection", selection == selection_kind::lexicase ? "lexicase" : "tournament"}};
}

}  // namespace volley::eons
