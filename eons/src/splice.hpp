#pragma once
// The common step of crossover and merge: a child made of the input and output nodes, a
// prefix of one parent's hidden nodes, a suffix of the other's, and the edges that survive.

#include <volley/eons/operators.hpp>

#include <cstddef>
#include <vector>

namespace volley::eons::detail {

/// Which part of each parent goes into the child.
struct splice_plan {
    std::size_t a_hidden = 0;     ///< the first a_hidden hidden nodes of `a` (node order)
    std::size_t b_from = 0;       ///< the hidden nodes of `b` from this position on
    std::vector<bool> io_from_b;  ///< per input/output id: take its values from `b`
};

/// The hidden nodes of `net` in node order (ids >= inputs + outputs).
std::vector<const hw::tennlab_node*> hidden_nodes(const hw::tennlab_network& net,
                                                  const network_template& shape);

/// Builds the child described by `plan`: `a`'s edges among the nodes taken from `a` (inputs
/// and outputs count for both), then `b`'s among the nodes taken from `b`, renumbered, with a
/// repeated pair dropped; `b`'s hidden nodes past config.max_nodes are dropped.
hw::tennlab_network splice(const hw::tennlab_network& a, const hw::tennlab_network& b,
                           const splice_plan& plan, const network_template& shape,
                           const eons_config& config);

}  // namespace volley::eons::detail
