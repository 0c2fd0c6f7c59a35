// `volley analyse REC.h5`: spike-train statistics, synchrony and distances of the populations
// of a SONATA spike file, as text or JSON, with optional SVG plots (docs/analysis.md).

#include "cli_common.hpp"

#include <volley/snn/analysis/distances.hpp>
#include <volley/snn/analysis/plots.hpp>
#include <volley/snn/analysis/population.hpp>
#include <volley/snn/analysis/statistics.hpp>
#include <volley/snn/plot_axis.hpp>
#include <volley/snn/sonata_spikes.hpp>

#include <algorithm>
#include <cmath>
#include <filesystem>
#include <memory>
#include <numeric>
#include <optional>
#include <sstream>

namespace volley::cli {

namespace {

namespace va = snn::analysis;

struct analyse_options {
    std::string file, population, measures = "rates,cv,cv2,lv,fano,psth,chi", window, plot_dir;
    double bin_ms = 5, fano_window_ms = 100, tau_ms = 10, cost_per_ms = 0.1;
    int max_lag_bins = 20;
    bool json = false;
};

const std::vector<std::string> known_measures{"rates",        "isi",
                                              "cv",           "cv2",
                                              "lv",           "fano",
                                              "psth",         "chi",
                                              "correlation",  "correlogram",
                                              "van-rossum",   "victor-purpura",
                                              "isi-distance", "spike-distance",
                                              "spike-sync"};

std::vector<std::string> parse_measures(const std::string& list) {
    std::vector<std::string> out;
    std::stringstream ss(list);
    std::string m;
    while (std::getline(ss, m, ',')) {
        if (m.empty()) continue;
        if (std::find(known_measures.begin(), known_measures.end(), m) == known_measures.end()) {
            std::string names;
            for (const auto& k : known_measures) names += (names.empty() ? "" : ",") + k;
            throw invalid_parameter("volley analyse", "--measures", m,
                                    "unknown measure (known: " + names + ")");
        }
        out.push_back(m);
    }
    if (out.empty())
        throw invalid_parameter("volley analyse", "--measures", list, "names no measure");
    return out;
}

std::optional<va::time_window> parse_window(const std::string& text) {
    if (text.empty()) return std::nullopt;
    const auto colon = text.find(':');
    try {
        if (colon == std::string::npos) throw std::invalid_argument("no colon");
        std::size_t used_a = 0, used_b = 0;
        const std::string a = text.substr(0, colon), b = text.substr(colon + 1);
        va::time_window w{std::stod(a, &used_a), std::stod(b, &used_b)};
        if (used_a != a.size() || used_b != b.size()) throw std::invalid_argument("trailing text");
        va::check_window(w);
        return w;
    } catch (const invalid_parameter&) {
        throw invalid_parameter("volley analyse", "--window", text,
                                "end must be > start (A:B in ms)");
    } catch (const std::exception&) {
        throw invalid_parameter("volley analyse", "--window", text,
                                "must be A:B, two numbers in ms");
    }
}

// One population's spikes grouped by node: trains[i] views node i's sorted times in `times`.
struct grouped_population {
    std::vector<double> times;
    std::vector<va::spike_train> trains;
};

grouped_population group_by_node(const snn::population_spikes& p) {
    grouped_population g;
    std::uint64_t n = 0;
    for (auto id : p.node_ids) n = std::max(n, id + 1);
    if (n > 100000000)  // one train per id up to the largest: refuse absurd ids
        throw invalid_parameter("population '" + p.population + "'", "node id",
                                std::to_string(n - 1),
                                "is above 10^8 - 1 (analyse takes neurons 0 to the largest id)");
    std::vector<std::size_t> offset(n + 1, 0);
    for (auto id : p.node_ids) ++offset[id + 1];
    std::partial_sum(offset.begin(), offset.end(), offset.begin());
    g.times.resize(p.timestamps_ms.size());
    auto fill = offset;
    for (std::size_t k = 0; k < p.node_ids.size(); ++k)
        g.times[fill[p.node_ids[k]]++] = p.timestamps_ms[k];
    for (std::uint64_t i = 0; i < n; ++i) {
        const auto first = g.times.begin() + static_cast<std::ptrdiff_t>(offset[i]);
        const auto last = g.times.begin() + static_cast<std::ptrdiff_t>(offset[i + 1]);
        std::sort(first, last);
        g.trains.emplace_back(g.times.data() + offset[i], offset[i + 1] - offset[i]);
    }
    return g;
}

// Mean of the finite values (NaN when there are none) and how many there are.
std::pair<double, std::size_t> finite_mean(const std::vector<double>& v) {
    double s = 0;
    std::size_t n = 0;
    for (double x : v)
        if (std::isfinite(x)) s += x, ++n;
    return {n ? s / static_cast<double>(n) : std::nan(""), n};
}

nlohmann::json values_json(const std::vector<double>& v) {
    auto j = nlohmann::json::array();
    for (double x : v) j.push_back(std::isfinite(x) ? nlohmann::json(x) : nlohmann::json(nullptr));
    return j;
}

// Per-neuron values of a measure that needs `min_spikes`; NaN where a neuron has fewer.
template <class F>
std::vector<double> per_neuron(const std::vector<va::spike_train>& trains, std::size_t min_spikes,
                               F f) {
    std::vector<double> out(trains.size(), std::nan(""));
    for (std::size_t i = 0; i < trains.size(); ++i)
        if (trains[i].size() >= min_spikes) out[i] = f(trains[i], i);
    return out;
}

/// ", K more with >= 3 spikes WHY (undefined)" for the neurons with three spikes or more whose
/// value is NaN, so that the count of neurons does not read as "fewer than 3 spikes".
std::string undefined_note(const std::vector<va::spike_train>& trains, const std::vector<double>& v, const std::string& why) {
    std::size_t k = 0;
    for (std::size_t i = 0; i < trains.size(); ++i) k += trains[i].size() >= 3 && std::isnan(v[i]);
    return k == 0 ? "" : "; " + std::to_string(k) + " more with >= 3 spikes " + why + " (undefined)";
}

std::string fixed(double v, int digits = 4) {
    if (!std::isfinite(v)) return "n/a";
    std::ostringstream s;
    s.precision(digits);
    s << v;
    return s.str();
}

void analyse_population(const analyse_options& o, const std::vector<std::string>& measures,
                        const snn::population_spikes& pop, std::optional<va::time_window> window,
                        nlohmann::json& report, std::string& text) {
    const auto g = group_by_node(pop);
    const std::string object = o.file + ": population '" + pop.population + "'";
    if (!window) {
        if (g.times.empty())
            throw invalid_parameter(object, "spikes", "0",
                                    "has no spikes (give --window A:B to analyse it anyway)");
        const double last = *std::max_element(g.times.begin(), g.times.end());
        window = va::time_window{0, (std::floor(last / o.bin_ms) + 1) * o.bin_ms};
    }
    const auto w = *window;
    const auto& trains = g.trains;
    std::vector<va::spike_train> windowed;  // each train's spikes inside the window
    for (const auto& t : trains) windowed.push_back(va::restrict_to(t, w));
    nlohmann::json j{{"population", pop.population},
                     {"neurons", trains.size()},
                     {"spikes", g.times.size()},
                     {"window_ms", {w.start_ms, w.stop_ms}}};
    text += object + ": " + std::to_string(trains.size()) + " neurons, " +
            std::to_string(g.times.size()) + " spikes, window [" + fixed(w.start_ms, 10) + ", " +
            fixed(w.stop_ms, 10) + ") ms\n";
    const auto line = [&](const std::string& name, const std::string& body) {
        text +=
            "  " + name + std::string(name.size() < 16 ? 16 - name.size() : 1, ' ') + body + "\n";
    };
    const auto summary = [&](const std::string& name, const std::vector<double>& v,
                             const std::string& unit, const std::string& needs) {
        const auto [mean, n] = finite_mean(v);
        j[name] = {{"mean", std::isfinite(mean) ? nlohmann::json(mean) : nlohmann::json(nullptr)},
                   {"neurons", n},
                   {"values", values_json(v)}};
        line(name,
             "mean " + fixed(mean) + unit + " over " + std::to_string(n) + " neurons" + needs);
    };
    const auto plot_file = [&](const std::string& what) {
        return std::filesystem::path(o.plot_dir) / (pop.population + "_" + what + ".svg");
    };
    const bool plots = !o.plot_dir.empty();
    for (const auto& m : measures) {
        if (m == "rates") {
            summary("rates",
                    per_neuron(trains, 0,
                               [&](va::spike_train t, std::size_t i) {
                                   return va::mean_rate_hz(t, w, i);
                               }),
                    " Hz", "");
        } else if (m == "isi") {
            std::vector<double> all;
            for (std::size_t i = 0; i < trains.size(); ++i) {
                const auto d = va::isis(windowed[i], i);
                all.insert(all.end(), d.begin(), d.end());
            }
            const auto [mean, n] = finite_mean(all);
            j["isi"] = {
                {"count", n},
                {"mean_ms", std::isfinite(mean) ? nlohmann::json(mean) : nlohmann::json(nullptr)}};
            line("isi", std::to_string(n) + " intervals, mean " + fixed(mean) + " ms");
            if (plots && !all.empty()) {
                const double longest = *std::max_element(all.begin(), all.end());
                const double bin = snn::detail::nice_number(std::max(longest, 1e-6) / 50, true);
                va::write_isi_histogram_svg(plot_file("isi"), all, bin,
                                            pop.population + ": ISI histogram");
            }
        } else if (m == "cv") {
            const auto v = per_neuron(windowed, 3, [](va::spike_train t, std::size_t i) {
                return t.back() > t.front() ? va::cv(t, i) : std::nan("");
            });
            summary("cv", v, "", " with >= 3 spikes" + undefined_note(windowed, v, "all at one time"));
        } else if (m == "cv2" || m == "lv") {
            const bool is_cv2 = m == "cv2";
            const auto v = per_neuron(windowed, 3, [&](va::spike_train t, std::size_t i) {
                for (std::size_t k = 1; k < t.size(); ++k)
                    if (t[k] == t[k - 1]) return std::nan("");  // repeated times: undefined
                return is_cv2 ? va::cv2(t, i) : va::lv(t, i);
            });
            summary(m, v, "", " with >= 3 spikes" + undefined_note(windowed, v, "with a repeated spike time"));
        } else if (m == "fano" && w.duration_ms() / o.fano_window_ms < 2) {
            // Fewer than two counting windows: no neuron has a Fano factor, and none is to blame.
            const std::string why = "the window (" + fixed(w.duration_ms()) + " ms) holds fewer than two counting windows of " +
                                    fixed(o.fano_window_ms) + " ms (--fano-window)";
            j["fano"] = {{"mean", nullptr}, {"neurons", 0}, {"values", values_json(std::vector<double>(trains.size(), std::nan("")))}, {"undefined", why}};
            line("fano", "n/a: " + why);
        } else if (m == "fano") {
            // Windows of whole counting intervals; neurons without a spike in them have no value.
            const double counted_stop =
                w.start_ms +
                std::floor(w.duration_ms() / o.fano_window_ms + 1e-9) * o.fano_window_ms;
            summary("fano",
                    per_neuron(windowed, 1,
                               [&](va::spike_train t, std::size_t i) {
                                   return va::restrict_to(t, {w.start_ms, counted_stop}).empty()
                                              ? std::nan("")
                                              : va::fano_factor(t, w, o.fano_window_ms, i);
                               }),
                    "", " with spikes (" + fixed(o.fano_window_ms) + " ms windows)");
        } else if (m == "psth") {
            const auto h = va::psth(trains, w, o.bin_ms);
            const double peak =
                h.rate_hz.empty() ? 0 : *std::max_element(h.rate_hz.begin(), h.rate_hz.end());
            j["psth"] = {{"bin_ms", o.bin_ms}, {"rate_hz", h.rate_hz}, {"peak_hz", peak}};
            line("psth", std::to_string(h.rate_hz.size()) + " bins of " + fixed(o.bin_ms) +
                             " ms, peak " + fixed(peak) + " Hz");
            if (plots)
                va::write_psth_svg(plot_file("psth"), h, pop.population + ": population rate");
        } else if (m == "chi") {
            const double chi = va::golomb_chi(trains, w, o.bin_ms);
            j["chi"] = chi;
            line("chi", fixed(chi) + " (Golomb, " + fixed(o.bin_ms) + " ms bins)");
        } else if (m == "correlogram") {
            va::correlogram sum;
            for (std::size_t i = 0; i < trains.size(); ++i) {
                auto c = va::auto_correlogram(trains[i], w, o.bin_ms, o.max_lag_bins, i);
                if (i == 0)
                    sum = c;
                else
                    for (std::size_t k = 0; k < c.counts.size(); ++k) sum.counts[k] += c.counts[k];
            }
            j["correlogram"] = {
                {"bin_ms", o.bin_ms}, {"max_lag_bins", o.max_lag_bins}, {"counts", sum.counts}};
            line("correlogram",
                 "summed auto-correlogram, lags +-" + std::to_string(o.max_lag_bins) + " bins");
            if (plots && !trains.empty())
                va::write_correlogram_svg(plot_file("correlogram"), sum,
                                          pop.population + ": summed auto-correlogram");
        } else {
            std::vector<double> matrix;
            if (m == "correlation") {
                matrix = va::correlation_matrix(trains, w, o.bin_ms);
            } else {
                va::distance_options d;
                d.tau_ms = o.tau_ms;
                d.cost_per_ms = o.cost_per_ms;
                d.kreuz.window = w;
                const auto measure = m == "van-rossum"       ? va::distance_measure::van_rossum
                                     : m == "victor-purpura" ? va::distance_measure::victor_purpura
                                     : m == "isi-distance"   ? va::distance_measure::isi
                                     : m == "spike-distance" ? va::distance_measure::spike
                                                             : va::distance_measure::spike_sync;
                matrix = va::distance_matrix(windowed, measure, d);
            }
            const std::size_t n = trains.size();
            std::vector<double> off;
            for (std::size_t a = 0; a < n; ++a)
                for (std::size_t b = a + 1; b < n; ++b) off.push_back(matrix[a * n + b]);
            const auto [mean, pairs] = finite_mean(off);
            j[m] = {{"mean", std::isfinite(mean) ? nlohmann::json(mean) : nlohmann::json(nullptr)},
                    {"pairs", pairs}};
            if (n <= 200) j[m]["matrix"] = values_json(matrix);
            line(m, "mean " + fixed(mean) + " over " + std::to_string(pairs) + " pairs");
            if (plots && n > 0)
                va::write_heat_map_svg(plot_file(m), matrix, pop.population + ": " + m, m);
        }
    }
    report["populations"].push_back(j);
}

void analyse(const analyse_options& o) {
    const auto measures = parse_measures(o.measures);
    const auto window = parse_window(o.window);
    const auto check_positive = [](const char* name, double v) {
        if (!std::isfinite(v) || !(v > 0))
            throw invalid_parameter("volley analyse", name, va::value_text(v), "must be > 0");
    };
    check_positive("--bin", o.bin_ms);
    check_positive("--fano-window", o.fano_window_ms);
    check_positive("--tau", o.tau_ms);
    if (!o.plot_dir.empty()) std::filesystem::create_directories(o.plot_dir);
    const auto pops = snn::read_sonata_spikes(o.file);
    nlohmann::json report{{"file", o.file}, {"populations", nlohmann::json::array()}};
    std::string text;
    bool found = false;
    for (const auto& p : pops) {
        if (!o.population.empty() && p.population != o.population) continue;
        found = true;
        if (o.population.empty() && p.timestamps_ms.empty()) {  // named explicitly, it is an error
            report["populations"].push_back(
                {{"population", p.population}, {"spikes", 0}, {"skipped", "no spikes"}});
            text += o.file + ": population '" + p.population + "': no spikes, skipped\n";
            continue;
        }
        try {
            analyse_population(o, measures, p, window, report, text);
        } catch (const invalid_parameter& e) {
            if (e.object().rfind(o.file, 0) == 0) throw;
            const std::string prefix = e.object() + ": " + e.parameter() + " = " + e.value() + ": ";
            throw invalid_parameter(o.file + ": population '" + p.population + "': " + e.object(),
                                    e.parameter(), e.value(),
                                    std::string(e.what()).substr(prefix.size()));
        }
    }
    if (!o.population.empty() && !found) throw unknown_name("population", o.population, o.file);
    if (o.json)
        print_json(report);
    else
        std::fputs(text.c_str(), stdout);
}

}  // namespace

void register_analyse(CLI::App& app, command_context& /*ctx*/) {
    auto* cmd = app.add_subcommand(
        "analyse", "Spike-train statistics, synchrony and distances of a SONATA spike file");
    auto o = std::make_shared<analyse_options>();
    cmd->add_option("file", o->file, "SONATA spike file (.h5), Volley's or another simulator's")
        ->required();
    cmd->add_option("--population", o->population, "Analyse only this population (default: all)");
    cmd->add_option(
           "--measures", o->measures,
           "Comma-separated: rates,isi,cv,cv2,lv,fano,psth,chi,correlation,correlogram,van-rossum,"
           "victor-purpura,isi-distance,spike-distance,spike-sync")
        ->capture_default_str();
    cmd->add_option("--window", o->window,
                    "Analysis window A:B [ms] (default: 0 to just after the last spike)");
    cmd->add_option("--bin", o->bin_ms, "Bin width [ms] for PSTH, chi, correlations, correlograms")
        ->capture_default_str();
    cmd->add_option("--fano-window", o->fano_window_ms, "Counting window of the Fano factor [ms]")
        ->capture_default_str();
    cmd->add_option("--tau", o->tau_ms, "Van Rossum time constant [ms]")->capture_default_str();
    cmd->add_option("--cost", o->cost_per_ms, "Victor-Purpura shift cost [1/ms]")
        ->capture_default_str();
    cmd->add_option("--max-lag", o->max_lag_bins, "Correlogram lags [bins]")->capture_default_str();
    cmd->add_option("--plot", o->plot_dir,
                    "Write SVG plots (ISI histogram, PSTH, correlogram, matrices) into DIR");
    cmd->add_flag("--json", o->json, "Print one JSON object on stdout");
    cmd->callback([o] { analyse(*o); });
}

}  // namespace volley::cli
