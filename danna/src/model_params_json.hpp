#pragma once
// The parameters that danna2 and the element grid share, as JSON: value limits, cycle rules,
// the default refractory period and the input scale. Each model adds its own keys.

#include <volley/danna/cycle_rules.hpp>
#include <volley/danna/hardware_network.hpp>

#include <volley/error.hpp>
#include <volley/json_integer.hpp>

#include <nlohmann/json.hpp>

#include <concepts>
#include <string>

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

/// Reads j[key] into `field` when j has the key: an integer field takes only an integer within
/// its type's range (json_integer.hpp), any other field the JSON type of its own; else an
/// invalid_parameter naming `object`, the key and the value.
template <class T>
void read_param(const nlohmann::json& j, const char* key, T& field, const std::string& object) {
    if (!j.contains(key)) return;
    const auto& v = j.at(key);
    if constexpr (std::integral<T> && !std::same_as<T, bool>) {
        const auto value = json_integer<T>(v);
        if (!value)
            throw invalid_parameter(object, key, v.dump(),
                                    "must be an integer in [" + std::to_string(std::numeric_limits<T>::min()) +
                                        ", " + std::to_string(std::numeric_limits<T>::max()) + "]");
        field = *value;
    } else {
        try {
            field = v.get<T>();
        } catch (const nlohmann::json::exception&) {
            throw invalid_parameter(object, key, v.dump(), "wrong type");
        }
    }
}

}  // namespace volley::danna::detail
