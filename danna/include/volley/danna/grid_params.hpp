#pragma once
// Parameters and presets of the `danna` element grid (DANNA.md, "danna: the element grid").
// Published facts: the array sizes (65×65 FPGA, 75×75 VLSI), 16 input ports per element, the
// VLSI clock at about 10× the FPGA's. Everything else is a named Volley assumption; the
// `source` strings and docs/danna.md say which.

#include <volley/danna/cycle_rules.hpp>
#include <volley/danna/hardware_network.hpp>
#include <volley/hw/cost_report.hpp>

#include <array>
#include <map>
#include <string>

namespace volley::danna {

/// The number of input ports of every element.
inline constexpr int ports_per_element = 16;

/// Network cycles between an external input and the same fire on danna2 (DANNA.md "key
/// property"). In this model inputs are added in the cycle they are given and outputs are read
/// from the fired bit of the same cycle, so it is 0 on both models.
inline constexpr int grid_io_latency_cycles = 0;

/// The port offsets [cells]: the 8 cells at Chebyshev distance 1, then (±2,0), (0,±2), (±2,±2).
/// Port p of the element at c reads the element at c + offsets[p]. (Assumption: the patents
/// say only "neighbours ... in multiples of eight".)
std::array<cell, ports_per_element> default_port_offsets();

/// Everything that defines a grid model.
struct grid_params {
    std::string preset = "tiny";                                                ///< preset name
    int width = 16;                                                             ///< [cells]
    int height = 16;                                                            ///< [cells]
    std::array<cell, ports_per_element> port_offsets = default_port_offsets();  ///< see above
    /// Values: weights 8-bit signed, thresholds [0, 255], delays 1..256 (assumed DANNA 1
    /// widths), refractory periods up to 255.
    network_limits limits{0, 255, -128, 127, 256, 255};
    cycle_rules rules;                ///< charge 16-bit saturating, FIFO depth, LTP/LTD
    int default_refractory = 1;       ///< [cycles] for networks without a Refractory property
    double spike_value_factor = 127;  ///< normalised input value multiplier
    int clocks_per_cycle = ports_per_element;  ///< element clocks per network cycle
    hw::cost_constant element_clock_hz;        ///< [Hz] element clock of the preset
    std::map<std::string, hw::cost_constant> energy_per_event_j;  ///< [J] per event kind
    int neuron_spacing = 3;  ///< [cells] pitch of the lattice the placer puts neurons on

    /// Number of cells.
    int cells() const { return width * height; }
    /// Checks every value; throws invalid_parameter naming the parameter.
    void validate() const;
    /// The parameters as JSON (saved in programmes).
    nlohmann::json to_json() const;
    /// Reads parameters written by to_json; missing keys keep the preset's values.
    static grid_params from_json(const nlohmann::json& j);
};

/// The presets `tiny` (16×16), `fpga2014` (65×65) and `vlsi2016` (75×75, 10× the FPGA clock).
/// Throws invalid_parameter for another name.
grid_params grid_preset(const std::string& name);

}  // namespace volley::danna
