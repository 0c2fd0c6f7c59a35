#include "placement.hpp"

#include <volley/error.hpp>

#include <algorithm>
#include <cmath>
#include <map>
#include <random>

namespace volley::danna::detail {

std::vector<int> neuron_sites(const grid_params& params) {
    std::vector<int> sites;
    const int s = params.neuron_spacing;
    for (int y = 1; y < params.height - 1; y += s)
        for (int x = 1; x < params.width - 1; x += s) sites.push_back(y * params.width + x);
    const double cx = (params.width - 1) / 2.0, cy = (params.height - 1) / 2.0;
    std::stable_sort(sites.begin(), sites.end(), [&](int a, int b) {
        const double da =
            std::max(std::fabs(a % params.width - cx), std::fabs(a / params.width - cy));
        const double db =
            std::max(std::fabs(b % params.width - cx), std::fabs(b / params.width - cy));
        return da < db;
    });
    return sites;
}

placement place_neurons(const hardware_network& net, const grid_params& params, std::uint64_t seed,
                        int moves_per_neuron) {
    const std::vector<int> sites = neuron_sites(params);
    const std::size_t n = net.neurons.size();
    if (n > sites.size())
        throw unroutable_network("network", std::to_string(n) + " neurons but only " +
                                                std::to_string(sites.size()) +
                                                " neuron sites on the " + params.preset + " grid");
    std::map<node_id, std::size_t> index;
    for (std::size_t i = 0; i < n; ++i) index[net.neurons[i].id] = i;
    // Adjacency (both directions) for incremental cost.
    std::vector<std::vector<std::size_t>> adj(n);
    for (const auto& s : net.synapses) {
        const auto a = index.at(s.from), b = index.at(s.to);
        if (a == b) continue;
        adj[a].push_back(b);
        adj[b].push_back(a);
    }
    std::vector<int> site_of(n);               // neuron -> site slot
    std::vector<int> owner(sites.size(), -1);  // site slot -> neuron
    for (std::size_t i = 0; i < n; ++i) {
        site_of[i] = static_cast<int>(i);
        owner[i] = static_cast<int>(i);
    }
    const int w = params.width;
    const auto dist = [&](int sa, int sb) {
        const int a = sites[static_cast<std::size_t>(sa)], b = sites[static_cast<std::size_t>(sb)];
        return std::max(std::abs(a % w - b % w), std::abs(a / w - b / w));
    };
    const auto local = [&](std::size_t i, int site) {
        std::int64_t c = 0;
        for (auto j : adj[i]) c += dist(site, site_of[j]);
        return c;
    };
    std::int64_t cost = 0;
    for (std::size_t i = 0; i < n; ++i) cost += local(i, site_of[i]);
    cost /= 2;
    std::mt19937_64 rng(seed);
    const auto uniform = [&](std::uint64_t k) { return static_cast<std::size_t>(rng() % k); };
    const auto real = [&] { return static_cast<double>(rng() >> 11) * 0x1.0p-53; };
    const std::int64_t moves =
        static_cast<std::int64_t>(moves_per_neuron) * static_cast<std::int64_t>(n);
    double temperature = std::max(1.0, static_cast<double>(params.neuron_spacing) * 2);
    const double cooling =
        moves > 0 ? std::pow(0.01 / temperature, 1.0 / static_cast<double>(moves)) : 1;
    for (std::int64_t m = 0; m < moves && n > 1; ++m, temperature *= cooling) {
        const std::size_t a = uniform(n);
        const int to = static_cast<int>(uniform(sites.size()));
        const int from = site_of[a];
        if (to == from) continue;
        const int other = owner[static_cast<std::size_t>(to)];
        std::int64_t before = local(a, from), after = 0;
        if (other >= 0) before += local(static_cast<std::size_t>(other), to);
        site_of[a] = to;
        if (other >= 0) site_of[static_cast<std::size_t>(other)] = from;
        after = local(a, to);
        if (other >= 0) after += local(static_cast<std::size_t>(other), from);
        // An edge between a and other is counted in both terms and does not change.
        const std::int64_t delta = after - before;
        if (delta <= 0 || real() < std::exp(-static_cast<double>(delta) / temperature)) {
            owner[static_cast<std::size_t>(to)] = static_cast<int>(a);
            owner[static_cast<std::size_t>(from)] = other;
            cost += delta;
        } else {
            site_of[a] = from;
            if (other >= 0) site_of[static_cast<std::size_t>(other)] = to;
        }
    }
    placement p;
    for (std::size_t i = 0; i < n; ++i)
        p.cell.push_back(sites[static_cast<std::size_t>(site_of[i])]);
    p.wire_length = cost;
    return p;
}

}  // namespace volley::danna::detail
