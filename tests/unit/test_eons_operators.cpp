// The EONS operators keep networks valid (checked independently and by loading every one into
// a real RISP processor), and each does what docs/eons.md says.

#include <volley/eons/operators.hpp>

#include <volley/error.hpp>
#include <volley/hw/risp_processor.hpp>

#include "eons_test_support.hpp"

#include <gtest/gtest.h>

#include <algorithm>
#include <set>

using namespace volley::eons;
using eons_test::expect_valid;
using volley::hw::tennlab_network;

namespace {

eons_config small_config() {
    eons_config c;
    c.max_nodes = 12;
    c.starting_nodes = 3;
    c.starting_edges = 8;
    return c;
}

std::size_t hidden_count(const tennlab_network& net, const network_template& shape) {
    return static_cast<std::size_t>(
        std::count_if(net.nodes.begin(), net.nodes.end(), [&](const auto& n) {
            return n.id >= static_cast<unsigned>(shape.inputs + shape.outputs);
        }));
}

/// 200 networks made by every operator in turn from an evolving pool, each checked and loaded.
void every_operator_keeps_networks_loadable(const nlohmann::json& proc_params, bool self_edges) {
    const network_template shape = eons_test::shape_of(proc_params, 3, 2);
    eons_config config = small_config();
    config.self_edges = self_edges;
    volley::hw::risp_processor proc(proc_params);
    std::vector<tennlab_network> pool;
    for (int i = 0; i < 6; ++i) {
        random_stream rng(100 + i);
        pool.push_back(random_network(config, shape, rng));
    }
    const mutation_kind kinds[] = {mutation_kind::add_node,   mutation_kind::delete_node,
                                   mutation_kind::add_edge,   mutation_kind::delete_edge,
                                   mutation_kind::node_param, mutation_kind::edge_param};
    int merged_at_limit = 0;
    for (int i = 0; i < 200; ++i) {
        random_stream rng(7000 + i);
        const tennlab_network& a = pool[rng.below(pool.size())];
        const tennlab_network& b = pool[rng.below(pool.size())];
        tennlab_network child;
        switch (i % 4) {
            case 0:
                child = crossover(a, b, shape, config, rng);
                break;
            case 1:
                child = merge(a, b, shape, config);
                merged_at_limit += child.nodes.size() == 12u;
                break;
            case 2:
                child = a;
                for (int k = 0; k < 3; ++k) mutate_random(child, shape, config, rng);
                break;
            default:
                child = a;
                mutate(child, kinds[(i / 4) % 6], shape, config, rng);
        }
        expect_valid(child, shape, config.max_nodes, self_edges, "child " + std::to_string(i));
        EXPECT_NO_THROW(proc.load_network(child)) << "child " << i;
        EXPECT_NO_THROW(tennlab_network::from_json(child.to_json(), "child"));
        EXPECT_NO_THROW(check_network(child, shape, config, "child"));
        pool[static_cast<std::size_t>(i) % pool.size()] = std::move(child);
    }
    EXPECT_GT(merged_at_limit, 0) << "merges never reached max_nodes: the limit is untested";
}

}  // namespace

TEST(EonsOperators, RealRispNetworksStayValidAndLoad) {
    every_operator_keeps_networks_loadable(eons_test::real_risp(), true);
}

TEST(EonsOperators, DiscreteRispNetworksWithoutSelfEdgesStayValidAndLoad) {
    every_operator_keeps_networks_loadable(eons_test::discrete_risp(), false);
}

TEST(EonsOperators, RandomValuesCoverTheirTypeAndBounds) {
    const network_template shape = eons_test::shape_of(eons_test::discrete_risp(), 1, 1);
    random_stream rng(5);
    std::set<double> leak, threshold, delay;
    for (int i = 0; i < 2000; ++i) {
        const auto node = random_values(shape.properties.node, rng);
        const auto edge = random_values(shape.properties.edge, rng);
        threshold.insert(node[0]);
        leak.insert(node[1]);
        delay.insert(edge[1]);
    }
    EXPECT_EQ(leak, (std::set<double>{0, 1}));
    EXPECT_EQ(threshold, (std::set<double>{0, 1, 2, 3, 4, 5, 6, 7}));
    std::set<double> all_delays;
    for (int d = 1; d <= 15; ++d) all_delays.insert(d);
    EXPECT_EQ(delay, all_delays);
}

TEST(EonsOperators, AddAndDeleteNode) {
    const network_template shape = eons_test::shape_of(eons_test::real_risp(), 2, 2);
    eons_config config = small_config();
    random_stream rng(11);
    tennlab_network net = random_network(config, shape, rng);
    ASSERT_EQ(net.nodes.size(), 7u);
    ASSERT_EQ(net.edges.size(), 8u);

    tennlab_network grown = net;
    ASSERT_TRUE(mutate(grown, mutation_kind::add_node, shape, config, rng));
    EXPECT_EQ(grown.nodes.size(), 8u);
    EXPECT_EQ(grown.edges.size(), 10u);
    EXPECT_FALSE(net.find_node(grown.nodes.back().id).has_value()) << "the new id is fresh";

    for (int k = 0; k < 20; ++k) {
        tennlab_network cut = grown;
        ASSERT_TRUE(mutate(cut, mutation_kind::delete_node, shape, config, rng));
        ASSERT_EQ(cut.nodes.size(), 7u);
        unsigned gone = 0;
        for (const auto& n : grown.nodes)
            if (!cut.find_node(n.id)) gone = n.id;
        EXPECT_GE(gone, 4u) << "an input or output node was deleted";
        const auto touching =
            std::count_if(grown.edges.begin(), grown.edges.end(),
                          [&](const auto& e) { return e.from == gone || e.to == gone; });
        EXPECT_EQ(cut.edges.size(), grown.edges.size() - static_cast<std::size_t>(touching));
    }

    // Only inputs and outputs left: delete_node does not apply.
    tennlab_network bare = net;
    while (mutate(bare, mutation_kind::delete_node, shape, config, rng)) {
    }
    EXPECT_EQ(bare.nodes.size(), 4u);
    EXPECT_FALSE(applicable(mutation_kind::delete_node, bare, shape, config));

    // At max_nodes add_node does not apply, and mutate leaves the network unchanged.
    config.max_nodes = 7;
    const std::string before = net.to_json().dump();
    EXPECT_FALSE(mutate(net, mutation_kind::add_node, shape, config, rng));
    EXPECT_EQ(net.to_json().dump(), before);
}

TEST(EonsOperators, AddEdgeFillsEveryPairThenStops) {
    const network_template shape = eons_test::shape_of(eons_test::real_risp(), 2, 1);
    for (bool self : {true, false}) {
        eons_config config = small_config();
        config.self_edges = self;
        config.starting_nodes = 2;
        random_stream rng(3);
        tennlab_network net = random_network(config, shape, rng);
        while (mutate(net, mutation_kind::add_edge, shape, config, rng)) {
        }
        EXPECT_EQ(net.edges.size(), self ? 25u : 20u);
        expect_valid(net, shape, config.max_nodes, self, self ? "self" : "no self");
        EXPECT_FALSE(applicable(mutation_kind::add_edge, net, shape, config));
    }
}

TEST(EonsOperators, MergeIsTheUnionOnSharedInputsAndOutputs) {
    const network_template shape = eons_test::shape_of(eons_test::real_risp(), 2, 2);
    eons_config config = small_config();
    config.max_nodes = 40;
    for (int trial = 0; trial < 20; ++trial) {
        random_stream ra(200 + trial), rb(300 + trial);
        const tennlab_network a = random_network(config, shape, ra);
        const tennlab_network b = random_network(config, shape, rb);
        const tennlab_network m = merge(a, b, shape, config);
        EXPECT_EQ(m.nodes.size(), a.nodes.size() + hidden_count(b, shape));
        std::set<std::pair<unsigned, unsigned>> a_pairs;
        for (const auto& e : a.edges) a_pairs.insert({e.from, e.to});
        std::size_t repeated = 0;  // edges of b between inputs/outputs that a has too
        for (const auto& e : b.edges)
            repeated += e.from < 4 && e.to < 4 && a_pairs.count({e.from, e.to});
        EXPECT_EQ(m.edges.size(), a.edges.size() + b.edges.size() - repeated);
        expect_valid(m, shape, config.max_nodes, true, "merge");
    }
}

TEST(EonsOperators, CrossoverChildSizeLiesBetweenItsParents) {
    const network_template shape = eons_test::shape_of(eons_test::real_risp(), 2, 2);
    eons_config config = small_config();
    config.max_nodes = 40;
    for (int trial = 0; trial < 50; ++trial) {
        eons_config ca = config, cb = config;
        ca.starting_nodes = 2 + trial % 5;
        cb.starting_nodes = 9 - trial % 7;
        random_stream ra(400 + trial), rb(500 + trial), rc(600 + trial);
        const tennlab_network a = random_network(ca, shape, ra);
        const tennlab_network b = random_network(cb, shape, rb);
        const tennlab_network c = crossover(a, b, shape, config, rc);
        const std::size_t h = hidden_count(c, shape);
        const std::size_t ha = hidden_count(a, shape), hb = hidden_count(b, shape);
        const std::size_t lo = std::min(ha, hb), hi = std::max(ha, hb);
        EXPECT_GE(h + 1, lo);
        EXPECT_LE(h, hi + 1);
        EXPECT_LE(c.edges.size(), a.edges.size() + b.edges.size());
        expect_valid(c, shape, config.max_nodes, true, "crossover");
    }
}

TEST(EonsOperators, SelectionRanksByFitnessAndBreaksTiesByLowerIndex) {
    EXPECT_EQ(rank_by_fitness({1, 3, 3, 2}), (std::vector<std::size_t>{1, 2, 3, 0}));
    const std::vector<double> equal(5, 1.0);
    random_stream rng(9);
    // 60 draws from 5 indices include index 0 (the tie winner) except with chance 0.8^60.
    EXPECT_EQ(tournament(equal, 60, rng), 0u);
    EXPECT_EQ(tournament({0, 0, 5, 0, 0}, 60, rng), 2u);
    std::vector<int> hits(4, 0);
    for (int i = 0; i < 4000; ++i) ++hits[tournament({1, 2, 3, 4}, 1, rng)];
    for (int h : hits) EXPECT_NEAR(h, 1000, 150);  // size 1: uniform (about 5 sigma)
}

// Three specialists, each best on one case, and a generalist with the best mean: lexicase
// picks each specialist a third of the time (the first case of the random order decides) and
// never the generalist, which is within epsilon of the best on no case; a tournament on the
// means prefers the generalist.
TEST(EonsOperators, LexicaseKeepsSpecialistsThatTournamentsLose) {
    const std::vector<std::vector<double>> cases = {{1, 0, 0}, {0, 1, 0}, {0, 0, 1}, {0.6, 0.6, 0.6}};
    const auto eps = lexicase_epsilons(cases);
    ASSERT_EQ(eps.size(), 3u);
    for (double e : eps) EXPECT_DOUBLE_EQ(e, 0.3);  // median |x - 0.3| of {0.7, 0.3, 0.3, 0.3}
    random_stream rng(11);
    std::vector<int> hits(4, 0);
    for (int i = 0; i < 3000; ++i) ++hits[lexicase(cases, eps, rng)];
    for (int k = 0; k < 3; ++k) EXPECT_NEAR(hits[static_cast<std::size_t>(k)], 1000, 130) << k;  // ~5 sigma
    EXPECT_EQ(hits[3], 0);
    const std::vector<double> means = {1.0 / 3, 1.0 / 3, 1.0 / 3, 0.6};
    int generalist = 0;
    for (int i = 0; i < 3000; ++i) generalist += tournament(means, 3, rng) == 3;
    EXPECT_GT(generalist, 3000 * 0.5);  // 1 - (3/4)^3 = 0.58 of tournaments include it

    // Within epsilon counts as best: 0.95 survives the first case beside 1 (epsilon 0.3), and
    // the second case then decides between them.
    const std::vector<std::vector<double>> close = {{1, 0}, {0.95, 1}, {0, 0}, {0, 0}};
    const auto e2 = lexicase_epsilons(close);
    EXPECT_DOUBLE_EQ(e2[0], 0.475);  // median 0.475; the median of |x - 0.475| is 0.475
    EXPECT_DOUBLE_EQ(e2[1], 0.0);
    for (int i = 0; i < 200; ++i) EXPECT_EQ(lexicase(close, e2, rng), 1u);
}

TEST(EonsRandomStream, MatchesTheSplitmix64ReferenceAndIsUniform) {
    // Vigna's splitmix64.c seeded with 1234567.
    random_stream ref(1234567);
    EXPECT_EQ(ref.next(), 6457827717110365317ULL);
    EXPECT_EQ(ref.next(), 3203168211198807973ULL);
    EXPECT_EQ(ref.next(), 9817491932198370423ULL);
    random_stream rng = random_stream::keyed(1, stream_purpose::breeding, 2, 3);
    std::vector<int> bins(7, 0);
    for (int i = 0; i < 70000; ++i) {
        const auto k = rng.below(7);
        ASSERT_LT(k, 7u);
        ++bins[k];
    }
    for (int b : bins) EXPECT_NEAR(b, 10000, 500);  // about 5 sigma
    for (int i = 0; i < 1000; ++i) {
        const double u = rng.unit();
        ASSERT_GE(u, 0.0);
        ASSERT_LT(u, 1.0);
    }
    EXPECT_NE(random_stream::keyed(1, stream_purpose::breeding, 2, 3).next(),
              random_stream::keyed(1, stream_purpose::breeding, 2, 4).next());
    EXPECT_NE(random_stream::keyed(1, stream_purpose::breeding, 2, 3).next(),
              random_stream::keyed(1, stream_purpose::random_network, 2, 3).next());
}

TEST(EonsOperators, CheckNetworkRejectsBrokenNetworks) {
    const network_template shape = eons_test::shape_of(eons_test::real_risp(), 2, 2);
    const eons_config config = small_config();
    random_stream rng(1);
    const tennlab_network good = random_network(config, shape, rng);
    EXPECT_NO_THROW(check_network(good, shape, config, "good"));
    tennlab_network bad = good;
    bad.edges[0].values[1] = 6;  // Delay above max_delay 5
    EXPECT_THROW(check_network(bad, shape, config, "bad"), volley::invalid_parameter);
    bad = good;
    bad.edges[0].to = 99;
    EXPECT_THROW(check_network(bad, shape, config, "bad"), volley::invalid_parameter);
    bad = good;
    bad.outputs = {3, 2};
    EXPECT_THROW(check_network(bad, shape, config, "bad"), volley::invalid_parameter);
}

// A parameter mutation changes exactly one value, to another value, never a fixed one (RISP-1+:
// weight and threshold 1, only the delay varies); with perturb_rate 1 the step is at most
// max(1, round(perturb_span · span)).
TEST(EonsOperators, ParameterMutationsChangeOneVariableValue) {
    const nlohmann::json risp1plus = {{"min_weight", 1},    {"max_weight", 1},   {"min_threshold", 1},
                                      {"max_threshold", 1}, {"max_delay", 15},   {"discrete", true},
                                      {"min_potential", 0}};
    const auto shape = eons_test::shape_of(risp1plus, 2, 2);
    for (double perturb : {0.0, 1.0}) {
        eons_config c;
        c.perturb_rate = perturb;
        c.perturb_span = 0.1;  // 0.1 · 14 → steps of at most 1
        random_stream build(5);
        auto net = random_network(c, shape, build);
        ASSERT_FALSE(net.edges.empty());
        EXPECT_FALSE(applicable(mutation_kind::node_param, net, shape, c)) << "no node value can change";
        const int delay = shape.properties.find_edge("Delay")->index;
        const int weight = shape.properties.find_edge("Weight")->index;
        int bigger_steps = 0;
        for (std::uint64_t k = 0; k < 400; ++k) {
            random_stream rng(100 + k);
            auto child = net;
            ASSERT_TRUE(mutate(child, mutation_kind::edge_param, shape, c, rng));
            int changed = 0;
            for (std::size_t e = 0; e < net.edges.size(); ++e) {
                const auto& a = net.edges[e].values;
                const auto& b = child.edges[e].values;
                EXPECT_EQ(b[static_cast<std::size_t>(weight)], 1.0);
                const double d = std::fabs(b[static_cast<std::size_t>(delay)] - a[static_cast<std::size_t>(delay)]);
                changed += d != 0;
                bigger_steps += d > 1;
            }
            EXPECT_EQ(changed, 1) << "draw " << k;
            eons_test::expect_valid(child, shape, c.max_nodes, c.self_edges, "edge_param");
        }
        if (perturb == 1.0) EXPECT_EQ(bigger_steps, 0);
        else EXPECT_GT(bigger_steps, 100) << "fresh draws go anywhere in 1..15";
    }
}
