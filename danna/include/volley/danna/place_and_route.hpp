#pragma once
// Place and route: from a hardware network to a grid programme (DANNA.md, "Place and
// route"). Neurons are placed by simulated annealing on wire length; every synapse becomes a
// synapse element on a port of its target neuron; where the pre-neuron is out of reach, a
// Lee (breadth-first) router builds a path of fan-out elements, shared by all synapses of the
// same pre-neuron, and the path's latency is subtracted from the synapse delay.

#include <volley/danna/grid_params.hpp>
#include <volley/danna/grid_programme.hpp>
#include <volley/danna/hardware_network.hpp>

#include <cstdint>
#include <map>
#include <string>

namespace volley::danna {

/// Options of place and route.
struct place_and_route_options {
    std::uint64_t seed = 1;             ///< placement seed; equal seeds give equal programmes
    int anneal_moves_per_neuron = 400;  ///< simulated-annealing moves per neuron
    int attempts = 4;  ///< placements tried (seeds derived from `seed`) before failing
};

/// What place and route did.
struct route_report {
    std::map<std::string, std::int64_t> elements;       ///< element counts by kind (empty included)
    double utilisation = 0;                             ///< used cells / all cells
    int longest_path_hops = 0;                          ///< most fan-out elements on one route
    std::int64_t fanout_hops = 0;                       ///< fan-out hops summed over all synapses
    int added_latency_cycles = grid_io_latency_cycles;  ///< [cycles] output latency added
                                                        ///< (delays are compensated)
    std::int64_t wire_length = 0;  ///< placement cost: Chebyshev length summed over synapses
    int attempt = 1;               ///< which placement attempt routed
    double seconds = 0;            ///< [s] time place and route took

    /// The report as JSON.
    nlohmann::json to_json() const;
    /// A short human-readable summary.
    std::string to_text() const;
};

/// A programme and its report.
struct placed_network {
    grid_programme programme;  ///< the grid programme
    route_report report;       ///< the report
};

/// Places and routes `net` on a grid. Throws invalid_parameter for values outside the grid's
/// limits, and unroutable_network naming the node or edge when it does not fit: fan-in over
/// 16, more neurons than neuron sites, no free path, or a delay shorter than the path.
placed_network place_and_route(const hardware_network& net, const grid_params& params,
                               const place_and_route_options& options = {});

}  // namespace volley::danna
