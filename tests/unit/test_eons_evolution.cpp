// The EONS generation loop: determinism across thread counts, checkpoints that resume bit for
// bit, known optima reached, the size penalty, evaluation counts and errors.

#include <volley/eons/evolution.hpp>
#include <volley/eons/operators.hpp>

#include <volley/error.hpp>
#include <volley/hw/tennlab_error.hpp>
#include <volley/snn/distributed_context.hpp>

#include "eons_test_support.hpp"

#include <gtest/gtest.h>

#include <atomic>
#include <cmath>
#include <cstring>
#include <span>
#include <stdexcept>

using namespace volley::eons;
using volley::hw::tennlab_network;

namespace {

eons_config risp_config() {
    eons_config c;
    c.population = 24;
    c.num_best = 2;
    c.max_nodes = 12;
    c.starting_nodes = 2;
    c.random_fraction = 0.1;
    c.merge_rate = 0.1;
    return c;
}

/// A fitness with non-trivial doubles: it checks that checkpoints keep every bit.
double weighted_copy_fitness(const tennlab_network& net) {
    double w = 0;
    for (const auto& e : net.edges) w += e.values[0];
    return eons_test::copy_task_fitness(net) + 1e-3 * std::sin(w);
}

std::size_t hidden(const tennlab_network& net, int io) {
    std::size_t h = 0;
    for (const auto& n : net.nodes) h += n.id >= static_cast<unsigned>(io);
    return h;
}

}  // namespace

TEST(EonsEvolution, SameSeedGivesTheSamePopulationOnOneTwoAndThreeThreads) {
    const network_template shape = eons_test::shape_of(eons_test::real_risp(), 2, 2);
    std::string reference;
    for (int threads : {1, 2, 3}) {
        evolution_state s = start_evolution(risp_config(), shape, 42);
        evolve_options o;
        o.generations = 5;
        o.threads = threads;
        evolve(s, weighted_copy_fitness, o);
        ASSERT_EQ(s.generation, 5);
        const std::string dump = eons_test::dump_without_seconds(s);
        if (threads == 1)
            reference = dump;
        else
            EXPECT_EQ(dump, reference) << threads << " threads";
    }
    evolution_state other = start_evolution(risp_config(), shape, 43);
    evolve_options o;
    o.generations = 5;
    evolve(other, weighted_copy_fitness, o);
    EXPECT_NE(eons_test::dump_without_seconds(other), reference) << "the seed matters";
}

// Processes sharing the evaluations (evaluation_share, as volley evolve does under mpirun),
// imitated by snn::dry_run's ranks: 1, 2 and 3 ranks give the population of one process, and
// every network is evaluated by exactly one rank.
TEST(EonsEvolution, SharingTheEvaluationsBetweenRanksGivesTheSamePopulation) {
    const network_template shape = eons_test::shape_of(eons_test::real_risp(), 2, 2);
    evolution_state alone = start_evolution(risp_config(), shape, 42);
    evolve_options o;
    o.generations = 5;
    std::atomic<std::int64_t> calls{0};
    auto counted = [&](const tennlab_network& net) {
        ++calls;
        return weighted_copy_fitness(net);
    };
    evolve(alone, counted, o);
    std::int64_t evaluations = 0;
    for (const auto& r : alone.history) evaluations += r.evaluations;
    ASSERT_EQ(calls.load(), evaluations);
    const std::string reference = eons_test::dump_without_seconds(alone);
    for (int ranks : {2, 3}) {
        calls = 0;
        std::vector<std::string> dumps(static_cast<std::size_t>(ranks));
        volley::snn::dry_run(ranks, [&](const volley::snn::distributed_context& ctx) {
            evolution_state s = start_evolution(risp_config(), shape, 42);
            evolve_options shared = o;
            shared.share = {ctx.id(), ctx.size(), [&ctx](std::span<const double> mine) { return ctx.gather_values(mine); }};
            evolve(s, counted, shared);
            dumps[static_cast<std::size_t>(ctx.id())] = eons_test::dump_without_seconds(s);
        });
        EXPECT_EQ(calls.load(), evaluations) << ranks << " ranks: each network once";
        for (const auto& d : dumps) EXPECT_EQ(d, reference) << ranks << " ranks";
    }
    evolve_options bad = o;
    bad.share = {0, 2, {}};
    evolution_state s = start_evolution(risp_config(), shape, 42);
    EXPECT_THROW(evolve(s, counted, bad), volley::invalid_parameter);
    bad.share = {2, 2, [](std::span<const double> v) { return std::vector<double>(v.begin(), v.end()); }};
    EXPECT_THROW(evolve(s, counted, bad), volley::invalid_parameter);
}

TEST(EonsEvolution, CheckpointResumesBitForBit) {
    const network_template shape = eons_test::shape_of(eons_test::real_risp(), 2, 2);
    evolve_options o;
    o.threads = 2;
    evolution_state straight = start_evolution(risp_config(), shape, 7);
    o.generations = 6;
    evolve(straight, weighted_copy_fitness, o);

    evolution_state first = start_evolution(risp_config(), shape, 7);
    o.generations = 3;
    std::vector<int> seen;
    o.checkpoint = [&](const evolution_state& s) { seen.push_back(s.generation); };
    evolve(first, weighted_copy_fitness, o);
    EXPECT_EQ(seen, (std::vector<int>{1, 2, 3}));
    const std::string text = first.to_json().dump();
    evolution_state resumed = evolution_state::from_json(nlohmann::json::parse(text), "ckpt.json");
    ASSERT_EQ(resumed.fitness.size(), first.fitness.size());
    for (std::size_t i = 0; i < first.fitness.size(); ++i) {
        if (std::isnan(first.fitness[i])) {
            EXPECT_TRUE(std::isnan(resumed.fitness[i]));
        } else {
            EXPECT_EQ(std::memcmp(&first.fitness[i], &resumed.fitness[i], sizeof(double)), 0) << i;
        }
    }
    o.checkpoint = nullptr;
    evolve(resumed, weighted_copy_fitness, o);
    EXPECT_EQ(eons_test::dump_without_seconds(resumed), eons_test::dump_without_seconds(straight));
}

namespace {

using eons_test::copy_task_cases;

eons_config lexicase_config() {
    eons_config c = risp_config();
    c.selection = eons_config::selection_kind::lexicase;
    return c;
}

}  // namespace

// Lexicase selection keeps every guarantee of the loop: the same population for 1-3 threads and
// 2-3 ranks, a checkpoint (with its cases) that resumes bit for bit, and the copy task solved;
// the fitness is the mean of the cases.
TEST(EonsEvolution, LexicaseIsDeterministicResumesAndSolvesTheCopyTask) {
    const network_template shape = eons_test::shape_of(eons_test::real_risp(), 2, 2);
    std::string reference;
    for (int threads : {1, 2, 3}) {
        evolution_state s = start_evolution(lexicase_config(), shape, 42);
        evolve_options o;
        o.generations = 5;
        o.threads = threads;
        evolve(s, copy_task_cases, o);
        const std::string dump = eons_test::dump_without_seconds(s);
        if (threads == 1) reference = dump;
        else EXPECT_EQ(dump, reference) << threads << " threads";
        for (std::size_t i = 0; i < s.population.size(); ++i) {
            if (std::isnan(s.fitness[i])) continue;
            ASSERT_EQ(s.cases[i].size(), 4u);
            EXPECT_EQ(s.fitness[i], (s.cases[i][0] + s.cases[i][1] + s.cases[i][2] + s.cases[i][3]) / 4) << i;
        }
    }
    for (int ranks : {2, 3}) {
        std::vector<std::string> dumps(static_cast<std::size_t>(ranks));
        volley::snn::dry_run(ranks, [&](const volley::snn::distributed_context& ctx) {
            evolution_state s = start_evolution(lexicase_config(), shape, 42);
            evolve_options o;
            o.generations = 5;
            o.share = {ctx.id(), ctx.size(), [&ctx](std::span<const double> mine) { return ctx.gather_values(mine); }};
            evolve(s, copy_task_cases, o);
            dumps[static_cast<std::size_t>(ctx.id())] = eons_test::dump_without_seconds(s);
        });
        for (const auto& d : dumps) EXPECT_EQ(d, reference) << ranks << " ranks";
    }
    evolve_options o;
    o.generations = 3;
    evolution_state first = start_evolution(lexicase_config(), shape, 42);
    evolve(first, copy_task_cases, o);
    evolution_state resumed = evolution_state::from_json(nlohmann::json::parse(first.to_json().dump()), "ck.json");
    EXPECT_EQ(resumed.cases, first.cases);
    o.generations = 2;
    evolve(resumed, copy_task_cases, o);
    EXPECT_EQ(eons_test::dump_without_seconds(resumed), reference);
    auto damaged = first.to_json();
    damaged["cases"][0] = nlohmann::json::array({"x"});
    EXPECT_THROW(evolution_state::from_json(damaged, "bad.json"), volley::file_format_error);
    damaged["cases"] = nlohmann::json::array();
    EXPECT_THROW(evolution_state::from_json(damaged, "bad.json"), volley::file_format_error);
    evolution_state uneven = start_evolution(lexicase_config(), shape, 42);
    o.generations = 1;
    std::atomic<int> calls{0};  // every other network gives two cases instead of one
    EXPECT_THROW(evolve(uneven, [&](const tennlab_network&) { return std::vector<double>(calls++ % 2 + 1, 0.0); }, o),
                 volley::invalid_parameter);

    eons_config c = lexicase_config();
    c.population = 40;
    evolution_state s = start_evolution(c, shape, 5);
    o.generations = 60;
    o.threads = 2;
    o.stop_at = 0;
    evolve(s, copy_task_cases, o);
    EXPECT_EQ(s.best_fitness, 0.0);
    EXPECT_EQ(eons_test::copy_task_fitness(s.best), 0.0);
}

TEST(EonsEvolution, ReachesTheOptimumOfAnAnalyticFitness) {
    // fitness = -|edges - 7| - |hidden - 3|: the optimum 0 is any network with 7 edges and 3
    // hidden nodes.
    network_template shape = eons_test::shape_of(eons_test::real_risp(), 2, 1);
    eons_config c;
    c.population = 30;
    c.max_nodes = 16;
    const auto fitness = [](const tennlab_network& net) {
        return -std::abs(static_cast<double>(net.edges.size()) - 7) -
               std::abs(static_cast<double>(hidden(net, 3)) - 3);
    };
    evolution_state s = start_evolution(c, shape, 2024);
    evolve_options o;
    o.generations = 40;
    o.stop_at = 0;
    evolve(s, fitness, o);
    EXPECT_EQ(s.best_fitness, 0.0);
    EXPECT_EQ(s.best.edges.size(), 7u);
    EXPECT_EQ(hidden(s.best, 3), 3u);
    EXPECT_LT(s.generation, 40) << "stop_at stops the run";
    EXPECT_EQ(s.history.back().best, 0.0);
}

TEST(EonsEvolution, SolvesTheRispCopyTask) {
    const network_template shape = eons_test::shape_of(eons_test::real_risp(), 2, 2);
    eons_config c = risp_config();
    c.population = 40;
    evolution_state s = start_evolution(c, shape, 5);
    const double start = [&] {
        double best = -1e9;
        for (const auto& n : s.population) best = std::max(best, eons_test::copy_task_fitness(n));
        return best;
    }();
    evolve_options o;
    o.generations = 60;
    o.threads = 2;
    o.stop_at = 0;
    evolve(s, eons_test::copy_task_fitness, o);
    EXPECT_LT(start, 0.0) << "the task is not solved by a random network";
    EXPECT_EQ(s.best_fitness, 0.0);
    EXPECT_EQ(eons_test::copy_task_fitness(s.best), 0.0);
}

TEST(EonsEvolution, SizePenaltyLowersFitnessByPenaltyTimesSize) {
    const network_template shape = eons_test::shape_of(eons_test::real_risp(), 2, 2);
    eons_config c = risp_config();
    c.size_penalty = 0.25;
    evolution_state s = start_evolution(c, shape, 3);
    double sum = 0;
    for (const auto& n : s.population)
        sum += 1.5 - 0.25 * static_cast<double>(n.nodes.size() + n.edges.size());
    evolve_options o;
    o.generations = 3;
    evolve(
        s, [](const tennlab_network&) { return 1.5; }, o);
    EXPECT_DOUBLE_EQ(s.history[0].mean, sum / c.population);
    for (const auto& r : s.history) EXPECT_EQ(r.best, 1.5 - 0.25 * (r.best_nodes + r.best_edges));
    EXPECT_EQ(s.best_fitness,
              1.5 - 0.25 * static_cast<double>(s.best.nodes.size() + s.best.edges.size()));
    // Elites carry their penalised fitness.
    for (int e = 0; e < c.num_best; ++e) {
        const auto& n = s.population[static_cast<std::size_t>(e)];
        EXPECT_EQ(s.fitness[static_cast<std::size_t>(e)],
                  1.5 - 0.25 * static_cast<double>(n.nodes.size() + n.edges.size()));
    }
}

TEST(EonsEvolution, CountsEvaluationsAndDoesNotReevaluateElites) {
    const network_template shape = eons_test::shape_of(eons_test::real_risp(), 2, 2);
    eons_config c = risp_config();
    std::atomic<long> calls{0};
    evolution_state s = start_evolution(c, shape, 9);
    evolve_options o;
    o.generations = 4;
    o.threads = 3;
    evolve(
        s,
        [&](const tennlab_network& n) {
            ++calls;
            return eons_test::copy_task_fitness(n);
        },
        o);
    long recorded = 0;
    for (const auto& r : s.history) recorded += static_cast<long>(r.evaluations);
    EXPECT_EQ(recorded, calls.load());
    EXPECT_EQ(s.history[0].evaluations, c.population);
    for (std::size_t g = 1; g < s.history.size(); ++g)
        EXPECT_LE(s.history[g].evaluations, c.population - c.num_best);
    // The best fitness never decreases: elites are kept.
    for (std::size_t g = 1; g < s.history.size(); ++g)
        EXPECT_GE(s.history[g].best, s.history[g - 1].best);
}

TEST(EonsEvolution, ProgressCanStopAndSeedsComeFirst) {
    const network_template shape = eons_test::shape_of(eons_test::real_risp(), 2, 2);
    random_stream rng(77);
    const tennlab_network seed = random_network(risp_config(), shape, rng);
    evolution_state s = start_evolution(risp_config(), shape, 1, {seed});
    EXPECT_EQ(s.population[0].to_json(), seed.to_json());
    evolve_options o;
    o.generations = 10;
    int calls = 0;
    o.progress = [&](const generation_record& r) { return ++calls, r.generation < 1; };
    evolve(s, eons_test::copy_task_fitness, o);
    EXPECT_EQ(calls, 2);
    EXPECT_EQ(s.generation, 2);

    tennlab_network wrong = seed;
    wrong.outputs = {3};
    EXPECT_THROW(start_evolution(risp_config(), shape, 1, {wrong}), volley::invalid_parameter);
}

TEST(EonsEvolution, BadFitnessAndBadCheckpointsThrowTypedErrors) {
    const network_template shape = eons_test::shape_of(eons_test::real_risp(), 2, 2);
    evolution_state s = start_evolution(risp_config(), shape, 1);
    evolve_options o;
    o.generations = 1;
    EXPECT_THROW(evolve(
                     s, [](const tennlab_network&) { return std::nan(""); }, o),
                 volley::invalid_parameter);
    EXPECT_THROW(
        evolve(
            s, [](const tennlab_network&) -> double { throw std::runtime_error("boom"); }, o),
        std::runtime_error);
    EXPECT_EQ(s.generation, 0) << "a failed generation is not done";
    o.threads = 0;
    EXPECT_THROW(evolve(s, eons_test::copy_task_fitness, o), volley::invalid_parameter);

    nlohmann::json j = s.to_json();
    j["format"] = "something";
    EXPECT_THROW(evolution_state::from_json(j, "c.json"), volley::file_format_error);
    j = s.to_json();
    j["population"][0]["Edges"].push_back({{"from", 0}, {"to", 999}, {"values", {0.5, 1}}});
    EXPECT_THROW(evolution_state::from_json(j, "c.json"), volley::hw::tennlab_error);
    j = s.to_json();
    j["config"]["population"] = 1;
    EXPECT_THROW(evolution_state::from_json(j, "c.json"), volley::invalid_parameter);
    j = s.to_json();
    j["population"].erase(0);
    EXPECT_THROW(evolution_state::from_json(j, "c.json"), volley::file_format_error);
}
