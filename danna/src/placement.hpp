#pragma once
// Neuron placement by simulated annealing on wire length (Kirkpatrick et al., Science 1983;
// the classic VLSI placement formulation): neurons sit on a lattice of sites spaced
// `neuron_spacing` apart, so that each keeps free cells around it for its synapse elements
// and for routing.

#include <volley/danna/grid_params.hpp>
#include <volley/danna/hardware_network.hpp>

#include <cstdint>
#include <vector>

namespace volley::danna::detail {

/// The result: the cell index of each neuron (hardware_network order) and the final cost.
struct placement {
    std::vector<int> cell;         ///< cell index per neuron
    std::int64_t wire_length = 0;  ///< Chebyshev length summed over synapses
};

/// The candidate neuron sites of a grid, centre first.
std::vector<int> neuron_sites(const grid_params& params);

/// Places the neurons; unroutable_network if there are more neurons than sites.
placement place_neurons(const hardware_network& net, const grid_params& params, std::uint64_t seed,
                        int moves_per_neuron);

}  // namespace volley::danna::detail
