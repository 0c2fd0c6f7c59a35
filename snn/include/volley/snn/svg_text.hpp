#pragma once
// The few SVG elements the standalone plots draw (the rasters, the analysis plots, the
// pipeline's accuracy and fitness plots, the CLI's cart-pole episode plot).

#include <volley/error.hpp>
#include <volley/text_file.hpp>

#include <cstdio>
#include <filesystem>
#include <fstream>
#include <string>

namespace volley::snn::detail::svg {

inline std::string xml_escape(const std::string& s) {
    std::string out;
    for (char c : s) {
        if (c == '&') out += "&amp;";
        else if (c == '<') out += "&lt;";
        else if (c == '>') out += "&gt;";
        else if (c == '"') out += "&quot;";
        else if (c == '\'') out += "&apos;";
        else out.push_back(c);
    }
    return out;
}

/// A coordinate with two decimals.
inline std::string num(double v) {
    char b[32];
    std::snprintf(b, sizeof b, "%.2f", v);
    return b;
}

inline void text(std::string& out, double x, double y, const std::string& content, const std::string& attributes) {
    out += "<text x=\"" + num(x) + "\" y=\"" + num(y) + "\" " + attributes + ">" + xml_escape(content) + "</text>\n";
}

inline void line(std::string& out, double x1, double y1, double x2, double y2, const std::string& style) {
    out += "<line x1=\"" + num(x1) + "\" y1=\"" + num(y1) + "\" x2=\"" + num(x2) + "\" y2=\"" + num(y2) + "\" " +
           style + "/>\n";
}

/// The opening <svg> element and a white background.
inline std::string begin(double width, double height) {
    return "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"" + num(width) + "\" height=\"" + num(height) +
           "\" viewBox=\"0 0 " + num(width) + " " + num(height) + "\" font-family=\"sans-serif\">\n" +
           "<rect width=\"100%\" height=\"100%\" fill=\"white\"/>\n";
}

/// The opening of a plot: the <svg> element, a title, a note under it (when not empty) and the
/// frame of the plot area [left, right] × [top, bottom].
inline std::string begin_plot(double width, double height, const std::string& title, const std::string& note, double left,
                              double top, double right, double bottom) {
    std::string out = begin(width, height);
    text(out, width / 2, 26, title, "text-anchor=\"middle\" font-size=\"16\"");
    if (!note.empty()) text(out, width / 2, 46, note, "text-anchor=\"middle\" font-size=\"12\" fill=\"#555\"");
    out += "<rect x=\"" + num(left) + "\" y=\"" + num(top) + "\" width=\"" + num(right - left) + "\" height=\"" +
           num(bottom - top) + "\" fill=\"none\" stroke=\"#333\"/>\n";
    return out;
}

/// Writes `svg` to `file`; io_error naming it (and `what`) when it cannot be written.
inline void save(const std::filesystem::path& file, const std::string& svg, const std::string& what) {
    write_text_file(file, svg, what);
}

}  // namespace volley::snn::detail::svg
