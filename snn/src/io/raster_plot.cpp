#include <volley/snn/raster_plot.hpp>

#include <volley/error.hpp>
#include <volley/snn/plot_axis.hpp>
#include <volley/snn/svg_text.hpp>
#include <volley/text_file.hpp>

#include <algorithm>
#include <charconv>
#include <cmath>
#include <cstdio>
#include <fstream>

namespace volley::snn {

namespace {

// Page layout [SVG px]: plots on the left, legend on the right.
constexpr double page_width = 1040, page_height = 760;
constexpr double plot_left = 80, plot_right = 760, legend_left = 785;
constexpr double raster_top = 64, raster_bottom = 444;
constexpr double rate_top = 510, rate_bottom = 700;

// Okabe & Ito's colour-blind-safe palette, most distinct first.
constexpr const char* palette[] = {"#0072B2", "#D55E00", "#009E73", "#CC79A7",
                                   "#E69F00", "#56B4E9", "#000000", "#999999"};

using detail::svg::xml_escape;

// Appends a coordinate with two decimals (enough for a screen, and compact).
void put(std::string& out, double value) {
    char text[32];
    auto end = std::to_chars(text, text + sizeof text, value, std::chars_format::fixed, 2).ptr;
    out.append(text, end);
}

std::string num(double value) {
    std::string s;
    put(s, value);
    return s;
}

void text(std::string& out, double x, double y, const std::string& content,
          const std::string& attributes = "") {
    out += "<text x=\"" + num(x) + "\" y=\"" + num(y) + "\"" +
           (attributes.empty() ? "" : " " + attributes) + ">" + xml_escape(content) + "</text>\n";
}

void line(std::string& out, double x1, double y1, double x2, double y2, const std::string& style) {
    out += "<line x1=\"" + num(x1) + "\" y1=\"" + num(y1) + "\" x2=\"" + num(x2) + "\" y2=\"" +
           num(y2) + "\" " + style + "/>\n";
}

// A panel's frame, ticks, tick labels and axis labels. y values map [y_lo, y_hi] to
// [bottom, top]; time maps [t0, t1] to [plot_left, plot_right].
void draw_axes(std::string& out, double top, double bottom, double t0, double t1, double y_lo,
               double y_hi, const std::string& y_label, const std::string& time_units) {
    out += "<rect x=\"" + num(plot_left) + "\" y=\"" + num(top) + "\" width=\"" +
           num(plot_right - plot_left) + "\" height=\"" + num(bottom - top) +
           "\" fill=\"none\" stroke=\"#333\" stroke-width=\"1\"/>\n";
    const auto x_ticks = detail::nice_ticks(t0, t1, 8);
    for (double t : x_ticks.values) {
        const double x = plot_left + (t - t0) / (t1 - t0) * (plot_right - plot_left);
        line(out, x, bottom, x, bottom + 5, "stroke=\"#333\"");
        text(out, x, bottom + 18, detail::format_tick(t, x_ticks.decimals),
             "text-anchor=\"middle\" font-size=\"12\"");
    }
    text(out, (plot_left + plot_right) / 2, bottom + 36, "time [" + time_units + "]",
         "text-anchor=\"middle\" font-size=\"13\"");
    const auto y_ticks = detail::nice_ticks(y_lo, y_hi, 6);
    for (double v : y_ticks.values) {
        const double y = bottom - (v - y_lo) / (y_hi - y_lo) * (bottom - top);
        line(out, plot_left - 5, y, plot_left, y, "stroke=\"#333\"");
        text(out, plot_left - 8, y + 4, detail::format_tick(v, y_ticks.decimals),
             "text-anchor=\"end\" font-size=\"12\"");
    }
    const double mid = (top + bottom) / 2;
    text(out, 24, mid, y_label,
         "text-anchor=\"middle\" font-size=\"13\" transform=\"rotate(-90 24 " + num(mid) + ")\"");
}

void validate(std::span<const raster_population> pops, const raster_plot_options& opt) {
    if (!std::isfinite(opt.t_start_ms))
        throw invalid_parameter("raster plot", "t_start_ms", std::to_string(opt.t_start_ms),
                                "must be finite");
    if (!std::isfinite(opt.t_stop_ms))
        throw invalid_parameter("raster plot", "t_stop_ms", std::to_string(opt.t_stop_ms),
                                "must be finite");
    if (!(opt.rate_bin_ms >= 0) || !std::isfinite(opt.rate_bin_ms))
        throw invalid_parameter("raster plot", "rate_bin_ms", std::to_string(opt.rate_bin_ms),
                                "must be >= 0 (0 = automatic)");
    for (const auto& pop : pops) {
        const std::string object = "raster population '" + pop.name + "'";
        if (pop.node_ids.size() != pop.times_ms.size())
            throw invalid_parameter(
                object, "times_ms.size()", std::to_string(pop.times_ms.size()),
                "must equal node_ids.size() = " + std::to_string(pop.node_ids.size()));
        for (std::size_t i = 0; i < pop.node_ids.size(); ++i) {
            if (pop.node_ids[i] >= pop.size)
                throw invalid_parameter(object, "node_ids[" + std::to_string(i) + "]",
                                        std::to_string(pop.node_ids[i]),
                                        "must be < size = " + std::to_string(pop.size));
            if (!std::isfinite(pop.times_ms[i]))
                throw invalid_parameter(object, "times_ms[" + std::to_string(i) + "]",
                                        std::to_string(pop.times_ms[i]), "must be finite");
        }
    }
}

}  // namespace

void write_raster_svg(const std::filesystem::path& file, std::span<const raster_population> pops,
                      const raster_plot_options& opt) {
    validate(pops, opt);
    // Times in ms give rates in Hz; in another unit, spikes per neuron per that unit.
    const bool ms = opt.time_unit == "ms";
    const double per_second = ms ? 1e3 : 1.0;
    const std::string rate_unit = ms ? "Hz" : "per " + opt.time_unit;
    const std::string time_units = ms ? "ms" : opt.time_unit + "s";  // the axis: "cycles"
    const double t0 = opt.t_start_ms;
    double t1 = opt.t_stop_ms;
    if (t1 <= t0) {
        t1 = t0;
        for (const auto& pop : pops)
            for (double t : pop.times_ms) t1 = std::max(t1, t);
        if (t1 <= t0) t1 = t0 + 1;
    }
    const auto in_window = [&](double t) { return t >= t0 && t <= t1; };
    std::uint64_t total_neurons = 0, shown_total = 0;
    for (const auto& pop : pops) {
        total_neurons += pop.size;
        shown_total += static_cast<std::uint64_t>(
            std::count_if(pop.times_ms.begin(), pop.times_ms.end(), in_window));
    }
    const double y_max = std::max<double>(1.0, static_cast<double>(total_neurons));
    const bool subsampled = shown_total > opt.max_points;
    const std::uint64_t keep = subsampled ? opt.max_points : shown_total;

    // Automatic bins: about 80, fewer when spikes are sparse (aiming at >= 5 spikes per bin
    // across populations), but never fewer than about 10.
    double auto_bin_ms = (t1 - t0) / 80.0;
    if (shown_total < 400)
        auto_bin_ms = std::min((t1 - t0) / 10.0,
                               (t1 - t0) * 5.0 / std::max<double>(1.0, double(shown_total)));
    const double bin_ms =
        opt.rate_bin_ms > 0 ? opt.rate_bin_ms : detail::nice_number(auto_bin_ms, true);
    const auto bins = static_cast<std::size_t>(std::ceil((t1 - t0) / bin_ms - 1e-9));
    if (bins > 100000)
        throw invalid_parameter("raster plot", "rate_bin_ms", std::to_string(bin_ms),
                                "gives " + std::to_string(bins) + " bins (at most 100000)");

    std::vector<std::vector<double>> rates_hz(pops.size(), std::vector<double>(bins, 0.0));
    double rate_max = 0;
    for (std::size_t p = 0; p < pops.size(); ++p) {
        std::vector<std::uint64_t> counts(bins, 0);
        for (double t : pops[p].times_ms)
            if (in_window(t))
                ++counts[std::min(bins - 1, static_cast<std::size_t>((t - t0) / bin_ms))];
        for (std::size_t b = 0; b < bins && pops[p].size > 0; ++b) {
            const double width_s = (std::min(t0 + (b + 1) * bin_ms, t1) - (t0 + b * bin_ms)) / per_second;
            rates_hz[p][b] = counts[b] / (width_s * static_cast<double>(pops[p].size));
            rate_max = std::max(rate_max, rates_hz[p][b]);
        }
    }
    const double rate_top_hz =
        rate_max > 0 ? [&] {
            const double headroom = rate_max * 1.05;  // keep the peak off the frame
            const auto ticks = detail::nice_ticks(0, headroom, 5);
            return std::ceil(headroom / ticks.step - 1e-9) * ticks.step;
        }()
                     : 1.0;

    std::string out;
    out.reserve(256 * 1024 + keep * 24);
    out += "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n";
    out += "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"" + num(page_width) + "\" height=\"" +
           num(page_height) + "\" viewBox=\"0 0 " + num(page_width) + " " + num(page_height) +
           "\" font-family=\"DejaVu Sans, Arial, sans-serif\">\n";
    out += "<rect width=\"100%\" height=\"100%\" fill=\"white\"/>\n";
    // A long title shrinks to the page's width (about 0.6 em a character) rather than be cut.
    const double title_px = std::clamp((page_width - 40) / (0.6 * static_cast<double>(std::max<std::size_t>(opt.title.size(), 1))), 10.0, 18.0);
    text(out, page_width / 2, 28, opt.title,
         "text-anchor=\"middle\" font-size=\"" + num(title_px) + "\" font-weight=\"bold\"");
    if (subsampled)
        text(out, (plot_left + plot_right) / 2, 48,
             "showing " + std::to_string(keep) + " of " + std::to_string(shown_total) +
                 " spikes (evenly spaced subsample); rates use every spike",
             "class=\"subsample-note\" text-anchor=\"middle\" font-size=\"12\" fill=\"#a00\"");

    draw_axes(out, raster_top, raster_bottom, t0, t1, 0, y_max, "neuron index", time_units);
    draw_axes(out, rate_top, rate_bottom, t0, t1, 0, rate_top_hz,
              "population rate [" + rate_unit + "]", time_units);

    const double x_scale = (plot_right - plot_left) / (t1 - t0);
    const double row_px = (raster_bottom - raster_top) / y_max;
    const double tick_px = std::clamp(row_px * 0.8, 1.0, 12.0);
    std::uint64_t offset = 0, seen = 0;
    for (std::size_t p = 0; p < pops.size(); ++p) {
        const auto& pop = pops[p];
        const char* colour = palette[p % std::size(palette)];
        if (p > 0 && offset > 0) {
            const double y = raster_bottom - static_cast<double>(offset) * row_px;
            line(out, plot_left, y, plot_right, y,
                 "stroke=\"#bbb\" stroke-dasharray=\"4 3\" stroke-width=\"1\"");
        }
        out += "<path class=\"spikes\" data-population=\"" + xml_escape(pop.name) + "\" stroke=\"" +
               colour + "\" stroke-width=\"1\" fill=\"none\" d=\"";
        for (std::size_t i = 0; i < pop.times_ms.size(); ++i) {
            if (!in_window(pop.times_ms[i])) continue;
            const std::uint64_t index = seen++;
            if (subsampled && (index + 1) * keep / shown_total == index * keep / shown_total)
                continue;
            const double row = static_cast<double>(offset + pop.node_ids[i]) + 0.5;
            out.push_back('M');
            put(out, plot_left + (pop.times_ms[i] - t0) * x_scale);
            out.push_back(' ');
            put(out, raster_bottom - row * row_px - tick_px / 2);
            out.push_back('v');
            put(out, tick_px);
        }
        out += "\"/>\n";
        offset += pop.size;

        if (pop.size > 0 && bins > 0) {
            out += "<polyline class=\"rate\" fill=\"none\" stroke=\"" + std::string(colour) +
                   "\" stroke-width=\"1.5\" points=\"";
            for (std::size_t b = 0; b < bins; ++b) {
                const double y =
                    rate_bottom - rates_hz[p][b] / rate_top_hz * (rate_bottom - rate_top);
                const double xa = plot_left + b * bin_ms * x_scale;
                const double xb = std::min(plot_right, plot_left + (b + 1) * bin_ms * x_scale);
                put(out, xa);
                out.push_back(',');
                put(out, y);
                out.push_back(' ');
                put(out, xb);
                out.push_back(',');
                put(out, y);
                out.push_back(' ');
            }
            out += "\"/>\n";
        }

        const double legend_y = raster_top + 8 + 44.0 * static_cast<double>(p);
        out += "<rect x=\"" + num(legend_left) + "\" y=\"" + num(legend_y) +
               "\" width=\"14\" height=\"14\" fill=\"" + colour + "\"/>\n";
        const std::uint64_t spikes = static_cast<std::uint64_t>(
            std::count_if(pop.times_ms.begin(), pop.times_ms.end(), in_window));
        const double mean_hz = pop.size > 0 ? spikes / ((t1 - t0) / per_second * pop.size) : 0.0;
        text(out, legend_left + 20, legend_y + 12, pop.name,
             "class=\"legend\" font-size=\"13\" font-weight=\"bold\"");
        char detail_text[128];
        std::snprintf(detail_text, sizeof detail_text, "%llu neuron%s, %llu spikes, %.3g %s",
                      static_cast<unsigned long long>(pop.size), pop.size == 1 ? "" : "s",
                      static_cast<unsigned long long>(spikes), mean_hz, rate_unit.c_str());
        text(out, legend_left + 20, legend_y + 28, detail_text, "font-size=\"11\" fill=\"#444\"");
    }
    char bin_text[96];
    std::snprintf(bin_text, sizeof bin_text, "rate bins: %g %s", bin_ms, time_units.c_str());
    text(out, plot_right, rate_top - 8, bin_text,
         "text-anchor=\"end\" font-size=\"11\" fill=\"#444\"");
    out += "</svg>\n";

    write_text_file(file, out, "SVG file");
}

}  // namespace volley::snn
