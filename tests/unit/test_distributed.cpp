// The distributed context (docs/engine.md, "Epochs and ranks"): a network run on 2, 4 and 8
// ranks imitated by dry_run(), each owning its share of the neurons and exchanging spikes per
// epoch, gives the raster of the same network on one rank, spike for spike (CUBA with one-step
// delays, COBA's ODE neurons, Poisson input onto plastic synapses with delays of several steps,
// a chain of zero-delay projections, several threads per rank). The domain decomposition cuts
// near equal shares and never inside a chain of zero-delay projections; a failing rank stops
// the others instead of leaving them waiting.

#include "../support/distributed_test_networks.hpp"
#include "../support/snn_test_support.hpp"

#include "lowering/domain_decomposition.hpp"

#include <volley/error.hpp>
#include <volley/snn/distributed_context.hpp>
#include <volley/snn/simulation.hpp>
#include <volley/snn/standard_networks.hpp>

#include <gtest/gtest.h>

#include <mutex>
#include <optional>

namespace {

namespace vs = volley::snn;
using vs::testing::raster_event;
using vs::testing::throws_naming;

struct run_result {
    std::vector<raster_event> spikes;  ///< every population's, sorted
    std::uint64_t spike_count = 0;     ///< stats().spikes, summed over the ranks
    std::vector<vs::projection_weights> weights;  ///< of the plastic projections, per rank appended
};

/// Records every population of `sim`, runs it for `ms` and appends what it recorded to `out`.
void run_and_collect(vs::simulation& sim, double ms, run_result& out, std::mutex& m) {
    std::vector<vs::spike_recorder> recs;
    for (std::uint32_t p = 0; p < sim.model().populations().size(); ++p) recs.push_back(sim.record_spikes({p}));
    sim.run(ms);
    std::lock_guard lock(m);
    for (const auto& rec : recs)
        for (std::size_t i = 0; i < rec.size(); ++i)
            out.spikes.push_back({rec.steps()[i], rec.data().first_neuron + rec.node_ids()[i]});
    out.spike_count += sim.stats().spikes;
}

run_result run_local(const vs::network& net, double ms, int threads) {
    run_result out;
    std::mutex m;
    vs::simulation sim(net, {.threads = threads}, {});
    run_and_collect(sim, ms, out, m);
    std::sort(out.spikes.begin(), out.spikes.end());
    return out;
}

run_result run_ranks(const vs::network& net, double ms, int ranks, int threads) {
    run_result out;
    std::mutex m;
    vs::dry_run(ranks, [&](const vs::distributed_context& rank) {
        vs::context ctx{.threads = threads};
        ctx.distributed = rank;
        vs::simulation sim(net, ctx, {});
        run_and_collect(sim, ms, out, m);
    });
    std::sort(out.spikes.begin(), out.spikes.end());
    return out;
}

void expect_same_raster_on_ranks(const vs::network& net, double ms, int threads = 1) {
    const auto one = run_local(net, ms, 1);
    ASSERT_GT(one.spikes.size(), 100u) << "the network must be active for the comparison to mean anything";
    for (const int ranks : {1, 2, 4, 8}) {
        const auto many = run_ranks(net, ms, ranks, threads);
        EXPECT_EQ(many.spikes.size(), one.spikes.size()) << ranks << " ranks";
        EXPECT_TRUE(many.spikes == one.spikes) << ranks << " ranks of " << threads << " threads: another raster";
        EXPECT_EQ(many.spike_count, one.spike_count) << "each rank counts the spikes of its own neurons";
    }
}

/// Poisson input through two zero-delay projections (in -> a -> b: one compound unit) with a
/// delayed projection back from b to a, beside a population the ranks may cut.
vs::network zero_delay_chain() {
    vs::network net;
    const auto free = net.add_population("free", 400, vs::poisson_source{{.rate_hz = 30}});
    const auto in = net.add_population("in", 200, vs::poisson_source{{.rate_hz = 40}});
    const auto a = net.add_population("a", 100, vs::lif_exp{});
    const auto b = net.add_population("b", 100, vs::lif_exp{});
    const auto c = net.add_population("c", 300, vs::lif_exp{});
    net.connect(in, a, vs::fixed_probability{0.2}, {.weight = 3.0, .delay_ms = 0.0});
    net.connect(a, b, vs::fixed_probability{0.3}, {.weight = 4.0, .delay_ms = 0.0});
    net.connect(b, a, vs::fixed_probability{0.1}, {.weight = -2.0, .delay_ms = 1.0, .receptor = vs::inhibitory});
    net.connect(free, c, vs::fixed_probability{0.1}, {.weight = 2.5, .delay_ms = 0.7});
    net.connect(b, c, vs::fixed_probability{0.1}, {.weight = 2.0, .delay_ms = 0.2});
    return net;
}

TEST(distributed, relayed_spikes_with_delays_of_several_steps_arrive_on_time_on_any_rank_count) {
    expect_same_raster_on_ranks(vs::testing::relay_chain(), 200);
}

TEST(distributed, cuba_on_imitated_ranks_gives_the_one_rank_raster) {
    expect_same_raster_on_ranks(vs::cuba_network(4000), 100);
}

TEST(distributed, cuba_with_steps_in_pairs_on_imitated_ranks_gives_the_one_rank_raster) {
    // Pairs of steps add the spikes of step s - 2 before the pair: on several ranks those must
    // have been exchanged first, so ranks take single steps (step_pairs = always forces pairs
    // wherever they are allowed, whatever the size).
    const auto net = vs::cuba_network(4000);
    const vs::simulation_options pairs{.step_pairs = vs::step_pairing::always};
    run_result one;
    std::mutex m;
    {
        vs::simulation sim(net, {.threads = 1}, pairs);
        run_and_collect(sim, 100, one, m);
    }
    std::sort(one.spikes.begin(), one.spikes.end());
    run_result many;
    vs::dry_run(2, [&](const vs::distributed_context& rank) {
        vs::context ctx{.threads = 1};
        ctx.distributed = rank;
        vs::simulation sim(net, ctx, pairs);
        run_and_collect(sim, 100, many, m);
    });
    std::sort(many.spikes.begin(), many.spikes.end());
    ASSERT_GT(one.spikes.size(), 100u);
    EXPECT_TRUE(many.spikes == one.spikes) << "2 ranks with step_pairs = always: another raster";
}

TEST(distributed, coba_ode_neurons_on_imitated_ranks_give_the_one_rank_raster) {
    expect_same_raster_on_ranks(vs::coba_network(1000), 100);
}

TEST(distributed, plastic_network_with_long_delays_gives_the_same_raster_and_weights) {
    const auto net = vs::testing::plastic_delayed_network();
    expect_same_raster_on_ranks(net, 300);
    // The weights each rank learnt, for the targets it owns, are those of one rank.
    vs::simulation one(net, {.threads = 1}, {});
    one.run(300);
    const auto expected = one.weights(0);
    std::vector<std::tuple<std::uint32_t, std::uint32_t, double>> local, joined;
    for (std::size_t i = 0; i < expected.size(); ++i)
        local.emplace_back(expected.targets[i], expected.sources[i], expected.weights[i]);
    std::mutex m;
    vs::dry_run(4, [&](const vs::distributed_context& rank) {
        vs::context ctx{.threads = 1};
        ctx.distributed = rank;
        vs::simulation sim(net, ctx, {});
        sim.run(300);
        const auto w = sim.weights(0);
        std::lock_guard lock(m);
        for (std::size_t i = 0; i < w.size(); ++i) joined.emplace_back(w.targets[i], w.sources[i], w.weights[i]);
    });
    std::sort(local.begin(), local.end());
    std::sort(joined.begin(), joined.end());
    ASSERT_EQ(joined.size(), local.size());
    EXPECT_TRUE(joined == local) << "plastic weights differ between 1 and 4 ranks";
}

TEST(distributed, zero_delay_chain_stays_on_one_rank_and_gives_the_same_raster) {
    expect_same_raster_on_ranks(zero_delay_chain(), 200);
}

TEST(distributed, two_threads_per_rank_give_the_same_raster) {
    expect_same_raster_on_ranks(vs::testing::plastic_delayed_network(), 200, 2);
    expect_same_raster_on_ranks(vs::cuba_network(2000), 100, 2);
}

TEST(distributed, every_rank_quantises_weights_as_one_process_does) {
    // Targets 0-49 receive weights of 0.7, targets 50-99 weights of 1.5 (0.7 rounds differently at 2^-30 and 2^-29): on 2 ranks the first
    // rank's share of the weights stays below 1, the second's does not. The fixed-point scale
    // must still be the one of the largest weight over all, or the first rank's sums (and so
    // its membrane potentials) differ from one process's in their last bits.
    vs::network net;
    const auto in = net.add_population("in", 50, vs::poisson_source{{.rate_hz = 40}});
    const auto out = net.add_population("out", 100, vs::lif_exp{});
    vs::from_list pairs;
    std::vector<double> weights;
    for (std::uint32_t t = 0; t < 100; ++t)
        for (std::uint32_t s = 0; s < 50; s += 5) {
            pairs.sources.push_back(s);
            pairs.targets.push_back(t);
            weights.push_back(t < 50 ? 0.7 : 1.5);
        }
    net.connect(in, out, pairs, {.weight = weights, .delay_ms = 0.5});
    auto v_of_neuron_0 = [&](const vs::context& ctx, bool record) {
        vs::simulation sim(net, ctx, {});
        std::optional<vs::state_recorder> v;
        if (record) v = sim.record_state(out, "v_mv", 0.1, {0});
        sim.run(100);
        return v ? v->data().values : std::vector<double>{};
    };
    const auto expected = v_of_neuron_0({.threads = 1}, true);
    std::vector<double> got;
    vs::dry_run(2, [&](const vs::distributed_context& rank) {
        vs::context ctx{.threads = 1};
        ctx.distributed = rank;
        auto v = v_of_neuron_0(ctx, rank.id() == 0);  // neuron 0 of `out` is global 50, on rank 0
        if (rank.id() == 0) got = std::move(v);
    });
    ASSERT_EQ(got.size(), expected.size());
    EXPECT_TRUE(got == expected) << "rank 0's membrane potential differs from one process's";
}

TEST(distributed, domain_decomposition_cuts_equal_shares_outside_compound_units) {
    // Without zero-delay projections the cuts are the equal shares.
    const auto cuba = vs::cuba_network(4000);
    EXPECT_EQ(vs::detail::rank_bounds(cuba, 4), (std::vector<std::uint32_t>{0, 1000, 2000, 3000, 4000}));
    EXPECT_EQ(vs::detail::rank_bounds(cuba, 3), (std::vector<std::uint32_t>{0, 1333, 2666, 4000}));
    // free [0, 400), in [400, 600) (Poisson sources, not counted), a [600, 700), b [700, 800),
    // c [800, 1100): 500 neurons to share. in, a and b are one unit, so no cut lies in
    // (400, 800); the nearest allowed boundary wins. Two ranks: 250 neurons each, the cut in c.
    const auto chain = zero_delay_chain();
    EXPECT_EQ(vs::detail::rank_bounds(chain, 2), (std::vector<std::uint32_t>{0, 850, 1100}));
    // Four: 125 neurons each; the first cut would fall in b (id 725), and moves to 800.
    EXPECT_EQ(vs::detail::rank_bounds(chain, 4), (std::vector<std::uint32_t>{0, 800, 850, 975, 1100}));
    // A Poisson drive of one source per neuron after the neurons (hpc_benchmark): the neurons
    // are shared, the drive goes with the last rank.
    const auto hpc = vs::hpc_benchmark_network({.scale = 0.2, .in_degree_scale = 0.01});  // 1800 E, 450 I, 2250 drive
    EXPECT_EQ(vs::detail::rank_bounds(hpc, 2), (std::vector<std::uint32_t>{0, 1125, 4500}));
    // Only sources: the neurons count as they are.
    vs::network sources;
    sources.add_population("s", 100, vs::poisson_source{{.rate_hz = 5}});
    EXPECT_EQ(vs::detail::rank_bounds(sources, 2), (std::vector<std::uint32_t>{0, 50, 100}));
    // More ranks than neurons: some own nothing.
    EXPECT_EQ(vs::detail::rank_bounds(chain, 1), (std::vector<std::uint32_t>{0, 1100}));
    const auto bounds = vs::detail::rank_bounds(chain, 2000);
    EXPECT_EQ(bounds.size(), 2001u);
    EXPECT_TRUE(std::is_sorted(bounds.begin(), bounds.end()));
}

TEST(distributed, a_failing_rank_stops_the_others_and_its_error_is_rethrown) {
    const auto net = vs::cuba_network(1000);
    EXPECT_TRUE(throws_naming<volley::invalid_parameter>(
        [&] {
            vs::dry_run(4, [&](const vs::distributed_context& rank) {
                if (rank.id() == 2) throw volley::invalid_parameter("rank 2", "test", "1", "fails on purpose");
                vs::context ctx{.threads = 1};
                ctx.distributed = rank;
                vs::simulation sim(net, ctx, {});  // waits in the collective epoch length
                sim.run(10);
            });
        },
        {"rank 2", "fails on purpose"}));
    EXPECT_TRUE(throws_naming<volley::invalid_parameter>([] { vs::dry_run(0, [](const vs::distributed_context&) {}); },
                                                     {"ranks", "0"}));
    // Ranks that make different collective calls (here: runs of different lengths) would wait
    // for each other forever under MPI; the dry run says which rank left.
    EXPECT_TRUE(throws_naming<volley::error>(
        [&] {
            vs::dry_run(2, [&](const vs::distributed_context& rank) {
                vs::context ctx{.threads = 1};
                ctx.distributed = rank;
                vs::simulation sim(net, ctx, {});
                sim.run(rank.id() == 0 ? 5.0 : 10.0);
            });
        },
        {"rank 0 returned while another waits in a collective call"}));
}

TEST(distributed, a_rank_records_the_state_of_its_own_neurons_only) {
    const auto net = vs::cuba_network(1000);
    std::mutex m;
    std::vector<int> refused(2, 0);
    vs::dry_run(2, [&](const vs::distributed_context& rank) {
        vs::context ctx{.threads = 1};
        ctx.distributed = rank;
        vs::simulation sim(net, ctx, {});
        // Rank 0 owns global neurons [0, 500): neuron 10 of population 0 (exc, 800 neurons).
        try {
            sim.record_state({0}, "v_mv", 1.0, {10});
        } catch (const volley::invalid_parameter& e) {
            std::lock_guard lock(m);
            refused[static_cast<std::size_t>(rank.id())] = std::string(e.what()).find("[500, 1000)") != std::string::npos;
        }
        sim.run(5);
    });
    EXPECT_EQ(refused, (std::vector<int>{0, 1}));
}

TEST(distributed, local_context_is_one_rank) {
    const auto ctx = vs::local_context();
    EXPECT_EQ(ctx.id(), 0);
    EXPECT_EQ(ctx.size(), 1);
    const std::vector<vs::spike_event> spikes{{3, 7}, {4, 1}};
    const auto all = ctx.gather_spikes(spikes);
    EXPECT_EQ(all.events, spikes);
    EXPECT_EQ(all.partition, (std::vector<std::size_t>{0, 2}));
    EXPECT_EQ(ctx.min(5), 5);
}

}  // namespace
