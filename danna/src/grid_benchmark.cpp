#include <volley/danna/grid_benchmark.hpp>

#include <volley/danna/grid_engine.hpp>

#include <algorithm>
#include <chrono>

namespace volley::danna {

grid_programme benchmark_programme(const std::string& preset, int active_columns) {
    grid_programme g(grid_preset(preset));
    const int w = g.params.width, h = g.params.height;
    for (int x = 0; x < w; ++x) {
        const bool active = active_columns < 0 || x < active_columns;
        for (int y = 0; y < h; ++y) {
            const int c = g.index(x, y);
            const auto i = static_cast<std::size_t>(c);
            const auto read_above = [&] {
                g.ports[i] = static_cast<std::uint16_t>(1u << g.port_towards(c, g.index(x, y - 1)));
            };
            switch (y % 3) {
                case 0:
                    g.kind[i] = element_kind::neuron;
                    g.refractory[i] = 0;
                    g.threshold[i] = y == 0 && active ? 0 : 1;
                    if (y > 0) read_above();
                    g.nodes.push_back({static_cast<node_id>(g.nodes.size()), "", c});
                    break;
                case 1:
                    g.kind[i] = element_kind::fanout;
                    read_above();
                    break;
                default:
                    if (y == h - 1) {  // no neuron below to read it: a fan-out instead
                        g.kind[i] = element_kind::fanout;
                    } else {
                        g.kind[i] = element_kind::synapse;
                        g.weight[i] = 1;
                        g.delay[i] = 1;
                        g.synapse_cells.push_back(c);
                    }
                    read_above();
                    break;
            }
        }
    }
    return g;
}

grid_benchmark_result run_grid_benchmark(const grid_benchmark_config& config) {
    grid_engine engine(benchmark_programme(config.preset, config.active_columns));
    std::vector<fire_event> fires;
    const auto start = std::chrono::steady_clock::now();
    // Fires are collected, as a processor would, and dropped every 256 cycles.
    for (cycle_t t = 0; t < config.cycles; t += 256) {
        fires.clear();
        engine.run_until(std::min<cycle_t>(t + 256, config.cycles), fires);
    }
    const double seconds =
        std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
    grid_benchmark_result r;
    const grid_params p = grid_preset(config.preset);
    r.cells = p.cells();
    r.cycles = config.cycles;
    r.element_updates = engine.counts().element_updates;
    r.neuron_fires = engine.counts().neuron_fires;
    r.seconds = seconds;
    r.network_cycles_per_s = static_cast<double>(r.cycles) / seconds;
    r.element_updates_per_s =
        static_cast<double>(r.cells) * static_cast<double>(r.cycles) / seconds;
    r.work_updates_per_s = static_cast<double>(r.element_updates) / seconds;
    return r;
}

}  // namespace volley::danna
