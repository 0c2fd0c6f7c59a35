// The CUBA benchmark network (Vogels & Abbott 2005) against Brian2's published behaviour:
// Brian2's example at N = 4000, dt = 0.1 ms fires at 5.6-5.9 Hz; we accept [4.5, 7.5] Hz, a
// band that allows for a different random connectivity and initial state but fails a network
// that is silent, saturated or wired with the wrong weights or time constants.

#include "../support/snn_test_support.hpp"

#include <cmath>

namespace volley::snn {
namespace {

TEST(cuba_network, mean_rate_over_1_s_is_in_brian2_band) {
    const auto net = cuba_network(4000, 0.1);
    simulation sim(net, context{.threads = 1}, {.dt_ms = 0.1, .seed = 42});
    auto exc = sim.record_spikes(net.find("exc"));
    auto inh = sim.record_spikes(net.find("inh"));
    sim.run(1000);
    const double rate = static_cast<double>(exc.size() + inh.size()) / (4000 * 1.0);
    EXPECT_GE(rate, 4.5);
    EXPECT_LE(rate, 7.5);
    // Both populations take part (same model, same inputs on average).
    EXPECT_GT(exc.mean_rate_hz(), 3.0);
    EXPECT_GT(inh.mean_rate_hz(), 3.0);
}

// Structure: N = 4000 gives p = 0.02, so 4 projections of about 0.02·N_src·N_tgt synapses:
// in total Binomial(N², 0.02) synapses (autapses allowed), mean 320000, sd ~396.
TEST(cuba_network, synapse_count_matches_connection_probability) {
    const auto net = cuba_network(4000, 0.1);
    simulation sim(net, context{.threads = 1}, {.dt_ms = 0.1});
    const double mean = 4000.0 * 4000 * 0.02, sd = std::sqrt(4000.0 * 4000 * 0.02 * 0.98);
    EXPECT_NEAR(static_cast<double>(sim.stats().synapses), mean, 3.3 * sd);
    EXPECT_EQ(sim.stats().neurons, 4000u);
}

}  // namespace
}  // namespace volley::snn
