#include "network_edit.hpp"

#include <algorithm>

namespace volley::eons::detail {

hw::tennlab_network empty_network(const network_template& shape) {
    hw::tennlab_network net;
    net.properties = shape.properties;
    if (shape.network_values.is_array())
        for (const auto& v : shape.network_values) net.network_values.push_back(v.get<double>());
    for (int i = 0; i < shape.inputs; ++i) net.inputs.push_back(static_cast<hw::node_id>(i));
    for (int i = 0; i < shape.outputs; ++i)
        net.outputs.push_back(static_cast<hw::node_id>(shape.inputs + i));
    return net;
}

hw::node_id fresh_id(const hw::tennlab_network& net) {
    hw::node_id next = 0;
    for (const auto& n : net.nodes) next = std::max(next, n.id + 1);
    return next;
}

std::set<edge_pair> edge_pairs(const hw::tennlab_network& net) {
    std::set<edge_pair> pairs;
    for (const auto& e : net.edges) pairs.insert({e.from, e.to});
    return pairs;
}

std::uint64_t free_pair_count(const hw::tennlab_network& net, const eons_config& config) {
    const std::uint64_t n = net.nodes.size();
    const std::uint64_t all = config.self_edges ? n * n : n * (n - (n > 0 ? 1 : 0));
    std::uint64_t taken = 0;
    for (const auto& e : net.edges)
        if (config.self_edges || e.from != e.to) ++taken;
    return all > taken ? all - taken : 0;
}

// Why: rejection sampling finds a free pair in a few draws while the network is sparse (the
// usual case); the exact enumeration keeps dense networks correct and uniform.
bool add_random_edge(hw::tennlab_network& net, const network_template& shape,
                     const eons_config& config, random_stream& rng) {
    const std::uint64_t free = free_pair_count(net, config);
    if (free == 0) return false;
    const std::set<edge_pair> pairs = edge_pairs(net);
    const std::uint64_t n = net.nodes.size();
    const auto usable = [&](std::uint64_t f, std::uint64_t t) {
        const edge_pair p{net.nodes[f].id, net.nodes[t].id};
        return (config.self_edges || f != t) && pairs.count(p) == 0;
    };
    std::uint64_t from = 0, to = 0;
    bool found = false;
    for (int attempt = 0; attempt < 32 && !found; ++attempt) {
        from = rng.below(n);
        to = rng.below(n);
        found = usable(from, to);
    }
    if (!found) {
        std::uint64_t k = rng.below(free);
        for (std::uint64_t f = 0; f < n && !found; ++f)
            for (std::uint64_t t = 0; t < n && !found; ++t)
                if (usable(f, t) && k-- == 0) from = f, to = t, found = true;
    }
    hw::tennlab_edge e;
    e.from = net.nodes[from].id;
    e.to = net.nodes[to].id;
    e.values = random_values(shape.properties.edge, rng);
    net.edges.push_back(std::move(e));
    return true;
}

void remove_node(hw::tennlab_network& net, hw::node_id id) {
    std::erase_if(net.nodes, [&](const hw::tennlab_node& n) { return n.id == id; });
    std::erase_if(net.edges, [&](const hw::tennlab_edge& e) { return e.from == id || e.to == id; });
}

}  // namespace volley::eons::detail
