#include <volley/hw/property_pack.hpp>
#include <volley/hw/tennlab_error.hpp>
#include <volley/hw/tennlab_json.hpp>
#include <volley/json_integer.hpp>

#include "json_key_check.hpp"

#include <algorithm>
#include <cmath>
#include <set>

namespace volley::hw {

namespace {

int slots(const std::vector<property>& props) {
    int n = 0;
    for (const auto& p : props) n = std::max(n, p.index + p.size);
    return n;
}

const property* find(const std::vector<property>& props, const std::string& name) {
    for (const auto& p : props)
        if (p.name == name) return &p;
    return nullptr;
}

/// A number field read as an int, as nlohmann's get<int>() does (a fraction is cut off), but a value
/// outside int's range is an error: converting it was undefined behaviour (found by tests/fuzz:
/// a "size" of 6.7e76).
int int_field(const nlohmann::json& pj, const char* key, const std::string& object) {
    const auto& v = pj[key];
    const auto value = json_integer<int>(v.is_number_float() ? nlohmann::json(std::trunc(v.get<double>())) : v);
    if (!value) throw tennlab_error(object, std::string(key) + " = " + v.dump() + " is out of range", "");
    return *value;
}

std::vector<property> parse_category(const nlohmann::json& list, const std::string& category,
                                     const std::string& where) {
    std::vector<property> out;
    std::set<std::string> names;
    for (std::size_t i = 0; i < list.size(); ++i) {
        const auto& pj = list[i];
        const std::string object =
            where + ": " + category + "_properties[" + std::to_string(i) + "]";
        detail::check_keys(pj,
                           {{"index", detail::json_kind::number},
                            {"max_value", detail::json_kind::number},
                            {"min_value", detail::json_kind::number},
                            {"name", detail::json_kind::string},
                            {"size", detail::json_kind::number},
                            {"type", detail::json_kind::number}},
                           {"name", "type", "index", "size", "min_value", "max_value"}, object);
        property p;
        p.name = pj["name"].get<std::string>();
        const int type = int_field(pj, "type", object);
        p.index = int_field(pj, "index", object);
        p.size = int_field(pj, "size", object);
        p.min_value = pj["min_value"].get<double>();
        p.max_value = pj["max_value"].get<double>();
        p.type = static_cast<property_type>(type);
        if (type != 68 && type != 73 && type != 66)
            throw tennlab_error(
                object,
                "property '" + p.name + "': type " + std::to_string(type) + " is not 68, 73 or 66",
                "Bad Property JSON - Type must be D (68), I (73) or B (66).\n" +
                    compact_json(property_to_json(p)));
        if (p.size < 1)
            throw tennlab_error(
                object,
                "property '" + p.name + "': size " + std::to_string(p.size) + " must be > 0",
                "Count must be > 0.\n");
        if (p.name.empty() || names.count(p.name) != 0)
            throw tennlab_error(object, "property name '" + p.name + "' is empty or repeated", "");
        const bool same_index = std::any_of(out.begin(), out.end(),
                                            [&](const property& q) { return q.index == p.index; });
        if (same_index) continue;
        names.insert(p.name);
        out.push_back(p);
    }
    std::stable_sort(out.begin(), out.end(),
                     [](const property& a, const property& b) { return a.index < b.index; });
    int expected = 0;
    for (const auto& p : out) {
        if (p.index != expected)
            throw tennlab_error(where + ": " + category + "_properties",
                                "property '" + p.name + "' has index " + std::to_string(p.index) +
                                    ", expected " + std::to_string(expected),
                                "Property Pack: non-matching index in " + category + " json:\n" +
                                    compact_json(property_to_json(p)));
        expected += p.size;
    }
    return out;
}

bool same_list(const std::vector<property>& a, const std::vector<property>& b) {
    if (a.size() != b.size()) return false;
    for (const auto& p : a) {
        const property* q = find(b, p.name);
        if (q == nullptr || q->type != p.type || q->index != p.index || q->size != p.size ||
            q->min_value != p.min_value || q->max_value != p.max_value)
            return false;
    }
    return true;
}

std::string property_text(const property& p) {
    return "{ \"name\":" + nlohmann::json(p.name).dump() +
           ", \"type\":" + std::to_string(static_cast<int>(p.type)) +
           ", \"index\":" + std::to_string(p.index) + ", \"size\":" + std::to_string(p.size) +
           ", \"min_value\":" + format_json_double(p.min_value) +
           ", \"max_value\":" + format_json_double(p.max_value) + " }";
}

}  // namespace

nlohmann::json property_to_json(const property& p) {
    return {{"name", p.name}, {"type", static_cast<int>(p.type)}, {"index", p.index},
            {"size", p.size}, {"min_value", p.min_value},         {"max_value", p.max_value}};
}

int property_pack::node_slots() const {
    return slots(node);
}
int property_pack::edge_slots() const {
    return slots(edge);
}
int property_pack::network_slots() const {
    return slots(network);
}

const property* property_pack::find_node(const std::string& name) const {
    return find(node, name);
}
const property* property_pack::find_edge(const std::string& name) const {
    return find(edge, name);
}

bool property_pack::matches(const property_pack& other) const {
    return same_list(node, other.node) && same_list(edge, other.edge) &&
           same_list(network, other.network);
}

property_pack property_pack::from_json(const nlohmann::json& j, const std::string& where) {
    const std::string object = where + ": Properties";
    detail::check_keys(j,
                       {{"edge_properties", detail::json_kind::array},
                        {"network_properties", detail::json_kind::array},
                        {"node_properties", detail::json_kind::array}},
                       {"node_properties", "edge_properties", "network_properties"}, object);
    property_pack pack;
    pack.node = parse_category(j["node_properties"], "node", where);
    pack.edge = parse_category(j["edge_properties"], "edge", where);
    pack.network = parse_category(j["network_properties"], "network", where);
    return pack;
}

nlohmann::json property_pack::to_json() const {
    nlohmann::json j = nlohmann::json::object();
    const std::pair<const char*, const std::vector<property>*> cats[] = {
        {"node_properties", &node}, {"edge_properties", &edge}, {"network_properties", &network}};
    for (const auto& [key, list] : cats) {
        j[key] = nlohmann::json::array();
        for (const auto& p : *list) j[key].push_back(property_to_json(p));
    }
    return j;
}

std::string property_pack::pretty_text() const {
    const std::pair<const char*, const std::vector<property>*> cats[] = {
        {"node_properties", &node}, {"edge_properties", &edge}, {"network_properties", &network}};
    std::string out;
    bool first_cat = true;
    for (const auto& [key, list] : cats) {
        if (!first_cat) out += ",\n";
        out += first_cat ? "{ " : "  ";
        first_cat = false;
        out += std::string("\"") + key + "\": ";
        if (list->empty()) {
            out += "[]";
            continue;
        }
        std::vector<property> by_name = *list;
        std::sort(by_name.begin(), by_name.end(),
                  [](const property& a, const property& b) { return a.name < b.name; });
        for (std::size_t i = 0; i < by_name.size(); ++i) {
            out += i == 0 ? "[\n    " : "\n    ";
            out += property_text(by_name[i]);
            if (i + 1 < by_name.size()) out += ",";
        }
        out += "]";
    }
    return out + " }";
}

}  // namespace volley::hw
