#include "json_key_check.hpp"

#include <volley/hw/tennlab_error.hpp>

namespace volley::hw::detail {

namespace {

bool has_kind(const nlohmann::json& v, json_kind kind) {
    switch (kind) {
        case json_kind::boolean:
            return v.is_boolean();
        case json_kind::number:
            return v.is_number();
        case json_kind::string:
            return v.is_string();
        case json_kind::array:
            return v.is_array();
        case json_kind::object:
            return v.is_object();
    }
    return false;
}

const char* kind_text(json_kind kind) {
    switch (kind) {
        case json_kind::boolean:
            return "a boolean";
        case json_kind::number:
            return "a number";
        case json_kind::string:
            return "a string";
        case json_kind::array:
            return "a json array";
        case json_kind::object:
            return "a json object";
    }
    return "";
}

}  // namespace

bool is_legal_key(const std::string& key, std::initializer_list<key_rule> legal) {
    for (const auto& rule : legal)
        if (key == rule.key) return true;
    return false;
}

void check_keys(const nlohmann::json& j, std::initializer_list<key_rule> legal,
                std::initializer_list<const char*> required, const std::string& object,
                bool allow_unknown) {
    if (!j.is_null() && !j.is_object()) throw tennlab_error(object, "JSON is not an object.\n");
    if (j.is_object()) {
        for (const auto& [key, value] : j.items()) {
            const key_rule* rule = nullptr;
            for (const auto& r : legal)
                if (key == r.key) rule = &r;
            if (rule == nullptr) {
                if (allow_unknown) continue;
                throw tennlab_error(object, "unknown key \"" + key + "\"",
                                    "Illegal parameter: " + key + "\n");
            }
            if (!has_kind(value, rule->kind))
                throw tennlab_error(
                    object,
                    "key \"" + key + "\" = " + value.dump() + ": must be " + kind_text(rule->kind),
                    "Parameter " + key + ": must be " + kind_text(rule->kind) + ".\n");
        }
    }
    std::string missing, names;
    for (const char* key : required) {
        if (j.is_object() && j.contains(key)) continue;
        missing += std::string("Missing parameter \"") + key + "\"\n";
        names += std::string(names.empty() ? "" : ", ") + key;
    }
    if (!missing.empty()) throw tennlab_error(object, "missing key(s) " + names, missing);
}

}  // namespace volley::hw::detail
