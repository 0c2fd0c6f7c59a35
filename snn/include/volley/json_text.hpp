#pragma once
// JSON text parsed with a bound on its nesting. nlohmann's parser is iterative, but destroying,
// printing or walking a parsed value recurses once per level: a file of 60,000 nested brackets
// overflows the stack while its error is formatted. Every loader parses through parse_json_text,
// which refuses nesting deeper than max_json_depth before the parser sees the text.

#include <volley/error.hpp>
#include <volley/text_file.hpp>

#include <nlohmann/json.hpp>

#include <cstddef>
#include <filesystem>
#include <fstream>
#include <istream>
#include <iterator>
#include <string>
#include <string_view>

namespace volley {

/// The deepest nesting of arrays and objects a Volley file may have (the deepest of its own
/// formats is under 10).
inline constexpr std::size_t max_json_depth = 256;

/// The byte offset at which `text` nests deeper than `limit` ([ and { outside strings), or
/// npos when it never does.
inline std::size_t json_too_deep_at(std::string_view text, std::size_t limit = max_json_depth) {
    std::size_t depth = 0;
    bool in_string = false, escaped = false;
    for (std::size_t i = 0; i < text.size(); ++i) {
        const char c = text[i];
        if (in_string) {
            if (escaped)
                escaped = false;
            else if (c == '\\')
                escaped = true;
            else if (c == '"')
                in_string = false;
        } else if (c == '"') {
            in_string = true;
        } else if (c == '[' || c == '{') {
            if (++depth > limit) return i;
        } else if ((c == ']' || c == '}') && depth > 0) {
            --depth;
        }
    }
    return std::string_view::npos;
}

/// Parses `text`, read from `source` (a file name, or e.g. "<string>"; `location` says where in
/// it, e.g. an attribute). file_format_error naming `source` for malformed JSON or nesting deeper
/// than max_json_depth (with its byte offset).
inline nlohmann::json parse_json_text(std::string_view text, const std::string& source, const std::string& location = "") {
    if (const auto at = json_too_deep_at(text); at != std::string_view::npos)
        throw file_format_error(source, location,
                                "JSON nested deeper than " + std::to_string(max_json_depth) + " levels (byte " +
                                    std::to_string(at) + ")");
    try {
        return nlohmann::json::parse(text);
    } catch (const nlohmann::json::exception& e) {  // a syntax error, or a number past double's range
        throw file_format_error(source, location, std::string("malformed JSON: ") + e.what());
    }
}

/// parse_json_text of everything left in `in`; io_error naming `source` when reading fails
/// (libstdc++'s filebuf throws on a read error, e.g. from a directory).
inline nlohmann::json parse_json_stream(std::istream& in, const std::string& source) {
    std::string text;
    try {
        text.assign(std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>());
    } catch (const std::ios_base::failure&) {
        throw io_error(source, "cannot read the file");
    }
    if (in.bad()) throw io_error(source, "cannot read the file");
    return parse_json_text(text, source);
}

/// parse_json_stream of the file at `path`; io_error naming it when it cannot be opened.
inline nlohmann::json read_json_file(const std::string& path) {
    std::ifstream in(path);
    if (!in) throw io_error(path, "cannot open for reading");
    return parse_json_stream(in, path);
}

/// Writes `j` (indent 1) through a temporary file renamed over `path`, so that the file is never
/// half written; io_error naming the file that failed.
inline void write_json_file(const std::string& path, const nlohmann::json& j) {
    write_text_file(path, j.dump(1) + "\n", "JSON file");
}

}  // namespace volley
