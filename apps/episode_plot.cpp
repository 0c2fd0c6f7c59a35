// episode.svg (see episode_plot.hpp).

#include "episode_plot.hpp"
#include <volley/snn/svg_text.hpp>

#include <volley/error.hpp>
#include <volley/snn/plot_axis.hpp>

#include <algorithm>
#include <cmath>

namespace volley::cli {

namespace {

using snn::detail::svg::line;
using snn::detail::svg::num;
using snn::detail::svg::text;

constexpr double width = 900, left = 90, right = 860;
constexpr double top1 = 70, bottom1 = 300;          // x and θ
constexpr double band_top = 326, band_bottom = 340;  // actions, under the time axis's labels
constexpr double top2 = 400;                         // raster (its height depends on the neurons)

/// The label of neuron `id`: its id, and for inputs the value and group, for outputs the action.
std::string neuron_label(hw::node_id id, const hw::tennlab_network& net, const temporal::cartpole_setting& setting) {
    static const char* names[] = {"x", "ẋ", "θ", "θ̇"};
    const int per = temporal::encoder_inputs(setting.coding.encoder);
    for (std::size_t i = 0; i < net.inputs.size(); ++i)
        if (net.inputs[i] == id && i / static_cast<std::size_t>(per) < setting.observed.size()) {
            const std::string value = names[setting.observed[i / static_cast<std::size_t>(per)]];
            const auto k = i % static_cast<std::size_t>(per);
            return std::to_string(id) + " " + value +
                   (per == 2 ? (k == 0 ? "−" : "+") : std::string(" ") + std::to_string(k));
        }
    for (std::size_t o = 0; o < net.outputs.size() && o < setting.actions.size(); ++o)
        if (net.outputs[o] == id) return std::to_string(id) + " " + temporal::to_string(setting.actions[o]);
    return std::to_string(id);
}

const char* action_colour(temporal::cartpole_action a) {
    return a == temporal::cartpole_action::left ? "#1f77b4" : a == temporal::cartpole_action::right ? "#d62728" : "#bbbbbb";
}

std::string polyline(const std::vector<double>& xs, const std::vector<double>& ys, const char* colour) {
    std::string pts;
    for (std::size_t i = 0; i < xs.size(); ++i) pts += num(xs[i]) + "," + num(ys[i]) + " ";
    return "<polyline fill=\"none\" stroke=\"" + std::string(colour) + "\" stroke-width=\"1.3\" points=\"" + pts + "\"/>\n";
}

}  // namespace

void write_episode_svg(const std::filesystem::path& file, const temporal::episode_result& e,
                       const temporal::cartpole_setting& setting, const std::string& title,
                       const hw::tennlab_network& network, const std::vector<hw::node_id>& ids) {
    if (e.trace.empty()) throw invalid_parameter("episode plot", "trace", "empty", "run the episode with keep_trace");
    const temporal::cartpole_physics& p = setting.physics;
    const std::size_t n = e.trace.size();
    std::size_t raster_steps = 0;
    while (raster_steps < n && !e.trace[raster_steps].fires.empty()) ++raster_steps;
    const double row = std::clamp(160.0 / std::max<double>(1, static_cast<double>(ids.size())), 6.0, 16.0);
    const double bottom2 = top2 + row * static_cast<double>(ids.size());
    const double height = raster_steps > 0 ? bottom2 + 50 : band_bottom + 40;
    const double seconds = static_cast<double>(n) * p.tau;
    const std::string note = setting.name + " setting: " + std::to_string(e.steps) + " of " +
                             std::to_string(setting.episode_steps) + " steps survived (" +
                             snn::detail::svg::num(static_cast<double>(e.steps) * p.tau) + " s)";
    std::string out = snn::detail::svg::begin_plot(width, height, title, note, left, top1, right, bottom1);
    const auto x_of = [&](double t) { return left + t / std::max(seconds, p.tau) * (right - left); };
    const auto y_of = [&](double f) { return bottom1 - (f + 1.0) / 2.0 * (bottom1 - top1); };
    for (double f : {-1.0, -0.5, 0.0, 0.5, 1.0}) {
        line(out, left, y_of(f), right, y_of(f), f == 0 ? "stroke=\"#999\"" : "stroke=\"#e5e5e5\"");
        text(out, left - 8, y_of(f) + 4, snn::detail::format_tick(f, 1), "text-anchor=\"end\" font-size=\"12\"");
    }
    text(out, 24, (top1 + bottom1) / 2, "fraction of the failure limit",
         "text-anchor=\"middle\" font-size=\"12\" transform=\"rotate(-90 24 " + num((top1 + bottom1) / 2) + ")\"");
    // At most ~2 points per pixel: long episodes are thinned to every k-th step.
    const std::size_t stride = std::max<std::size_t>(1, n / 1500);
    std::vector<double> xs, xv, tv;
    for (std::size_t k = 0; k < n; k += stride) {
        const double t = static_cast<double>(k) * p.tau;
        xs.push_back(x_of(t));
        xv.push_back(y_of(std::clamp(e.trace[k].state.x / p.x_limit, -1.0, 1.0)));
        tv.push_back(y_of(std::clamp(e.trace[k].state.theta / p.theta_limit, -1.0, 1.0)));
    }
    out += polyline(xs, xv, "#2ca02c");
    out += polyline(xs, tv, "#9467bd");
    text(out, right - 150, top1 + 16, "x / 2.4 m", "font-size=\"12\" fill=\"#2ca02c\"");
    text(out, right - 150, top1 + 32, "θ / 12°", "font-size=\"12\" fill=\"#9467bd\"");
    // The actions: one coloured band, merged into runs of the same action.
    text(out, left - 8, band_bottom - 2, "action", "text-anchor=\"end\" font-size=\"11\"");
    for (std::size_t k = 0; k < n;) {
        std::size_t j = k;
        while (j < n && e.trace[j].action == e.trace[k].action) ++j;
        const auto a = setting.actions[static_cast<std::size_t>(e.trace[k].action)];
        const double x0 = x_of(static_cast<double>(k) * p.tau), x1 = x_of(static_cast<double>(j) * p.tau);
        out += "<rect x=\"" + num(x0) + "\" y=\"" + num(band_top) + "\" width=\"" + num(std::max(x1 - x0, 0.3)) +
               "\" height=\"" + num(band_bottom - band_top) + "\" fill=\"" + action_colour(a) + "\"/>\n";
        k = j;
    }
    double lx = left;
    for (auto a : setting.actions) {
        out += "<rect x=\"" + num(lx) + "\" y=\"" + num(band_bottom + 8) + "\" width=\"10\" height=\"10\" fill=\"" +
               action_colour(a) + "\"/>\n";
        text(out, lx + 14, band_bottom + 17, temporal::to_string(a), "font-size=\"11\"");
        lx += 80;
    }
    const auto ticks = snn::detail::nice_ticks(0, seconds, 8);
    for (double t : ticks.values) {
        line(out, x_of(t), bottom1, x_of(t), bottom1 + 5, "stroke=\"#333\"");
        text(out, x_of(t), bottom1 + 18, snn::detail::format_tick(t, ticks.decimals) + " s",
             "text-anchor=\"middle\" font-size=\"11\"");
    }
    if (raster_steps > 0) {
        const double steps_per_obs = setting.coding.timesteps_per_observation;
        const double total = static_cast<double>(raster_steps) * steps_per_obs;
        const auto rx = [&](double t) { return left + t / total * (right - left); };
        out += "<rect x=\"" + num(left) + "\" y=\"" + num(top2) + "\" width=\"" + num(right - left) + "\" height=\"" +
               num(bottom2 - top2) + "\" fill=\"none\" stroke=\"#333\"/>\n";
        text(out, width / 2, top2 - 12,
             "raster of the first " + std::to_string(raster_steps) + " steps (" +
                 std::to_string(static_cast<long long>(total)) + " processor timesteps; grey lines: observations)",
             "text-anchor=\"middle\" font-size=\"12\"");
        for (std::size_t k = 1; k < raster_steps; ++k) {
            const double x = rx(static_cast<double>(k) * steps_per_obs);
            line(out, x, top2, x, bottom2, "stroke=\"#eee\"");
        }
        for (std::size_t i = 0; i < ids.size(); ++i) {
            const double y = top2 + row * (static_cast<double>(i) + 0.5);
            text(out, left - 8, y + 4, neuron_label(ids[i], network, setting), "text-anchor=\"end\" font-size=\"10\"");
        }
        for (std::size_t k = 0; k < raster_steps; ++k)
            for (std::size_t i = 0; i < ids.size() && i < e.trace[k].fires.size(); ++i)
                for (double t : e.trace[k].fires[i]) {
                    const double x = rx(static_cast<double>(k) * steps_per_obs + t);
                    const double y = top2 + row * static_cast<double>(i);
                    line(out, x, y + 1, x, y + row - 1, "stroke=\"#222\" stroke-width=\"1\"");
                }
        text(out, 14, (top2 + bottom2) / 2, "neuron",
             "text-anchor=\"middle\" font-size=\"12\" transform=\"rotate(-90 14 " + num((top2 + bottom2) / 2) + ")\"");
        const auto rticks = snn::detail::nice_ticks(0, total, 8);
        for (double t : rticks.values) {
            line(out, rx(t), bottom2, rx(t), bottom2 + 5, "stroke=\"#333\"");
            text(out, rx(t), bottom2 + 17, snn::detail::format_tick(t, rticks.decimals), "text-anchor=\"middle\" font-size=\"11\"");
        }
        text(out, width / 2, bottom2 + 34, "processor timestep", "text-anchor=\"middle\" font-size=\"12\"");
    }
    out += "</svg>\n";
    snn::detail::svg::save(file, out, "episode plot");
}

}  // namespace volley::cli
