// `volley bench peers`: the CUBA or COBA network on Volley and on its peers (Brian2 C++
// standalone, and NEST where installed), in turns, in one process tree.
//
// Every measurement runs in a child process, so that each tool's peak RSS is its own. For each
// size Brian2 generates and compiles its program once (reported apart); then each repeat runs
// Volley (`volley bench <network> --json`), Brian2's `main` and NEST (bench/peers/nest_<network>.py),
// in one order on even repeats and the reverse on odd ones, and the medians are compared. Only
// the simulation phase is compared: Volley's `sim_s`, the run time Brian2's own main loop
// measures (results/last_run_info.txt), and NEST's nest.Run (the script times it).

#include "cli_common.hpp"

#include <volley/snn/standard_networks.hpp>

#include <algorithm>
#include <cctype>
#include <chrono>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <memory>
#include <optional>
#include <sstream>
#include <utility>

#include <fcntl.h>
#include <sys/resource.h>
#include <sys/wait.h>
#include <unistd.h>

namespace volley::cli {

namespace {

namespace fs = std::filesystem;

struct peers_options {
    std::string network = "cuba";  ///< cuba, coba or cobahh: bench/peers/{brian2,nest}_<network>.py
    std::string integrator;        ///< coba, cobahh: Volley's and Brian2's scheme (default rk4, exponential_euler)
    std::vector<std::uint32_t> sizes{4000, 40000, 400000};
    int repeats = 3;
    double duration_ms = 1000;
    std::string python = "/usr/bin/python3";
    std::string script;       ///< empty: bench/peers/brian2_<network>.py
    std::string nest_python;  ///< empty: the first of --python and the python3 on PATH that imports nest
    std::string nest_script;  ///< empty: bench/peers/nest_<network>.py
    std::string work_dir;
    std::uint64_t seed = 42;                    ///< repeat k uses seed + k, for every tool
    std::vector<std::string> peers{"brian2", "nest"};
    bool json = false;
};

struct child_result {
    int status = -1;
    std::string out;
    double wall_s = 0;
    std::size_t max_rss_bytes = 0;
};

/// Runs argv[0] with arguments in `dir` (empty: here), captures stdout, and reports its exit
/// status, wall time and peak RSS (from wait4).
child_result run_child(const std::vector<std::string>& argv, const std::string& dir = {}, bool quiet = false) {
    int pipe_fd[2];
    if (pipe(pipe_fd) != 0) throw error("bench peers: pipe() failed");
    const auto t0 = std::chrono::steady_clock::now();
    const pid_t pid = fork();
    if (pid < 0) throw error("bench peers: fork() failed");
    if (pid == 0) {
        dup2(pipe_fd[1], STDOUT_FILENO);
        if (quiet) {
            const int null_fd = open("/dev/null", O_WRONLY);
            if (null_fd >= 0) dup2(null_fd, STDERR_FILENO);
        }
        close(pipe_fd[0]);
        close(pipe_fd[1]);
        if (!dir.empty() && chdir(dir.c_str()) != 0) _exit(127);
        std::vector<char*> args;
        for (const auto& a : argv) args.push_back(const_cast<char*>(a.c_str()));
        args.push_back(nullptr);
        execv(args[0], args.data());
        _exit(127);
    }
    close(pipe_fd[1]);
    child_result r;
    char buf[4096];
    for (ssize_t n; (n = read(pipe_fd[0], buf, sizeof buf)) > 0;) r.out.append(buf, static_cast<std::size_t>(n));
    close(pipe_fd[0]);
    struct rusage ru {};
    int status = 0;
    wait4(pid, &status, 0, &ru);
    r.wall_s = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
    r.status = WIFEXITED(status) ? WEXITSTATUS(status) : -1;
    r.max_rss_bytes = static_cast<std::size_t>(ru.ru_maxrss) * 1024;
    return r;
}

double median(std::vector<double> v) {
    if (v.empty()) return 0;
    std::sort(v.begin(), v.end());
    const std::size_t m = v.size() / 2;
    return v.size() % 2 ? v[m] : 0.5 * (v[m - 1] + v[m]);
}

std::string self_exe() { return fs::read_symlink("/proc/self/exe").string(); }

/// The last JSON object in a child's stdout (python may print warnings before it).
nlohmann::json last_json(const std::string& out) {
    const auto b = out.rfind("\n{");
    return nlohmann::json::parse(out.substr(b == std::string::npos ? 0 : b + 1));
}

/// Whether `python` can import `module`; the reason when it cannot, with Python's own error.
std::optional<std::string> import_error(const std::string& python, const std::string& module) {
    if (!fs::exists(python)) return python + " not found";
    const auto r = run_child({python, "-c",
                              "import sys\ntry:\n    import " + module +
                                  "\nexcept Exception as e:\n    print(); print(repr(e)); sys.exit(1)"},
                             {}, true);
    if (r.status == 0) return std::nullopt;
    std::string why = r.out;  // the repr() of the exception, on the last line
    while (!why.empty() && why.back() == '\n') why.pop_back();
    if (const auto nl = why.rfind('\n'); nl != std::string::npos) why.erase(0, nl + 1);
    return python + " cannot import " + module + (why.empty() ? "" : " (" + why + ")") +
           "; install it with scripts/setup --peers";
}

/// The `python3` executables on PATH, in PATH order.
std::vector<std::string> pythons_on_path() {
    std::vector<std::string> found;
    const char* path = std::getenv("PATH");
    std::stringstream dirs(path ? path : "");
    for (std::string dir; std::getline(dirs, dir, ':');) {
        if (dir.empty()) continue;
        const auto candidate = (fs::path(dir) / "python3").string();
        if (access(candidate.c_str(), X_OK) == 0 &&
            std::find(found.begin(), found.end(), candidate) == found.end())
            found.push_back(candidate);
    }
    return found;
}

/// The Python that runs NEST: --nest-python if given, else the first of --python and the
/// python3s on PATH that imports nest (pip may have installed it for only one of them).
/// Returns {python, ""} or {"", every candidate's reason}.
std::pair<std::string, std::string> find_nest_python(const peers_options& o) {
    std::vector<std::string> candidates{o.nest_python.empty() ? o.python : o.nest_python};
    if (o.nest_python.empty())
        for (const auto& p : pythons_on_path())
            if (std::find(candidates.begin(), candidates.end(), p) == candidates.end()) candidates.push_back(p);
    std::string reasons;
    for (const auto& p : candidates) {
        const auto why = import_error(p, "nest");
        if (!why) return {p, ""};
        reasons += (reasons.empty() ? "" : "; ") + *why;
    }
    return {"", reasons};
}

struct tool_runs {
    std::vector<double> sim_s, rss, rates;  ///< one per repeat (rates: one network draw each)
    double build_s = 0;
    nlohmann::json extra = nlohmann::json::object();
};

/// The mean rate over the repeats' network draws (seeds): at N = 4,000 one draw's rate varies
/// by ~5 %, so single draws of two tools differ by more than the model does.
double mean_rate(const tool_runs& t) {
    double sum = 0;
    for (const double r : t.rates) sum += r;
    return t.rates.empty() ? 0.0 : sum / static_cast<double>(t.rates.size());
}

nlohmann::json summarise(const tool_runs& t) {
    nlohmann::json j{{"sim_s_median", median(t.sim_s)},
                     {"sim_s_runs", t.sim_s},
                     {"peak_rss_bytes_median", median(t.rss)},
                     {"mean_rate_hz", mean_rate(t)},
                     {"mean_rate_hz_runs", t.rates},
                     {"build_s", t.build_s}};
    j.update(t.extra);
    return j;
}

/// A peer's summary with its ratios to Volley's medians (time, RSS) and rate difference.
nlohmann::json compare(const tool_runs& peer, const tool_runs& volley) {
    auto j = summarise(peer);
    j["time_ratio_to_volley"] = median(peer.sim_s) / median(volley.sim_s);
    j["rss_ratio_to_volley"] = median(peer.rss) / median(volley.rss);
    j["rate_difference"] = mean_rate(peer) > 0 ? mean_rate(volley) / mean_rate(peer) - 1 : 0.0;
    return j;
}

/// The arguments that choose the scheme: none for CUBA (exact in every tool), the integrator for
/// COBA (Brian2's `--method` is named as Volley's schemes are).
std::vector<std::string> with_scheme(std::vector<std::string> argv, const peers_options& o, const char* flag) {
    if (!o.integrator.empty()) argv.insert(argv.end(), {flag, o.integrator});
    return argv;
}

/// Runs each tool o.repeats times on the network of n neurons; NEST is skipped when nest_python is empty.
nlohmann::json run_size(const peers_options& o, std::uint32_t n, bool have_brian, const std::string& nest_python) {
    tool_runs volley, brian, nest;
    std::vector<double> nest_build_s, nest_prepare_s;
    std::string nest_failed;  // NEST's failure at this size (e.g. out of memory): reported, not fatal
    const std::string dir = o.work_dir + "/brian2_" + o.network + (o.integrator.empty() ? "" : "_" + o.integrator) +
                            "_" + std::to_string(n);
    const std::string dur = std::to_string(o.duration_ms);
    std::vector<double> brian_compile_s;
    for (int rep = 0; rep < o.repeats; ++rep) {
        // Every tool draws the network from seed + rep: the rates are compared over the same
        // number of draws. Brian2 bakes its seed into the program, so it is rebuilt (make
        // recompiles only what changed).
        const std::string seed = std::to_string(o.seed + static_cast<std::uint64_t>(rep));
        if (have_brian) {
            const auto b = run_child(with_scheme({o.python, o.script, "build", "--neurons", std::to_string(n),
                                                  "--duration", dur, "--seed", seed, "--dir", dir},
                                                 o, "--method"));
            if (b.status != 0) throw error("bench peers: Brian2 build failed for N = " + std::to_string(n) + ":\n" + b.out);
            brian_compile_s.push_back(last_json(b.out)["codegen_compile_s"].get<double>());
        }
        auto run_volley = [&] {
            // --count-only: Volley counts spikes as Brian2's SpikeMonitor(record=False) does.
            const auto r = run_child(with_scheme({self_exe(), "bench", o.network, "--neurons", std::to_string(n),
                                                  "--duration", dur, "--threads", "1", "--seed", seed, "--json",
                                                  "--quiet", "--count-only"},
                                                 o, "--integrator"));
            if (r.status != 0)
                throw error("bench peers: volley bench " + o.network + " failed for N = " + std::to_string(n));
            const auto f = last_json(r.out);
            volley.sim_s.push_back(f["sim_s"].get<double>());
            volley.rss.push_back(static_cast<double>(r.max_rss_bytes));
            volley.rates.push_back(f["mean_rate_hz"].get<double>());
            volley.build_s = f["build_s"].get<double>();
            volley.extra["bytes_per_synapse"] = f["bytes_per_synapse"];
            volley.extra["synapses"] = f["synapses"];
            volley.extra["synaptic_events"] = f["synaptic_events"];
            volley.extra["events_per_s_median"] = f["synaptic_events"].get<double>() / median(volley.sim_s);
        };
        auto run_brian = [&] {
            const auto r = run_child({dir + "/main"}, dir);
            if (r.status != 0) throw error("bench peers: Brian2's main failed for N = " + std::to_string(n));
            std::ifstream info(dir + "/results/last_run_info.txt");
            double run_s = 0;
            info >> run_s;
            brian.sim_s.push_back(run_s);
            brian.rss.push_back(static_cast<double>(r.max_rss_bytes));
            brian.extra["process_wall_s"] = r.wall_s;
            const auto s = run_child({o.python, o.script, "summary", "--neurons", std::to_string(n), "--duration", dur,
                                      "--dir", dir});
            if (s.status != 0) throw error("bench peers: Brian2's summary failed for N = " + std::to_string(n));
            const auto j = last_json(s.out);
            brian.rates.push_back(j["mean_rate_hz"].get<double>());
            brian.extra["synapses"] = j["synapses"];
            brian.extra["in_degree_mean"] = j["in_degree_mean"];
        };
        auto run_nest = [&] {
            if (nest_python.empty() || !nest_failed.empty()) return;
            const auto r = run_child(
                {nest_python, o.nest_script, "run", "--neurons", std::to_string(n), "--duration", dur, "--seed", seed});
            if (r.status != 0) {
                nest_failed = o.nest_script + (r.status < 0 ? " was killed by a signal (out of memory?)"
                                                            : " exited with status " + std::to_string(r.status)) +
                              "; its stderr is above";
                return;
            }
            const auto f = last_json(r.out);
            nest.sim_s.push_back(f["sim_s"].get<double>());
            nest.rss.push_back(static_cast<double>(r.max_rss_bytes));
            nest_build_s.push_back(f["build_s"].get<double>());
            nest_prepare_s.push_back(f["prepare_s"].get<double>());
            nest.rates.push_back(f["mean_rate_hz"].get<double>());
            nest.extra["version"] = f["version"];
            nest.extra["synapses"] = f["synapses"];
            nest.extra["in_degree_mean"] = f["in_degree_mean"];
            nest.extra["process_wall_s"] = r.wall_s;
        };
        // Volley, Brian2, NEST on even repeats and the reverse on odd ones, so that no tool
        // always meets a warmer (or busier) machine.
        if (rep % 2 == 0) {
            run_volley();
            if (have_brian) run_brian();
            run_nest();
        } else {
            run_nest();
            if (have_brian) run_brian();
            run_volley();
        }
    }
    nlohmann::json row{{"neurons", n}, {"volley", summarise(volley)}};
    if (have_brian) {
        brian.extra["codegen_compile_s"] = brian_compile_s.front();  // the first build: from scratch
        row["brian2"] = compare(brian, volley);
    }
    if (!nest_failed.empty()) {
        row["nest"] = {{"failed", nest_failed}};
    } else if (!nest_python.empty()) {
        nest.build_s = median(nest_build_s);
        nest.extra["prepare_s_median"] = median(nest_prepare_s);
        nest.extra["python"] = nest_python;
        row["nest"] = compare(nest, volley);
    }
    return row;
}

/// One peer's row of the table: its median time, build time, rate, RSS and time ratio.
void print_peer_row(const char* tool, const nlohmann::json& p, double build_s) {
    char ratio[32];
    std::snprintf(ratio, sizeof ratio, "%.2fx", p["time_ratio_to_volley"].get<double>());
    std::printf("%9s %-7s %10.3f %10.3f %10.3f %11.1f %10s\n", "", tool, p["sim_s_median"].get<double>(), build_s,
                p["mean_rate_hz"].get<double>(), p["peak_rss_bytes_median"].get<double>() / (1 << 20), ratio);
}

/// The default scheme of a conductance network's neurons (their model's), which Brian2 is then
/// told to use too.
std::string default_scheme(const std::string& network) {
    const auto net = network == "coba" ? snn::coba_network(10, 0.1) : snn::cobahh_network(10, 0.1);
    return snn::scheme_name(snn::model_integrator(net.populations().front().model)->scheme);
}

/// The speed targets of the issues that asked for the comparison: 4x Brian2 on CUBA (#6), 2x
/// Brian2 with the same scheme on COBA and COBAHH (#28).
double brian_speed_target(const std::string& network) { return network == "cuba" ? 4.0 : 2.0; }

void print_table(const nlohmann::json& report) {
    const auto network = report["network"].get<std::string>();
    std::string title = network;
    std::transform(title.begin(), title.end(), title.begin(), [](unsigned char c) { return std::toupper(c); });
    std::printf("%s%s%s, %g ms, 1 thread, %d repeats (times: medians; rates: means over the seeds %llu...)\n",
                title.c_str(), report.contains("integrator") ? ", scheme " : "",
                report.contains("integrator") ? report["integrator"].get<std::string>().c_str() : "",
                report["duration_ms"].get<double>(), report["repeats"].get<int>(),
                report["seed"].get<unsigned long long>());
    std::printf("%9s %-7s %10s %10s %10s %11s %10s %9s\n", "N", "tool", "sim [s]", "build [s]", "rate [Hz]",
                "RSS [MiB]", "peer/volley", "B/syn");
    for (const auto& row : report["sizes"]) {
        const auto& v = row["volley"];
        std::printf("%9u %-7s %10.3f %10.3f %10.3f %11.1f %10s %9.2f\n", row["neurons"].get<unsigned>(), "volley",
                    v["sim_s_median"].get<double>(), v["build_s"].get<double>(), v["mean_rate_hz"].get<double>(),
                    v["peak_rss_bytes_median"].get<double>() / (1 << 20), "1", v["bytes_per_synapse"].get<double>());
        if (row.contains("brian2")) {
            const auto& b = row["brian2"];
            print_peer_row("brian2", b, b["codegen_compile_s"].get<double>());
            const double target = brian_speed_target(network);
            std::printf("%9s targets: speed >= %gx (%s), rate within 5%% (%+.1f%%: %s), RSS ratio %.2f%s\n", "",
                        target, b["time_ratio_to_volley"].get<double>() >= target ? "met" : "not met",
                        100 * b["rate_difference"].get<double>(),
                        std::abs(b["rate_difference"].get<double>()) <= 0.05 ? "met" : "not met",
                        b["rss_ratio_to_volley"].get<double>(),
                        row["neurons"].get<unsigned>() >= 400000
                            ? (b["rss_ratio_to_volley"].get<double>() >= 3 ? " (>= 3: met)" : " (>= 3: not met)")
                            : "");
        }
        if (row.contains("nest") && row["nest"].contains("failed")) {
            std::printf("%9s %-7s failed: %s\n", "", "nest", row["nest"]["failed"].get<std::string>().c_str());
        } else if (row.contains("nest")) {
            const auto& t = row["nest"];
            print_peer_row("nest", t, t["build_s"].get<double>());
            std::printf("%9s Volley's rate vs NEST's: %+.1f%%; RSS ratio %.2f\n", "",
                        100 * t["rate_difference"].get<double>(), t["rss_ratio_to_volley"].get<double>());
        }
    }
    for (const auto& [tool, why] : report["skipped"].items())
        std::printf("%s skipped: %s\n", tool.c_str(), why.get<std::string>().c_str());
    std::printf("bytes per synapse target <= 8; Brian2's build column is code generation + compilation, "
                "NEST's is Create + Connect\n");
}

}  // namespace

void register_bench_peers(CLI::App& bench, command_context& ctx) {
    auto* cmd = bench.add_subcommand("peers",
                                     "CUBA or COBA on Volley, Brian2 (C++ standalone) and NEST (iaf_psc_exp or "
                                     "iaf_cond_exp), where installed, in turns; medians and ratios");
    auto o = std::make_shared<peers_options>();
    cmd->add_option("--network", o->network, "cuba (default), coba or cobahh")
        ->check(CLI::IsMember(std::vector<std::string>{"cuba", "coba", "cobahh"}));
    cmd->add_option("--integrator", o->integrator,
                    "coba and cobahh: the scheme of Volley and Brian2 (rk4, rk2, exponential_euler, euler; default "
                    "rk4 for coba, exponential_euler, Brian2's example, for cobahh; adaptive runs Volley and NEST only)")
        ->check(CLI::IsMember(std::vector<std::string>{"rk4", "rk2", "exponential_euler", "euler", "adaptive"}));
    cmd->add_option("--sizes", o->sizes, "Network sizes N")->delimiter(',')->check(CLI::Range(10u, 100000000u));
    cmd->add_option("--repeats", o->repeats, "Runs of each tool per size (>= 1; report medians)")->check(CLI::Range(1, 100));
    cmd->add_option("--duration", o->duration_ms, "Biological time [ms]")->check(CLI::PositiveNumber);
    cmd->add_option("--python", o->python, "The Python that has Brian2");
    cmd->add_option("--script", o->script, "The Brian2 harness (default bench/peers/brian2_<network>.py)");
    cmd->add_option("--nest-python", o->nest_python,
                    "The Python that has NEST (default: the first of --python and the python3s on PATH that imports nest)");
    cmd->add_option("--nest-script", o->nest_script, "The NEST harness (default bench/peers/nest_<network>.py)");
    cmd->add_option("--work-dir", o->work_dir, "Where Brian2 builds its programs (default: a temporary directory)");
    cmd->add_option("--seed", o->seed, "Repeat k draws the network from seed + k, in every tool");
    cmd->add_option("--peers", o->peers, "Peers to run (brian2, nest)")
        ->delimiter(',')
        ->check(CLI::IsMember(std::vector<std::string>{"brian2", "nest"}));
    cmd->add_flag("--json", o->json, "Print one JSON object with the figures on stdout");
    cmd->callback([o, &ctx] {
        if (o->network == "cuba" && !o->integrator.empty())
            throw invalid_parameter("--integrator", "value", o->integrator,
                                    "applies to --network coba and cobahh only (CUBA is integrated exactly by every tool)");
        if (o->integrator.empty() && o->network != "cuba") o->integrator = default_scheme(o->network);
        const std::string peers_dir = VOLLEY_SOURCE_DIR "/bench/peers/";
        if (o->script.empty()) o->script = peers_dir + "brian2_" + o->network + ".py";
        if (o->nest_script.empty()) o->nest_script = peers_dir + "nest_" + o->network + ".py";
        if (o->work_dir.empty()) o->work_dir = (fs::temp_directory_path() / "volley-peers").string();
        fs::create_directories(o->work_dir);
        nlohmann::json report{{"network", o->network}, {"duration_ms", o->duration_ms}, {"repeats", o->repeats},
                              {"seed", o->seed},        {"threads", 1},
                              {"sizes", nlohmann::json::array()}, {"skipped", nlohmann::json::object()}};
        if (!o->integrator.empty()) report["integrator"] = o->integrator;
        auto wanted = [&](const char* peer) { return std::find(o->peers.begin(), o->peers.end(), peer) != o->peers.end(); };
        std::optional<std::string> brian_missing = "not in --peers";
        if (o->integrator == "adaptive")
            brian_missing = "Brian2 has no adaptive scheme with event location; compare it with --integrator rk4, rk2, "
                            "exponential_euler or euler";
        else if (wanted("brian2")) brian_missing = import_error(o->python, "brian2");
        if (brian_missing) report["skipped"]["brian2"] = *brian_missing;
        auto [nest_python, nest_missing] = !wanted("nest") ? std::pair<std::string, std::string>{"", "not in --peers"}
                                           : !fs::exists(o->nest_script)
                                               ? std::pair<std::string, std::string>{"", "no NEST harness " + o->nest_script}
                                               : find_nest_python(*o);
        if (nest_python.empty()) report["skipped"]["nest"] = nest_missing;
        for (std::uint32_t n : o->sizes) {
            report["sizes"].push_back(run_size(*o, n, !brian_missing, nest_python));
            if (!o->json) std::fprintf(stderr, "bench peers: N = %u done\n", n);
        }
        if (o->json) print_json(report);
        else print_table(report);
        (void)ctx;
    });
}

}  // namespace volley::cli
