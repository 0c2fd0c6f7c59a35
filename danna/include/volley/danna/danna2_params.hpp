#pragma once
// Parameters of the DANNA 2 element-core model (DANNA.md, "danna2: element cores").
// Published: thresholds 0..1023, weights about ±1023, per-neuron refractory periods, the
// danna2.net format. Assumed (named here, marked in docs/danna.md): the delay and refractory
// bounds, the charge width, the FIFO depth, the LTP/LTD window and steps, the clock and the
// energies.

#include <volley/danna/cycle_rules.hpp>
#include <volley/danna/hardware_network.hpp>
#include <volley/hw/cost_report.hpp>
#include <volley/hw/property_pack.hpp>

#include <nlohmann/json.hpp>

#include <map>
#include <string>

namespace volley::danna {

/// The parameters of a danna2 processor (its `proc_params`).
struct danna2_params {
    /// Value bounds: thresholds 0..1023 and weights ±1023 (published); delays up to 256 and
    /// refractory periods up to 255 (assumptions).
    network_limits limits{0, 1023, -1023, 1023, 256, 255};
    /// Cycle rules; charge 16-bit saturating and weights saturating at ±1023 under learning.
    /// The FIFO depth defaults to max_delay so that no fire is ever dropped.
    cycle_rules rules{true, 0, -32768, 32767, 256, 4, 1, 1, -1023, 1023};
    int default_refractory = 1;        ///< [cycles] when a network has no Refractory property
    double spike_value_factor = 1023;  ///< normalised input value multiplier
    hw::cost_constant clock_hz;        ///< [Hz] network cycle rate
    std::map<std::string, hw::cost_constant> energy_per_event_j;  ///< [J] per event kind

    /// The defaults described above, with their sources.
    danna2_params();

    /// Parses `proc_params`; unknown keys and bad values throw invalid_parameter.
    static danna2_params from_json(const nlohmann::json& j);
    /// The parameters as JSON (what from_json reads back).
    nlohmann::json to_json() const;
    /// Node Threshold and Refractory, edge Weight and Delay, all integer.
    hw::property_pack network_properties() const;
};

}  // namespace volley::danna
