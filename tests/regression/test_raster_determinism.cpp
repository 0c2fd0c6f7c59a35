// Deterministic mode: a raster (every (step, global neuron) pair) depends only on the network
// and the seed, never on the thread count or on the run. Random streams are keyed by
// (seed, purpose, object, element) and spikes are delivered in fixed point, so the sum of
// inputs into a neuron is exact whatever the order of delivery; CUBA's direct delivery adds
// doubles in an order that does not depend on the thread count (docs/engine.md).
//
// The machine running the suite may have two cores: three threads oversubscribe it, which is
// also the harshest schedule for ordering bugs. Runs are kept short to keep the suite fast.

#include "../support/snn_test_support.hpp"

#include <array>

namespace volley::snn {
namespace {

using testing::raster;
using testing::raster_event;

std::vector<raster_event> cuba_raster(int threads, std::uint64_t seed, double duration_ms) {
    const auto net = cuba_network(4000, 0.1);
    simulation sim(net, context{.threads = threads}, {.dt_ms = 0.1, .seed = seed});
    auto exc = sim.record_spikes(net.find("exc"));
    auto inh = sim.record_spikes(net.find("inh"));
    sim.run(duration_ms);
    return raster({&exc, &inh});
}

TEST(raster_determinism, cuba_raster_is_identical_on_1_2_and_3_threads_and_across_runs) {
    const auto one = cuba_raster(1, 42, 300);
    // A rate of ~5 Hz over 4000 neurons and 0.3 s: thousands of spikes, not a silent network.
    ASSERT_GT(one.size(), 3000u);
    EXPECT_EQ(cuba_raster(1, 42, 300), one) << "same seed, same thread count, second run";
    EXPECT_EQ(cuba_raster(2, 42, 300), one) << "2 threads";
    EXPECT_EQ(cuba_raster(3, 42, 300), one) << "3 threads";
}

TEST(raster_determinism, cuba_raster_changes_with_the_seed) {
    EXPECT_NE(cuba_raster(2, 42, 200), cuba_raster(2, 43, 200));
}

/// Poisson input, heterogeneous weights and delays (uniform and normal), heterogeneous
/// thresholds and initial states, two receptor types, three populations of unequal size so
/// thread boundaries fall inside populations.
std::vector<raster_event> mixed_raster(int threads, std::uint64_t seed) {
    network net;
    const auto noise = net.add_population("noise", 300, poisson_source{{.rate_hz = 40, .start_ms = 5}});
    const lif_exp exc_model{{.tau_m_ms = 20, .tau_syn_e_ms = 5, .tau_syn_i_ms = 10, .v_rest_mv = -65,
                             .v_reset_mv = -65, .v_thresh_mv = -50, .t_ref_ms = 2, .i_e_mv = 0}};
    const auto exc = net.add_population("exc", 1601, exc_model);
    const lif_alpha inh_model{{.tau_m_ms = 10, .tau_syn_e_ms = 2, .tau_syn_i_ms = 4, .v_rest_mv = -65,
                               .v_reset_mv = -65, .v_thresh_mv = -52, .t_ref_ms = 1, .i_e_mv = 0}};
    const auto inh = net.add_population("inh", 399, inh_model);
    const auto out = net.add_population("out", 77, lif_delta{});
    net.set_parameter(exc, "v_thresh_mv", uniform{-52, -48});
    net.initialise(exc, "v_mv", normal{-60, 3});
    net.initialise(inh, "v_mv", uniform{-65, -55});
    net.connect(noise, exc, fixed_probability{.p = 0.1}, {.weight = uniform{2.0, 5.0}, .delay_ms = uniform{0.5, 4.0}});
    net.connect(noise, inh, fixed_in_degree{.k = 20}, {.weight = normal{3.0, 0.5}, .delay_ms = normal{2.0, 0.4}});
    net.connect(exc, exc, fixed_probability{.p = 0.02}, {.weight = normal{0.8, 0.2}, .delay_ms = uniform{0.1, 5.0}});
    net.connect(exc, inh, fixed_probability{.p = 0.05}, {.weight = uniform{0.2, 1.2}, .delay_ms = 1.0});
    net.connect(inh, exc, fixed_probability{.p = 0.05},
                {.weight = normal{-4.0, 1.0}, .delay_ms = normal{3.0, 0.5}, .receptor = inhibitory});
    net.connect(inh, inh, fixed_in_degree{.k = 10, .allow_autapses = false},
                {.weight = uniform{-3.0, -1.0}, .delay_ms = uniform{0.3, 2.0}, .receptor = inhibitory});
    net.connect(exc, out, fixed_in_degree{.k = 50}, {.weight = uniform{2.0, 6.0}, .delay_ms = uniform{1.0, 10.0}});
    simulation sim(net, context{.threads = threads}, {.dt_ms = 0.1, .seed = seed});
    std::vector<spike_recorder> recs;
    for (auto p : {noise, exc, inh, out}) recs.push_back(sim.record_spikes(p));
    sim.run(200);
    return raster({&recs[0], &recs[1], &recs[2], &recs[3]});
}

TEST(raster_determinism, poisson_driven_heterogeneous_network_is_identical_on_1_2_and_3_threads) {
    const auto one = mixed_raster(1, 17);
    // Every population takes part.
    std::array<std::size_t, 4> per_pop{};
    for (const auto& e : one) per_pop[e.neuron < 300 ? 0 : e.neuron < 1901 ? 1 : e.neuron < 2300 ? 2 : 3]++;
    for (std::size_t p = 0; p < 4; ++p) EXPECT_GT(per_pop[p], 50u) << "population " << p << " is (nearly) silent";
    EXPECT_EQ(mixed_raster(1, 17), one);
    EXPECT_EQ(mixed_raster(2, 17), one);
    EXPECT_EQ(mixed_raster(3, 17), one);
    EXPECT_NE(mixed_raster(2, 18), one);
}

}  // namespace
}  // namespace volley::snn
