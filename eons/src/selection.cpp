// Ranking and tournament selection (docs/eons.md, "Selection").

#include <volley/eons/operators.hpp>

#include <algorithm>
#include <numeric>

namespace volley::eons {

std::vector<std::size_t> rank_by_fitness(const std::vector<double>& fitness) {
    std::vector<std::size_t> order(fitness.size());
    std::iota(order.begin(), order.end(), std::size_t{0});
    std::stable_sort(order.begin(), order.end(),
                     [&](std::size_t x, std::size_t y) { return fitness[x] > fitness[y]; });
    return order;
}

std::size_t tournament(const std::vector<double>& fitness, int size, random_stream& rng) {
    std::size_t best = rng.below(fitness.size());
    for (int k = 1; k < size; ++k) {
        const std::size_t i = rng.below(fitness.size());
        if (fitness[i] > fitness[best] || (fitness[i] == fitness[best] && i < best)) best = i;
    }
    return best;
}

double penalised(double fitness, const hw::tennlab_network& net, const eons_config& config) {
    return fitness - config.size_penalty * static_cast<double>(net.nodes.size() + net.edges.size());
}

}  // namespace volley::eons
