// `volley bench danna`: network cycles and element updates per second of the DANNA grid
// engine on a fully used array, under dense and sparse activity.

#include "cli_common.hpp"

#include <volley/danna/grid_benchmark.hpp>

#include <algorithm>
#include <cstdio>
#include <memory>
#include <vector>

namespace volley::cli {

namespace {

struct bench_danna_options {
    std::string preset = "fpga2014";
    long long cycles = 2000, sparse_cycles = 100000;
    int sparse_columns = 1, repeats = 3;
    bool json = false;
};

volley::danna::grid_benchmark_result median_run(const volley::danna::grid_benchmark_config& c,
                                                int repeats) {
    std::vector<volley::danna::grid_benchmark_result> runs;
    for (int i = 0; i < std::max(1, repeats); ++i)
        runs.push_back(volley::danna::run_grid_benchmark(c));
    std::sort(runs.begin(), runs.end(), [](const auto& a, const auto& b) {
        return a.element_updates_per_s < b.element_updates_per_s;
    });
    return runs[runs.size() / 2];
}

nlohmann::json to_json(const volley::danna::grid_benchmark_result& r, int active_columns) {
    return {{"cells", r.cells},
            {"active_columns", active_columns},
            {"cycles", r.cycles},
            {"element_updates", r.element_updates},
            {"neuron_fires", r.neuron_fires},
            {"seconds", r.seconds},
            {"network_cycles_per_s", r.network_cycles_per_s},
            {"element_updates_per_s", r.element_updates_per_s},
            {"work_updates_per_s", r.work_updates_per_s}};
}

}  // namespace

void register_bench_danna(CLI::App& bench, command_context&) {
    auto o = std::make_shared<bench_danna_options>();
    auto* cmd = bench.add_subcommand(
        "danna",
        "DANNA grid throughput on a fully used array: dense (every column fires every cycle) "
        "and sparse (a few columns); element updates/s counts every cell every cycle");
    cmd->add_option("--preset", o->preset, "grid preset")
        ->check(CLI::IsMember({"tiny", "fpga2014", "vlsi2016"}));
    cmd->add_option("--cycles", o->cycles, "dense network cycles")->check(CLI::PositiveNumber);
    cmd->add_option("--sparse-cycles", o->sparse_cycles, "sparse network cycles")
        ->check(CLI::PositiveNumber);
    cmd->add_option("--sparse-columns", o->sparse_columns, "active columns in the sparse run")
        ->check(CLI::NonNegativeNumber);
    cmd->add_option("--repeats", o->repeats, "runs per configuration (median kept)")
        ->check(CLI::PositiveNumber);
    cmd->add_flag("--json", o->json, "print one JSON object");
    cmd->callback([o] {
        const auto dense = median_run({o->preset, -1, o->cycles}, o->repeats);
        const auto sparse =
            median_run({o->preset, o->sparse_columns, o->sparse_cycles}, o->repeats);
        if (o->json) {
            nlohmann::json j = to_json(dense, -1);
            j["preset"] = o->preset;
            j["sparse"] = to_json(sparse, o->sparse_columns);
            print_json(j);
            return;
        }
        for (const auto& [name, r] : {std::pair{"dense", dense}, std::pair{"sparse", sparse}})
            std::printf(
                "%-6s %s: %.3g network cycles/s, %.3g element updates/s (array), "
                "%.3g updates/s (work done), %lld cycles in %.3f s\n",
                name, o->preset.c_str(), r.network_cycles_per_s, r.element_updates_per_s,
                r.work_updates_per_s, static_cast<long long>(r.cycles), r.seconds);
    });
}

}  // namespace volley::cli
