#include <volley/hw/tennlab_json.hpp>

#include <charconv>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <string>

namespace volley::hw {

std::string format_json_double(double value) {
    if (!std::isfinite(value)) return "null";
    if (value == 0) return std::signbit(value) ? "-0.0" : "0.0";
    // Shortest round-trip digits d1..dk and exponent: value = 0.d1..dk * 10^n.
    char buf[64];
    const auto res =
        std::to_chars(buf, buf + sizeof buf, std::fabs(value), std::chars_format::scientific);
    const std::string sci(buf, res.ptr);
    const auto e_pos = sci.find('e');
    std::string digits;
    for (std::size_t i = 0; i < e_pos; ++i)
        if (sci[i] != '.') digits += sci[i];
    const int n = std::atoi(sci.c_str() + e_pos + 1) + 1;
    const int k = static_cast<int>(digits.size());

    std::string out = value < 0 ? "-" : "";
    if (k <= n && n <= 15) {
        out.append(digits).append(static_cast<std::size_t>(n - k), '0').append(".0");
    } else if (0 < n && n <= 15) {
        out.append(digits, 0, static_cast<std::size_t>(n)).push_back('.');
        out.append(digits, static_cast<std::size_t>(n));
    } else if (-4 < n && n <= 0) {
        out.append("0.").append(static_cast<std::size_t>(-n), '0').append(digits);
    } else {
        out.push_back(digits[0]);
        if (k > 1) out.append(".").append(digits, 1);
        const int e = n - 1;
        char exp[16];
        std::snprintf(exp, sizeof exp, "e%c%02d", e < 0 ? '-' : '+', std::abs(e));
        out.append(exp);
    }
    return out;
}

namespace {

std::string scalar_text(const nlohmann::json& j) {
    if (j.is_number_float()) return format_json_double(j.get<double>());
    return j.dump();
}

void write_indented(const nlohmann::json& j, int indent, int depth, std::string& out) {
    const std::string pad(static_cast<std::size_t>(indent * (depth + 1)), ' ');
    const std::string close_pad(static_cast<std::size_t>(indent * depth), ' ');
    if (j.is_object()) {
        if (j.empty()) {
            out += "{}";
            return;
        }
        out += "{\n";
        bool first = true;
        for (const auto& [key, value] : j.items()) {
            if (!first) out += ",\n";
            first = false;
            out += pad + nlohmann::json(key).dump() + ": ";
            write_indented(value, indent, depth + 1, out);
        }
        out += "\n" + close_pad + "}";
    } else if (j.is_array()) {
        if (j.empty()) {
            out += "[]";
            return;
        }
        out += "[\n";
        bool first = true;
        for (const auto& value : j) {
            if (!first) out += ",\n";
            first = false;
            out += pad;
            write_indented(value, indent, depth + 1, out);
        }
        out += "\n" + close_pad + "]";
    } else {
        out += scalar_text(j);
    }
}

}  // namespace

std::string compact_json(const nlohmann::json& j) {
    if (j.is_object()) {
        std::string out = "{";
        bool first = true;
        for (const auto& [key, value] : j.items()) {
            if (!first) out += ",";
            first = false;
            out += nlohmann::json(key).dump() + ":" + compact_json(value);
        }
        return out + "}";
    }
    if (j.is_array()) {
        std::string out = "[";
        bool first = true;
        for (const auto& value : j) {
            if (!first) out += ",";
            first = false;
            out += compact_json(value);
        }
        return out + "]";
    }
    return scalar_text(j);
}

std::string indented_json(const nlohmann::json& j, int indent) {
    std::string out;
    write_indented(j, indent, 0, out);
    return out;
}

std::string indent_lines(const std::string& text, int spaces) {
    const std::string pad(static_cast<std::size_t>(spaces), ' ');
    std::string out = pad;
    for (char c : text) {
        out += c;
        if (c == '\n') out += pad;
    }
    return out;
}

std::string pretty_json(const nlohmann::json& j) {
    const std::string compact = compact_json(j);
    if (!j.is_structured() || compact.size() < 80) return compact;
    std::string out;
    bool first = true;
    if (j.is_object()) {
        for (const auto& [key, value] : j.items()) {
            out += first ? " { " : ",\n   ";
            first = false;
            const std::string key_part = nlohmann::json(key).dump() + ": ";
            out += key_part;
            const std::string v = pretty_json(value);
            if (key_part.size() + v.size() <= 80)
                out += v;
            else
                out.append("\n").append(indent_lines(v, 3));
        }
        return out + "}";
    }
    for (const auto& value : j) {
        out += first ? " [ " : ",\n   ";
        first = false;
        const std::string v = pretty_json(value);
        out += v.size() <= 80 ? v : indent_lines(v, 3);
    }
    return out + "]";
}

}  // namespace volley::hw
