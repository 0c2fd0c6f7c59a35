#include "nir/nir_topology.hpp"

#include <volley/error.hpp>

#include <algorithm>

namespace volley::snn::detail {

namespace {

std::string node_list(const nir_graph& graph) {
    std::string out;
    for (const auto& n : graph.nodes) out += (out.empty() ? "" : ", ") + ("'" + n.name + "'");
    return out;
}

std::size_t endpoint_index(const nir_graph& graph, const std::string& endpoint, std::size_t edge,
                           const nir_location& where) {
    auto chain = resolve_nir_endpoint(graph, endpoint);
    if (chain.empty()) {
        const auto& [source, target] = graph.edges[edge];
        throw file_format_error(
            where.file, where.path + "/edges",
            "edge " + std::to_string(edge) + " ('" + source + "' -> '" + target +
                "') names node '" + endpoint +
                "', which is not in this graph (its nodes: " + node_list(graph) + ")");
    }
    const nir_node* node = graph.find(chain.front());
    return static_cast<std::size_t>(node - graph.nodes.data());
}

}  // namespace

void order_nir_graph(nir_graph& graph, const nir_location& where) {
    const std::size_t n = graph.nodes.size();
    std::vector<std::vector<std::pair<std::size_t, std::size_t>>> out_edges(n);  // (edge, target)
    for (std::size_t e = 0; e < graph.edges.size(); ++e) {
        std::size_t s = endpoint_index(graph, graph.edges[e].first, e, where);
        std::size_t t = endpoint_index(graph, graph.edges[e].second, e, where);
        out_edges[s].emplace_back(e, t);
    }

    // Depth-first search from the Input nodes, then from any node not yet reached. The reverse
    // post-order is topological once the back edges (those reaching a node still on the stack)
    // are cut; those back edges are exactly the recurrent ones (Cormen et al., "Introduction to
    // Algorithms", 22.3). Starting from the inputs makes the edge that closes a loop the one
    // running from late to early layers, e.g. w_rec -> lif in the Braille RNN.
    enum class colour { white, grey, black };
    std::vector<colour> state(n, colour::white);
    std::vector<std::size_t> post_order;
    std::vector<std::size_t> recurrent;
    std::vector<std::size_t> roots;
    for (std::size_t i = 0; i < n; ++i)
        if (graph.nodes[i].type == "Input") roots.push_back(i);
    for (std::size_t i = 0; i < n; ++i)
        if (graph.nodes[i].type != "Input") roots.push_back(i);

    for (std::size_t root : roots) {
        if (state[root] != colour::white) continue;
        std::vector<std::pair<std::size_t, std::size_t>> stack{{root, 0}};  // (node, next edge)
        state[root] = colour::grey;
        while (!stack.empty()) {
            auto& [node, next] = stack.back();
            if (next == out_edges[node].size()) {
                state[node] = colour::black;
                post_order.push_back(node);
                stack.pop_back();
                continue;
            }
            auto [edge, target] = out_edges[node][next++];
            if (state[target] == colour::grey) {
                recurrent.push_back(edge);
            } else if (state[target] == colour::white) {
                state[target] = colour::grey;
                stack.emplace_back(target, 0);
            }
        }
    }
    std::sort(recurrent.begin(), recurrent.end());
    graph.order.assign(post_order.rbegin(), post_order.rend());
    graph.recurrent_edges = std::move(recurrent);
}

}  // namespace volley::snn::detail
