// The lowering's synapse plan (snn/src/lowering/synapse_plan.hpp): row sizes, table shapes,
// fixed-point scales and delays, worked out by hand for small networks, and the property every
// engine relies on: the scales and delays do not depend on how the targets are split into parts
// (threads, ranks, GPU blocks), and the parts' rows add up to the whole network's.

#include "../support/snn_test_support.hpp"

#include "lowering/lowered_network.hpp"
#include "lowering/synapse_plan.hpp"

#include <volley/error.hpp>
#include <volley/snn/distributed_context.hpp>

#include <gtest/gtest.h>

#include <cmath>
#include <functional>
#include <mutex>

namespace {

namespace vs = volley::snn;
namespace vd = volley::snn::detail;
using vs::testing::throws_naming;

void in_order(int parts, const std::function<void(int)>& body) {
    for (int k = 0; k < parts; ++k) body(k);
}

vd::synapse_plan plan(const vs::network& net, std::vector<std::uint32_t> bounds) {
    return vd::plan_synapses(net, {.dt_ms = 0.1, .seed = 7}, bounds, vs::local_context(), in_order);
}

TEST(synapse_plan, rows_shapes_scales_and_delays_of_a_small_network) {
    vs::network net;
    const auto in = net.add_population("in", 6, vs::poisson_source{{.rate_hz = 10}});
    const auto exc = net.add_population("exc", 8, vs::lif_exp{});
    const auto inh = net.add_population("inh", 4, vs::lif_exp{});
    net.connect(in, exc, vs::all_to_all{}, {.weight = 3.0, .delay_ms = 0.3});
    net.connect(exc, inh, vs::all_to_all{}, {.weight = 0.7, .delay_ms = 0.0});
    const auto p = plan(net, {0, 18});
    ASSERT_EQ(p.tables.size(), 1u);
    ASSERT_EQ(p.tables[0].size(), 2u * 9);
    // in -> exc: key 0·3 + 1, every source reaches the 8 targets, one receptor, delay 3 steps.
    const auto& t = p.tables[0][1];
    EXPECT_EQ(t.row_sizes, std::vector<std::uint32_t>(6, 8));
    EXPECT_TRUE(t.shape.uniform);
    EXPECT_EQ(t.shape.delay, 3u);
    EXPECT_EQ(t.shape.weight, 3.0);
    // exc -> inh has zero delay: key 9 + 1·3 + 2, its own table, stored with delay 1.
    EXPECT_EQ(p.tables[0][14].row_sizes, std::vector<std::uint32_t>(8, 4));
    EXPECT_EQ(p.tables[0][14].shape.delay, 1u);
    for (std::size_t k = 0; k < 18; ++k)
        if (k != 1 && k != 14) {
            EXPECT_TRUE(p.tables[0][k].row_sizes.empty()) << "key " << k;
        }
    // 3 = 0.75 · 2^2, so 3 · 2^28 < 2^30: exponent 28; 0.7 < 2^0: exponent 30; no weight: 30.
    EXPECT_EQ(p.to_fixed[1 * 2 + 0], std::ldexp(1.0, 28));
    EXPECT_EQ(p.scale[1 * 2 + 0], std::ldexp(1.0, -28));
    EXPECT_EQ(p.to_fixed[2 * 2 + 0], std::ldexp(1.0, 30));
    EXPECT_EQ(p.to_fixed[1 * 2 + 1], std::ldexp(1.0, 30));
    // The zero-delay table counts for neither the shortest nor the longest delay.
    EXPECT_EQ(p.min_delay, 3u);
    EXPECT_EQ(p.max_delay, 3u);
}

TEST(synapse_plan, plastic_bounds_and_structured_projections_set_scales_and_delays) {
    vs::network net;
    const auto in = net.add_population("in", 4, vs::poisson_source{{.rate_hz = 10}});
    const auto out = net.add_population("out", 4, vs::lif_exp{});
    // The initial weight is 0.5, but the rule may grow it to 8 = 0.5 · 2^4: exponent 26.
    net.connect(in, out, vs::one_to_one{},
                {.weight = 0.5, .delay_ms = 0.2, .plasticity = vs::stdp_pair{.w_min = 0, .w_max = 8}});
    // A 2x2 convolution of in (1x2x2) onto conv (1x1x1), largest |kernel| 5 = 0.625 · 2^3:
    // exponent 27; then a gate from conv onto pooled with weight 20 = 0.625 · 2^5: exponent 25.
    const auto conv = net.add_population("conv", 1, vs::lif_exp{});
    const auto pooled = net.add_population("pooled", 1, vs::lif_exp{});
    net.connect(in, conv,
                vs::convolution{.in_channels = 1, .in_height = 2, .in_width = 2, .out_channels = 1, .kernel_height = 2,
                                .kernel_width = 2, .kernel = {1, -5, 2, 0.5}},
                {.weight = 1.0, .delay_ms = 0.7});
    net.connect(conv, pooled, vs::max_pool_gate{.pool_h = 1, .pool_w = 1, .stride_h = 1, .stride_w = 1},
                {.weight = -20.0, .delay_ms = 0.0});
    const auto p = plan(net, {0, 10});
    EXPECT_EQ(p.to_fixed[1 * 2 + 0], std::ldexp(1.0, 26));
    EXPECT_EQ(p.to_fixed[2 * 2 + 0], std::ldexp(1.0, 27));
    EXPECT_EQ(p.to_fixed[3 * 2 + 0], std::ldexp(1.0, 25));
    for (const auto& t : p.tables[0])  // a plastic projection keeps a table of its own; the others keep none
        EXPECT_TRUE(t.row_sizes.empty());
    EXPECT_EQ(p.structured_delay, (std::vector<std::uint32_t>{0, 7, 0}));
    EXPECT_EQ(p.min_delay, 2u);
    EXPECT_EQ(p.max_delay, 7u);
}

TEST(synapse_plan, scales_and_delays_do_not_depend_on_the_parts_and_rows_add_up) {
    vs::network net;
    const auto in = net.add_population("in", 40, vs::poisson_source{{.rate_hz = 10}});
    const auto exc = net.add_population("exc", 50, vs::lif_exp{});
    const auto inh = net.add_population("inh", 30, vs::lif_exp{});
    net.connect(in, exc, vs::fixed_probability{0.3}, {.weight = vs::normal{1.0, 0.6}, .delay_ms = vs::uniform{0.1, 0.9}});
    net.connect(exc, inh, vs::fixed_probability{0.2}, {.weight = vs::uniform{0.1, 2.9}, .delay_ms = 0.4});
    net.connect(inh, exc, vs::fixed_probability{0.5},
                {.weight = vs::normal{1.5, 1.0}, .delay_ms = 0.2, .receptor = vs::inhibitory});
    const std::uint32_t N = 120;
    const auto whole = plan(net, {0, N});
    for (const auto& bounds : std::vector<std::vector<std::uint32_t>>{{0, 60, N}, {0, 45, 91, N}, {0, 40, 41, 100, N}}) {
        const auto split = plan(net, bounds);
        EXPECT_EQ(split.to_fixed, whole.to_fixed);
        EXPECT_EQ(split.min_delay, whole.min_delay);
        EXPECT_EQ(split.max_delay, whole.max_delay);
        for (std::size_t key = 0; key < whole.tables[0].size(); ++key) {
            std::vector<std::uint32_t> sum(whole.tables[0][key].row_sizes.size(), 0);
            for (const auto& part : split.tables)
                for (std::size_t i = 0; i < part[key].row_sizes.size() && i < sum.size(); ++i)
                    sum[i] += part[key].row_sizes[i];
            EXPECT_EQ(sum, whole.tables[0][key].row_sizes) << "key " << key << ", " << bounds.size() - 1 << " parts";
        }
    }
    EXPECT_EQ(whole.min_delay, 1u);  // uniform{0.1, 0.9} ms reaches one step
    EXPECT_LE(whole.max_delay, 9u);
    EXPECT_GE(whole.max_delay, 8u);
}

TEST(synapse_plan, a_delay_below_one_step_is_refused_naming_the_projection) {
    vs::network net;
    const auto in = net.add_population("in", 4, vs::poisson_source{{.rate_hz = 10}});
    const auto out = net.add_population("out", 4, vs::lif_exp{});
    net.connect(in, out, vs::one_to_one{}, {.weight = 1.0, .delay_ms = 0.04});
    EXPECT_TRUE(throws_naming<volley::invalid_parameter>([&] { plan(net, {0, 8}); }, {"'in' -> 'out'", "0.04"}));
}

TEST(lowering, every_imitated_rank_agrees_on_the_scales_of_the_whole_network) {
    // exc's weights stay below 1 (exponent 30) while inh's reach 6 = 0.75 · 2^3 (exponent 27):
    // the exponent onto out's receptor is the smallest over both, on every rank, even on a rank
    // that owns none of inh's targets.
    vs::network net;
    const auto exc = net.add_population("exc", 20, vs::poisson_source{{.rate_hz = 10}});
    const auto out_a = net.add_population("out_a", 30, vs::lif_exp{});
    const auto out_b = net.add_population("out_b", 30, vs::lif_exp{});
    net.connect(exc, out_a, vs::fixed_probability{0.5}, {.weight = vs::uniform{0.1, 0.9}, .delay_ms = 0.2});
    net.connect(exc, out_b, vs::fixed_probability{0.5}, {.weight = 6.0, .delay_ms = 0.2});
    const auto one = vd::lower(net, {.dt_ms = 0.1, .seed = 3}, vs::local_context(), 2, in_order);
    EXPECT_EQ(one.part_bounds, (std::vector<std::uint32_t>{0, 40, 80}));
    EXPECT_EQ(one.synapses.to_fixed[2 * 2], std::ldexp(1.0, 27));
    std::mutex m;
    std::vector<vd::lowered_network> ranks(4);
    vs::dry_run(4, [&](const vs::distributed_context& dist) {
        auto low = vd::lower(net, {.dt_ms = 0.1, .seed = 3}, dist, 2, in_order);
        const std::lock_guard lock(m);
        ranks[static_cast<std::size_t>(dist.id())] = std::move(low);
    });
    for (std::size_t r = 0; r < ranks.size(); ++r) {
        EXPECT_EQ(ranks[r].rank_bounds, ranks[0].rank_bounds);
        EXPECT_EQ(ranks[r].part_bounds.front(), ranks[r].rank_bounds[r]) << "rank " << r;
        EXPECT_EQ(ranks[r].part_bounds.back(), ranks[r].rank_bounds[r + 1]) << "rank " << r;
        EXPECT_EQ(ranks[r].synapses.to_fixed, one.synapses.to_fixed) << "rank " << r;
        EXPECT_EQ(ranks[r].direct, one.direct);
    }
}

TEST(lowering, each_rank_draws_the_drive_of_its_own_neurons_and_one_rank_records_each_source) {
    // A drive of one Poisson source per neuron (one_to_one, as hpc_benchmark's), a Poisson
    // population feeding every neuron, and a spike array that nothing reads.
    vs::network net;
    const auto e = net.add_population("e", 100, vs::lif_exp{});
    const auto drive = net.add_population("drive", 100, vs::poisson_source{{.rate_hz = 1000}});
    const auto shared = net.add_population("shared", 10, vs::poisson_source{{.rate_hz = 5}});
    net.add_population("unread", 6, vs::spike_source{{{1.0}, {}, {2.0}, {}, {}, {3.0}}});
    net.connect(drive, e, vs::one_to_one{}, {.weight = 1.0, .delay_ms = 1.5});
    net.connect(shared, e, vs::all_to_all{}, {.weight = 0.5, .delay_ms = 1.5});
    const auto one = vd::lower(net, {.dt_ms = 0.1, .seed = 3}, vs::local_context(), 1, in_order);
    EXPECT_EQ(one.sources.replicated, (std::vector<std::uint8_t>{0, 0, 0, 0})) << "one rank exchanges nothing";
    std::mutex m;
    std::vector<vd::lowered_network> ranks(2);
    vs::dry_run(2, [&](const vs::distributed_context& dist) {
        auto low = vd::lower(net, {.dt_ms = 0.1, .seed = 3}, dist, 1, in_order);
        const std::lock_guard lock(m);
        ranks[static_cast<std::size_t>(dist.id())] = std::move(low);
    });
    // The 100 neurons are shared (the sources do not count): rank 0 owns e[0, 50), rank 1 the
    // rest and every source.
    EXPECT_EQ(ranks[0].rank_bounds, (std::vector<std::uint32_t>{0, 50, 216}));
    using range = std::pair<std::uint32_t, std::uint32_t>;
    for (std::size_t r = 0; r < 2; ++r) {
        EXPECT_EQ(ranks[r].sources.replicated, (std::vector<std::uint8_t>{0, 1, 1, 1}));
        EXPECT_EQ(ranks[r].sources.generate[1], (range{static_cast<std::uint32_t>(50 * r), static_cast<std::uint32_t>(50 * r + 50)}))
            << "rank " << r << " draws the drive of its own neurons";
        EXPECT_EQ(ranks[r].sources.generate[2], (range{0, 10})) << "both need every shared source";
    }
    EXPECT_EQ(ranks[0].sources.generate[3], (range{0, 0})) << "nobody needs the array; its owner draws it";
    EXPECT_EQ(ranks[1].sources.generate[3], (range{0, 6}));
    // Each source neuron is recorded by exactly one rank: the lowest that needs it, else its owner.
    for (std::size_t p = 1; p < 4; ++p)
        for (std::size_t i = 0; i < net.populations()[p].size; ++i)
            EXPECT_EQ(ranks[0].sources.recorded[p][i] + ranks[1].sources.recorded[p][i], 1) << "population " << p << " neuron " << i;
    EXPECT_EQ(ranks[0].sources.recorded[2], std::vector<std::uint8_t>(10, 1)) << "rank 0 needs the shared ones first";
}

}  // namespace
