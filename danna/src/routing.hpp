#pragma once
// Fan-out routing on the element grid by Lee's algorithm (Lee, IRE Trans. Electronic
// Computers, 1961): a breadth-first wave from every cell that already carries the
// pre-neuron's fire (the neuron itself at latency 0, its fan-out tree at the tree's hop
// counts) through free cells, stopping at the first free port cell of the target neuron that
// can read the wave. The wave visits cells in order of latency, so the route found has the
// fewest fan-out hops, which is what delay compensation needs.

#include <volley/danna/grid_programme.hpp>
#include <volley/danna/hardware_network.hpp>

#include <vector>

namespace volley::danna::detail {

/// Routes every synapse of `net` onto `prog`, whose neuron elements are already placed at
/// `cells` (hardware_network order). Fills synapse_cells. Returns the hop count per synapse.
/// Throws unroutable_network naming the node or edge.
std::vector<int> route_synapses(const hardware_network& net, const std::vector<int>& cells,
                                grid_programme& prog);

}  // namespace volley::danna::detail
