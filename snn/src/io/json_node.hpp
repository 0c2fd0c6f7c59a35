#pragma once
// The JSON value with its path that the network JSON reader walks (network_json.cpp), and the
// parts of that format kept in files of their own (network_json_plasticity.cpp).

#include <volley/error.hpp>
#include <volley/snn/plasticity.hpp>

#include <nlohmann/json.hpp>

#include <set>
#include <string>
#include <vector>

namespace volley::snn::detail {

using json = nlohmann::json;

/// A JSON value with its path, for errors that say where and what.
class node {
public:
    node(const json& j, std::string path, const std::string& file) : j_(j), path_(std::move(path)), file_(file) {}

    [[noreturn]] void fail(const std::string& what) const { throw file_format_error(file_, path_.empty() ? "/" : path_, what); }

    std::string show() const {
        auto s = j_.dump();
        return s.size() > 60 ? s.substr(0, 57) + "..." : s;
    }

    const json& raw() const { return j_; }
    const std::string& path() const { return path_; }

    node at(const std::string& key) const {
        if (!j_.is_object()) fail("expected an object, got " + show());
        if (!j_.contains(key)) fail("missing required key '" + key + "'");
        return {j_.at(key), path_ + "/" + key, file_};
    }
    bool has(const std::string& key) const { return j_.is_object() && j_.contains(key); }
    node at(std::size_t i) const { return {j_.at(i), path_ + "/" + std::to_string(i), file_}; }
    std::size_t size() const { return j_.size(); }

    void only_keys(std::initializer_list<const char*> allowed) const {
        if (!j_.is_object()) fail("expected an object, got " + show());
        for (const auto& [k, v] : j_.items()) {
            bool ok = false;
            for (const char* a : allowed) ok = ok || k == a;
            if (!ok) {
                std::string known;
                for (const char* a : allowed) known += (known.empty() ? "" : ", ") + std::string(a);
                node(v, path_ + "/" + k, file_).fail("unknown key '" + k + "' (known: " + known + ")");
            }
        }
    }

    const json& array() const {
        if (!j_.is_array()) fail("expected an array, got " + show());
        return j_;
    }
    double number() const {
        if (!j_.is_number()) fail("expected a number, got " + show());
        return j_.get<double>();
    }
    std::uint64_t unsigned_int(std::uint64_t max = std::numeric_limits<std::uint64_t>::max()) const {
        if (!j_.is_number_integer() || (j_.is_number_integer() && !j_.is_number_unsigned() && j_.get<std::int64_t>() < 0))
            fail("expected a non-negative integer, got " + show());
        const auto v = j_.get<std::uint64_t>();
        if (v > max) fail("value " + show() + " is larger than " + std::to_string(max));
        return v;
    }
    bool boolean() const {
        if (!j_.is_boolean()) fail("expected true or false, got " + show());
        return j_.get<bool>();
    }
    std::string string() const {
        if (!j_.is_string()) fail("expected a string, got " + show());
        return j_.get<std::string>();
    }
    std::vector<double> numbers() const {
        std::vector<double> out;
        for (std::size_t i = 0; i < array().size(); ++i) out.push_back(at(i).number());
        return out;
    }
    std::vector<std::uint32_t> indices() const {
        std::vector<std::uint32_t> out;
        for (std::size_t i = 0; i < array().size(); ++i)
            out.push_back(static_cast<std::uint32_t>(at(i).unsigned_int(std::numeric_limits<std::uint32_t>::max())));
        return out;
    }

private:
    const json& j_;
    std::string path_;
    const std::string& file_;
};

/// Runs f, turning a validation error from the network API into a file_format_error at `n`.
template <class F>
auto at_node(const node& n, F&& f) {
    try {
        return f();
    } catch (const file_format_error&) {
        throw;
    } catch (const error& e) {
        n.fail(e.what());
    }
}

/// A value spec: a number, a list of numbers, {"uniform": {...}} or {"normal": {...}}, and back
/// (network_json.cpp).
value_spec read_value(const node& n);
nlohmann::ordered_json write_value(const value_spec& v);

/// The "plasticity" object of a projection (docs/plasticity.md), and back.
plasticity_rule read_plasticity(const node& n);
nlohmann::ordered_json write_plasticity(const plasticity_rule& rule);

}  // namespace volley::snn::detail
