#include "nir/nir_datasets.hpp"

#include <volley/error.hpp>
#include <volley/snn/hdf5_file.hpp>
#include <volley/snn/nir_file.hpp>

namespace volley::snn {

namespace {

using detail::hdf5_id;
using detail::nir_location;

bool is_group(hid_t parent, const std::string& name) {
    return detail::open_group_if_present(parent, name).valid();
}

/// Reads a `metadata/` group: its datasets by name, nested groups as "group/name".
void read_metadata(hid_t group, const nir_location& where, const std::string& prefix,
                   std::map<std::string, nir_array>& out) {
    for (const auto& name : detail::child_names(group, where.file, where.path)) {
        const nir_location at{where.file, where.path + "/" + name};
        if (hdf5_id sub = detail::open_group_if_present(group, name); sub.valid()) {
            read_metadata(sub.get(), at, prefix + name + "/", out);
        } else if (hdf5_id d = detail::open_dataset_if_present(group, name); d.valid()) {
            out[prefix + name] = detail::read_nir_array(d.get(), at);
        }
    }
}

std::string read_type(hid_t group, const std::string& name, const nir_location& where) {
    hdf5_id type = detail::open_dataset_if_present(group, "type");
    if (!type.valid())
        throw file_format_error(where.file, where.path,
                                "node '" + name + "' has no 'type' dataset");
    return detail::read_nir_text(type.get(), {where.file, where.path + "/type"});
}

nir_graph read_graph(hid_t group, const nir_location& where);

nir_node read_node(hid_t group, const std::string& name, const nir_location& where) {
    nir_node node(name, read_type(group, name, where));
    if (node.type == "NIRGraph") {
        node.subgraph = std::make_unique<nir_graph>(read_graph(group, where));
        node.metadata = std::move(node.subgraph->metadata);
        node.subgraph->metadata.clear();
        return node;
    }
    for (const auto& key : detail::child_names(group, where.file, where.path)) {
        const nir_location at{where.file, where.path + "/" + key};
        if (key == "type") continue;
        if (key == "metadata" && is_group(group, key)) {
            hdf5_id meta = detail::open_group_if_present(group, key);
            read_metadata(meta.get(), at, "", node.metadata);
            continue;
        }
        hdf5_id dataset = detail::open_dataset_if_present(group, key);
        if (!dataset.valid())
            throw file_format_error(where.file, at.path,
                                    "unknown parameter '" + key + "' of " + node.type + " node '" +
                                        name + "' (a group, not a dataset)");
        node.params[key] = detail::read_nir_array(dataset.get(), at);
    }
    return node;
}

nir_graph read_graph(hid_t group, const nir_location& where) {
    nir_graph graph;
    hdf5_id nodes = detail::open_group_if_present(group, "nodes");
    if (!nodes.valid())
        throw file_format_error(where.file, where.path + "/nodes",
                                "the graph has no 'nodes' group");
    const std::string nodes_path = where.path + "/nodes";
    for (const auto& name : detail::child_names(nodes.get(), where.file, nodes_path)) {
        hdf5_id node = detail::open_group_if_present(nodes.get(), name);
        if (!node.valid())
            throw file_format_error(where.file, nodes_path + "/" + name,
                                    "node '" + name + "' is not a group");
        graph.nodes.push_back(read_node(node.get(), name, {where.file, nodes_path + "/" + name}));
    }
    if (hdf5_id edges = detail::open_dataset_if_present(group, "edges"); edges.valid())
        graph.edges = detail::read_nir_edges(edges.get(), {where.file, where.path + "/edges"});
    if (hdf5_id meta = detail::open_group_if_present(group, "metadata"); meta.valid())
        read_metadata(meta.get(), {where.file, where.path + "/metadata"}, "", graph.metadata);
    return graph;
}

}  // namespace

nir_graph read_nir(const std::filesystem::path& path) {
    const std::string file = path.string();
    hdf5_id handle = detail::open_hdf5_file(path, false);
    hdf5_id version = detail::open_dataset_if_present(handle.get(), "version");
    if (!version.valid())
        throw file_format_error(file, "/version", "not a NIR file: no /version dataset");
    hdf5_id top = detail::open_group_if_present(handle.get(), "node");
    if (!top.valid()) throw file_format_error(file, "/node", "not a NIR file: no /node group");
    const std::string type = read_type(top.get(), "node", {file, "/node"});
    if (type != "NIRGraph")
        throw file_format_error(file, "/node/type",
                                "the top-level node has type '" + type + "', not 'NIRGraph'");
    nir_graph graph = read_graph(top.get(), {file, "/node"});
    graph.version = detail::read_nir_text(version.get(), {file, "/version"});
    analyse_nir_graph(graph, file);
    return graph;
}

}  // namespace volley::snn
