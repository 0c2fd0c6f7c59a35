#pragma once
// RISP processor parameters (`proc_params`, RISP.md section a).

#include <volley/hw/property_pack.hpp>

#include <nlohmann/json.hpp>

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

namespace volley::hw {

/// How neurons leak between timesteps.
enum class leak_mode {
    none,          ///< charge is kept
    all,           ///< every neuron forgets its charge between event steps
    configurable,  ///< per node, through the `Leak` node property
};

/// The parameters of a RISP processor, as parsed and checked from JSON.
struct risp_params {
    bool discrete = true;                   ///< integer mode (Threshold and Weight are integers)
    std::uint32_t max_delay = 1;            ///< [steps] upper bound of the Delay property
    double min_threshold = 0;               ///< bound of the Threshold property
    double max_threshold = 1;               ///< bound of the Threshold property
    double min_potential = 0;               ///< floor of neuron charge (<= 0)
    std::optional<double> min_weight;       ///< bound of Weight (absent with a weights table)
    std::optional<double> max_weight;       ///< bound of Weight (absent with a weights table)
    std::vector<double> weights;            ///< weight table; Weight values index it when non-empty
    bool inputs_from_weights = false;       ///< input values select entries of `weights`
    double spike_value_factor = 0;          ///< multiplier of normalised inputs (derived if absent)
    bool spike_value_factor_given = false;  ///< true when the JSON set spike_value_factor
    hw::leak_mode leak = hw::leak_mode::none;  ///< leak mode
    bool threshold_inclusive = true;  ///< fire on charge >= threshold (else strictly above)
    bool run_time_inclusive = false;  ///< run(d) simulates d+1 steps
    bool fire_like_ravens = false;    ///< record fires one step late
    double noisy_stddev = 0;          ///< std. dev. of normal noise on every delivered value
    std::vector<double> stds;         ///< per-entry std. dev. of `weights`
    std::uint32_t noisy_seed = 0;     ///< RNG seed; 0 means time-based (not reproducible)

    /// Warnings the reference writes to stderr at construction (empty lines not included).
    std::vector<std::string> warnings;

    /// Parses and checks `proc_params` in the reference's order (RISP.md a.3). Throws
    /// tennlab_error with the reference's message for the first failing check.
    static risp_params from_json(const nlohmann::json& j);

    /// The echoed parameters printed by `PARAMS` and stored by `EMPTYNET` (RISP.md a.2).
    nlohmann::json to_json() const;

    /// The property pack a network must carry to load on this processor (RISP.md a.4).
    property_pack network_properties() const;

    /// The threshold actually compared against (`charge >= effective`) for a node's T.
    double effective_threshold(double threshold) const;

    /// True when any noise source is active.
    bool noisy() const { return noisy_stddev != 0 || !stds.empty(); }
};

}  // namespace volley::hw
