// The projected rank (volley/snn/distributed_context.hpp, bench/mpi/README.md): one rank of N
// run alone, every other rank's spikes mirrored from its own. The mirror is checked against
// positions worked out by hand from the domain cuts, and against the one network whose mirror
// is exact: two identical halves, each driving the other, where rank 0 run alone must fire as
// it does in the whole network.

#include "../support/snn_test_support.hpp"

#include <volley/error.hpp>
#include <volley/snn/distributed_context.hpp>
#include <volley/snn/simulation.hpp>

#include <gtest/gtest.h>

namespace {

namespace vs = volley::snn;

/// E (90) and I (30) integrate; the drive (120 Poisson sources) is drawn by every rank and
/// weighs nothing in the cuts: on 4 ranks each owns 30 of the 120 neurons, the last the drive too.
vs::network drive_and_neurons() {
    vs::network net;
    const auto e = net.add_population("E", 90, vs::lif_exp{});
    const auto i = net.add_population("I", 30, vs::lif_exp{});
    const auto drive = net.add_population("drive", 120, vs::poisson_source{{.rate_hz = 10}});
    net.connect(drive, e, vs::fixed_probability{0.1}, {.weight = 1.0, .delay_ms = 1.0});
    net.connect(e, i, vs::fixed_probability{0.1}, {.weight = 1.0, .delay_ms = 1.0});
    return net;
}

TEST(ProjectedRank, MirrorsItsSpikesOntoTheNeuronsAtTheSamePositionOfEveryOtherDomain) {
    const auto net = drive_and_neurons();
    auto rec = std::make_shared<vs::projection_record>();
    const auto ctx = vs::projected_rank(net, 1, 4, rec);  // owns E[30, 60)
    EXPECT_EQ(ctx.id(), 1);
    EXPECT_EQ(ctx.size(), 4);
    const std::vector<vs::spike_event> local{{7, 30}, {7, 45}, {8, 59}};
    const auto all = ctx.gather_spikes(local);
    ASSERT_EQ(all.partition, (std::vector<std::size_t>{0, 3, 6, 9, 12}));
    // Positions 0, 15 and 29 of each domain: E[0, 30), E[30, 60), E[60, 90), then I (90-119).
    const std::vector<vs::spike_event> expected{{7, 0},  {7, 15}, {8, 29},  {7, 30}, {7, 45},  {8, 59},
                                                {7, 60}, {7, 75}, {8, 89}, {7, 90}, {7, 105}, {8, 119}};
    EXPECT_EQ(all.events, expected);
    EXPECT_EQ(rec->sent_events, std::vector<std::uint64_t>{3});
    EXPECT_EQ(rec->gathered_events, std::vector<std::uint64_t>{12});
    // The other collectives answer as if every rank were this one.
    EXPECT_EQ(ctx.gather_values(std::vector<double>{1.5, 2.5}), (std::vector<double>{1.5, 2.5, 1.5, 2.5, 1.5, 2.5, 1.5, 2.5}));
    EXPECT_EQ(ctx.sum(5), 20);
    EXPECT_EQ(ctx.min(-3), -3);
}

TEST(ProjectedRank, DropsTheSpikesOfPositionsThatASmallerDomainLacks) {
    // 10 integrating neurons on 3 ranks: cuts at 3 and 6, domains of 3, 3 and 4.
    vs::network net;
    net.add_population("N", 10, vs::lif_exp{});
    const auto ctx = vs::projected_rank(net, 2, 3, std::make_shared<vs::projection_record>());
    const auto all = ctx.gather_spikes(std::vector<vs::spike_event>{{1, 6}, {1, 9}});
    EXPECT_EQ(all.partition, (std::vector<std::size_t>{0, 1, 2, 4}));
    EXPECT_EQ(all.events, (std::vector<vs::spike_event>{{1, 0}, {1, 3}, {1, 6}, {1, 9}}));
}

TEST(ProjectedRank, RefusesRanksOutOfRangeAndANullRecord) {
    const auto net = drive_and_neurons();
    auto rec = std::make_shared<vs::projection_record>();
    EXPECT_THROW(vs::projected_rank(net, 0, 0, rec), volley::invalid_parameter);
    EXPECT_THROW(vs::projected_rank(net, 4, 4, rec), volley::invalid_parameter);
    EXPECT_THROW(vs::projected_rank(net, -1, 4, rec), volley::invalid_parameter);
    EXPECT_THROW(vs::projected_rank(net, 0, 4, nullptr), volley::invalid_parameter);
}

/// Two identical halves A and B (the same initial potentials, inhibition within each, each
/// exciting the other all to all): B fires as A does, so mirroring A's spikes as B's is exact.
vs::network mirrored_halves(bool b_drives_a) {
    vs::network net;
    std::vector<double> v0;
    for (int k = 0; k < 40; ++k) v0.push_back(-60 + 0.25 * k);
    vs::lif_exp model;
    model.p.v_rest_mv = -48;  // above threshold: every neuron fires on its own
    const auto a = net.add_population("A", 40, model);
    const auto b = net.add_population("B", 40, model);
    net.initialise(a, "v_mv", v0);
    net.initialise(b, "v_mv", v0);
    for (const auto p : {a, b}) net.connect(p, p, vs::all_to_all{false}, {.weight = -0.4, .delay_ms = 1.0, .receptor = vs::inhibitory});
    net.connect(a, b, vs::all_to_all{}, {.weight = 0.3, .delay_ms = 1.0});
    if (b_drives_a) net.connect(b, a, vs::all_to_all{}, {.weight = 0.3, .delay_ms = 1.0});
    return net;
}

std::vector<std::pair<std::int64_t, std::uint32_t>> raster_of_a(const vs::network& net, const vs::distributed_context& d) {
    vs::context ctx{.threads = 1};
    ctx.distributed = d;
    vs::simulation sim(net, ctx, {});
    auto rec = sim.record_spikes({0});
    sim.run(300);
    std::vector<std::pair<std::int64_t, std::uint32_t>> out;
    for (std::size_t k = 0; k < rec.size(); ++k) out.emplace_back(rec.steps()[k], rec.node_ids()[k]);
    std::sort(out.begin(), out.end());
    return out;
}

TEST(ProjectedRank, RunAloneFiresAsInTheWholeNetworkWhenTheOtherRankIsItsMirror) {
    const auto net = mirrored_halves(true);
    const auto whole = raster_of_a(net, vs::local_context());
    ASSERT_GT(whole.size(), 100u) << "A must be active for the comparison to mean anything";
    auto rec = std::make_shared<vs::projection_record>();
    const auto alone = raster_of_a(net, vs::projected_rank(net, 0, 2, rec));  // rank 0 owns A
    EXPECT_EQ(alone, whole);
    // B's input matters: without it A fires otherwise, so the mirror is what made them equal.
    EXPECT_NE(raster_of_a(mirrored_halves(false), vs::local_context()), whole);
    ASSERT_FALSE(rec->gathered_events.empty());
    std::uint64_t sent = 0, gathered = 0;
    for (std::size_t e = 0; e < rec->gathered_events.size(); ++e) {
        sent += rec->sent_events[e];
        gathered += rec->gathered_events[e];
    }
    EXPECT_EQ(sent, whole.size()) << "rank 0 sends each of A's spikes once";
    EXPECT_EQ(gathered, 2 * sent) << "and receives B's as many";
}

}  // namespace
