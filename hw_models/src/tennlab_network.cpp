#include <volley/hw/tennlab_error.hpp>
#include <volley/hw/tennlab_network.hpp>
#include <volley/json_text.hpp>
#include <volley/text_file.hpp>

#include "json_key_check.hpp"

#include <cerrno>
#include <cmath>
#include <cstdio>
#include <cstring>
#include <fstream>
#include <ios>
#include <map>
#include <set>
#include <sstream>

namespace volley::hw {

namespace {

using detail::json_kind;

std::string fmt_u(node_id v) {
    return std::to_string(v);
}

/// A JSON number that must be a node id (an integer in [0, 2^32)).
node_id to_node_id(const nlohmann::json& v, const std::string& object, const std::string& key) {
    const double d = v.get<double>();
    if (!(d >= 0 && d <= 4294967295.0) || std::trunc(d) != d)
        throw tennlab_error(
            object, key + " = " + v.dump() + ": not a node id (an integer in [0, 2^32))", "");
    return static_cast<node_id>(d);
}

std::vector<double> to_values(const nlohmann::json& arr, const std::string& object,
                              const std::string& key) {
    std::vector<double> out;
    out.reserve(arr.size());
    for (const auto& v : arr) {
        if (!v.is_number())
            throw tennlab_error(object, key + " entry " + v.dump() + " is not a number", "");
        out.push_back(v.get<double>());
    }
    return out;
}

nlohmann::json extra_keys(const nlohmann::json& j, std::initializer_list<detail::key_rule> legal) {
    nlohmann::json extra = nlohmann::json::object();
    for (const auto& [key, value] : j.items())
        if (!detail::is_legal_key(key, legal)) extra[key] = value;
    return extra.empty() ? nlohmann::json() : extra;
}

/// A number written back as an integer when it is one, so integer files stay integer.
nlohmann::json number_json(double v) {
    if (std::trunc(v) == v && std::fabs(v) < 9.0e15) return static_cast<std::int64_t>(v);
    return v;
}

void read_io_list(const nlohmann::json& list, const char* what, const char* role,
                  const std::map<node_id, std::size_t>& index, std::vector<node_id>& out,
                  const std::string& source) {
    std::map<node_id, std::size_t> seen;
    for (std::size_t i = 0; i < list.size(); ++i) {
        const std::string object = source + ": " + what + "s[" + std::to_string(i) + "]";
        const auto& v = list[i];
        if (!v.is_number())
            throw tennlab_error(object, "entry " + v.dump() + " is not a number", "");
        if (v.get<double>() < 0)
            throw tennlab_error(
                object, "node id " + v.dump() + " is < 0",
                std::string("Bad Network JSON - ") + what + "[" + std::to_string(i) + "] is < 0.");
        const node_id id = to_node_id(v, object, "node id");
        if (index.count(id) == 0)
            throw tennlab_error(object, "node " + fmt_u(id) + " does not exist",
                                "Node " + fmt_u(id) + " does not exist.");
        if (auto it = seen.find(id); it != seen.end())
            throw tennlab_error(object, "node " + fmt_u(id) + " is listed twice",
                                "Node " + fmt_u(id) + " was already set as " + role + " (" +
                                    std::to_string(it->second) + ").");
        seen[id] = i;
        out.push_back(id);
    }
}

constexpr std::initializer_list<detail::key_rule> top_keys = {
    {"Associated_Data", json_kind::object},
    {"Edges", json_kind::array},
    {"Inputs", json_kind::array},
    {"Network_Values", json_kind::array},
    {"Nodes", json_kind::array},
    {"Outputs", json_kind::array},
    {"Properties", json_kind::object}};
constexpr std::initializer_list<detail::key_rule> node_keys = {{"coords", json_kind::array},
                                                               {"id", json_kind::number},
                                                               {"name", json_kind::string},
                                                               {"values", json_kind::array}};
constexpr std::initializer_list<detail::key_rule> edge_keys = {{"control_point", json_kind::array},
                                                               {"from", json_kind::number},
                                                               {"to", json_kind::number},
                                                               {"values", json_kind::array}};

}  // namespace

std::optional<std::size_t> tennlab_network::find_node(node_id id) const {
    for (std::size_t i = 0; i < nodes.size(); ++i)
        if (nodes[i].id == id) return i;
    return std::nullopt;
}

std::string tennlab_network::display_name(const tennlab_node& n) {
    return n.name.empty() ? std::to_string(n.id) : std::to_string(n.id) + "(" + n.name + ")";
}

tennlab_network tennlab_network::from_json(const nlohmann::json& j, const std::string& source,
                                           unknown_keys policy) {
    const bool keep = policy == unknown_keys::keep;
    detail::check_keys(
        j, top_keys,
        {"Properties", "Associated_Data", "Nodes", "Edges", "Inputs", "Outputs", "Network_Values"},
        source, keep);
    tennlab_network net;
    if (keep) net.extra = extra_keys(j, top_keys);
    net.properties = property_pack::from_json(j["Properties"], source);

    net.network_values = to_values(j["Network_Values"], source, "Network_Values");
    if (static_cast<int>(net.network_values.size()) != net.properties.network_slots())
        throw tennlab_error(source + ": Network_Values",
                            "has " + std::to_string(net.network_values.size()) +
                                " entries, the property pack has " +
                                std::to_string(net.properties.network_slots()) + " slots",
                            "Error in network JSON: Network_Value's array's size doesn't match "
                            "the network Propery Pack");

    std::map<node_id, std::size_t> index;
    const std::size_t node_slots = static_cast<std::size_t>(net.properties.node_slots());
    for (std::size_t i = 0; i < j["Nodes"].size(); ++i) {
        const auto& nj = j["Nodes"][i];
        const std::string object = source + ": Nodes[" + std::to_string(i) + "]";
        detail::check_keys(nj, node_keys, {"id", "values"}, object, keep);
        tennlab_node node;
        node.id = to_node_id(nj["id"], object, "id");
        node.id_text = nj["id"].dump();
        const std::string node_object = source + ": node " + node.id_text;
        if (index.count(node.id) != 0)
            throw tennlab_error(node_object, "node id " + node.id_text + " is repeated",
                                "Node " + std::to_string(static_cast<int>(node.id)) +
                                    " already exists at specified index.");
        node.values = to_values(nj["values"], node_object, "values");
        if (node.values.size() != node_slots)
            throw tennlab_error(node_object,
                                "values has " + std::to_string(node.values.size()) +
                                    " entries, the node property pack has " +
                                    std::to_string(node_slots),
                                "Error in the network JSON: Node " + node.id_text +
                                    "'s value array's size does not match the node PropertyPack");
        if (nj.contains("name")) node.name = nj["name"].get<std::string>();
        if (nj.contains("coords")) node.coords = nj["coords"];
        if (keep) node.extra = extra_keys(nj, node_keys);
        index[node.id] = net.nodes.size();
        net.nodes.push_back(std::move(node));
    }

    std::set<std::pair<node_id, node_id>> pairs;
    const std::size_t edge_slots = static_cast<std::size_t>(net.properties.edge_slots());
    for (std::size_t i = 0; i < j["Edges"].size(); ++i) {
        const auto& ej = j["Edges"][i];
        const std::string object = source + ": Edges[" + std::to_string(i) + "]";
        detail::check_keys(ej, edge_keys, {"from", "to", "values"}, object, keep);
        tennlab_edge edge;
        edge.from = to_node_id(ej["from"], object, "from");
        edge.to = to_node_id(ej["to"], object, "to");
        const std::string arrow = fmt_u(edge.from) + " -> " + fmt_u(edge.to);
        const std::string edge_object = source + ": edge " + arrow;
        if (!pairs.insert({edge.from, edge.to}).second)
            throw tennlab_error(edge_object, "edge is repeated",
                                "Edge " + arrow + " already exists.");
        if (index.count(edge.from) == 0 || index.count(edge.to) == 0)
            throw tennlab_error(
                edge_object, "an endpoint is not a node",
                "Unable to get node " + fmt_u(edge.from) + " and/or " + fmt_u(edge.to));
        edge.values = to_values(ej["values"], edge_object, "values");
        if (edge.values.size() != edge_slots)
            throw tennlab_error(
                edge_object,
                "values has " + std::to_string(edge.values.size()) +
                    " entries, the edge property pack has " + std::to_string(edge_slots),
                "Error in the network JSON: Edge " + fmt_u(edge.from) + "->" + fmt_u(edge.to) +
                    "'s value array's size does not match the edge PropertyPack");
        if (ej.contains("control_point")) edge.control_point = ej["control_point"];
        if (keep) edge.extra = extra_keys(ej, edge_keys);
        net.edges.push_back(std::move(edge));
    }

    read_io_list(j["Inputs"], "Input", "an input", index, net.inputs, source);
    read_io_list(j["Outputs"], "Output", "an output", index, net.outputs, source);
    net.associated_data = j["Associated_Data"];
    return net;
}

nlohmann::json tennlab_network::to_json() const {
    nlohmann::json j = extra.is_object() ? extra : nlohmann::json::object();
    j["Properties"] = properties.to_json();
    j["Nodes"] = nlohmann::json::array();
    for (const auto& n : nodes) {
        nlohmann::json nj = n.extra.is_object() ? n.extra : nlohmann::json::object();
        nj["id"] = n.id;
        nj["values"] = nlohmann::json::array();
        for (double v : n.values) nj["values"].push_back(number_json(v));
        if (!n.name.empty()) nj["name"] = n.name;
        if (!n.coords.is_null()) nj["coords"] = n.coords;
        j["Nodes"].push_back(std::move(nj));
    }
    j["Edges"] = nlohmann::json::array();
    for (const auto& e : edges) {
        nlohmann::json ej = e.extra.is_object() ? e.extra : nlohmann::json::object();
        ej["from"] = e.from;
        ej["to"] = e.to;
        ej["values"] = nlohmann::json::array();
        for (double v : e.values) ej["values"].push_back(number_json(v));
        if (!e.control_point.is_null()) ej["control_point"] = e.control_point;
        j["Edges"].push_back(std::move(ej));
    }
    j["Inputs"] = inputs;
    j["Outputs"] = outputs;
    j["Network_Values"] = nlohmann::json::array();
    for (double v : network_values) j["Network_Values"].push_back(number_json(v));
    j["Associated_Data"] = associated_data;
    return j;
}

tennlab_network load_tennlab_network(const std::string& path, unknown_keys policy) {
    std::ifstream in(path);
    if (!in) throw io_error(path, "cannot open for reading");
    nlohmann::json j;
    try {
        j = parse_json_stream(in, path);
    } catch (const file_format_error& e) {  // a syntax error, a number out of range, too deep
        throw tennlab_error(path, std::string(e.what()).substr(path.size() + 2), "");
    }
    return tennlab_network::from_json(j, path, policy);
}

void save_tennlab_network(const tennlab_network& net, const std::string& path) {
    write_text_file(path, net.to_json().dump(2) + "\n", "TENNLab network");
}

}  // namespace volley::hw
