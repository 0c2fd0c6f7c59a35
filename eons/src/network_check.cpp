// The structural checks of EONS networks and templates (docs/eons.md, "Invariants").

#include <volley/eons/operators.hpp>

#include <volley/error.hpp>

#include <cmath>
#include <set>
#include <string>

namespace volley::eons {

namespace {

constexpr double max_exact_integer = 9007199254740992.0;  // 2^53

/// The shortest text that reads back as `v`, without a trailing ".0" ("2", "0.1").
std::string text(double v) {
    std::string s = nlohmann::json(v).dump();
    if (s.size() > 2 && s.compare(s.size() - 2, 2, ".0") == 0) s.resize(s.size() - 2);
    return s;
}

std::string bounds_text(const hw::property& p) {
    std::string s = "[";  // appended, not "[" + ...: GCC 12 warns falsely (-Wrestrict) on that
    s += text(p.min_value);
    s += ", ";
    s += text(p.max_value);
    s += "]";
    return s;
}

/// Why `v` is not a valid value of `p`, or "".
std::string value_problem(const hw::property& p, double v) {
    if (!std::isfinite(v)) return "not finite";
    if (v < p.min_value || v > p.max_value) return "outside " + bounds_text(p);
    if (p.type == hw::property_type::integer && std::trunc(v) != v) return "not an integer";
    if (p.type == hw::property_type::boolean && v != 0 && v != 1) return "not 0 or 1";
    return "";
}

void check_values(const std::vector<hw::property>& list, int slots,
                  const std::vector<double>& values, const std::string& object,
                  const std::string& what) {
    if (static_cast<int>(values.size()) != slots)
        throw invalid_parameter(object, what + " values",
                                std::to_string(values.size()) + " entries",
                                "the property pack has " + std::to_string(slots) + " slots");
    for (const auto& p : list)
        for (int s = 0; s < p.size; ++s) {
            const double v = values[static_cast<std::size_t>(p.index + s)];
            const std::string why = value_problem(p, v);
            if (!why.empty())
                throw invalid_parameter(object, what + " " + p.name + "[" + std::to_string(s) + "]",
                                        text(v), why);
        }
}

void check_drawable(const std::vector<hw::property>& list, const std::string& source,
                    const std::string& category) {
    for (const auto& p : list) {
        const std::string key = category + " property " + p.name;
        if (!std::isfinite(p.min_value) || !std::isfinite(p.max_value) || p.min_value > p.max_value)
            throw invalid_parameter(source, key, bounds_text(p), "needs finite bounds, min <= max");
        double lo = std::ceil(p.min_value), hi = std::floor(p.max_value);
        if (p.type == hw::property_type::boolean) lo = std::max(lo, 0.0), hi = std::min(hi, 1.0);
        if (p.type != hw::property_type::real) {
            if (lo > hi)
                throw invalid_parameter(source, key, bounds_text(p),
                                        "holds no allowed value of its type");
            if (std::fabs(lo) > max_exact_integer || std::fabs(hi) > max_exact_integer)
                throw invalid_parameter(source, key, bounds_text(p), "bounds beyond 2^53");
        }
    }
}

}  // namespace

void check_template(const network_template& shape, const eons_config& config,
                    const std::string& source) {
    if (shape.inputs < 0)
        throw invalid_parameter(source, "inputs", std::to_string(shape.inputs), "must be >= 0");
    if (shape.outputs < 0)
        throw invalid_parameter(source, "outputs", std::to_string(shape.outputs), "must be >= 0");
    const long long io = static_cast<long long>(shape.inputs) + shape.outputs;
    if (io < 1) throw invalid_parameter(source, "inputs + outputs", "0", "must be >= 1");
    if (io + config.starting_nodes > config.max_nodes)
        throw invalid_parameter(source, "max_nodes", std::to_string(config.max_nodes),
                                "below inputs + outputs + starting_nodes (" +
                                    std::to_string(io + config.starting_nodes) + ")");
    check_drawable(shape.properties.node, source, "node");
    check_drawable(shape.properties.edge, source, "edge");
    const nlohmann::json& nv = shape.network_values;
    const int slots = shape.properties.network_slots();
    if (nv.is_null() || (nv.is_array() && nv.empty())) {
        if (slots != 0)
            throw invalid_parameter(
                source, "network_values", "[]",
                "the property pack has " + std::to_string(slots) + " network slots");
        return;
    }
    if (!nv.is_array())
        throw invalid_parameter(source, "network_values", nv.dump(), "must be an array");
    std::vector<double> values;
    for (const auto& v : nv) {
        if (!v.is_number())
            throw invalid_parameter(source, "network_values", nv.dump(), "must hold numbers");
        values.push_back(v.get<double>());
    }
    check_values(shape.properties.network, slots, values, source, "network");
}

void check_network(const hw::tennlab_network& net, const network_template& shape,
                   const eons_config& config, const std::string& object) {
    if (!net.properties.matches(shape.properties))
        throw invalid_parameter(object, "Properties", net.properties.to_json().dump(),
                                "do not match the template's property pack");
    check_values(shape.properties.network, shape.properties.network_slots(), net.network_values,
                 object, "network");
    const auto io = static_cast<hw::node_id>(shape.inputs + shape.outputs);
    const auto list_text = [](const std::vector<hw::node_id>& ids) {
        return nlohmann::json(ids).dump();
    };
    bool io_ok = net.inputs.size() == static_cast<std::size_t>(shape.inputs) &&
                 net.outputs.size() == static_cast<std::size_t>(shape.outputs);
    for (std::size_t i = 0; io_ok && i < net.inputs.size(); ++i) io_ok = net.inputs[i] == i;
    for (std::size_t i = 0; io_ok && i < net.outputs.size(); ++i)
        io_ok = net.outputs[i] == shape.inputs + i;
    if (!io_ok)
        throw invalid_parameter(object, "Inputs/Outputs",
                                list_text(net.inputs) + "/" + list_text(net.outputs),
                                "must be ids 0.." + std::to_string(shape.inputs - 1) + " then " +
                                    std::to_string(shape.inputs) + ".." + std::to_string(io - 1));
    if (net.nodes.size() > static_cast<std::size_t>(config.max_nodes))
        throw invalid_parameter(object, "nodes", std::to_string(net.nodes.size()),
                                "more than max_nodes (" + std::to_string(config.max_nodes) + ")");
    std::set<hw::node_id> ids;
    const int node_slots = shape.properties.node_slots();
    for (const auto& n : net.nodes) {
        const std::string name = "node " + std::to_string(n.id);
        if (!ids.insert(n.id).second)
            throw invalid_parameter(object, name, std::to_string(n.id), "id is repeated");
        check_values(shape.properties.node, node_slots, n.values, object, name);
    }
    for (hw::node_id id = 0; id < io; ++id)
        if (ids.count(id) == 0)
            throw invalid_parameter(object, "node " + std::to_string(id), "missing",
                                    "input and output nodes must exist");
    std::set<std::pair<hw::node_id, hw::node_id>> pairs;
    const int edge_slots = shape.properties.edge_slots();
    for (const auto& e : net.edges) {
        const std::string name = "edge " + std::to_string(e.from) + " -> " + std::to_string(e.to);
        if (ids.count(e.from) == 0 || ids.count(e.to) == 0)
            throw invalid_parameter(object, name, "dangling", "an endpoint is not a node");
        if (!pairs.insert({e.from, e.to}).second)
            throw invalid_parameter(object, name, "twice", "the pair is repeated");
        if (e.from == e.to && !config.self_edges)
            throw invalid_parameter(object, name, "self-edge", "self_edges is false");
        check_values(shape.properties.edge, edge_slots, e.values, object, name);
    }
}

}  // namespace volley::eons
