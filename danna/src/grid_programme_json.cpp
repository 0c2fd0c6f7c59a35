#include <volley/danna/grid_programme.hpp>

#include <volley/error.hpp>
#include <volley/json_integer.hpp>
#include <volley/json_text.hpp>
#include <volley/text_file.hpp>

#include <fstream>
#include <limits>
#include <string>

namespace volley::danna {

namespace {
/// The integer `v` at JSON pointer `at` of programme `source`, within T's range (json_integer.hpp).
template <class T = int>
T integer_at(const nlohmann::json& v, const std::string& source, const std::string& at) {
    const auto value = json_integer<T>(v);
    if (!value)
        throw file_format_error(source, at, "expected an integer in [" + std::to_string(std::numeric_limits<T>::min()) +
                                                ", " + std::to_string(std::numeric_limits<T>::max()) + "], got " +
                                                v.dump());
    return *value;
}
}  // namespace

nlohmann::json grid_programme::to_json() const {
    nlohmann::json elements = nlohmann::json::array();
    for (int c = 0; c < params.cells(); ++c) {
        const auto i = static_cast<std::size_t>(c);
        if (kind[i] == element_kind::empty) continue;
        const cell at = position(c);
        nlohmann::json e = {
            {"x", at.x}, {"y", at.y}, {"kind", kind_name(kind[i])}, {"ports", ports[i]}};
        if (kind[i] == element_kind::neuron) {
            e["threshold"] = threshold[i];
            e["refractory"] = refractory[i];
        } else if (kind[i] == element_kind::synapse) {
            e["weight"] = weight[i];
            e["delay"] = delay[i];
            e["learning"] = learning[i] != 0;
        }
        elements.push_back(std::move(e));
    }
    nlohmann::json node_list = nlohmann::json::array();
    for (const auto& n : nodes) {
        const cell at = position(n.cell);
        node_list.push_back({{"id", n.id}, {"name", n.name}, {"x", at.x}, {"y", at.y}});
    }
    nlohmann::json syn = nlohmann::json::array();
    for (int c : synapse_cells) syn.push_back({position(c).x, position(c).y});
    return {{"format", "volley-danna-programme"},
            {"version", 1},
            {"params", params.to_json()},
            {"elements", elements},
            {"nodes", node_list},
            {"synapses", syn},
            {"inputs", inputs},
            {"outputs", outputs}};
}

grid_programme grid_programme::from_json(const nlohmann::json& j, const std::string& source) {
    try {
        if (j.value("format", std::string()) != "volley-danna-programme")
            throw file_format_error(source, "/format", "not a volley-danna-programme");
        if (j.value("version", 0) != 1)
            throw file_format_error(
                source, "/version",
                "unsupported version " + j.value("version", nlohmann::json()).dump());
        grid_programme g(grid_params::from_json(j.at("params")));
        const auto integer = [&](const nlohmann::json& v, const std::string& at) {
            return integer_at(v, source, at);
        };
        // The cell at (x, y), which must lie on the grid (an index off it could alias another cell).
        const auto cell_at = [&](int x, int y, const std::string& at) {
            if (x < 0 || y < 0 || x >= g.params.width || y >= g.params.height)
                throw file_format_error(source, at,
                                        "cell (" + std::to_string(x) + ", " + std::to_string(y) +
                                            ") is outside the grid");
            return g.index(x, y);
        };
        const auto cell_of = [&](const nlohmann::json& e, const std::string& at) {
            const int x = integer(e.at("x"), at + "/x"), y = integer(e.at("y"), at + "/y");  // x first
            return cell_at(x, y, at);
        };
        const auto& elements = j.at("elements");
        for (std::size_t k = 0; k < elements.size(); ++k) {
            const auto& e = elements[k];
            const std::string at = "/elements/" + std::to_string(k);
            const auto i = static_cast<std::size_t>(cell_of(e, at));
            const std::string kind = e.at("kind").get<std::string>();
            if (g.kind[i] != element_kind::empty)
                throw file_format_error(source, at, "cell programmed twice");
            g.ports[i] = integer_at<std::uint16_t>(e.at("ports"), source, at + "/ports");
            if (kind == "neuron") {
                g.kind[i] = element_kind::neuron;
                g.threshold[i] = integer(e.at("threshold"), at + "/threshold");
                g.refractory[i] = integer(e.at("refractory"), at + "/refractory");
            } else if (kind == "synapse") {
                g.kind[i] = element_kind::synapse;
                g.weight[i] = integer(e.at("weight"), at + "/weight");
                g.delay[i] = integer(e.at("delay"), at + "/delay");
                g.learning[i] = e.value("learning", false) ? 1 : 0;
            } else if (kind == "fanout") {
                g.kind[i] = element_kind::fanout;
            } else {
                throw file_format_error(source, at + "/kind",
                                        "unknown element kind '" + kind + "'");
            }
        }
        const auto& node_list = j.at("nodes");
        for (std::size_t k = 0; k < node_list.size(); ++k) {
            const auto& n = node_list[k];
            const std::string at = "/nodes/" + std::to_string(k);
            g.nodes.push_back({integer_at<node_id>(n.at("id"), source, at + "/id"),
                               n.value("name", std::string()), cell_of(n, at)});
        }
        const auto& synapse_list = j.at("synapses");
        for (std::size_t k = 0; k < synapse_list.size(); ++k) {
            const std::string at = "/synapses/" + std::to_string(k);
            const int x = integer(synapse_list[k].at(0), at + "/0"), y = integer(synapse_list[k].at(1), at + "/1");
            g.synapse_cells.push_back(cell_at(x, y, at));
        }
        const auto ids = [&](const char* key) {
            std::vector<node_id> out;
            const auto& list = j.at(key);
            for (std::size_t k = 0; k < list.size(); ++k)
                out.push_back(integer_at<node_id>(list.at(k), source, std::string("/") + key + "/" + std::to_string(k)));
            return out;
        };
        g.inputs = ids("inputs");
        g.outputs = ids("outputs");
        g.validate();
        return g;
    } catch (const nlohmann::json::exception& e) {
        throw file_format_error(source, "", std::string("malformed programme: ") + e.what());
    } catch (const invalid_parameter& e) {
        throw file_format_error(source, "", e.what());
    }
}

void save_programme(const grid_programme& prog, const std::string& path) {
    write_text_file(path, prog.to_json().dump(1) + "\n", "DANNA programme");
}

grid_programme load_programme(const std::string& path) {
    std::ifstream in(path);
    if (!in) throw io_error(path, "cannot open the file");
    return grid_programme::from_json(parse_json_stream(in, path), path);
}

}  // namespace volley::danna
