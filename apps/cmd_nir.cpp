// `volley nir info FILE.nir` and `volley run FILE.nir --input CSV_OR_NPZ` (see docs/nir.md).

#include "cmd_nir.hpp"

#include <algorithm>
#include <volley/snn/nir_file.hpp>
#include <volley/snn/nir_network.hpp>
#include <volley/snn/npz_file.hpp>
#include <volley/snn/run_length.hpp>
#include <volley/snn/sonata_spikes.hpp>

#include <filesystem>
#include <fstream>
#include <memory>
#include <sstream>

namespace volley::cli {

namespace {

constexpr std::size_t max_listed_spikes = 100000;

std::string shape_text(const std::vector<std::size_t>& s) {
    std::string out = "[";
    for (std::size_t i = 0; i < s.size(); ++i) out += (i ? ", " : "") + std::to_string(s[i]);
    return out + "]";
}

std::vector<std::vector<double>> read_csv_rows(const std::string& file) {
    std::ifstream in(file);
    if (!in) throw io_error(file, "cannot open the input file");
    std::vector<std::vector<double>> rows;
    std::string line;
    for (std::size_t n = 1; std::getline(in, line); ++n) {
        if (!line.empty() && line.back() == '\r') line.pop_back();
        if (line.empty()) continue;
        std::vector<double> row;
        std::stringstream ss(line);
        std::string cell;
        while (std::getline(ss, cell, ',')) {
            try {
                std::size_t used = 0;
                row.push_back(std::stod(cell, &used));
                while (used < cell.size() && std::isspace(static_cast<unsigned char>(cell[used]))) ++used;
                if (used != cell.size()) throw std::invalid_argument("trailing text");
            } catch (const std::exception&) {
                throw file_format_error(file, "line " + std::to_string(n),
                                        "'" + cell + "' is not a number (one row per step, no header)");
            }
        }
        rows.push_back(std::move(row));
    }
    return rows;
}

std::vector<std::vector<double>> read_input(const std::string& file, std::size_t width, const std::string& node) {
    std::vector<std::vector<double>> rows;
    if (std::filesystem::path(file).extension() == ".npz") {
        const auto x = snn::read_npz_array(file, "x");
        if (x.shape.empty()) throw file_format_error(file, "array 'x'", "a scalar; expected shape (steps, *input shape)");
        std::size_t per = 1;
        for (std::size_t k = 1; k < x.shape.size(); ++k) per *= x.shape[k];
        if (per != width)
            throw file_format_error(file, "array 'x'",
                                    "shape " + shape_text(x.shape) + " gives " + std::to_string(per) +
                                        " values per step; Input '" + node + "' takes " + std::to_string(width));
        for (std::size_t t = 0; t < x.shape[0]; ++t)
            rows.emplace_back(x.values.begin() + static_cast<std::ptrdiff_t>(t * per),
                              x.values.begin() + static_cast<std::ptrdiff_t>((t + 1) * per));
        return rows;
    }
    rows = read_csv_rows(file);
    for (std::size_t t = 0; t < rows.size(); ++t)
        if (rows[t].size() != width)
            throw file_format_error(file, "line " + std::to_string(t + 1),
                                    std::to_string(rows[t].size()) + " columns; Input '" + node + "' takes " +
                                        std::to_string(width) + " (one column per element, C order)");
    return rows;
}

void write_spikes(const std::string& file, const snn::nir_run_result& r, double dt_ms) {
    snn::sonata_spike_writer w(file);
    for (const auto& layer : r.layers) {
        const auto k = w.add_population(layer.node);
        std::vector<std::uint64_t> ids(layer.neurons.begin(), layer.neurons.end());
        std::vector<double> times;
        for (auto t : layer.steps) times.push_back(static_cast<double>(t + 1) * dt_ms);
        w.append(k, ids, times);
    }
    w.close();
}

void nir_info(const std::string& file, double dt_s, bool json) {
    const auto g = snn::read_nir(file);
    nlohmann::json j;
    j["file"] = file;
    j["version"] = g.version;
    nlohmann::json nodes = nlohmann::json::array();
    for (std::size_t i : g.order) {
        const auto& n = g.nodes[i];
        nodes.push_back({{"name", n.name}, {"type", n.type}, {"input_shape", n.input_shape}, {"output_shape", n.output_shape}});
    }
    nlohmann::json edges = nlohmann::json::array();
    for (std::size_t e = 0; e < g.edges.size(); ++e)
        edges.push_back({{"source", g.edges[e].first}, {"target", g.edges[e].second}, {"recurrent", g.is_recurrent(e)}});
    j["nodes"] = nodes;
    j["edges"] = edges;
    j["notes"] = g.notes;
    j["dt_s"] = dt_s;
    j["warnings"] = report_nir_step_warnings(snn::check_nir_step(g, {.dt_s = dt_s}));
    if (json) {
        print_json(j);
        return;
    }
    std::printf("%s: NIR %s, %zu nodes, %zu edges\n", file.c_str(), g.version.c_str(), g.nodes.size(), g.edges.size());
    std::printf("%-20s %-10s %-16s %-16s\n", "node", "type", "input shape", "output shape");
    for (std::size_t i : g.order) {
        const auto& n = g.nodes[i];
        std::printf("%-20s %-10s %-16s %-16s\n", n.name.c_str(), n.type.c_str(), shape_text(n.input_shape).c_str(),
                    shape_text(n.output_shape).c_str());
    }
    std::printf("edges:\n");
    for (std::size_t e = 0; e < g.edges.size(); ++e)
        std::printf("  %s -> %s%s\n", g.edges[e].first.c_str(), g.edges[e].second.c_str(),
                    g.is_recurrent(e) ? "  (recurrent: one-step delay)" : "");
    for (const auto& note : g.notes) std::printf("note: %s\n", note.c_str());
}

}  // namespace

nlohmann::json report_nir_step_warnings(const std::vector<snn::nir_step_warning>& warnings) {
    nlohmann::json out = nlohmann::json::array();
    for (const auto& w : warnings) {
        std::fprintf(stderr, "warning: %s\n", w.message.c_str());
        out.push_back({{"node", w.node}, {"parameter", w.parameter}, {"dt_over_tau", w.dt_over_tau},
                       {"neurons", w.neurons}, {"message", w.message}});
    }
    return out;
}

void run_nir_file(const nir_run_options& o) {
    snn::nir_import_options opt;
    if (o.dt_s) opt.dt_s = *o.dt_s;
    if (o.discretisation == "euler") opt.discretisation = snn::discrete_neuron::integration::euler;
    else if (o.discretisation == "exact") opt.discretisation = snn::discrete_neuron::integration::exact;
    else throw invalid_parameter("--discretisation", "value", o.discretisation, "expected euler or exact");
    for (const auto& spec : o.reset) snn::apply_nir_reset(spec, opt);
    if (o.input.empty()) throw invalid_parameter("volley run " + o.file, "--input", "(none)", "a NIR run needs --input CSV_OR_NPZ");
    const auto model = snn::nir_to_network(snn::read_nir(o.file), opt);
    const auto warnings = report_nir_step_warnings(model.warnings);
    if (model.inputs.size() != 1)
        throw invalid_parameter("volley run " + o.file, "Input nodes", std::to_string(model.inputs.size()),
                                "--input feeds exactly one Input node");
    const auto& in = model.population(model.inputs[0]);
    const auto rows = read_input(o.input, model.net.at(in.pop).size, in.node);
    const std::int64_t steps = o.steps ? *o.steps : static_cast<std::int64_t>(rows.size());
    snn::check_run_steps(steps, "--steps", "steps");
    const auto r = snn::run_nir(model, {rows}, steps, o.threads);
    if (!o.out.empty()) write_spikes(o.out, r, opt.dt_s * 1000);

    nlohmann::json j;
    j["file"] = o.file;
    j["input"] = o.input;
    j["options"] = {{"dt_s", opt.dt_s},
                    {"discretisation", snn::integration_name(opt.discretisation)},
                    {"reset", snn::nir_reset_name(opt.reset)}};
    for (const auto& [node, mode] : opt.node_reset) j["options"]["node_reset"][node] = snn::nir_reset_name(mode);
    j["steps"] = steps;
    j["notes"] = model.notes;
    j["warnings"] = warnings;
    nlohmann::json nodes = nlohmann::json::array();
    for (const auto& p : model.populations) {
        nlohmann::json n = {{"name", p.node}, {"type", p.type}, {"shape", p.shape}, {"neurons", model.net.at(p.pop).size}};
        if (p.type != "Input") n["spikes"] = r.spike_counts.at(p.node);
        nodes.push_back(n);
    }
    j["nodes"] = nodes;
    nlohmann::json outs = nlohmann::json::array();
    for (std::size_t k = 0; k < r.outputs.size(); ++k) {
        const auto& os = r.outputs[k];
        nlohmann::json jo = {{"name", os.node}, {"source", model.outputs[k].source}, {"spikes", os.steps.size()}};
        if (os.steps.size() <= max_listed_spikes) {
            jo["spike_steps"] = os.steps;
            jo["spike_neurons"] = os.neurons;
        }
        // An Output fed by a linear node is a readout: its value at every step, not spikes.
        if (const auto v = r.v.find(os.node); v != r.v.end()) {
            const std::size_t count = v->second.empty() ? 0 : v->second.size() * v->second.front().size();
            if (count <= max_listed_spikes) jo["values"] = v->second;
        }
        outs.push_back(jo);
    }
    j["outputs"] = outs;
    if (!o.out.empty()) j["output_file"] = o.out;
    if (o.json) {
        print_json(j);
        return;
    }
    std::printf("%s: %s, %lld steps\n", o.file.c_str(), snn::describe(opt).c_str(), static_cast<long long>(steps));
    for (const auto& note : model.notes) std::printf("note: %s\n", note.c_str());
    std::printf("%-20s %-10s %-16s %10s\n", "node", "type", "shape", "spikes");
    for (const auto& p : model.populations)
        if (p.type != "Input")
            std::printf("%-20s %-10s %-16s %10llu\n", p.node.c_str(), p.type.c_str(), shape_text(p.shape).c_str(),
                        static_cast<unsigned long long>(r.spike_counts.at(p.node)));
    for (std::size_t k = 0; k < r.outputs.size(); ++k) {
        const auto v = r.v.find(r.outputs[k].node);
        if (v != r.v.end() && !v->second.empty()) {
            std::printf("Output '%s' (from '%s'): readout of %zu values per step; last step:", r.outputs[k].node.c_str(),
                        model.outputs[k].source.c_str(), v->second.back().size());
            for (std::size_t i = 0; i < std::min<std::size_t>(v->second.back().size(), 10); ++i)
                std::printf(" %.6g", v->second.back()[i]);
            std::printf(v->second.back().size() > 10 ? " ...\n" : "\n");
        } else {
            std::printf("Output '%s' (from '%s'): %zu spikes\n", r.outputs[k].node.c_str(), model.outputs[k].source.c_str(),
                        r.outputs[k].steps.size());
        }
    }
}

void register_nir(CLI::App& app, command_context&) {
    auto* nir = app.add_subcommand("nir", "Inspect NIR files (run them with `volley run FILE.nir --input ...`)");
    nir->require_subcommand(1);
    auto* info = nir->add_subcommand("info", "Print a NIR graph: nodes, types, inferred shapes and edges");
    auto file = std::make_shared<std::string>();
    auto json = std::make_shared<bool>(false);
    auto dt_s = std::make_shared<double>(1e-4);
    info->add_option("file", *file, "NIR file (.nir)")->required();
    info->add_option("--dt", *dt_s, "The step [s] that the time constants are checked against (default 1e-4)")
        ->check(CLI::PositiveNumber);
    info->add_flag("--json", *json, "Print one JSON object on stdout");
    info->callback([file, dt_s, json] { nir_info(*file, *dt_s, *json); });
}

}  // namespace volley::cli
