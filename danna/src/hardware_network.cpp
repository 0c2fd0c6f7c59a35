#include <volley/danna/hardware_network.hpp>

#include <volley/error.hpp>
#include <volley/json_integer.hpp>

#include <cmath>
#include <map>
#include <set>
#include <utility>

namespace volley::danna {

std::optional<std::size_t> hardware_network::find(node_id id) const {
    for (std::size_t i = 0; i < neurons.size(); ++i)
        if (neurons[i].id == id) return i;
    return std::nullopt;
}

namespace {

void check_range(const std::string& object, const char* parameter, long long value, long long lo,
                 long long hi) {
    if (value < lo || value > hi)
        throw invalid_parameter(
            object, parameter, std::to_string(value),
            "must be in [" + std::to_string(lo) + ", " + std::to_string(hi) + "]");
}

std::string edge_name(const std::string& where, node_id from, node_id to) {
    return where + ": edge " + std::to_string(from) + " -> " + std::to_string(to);
}

}  // namespace

void hardware_network::validate(const network_limits& limits, const std::string& where) const {
    std::set<node_id> ids;
    std::set<std::pair<int, int>> positions;
    for (const auto& n : neurons) {
        const std::string object = where + ": node " + std::to_string(n.id);
        if (!ids.insert(n.id).second)
            throw invalid_parameter(object, "id", std::to_string(n.id), "is used twice");
        check_range(object, "threshold", n.threshold, limits.min_threshold, limits.max_threshold);
        check_range(object, "refractory", n.refractory, 0, limits.max_refractory);
        if (n.position && !positions.insert({n.position->x, n.position->y}).second)
            throw invalid_parameter(
                object, "position",
                std::to_string(n.position->x) + " " + std::to_string(n.position->y),
                "two neurons share this cell");
    }
    std::set<std::pair<node_id, node_id>> pairs;
    for (const auto& s : synapses) {
        const std::string object = edge_name(where, s.from, s.to);
        if (ids.count(s.from) == 0 || ids.count(s.to) == 0)
            throw invalid_parameter(object, "endpoint",
                                    std::to_string(ids.count(s.from) ? s.to : s.from),
                                    "no such node");
        if (!pairs.insert({s.from, s.to}).second)
            throw invalid_parameter(object, "edge", "duplicate", "parallel edges are not allowed");
        check_range(object, "weight", s.weight, limits.min_weight, limits.max_weight);
        check_range(object, "delay", s.delay, 1, limits.max_delay);
    }
    for (const auto* list : {&inputs, &outputs}) {
        std::set<node_id> seen;
        for (node_id id : *list) {
            const char* role = list == &inputs ? "input" : "output";
            if (ids.count(id) == 0)
                throw invalid_parameter(where, role, std::to_string(id), "no such node");
            if (!seen.insert(id).second)
                throw invalid_parameter(where, role, std::to_string(id), "listed twice");
        }
    }
}

namespace {

int integer_value(double v, const std::string& object, const char* name) {
    if (!std::isfinite(v) || std::trunc(v) != v || std::fabs(v) > 1.0e9)
        throw invalid_parameter(object, name, std::to_string(v), "must be an integer");
    return static_cast<int>(v);
}

const hw::property* required(const hw::property* p, const char* category, const char* name) {
    if (p == nullptr)
        throw invalid_parameter("network properties", std::string(category) + " property", name,
                                "is required by the DANNA models");
    return p;
}

}  // namespace

hardware_network from_tennlab(const hw::tennlab_network& net, int default_refractory) {
    const auto& pack = net.properties;
    const auto* threshold =
        required(pack.find_node(property_names::threshold), "node", property_names::threshold);
    const auto* refractory = pack.find_node(property_names::refractory);
    const auto* weight =
        required(pack.find_edge(property_names::weight), "edge", property_names::weight);
    const auto* delay =
        required(pack.find_edge(property_names::delay), "edge", property_names::delay);
    const auto* learning = pack.find_edge(property_names::learning);

    hardware_network out;
    out.neurons.reserve(net.nodes.size());
    for (const auto& n : net.nodes) {
        const std::string object = "node " + std::to_string(n.id);
        hw_neuron h;
        h.id = n.id;
        h.name = n.name;
        h.threshold = integer_value(n.values.at(static_cast<std::size_t>(threshold->index)), object,
                                    property_names::threshold);
        h.refractory = refractory
                           ? integer_value(n.values.at(static_cast<std::size_t>(refractory->index)),
                                           object, property_names::refractory)
                           : default_refractory;
        // Coordinates are a placement hint: TENNLab files also carry fractional drawing
        // coordinates there, which are not grid cells and are left to the placer.
        if (n.coords.is_array() && n.coords.size() == 2) {
            const auto x = json_integer<int>(n.coords[0]), y = json_integer<int>(n.coords[1]);
            if (x && y) h.position = cell{*x, *y};
        }
        out.neurons.push_back(std::move(h));
    }
    out.synapses.reserve(net.edges.size());
    for (const auto& e : net.edges) {
        const std::string object = "edge " + std::to_string(e.from) + " -> " + std::to_string(e.to);
        hw_synapse s;
        s.from = e.from;
        s.to = e.to;
        s.weight = integer_value(e.values.at(static_cast<std::size_t>(weight->index)), object,
                                 property_names::weight);
        s.delay = integer_value(e.values.at(static_cast<std::size_t>(delay->index)), object,
                                property_names::delay);
        s.learning = learning && e.values.at(static_cast<std::size_t>(learning->index)) != 0;
        out.synapses.push_back(s);
    }
    out.inputs = net.inputs;
    out.outputs = net.outputs;
    return out;
}

hw::tennlab_network to_tennlab(const hardware_network& net, const hw::property_pack& pack,
                               const nlohmann::json& associated_data) {
    hw::tennlab_network out;
    out.properties = pack;
    out.associated_data = associated_data;
    const auto slot = [](const hw::property* p) { return static_cast<std::size_t>(p->index); };
    const auto* threshold = pack.find_node(property_names::threshold);
    const auto* refractory = pack.find_node(property_names::refractory);
    const auto* weight = pack.find_edge(property_names::weight);
    const auto* delay = pack.find_edge(property_names::delay);
    const auto* learning = pack.find_edge(property_names::learning);
    if (!threshold || !weight || !delay)
        throw invalid_parameter("to_tennlab", "property pack", "",
                                "needs Threshold, Weight, Delay");
    for (const auto& n : net.neurons) {
        hw::tennlab_node t;
        t.id = n.id;
        t.id_text = std::to_string(n.id);
        t.name = n.name;
        t.values.assign(static_cast<std::size_t>(pack.node_slots()), 0.0);
        t.values[slot(threshold)] = n.threshold;
        if (refractory) t.values[slot(refractory)] = n.refractory;
        if (n.position) t.coords = nlohmann::json::array({n.position->x, n.position->y});
        out.nodes.push_back(std::move(t));
    }
    for (const auto& s : net.synapses) {
        hw::tennlab_edge e;
        e.from = s.from;
        e.to = s.to;
        e.values.assign(static_cast<std::size_t>(pack.edge_slots()), 0.0);
        e.values[slot(weight)] = s.weight;
        e.values[slot(delay)] = s.delay;
        if (learning) e.values[slot(learning)] = s.learning ? 1 : 0;
        out.edges.push_back(std::move(e));
    }
    out.inputs = net.inputs;
    out.outputs = net.outputs;
    return out;
}

}  // namespace volley::danna
