// `volley bench risp`: synaptic events per second of the RISP processor on the saturated
// benchmark network of issue 5 and on a sparse one (1% of the neurons active).

#include "cli_common.hpp"

#include <volley/hw/risp_benchmark.hpp>

#include <algorithm>
#include <cstdio>
#include <memory>
#include <vector>

namespace volley::cli {

namespace {

struct bench_risp_options {
    int neurons = 2000;
    int fan_out = 16;
    long long steps = 5000;
    long long sparse_steps = 50000;
    int repeats = 5;
    bool json = false;
};

/// Runs one configuration `repeats` times and keeps the median throughput.
volley::hw::risp_benchmark_result median_run(const volley::hw::risp_benchmark_config& config,
                                             int repeats) {
    std::vector<volley::hw::risp_benchmark_result> runs;
    for (int i = 0; i < std::max(1, repeats); ++i)
        runs.push_back(volley::hw::run_risp_benchmark(config));
    std::sort(runs.begin(), runs.end(),
              [](const auto& a, const auto& b) { return a.events_per_s < b.events_per_s; });
    return runs[runs.size() / 2];
}

nlohmann::json to_json(const volley::hw::risp_benchmark_config& c,
                       const volley::hw::risp_benchmark_result& r) {
    return {{"neurons", c.neurons},
            {"fan_out", c.fan_out},
            {"active_fraction", c.active_fraction},
            {"steps", c.steps},
            {"synaptic_events", r.synaptic_events},
            {"fires", r.fires},
            {"seconds", r.seconds},
            {"events_per_s", r.events_per_s},
            {"cpu_seconds", r.cpu_seconds},
            {"events_per_cpu_s", r.events_per_cpu_s}};
}

}  // namespace

void register_bench_risp(CLI::App& bench, command_context& ctx) {
    auto opt = std::make_shared<bench_risp_options>();
    auto* cmd = bench.add_subcommand(
        "risp",
        "RISP throughput: saturated random network (every neuron fires every step) "
        "and a sparse one (1% active); prints synaptic events per second");
    cmd->add_option("--neurons", opt->neurons, "neurons in each network")
        ->check(CLI::PositiveNumber);
    cmd->add_option("--fan-out", opt->fan_out, "random out-edges per neuron")
        ->check(CLI::PositiveNumber);
    cmd->add_option("--steps", opt->steps, "RUN length of the saturated network [steps]")
        ->check(CLI::PositiveNumber);
    cmd->add_option("--sparse-steps", opt->sparse_steps, "RUN length of the sparse network [steps]")
        ->check(CLI::PositiveNumber);
    cmd->add_option("--repeats", opt->repeats, "runs per network; the median is reported")
        ->check(CLI::PositiveNumber);
    cmd->add_flag("--json", opt->json, "print one JSON object");
    cmd->callback([opt, &ctx] {
        volley::hw::risp_benchmark_config sat;
        sat.neurons = opt->neurons;
        sat.fan_out = opt->fan_out;
        sat.steps = opt->steps;
        volley::hw::risp_benchmark_config sparse = sat;
        sparse.active_fraction = 0.01;
        sparse.steps = opt->sparse_steps;
        const auto rs = median_run(sat, opt->repeats);
        const auto rp = median_run(sparse, opt->repeats);
        if (opt->json) {
            nlohmann::json j = to_json(sat, rs);
            j["benchmark"] = "risp";
            j["repeats"] = opt->repeats;
            j["sparse"] = to_json(sparse, rp);
            print_json(j);
        } else {
            std::printf(
                "saturated: %d neurons x %d out-edges, %lld steps: %lld events in %.3f s = "
                "%.1f M events/s (%.1f M per CPU s)\n",
                sat.neurons, sat.fan_out, static_cast<long long>(sat.steps),
                static_cast<long long>(rs.synaptic_events), rs.seconds, rs.events_per_s / 1e6,
                rs.events_per_cpu_s / 1e6);
            std::printf(
                "sparse (1%% active): %lld steps: %lld events in %.3f s = %.1f M events/s (%.1f M "
                "per CPU s)\n",
                static_cast<long long>(sparse.steps), static_cast<long long>(rp.synaptic_events),
                rp.seconds, rp.events_per_s / 1e6, rp.events_per_cpu_s / 1e6);
        }
        ctx.exit_code = 0;
    });
}

}  // namespace volley::cli
