// fitness.svg (see fitness_plot.hpp).

#include <volley/pipeline/fitness_plot.hpp>
#include <volley/snn/svg_text.hpp>

#include <volley/error.hpp>
#include <volley/snn/plot_axis.hpp>

#include <algorithm>
#include <cmath>

namespace volley::pipeline {

namespace {

using snn::detail::svg::line;
using snn::detail::svg::num;
using snn::detail::svg::text;

constexpr double width = 720, height = 420;
constexpr double left = 80, right = 560, top = 70, bottom = 360;

void validate(const fitness_curve& c) {
    if (c.best.empty()) throw invalid_parameter("fitness plot", "generations", "0", "give at least one generation");
    if (c.mean.size() != c.best.size())
        throw invalid_parameter("fitness plot", "mean.size()", std::to_string(c.mean.size()),
                                "must equal best.size() (" + std::to_string(c.best.size()) + ")");
    for (std::size_t g = 0; g < c.best.size(); ++g)
        if (!std::isfinite(c.best[g]) || !std::isfinite(c.mean[g]))
            throw invalid_parameter("fitness plot", "generation " + std::to_string(g), std::to_string(c.best[g]),
                                    "fitness must be finite");
}

}  // namespace

void write_fitness_svg(const std::filesystem::path& file, const fitness_curve& c) {
    validate(c);
    const std::size_t n = c.best.size();
    const double gx1 = std::max<double>(1, static_cast<double>(n - 1));
    const auto x_of = [&](std::size_t g) { return left + static_cast<double>(g) / gx1 * (right - left); };
    double lo = std::min(*std::min_element(c.best.begin(), c.best.end()), *std::min_element(c.mean.begin(), c.mean.end()));
    double hi = std::max(*std::max_element(c.best.begin(), c.best.end()), *std::max_element(c.mean.begin(), c.mean.end()));
    if (hi - lo < 1e-3) lo -= 0.05, hi += 0.05;
    const double step = snn::detail::nice_ticks(lo, hi, 6).step;
    const double y0 = std::floor(lo / step) * step, y1 = std::ceil(hi / step) * step;
    const auto ticks = snn::detail::nice_ticks(y0, y1, 6);
    const auto y_of = [&](double v) { return bottom - (v - y0) / (y1 - y0) * (bottom - top); };

    std::string out = snn::detail::svg::begin_plot(width, height, c.title, c.note, left, top, right, bottom);
    for (double v : ticks.values) {
        const double y = y_of(v);
        line(out, left, y, right, y, "stroke=\"#ddd\"");
        text(out, left - 8, y + 4, snn::detail::format_tick(v, ticks.decimals), "text-anchor=\"end\" font-size=\"12\"");
    }
    const auto gticks = snn::detail::nice_ticks(0, gx1, 8);
    for (double g : gticks.values) {
        const double x = left + g / gx1 * (right - left);
        line(out, x, bottom, x, bottom + 5, "stroke=\"#333\"");
        text(out, x, bottom + 18, snn::detail::format_tick(g, gticks.decimals), "text-anchor=\"middle\" font-size=\"12\"");
    }
    text(out, (left + right) / 2, bottom + 40, "generation", "text-anchor=\"middle\" font-size=\"13\"");
    const double mid = (top + bottom) / 2;
    text(out, 24, mid, "fitness", "text-anchor=\"middle\" font-size=\"13\" transform=\"rotate(-90 24 " + num(mid) + ")\"");
    std::string best, mean;
    for (std::size_t g = 0; g < n; ++g) {
        best += num(x_of(g)) + "," + num(y_of(c.best[g])) + " ";
        mean += num(x_of(g)) + "," + num(y_of(c.mean[g])) + " ";
    }
    out += "<polyline points=\"" + mean + "\" fill=\"none\" stroke=\"#ff7f0e\" stroke-width=\"1.5\" stroke-dasharray=\"6 4\"/>\n";
    out += "<polyline points=\"" + best + "\" fill=\"none\" stroke=\"#1f77b4\" stroke-width=\"2\"/>\n";
    const double lx = right + 20;
    line(out, lx, top + 10, lx + 28, top + 10, "stroke=\"#1f77b4\" stroke-width=\"2\"");
    text(out, lx + 34, top + 14, "best", "font-size=\"12\"");
    line(out, lx, top + 34, lx + 28, top + 34, "stroke=\"#ff7f0e\" stroke-width=\"1.5\" stroke-dasharray=\"6 4\"");
    text(out, lx + 34, top + 38, "mean", "font-size=\"12\"");
    out += "</svg>\n";
    snn::detail::svg::save(file, out, "fitness plot");
}

}  // namespace volley::pipeline
