// Connectors: which synapses each rule makes, seen through the public API (stats().synapses
// and the spikes of targets that fire on every input) and, for autapse exclusion and
// distinctness, through the private expansion of a projection into its synapse list.

#include "../support/snn_test_support.hpp"

#include "build/connectivity.hpp"

#include <cmath>
#include <set>

namespace volley::snn {
namespace {

constexpr double dt = 0.1;

lif_delta trigger_cell() {
    return lif_delta{{.tau_m_ms = 10, .v_rest_mv = -70, .v_reset_mv = -70, .v_thresh_mv = -55, .t_ref_ms = 0,
                      .i_e_mv = 0}};
}

std::uint64_t synapses_of(const network& net, std::uint64_t seed = 42) {
    simulation sim(net, context{.threads = 2}, {.dt_ms = dt, .seed = seed});
    return sim.stats().synapses;
}

detail::synapse_list expand(const network& net, std::size_t projection, std::uint64_t seed = 42) {
    detail::synapse_list l;
    const auto& p = net.projections()[projection];
    detail::expand_projection(net, projection, seed, dt, 0, net.at(p.target).size, l);
    return l;
}

/// The sources of each target in a synapse list.
std::vector<std::vector<std::uint32_t>> sources_by_target(const detail::synapse_list& l, std::uint32_t n_tgt) {
    std::vector<std::vector<std::uint32_t>> by(n_tgt);
    for (std::size_t k = 0; k < l.size(); ++k) by[l.target[k]].push_back(l.source[k]);
    return by;
}

TEST(all_to_all, makes_n_source_times_n_target_synapses) {
    network net;
    const auto a = net.add_population("a", 7, trigger_cell());
    const auto b = net.add_population("b", 5, trigger_cell());
    net.connect(a, b, all_to_all{});
    EXPECT_EQ(synapses_of(net), 35u);
}

TEST(all_to_all, within_one_population_with_autapses_makes_n_squared) {
    network net;
    const auto a = net.add_population("a", 9, trigger_cell());
    net.connect(a, a, all_to_all{.allow_autapses = true});
    EXPECT_EQ(synapses_of(net), 81u);
}

TEST(all_to_all, without_autapses_makes_n_times_n_minus_1_and_no_self_connection) {
    network net;
    const auto a = net.add_population("a", 9, trigger_cell());
    net.connect(a, a, all_to_all{.allow_autapses = false});
    EXPECT_EQ(synapses_of(net), 72u);
    const auto by = sources_by_target(expand(net, 0), 9);
    for (std::uint32_t j = 0; j < 9; ++j) {
        std::set<std::uint32_t> expected;
        for (std::uint32_t i = 0; i < 9; ++i)
            if (i != j) expected.insert(i);
        EXPECT_EQ(std::set<std::uint32_t>(by[j].begin(), by[j].end()), expected);
        EXPECT_EQ(by[j].size(), 8u);
    }
}

// Sources fire at distinct steps, so each target's spikes name its sources.
TEST(all_to_all, every_target_fires_once_for_every_source_spike) {
    const std::uint32_t n_src = 6, n_tgt = 4;
    std::vector<std::vector<double>> times(n_src);
    for (std::uint32_t i = 0; i < n_src; ++i) times[i] = {1.0 + 0.5 * i};
    network net;
    const auto src = net.add_population("input", n_src, spike_source{times});
    const auto tgt = net.add_population("cells", n_tgt, trigger_cell());
    net.connect(src, tgt, all_to_all{}, {.weight = 100.0, .delay_ms = 0.2});
    simulation sim(net, context{.threads = 2}, {.dt_ms = dt});
    auto rec = sim.record_spikes(tgt);
    sim.run(10);
    std::vector<std::int64_t> expected;
    for (std::uint32_t i = 0; i < n_src; ++i) expected.push_back(10 + 5 * i + 2);
    const auto by = testing::spike_steps_by_neuron(rec);
    for (std::uint32_t j = 0; j < n_tgt; ++j) EXPECT_EQ(by[j], expected) << "target " << j;
}

TEST(one_to_one, source_i_drives_only_target_i) {
    const std::uint32_t n = 8;
    std::vector<std::vector<double>> times(n);
    for (std::uint32_t i = 0; i < n; ++i) times[i] = {1.0 + 0.5 * i};
    network net;
    const auto src = net.add_population("input", n, spike_source{times});
    const auto tgt = net.add_population("cells", n, trigger_cell());
    net.connect(src, tgt, one_to_one{}, {.weight = 100.0, .delay_ms = 0.3});
    simulation sim(net, context{.threads = 2}, {.dt_ms = dt});
    auto rec = sim.record_spikes(tgt);
    sim.run(10);
    EXPECT_EQ(sim.stats().synapses, n);
    const auto by = testing::spike_steps_by_neuron(rec);
    for (std::uint32_t i = 0; i < n; ++i)
        EXPECT_EQ(by[i], (std::vector<std::int64_t>{10 + 5 * static_cast<std::int64_t>(i) + 3})) << "target " << i;
}

// The number of synapses is Binomial(pairs, p); 99.9% two-sided bounds, mean ± 3.3 sd.
TEST(fixed_probability, synapse_count_is_within_binomial_bounds) {
    network net;
    const auto a = net.add_population("a", 1000, trigger_cell());
    const auto b = net.add_population("b", 800, trigger_cell());
    net.connect(a, b, fixed_probability{.p = 0.1});
    const double n = 1000.0 * 800, p = 0.1;
    EXPECT_NEAR(static_cast<double>(synapses_of(net)), n * p, 3.3 * std::sqrt(n * p * (1 - p)));
}

TEST(fixed_probability, without_autapses_count_is_binomial_over_n_times_n_minus_1_and_no_self_connection) {
    network net;
    const auto a = net.add_population("a", 1000, trigger_cell());
    net.connect(a, a, fixed_probability{.p = 0.3, .allow_autapses = false});
    const double n = 1000.0 * 999, p = 0.3;
    EXPECT_NEAR(static_cast<double>(synapses_of(net)), n * p, 3.3 * std::sqrt(n * p * (1 - p)));
    const auto l = expand(net, 0);
    for (std::size_t k = 0; k < l.size(); ++k) ASSERT_NE(l.source[k], l.target[k]);
    // Each target's sources are distinct (no multapses).
    for (const auto& s : sources_by_target(l, 1000)) EXPECT_EQ(std::set<std::uint32_t>(s.begin(), s.end()).size(), s.size());
}

// With autapses allowed, the self pair is drawn like any other: about p·n of them.
TEST(fixed_probability, with_autapses_self_connections_occur_at_rate_p) {
    network net;
    const auto a = net.add_population("a", 2000, trigger_cell());
    net.connect(a, a, fixed_probability{.p = 0.5, .allow_autapses = true});
    const auto l = expand(net, 0);
    std::size_t self = 0;
    for (std::size_t k = 0; k < l.size(); ++k) self += l.source[k] == l.target[k];
    EXPECT_NEAR(static_cast<double>(self), 1000.0, 3.3 * std::sqrt(2000 * 0.25));
}

TEST(fixed_probability, p_zero_makes_none_and_p_one_makes_all) {
    network net;
    const auto a = net.add_population("a", 30, trigger_cell());
    const auto b = net.add_population("b", 20, trigger_cell());
    net.connect(a, b, fixed_probability{.p = 0.0});
    EXPECT_EQ(synapses_of(net), 0u);
    net.connect(a, b, fixed_probability{.p = 1.0});
    EXPECT_EQ(synapses_of(net), 600u);
    net.connect(a, a, fixed_probability{.p = 1.0, .allow_autapses = false});
    EXPECT_EQ(synapses_of(net), 600u + 870u);
}

// Sources fire at distinct steps 10 + 3i, one-step delay: each target spike names one source.
// k spikes per target at k distinct, valid source steps = k distinct sources; a repeated
// source would merge into one spike.
TEST(fixed_in_degree, every_target_gets_exactly_k_distinct_sources) {
    const std::uint32_t n_src = 50, n_tgt = 1000, k = 10;
    std::vector<std::vector<double>> times(n_src);
    for (std::uint32_t i = 0; i < n_src; ++i) times[i] = {(10 + 3 * i) * dt};
    network net;
    const auto src = net.add_population("input", n_src, spike_source{times});
    const auto tgt = net.add_population("cells", n_tgt, trigger_cell());
    net.connect(src, tgt, fixed_in_degree{.k = k}, {.weight = 100.0, .delay_ms = dt});
    simulation sim(net, context{.threads = 2}, {.dt_ms = dt});
    auto rec = sim.record_spikes(tgt);
    sim.run(20);
    EXPECT_EQ(sim.stats().synapses, std::uint64_t{n_tgt} * k);
    std::vector<int> uses(n_src, 0);
    const auto by = testing::spike_steps_by_neuron(rec);
    for (std::uint32_t j = 0; j < n_tgt; ++j) {
        ASSERT_EQ(by[j].size(), k) << "target " << j;
        for (auto s : by[j]) {
            ASSERT_EQ((s - 11) % 3, 0);
            const auto i = (s - 11) / 3;
            ASSERT_TRUE(i >= 0 && i < n_src);
            ++uses[static_cast<std::size_t>(i)];
        }
    }
    // Uniform choice: each source is used Binomial(n_tgt, k/n_src) times. 50 two-sided
    // tests at a joint 99.9% level (Bonferroni): |z| < 4.26; use 4.5.
    const double p = double(k) / n_src, mean = n_tgt * p, sd = std::sqrt(n_tgt * p * (1 - p));
    for (std::uint32_t i = 0; i < n_src; ++i) EXPECT_NEAR(uses[i], mean, 4.5 * sd) << "source " << i;
}

TEST(fixed_in_degree, without_autapses_excludes_self_and_k_equal_n_minus_1_takes_all_others) {
    for (std::uint32_t k : {5u, 29u}) {
        network net;
        const auto a = net.add_population("a", 30, trigger_cell());
        net.connect(a, a, fixed_in_degree{.k = k, .allow_autapses = false});
        EXPECT_EQ(synapses_of(net), 30u * k);
        const auto by = sources_by_target(expand(net, 0), 30);
        for (std::uint32_t j = 0; j < 30; ++j) {
            const std::set<std::uint32_t> s(by[j].begin(), by[j].end());
            EXPECT_EQ(s.size(), k) << "target " << j;
            EXPECT_FALSE(s.contains(j)) << "target " << j;
            EXPECT_LT(*s.rbegin(), 30u);
        }
    }
}

// Pairs with their own weights and delays; a 5 mV input is visible as an exact jump of v.
TEST(from_list, each_pair_gets_its_own_weight_and_delay) {
    network net;
    const auto src = net.add_population("input", 3, spike_source{{{1.0}, {2.0}, {3.0}}});
    const auto tgt = net.add_population("cells", 3, trigger_cell());
    net.connect(src, tgt, from_list{{0, 1, 2, 0}, {2, 0, 2, 0}},
                {.weight = std::vector<double>{100, 100, 100, 5}, .delay_ms = std::vector<double>{0.1, 0.2, 0.3, 0.4}});
    simulation sim(net, context{.threads = 1}, {.dt_ms = dt});
    auto rec = sim.record_spikes(tgt);
    auto v = sim.record_state(tgt, "v_mv", dt, {0});
    sim.run(5);
    EXPECT_EQ(sim.stats().synapses, 4u);
    const auto by = testing::spike_steps_by_neuron(rec);
    EXPECT_EQ(by[0], (std::vector<std::int64_t>{22}));
    EXPECT_TRUE(by[1].empty());
    EXPECT_EQ(by[2], (std::vector<std::int64_t>{11, 33}));
    EXPECT_EQ(v.at(13, 0), -70.0);
    EXPECT_NEAR(v.at(14, 0), -65.0, 1e-9);
}

TEST(from_list, repeated_pair_makes_two_synapses_whose_inputs_add) {
    network net;
    const auto src = net.add_population("input", 1, spike_source{{{1.0}}});
    const auto tgt = net.add_population("cell", 1, trigger_cell());
    net.connect(src, tgt, from_list{{0, 0}, {0, 0}}, {.weight = std::vector<double>{3, 4}, .delay_ms = 0.1});
    simulation sim(net, context{.threads = 1}, {.dt_ms = dt});
    auto v = sim.record_state(tgt, "v_mv", dt);
    sim.run(2);
    EXPECT_EQ(sim.stats().synapses, 2u);
    EXPECT_NEAR(v.at(11, 0), -63.0, 1e-9);
}

/// A random feed-forward network whose raster encodes its connectivity: source i fires alone
/// at step 10 + i, each target fires at (source step + 1) for each of its sources.
std::vector<testing::raster_event> random_wiring_raster(std::uint64_t seed, int threads) {
    const std::uint32_t n_src = 100;
    std::vector<std::vector<double>> times(n_src);
    for (std::uint32_t i = 0; i < n_src; ++i) times[i] = {(10 + i) * dt};
    network net;
    const auto src = net.add_population("input", n_src, spike_source{times});
    const auto tgt = net.add_population("cells", 500, trigger_cell());
    net.connect(src, tgt, fixed_probability{.p = 0.05}, {.weight = 100.0, .delay_ms = dt});
    net.connect(src, tgt, fixed_in_degree{.k = 3}, {.weight = 100.0, .delay_ms = 5.0});
    simulation sim(net, context{.threads = threads}, {.dt_ms = dt, .seed = seed});
    auto rec = sim.record_spikes(tgt);
    sim.run(20);
    return testing::raster({&rec});
}

TEST(random_connectors, same_seed_builds_the_same_network_on_any_thread_count) {
    const auto r1 = random_wiring_raster(5, 1);
    EXPECT_GT(r1.size(), 2000u);
    EXPECT_EQ(random_wiring_raster(5, 1), r1);
    EXPECT_EQ(random_wiring_raster(5, 2), r1);
    EXPECT_EQ(random_wiring_raster(5, 3), r1);
}

TEST(random_connectors, different_seed_builds_a_different_network) {
    EXPECT_NE(random_wiring_raster(5, 2), random_wiring_raster(6, 2));
}

// The streams are keyed by projection: two identical projections draw different synapses.
TEST(random_connectors, identical_projections_draw_independently) {
    network net;
    const auto a = net.add_population("a", 200, trigger_cell());
    const auto b = net.add_population("b", 200, trigger_cell());
    net.connect(a, b, fixed_probability{.p = 0.1});
    net.connect(a, b, fixed_probability{.p = 0.1});
    const auto l0 = expand(net, 0), l1 = expand(net, 1);
    EXPECT_NE(l0.source, l1.source);
}

}  // namespace
}  // namespace volley::snn
