#pragma once
// The parameters that danna2 and the element grid share, as JSON: value limits, cycle rules,
// the default refractory period and the input scale. Each model adds its own keys.

#include <volley/danna/cycle_rules.hpp>
#include <volley/danna/hardware_network.hpp>

#include <nlohmann/json.hpp>

namespace volley::danna::detail {

inline nlohmann::json shared_params_json(const network_limits& limits, const cycle_rules& rules,
                                         int default_refractory, double spike_value_factor) {
    return {{"min_threshold", limits.min_threshold},
            {"max_threshold", limits.max_threshold},
            {"min_weight", limits.min_weight},
            {"max_weight", limits.max_weight},
            {"max_delay", limits.max_delay},
            {"max_refractory", limits.max_refractory},
            {"threshold_inclusive", rules.threshold_inclusive},
            {"leak_shift", rules.leak_shift},
            {"charge_min", rules.charge_min},
            {"charge_max", rules.charge_max},
            {"fifo_depth", rules.fifo_depth},
            {"ltp_window", rules.ltp_window},
            {"ltp_step", rules.ltp_step},
            {"ltd_step", rules.ltd_step},
            {"default_refractory", default_refractory},
            {"spike_value_factor", spike_value_factor}};
}

}  // namespace volley::danna::detail
