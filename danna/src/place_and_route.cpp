#include <volley/danna/place_and_route.hpp>

#include <volley/error.hpp>

#include "placement.hpp"
#include "routing.hpp"

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <map>

namespace volley::danna {

nlohmann::json route_report::to_json() const {
    return {{"elements", elements},
            {"utilisation", utilisation},
            {"longest_path_hops", longest_path_hops},
            {"fanout_hops", fanout_hops},
            {"added_latency_cycles", added_latency_cycles},
            {"wire_length", wire_length},
            {"attempt", attempt},
            {"seconds", seconds}};
}

std::string route_report::to_text() const {
    char line[256];
    std::string s = "placed and routed:";
    for (const auto& [kind, n] : elements) s += " " + kind + " " + std::to_string(n);
    std::snprintf(line, sizeof line,
                  "\n  utilisation %.1f%%, longest path %d fan-out hops, %lld hops in all, "
                  "added latency %d cycles, wire length %lld, attempt %d, %.3f s\n",
                  100 * utilisation, longest_path_hops, static_cast<long long>(fanout_hops),
                  added_latency_cycles, static_cast<long long>(wire_length), attempt, seconds);
    return s + line;
}

namespace {

/// One attempt: place with `seed`, then route; throws unroutable_network.
placed_network attempt_once(const hardware_network& net, const grid_params& params,
                            std::uint64_t seed, int moves) {
    const auto placed = detail::place_neurons(net, params, seed, moves);
    grid_programme prog(params);
    for (std::size_t i = 0; i < net.neurons.size(); ++i) {
        const auto c = static_cast<std::size_t>(placed.cell[i]);
        prog.kind[c] = element_kind::neuron;
        prog.threshold[c] = net.neurons[i].threshold;
        prog.refractory[c] = net.neurons[i].refractory;
        prog.nodes.push_back({net.neurons[i].id, net.neurons[i].name, placed.cell[i]});
    }
    prog.inputs = net.inputs;
    prog.outputs = net.outputs;
    const std::vector<int> hops = detail::route_synapses(net, placed.cell, prog);
    placed_network out{std::move(prog), {}};
    out.report.wire_length = placed.wire_length;
    for (int h : hops) {
        out.report.longest_path_hops = std::max(out.report.longest_path_hops, h);
        out.report.fanout_hops += h;
    }
    std::int64_t used = 0;
    for (const char* k : {"empty", "neuron", "synapse", "fanout"}) out.report.elements[k] = 0;
    for (const auto k : out.programme.kind) {
        ++out.report.elements[kind_name(k)];
        used += k != element_kind::empty;
    }
    out.report.utilisation = static_cast<double>(used) / params.cells();
    return out;
}

}  // namespace

placed_network place_and_route(const hardware_network& net, const grid_params& params,
                               const place_and_route_options& options) {
    const auto start = std::chrono::steady_clock::now();
    params.validate();
    net.validate(params.limits, "danna place and route");
    std::map<node_id, int> fan_in;
    for (const auto& s : net.synapses) ++fan_in[s.to];
    for (const auto& n : net.neurons)
        if (fan_in[n.id] > ports_per_element)
            throw unroutable_network("node " + std::to_string(n.id),
                                     "fan-in " + std::to_string(fan_in[n.id]) + " is over the " +
                                         std::to_string(ports_per_element) +
                                         " ports of an element");
    std::optional<unroutable_network> first_failure;
    for (int a = 0; a < std::max(1, options.attempts); ++a) {
        try {
            const std::uint64_t seed =
                options.seed + 0x9e3779b97f4a7c15ULL * static_cast<std::uint64_t>(a);
            placed_network out = attempt_once(net, params, seed, options.anneal_moves_per_neuron);
            out.report.attempt = a + 1;
            out.report.seconds =
                std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
            return out;
        } catch (const unroutable_network& e) {
            if (!first_failure) first_failure = e;
        }
    }
    throw *first_failure;
}

}  // namespace volley::danna
