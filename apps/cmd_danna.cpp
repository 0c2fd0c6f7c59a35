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

#include <fstream>
#include <iostream>
#include <memory>
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

nlohmann::json read_json_file(const std::string& path) {
    std::ifstream in(path);
    if (!in) throw io_error(path, "cannot open the file");
    try {
        return nlohmann::json::parse(in);
    } catch (const nlohmann::json::exception& e) {
        throw file_format_error(path, "", std::string("not JSON: ") + e.what());
    }
}

/// A network file: danna2.net (by extension) or TENNLab network JSON.
vd::hardware_network read_network(const std::string& path, int default_refractory) {
    if (path.size() > 4 && path.compare(path.size() - 4, 4, ".net") == 0)
        return vd::load_danna2_net(path).net;
    const auto net =
        hw::tennlab_network::from_json(read_json_file(path), path, hw::unknown_keys::keep);
    return vd::from_tennlab(net, default_refractory);
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
    const vd::grid_params params = vd::grid_preset(o.preset);
    const auto net = read_network(o.network, params.default_refractory);
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
    const nlohmann::json j =
        o.network.size() > 4 && o.network.compare(o.network.size() - 4, 4, ".net") == 0
            ? nlohmann::json()
            : read_json_file(o.network);
    if (is_programme(j)) {
        const auto prog = vd::grid_programme::from_json(j, o.network);
        auto g = std::make_unique<vd::grid_processor>(prog.params);
        g->load_programme(prog);
        grid = g.get();
        proc = std::move(g);
    } else if (o.model == "danna2") {
        auto d = std::make_unique<vd::danna2_processor>();
        d->load_hardware_network(read_network(o.network, d->params().default_refractory));
        proc = std::move(d);
    } else {
        auto g = std::make_unique<vd::grid_processor>(vd::grid_preset(o.preset),
                                                      vd::place_and_route_options{.seed = o.seed});
        g->load_hardware_network(read_network(o.network, g->params().default_refractory));
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
        std::cout << "output " << out["id"].get<hw::node_id>() << " fires:";
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
    cmd->footer(hw::processor_tool::help_text());

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
