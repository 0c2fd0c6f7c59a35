#pragma once
// Shared pieces of the EONS tests: RISP processors, templates, an independent invariant check
// and a RISP fitness ("output j fires once per spike on input j").

#include <volley/eons/evolution.hpp>
#include <volley/hw/risp_processor.hpp>

#include <gtest/gtest.h>

#include <cmath>
#include <cstdlib>
#include <set>
#include <string>

namespace eons_test {

/// A real-valued RISP: Threshold and Weight real, Delay integer.
inline nlohmann::json real_risp() {
    return {{"min_weight", -1}, {"max_weight", 1},   {"min_threshold", 0}, {"max_threshold", 1},
            {"max_delay", 5},   {"discrete", false}, {"min_potential", -1}};
}

/// A discrete RISP with the configurable leak: integer Threshold, Weight, Delay and a boolean Leak.
inline nlohmann::json discrete_risp() {
    return {{"min_weight", -8},    {"max_weight", 8},
            {"min_threshold", 0},  {"max_threshold", 7},
            {"max_delay", 15},     {"discrete", true},
            {"min_potential", -4}, {"leak_mode", "configurable"}};
}

inline volley::eons::network_template shape_of(const nlohmann::json& proc_params, int inputs,
                                               int outputs) {
    volley::eons::network_template t;
    t.properties = volley::hw::risp_processor(proc_params).network_properties();
    t.inputs = inputs;
    t.outputs = outputs;
    return t;
}

/// Checks every EONS invariant with code independent of the library's own check.
inline void expect_valid(const volley::hw::tennlab_network& net,
                         const volley::eons::network_template& shape, int max_nodes,
                         bool self_edges, const std::string& what) {
    SCOPED_TRACE(what);
    ASSERT_EQ(net.inputs.size(), static_cast<std::size_t>(shape.inputs));
    ASSERT_EQ(net.outputs.size(), static_cast<std::size_t>(shape.outputs));
    for (int i = 0; i < shape.inputs; ++i) EXPECT_EQ(net.inputs[i], static_cast<unsigned>(i));
    for (int i = 0; i < shape.outputs; ++i)
        EXPECT_EQ(net.outputs[i], static_cast<unsigned>(shape.inputs + i));
    EXPECT_LE(net.nodes.size(), static_cast<std::size_t>(max_nodes));
    std::set<unsigned> ids;
    const auto check_values = [](const std::vector<volley::hw::property>& list,
                                 const std::vector<double>& v, int slots) {
        ASSERT_EQ(v.size(), static_cast<std::size_t>(slots));
        for (const auto& p : list)
            for (int s = 0; s < p.size; ++s) {
                const double x = v[static_cast<std::size_t>(p.index + s)];
                EXPECT_GE(x, p.min_value) << p.name;
                EXPECT_LE(x, p.max_value) << p.name;
                if (p.type != volley::hw::property_type::real) {
                    EXPECT_EQ(std::floor(x), x) << p.name;
                }
                if (p.type == volley::hw::property_type::boolean) {
                    EXPECT_TRUE(x == 0 || x == 1) << p.name;
                }
            }
    };
    for (const auto& n : net.nodes) {
        EXPECT_TRUE(ids.insert(n.id).second) << "repeated node " << n.id;
        check_values(shape.properties.node, n.values, shape.properties.node_slots());
    }
    for (int i = 0; i < shape.inputs + shape.outputs; ++i)
        EXPECT_EQ(ids.count(static_cast<unsigned>(i)), 1u) << "missing io node " << i;
    std::set<std::pair<unsigned, unsigned>> pairs;
    for (const auto& e : net.edges) {
        EXPECT_EQ(ids.count(e.from), 1u) << "dangling edge from " << e.from;
        EXPECT_EQ(ids.count(e.to), 1u) << "dangling edge to " << e.to;
        EXPECT_TRUE(pairs.insert({e.from, e.to}).second) << "repeated edge";
        if (!self_edges) {
            EXPECT_NE(e.from, e.to);
        }
        check_values(shape.properties.edge, e.values, shape.properties.edge_slots());
    }
}

/// Output j must fire exactly once per spike applied to input j (inputs = outputs = 2), on
/// four trials: one case per trial, minus its count error (0 is the optimum).
inline std::vector<double> copy_task_cases(const volley::hw::tennlab_network& net) {
    volley::hw::risp_processor proc(real_risp());
    proc.load_network(net);
    const std::vector<std::vector<int>> trials = {{1, 0}, {0, 2}, {3, 1}, {2, 3}};
    std::vector<double> cases;
    for (const auto& counts : trials) {
        proc.clear_activity();
        for (int j = 0; j < 2; ++j)
            for (int k = 0; k < counts[static_cast<std::size_t>(j)]; ++k)
                proc.apply_spike({static_cast<volley::hw::node_id>(j), 10.0 * k, 1.0});
        proc.run(40);
        double error = 0;
        for (int j = 0; j < 2; ++j) error += std::abs(proc.output_count(j) - counts[static_cast<std::size_t>(j)]);
        cases.push_back(-error);
    }
    return cases;
}

/// The copy task's fitness: minus the total count error of its four trials.
inline double copy_task_fitness(const volley::hw::tennlab_network& net) {
    double sum = 0;
    for (const double c : copy_task_cases(net)) sum += c;
    return sum;
}

/// A state's JSON without wall times (the only part that differs from run to run).
inline std::string dump_without_seconds(const volley::eons::evolution_state& s) {
    nlohmann::json j = s.to_json();
    for (auto& r : j["history"]) r.erase("seconds");
    return j.dump();
}

}  // namespace eons_test
