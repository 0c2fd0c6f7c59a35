#include <volley/snn/analysis/plots.hpp>

#include <volley/error.hpp>
#include <volley/snn/plot_axis.hpp>
#include <volley/snn/svg_text.hpp>
#include <volley/text_file.hpp>

#include <algorithm>
#include <array>
#include <charconv>
#include <cmath>
#include <fstream>

namespace volley::snn::analysis {

namespace {

// Page layout [SVG px], as the raster plot's.
constexpr double page_width = 900, page_height = 560;
constexpr double left = 90, right = 800, top = 64, bottom = 470;
constexpr const char* bar_colour = "#0072B2";        // Okabe & Ito blue
constexpr const char* undefined_colour = "#BBBBBB";  // NaN cells of a heat map
constexpr std::size_t max_cells = 200;               // heat map cells per side, at most

using snn::detail::svg::xml_escape;

std::string num(double v) {
    char text[32];
    const auto end = std::to_chars(text, text + sizeof text, v, std::chars_format::fixed, 2).ptr;
    return std::string(text, end);
}

void text(std::string& out, double x, double y, const std::string& content,
          const std::string& attributes) {
    out += "<text x=\"" + num(x) + "\" y=\"" + num(y) + "\" " + attributes + ">" +
           xml_escape(content) + "</text>\n";
}

void line(std::string& out, double x1, double y1, double x2, double y2) {
    out += "<line x1=\"" + num(x1) + "\" y1=\"" + num(y1) + "\" x2=\"" + num(x2) + "\" y2=\"" +
           num(y2) + "\" stroke=\"#333\"/>\n";
}

void rect(std::string& out, double x, double y, double w, double h, const std::string& fill) {
    out += "<rect x=\"" + num(x) + "\" y=\"" + num(y) + "\" width=\"" + num(w) + "\" height=\"" +
           num(h) + "\" fill=\"" + fill + "\"/>\n";
}

// The page, its background and the title centred over the panel [left, panel_right].
std::string page_start(const std::string& title, double width = page_width,
                       double panel_right = right) {
    std::string out = "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n";
    out += "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"" + num(width) + "\" height=\"" +
           num(page_height) + "\" viewBox=\"0 0 " + num(width) + " " + num(page_height) +
           "\" font-family=\"DejaVu Sans, Arial, sans-serif\">\n";
    out += "<rect width=\"100%\" height=\"100%\" fill=\"white\"/>\n";
    text(out, (left + panel_right) / 2, 32, title,
         "text-anchor=\"middle\" font-size=\"18\" font-weight=\"bold\"");
    return out;
}

void save(const std::filesystem::path& file, const std::string& svg) { write_text_file(file, svg, "plot file"); }

// About `target` nice ticks on [lo, hi], at least four: Heckbert's loose rounding can leave
// three (e.g. -100, 0, 100 on [-102.5, 102.5]), too few to read a scale from.
snn::detail::axis_ticks ticks_on(double lo, double hi, int target) {
    if (!(hi > lo)) return {1, {lo}, 0};  // one cell
    auto t = snn::detail::nice_ticks(lo, hi, target);
    if (t.values.size() < 4) t = snn::detail::nice_ticks(lo, hi, 2 * target);
    return t;
}

// Frame, ticks and labels of a panel mapping [x_lo, x_hi] x [y_lo, y_hi] onto the page (y_lo at
// the bottom; y_lo > y_hi turns the y axis downwards). With `cells`, the axes count cells of
// width 1 and a tick marks the middle of its cell.
void axes(std::string& out, double x_lo, double x_hi, double y_lo, double y_hi,
          const std::string& x_label, const std::string& y_label, double x_right = right,
          bool cells = false) {
    out += "<rect x=\"" + num(left) + "\" y=\"" + num(top) + "\" width=\"" + num(x_right - left) +
           "\" height=\"" + num(bottom - top) +
           "\" fill=\"none\" stroke=\"#333\" stroke-width=\"1\"/>\n";
    const double shift = cells ? 0.5 : 0;
    const auto xt = ticks_on(x_lo, x_hi - 2 * shift, 8);
    for (double v : xt.values) {
        const double x = left + (v + shift - x_lo) / (x_hi - x_lo) * (x_right - left);
        line(out, x, bottom, x, bottom + 5);
        text(out, x, bottom + 18, snn::detail::format_tick(v, xt.decimals),
             "text-anchor=\"middle\" font-size=\"12\"");
    }
    text(out, (left + x_right) / 2, bottom + 38, x_label,
         "text-anchor=\"middle\" font-size=\"13\"");
    const auto yt = ticks_on(std::min(y_lo, y_hi), std::max(y_lo, y_hi) - 2 * shift, 6);
    for (double v : yt.values) {
        const double y = bottom - (v + shift - y_lo) / (y_hi - y_lo) * (bottom - top);
        line(out, left - 5, y, left, y);
        text(out, left - 8, y + 4, snn::detail::format_tick(v, yt.decimals),
             "text-anchor=\"end\" font-size=\"12\"");
    }
    const double mid = (top + bottom) / 2;
    text(out, 26, mid, y_label,
         "text-anchor=\"middle\" font-size=\"13\" transform=\"rotate(-90 26 " + num(mid) + ")\"");
}

// A round upper (or lower, for negative data) limit a little beyond `v`: the next multiple of
// a nice fifth of it (197 -> 250, not 300).
double nice_limit(double v) {
    if (v == 0) return 0;
    const double headroom = std::abs(v) * 1.05;
    const double step = snn::detail::nice_number(headroom / 5, true);
    return std::copysign(std::ceil(headroom / step - 1e-9) * step, v);
}

// Viridis, sampled at 0, 0.25, 0.5, 0.75, 1 and interpolated linearly.
std::string viridis(double u) {
    static constexpr std::array<std::array<double, 3>, 5> stops{
        {{68, 1, 84}, {59, 82, 139}, {33, 145, 140}, {94, 201, 98}, {253, 231, 37}}};
    u = std::clamp(u, 0.0, 1.0) * 4;
    const auto k = std::min<std::size_t>(3, static_cast<std::size_t>(u));
    const double f = u - static_cast<double>(k);
    char hex[8];
    int rgb[3];
    for (int c = 0; c < 3; ++c)
        rgb[c] = static_cast<int>(std::lround(stops[k][c] + f * (stops[k + 1][c] - stops[k][c])));
    std::snprintf(hex, sizeof hex, "#%02X%02X%02X", rgb[0], rgb[1], rgb[2]);
    return hex;
}

}  // namespace

void write_bar_chart_svg(const std::filesystem::path& file, const bar_chart& chart) {
    if (chart.values.empty())
        throw invalid_parameter("bar chart '" + chart.title + "'", "values", "[]",
                                "needs at least one bar");
    if (!std::isfinite(chart.width) || !(chart.width > 0))
        throw invalid_parameter("bar chart '" + chart.title + "'", "width", value_text(chart.width),
                                "must be finite and > 0");
    double lo = 0, hi = 0;
    for (std::size_t k = 0; k < chart.values.size(); ++k) {
        const double v = chart.values[k];
        if (!std::isfinite(v))
            throw invalid_parameter("bar chart '" + chart.title + "'",
                                    "values[" + std::to_string(k) + "]", value_text(v),
                                    "must be finite");
        lo = std::min(lo, v);
        hi = std::max(hi, v);
    }
    const double y_lo = nice_limit(lo), y_hi = hi > 0 ? nice_limit(hi) : (lo < 0 ? 0.0 : 1.0);
    const double x_lo = chart.x0,
                 x_hi = chart.x0 + chart.width * static_cast<double>(chart.values.size());
    std::string out = page_start(chart.title);
    const auto x_of = [&](double x) { return left + (x - x_lo) / (x_hi - x_lo) * (right - left); };
    const auto y_of = [&](double y) {
        return bottom - (y - y_lo) / (y_hi - y_lo) * (bottom - top);
    };
    for (std::size_t k = 0; k < chart.values.size(); ++k) {
        const double v = chart.values[k];
        if (v == 0) continue;
        const double x = x_of(chart.x0 + chart.width * static_cast<double>(k));
        const double w =
            std::max(0.5, x_of(chart.x0 + chart.width * static_cast<double>(k + 1)) - x);
        rect(out, x, std::min(y_of(v), y_of(0)), w, std::abs(y_of(v) - y_of(0)), bar_colour);
    }
    axes(out, x_lo, x_hi, y_lo, y_hi, chart.x_label, chart.y_label);
    out += "</svg>\n";
    save(file, out);
}

void write_isi_histogram_svg(const std::filesystem::path& file, std::span<const double> isis_ms,
                             double bin_ms, const std::string& title) {
    if (isis_ms.empty())
        throw invalid_parameter("ISI histogram '" + title + "'", "intervals", "0",
                                "needs at least one ISI");
    const double longest = *std::max_element(isis_ms.begin(), isis_ms.end());
    check_bin(bin_ms, {0, std::max(longest, bin_ms)});
    bar_chart c{title, "inter-spike interval [ms]", "count", 0, bin_ms, {}};
    c.values.assign(static_cast<std::size_t>(std::floor(longest / bin_ms)) + 1, 0.0);
    for (double d : isis_ms) c.values[static_cast<std::size_t>(std::floor(d / bin_ms))] += 1;
    write_bar_chart_svg(file, c);
}

void write_psth_svg(const std::filesystem::path& file, const time_histogram& h,
                    const std::string& title) {
    write_bar_chart_svg(file, {title, "time [ms]", "rate [Hz]", h.start_ms, h.bin_ms, h.rate_hz});
}

void write_correlogram_svg(const std::filesystem::path& file, const correlogram& c,
                           const std::string& title) {
    write_bar_chart_svg(file, {title, "lag [ms]", "coincidences",
                               (-c.max_lag_bins - 0.5) * c.bin_ms, c.bin_ms, c.counts});
}

void write_heat_map_svg(const std::filesystem::path& file, std::span<const double> matrix,
                        const std::string& title, const std::string& value_label) {
    const auto n =
        static_cast<std::size_t>(std::llround(std::sqrt(static_cast<double>(matrix.size()))));
    if (n == 0 || n * n != matrix.size())
        throw invalid_parameter("heat map '" + title + "'", "matrix.size()",
                                std::to_string(matrix.size()), "must be n * n with n >= 1");
    // Past max_cells rows, a cell shows the mean of a block x block square of entries (the
    // finite ones; grey if none), so that the file stays small (a cell per entry of 3,200
    // trains would be 10 million rectangles).
    const std::size_t block = (n + max_cells - 1) / max_cells, cells = (n + block - 1) / block;
    std::vector<double> shown(cells * cells);
    for (std::size_t bi = 0; bi < cells; ++bi)
        for (std::size_t bj = 0; bj < cells; ++bj) {
            double sum = 0;
            std::size_t finite = 0;
            for (std::size_t i = bi * block; i < std::min(n, (bi + 1) * block); ++i)
                for (std::size_t j = bj * block; j < std::min(n, (bj + 1) * block); ++j)
                    if (std::isfinite(matrix[i * n + j])) {
                        sum += matrix[i * n + j];
                        ++finite;
                    }
            shown[bi * cells + bj] = finite > 0 ? sum / static_cast<double>(finite) : NAN;
        }
    double lo = INFINITY, hi = -INFINITY;
    bool undefined = false;
    for (double v : shown) {
        undefined = undefined || !std::isfinite(v);
        if (std::isfinite(v)) {
            lo = std::min(lo, v);
            hi = std::max(hi, v);
        }
    }
    if (!(lo <= hi)) lo = 0, hi = 1;
    if (hi == lo) hi = lo + 1;
    // A square map (the matrix is square), the colour bar to its right.
    const double side = bottom - top, map_right = left + side, unit = side / static_cast<double>(n);
    const double bar_x = map_right + 40, bar_w = 20, width = bar_x + bar_w + 110;
    std::string out = page_start(title, width, map_right);
    // crispEdges: no anti-aliased seams between abutting cells.
    out += "<g shape-rendering=\"crispEdges\">\n";
    for (std::size_t bi = 0; bi < cells; ++bi)
        for (std::size_t bj = 0; bj < cells; ++bj) {
            const double v = shown[bi * cells + bj];
            const auto i0 = static_cast<double>(bi * block), j0 = static_cast<double>(bj * block);
            const auto h = static_cast<double>(std::min(n, (bi + 1) * block) - bi * block),
                       w = static_cast<double>(std::min(n, (bj + 1) * block) - bj * block);
            rect(out, left + j0 * unit, top + i0 * unit, w * unit, h * unit,
                 std::isfinite(v) ? viridis((v - lo) / (hi - lo)) : undefined_colour);
        }
    const double bar_h = side / 64.0;
    for (int k = 0; k < 64; ++k)
        rect(out, bar_x, bottom - (k + 1) * bar_h, bar_w, bar_h, viridis((k + 0.5) / 64.0));
    if (undefined) rect(out, bar_x, bottom + 22, bar_w, 12, undefined_colour);
    out += "</g>\n";
    axes(out, 0, static_cast<double>(n), static_cast<double>(n), 0, "train index", "train index",
         map_right, true);
    const auto ticks = ticks_on(lo, hi, 5);
    for (double v : ticks.values) {
        const double y = bottom - (v - lo) / (hi - lo) * side;
        line(out, bar_x + bar_w, y, bar_x + bar_w + 5, y);
        text(out, bar_x + bar_w + 8, y + 4, snn::detail::format_tick(v, ticks.decimals),
             "font-size=\"12\"");
    }
    text(out, bar_x + bar_w / 2, top - 10, value_label, "text-anchor=\"middle\" font-size=\"13\"");
    if (undefined) text(out, bar_x + bar_w + 8, bottom + 32, "undefined", "font-size=\"12\"");
    if (block > 1)
        text(out, (left + map_right) / 2, bottom + 56,
             "each cell: mean of " + std::to_string(block) + " x " + std::to_string(block) +
                 " entries",
             "text-anchor=\"middle\" font-size=\"12\"");
    out += "</svg>\n";
    save(file, out);
}

}  // namespace volley::snn::analysis
