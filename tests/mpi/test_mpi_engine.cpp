// The engine on MPI ranks (docs/engine.md, "Epochs and ranks"): run under mpirun with 1-4
// ranks (tests/mpi/mpi.cmake), every rank simulates its domain of a network with
// mpi_world_context() on 1 and 2 threads; the ranks' spikes, gathered here with plain MPI
// (not with the context under test), must equal the raster of the same network simulated in
// one process on one thread, spike for spike. Networks: CUBA (one-step delays, the direct
// path), COBA (ODE neurons), Poisson input onto plastic synapses with delays of several steps,
// and a relay whose strong synapses make any late delivery visible.

#include "../support/distributed_test_networks.hpp"

#include <volley/error.hpp>
#include <volley/snn/distributed_context.hpp>
#include <volley/snn/simulation.hpp>
#include <volley/snn/standard_networks.hpp>

#include <gtest/gtest.h>
#include <mpi.h>

#include <algorithm>
#include <cstdint>
#include <vector>

namespace {

namespace vs = volley::snn;

int world_rank() {
    int r = 0;
    MPI_Comm_rank(MPI_COMM_WORLD, &r);
    return r;
}

/// (step, global id) of every spike this process recorded, sorted.
std::vector<std::int64_t> run_here(const vs::network& net, const vs::context& ctx, double ms) {
    vs::simulation sim(net, ctx, {});
    std::vector<vs::spike_recorder> recs;
    for (std::uint32_t p = 0; p < net.populations().size(); ++p) recs.push_back(sim.record_spikes({p}));
    sim.run(ms);
    std::vector<std::int64_t> flat;  // step * 2^32 + neuron
    for (const auto& rec : recs)
        for (std::size_t i = 0; i < rec.size(); ++i)
            flat.push_back(rec.steps()[i] * (std::int64_t{1} << 32) + rec.data().first_neuron + rec.node_ids()[i]);
    std::sort(flat.begin(), flat.end());
    return flat;
}

/// Every rank's spikes, with MPI_Allgatherv.
std::vector<std::int64_t> all_ranks(const std::vector<std::int64_t>& mine) {
    int ranks = 1;
    MPI_Comm_size(MPI_COMM_WORLD, &ranks);
    const int n = static_cast<int>(mine.size());
    std::vector<int> counts(static_cast<std::size_t>(ranks)), offsets(static_cast<std::size_t>(ranks), 0);
    MPI_Allgather(&n, 1, MPI_INT, counts.data(), 1, MPI_INT, MPI_COMM_WORLD);
    for (int r = 1; r < ranks; ++r)
        offsets[static_cast<std::size_t>(r)] = offsets[static_cast<std::size_t>(r) - 1] + counts[static_cast<std::size_t>(r) - 1];
    std::vector<std::int64_t> all(static_cast<std::size_t>(offsets.back() + counts.back()));
    MPI_Allgatherv(mine.data(), n, MPI_INT64_T, all.data(), counts.data(), offsets.data(), MPI_INT64_T, MPI_COMM_WORLD);
    std::sort(all.begin(), all.end());
    return all;
}

void expect_raster_of_one_process(const vs::network& net, double ms) {
    const auto expected = run_here(net, {.threads = 1}, ms);
    ASSERT_GT(expected.size(), 100u) << "the network must be active for the comparison to mean anything";
    for (const int threads : {1, 2}) {
        vs::context ctx{.threads = threads};
        ctx.distributed = vs::mpi_world_context();
        const auto got = all_ranks(run_here(net, ctx, ms));
        EXPECT_EQ(got.size(), expected.size()) << threads << " threads per rank";
        EXPECT_TRUE(got == expected) << "rank " << world_rank() << ", " << threads
                                     << " threads per rank: another raster than one process";
    }
}

TEST(mpi_engine, cuba_gives_the_raster_of_one_process) { expect_raster_of_one_process(vs::cuba_network(4000), 100); }

TEST(mpi_engine, coba_gives_the_raster_of_one_process) { expect_raster_of_one_process(vs::coba_network(1000), 50); }

TEST(mpi_engine, plastic_synapses_with_long_delays_give_the_raster_of_one_process) {
    expect_raster_of_one_process(vs::testing::plastic_delayed_network(), 300);
}

TEST(mpi_engine, relayed_spikes_arrive_on_time) { expect_raster_of_one_process(vs::testing::relay_chain(), 200); }

TEST(mpi_engine, the_world_context_names_this_rank) {
    const auto ctx = vs::mpi_world_context();
    int ranks = 0;
    MPI_Comm_size(MPI_COMM_WORLD, &ranks);
    EXPECT_EQ(ctx.size(), ranks);
    EXPECT_EQ(ctx.id(), world_rank());
    EXPECT_EQ(ctx.min(100 + ctx.id()), 100);
    std::vector<vs::spike_event> mine{{ctx.id(), static_cast<std::uint32_t>(10 * ctx.id())}};
    const auto all = ctx.gather_spikes(mine);
    ASSERT_EQ(all.events.size(), static_cast<std::size_t>(ranks));
    for (int r = 0; r < ranks; ++r) {
        EXPECT_EQ(all.events[static_cast<std::size_t>(r)], (vs::spike_event{r, static_cast<std::uint32_t>(10 * r)}));
        EXPECT_EQ(all.partition[static_cast<std::size_t>(r) + 1], static_cast<std::size_t>(r) + 1);
    }
}

}  // namespace

int main(int argc, char** argv) {
    vs::mpi_session mpi(argc, argv);
    ::testing::InitGoogleTest(&argc, argv);
    if (world_rank() != 0) {  // one report: the other ranks print only their failures
        auto& listeners = ::testing::UnitTest::GetInstance()->listeners();
        delete listeners.Release(listeners.default_result_printer());
    }
    const int failed = RUN_ALL_TESTS();
    int any = 0;
    MPI_Allreduce(&failed, &any, 1, MPI_INT, MPI_MAX, MPI_COMM_WORLD);
    return any;
}
