// The six EONS mutation operators (docs/eons.md, "Mutations").

#include <volley/eons/operators.hpp>

#include "network_edit.hpp"

#include <algorithm>

namespace volley::eons {

namespace {

constexpr mutation_kind all_kinds[] = {mutation_kind::add_node,   mutation_kind::delete_node,
                                       mutation_kind::add_edge,   mutation_kind::delete_edge,
                                       mutation_kind::node_param, mutation_kind::edge_param};

double rate_of(mutation_kind kind, const eons_config& c) {
    switch (kind) {
        case mutation_kind::add_node:
            return c.add_node_rate;
        case mutation_kind::delete_node:
            return c.delete_node_rate;
        case mutation_kind::add_edge:
            return c.add_edge_rate;
        case mutation_kind::delete_edge:
            return c.delete_edge_rate;
        case mutation_kind::node_param:
            return c.node_param_rate;
        case mutation_kind::edge_param:
            return c.edge_param_rate;
    }
    return 0;
}

std::vector<hw::node_id> hidden_ids(const hw::tennlab_network& net, const network_template& shape) {
    std::vector<hw::node_id> ids;
    for (const auto& n : net.nodes)
        if (n.id >= detail::io_count(shape)) ids.push_back(n.id);
    return ids;
}

/// Sets one random slot of `values` to a new random value of its property.
void change_slot(std::vector<double>& values, const std::vector<hw::property>& list, int slots,
                 random_stream& rng) {
    const int slot = static_cast<int>(rng.below(static_cast<std::uint64_t>(slots)));
    for (const auto& p : list)
        if (slot >= p.index && slot < p.index + p.size)
            values[static_cast<std::size_t>(slot)] = random_value(p, rng);
}

void add_node(hw::tennlab_network& net, const network_template& shape, random_stream& rng) {
    const std::uint64_t old = net.nodes.size();
    hw::tennlab_node n;
    n.id = detail::fresh_id(net);
    n.values = random_values(shape.properties.node, rng);
    const hw::node_id source = net.nodes[rng.below(old)].id;
    const hw::node_id target = net.nodes[rng.below(old)].id;
    net.nodes.push_back(n);
    hw::tennlab_edge in, out;
    in.from = source;
    in.to = n.id;
    in.values = random_values(shape.properties.edge, rng);
    out.from = n.id;
    out.to = target;
    out.values = random_values(shape.properties.edge, rng);
    net.edges.push_back(std::move(in));
    net.edges.push_back(std::move(out));
}

}  // namespace

std::string to_string(mutation_kind kind) {
    switch (kind) {
        case mutation_kind::add_node:
            return "add_node";
        case mutation_kind::delete_node:
            return "delete_node";
        case mutation_kind::add_edge:
            return "add_edge";
        case mutation_kind::delete_edge:
            return "delete_edge";
        case mutation_kind::node_param:
            return "node_param";
        case mutation_kind::edge_param:
            return "edge_param";
    }
    return "?";
}

bool applicable(mutation_kind kind, const hw::tennlab_network& net, const network_template& shape,
                const eons_config& config) {
    switch (kind) {
        case mutation_kind::add_node:
            return !net.nodes.empty() &&
                   net.nodes.size() < static_cast<std::size_t>(config.max_nodes);
        case mutation_kind::delete_node:
            return !hidden_ids(net, shape).empty();
        case mutation_kind::add_edge:
            return detail::free_pair_count(net, config) > 0;
        case mutation_kind::delete_edge:
            return !net.edges.empty();
        case mutation_kind::node_param:
            return !net.nodes.empty() && shape.properties.node_slots() > 0;
        case mutation_kind::edge_param:
            return !net.edges.empty() && shape.properties.edge_slots() > 0;
    }
    return false;
}

bool mutate(hw::tennlab_network& net, mutation_kind kind, const network_template& shape,
            const eons_config& config, random_stream& rng) {
    if (!applicable(kind, net, shape, config)) return false;
    switch (kind) {
        case mutation_kind::add_node:
            add_node(net, shape, rng);
            break;
        case mutation_kind::delete_node: {
            const std::vector<hw::node_id> ids = hidden_ids(net, shape);
            detail::remove_node(net, ids[rng.below(ids.size())]);
            break;
        }
        case mutation_kind::add_edge:
            detail::add_random_edge(net, shape, config, rng);
            break;
        case mutation_kind::delete_edge:
            net.edges.erase(net.edges.begin() +
                            static_cast<std::ptrdiff_t>(rng.below(net.edges.size())));
            break;
        case mutation_kind::node_param:
            change_slot(net.nodes[rng.below(net.nodes.size())].values, shape.properties.node,
                        shape.properties.node_slots(), rng);
            break;
        case mutation_kind::edge_param:
            change_slot(net.edges[rng.below(net.edges.size())].values, shape.properties.edge,
                        shape.properties.edge_slots(), rng);
            break;
    }
    return true;
}

bool mutate_random(hw::tennlab_network& net, const network_template& shape,
                   const eons_config& config, random_stream& rng) {
    double weights[std::size(all_kinds)];
    double total = 0;
    for (std::size_t k = 0; k < std::size(all_kinds); ++k) {
        weights[k] =
            applicable(all_kinds[k], net, shape, config) ? rate_of(all_kinds[k], config) : 0;
        total += weights[k];
    }
    if (total <= 0) return false;
    double r = rng.unit() * total;
    std::size_t pick = 0;
    while (pick + 1 < std::size(all_kinds) && (weights[pick] == 0 || r >= weights[pick]))
        r -= weights[pick++];
    // Rounding can leave r past the last positive weight: fall back to it.
    while (weights[pick] == 0) --pick;
    return mutate(net, all_kinds[pick], shape, config, rng);
}

}  // namespace volley::eons
