#include "nir/nir_primitives.hpp"
#include "nir/nir_topology.hpp"

#include <volley/error.hpp>
#include <volley/snn/nir_graph.hpp>

#include <set>

namespace volley::snn {

namespace {

/// Checks node types and parameters and orders the edges, in this graph and every nested one.
void check_structure(nir_graph& graph, const detail::nir_location& where) {
    std::set<std::string> names;
    for (auto& node : graph.nodes) {
        const detail::nir_location at{where.file, where.path + "/nodes/" + node.name};
        if (!names.insert(node.name).second)
            throw file_format_error(where.file, at.path,
                                    "two nodes are called '" + node.name + "'");
        detail::check_nir_params(node, at);
        if (node.type == "NIRGraph" && !node.subgraph)
            throw file_format_error(where.file, at.path,
                                    "NIRGraph node '" + node.name + "' has no nodes");
        if (node.type != "NIRGraph" && node.subgraph)
            throw file_format_error(where.file, at.path,
                                    node.type + " node '" + node.name + "' holds a nested graph");
        if (node.subgraph) check_structure(*node.subgraph, at);
    }
    detail::order_nir_graph(graph, where);
}

void clear_derived(nir_graph& graph) {
    graph.order.clear();
    graph.recurrent_edges.clear();
    graph.notes.clear();
    for (auto& node : graph.nodes) {
        node.input_shape.clear();
        node.output_shape.clear();
        if (node.subgraph) clear_derived(*node.subgraph);
    }
}

/// Moves the notes of nested graphs up to the top, so that one list says everything repaired.
void gather_notes(nir_graph& graph, std::vector<std::string>& out) {
    for (auto& node : graph.nodes)
        if (node.subgraph) gather_notes(*node.subgraph, out);
    out.insert(out.end(), graph.notes.begin(), graph.notes.end());
}

}  // namespace

void analyse_nir_graph(nir_graph& graph, const std::string& source) {
    clear_derived(graph);
    const detail::nir_location top{source, "/node"};
    check_structure(graph, top);
    detail::infer_nir_shapes(graph, top, nullptr);
    std::vector<std::string> notes;
    for (auto& node : graph.nodes)
        if (node.subgraph) gather_notes(*node.subgraph, notes);
    graph.notes.insert(graph.notes.begin(), notes.begin(), notes.end());
}

}  // namespace volley::snn
