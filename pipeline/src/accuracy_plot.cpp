// accuracy_vs_T.svg (see accuracy_plot.hpp).

#include <volley/pipeline/accuracy_plot.hpp>
#include <volley/snn/svg_text.hpp>

#include <volley/error.hpp>
#include <volley/snn/plot_axis.hpp>

#include <algorithm>
#include <cmath>
#include <cstdio>

namespace volley::pipeline {

namespace {

using snn::detail::svg::line;
using snn::detail::svg::num;
using snn::detail::svg::text;

constexpr double width = 720, height = 440;
constexpr double left = 80, right = 560, top = 70, bottom = 380;  // plot frame; legend right of it

std::string percent(double fraction) {
    char b[32];
    std::snprintf(b, sizeof b, "%.2f%%", 100 * fraction);
    return b;
}

void validate(const accuracy_curve& c) {
    if (c.timesteps.empty()) throw invalid_parameter("accuracy plot", "timesteps", "[]", "give at least one T");
    if (c.snn_accuracy.size() != c.timesteps.size())
        throw invalid_parameter("accuracy plot", "snn_accuracy.size()", std::to_string(c.snn_accuracy.size()),
                                "must equal the number of T (" + std::to_string(c.timesteps.size()) + ")");
    for (std::size_t i = 0; i < c.timesteps.size(); ++i) {
        if (c.timesteps[i] < 1 || (i > 0 && c.timesteps[i] <= c.timesteps[i - 1]))
            throw invalid_parameter("accuracy plot", "timesteps[" + std::to_string(i) + "]",
                                    std::to_string(c.timesteps[i]), "must be >= 1 and ascending");
        if (!(c.snn_accuracy[i] >= 0 && c.snn_accuracy[i] <= 1))
            throw invalid_parameter("accuracy plot", "snn_accuracy[" + std::to_string(i) + "]",
                                    std::to_string(c.snn_accuracy[i]), "must be a fraction in [0, 1]");
    }
    if (!(c.cnn_accuracy >= 0 && c.cnn_accuracy <= 1))
        throw invalid_parameter("accuracy plot", "cnn_accuracy", std::to_string(c.cnn_accuracy),
                                "must be a fraction in [0, 1]");
}

}  // namespace

void write_accuracy_svg(const std::filesystem::path& file, const accuracy_curve& c) {
    validate(c);
    // x: log2 T, with half a doubling of margin on each side.
    const double lx0 = std::log2(static_cast<double>(c.timesteps.front())) - 0.5;
    const double lx1 = std::log2(static_cast<double>(c.timesteps.back())) + 0.5;
    const auto x_of = [&](std::int64_t t) {
        return left + (std::log2(static_cast<double>(t)) - lx0) / (lx1 - lx0) * (right - left);
    };
    // y: accuracy in %, from a nice tick below the lowest value to one above the highest.
    double lo = 100 * c.cnn_accuracy, hi = lo;
    for (double a : c.snn_accuracy) lo = std::min(lo, 100 * a), hi = std::max(hi, 100 * a);
    if (hi - lo < 1) lo -= 0.5, hi += 0.5;
    const double step = snn::detail::nice_ticks(lo, hi, 6).step;
    const double y0 = std::max(0.0, std::floor(lo / step) * step), y1 = std::min(100.0, std::ceil(hi / step) * step);
    const auto ticks = snn::detail::nice_ticks(y0, y1, 6);
    const auto y_of = [&](double fraction) { return bottom - (100 * fraction - y0) / (y1 - y0) * (bottom - top); };

    std::string out = snn::detail::svg::begin_plot(width, height, c.title, c.note, left, top, right, bottom);
    for (double v : ticks.values) {
        const double y = y_of(v / 100);
        line(out, left, y, right, y, "stroke=\"#ddd\"");
        line(out, left - 5, y, left, y, "stroke=\"#333\"");
        text(out, left - 8, y + 4, snn::detail::format_tick(v, ticks.decimals), "text-anchor=\"end\" font-size=\"12\"");
    }
    for (const auto t : c.timesteps) {
        const double x = x_of(t);
        line(out, x, bottom, x, bottom + 5, "stroke=\"#333\"");
        text(out, x, bottom + 18, std::to_string(t), "text-anchor=\"middle\" font-size=\"12\"");
    }
    text(out, (left + right) / 2, bottom + 40, "time steps T (log scale)", "text-anchor=\"middle\" font-size=\"13\"");
    const double mid = (top + bottom) / 2;
    text(out, 24, mid, "test accuracy [%]",
         "text-anchor=\"middle\" font-size=\"13\" transform=\"rotate(-90 24 " + num(mid) + ")\"");

    const double cy = y_of(c.cnn_accuracy);
    line(out, left, cy, right, cy, "stroke=\"#d62728\" stroke-width=\"1.5\" stroke-dasharray=\"6 4\"");
    std::string points;
    for (std::size_t i = 0; i < c.timesteps.size(); ++i)
        points += num(x_of(c.timesteps[i])) + "," + num(y_of(c.snn_accuracy[i])) + " ";
    out += "<polyline points=\"" + points + "\" fill=\"none\" stroke=\"#1f77b4\" stroke-width=\"2\"/>\n";
    for (std::size_t i = 0; i < c.timesteps.size(); ++i) {
        const double x = x_of(c.timesteps[i]), y = y_of(c.snn_accuracy[i]);
        out += "<circle cx=\"" + num(x) + "\" cy=\"" + num(y) + "\" r=\"4\" fill=\"#1f77b4\"/>\n";
        text(out, x + 7, y + (y < bottom - 24 ? 16 : -8), percent(c.snn_accuracy[i]),
             "text-anchor=\"start\" font-size=\"10\" fill=\"#1f77b4\"");
    }

    const double lx = right + 20;
    line(out, lx, top + 10, lx + 28, top + 10, "stroke=\"#1f77b4\" stroke-width=\"2\"");
    text(out, lx + 34, top + 14, "SNN (engine)", "font-size=\"12\"");
    line(out, lx, top + 34, lx + 28, top + 34, "stroke=\"#d62728\" stroke-width=\"1.5\" stroke-dasharray=\"6 4\"");
    text(out, lx + 34, top + 38, "CNN " + percent(c.cnn_accuracy), "font-size=\"12\"");
    out += "</svg>\n";

    snn::detail::svg::save(file, out, "accuracy plot");
}

}  // namespace volley::pipeline
