#pragma once
// The framework's generic JSON key check (RISP.md a.3 step 2), shared by the processor
// parameters and every level of the network JSON.

#include <nlohmann/json.hpp>

#include <initializer_list>
#include <string>

namespace volley::hw::detail {

/// The JSON type a key must have.
enum class json_kind { boolean, number, string, array, object };

/// One legal key and its type.
struct key_rule {
    const char* key;
    json_kind kind;
};

/// Checks `j` against the legal keys (visited in sorted order) and then the required ones,
/// throwing tennlab_error with the reference's message. With `allow_unknown`, keys that are
/// not legal are skipped instead of rejected.
/// @param object names `j` in the Volley message, e.g. "net.json: node 3"
void check_keys(const nlohmann::json& j, std::initializer_list<key_rule> legal,
                std::initializer_list<const char*> required, const std::string& object,
                bool allow_unknown = false);

/// True when `key` is among `legal`.
bool is_legal_key(const std::string& key, std::initializer_list<key_rule> legal);

}  // namespace volley::hw::detail
