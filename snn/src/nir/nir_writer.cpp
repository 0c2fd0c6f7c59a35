#include "nir/nir_datasets.hpp"

#include <volley/error.hpp>
#include <volley/snn/hdf5_file.hpp>
#include <volley/snn/hdf5_image.hpp>
#include <volley/snn/nir_file.hpp>

namespace volley::snn {

namespace {

using detail::hdf5_id;

/// A plain group (no creation-order index), as h5py makes them: readers list it by name.
hdf5_id make_group(hid_t parent, const std::string& name, const std::string& file) {
    detail::hdf5_quiet quiet;
    hdf5_id lcpl(H5Pcreate(H5P_LINK_CREATE), H5Pclose);
    H5Pset_create_intermediate_group(lcpl.get(), 1);
    hdf5_id group(H5Gcreate2(parent, name.c_str(), lcpl.get(), H5P_DEFAULT, H5P_DEFAULT), H5Gclose);
    if (!group.valid()) throw io_error(file, "HDF5 failed to create group '" + name + "'");
    return group;
}

void write_metadata(hid_t parent, const std::map<std::string, nir_array>& metadata,
                    const std::string& file) {
    if (metadata.empty()) return;
    hdf5_id group = make_group(parent, "metadata", file);
    for (const auto& [key, value] : metadata) {
        const auto slash = key.rfind('/');
        if (slash == std::string::npos) {
            detail::write_nir_array(group.get(), key, value, file);
            continue;
        }
        hdf5_id sub = detail::open_group_if_present(group.get(), key.substr(0, slash));
        if (!sub.valid()) sub = make_group(group.get(), key.substr(0, slash), file);
        detail::write_nir_array(sub.get(), key.substr(slash + 1), value, file);
    }
}

void write_graph(hid_t group, const nir_graph& graph, const std::string& file) {
    detail::write_nir_text(group, "type", "NIRGraph", file);
    detail::write_nir_edges(group, graph.edges, file);
    hdf5_id nodes = make_group(group, "nodes", file);
    for (const auto& node : graph.nodes) {
        detail::check_link_name("NIR graph", "node name", node.name);
        hdf5_id g = make_group(nodes.get(), node.name, file);
        if (node.subgraph) {
            write_graph(g.get(), *node.subgraph, file);
        } else {
            detail::write_nir_text(g.get(), "type", node.type, file);
            for (const auto& [key, value] : node.params)
                detail::write_nir_array(g.get(), key, value, file);
        }
        write_metadata(g.get(), node.metadata, file);
    }
    write_metadata(group, graph.metadata, file);
}

}  // namespace

void write_nir(const nir_graph& graph, const std::filesystem::path& path) {
    const std::string file = path.string();
    nir_graph checked = graph;
    analyse_nir_graph(checked, file);
    hdf5_id handle = detail::create_hdf5_image(file);  // written whole at the end (hdf5_image.hpp)
    detail::write_nir_text(handle.get(), "version", std::string(nir_write_version), file);
    hdf5_id top = make_group(handle.get(), "node", file);
    write_graph(top.get(), checked, file);
    top.reset();
    detail::write_hdf5_image(handle.get(), path);
}

}  // namespace volley::snn
