#include <volley/hw/risp_benchmark.hpp>
#include <volley/hw/risp_processor.hpp>

#include <algorithm>
#include <chrono>
#include <random>
#include <set>

#include <time.h>

namespace volley::hw {

risp_params risp_benchmark_params(const risp_benchmark_config& config) {
    risp_params p;
    p.discrete = config.discrete;
    p.max_delay = 1;
    p.min_threshold = 0;
    p.max_threshold = 1000000;
    p.min_potential = 0;
    p.min_weight = 0;
    p.max_weight = 1;
    p.spike_value_factor = 1;
    p.leak = config.active_fraction < 1 ? leak_mode::all : leak_mode::none;
    return p;
}

tennlab_network make_risp_benchmark_network(const risp_benchmark_config& config) {
    const risp_params p = risp_benchmark_params(config);
    tennlab_network net;
    net.properties = p.network_properties();
    const int active = std::max(1, static_cast<int>(config.neurons * config.active_fraction));
    const bool saturated = active >= config.neurons;
    std::mt19937 rng(config.seed);
    std::uniform_int_distribution<int> pick(0, config.neurons - 1);
    for (int i = 0; i < config.neurons; ++i) {
        tennlab_node node;
        node.id = static_cast<node_id>(i);
        node.values = {i < active ? 1.0 : p.max_threshold};
        net.nodes.push_back(node);
        if (i < active) net.inputs.push_back(node.id);
    }
    for (int i = 0; i < config.neurons; ++i) {
        std::set<int> targets;
        if (!saturated && i < active) targets.insert(i);
        while (static_cast<int>(targets.size()) < std::min(config.fan_out, config.neurons))
            targets.insert(pick(rng));
        for (int t : targets)
            net.edges.push_back({static_cast<node_id>(i), static_cast<node_id>(t), {1, 1}, {}, {}});
    }
    net.outputs = {0};
    return net;
}

namespace {

double thread_cpu_seconds() {
    timespec ts{};
    clock_gettime(CLOCK_THREAD_CPUTIME_ID, &ts);
    return static_cast<double>(ts.tv_sec) + 1e-9 * static_cast<double>(ts.tv_nsec);
}

}  // namespace

risp_benchmark_result run_risp_benchmark(const risp_benchmark_config& config) {
    const tennlab_network net = make_risp_benchmark_network(config);
    risp_processor proc(risp_benchmark_params(config));
    proc.load_network(net);
    for (node_id id : net.inputs) proc.apply_spike({id, 0, 1.0});
    proc.take_counters();
    const double cpu_start = thread_cpu_seconds();
    const auto start = std::chrono::steady_clock::now();
    proc.run(static_cast<double>(config.steps));
    const auto stop = std::chrono::steady_clock::now();
    const double cpu_stop = thread_cpu_seconds();
    const risp_counters c = proc.take_counters();
    risp_benchmark_result r;
    r.synaptic_events = c.integrated - static_cast<std::int64_t>(net.inputs.size());
    r.fires = c.fires;
    r.seconds = std::chrono::duration<double>(stop - start).count();
    r.events_per_s = r.seconds > 0 ? static_cast<double>(r.synaptic_events) / r.seconds : 0;
    r.cpu_seconds = cpu_stop - cpu_start;
    r.events_per_cpu_s =
        r.cpu_seconds > 0 ? static_cast<double>(r.synaptic_events) / r.cpu_seconds : 0;
    return r;
}

}  // namespace volley::hw
