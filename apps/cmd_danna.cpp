// `volley danna`: place and route onto the DANNA grid, run networks and programmes with a cost
// report and an HDF5 monitor, and the processor_tool command language on DANNA models.

#include "cli_common.hpp"

#include <volley/danna/danna2_net_format.hpp>
#include <volley/danna/danna2_processor.hpp>
#include <volley/danna/grid_processor.hpp>
#include <volley/danna/layout_svg.hpp>
#include <volley/danna/place_and_route.hpp>
#include <volley/danna/processor_factory.hpp>
#include <volley/hw/processor_tool.hpp>
#include <volley/json_text.hpp>

#include <fstream>
#include <iostream>
#include <memory>
#include <optional>
#include <sstream>

namespace volley::cli {

namespace {

namespace vd = volley::danna;

struct danna_options {
    std::string model = "danna", preset = "tiny", prompt;
    std::string network, out, svg, inputs, monitor, window;
    std::uint64_t seed = 1;
    std::int64_t cycles = 100;
    bool json = false;
};

bool is_programme(const nlohmann::json& j) {
    return j.is_object() && j.value("format", std::string()) == "volley-danna-programme";
}

bool is_danna2_net(const std::string& path) { return path.size() > 4 && path.compare(path.size() - 4, 4, ".net") == 0; }

/// A network file and the processor it names: a danna2.net (by extension; the model's own
/// parameters), or TENNLab network JSON, whose Associated_Data.other.proc_name and proc_params
/// (as `volley evolve`, `volley control` and TENNLab's tools write them) say how it runs: a
/// "risp" network runs with RISP's semantics (refractory 0, its threshold rule and spike value),
/// as make_processor and `volley danna` ML run it. A file that names no processor runs on the
/// model's defaults.
struct network_file {
    std::optional<hw::tennlab_network> tennlab;  ///< none for a danna2.net
    std::optional<vd::hardware_network> net;     ///< the danna2.net's network
    std::string proc_name;                       ///< "" when the file names none
    nlohmann::json proc_params;
};

network_file read_network_file(const std::string& path) {
    network_file f;
    if (is_danna2_net(path)) {
        f.net = vd::load_danna2_net(path).net;
        return f;
    }
    f.tennlab = hw::tennlab_network::from_json(read_json_file(path), path, hw::unknown_keys::keep);
    const auto& ad = f.tennlab->associated_data;
    if (ad.is_object() && ad.contains("other") && ad["other"].is_object() && ad["other"].contains("proc_name")) {
        if (!ad["other"]["proc_name"].is_string())
            throw file_format_error(path, "/Associated_Data/other/proc_name", "expected a processor name, got " +
                                                                                  ad["other"]["proc_name"].dump());
        f.proc_name = ad["other"]["proc_name"].get<std::string>();
        f.proc_params = ad.value("proc_params", nlohmann::json::object());
    }
    return f;
}

/// The hardware network of `f` with `default_refractory` for synapses that give none.
vd::hardware_network hardware_of(const network_file& f, int default_refractory) {
    return f.net ? *f.net : vd::from_tennlab(*f.tennlab, default_refractory);
}

/// The parameters of `model` for `f` (warnings on stderr, as `volley danna` ML prints them).
vd::danna2_params danna2_params_of(const network_file& f, const std::string& path) {
    if (f.proc_name.empty()) return {};
    std::vector<std::string> warnings;
    auto p = vd::danna2_params_for(f.proc_name, f.proc_params, warnings);
    for (const auto& w : warnings) std::fprintf(stderr, "%s: %s\n", path.c_str(), w.c_str());
    return p;
}

vd::grid_params grid_params_of(const network_file& f, const std::string& path, const std::string& preset) {
    if (f.proc_name.empty()) return vd::grid_preset(preset);
    std::vector<std::string> warnings;
    auto g = vd::grid_params_for(f.proc_name, f.proc_params, warnings, preset);
    for (const auto& w : warnings) std::fprintf(stderr, "%s: %s\n", path.c_str(), w.c_str());
    return g;
}

/// Input spikes: lines "node_id,cycle,value" (raw charge values); '#' comments and a
/// non-numeric header line are skipped.
std::vector<hw::spike> read_inputs(const std::string& path) {
    std::vector<hw::spike> out;
    if (path.empty()) return out;
    std::ifstream in(path);
    if (!in) throw io_error(path, "cannot open the file");
    std::string line;
    for (int number = 1; std::getline(in, line); ++number) {
        if (line.empty() || line[0] == '#') continue;
        for (char& c : line)
            if (c == ',') c = ' ';
        std::istringstream words(line);
        long long id = 0;
        double cycle = 0, value = 0;
        if (!(words >> id >> cycle >> value)) {
            if (number == 1) continue;
            throw file_format_error(path, "line " + std::to_string(number),
                                    "expected node_id,cycle,value");
        }
        out.push_back({static_cast<hw::node_id>(id), cycle, value});
    }
    return out;
}

void cmd_place(const danna_options& o) {
    const auto file = read_network_file(o.network);
    const vd::grid_params params = grid_params_of(file, o.network, o.preset);
    const auto net = hardware_of(file, params.default_refractory);
    const auto placed = vd::place_and_route(net, params, {.seed = o.seed});
    if (!o.out.empty()) vd::save_programme(placed.programme, o.out);
    if (!o.svg.empty()) vd::save_layout_svg(placed.programme, o.svg);
    if (o.json) {
        print_json({{"preset", o.preset}, {"seed", o.seed}, {"report", placed.report.to_json()}});
    } else {
        std::cout << placed.report.to_text();
    }
}

void cmd_run(const danna_options& o) {
    std::unique_ptr<vd::cycle_processor> proc;
    vd::grid_processor* grid = nullptr;
    const nlohmann::json j = is_danna2_net(o.network) ? nlohmann::json() : read_json_file(o.network);
    if (is_programme(j)) {
        const auto prog = vd::grid_programme::from_json(j, o.network);
        auto g = std::make_unique<vd::grid_processor>(prog.params);
        g->load_programme(prog);
        grid = g.get();
        proc = std::move(g);
    } else if (o.model == "danna2") {
        const auto file = read_network_file(o.network);
        auto d = std::make_unique<vd::danna2_processor>(danna2_params_of(file, o.network));
        d->load_hardware_network(hardware_of(file, d->params().default_refractory));
        proc = std::move(d);
    } else {
        const auto file = read_network_file(o.network);
        auto g = std::make_unique<vd::grid_processor>(grid_params_of(file, o.network, o.preset),
                                                      vd::place_and_route_options{.seed = o.seed});
        g->load_hardware_network(hardware_of(file, g->params().default_refractory));
        grid = g.get();
        proc = std::move(g);
    }
    std::unique_ptr<vd::cycle_monitor> monitor;
    if (!o.monitor.empty()) {
        if (grid == nullptr)
            throw invalid_parameter("volley danna run", "--monitor", o.monitor,
                                    "the monitor reads the danna grid; use --model danna");
        std::int64_t first = 0, last = o.cycles;
        if (!o.window.empty() && std::sscanf(o.window.c_str(), "%ld:%ld", &first, &last) != 2)
            throw invalid_parameter("volley danna run", "--window", o.window,
                                    "expected FIRST:LAST");
        monitor = std::make_unique<vd::cycle_monitor>(grid->params().width, grid->params().height,
                                                      first, last);
        grid->engine_of().set_monitor(monitor.get());
    }
    for (const auto& s : read_inputs(o.inputs)) proc->apply_spike(s, false);
    proc->run(static_cast<double>(o.cycles));
    if (monitor) {
        grid->engine_of().set_monitor(nullptr);
        monitor->write_hdf5(o.monitor);
    }
    const auto net = proc->learnt_network();
    nlohmann::json outputs = nlohmann::json::array();
    for (int i = 0; i < proc->num_outputs(); ++i)
        outputs.push_back(
            {{"id", net.outputs[static_cast<std::size_t>(i)]}, {"fires", proc->output_vector(i)}});
    const hw::cost_report cost = proc->costs();
    if (o.json) {
        nlohmann::json out = {{"model", proc->name()},
                              {"cycles", o.cycles},
                              {"outputs", outputs},
                              {"cost", cost.to_json()}};
        if (grid != nullptr) out["place_and_route"] = grid->report().to_json();
        print_json(out);
        return;
    }
    for (const auto& out : outputs) {
        std::cout << "output " << out["id"].get<hw::node_id>() << ": ";
        if (out["fires"].empty()) std::cout << "no fires";
        else std::cout << out["fires"].size() << (out["fires"].size() == 1 ? " fire, at cycle" : " fires, at cycles");
        for (double t : out["fires"]) std::cout << ' ' << t;
        std::cout << '\n';
    }
    std::cout << cost.to_text();
}

}  // namespace

void register_danna(CLI::App& app, command_context& ctx) {
    auto o = std::make_shared<danna_options>();
    auto* cmd = app.add_subcommand(
        "danna",
        "DANNA element-array models: place and route, run, or (without a subcommand) read "
        "processor_tool commands from stdin");
    cmd->add_option("--model", o->model, "danna (element grid) or danna2 (element cores)")
        ->check(CLI::IsMember({"danna", "danna2"}));
    cmd->add_option("--preset", o->preset, "grid preset: tiny, fpga2014, vlsi2016")
        ->check(CLI::IsMember({"tiny", "fpga2014", "vlsi2016"}));
    cmd->add_option("--prompt", o->prompt, "interpreter prompt");
    cmd->require_subcommand(0, 1);
    cmd->footer(hw::processor_tool::help_text("DANNA (--model danna or danna2)", "danna|danna2|risp"));

    auto* place = cmd->add_subcommand("place", "Place and route a network onto a DANNA grid");
    place->add_option("network", o->network, "TENNLab network JSON or danna2.net")->required();
    place->add_option("--preset", o->preset, "tiny, fpga2014, vlsi2016")
        ->check(CLI::IsMember({"tiny", "fpga2014", "vlsi2016"}));
    place->add_option("--seed", o->seed, "placement seed");
    place->add_option("--out", o->out, "write the programme (JSON)");
    place->add_option("--svg", o->svg, "write the layout (SVG)");
    place->add_flag("--json", o->json, "print the report as JSON");
    place->callback([o] { cmd_place(*o); });

    auto* run =
        cmd->add_subcommand("run", "Run a programme or network and print its fires and costs");
    run->add_option("network", o->network, "programme JSON, TENNLab network JSON or danna2.net")
        ->required();
    run->add_option("--inputs", o->inputs, "CSV of node_id,cycle,value input spikes (raw values)");
    run->add_option("--cycles", o->cycles, "network cycles to run")->check(CLI::NonNegativeNumber);
    run->add_option("--model", o->model, "danna or danna2 (networks only)")
        ->check(CLI::IsMember({"danna", "danna2"}));
    run->add_option("--preset", o->preset, "grid preset for networks")
        ->check(CLI::IsMember({"tiny", "fpga2014", "vlsi2016"}));
    run->add_option("--seed", o->seed, "placement seed for networks");
    run->add_option("--monitor", o->monitor, "write every element's charge and fired bit (HDF5)");
    run->add_option("--window", o->window, "monitor only cycles FIRST:LAST (last exclusive)");
    run->add_flag("--json", o->json, "print one JSON object");
    run->callback([o] { cmd_run(*o); });

    cmd->callback([cmd, o, &ctx] {
        if (!cmd->get_subcommands().empty()) return;
        std::ios::sync_with_stdio(false);
        hw::processor_tool tool(std::cin, std::cout, std::cerr, o->prompt,
                                vd::tool_factory(o->model, o->preset));
        ctx.exit_code = tool.run();
        std::cout.flush();
    });
}

}  // namespace volley::cli
