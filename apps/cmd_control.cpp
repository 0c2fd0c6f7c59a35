// `volley control cartpole`: a TENNLab network balancing the cart-pole (docs/control.md). Runs
// whole episodes on risp, danna2 or the DANNA grid from the held-out test starts, a seeded
// stream of starts, given starts, or replays a TENNLab closed-loop log step by step.

#include "cli_common.hpp"
#include "episode_plot.hpp"

#include <volley/hw/tennlab_network.hpp>
#include <volley/temporal/control_replay.hpp>
#include <volley/temporal/evaluation_task.hpp>

#include <algorithm>
#include <filesystem>
#include <fstream>
#include <memory>
#include <sstream>

namespace volley::cli {

namespace {

struct control_options {
    std::string network, setting = "easy", processor = "risp", preset, start, starts, plot, replay;
    int episodes = 20, steps = 0, raster_steps = 40;
    double gravity = 0;  ///< 0: the setting's
    std::uint64_t seed = temporal::test_start_seed;
    bool json = false;
};

/// Four comma-separated numbers x,ẋ,θ,θ̇ (`what` names the option or file line in errors).
temporal::cartpole_state parse_state(const std::string& text, const std::string& what,
                                     const temporal::cartpole_physics& physics) {
    std::vector<double> v;
    std::stringstream in(text);
    std::string item;
    while (std::getline(in, item, ',')) {
        try {
            std::size_t used = 0;
            v.push_back(std::stod(item, &used));
            if (item.find_first_not_of(" \t", used) != std::string::npos) throw std::invalid_argument(item);
        } catch (const std::exception&) {
            throw invalid_parameter(what, "start", text, "expected four numbers x,x_dot,theta,theta_dot");
        }
    }
    if (v.size() != 4) throw invalid_parameter(what, "start", text, "expected four numbers x,x_dot,theta,theta_dot");
    const temporal::cartpole_state s{v[0], v[1], v[2], v[3]};
    if (temporal::cartpole_failed(s, physics)) throw invalid_parameter(what, "start", text, "is outside the failure limits");
    return s;
}

/// One start per non-empty line (# comments allowed).
std::vector<temporal::cartpole_state> read_starts(const std::string& path, const temporal::cartpole_physics& physics) {
    std::ifstream in(path);
    if (!in) throw io_error(path, "cannot open the starts file");
    std::vector<temporal::cartpole_state> starts;
    std::string text;
    int line = 0;
    while (std::getline(in, text)) {
        ++line;
        if (const auto hash = text.find('#'); hash != std::string::npos) text.resize(hash);
        if (text.find_first_not_of(" \t\r") == std::string::npos) continue;
        starts.push_back(parse_state(text, path + " line " + std::to_string(line), physics));
    }
    if (starts.empty()) throw file_format_error(path, "", "no start states (one x,x_dot,theta,theta_dot per line)");
    return starts;
}

/// The processor: the preset's parameters, else the network's own proc_params.
temporal::processor_spec processor_for(const control_options& o, const hw::tennlab_network& net) {
    temporal::processor_spec spec;
    spec.kind = o.processor;
    if (!o.preset.empty()) {
        spec.proc_params = temporal::risp_preset(o.preset);
    } else if (net.associated_data.contains("proc_params")) {
        spec.proc_params = net.associated_data["proc_params"];
    } else {
        throw invalid_parameter(o.network, "Associated_Data.proc_params", "missing",
                                "the network carries no RISP parameters: give --preset (" +
                                    [] {
                                        std::string s;
                                        for (const auto& n : temporal::risp_preset_names()) s += (s.empty() ? "" : ", ") + n;
                                        return s;
                                    }() +
                                    ")");
    }
    spec.make();
    return spec;
}

void run_replay(const control_options& o, temporal::network_agent& agent, const temporal::cartpole_setting& setting) {
    const auto log = temporal::read_cartpole_log(o.replay);
    const auto r = temporal::replay_cartpole_log(agent, setting, log);
    nlohmann::json j = {{"log", o.replay},
                        {"steps", r.steps},
                        {"input_mismatches", r.input_mismatches},
                        {"output_mismatches", r.output_mismatches},
                        {"action_mismatches", r.action_mismatches},
                        {"dynamics_checked", r.dynamics_checked},
                        {"dynamics_outside_printed_digits", r.dynamics_outside},
                        {"dynamics_worst_share_of_printed_digits", r.dynamics_worst_ratio},
                        {"gravity", setting.physics.gravity},
                        {"first_mismatch_step", r.first_mismatch_step},
                        {"first_mismatch", r.first_mismatch},
                        {"ok", r.ok()}};
    if (o.json) {
        print_json(j);
    } else {
        std::printf("replayed %d steps of %s on %s (%s setting)\n", r.steps, o.replay.c_str(), o.processor.c_str(),
                    setting.name.c_str());
        std::printf("  input spike counts differing:  %d\n  output spike counts differing: %d\n  actions differing:             %d\n",
                    r.input_mismatches, r.output_mismatches, r.action_mismatches);
        if (r.dynamics_checked > 0)
            std::printf("  dynamics (g = %g): %d steps predicted, %d outside the printed digits (worst difference %.3f of "
                        "what their rounding allows)\n",
                        setting.physics.gravity, r.dynamics_checked, r.dynamics_outside, r.dynamics_worst_ratio);
        if (r.first_mismatch_step >= 0)
            std::printf("  first difference: %s at step %d\n", r.first_mismatch.c_str(), r.first_mismatch_step);
        std::printf("%s\n", r.ok() ? "identical" : "DIFFERENT");
    }
}

void run_control(const control_options& o) {
    auto setting = temporal::cartpole_setting::load(o.setting);
    if (o.gravity != 0) {
        if (!(o.gravity > 0)) throw invalid_parameter("--gravity", "gravity", std::to_string(o.gravity), "must be > 0");
        setting.physics.gravity = o.gravity;
    }
    const auto net = hw::load_tennlab_network(o.network);
    setting.check_network(net, o.network);
    const auto spec = processor_for(o, net);
    temporal::network_agent agent(spec, net, setting, o.network);
    if (!o.replay.empty()) {
        run_replay(o, agent, setting);
        return;
    }
    if (o.episodes < 1) throw invalid_parameter("--episodes", "episodes", std::to_string(o.episodes), "must be >= 1");
    if (o.steps < 0) throw invalid_parameter("--steps", "steps", std::to_string(o.steps), "must be >= 0");
    std::vector<temporal::cartpole_state> starts;
    if (!o.start.empty()) starts.push_back(parse_state(o.start, "--start", setting.physics));
    else if (!o.starts.empty()) starts = read_starts(o.starts, setting.physics);
    else
        for (int i = 0; i < o.episodes; ++i)
            starts.push_back(temporal::cartpole_start(setting.starts, o.seed, static_cast<std::uint64_t>(i)));
    temporal::episode_options eo;
    eo.max_steps = o.steps;
    const int length = o.steps > 0 ? o.steps : setting.episode_steps;
    nlohmann::json episodes = nlohmann::json::array();
    std::vector<int> steps;
    for (std::size_t i = 0; i < starts.size(); ++i) {
        const bool plotted = i == 0 && !o.plot.empty();
        eo.keep_trace = plotted;
        eo.raster_steps = plotted ? o.raster_steps : 0;
        const auto r = temporal::run_cartpole_episode(agent, setting, starts[i], eo);
        steps.push_back(r.steps);
        const auto& s = starts[i];
        episodes.push_back({{"start", {s.x, s.x_dot, s.theta, s.theta_dot}}, {"steps", r.steps}, {"survived", r.survived}});
        if (!o.json)
            std::printf("episode %2zu: start (%+.4f, %+.4f, %+.4f, %+.4f): %6d steps%s\n", i, s.x, s.x_dot, s.theta,
                        s.theta_dot, r.steps, r.survived ? " (whole episode)" : "");
        if (plotted)
            write_episode_svg(o.plot, r, setting,
                              "cart-pole: " + std::filesystem::path(o.network).filename().string() + " on " + o.processor,
                              net, agent.processor().neuron_ids());
    }
    double sum = 0;
    int survived = 0;
    for (int k : steps) sum += k, survived += k == length;
    const double mean = sum / static_cast<double>(steps.size());
    const int min = *std::min_element(steps.begin(), steps.end());
    if (o.json) {
        print_json({{"network", o.network},
                    {"setting", setting.name},
                    {"processor", o.processor},
                    {"episode_steps", length},
                    {"episodes", episodes},
                    {"mean_steps", mean},
                    {"min_steps", min},
                    {"survived", survived},
                    {"neurons", net.nodes.size()},
                    {"synapses", net.edges.size()},
                    {"plot", o.plot}});
    } else {
        std::printf("%zu episodes of at most %d steps: mean %.1f, minimum %d, %d survived the whole episode\n",
                    steps.size(), length, mean, min, survived);
        if (!o.plot.empty()) std::printf("plot written to %s\n", o.plot.c_str());
    }
}

}  // namespace

void register_control(CLI::App& app, command_context&) {
    auto* control = app.add_subcommand("control", "Control tasks run by a network on a neuroprocessor (docs/control.md)");
    control->require_subcommand(1);
    auto* cmd = control->add_subcommand("cartpole", "Balance the cart-pole with a TENNLab network");
    auto o = std::make_shared<control_options>();
    cmd->add_option("--network", o->network, "TENNLab network JSON")->required();
    cmd->add_option("--setting", o->setting, "easy, medium, hard, hardest, or a setting JSON file");
    cmd->add_option("--processor", o->processor, "risp, danna2 or danna (the element grid)");
    cmd->add_option("--preset", o->preset,
                    "RISP parameters: risp-1+, risp-1, risp-7, risp-15+, risp-127 or a RISP parameter file FILE.json (default: the network's "
                    "Associated_Data.proc_params)");
    cmd->add_option("--episodes", o->episodes, "Episodes from the seeded starts (default 20)");
    cmd->add_option("--seed", o->seed, "Stream of the starts (default: the held-out test starts, 1000000007)");
    cmd->add_option("--start", o->start, "One start x,x_dot,theta,theta_dot instead of the seeded ones");
    cmd->add_option("--starts", o->starts, "A file of starts, one x,x_dot,theta,theta_dot per line");
    cmd->add_option("--steps", o->steps, "Steps per episode at most (default: the setting's, 15000)");
    cmd->add_option("--plot", o->plot, "Write the first episode to FILE.svg (x, theta, actions and the raster)");
    cmd->add_option("--raster-steps", o->raster_steps, "Steps shown in the plot's raster");
    cmd->add_option("--replay", o->replay,
                    "Replay a TENNLab closed-loop log (processor_tool commands with step comments) and compare "
                    "every count, action and state");
    cmd->add_option("--gravity", o->gravity,
                    "Gravity [m/s^2] instead of the setting's (Gymnasium: 9.8; TENNLab's logs are stepped with 9.81)");
    cmd->add_flag("--json", o->json, "Print one JSON object on stdout");
    cmd->callback([o] { run_control(*o); });
}

}  // namespace volley::cli
