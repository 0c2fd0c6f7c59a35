#pragma once
// Graph structure of a NIR graph: edge endpoints, topological order, recurrent edges, and the
// shapes inferred along the edges.

#include "nir/nir_primitives.hpp"

#include <volley/snn/nir_graph.hpp>

#include <cstddef>
#include <vector>

namespace volley::snn::detail {

/// Checks that every edge endpoint names a node (file_format_error naming the missing node and
/// `where.path`/edges otherwise), then sets graph.order and graph.recurrent_edges. Nested graphs
/// are not entered; an endpoint "g.x" counts as an edge of node g.
void order_nir_graph(nir_graph& graph, const nir_location& where);

/// Infers every node's input and output shape in an ordered graph, recursing into nested graphs.
/// `fed` is the shape arriving at the graph's Input port from outside (null at the top level).
/// Throws file_format_error naming the node when weight shapes do not match their input.
void infer_nir_shapes(nir_graph& graph, const nir_location& where,
                      const std::vector<std::size_t>* fed);

}  // namespace volley::snn::detail
