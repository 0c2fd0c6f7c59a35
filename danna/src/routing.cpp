#include "routing.hpp"

#include <volley/error.hpp>

#include <algorithm>
#include <map>
#include <numeric>

namespace volley::danna::detail {

namespace {

std::string edge_name(const hw_synapse& s) {
    return "edge " + std::to_string(s.from) + " -> " + std::to_string(s.to);
}

/// The cells carrying one pre-neuron's fire, with their latency [cycles].
struct signal_tree {
    std::vector<std::pair<int, int>> cells;  // (cell, latency)
};

}  // namespace

std::vector<int> route_synapses(const hardware_network& net, const std::vector<int>& cells,
                                grid_programme& prog) {
    const int n_cells = prog.params.cells();
    std::map<node_id, std::size_t> index;
    for (std::size_t i = 0; i < net.neurons.size(); ++i) index[net.neurons[i].id] = i;
    std::vector<signal_tree> trees(net.neurons.size());
    for (std::size_t i = 0; i < net.neurons.size(); ++i) trees[i].cells.push_back({cells[i], 0});

    // Tight delays first, so that they get the short routes; then by index.
    std::vector<std::size_t> order(net.synapses.size());
    std::iota(order.begin(), order.end(), 0);
    std::stable_sort(order.begin(), order.end(), [&](std::size_t a, std::size_t b) {
        return net.synapses[a].delay < net.synapses[b].delay;
    });

    std::vector<int> hops(net.synapses.size(), 0);
    prog.synapse_cells.assign(net.synapses.size(), -1);
    std::vector<int> latency(static_cast<std::size_t>(n_cells));
    std::vector<int> parent(static_cast<std::size_t>(n_cells));
    std::vector<int> goal_of(static_cast<std::size_t>(n_cells));
    std::vector<std::vector<int>> wave;
    for (const std::size_t e : order) {
        const hw_synapse& syn = net.synapses[e];
        const std::size_t pre = index.at(syn.from), post = index.at(syn.to);
        const int target = cells[post];
        // Free port cells of the target; `feeds` marks the cells that one of them can read.
        std::fill(goal_of.begin(), goal_of.end(), 0);
        std::vector<int> free_ports;
        for (int p = 0; p < ports_per_element; ++p) {
            const int s = prog.port_source(target, p);
            if (s < 0 || prog.kind[static_cast<std::size_t>(s)] != element_kind::empty) continue;
            free_ports.push_back(s);
            for (int q = 0; q < ports_per_element; ++q) {
                const int f = prog.port_source(s, q);
                if (f >= 0) goal_of[static_cast<std::size_t>(f)] = 1;
            }
        }
        if (free_ports.empty())
            throw unroutable_network(edge_name(syn), "no free port cell around node " +
                                                         std::to_string(syn.to) +
                                                         " for its synapse element");
        // A free port cell readable from c and not on c's own new path, or -1.
        const auto synapse_site = [&](int c) {
            for (const int s : free_ports) {
                if (s == c || prog.port_towards(s, c) < 0) continue;
                bool on_path = false;
                for (int a = parent[static_cast<std::size_t>(c)]; a >= 0 && !on_path;
                     a = parent[static_cast<std::size_t>(a)])
                    on_path = a == s;
                if (!on_path) return s;
            }
            return -1;
        };
        // Lee wave, bucketed by latency.
        std::fill(latency.begin(), latency.end(), -1);
        wave.clear();
        for (const auto& [c, l] : trees[pre].cells) {
            if (static_cast<std::size_t>(l) >= wave.size())
                wave.resize(static_cast<std::size_t>(l) + 1);
            wave[static_cast<std::size_t>(l)].push_back(c);
            latency[static_cast<std::size_t>(c)] = l;
            parent[static_cast<std::size_t>(c)] = -1;
        }
        int feeder = -1, site = -1;
        for (std::size_t l = 0; l < wave.size() && feeder < 0; ++l) {
            for (std::size_t k = 0; k < wave[l].size() && feeder < 0; ++k) {
                const int c = wave[l][k];
                if (latency[static_cast<std::size_t>(c)] != static_cast<int>(l)) continue;
                if (goal_of[static_cast<std::size_t>(c)] && (site = synapse_site(c)) >= 0) {
                    feeder = c;
                    break;
                }
                for (int p = 0; p < ports_per_element; ++p) {
                    const int next = prog.port_source(c, p);
                    if (next < 0 ||
                        prog.kind[static_cast<std::size_t>(next)] != element_kind::empty)
                        continue;
                    if (latency[static_cast<std::size_t>(next)] >= 0) continue;
                    latency[static_cast<std::size_t>(next)] = static_cast<int>(l) + 1;
                    parent[static_cast<std::size_t>(next)] = c;
                    if (wave.size() <= l + 1) wave.resize(l + 2);
                    wave[l + 1].push_back(next);
                }
            }
        }
        if (feeder < 0)
            throw unroutable_network(edge_name(syn), "no free path of fan-out elements from node " +
                                                         std::to_string(syn.from) + " to node " +
                                                         std::to_string(syn.to));
        const int path = latency[static_cast<std::size_t>(feeder)];
        if (syn.delay - path < 1)
            throw unroutable_network(edge_name(syn),
                                     "requested delay " + std::to_string(syn.delay) +
                                         " is shorter than the path: " + std::to_string(path) +
                                         " fan-out hops need a delay of at least " +
                                         std::to_string(path + 1));
        // Commit: new fan-outs back to the tree, then the synapse and the target's port.
        for (int c = feeder; c >= 0 && parent[static_cast<std::size_t>(c)] >= 0;
             c = parent[static_cast<std::size_t>(c)]) {
            const auto i = static_cast<std::size_t>(c);
            if (prog.kind[i] != element_kind::empty) break;
            prog.kind[i] = element_kind::fanout;
            prog.ports[i] = static_cast<std::uint16_t>(1u << prog.port_towards(c, parent[i]));
            trees[pre].cells.push_back({c, latency[i]});
        }
        const int s = site;
        const auto si = static_cast<std::size_t>(s);
        prog.kind[si] = element_kind::synapse;
        prog.ports[si] = static_cast<std::uint16_t>(1u << prog.port_towards(s, feeder));
        prog.weight[si] = syn.weight;
        prog.delay[si] = syn.delay - path;
        prog.learning[si] = syn.learning ? 1 : 0;
        const auto ti = static_cast<std::size_t>(target);
        prog.ports[ti] =
            static_cast<std::uint16_t>(prog.ports[ti] | (1u << prog.port_towards(target, s)));
        prog.synapse_cells[e] = s;
        hops[e] = path;
    }
    return hops;
}

}  // namespace volley::danna::detail
