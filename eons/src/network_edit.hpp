#pragma once
// Private helpers shared by the EONS operators: ids, node lookups and random edges.

#include <volley/eons/operators.hpp>

#include <cstdint>
#include <set>
#include <utility>
#include <vector>

namespace volley::eons::detail {

using edge_pair = std::pair<hw::node_id, hw::node_id>;

/// Number of input plus output nodes (ids below it are never deleted).
inline hw::node_id io_count(const network_template& shape) {
    return static_cast<hw::node_id>(shape.inputs + shape.outputs);
}

/// A network with the template's pack, network values and input/output lists, and no nodes.
hw::tennlab_network empty_network(const network_template& shape);

/// The largest node id plus one (0 for no nodes).
hw::node_id fresh_id(const hw::tennlab_network& net);

/// The (from, to) pairs of the network's edges.
std::set<edge_pair> edge_pairs(const hw::tennlab_network& net);

/// Number of (from, to) pairs that may still receive an edge.
std::uint64_t free_pair_count(const hw::tennlab_network& net, const eons_config& config);

/// Adds one edge with random values between a random free pair of nodes; false if none.
bool add_random_edge(hw::tennlab_network& net, const network_template& shape,
                     const eons_config& config, random_stream& rng);

/// Removes node `id` and every edge touching it.
void remove_node(hw::tennlab_network& net, hw::node_id id);

}  // namespace volley::eons::detail
