#pragma once
// A programme for the `danna` element grid: what each cell is, which of its 16 input ports
// are enabled, and its values (DANNA.md, "danna: the element grid"). Place and route makes
// programmes; grid_engine runs them; they are saved as JSON with their learnt weights.

#include <volley/danna/grid_params.hpp>
#include <volley/danna/hardware_network.hpp>

#include <cstdint>
#include <string>
#include <vector>

namespace volley::danna {

/// What a cell of the grid is programmed as.
enum class element_kind : std::uint8_t {
    empty = 0,    ///< unused
    neuron = 1,   ///< integrates deliveries on its enabled ports, fires, is refractory
    synapse = 2,  ///< one source port; delays a fire and delivers its weight to one neuron
    fanout = 3,   ///< one source port; repeats the fire to its listeners one cycle later
};

/// The kind's name: "empty", "neuron", "synapse", "fanout".
const char* kind_name(element_kind k);

/// A grid programme. Per-cell data is structure-of-arrays, indexed by y × width + x.
struct grid_programme {
    grid_params params;                   ///< the grid it was made for
    std::vector<element_kind> kind;       ///< element kind of each cell
    std::vector<std::uint16_t> ports;     ///< enable bit p: port p (params.port_offsets[p]) is read
    std::vector<std::int32_t> threshold;  ///< neurons: threshold
    std::vector<std::int32_t> refractory;  ///< neurons: [cycles] refractory period
    std::vector<std::int32_t> weight;      ///< synapses: weight
    std::vector<std::int32_t> delay;       ///< synapses: [cycles] delay, 1..max_delay
    std::vector<std::uint8_t> learning;    ///< synapses: LTP/LTD enabled

    /// The network neuron each neuron element stands for, in hardware_network order.
    struct node_site {
        node_id id = 0;    ///< node id
        std::string name;  ///< node name
        int cell = 0;      ///< cell index
    };
    std::vector<node_site> nodes;    ///< one per network neuron
    std::vector<int> synapse_cells;  ///< cell of each network synapse (hardware_network order)
    std::vector<node_id> inputs;     ///< input node ids, by input index
    std::vector<node_id> outputs;    ///< output node ids, by output index

    /// An empty programme for a grid.
    explicit grid_programme(grid_params p = grid_preset("tiny"));

    /// Cell index of (x, y).
    int index(int x, int y) const { return y * params.width + x; }
    /// Coordinates of a cell index.
    cell position(int index) const { return {index % params.width, index / params.width}; }
    /// The cell that port `p` of cell `c` reads, or -1 outside the grid.
    int port_source(int c, int p) const;
    /// The port of cell `listener` that reads cell `source`, or -1 if none does.
    int port_towards(int listener, int source) const;

    /// Checks the structure: synapses and fan-outs read exactly one neuron or fan-out; each
    /// synapse is read by exactly one neuron, which reads only synapses; values in range;
    /// nodes name distinct neuron cells. Throws invalid_parameter naming the cell.
    void validate() const;

    /// The network the programme implements (neurons, synapses with current weights, I/O).
    hardware_network network() const;

    /// The programme as JSON ("volley-danna-programme", version 1).
    nlohmann::json to_json() const;
    /// Reads a programme; throws file_format_error naming `source` and the element.
    static grid_programme from_json(const nlohmann::json& j, const std::string& source);
};

/// Saves a programme as JSON; io_error if the file cannot be written.
void save_programme(const grid_programme& prog, const std::string& path);
/// Loads a programme; io_error / file_format_error.
grid_programme load_programme(const std::string& path);

}  // namespace volley::danna
