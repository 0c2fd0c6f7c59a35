#include <volley/hw/risp_params.hpp>
#include <volley/hw/tennlab_error.hpp>

#include "json_key_check.hpp"

#include <cmath>
#include <cstdio>

namespace volley::hw {

namespace {

using detail::json_kind;
const std::string object = "RISP parameters";

[[noreturn]] void fail(const std::string& message) {
    throw tennlab_error(object, message);
}

/// The reference's integer test: truncating to int gives the same value.
bool is_int(double v) {
    return std::fabs(v) < 2147483648.0 && std::trunc(v) == v;
}

std::uint32_t to_u32(const nlohmann::json& v) {
    if (v.is_number_unsigned()) return static_cast<std::uint32_t>(v.get<std::uint64_t>());
    if (v.is_number_integer()) return static_cast<std::uint32_t>(v.get<std::int64_t>());
    const double d = std::trunc(v.get<double>());
    if (!(std::fabs(d) < 9.2e18)) return 0;
    return static_cast<std::uint32_t>(static_cast<std::int64_t>(d));
}

std::vector<double> numbers(const nlohmann::json& arr, const char* key) {
    std::vector<double> out;
    for (const auto& v : arr) {
        if (!v.is_number())
            throw tennlab_error(object,
                                std::string(key) + " entry " + v.dump() + " is not a number", "");
        out.push_back(v.get<double>());
    }
    return out;
}

std::string lg(double v) {
    char buf[64];
    std::snprintf(buf, sizeof buf, "%g", v);
    return buf;
}

void check_retired(const nlohmann::json& j) {
    if (!j.is_object()) return;
    if (j.contains("input_scaling_value"))
        fail(
            "RISP: input_scaling_value is no longer supported.\n"
            "      Please change that parameter to spike_value_factor.\n");
    if (j.contains("non_negative_charge"))
        fail(
            "RISP: non_negative_charge is no longer supported.\n"
            "      Instead, min_potential is a required parameter.\n"
            "      Please set min_potential to zero.\n"
            "      Please also see utils/risp_08_2024.\n");
    if (j.contains("specific_weights"))
        fail(
            "RISP: specific_weights is no longer supported.\n"
            "      Instead, you simply set the weights array, and it will be used.\n"
            "      Please also see utils/risp_08_2024.\n");
    if (j.contains("noisy_weights"))
        fail(
            "RISP: noisy_weights is no longer supported.\n"
            "      Instead, you simply set the stds array, and it will be used.\n"
            "      Please also see utils/risp_08_2024.\n");
}

}  // namespace

risp_params risp_params::from_json(const nlohmann::json& j) {
    check_retired(j);
    detail::check_keys(j,
                       {{"discrete", json_kind::boolean},
                        {"fire_like_ravens", json_kind::boolean},
                        {"inputs_from_weights", json_kind::boolean},
                        {"leak_mode", json_kind::string},
                        {"max_delay", json_kind::number},
                        {"max_threshold", json_kind::number},
                        {"max_weight", json_kind::number},
                        {"min_potential", json_kind::number},
                        {"min_threshold", json_kind::number},
                        {"min_weight", json_kind::number},
                        {"noisy_seed", json_kind::number},
                        {"noisy_stddev", json_kind::number},
                        {"run_time_inclusive", json_kind::boolean},
                        {"spike_value_factor", json_kind::number},
                        {"stds", json_kind::array},
                        {"threshold_inclusive", json_kind::boolean},
                        {"weights", json_kind::array}},
                       {"max_delay", "min_threshold", "max_threshold", "min_potential", "discrete"},
                       object);
    risp_params p;
    p.discrete = j["discrete"].get<bool>();
    p.max_delay = to_u32(j["max_delay"]);
    p.min_threshold = j["min_threshold"].get<double>();
    p.max_threshold = j["max_threshold"].get<double>();
    p.min_potential = j["min_potential"].get<double>();
    if (j.contains("min_weight")) p.min_weight = j["min_weight"].get<double>();
    if (j.contains("max_weight")) p.max_weight = j["max_weight"].get<double>();
    if (j.contains("weights")) p.weights = numbers(j["weights"], "weights");
    if (j.contains("stds")) p.stds = numbers(j["stds"], "stds");
    const bool has_ifw = j.contains("inputs_from_weights");
    if (has_ifw) p.inputs_from_weights = j["inputs_from_weights"].get<bool>();
    p.spike_value_factor_given = j.contains("spike_value_factor");
    if (p.spike_value_factor_given) p.spike_value_factor = j["spike_value_factor"].get<double>();
    if (j.contains("threshold_inclusive"))
        p.threshold_inclusive = j["threshold_inclusive"].get<bool>();
    if (j.contains("run_time_inclusive"))
        p.run_time_inclusive = j["run_time_inclusive"].get<bool>();
    if (j.contains("fire_like_ravens")) p.fire_like_ravens = j["fire_like_ravens"].get<bool>();
    if (j.contains("noisy_stddev")) p.noisy_stddev = j["noisy_stddev"].get<double>();
    if (j.contains("noisy_seed")) p.noisy_seed = to_u32(j["noisy_seed"]);

    if (!p.weights.empty()) {
        if (p.min_weight) fail("RISP: Cannot have weights and min_weight.");
        if (p.max_weight) fail("RISP: Cannot have weights and max_weight.");
        if (!has_ifw)
            fail("RISP: If you specify weights, then you must specify inputs_from_weights.");
        for (std::size_t i = 1; i < p.weights.size(); ++i) {
            if (p.weights[i] < p.weights[i - 1])
                fail("RISP: If you specify weights, then they must be sorted.\n");
            if (p.discrete && !is_int(p.weights[i]))
                fail("RISP: Since discrete is true, weights must be integers.\n");
        }
        if (!p.inputs_from_weights && !p.spike_value_factor_given)
            fail("RISP: If inputs_from_weights is false, you must specify spike_value_factor.");
        if (p.inputs_from_weights && p.spike_value_factor_given)
            fail("RISP: If inputs_from_weights is true, you cannot specify spike_value_factor.");
    } else {
        if (!p.min_weight) fail("RISP: Need parameter min_weight.");
        if (!p.max_weight) fail("RISP: Need parameter max_weight.");
        if (has_ifw)
            fail("RISP: If you don't specify weights, you cannot specify inputs_from_weights.");
    }

    if (!p.spike_value_factor_given) {
        if (!p.weights.empty()) {
            p.spike_value_factor = -99999999.99;
        } else {
            p.spike_value_factor = *p.max_weight;
            if (*p.max_weight < p.max_threshold ||
                (!p.threshold_inclusive && *p.max_weight == p.max_threshold)) {
                p.warnings.push_back(std::string("Warning: max_weight ") +
                                     (p.threshold_inclusive ? "<=" : "<") +
                                     " max_threshold and spike_value_factor unset.");
                p.warnings.push_back("Spike_value_factor set to " + lg(p.spike_value_factor) + ".");
            }
        }
    }

    if (j.contains("leak_mode")) {
        const std::string mode = j["leak_mode"].get<std::string>();
        if (mode == "none")
            p.leak = leak_mode::none;
        else if (mode == "all")
            p.leak = leak_mode::all;
        else if (mode == "configurable")
            p.leak = leak_mode::configurable;
        else
            fail("Reading processor json - bad leak_mode.  Must be all, none or configurable");
    }

    if (p.discrete) {
        const std::pair<const char*, std::optional<double>> checks[] = {
            {"min_weight", p.min_weight},
            {"max_weight", p.max_weight},
            {"min_potential", p.min_potential},
            {"min_threshold", p.min_threshold},
            {"max_threshold", p.max_threshold}};
        for (const auto& [key, value] : checks)
            if (value && !is_int(*value))
                fail(std::string("When discrete = true, ") + key + " must be an integer.");
        for (double w : p.weights)
            if (!is_int(w)) fail("When discrete = true, all weights must be integers.");
    }
    if (p.min_potential > 0) fail("Reading processor json - min_potential must be <= 0");

    if (!p.stds.empty() && p.weights.empty())
        fail("If you specify stds, then you must specify weights and they must be the same size.");
    if (!p.stds.empty() && p.stds.size() != p.weights.size())
        fail("weights and stds must be the same size.");
    if (!p.stds.empty() && p.noisy_stddev != 0) fail("Cannot specify both noisy_stddev and stds.");
    if (!p.stds.empty() && p.discrete) fail("Cannot specify stds and discrete = true.");
    if (p.noisy_stddev != 0 && p.discrete) fail("Cannot specify noisy_stddev and discrete = true.");
    return p;
}

nlohmann::json risp_params::to_json() const {
    nlohmann::json j = nlohmann::json::object();
    if (weights.empty()) {
        j["min_weight"] = min_weight.value_or(0.0);
        j["max_weight"] = max_weight.value_or(0.0);
        j["spike_value_factor"] = spike_value_factor;
    } else {
        j["weights"] = weights;
        j["inputs_from_weights"] = inputs_from_weights;
        if (!inputs_from_weights) j["spike_value_factor"] = spike_value_factor;
    }
    j["max_delay"] = max_delay;
    j["min_threshold"] = min_threshold;
    j["max_threshold"] = max_threshold;
    j["min_potential"] = min_potential;
    j["discrete"] = discrete;
    j["leak_mode"] = leak == leak_mode::all            ? "all"
                     : leak == leak_mode::configurable ? "configurable"
                                                       : "none";
    j["fire_like_ravens"] = fire_like_ravens;
    j["run_time_inclusive"] = run_time_inclusive;
    j["threshold_inclusive"] = threshold_inclusive;
    if (noisy_seed != 0) j["noisy_seed"] = noisy_seed;
    if (noisy_stddev != 0) j["noisy_stddev"] = noisy_stddev;
    if (!stds.empty()) j["stds"] = stds;
    return j;
}

property_pack risp_params::network_properties() const {
    const property_type num = discrete ? property_type::integer : property_type::real;
    property_pack pack;
    pack.node.push_back({"Threshold", num, 0, 1, min_threshold, max_threshold});
    if (leak == leak_mode::configurable)
        pack.node.push_back({"Leak", property_type::boolean, 1, 1, 0, 1});
    if (weights.empty())
        pack.edge.push_back({"Weight", num, 0, 1, min_weight.value_or(0), max_weight.value_or(0)});
    else
        pack.edge.push_back(
            {"Weight", property_type::integer, 0, 1, 0, static_cast<double>(weights.size()) - 1});
    pack.edge.push_back({"Delay", property_type::integer, 1, 1, 1, static_cast<double>(max_delay)});
    return pack;
}

double risp_params::effective_threshold(double threshold) const {
    if (threshold_inclusive) return threshold;
    return discrete ? threshold + 1 : threshold + 0.0000001;
}

}  // namespace volley::hw
