// Steps in pairs (cpu_engine_pairs.cpp) must be the same computation as single steps. A large
// network takes its steps two at a time, each chunk of neurons both steps while it is in cache,
// with the input of the pair's first step sorted by chunk and that of its second deferred to
// the next pair. Here simulation_options::step_pairs = always makes a small network do the same, and every raster
// must equal the one taken a step at a time, bit for bit:
// - on 1, 2 and 3 threads;
// - over runs that start on odd steps, a one-step run in between (no pair fits), and a run
//   that ends on an odd step (pairs, then one single step);
// - across rescalings of the stored currents on the first and the second step of a pair
//   (tau_syn_e = 0.5005 ms gives a period of 1,001 steps);
// - with refractory periods of 0, 1 and 50 steps (one step: released inside the pair);
// - stopped by a progress callback.

#include "../support/snn_test_support.hpp"

#include <string>

namespace volley::snn {
namespace {

using testing::raster;
using testing::raster_event;

constexpr double dt = 0.1;

/// The simulation options of a mode: "0" single steps, "1" pairs wherever they can be taken.
simulation_options options_of(const char* mode) {
    return {.dt_ms = dt, .seed = 11, .step_pairs = std::string(mode) == "1" ? step_pairing::always : step_pairing::off};
}

/// A CUBA-like network with no spike sources: every neuron drifts above its threshold (v_rest
/// above v_thresh), and all projections are uniform with a one-step delay.
network self_driven_network() {
    network net;
    auto cells = [&](const char* name, std::uint32_t n, double tau_e, double t_ref) {
        const auto p = net.add_population(name, n,
                                          lif_exp{{.tau_m_ms = 20, .tau_syn_e_ms = tau_e, .tau_syn_i_ms = 10,
                                                   .v_rest_mv = -49, .v_reset_mv = -60, .v_thresh_mv = -50,
                                                   .t_ref_ms = t_ref, .i_e_mv = 0}});
        net.initialise(p, "v_mv", uniform{-60, -50});
        return p;
    };
    const auto slow = cells("exc_ref50", 1500, 0.5005, 5.0);
    const auto quick = cells("exc_ref0", 700, 5.0, 0.0);
    const auto inh = cells("inh_ref1", 800, 5.0, dt);
    for (const auto src : {slow, quick})
        for (const auto dst : {slow, quick, inh})
            net.connect(src, dst, fixed_probability{.p = 0.02}, {.weight = 1.62, .delay_ms = dt, .receptor = excitatory});
    for (const auto dst : {slow, quick, inh})
        net.connect(inh, dst, fixed_probability{.p = 0.02}, {.weight = -9.0, .delay_ms = dt, .receptor = inhibitory});
    return net;
}

/// The raster of 70 ms, 0.1 ms and 140.1 ms (700, 1 and 1,401 steps) in three runs.
std::vector<raster_event> pieces_raster(const char* mode, int threads) {
    const auto net = self_driven_network();
    simulation sim(net, context{.threads = threads}, options_of(mode));
    std::vector<spike_recorder> recs;
    for (std::uint32_t p = 0; p < 3; ++p) recs.push_back(sim.record_spikes(population_index{p}));
    EXPECT_TRUE(sim.run(70.0));
    EXPECT_TRUE(sim.run(0.1));
    EXPECT_TRUE(sim.run(140.1));
    return raster({&recs[0], &recs[1], &recs[2]});
}

TEST(step_pairs, give_the_raster_of_single_steps_on_1_2_and_3_threads) {
    const auto single = pieces_raster("0", 1);
    ASSERT_GT(single.size(), 1500u);
    ASSERT_GT(single.back().step, 2002) << "activity must last past the rescalings at steps 1001 and 2002";
    for (const int threads : {1, 2, 3}) {
        EXPECT_EQ(pieces_raster("1", threads), single) << threads << " thread(s)";
        if (threads > 1) {
            EXPECT_EQ(pieces_raster("0", threads), single) << threads << " thread(s), single steps";
        }
    }
}

/// The raster of a run of 100 ms that a progress callback every `interval` steps stops
/// after `stop_at` steps.
std::vector<raster_event> stopped_raster(const char* mode, int threads, std::int64_t interval, std::int64_t stop_at,
                                         std::int64_t& steps_done) {
    const auto net = self_driven_network();
    simulation sim(net, context{.threads = threads}, options_of(mode));
    std::vector<spike_recorder> recs;
    for (std::uint32_t p = 0; p < 3; ++p) recs.push_back(sim.record_spikes(population_index{p}));
    steps_done = 0;
    sim.on_progress(
        [&](std::int64_t done, std::int64_t) {
            steps_done = done;
            return done < stop_at;
        },
        interval);
    EXPECT_FALSE(sim.run(100.0));
    return raster({&recs[0], &recs[1], &recs[2]});
}

TEST(step_pairs, stop_where_the_progress_callback_says) {
    for (const int threads : {1, 2}) {
        for (const std::int64_t interval : {50, 51}) {  // 51: pairs could overrun, so single steps
            std::int64_t single_done = 0, pairs_done = 0;
            const auto single = stopped_raster("0", threads, interval, 300, single_done);
            const auto pairs = stopped_raster("1", threads, interval, 300, pairs_done);
            const std::int64_t expected = (300 + interval - 1) / interval * interval;
            EXPECT_EQ(single_done, expected);
            EXPECT_EQ(pairs_done, expected);
            ASSERT_FALSE(single.empty());
            EXPECT_LE(single.back().step, expected);
            EXPECT_EQ(pairs, single) << threads << " thread(s), interval " << interval;
        }
    }
}

}  // namespace
}  // namespace volley::snn
