#include "nir/nir_primitives.hpp"

#include <volley/error.hpp>

#include <algorithm>
#include <cmath>
#include <sstream>
#include <string_view>

namespace volley::snn::detail {

namespace {

/// What values a parameter may take.
enum class param_kind {
    real,           // any finite number
    time_constant,  // > 0 [s]
    delay,          // >= 0 [s]
    positive_int,   // integers >= 1 (stride, kernel_size, dilation, groups)
    padding,        // integers >= 0, or "same" / "valid"
    shape,          // integers >= 1
    index           // any integer (start_dim, end_dim)
};

struct param_rule {
    std::string_view name;
    bool required;
    param_kind kind;
};

struct primitive_rule {
    std::string_view type;
    std::vector<param_rule> params;
};

const std::vector<primitive_rule>& primitive_rules() {
    using k = param_kind;
    static const std::vector<primitive_rule> rules = {
        {"Input", {{"shape", true, k::shape}}},
        {"Output", {{"shape", false, k::shape}}},
        {"Affine", {{"weight", true, k::real}, {"bias", true, k::real}}},
        {"Linear", {{"weight", true, k::real}}},
        {"Scale", {{"scale", true, k::real}}},
        {"Conv1d",
         {{"weight", true, k::real},
          {"bias", false, k::real},
          {"stride", false, k::positive_int},
          {"padding", false, k::padding},
          {"dilation", false, k::positive_int},
          {"groups", false, k::positive_int},
          {"input_shape", false, k::shape}}},
        {"Conv2d",
         {{"weight", true, k::real},
          {"bias", false, k::real},
          {"stride", false, k::positive_int},
          {"padding", false, k::padding},
          {"dilation", false, k::positive_int},
          {"groups", false, k::positive_int},
          {"input_shape", false, k::shape}}},
        {"Flatten",
         {{"start_dim", false, k::index},
          {"end_dim", false, k::index},
          {"input_type", false, k::shape}}},
        {"SumPool2d",
         {{"kernel_size", true, k::positive_int},
          {"stride", false, k::positive_int},
          {"padding", false, k::padding}}},
        {"AvgPool2d",
         {{"kernel_size", true, k::positive_int},
          {"stride", false, k::positive_int},
          {"padding", false, k::padding}}},
        {"Threshold", {{"threshold", true, k::real}}},
        {"Delay", {{"delay", true, k::delay}}},
        {"I", {{"r", true, k::real}}},
        {"IF", {{"r", true, k::real}, {"v_threshold", true, k::real}, {"v_reset", false, k::real}}},
        {"LI", {{"tau", true, k::time_constant}, {"r", true, k::real}, {"v_leak", true, k::real}}},
        {"LIF",
         {{"tau", true, k::time_constant},
          {"r", true, k::real},
          {"v_leak", true, k::real},
          {"v_threshold", true, k::real},
          {"v_reset", false, k::real}}},
        {"CubaLI",
         {{"tau_syn", true, k::time_constant},
          {"tau_mem", true, k::time_constant},
          {"r", true, k::real},
          {"v_leak", true, k::real},
          {"w_in", false, k::real}}},
        {"CubaLIF",
         {{"tau_syn", true, k::time_constant},
          {"tau_mem", true, k::time_constant},
          {"r", true, k::real},
          {"v_leak", true, k::real},
          {"v_threshold", true, k::real},
          {"v_reset", false, k::real},
          {"w_in", false, k::real}}},
    };
    return rules;
}

std::string number_text(double v) {
    std::ostringstream out;
    out << v;
    return out.str();
}

void check_value(const nir_node& node, const std::string& key, const nir_array& a, param_kind kind,
                 const nir_location& where) {
    const std::string object = where.file + ": NIR node '" + where.path + "'";
    if (a.is_text()) {
        if (kind == param_kind::padding && (a.text == "same" || a.text == "valid")) return;
        throw file_format_error(
            where.file, where.path + "/" + key,
            node.type + " parameter '" + key + "' is the string '" + a.text + "'" +
                (kind == param_kind::padding ? "; padding must be integers, 'same' or 'valid'"
                                             : "; it must be numeric"));
    }
    for (double v : a.values) {
        if (!std::isfinite(v))
            throw invalid_parameter(object, key, number_text(v), "must be finite");
        const bool integral = v == std::floor(v);
        switch (kind) {
            case param_kind::real:
                break;
            case param_kind::time_constant:
                if (v <= 0) throw invalid_parameter(object, key, number_text(v), "must be > 0 [s]");
                break;
            case param_kind::delay:
                if (v < 0) throw invalid_parameter(object, key, number_text(v), "must be >= 0 [s]");
                break;
            case param_kind::positive_int:
            case param_kind::shape:
                if (!integral || v < 1)
                    throw invalid_parameter(object, key, number_text(v), "must be an integer >= 1");
                break;
            case param_kind::padding:
                if (!integral || v < 0)
                    throw invalid_parameter(object, key, number_text(v), "must be an integer >= 0");
                break;
            case param_kind::index:
                if (!integral)
                    throw invalid_parameter(object, key, number_text(v), "must be an integer");
                break;
        }
    }
}

/// A parameter filled with `value`, shaped and typed like `like`.
nir_array filled_like(const nir_array& like, double value) {
    nir_array a = like;
    std::fill(a.values.begin(), a.values.end(), value);
    return a;
}

}  // namespace

void check_nir_params(nir_node& node, const nir_location& where) {
    if (node.type.empty())
        throw file_format_error(where.file, where.path, "node '" + node.name + "' has no type");
    if (node.type == "NIRGraph") {
        if (!node.params.empty())
            throw file_format_error(where.file, where.path + "/" + node.params.begin()->first,
                                    "unknown parameter '" + node.params.begin()->first +
                                        "' of NIRGraph node '" + node.name + "'");
        return;
    }
    const auto& rules = primitive_rules();
    auto rule = std::find_if(rules.begin(), rules.end(),
                             [&](const primitive_rule& r) { return r.type == node.type; });
    if (rule == rules.end())
        throw file_format_error(where.file, where.path,
                                "node '" + node.name + "' has unknown type '" + node.type + "'");
    for (const auto& [key, value] : node.params) {
        auto p = std::find_if(rule->params.begin(), rule->params.end(),
                              [&key = key](const param_rule& r) { return r.name == key; });
        if (p == rule->params.end())
            throw file_format_error(
                where.file, where.path + "/" + key,
                "unknown parameter '" + key + "' of " + node.type + " node '" + node.name + "'");
        check_value(node, key, value, p->kind, where);
    }
    for (const auto& p : rule->params)
        if (p.required && !node.params.contains(std::string(p.name)))
            throw file_format_error(where.file, where.path,
                                    node.type + " node '" + node.name + "' lacks parameter '" +
                                        std::string(p.name) + "'");
    const bool spiking = node.type == "IF" || node.type == "LIF" || node.type == "CubaLIF";
    if (spiking && !node.params.contains("v_reset"))
        node.params["v_reset"] = filled_like(node.params.at("v_threshold"), 0.0);
    const bool cuba = node.type == "CubaLI" || node.type == "CubaLIF";
    if (cuba && !node.params.contains("w_in"))
        node.params["w_in"] = filled_like(node.params.at("tau_syn"), 1.0);
}

std::vector<long long> nir_int_tuple(const nir_node& node, const std::string& key, std::size_t rank,
                                     long long fallback, const nir_location& where) {
    const nir_array* a = node.param(key);
    if (a == nullptr) return std::vector<long long>(rank, fallback);
    if (a->values.size() == 1) return std::vector<long long>(rank, std::llround(a->values[0]));
    if (a->values.size() != rank || a->is_text())
        throw file_format_error(where.file, where.path + "/" + key,
                                node.type + " parameter '" + key + "' has " +
                                    std::to_string(a->values.size()) + " values; expected 1 or " +
                                    std::to_string(rank));
    std::vector<long long> out;
    for (double v : a->values) out.push_back(std::llround(v));
    return out;
}

std::string nir_shape_text(const std::vector<std::size_t>& shape) {
    std::string out = "[";
    for (std::size_t i = 0; i < shape.size(); ++i)
        out += (i ? ", " : "") + std::to_string(shape[i]);
    return out + "]";
}

}  // namespace volley::snn::detail
