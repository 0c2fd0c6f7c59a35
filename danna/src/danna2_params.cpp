#include <volley/danna/danna2_params.hpp>

#include "model_params_json.hpp"

#include <volley/error.hpp>

#include <set>

namespace volley::danna {

namespace {
const char* const assumed_clock =
    "assumption: DANNA 2's clock is not given in DANNA.md; 1 network cycle per 100 MHz clock "
    "period is a placeholder";
const char* const assumed_energy =
    "assumption: no per-event energy is published for DANNA 2; order-of-magnitude placeholder";
}  // namespace

danna2_params::danna2_params() {
    clock_hz = {100.0e6, assumed_clock};
    energy_per_event_j = {{"neuron_fires", {5.0e-12, assumed_energy}},
                          {"synapse_deliveries", {2.0e-12, assumed_energy}},
                          {"inputs", {2.0e-12, assumed_energy}}};
}

danna2_params danna2_params::from_json(const nlohmann::json& j) {
    danna2_params p;
    if (j.is_null()) return p;
    if (!j.is_object())
        throw invalid_parameter("danna2 parameters", "proc_params", j.dump(), "must be an object");
    static const std::set<std::string> known = {
        "min_threshold", "max_threshold",  "min_weight",          "max_weight",
        "max_delay",     "max_refractory", "threshold_inclusive", "leak_shift",
        "charge_min",    "charge_max",     "fifo_depth",          "ltp_window",
        "ltp_step",      "ltd_step",       "default_refractory",  "spike_value_factor",
        "clock_hz"};
    for (const auto& [key, value] : j.items())
        if (known.count(key) == 0)
            throw invalid_parameter("danna2 parameters", key, value.dump(), "unknown parameter");
    const auto get = [&](const char* key, auto& field) {
        detail::read_param(j, key, field, "danna2 parameters");
    };
    get("min_threshold", p.limits.min_threshold);
    get("max_threshold", p.limits.max_threshold);
    get("min_weight", p.limits.min_weight);
    get("max_weight", p.limits.max_weight);
    get("max_delay", p.limits.max_delay);
    get("max_refractory", p.limits.max_refractory);
    get("threshold_inclusive", p.rules.threshold_inclusive);
    get("leak_shift", p.rules.leak_shift);
    get("charge_min", p.rules.charge_min);
    get("charge_max", p.rules.charge_max);
    p.rules.fifo_depth = p.limits.max_delay;
    get("fifo_depth", p.rules.fifo_depth);
    get("ltp_window", p.rules.ltp_window);
    get("ltp_step", p.rules.ltp_step);
    get("ltd_step", p.rules.ltd_step);
    get("default_refractory", p.default_refractory);
    p.spike_value_factor = p.limits.max_weight;
    get("spike_value_factor", p.spike_value_factor);
    if (j.contains("clock_hz")) get("clock_hz", p.clock_hz.value);
    p.rules.weight_min = p.limits.min_weight;
    p.rules.weight_max = p.limits.max_weight;
    const auto check = [](bool ok, const char* key, long long v, const char* why) {
        if (!ok) throw invalid_parameter("danna2 parameters", key, std::to_string(v), why);
    };
    check(p.limits.max_delay >= 1 && p.limits.max_delay <= 65535, "max_delay", p.limits.max_delay,
          "must be in [1, 65535]");
    check(p.limits.min_threshold <= p.limits.max_threshold, "max_threshold", p.limits.max_threshold,
          "must be >= min_threshold");
    check(p.limits.min_weight <= p.limits.max_weight, "max_weight", p.limits.max_weight,
          "must be >= min_weight");
    check(p.rules.leak_shift >= 0 && p.rules.leak_shift <= 30, "leak_shift", p.rules.leak_shift,
          "must be in [0, 30] (0: no leak)");
    check(p.rules.fifo_depth >= 1, "fifo_depth", p.rules.fifo_depth, "must be >= 1");
    check(p.rules.charge_min <= 0 && p.rules.charge_max >= 1, "charge_max", p.rules.charge_max,
          "the charge range must contain 0 and 1");
    check(p.rules.ltp_window >= 0, "ltp_window", p.rules.ltp_window, "must be >= 0");
    check(p.default_refractory >= 0, "default_refractory", p.default_refractory, "must be >= 0");
    check(p.clock_hz.value > 0, "clock_hz", static_cast<long long>(p.clock_hz.value),
          "must be > 0");
    return p;
}

nlohmann::json danna2_params::to_json() const {
    auto j = detail::shared_params_json(limits, rules, default_refractory, spike_value_factor);
    j["clock_hz"] = clock_hz.value;
    return j;
}

hw::property_pack danna2_params::network_properties() const {
    using hw::property_type;
    hw::property_pack pack;
    pack.node = {
        {property_names::threshold, property_type::integer, 0, 1,
         static_cast<double>(limits.min_threshold), static_cast<double>(limits.max_threshold)},
        {property_names::refractory, property_type::integer, 1, 1, 0,
         static_cast<double>(limits.max_refractory)}};
    pack.edge = {{property_names::weight, property_type::integer, 0, 1,
                  static_cast<double>(limits.min_weight), static_cast<double>(limits.max_weight)},
                 {property_names::delay, property_type::integer, 1, 1, 1,
                  static_cast<double>(limits.max_delay)}};
    return pack;
}

}  // namespace volley::danna
