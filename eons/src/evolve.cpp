// The EONS generation loop (docs/eons.md, "The generation loop").

#include <volley/eons/evolution.hpp>
#include <volley/eons/operators.hpp>

#include <volley/error.hpp>
#include <volley/thread_limit.hpp>

#include <chrono>
#include <cmath>
#include <exception>
#include <limits>

namespace volley::eons {

namespace {

constexpr double unknown = std::numeric_limits<double>::quiet_NaN();

/// Evaluates every network of unknown fitness, in parallel: this process's block of them
/// (`share`) on `threads` threads, then gathers every block's values (each network's case
/// count, then its cases). Fills `state.fitness` and `state.cases` only when all succeeded.
/// Returns the number of fitness calls of all processes.
std::int64_t evaluate(evolution_state& state, const case_fitness_function& fitness, int threads,
                      const evaluation_share& share) {
    std::vector<std::size_t> todo;
    for (std::size_t i = 0; i < state.population.size(); ++i)
        if (std::isnan(state.fitness[i])) todo.push_back(i);
    const auto ranks = static_cast<std::size_t>(share.ranks), rank = static_cast<std::size_t>(share.rank);
    const std::size_t first = todo.size() * rank / ranks, last = todo.size() * (rank + 1) / ranks;
    const auto n = static_cast<long>(last - first);
    std::vector<std::vector<double>> mine(last - first);
    std::vector<std::exception_ptr> errors(mine.size());
    // Results go by index, so any schedule gives the same values.
#pragma omp parallel for schedule(dynamic) num_threads(threads)
    for (long t = 0; t < n; ++t) {
        try {
            mine[static_cast<std::size_t>(t)] = fitness(state.population[todo[first + static_cast<std::size_t>(t)]]);
        } catch (...) {
            errors[static_cast<std::size_t>(t)] = std::current_exception();
        }
    }
    // A failure ends this process before the gather; under MPI the launcher ends the others
    // (apps/mpi_launch.hpp), so nobody waits for its values.
    for (const auto& e : errors)
        if (e) std::rethrow_exception(e);
    std::vector<double> flat;
    for (const auto& v : mine) {
        flat.push_back(static_cast<double>(v.size()));
        flat.insert(flat.end(), v.begin(), v.end());
    }
    if (ranks > 1) flat = share.gather(flat);
    const std::string object = "EONS generation " + std::to_string(state.generation);
    std::vector<std::vector<double>> raw;
    for (std::size_t k = 0; k < flat.size();) {
        const auto count = static_cast<std::size_t>(flat[k]);
        if (k + 1 + count > flat.size()) break;
        raw.emplace_back(flat.begin() + static_cast<std::ptrdiff_t>(k + 1),
                         flat.begin() + static_cast<std::ptrdiff_t>(k + 1 + count));
        k += 1 + count;
    }
    if (raw.size() != todo.size())
        throw error(object + ": the processes returned " + std::to_string(raw.size()) + " fitness values for " +
                    std::to_string(todo.size()) + " networks");
    state.cases.resize(state.population.size());
    for (std::size_t t = 0; t < todo.size(); ++t) {
        const std::size_t i = todo[t];
        const auto& v = raw[t];
        if (v.empty())
            throw invalid_parameter(object, "fitness of network " + std::to_string(i), "no cases", "give at least one");
        if (v.size() != raw.front().size())
            throw invalid_parameter(object, "fitness of network " + std::to_string(i),
                                    std::to_string(v.size()) + " cases",
                                    "expected " + std::to_string(raw.front().size()) + ", as for the others");
        double sum = 0;
        for (const double x : v) sum += x;
        const double mean = sum / static_cast<double>(v.size());
        const double f = penalised(mean, state.population[i], state.config);
        if (!std::isfinite(mean) || !std::isfinite(f))
            throw invalid_parameter(object, "fitness of network " + std::to_string(i), nlohmann::json(mean).dump(),
                                    "must be a finite number");
        state.fitness[i] = f;
        state.cases[i] = v;
    }
    return static_cast<std::int64_t>(todo.size());
}

/// Builds child `s` of the next population from the evaluated one, with the streams of
/// generation `g`; sets `known` when the child is an unchanged copy of its parent.
hw::tennlab_network make_child(const evolution_state& state, std::size_t s, std::size_t first_random, std::uint64_t g,
                               const std::vector<double>& epsilon, double& known, std::vector<double>& known_cases) {
    const eons_config& c = state.config;
    if (s >= first_random) {
        random_stream rng = random_stream::keyed(state.seed, stream_purpose::random_network, g, s);
        return random_network(c, state.shape, rng);
    }
    random_stream rng = random_stream::keyed(state.seed, stream_purpose::breeding, g, s);
    auto parent = [&] {
        return c.selection == eons_config::selection_kind::lexicase ? lexicase(state.cases, epsilon, rng)
                                                                    : tournament(state.fitness, c.tournament_size, rng);
    };
    const std::size_t p1 = parent();
    const double r = rng.unit();
    hw::tennlab_network child;
    bool changed = true;
    if (r < c.crossover_rate) {
        const std::size_t p2 = parent();
        child = crossover(state.population[p1], state.population[p2], state.shape, c, rng);
    } else if (r < c.crossover_rate + c.merge_rate) {
        const std::size_t p2 = parent();
        child = merge(state.population[p1], state.population[p2], state.shape, c);
    } else {
        child = state.population[p1];
        changed = false;
    }
    if (rng.chance(c.mutation_rate)) {
        const auto count = 1 + rng.below(static_cast<std::uint64_t>(c.max_mutations));
        for (std::uint64_t k = 0; k < count; ++k)
            changed = mutate_random(child, state.shape, c, rng) || changed;
    }
    if (!changed) known = state.fitness[p1], known_cases = state.cases[p1];
    return child;
}

/// The next population, built from the evaluated one: the elites, then the children, then
/// the random share. Every child has its own stream, so they are bred in parallel.
void breed(evolution_state& state, int threads) {
    const eons_config& c = state.config;
    const auto pop = static_cast<std::size_t>(c.population);
    const auto elites = static_cast<std::size_t>(c.num_best);
    const auto randoms = std::min(
        pop - elites,
        static_cast<std::size_t>(std::llround(c.random_fraction * static_cast<double>(pop))));
    const auto g = static_cast<std::uint64_t>(state.generation + 1);
    const std::vector<std::size_t> order = rank_by_fitness(state.fitness);
    std::vector<hw::tennlab_network> next(pop);
    std::vector<double> known(pop, unknown);
    std::vector<std::vector<double>> known_cases(pop);
    for (std::size_t s = 0; s < elites; ++s) {
        next[s] = state.population[order[s]];
        known[s] = state.fitness[order[s]];
        known_cases[s] = state.cases[order[s]];
    }
    const std::vector<double> epsilon =
        c.selection == eons_config::selection_kind::lexicase ? lexicase_epsilons(state.cases) : std::vector<double>{};
    const auto n = static_cast<long>(pop - elites);
    std::vector<std::exception_ptr> errors(pop);
#pragma omp parallel for schedule(dynamic) num_threads(threads)
    for (long k = 0; k < n; ++k) {
        const std::size_t s = elites + static_cast<std::size_t>(k);
        try {
            next[s] = make_child(state, s, pop - randoms, g, epsilon, known[s], known_cases[s]);
        } catch (...) {
            errors[s] = std::current_exception();
        }
    }
    for (const auto& e : errors)
        if (e) std::rethrow_exception(e);
    state.population = std::move(next);
    state.fitness = std::move(known);
    state.cases = std::move(known_cases);
}

}  // namespace

evolution_state start_evolution(const eons_config& config, const network_template& shape,
                                std::uint64_t seed, const std::vector<hw::tennlab_network>& seeds) {
    config.validate("EONS config");
    check_template(shape, config, "EONS network template");
    if (seeds.size() > static_cast<std::size_t>(config.population))
        throw invalid_parameter("EONS seeds", "count", std::to_string(seeds.size()),
                                "more than population (" + std::to_string(config.population) + ")");
    evolution_state state;
    state.config = config;
    state.shape = shape;
    state.seed = seed;
    for (std::size_t i = 0; i < seeds.size(); ++i) {
        check_network(seeds[i], shape, config, "EONS seed network " + std::to_string(i));
        state.population.push_back(seeds[i]);
    }
    for (std::size_t i = seeds.size(); i < static_cast<std::size_t>(config.population); ++i) {
        random_stream rng = random_stream::keyed(seed, stream_purpose::random_network, 0, i);
        state.population.push_back(random_network(config, shape, rng));
    }
    state.fitness.assign(state.population.size(), unknown);
    return state;
}

case_fitness_function one_case(fitness_function f) {
    if (!f) return {};
    return [f = std::move(f)](const hw::tennlab_network& net) { return std::vector<double>{f(net)}; };
}

void evolve(evolution_state& state, const fitness_function& fitness, const evolve_options& options) {
    if (!fitness) throw invalid_parameter("EONS evolve options", "fitness", "empty", "needs a function");
    evolve(state, one_case(fitness), options);
}

void evolve(evolution_state& state, const case_fitness_function& fitness, const evolve_options& options) {
    const std::string object = "EONS evolve options";
    if (options.generations < 0)
        throw invalid_parameter(object, "generations", std::to_string(options.generations),
                                "must be >= 0");
    check_thread_count(object, options.threads, /*zero_allowed=*/false);
    const auto& share = options.share;
    if (share.ranks < 1 || share.rank < 0 || share.rank >= share.ranks)
        throw invalid_parameter(object, "share", std::to_string(share.rank) + " of " + std::to_string(share.ranks),
                                "needs ranks >= 1 and 0 <= rank < ranks");
    if (share.ranks > 1 && !share.gather)
        throw invalid_parameter(object, "share.gather", "empty", "needed when ranks > 1");
    if (!fitness) throw invalid_parameter(object, "fitness", "empty", "needs a function");
    state.config.validate("EONS state config");
    if (state.population.size() != static_cast<std::size_t>(state.config.population) ||
        state.fitness.size() != state.population.size())
        throw invalid_parameter(
            "EONS state", "population",
            std::to_string(state.population.size()) + " networks, " +
                std::to_string(state.fitness.size()) + " fitness values",
            "both must equal population (" + std::to_string(state.config.population) + ")");
    // A known fitness whose cases are not known (a checkpoint of an older format) is scored
    // again: the same value, as fitness is a pure function of the network.
    state.cases.resize(state.population.size());
    for (std::size_t i = 0; i < state.population.size(); ++i)
        if (state.cases[i].empty()) state.fitness[i] = unknown;
    for (int k = 0; k < options.generations; ++k) {
        const auto t0 = std::chrono::steady_clock::now();
        generation_record rec;
        rec.generation = state.generation;
        rec.evaluations = evaluate(state, fitness, options.threads, options.share);
        std::size_t best = 0;
        double sum = 0;
        for (std::size_t i = 0; i < state.fitness.size(); ++i) {
            sum += state.fitness[i];
            if (state.fitness[i] > state.fitness[best]) best = i;
        }
        rec.best = state.fitness[best];
        rec.mean = sum / static_cast<double>(state.fitness.size());
        rec.best_nodes = static_cast<int>(state.population[best].nodes.size());
        rec.best_edges = static_cast<int>(state.population[best].edges.size());
        if (state.generation == 0 || rec.best > state.best_fitness) {
            state.best = state.population[best];
            state.best_fitness = rec.best;
        }
        breed(state, options.threads);
        ++state.generation;
        rec.seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
        state.history.push_back(rec);
        if (options.checkpoint) options.checkpoint(state);
        if (options.progress && !options.progress(rec)) break;
        if (state.best_fitness >= options.stop_at) break;
    }
}

}  // namespace volley::eons
