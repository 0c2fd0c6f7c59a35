// Ranking and tournament selection (docs/eons.md, "Selection").

#include <volley/eons/operators.hpp>

#include <algorithm>
#include <cmath>
#include <limits>
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

namespace {

double median(std::vector<double> v) {
    const std::size_t h = v.size() / 2;
    std::nth_element(v.begin(), v.begin() + static_cast<std::ptrdiff_t>(h), v.end());
    if (v.size() % 2) return v[h];
    const double hi = v[h];
    return (*std::max_element(v.begin(), v.begin() + static_cast<std::ptrdiff_t>(h)) + hi) / 2;
}

}  // namespace

std::vector<double> lexicase_epsilons(const std::vector<std::vector<double>>& cases) {
    if (cases.empty()) return {};
    const std::size_t n = cases.front().size();
    std::vector<double> eps(n), column(cases.size());
    for (std::size_t c = 0; c < n; ++c) {
        for (std::size_t i = 0; i < cases.size(); ++i) column[i] = cases[i][c];
        const double m = median(column);
        for (double& x : column) x = std::abs(x - m);
        eps[c] = median(column);
    }
    return eps;
}

std::size_t lexicase(const std::vector<std::vector<double>>& cases, const std::vector<double>& epsilon,
                     random_stream& rng) {
    std::vector<std::size_t> left(cases.size());
    std::iota(left.begin(), left.end(), std::size_t{0});
    std::vector<std::size_t> order(epsilon.size());
    std::iota(order.begin(), order.end(), std::size_t{0});
    for (std::size_t k = order.size(); k > 1; --k)  // Fisher-Yates, from the network's stream
        std::swap(order[k - 1], order[rng.below(k)]);
    for (const std::size_t c : order) {
        if (left.size() <= 1) break;
        double best = -std::numeric_limits<double>::infinity();
        for (const std::size_t i : left) best = std::max(best, cases[i][c]);
        std::erase_if(left, [&](std::size_t i) { return cases[i][c] < best - epsilon[c]; });
    }
    return left[rng.below(left.size())];
}

}  // namespace volley::eons
