#pragma once
// The TENNLab network JSON format (RISP.md section e): a property pack, nodes, edges,
// input and output lists, network values and free-form Associated_Data.

#include <volley/hw/property_pack.hpp>

#include <nlohmann/json.hpp>

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

namespace volley::hw {

/// Identifier of a node, as written in the network JSON.
using node_id = std::uint32_t;

/// A neuron of a hardware network.
struct tennlab_node {
    node_id id = 0;              ///< unique id
    std::vector<double> values;  ///< one entry per node property slot
    std::string name;            ///< optional name ("" when absent)
    nlohmann::json coords;       ///< optional `coords` array, kept as given (null if absent)
    nlohmann::json extra;        ///< unknown keys, kept when read with unknown_keys::keep
    std::string id_text;         ///< the id exactly as written (e.g. "3.0"), for messages
};

/// A synapse of a hardware network.
struct tennlab_edge {
    node_id from = 0;              ///< source node id
    node_id to = 0;                ///< target node id
    std::vector<double> values;    ///< one entry per edge property slot
    nlohmann::json control_point;  ///< optional `control_point`, kept as given (null if absent)
    nlohmann::json extra;          ///< unknown keys, kept when read with unknown_keys::keep
};

/// What the reader does with keys that the format does not define.
enum class unknown_keys {
    reject,  ///< fail with the reference's "Illegal parameter: KEY" (the framework's behaviour)
    keep,    ///< keep them in `extra` and write them back unchanged
};

/// A TENNLab network: plain data, validated structurally when read.
struct tennlab_network {
    property_pack properties;            ///< the property pack
    std::vector<tennlab_node> nodes;     ///< nodes in file order
    std::vector<tennlab_edge> edges;     ///< edges in file order (this order matters: RISP.md b.6)
    std::vector<node_id> inputs;         ///< input node ids; position = input index
    std::vector<node_id> outputs;        ///< output node ids; position = output index
    std::vector<double> network_values;  ///< one entry per network property slot
    nlohmann::json associated_data = nlohmann::json::object();  ///< free-form, kept unchanged
    nlohmann::json extra;  ///< unknown top-level keys (unknown_keys::keep)

    /// Index of node `id` in `nodes`, or nullopt.
    std::optional<std::size_t> find_node(node_id id) const;

    /// The display name of a node: "7", or "7(name)" when it has a name.
    static std::string display_name(const tennlab_node& n);

    /// Builds a network from parsed JSON, checking it in the reference's order
    /// (RISP.md e.2 steps 1-7). Throws tennlab_error naming the node, edge or key.
    /// @param source the file name for messages ("<string>" when not from a file)
    static tennlab_network from_json(const nlohmann::json& j, const std::string& source,
                                     unknown_keys policy = unknown_keys::reject);

    /// The network as TENNLab JSON; unknown keys and Associated_Data are written back.
    nlohmann::json to_json() const;
};

/// Reads a network JSON file. Throws io_error if it cannot be read, tennlab_error if it
/// does not parse or is malformed.
tennlab_network load_tennlab_network(const std::string& path,
                                     unknown_keys policy = unknown_keys::reject);

/// Writes a network as JSON (2-space indentation). Throws io_error if the file cannot be written.
void save_tennlab_network(const tennlab_network& net, const std::string& path);

}  // namespace volley::hw
