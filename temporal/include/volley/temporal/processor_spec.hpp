#pragma once
// Which neuroprocessor runs a temporal network (docs/temporal.md, "Processors"). Every kind
// runs the same TENNLab network with RISP properties: "risp" on the RISP model; "danna2" and
// "danna" (the element grid, placed and routed at load) through danna::make_processor with
// proc_name "risp" (refractory 0, RISP's threshold_inclusive and spike_value_factor).

#include <volley/hw/neuroprocessor.hpp>
#include <volley/hw/property_pack.hpp>
#include <volley/temporal/encoding.hpp>

#include <nlohmann/json.hpp>

#include <memory>
#include <string>
#include <vector>

namespace volley::temporal {

/// The RISP parameters of the temporal networks.
struct risp_settings {
    int max_weight = 8;       ///< W: weights in [-W, W]; input spikes deliver W (spike_value_factor)
    int max_threshold = 16;   ///< thresholds in [1, max_threshold] (>= W + 1)
    int min_potential = -128; ///< floor of the charge (<= -W keeps the hand-built networks exact)
    int max_delay = 0;        ///< [cycles] largest synapse delay; 0: 2 · cycles_per_frame
    /// RISP's leak_mode "all" (a neuron that does not fire loses its charge at the end of every
    /// cycle) instead of "none". RISP only: the DANNA models have no such leak.
    bool leak = false;
};

/// The proc_params: {"discrete": true, "leak_mode": "none", "min_threshold": 1,
/// "max_threshold", "min_weight": -W, "max_weight": W, "spike_value_factor": W,
/// "min_potential", "max_delay", "threshold_inclusive": true}. invalid_parameter for W < 1,
/// max_threshold < W + 1, min_potential > 0 or a delay below cycles_per_frame + 1.
nlohmann::json temporal_risp_params(const encoding_options& encoding, const risp_settings& settings = {});

/// The RISP parameters of a TENNLab preset (Plank et al., "The RISP Neuroprocessor", 2022, and
/// the cart-pole benchmark paper): "risp-1+" (weight 1, threshold 1), "risp-1" (weights −1..1,
/// thresholds 0..1), "risp-7", "risp-15+" (weights and thresholds 1..15) and "risp-127"; no leak,
/// discrete, max_delay 15 (127 for risp-127), min_potential −max_weight (0 for the "+" presets).
/// A name ending in ".json" is a file of RISP parameters (TENNLab's processor JSON, e.g. RISP-1
/// with "min_threshold": 1), checked as the RISP processor checks them: io_error if it cannot be
/// read, file_format_error naming it and the key otherwise. unknown_name for another name.
nlohmann::json risp_preset(const std::string& name);
/// The preset names, as risp_preset takes them.
std::vector<std::string> risp_preset_names();

/// A processor kind and its parameters.
struct processor_spec {
    std::string kind = "risp";       ///< "risp", "danna2" or "danna"
    nlohmann::json proc_params;      ///< RISP proc_params (temporal_risp_params)
    std::string grid_preset = "fpga2014";  ///< danna only: the grid

    /// A fresh processor; unknown_name (kind "processor kind") for another kind, tennlab_error
    /// for bad proc_params.
    std::unique_ptr<hw::neuroprocessor> make() const;
    /// The property pack of the networks (the RISP pack of proc_params, for every kind).
    hw::property_pack network_properties() const;
};

}  // namespace volley::temporal
