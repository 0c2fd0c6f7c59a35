// Fixed-point accumulation of synaptic input: weights are stored as integers scaled per
// (target population, receptor), so the sum of inputs into a neuron does not depend on the
// order of delivery (and hence on the thread count).

#include "../support/snn_test_support.hpp"

#include <cmath>

namespace volley::snn {
namespace {

constexpr double dt = 0.1, v_rest = -70, v_reset = -75;

// Weights are stored with a resolution of about 2^-30 of the largest weight into the same
// target population and receptor, so a small weight next to a large one keeps ~2^-30·w_max
// absolute precision.
TEST(fixed_point_weights, small_weight_beside_a_large_one_is_exact_to_2_pow_minus_30_of_the_large_one) {
    const lif_delta model{{.tau_m_ms = 10, .v_rest_mv = v_rest, .v_reset_mv = v_reset, .v_thresh_mv = 1000,
                           .t_ref_ms = 2, .i_e_mv = 0}};
    const double w_small = 1.2345678e-3, w_large = 700.0;
    network net;
    const auto src = net.add_population("input", 2, spike_source{{{1.0}, {}}});  // the large one never fires
    const auto cell = net.add_population("cell", 1, model);
    net.connect(src, cell, from_list{{0, 1}, {0, 0}}, {.weight = std::vector<double>{w_small, w_large}, .delay_ms = 0.1});
    simulation sim(net, context{.threads = 1}, {.dt_ms = dt});
    auto v = sim.record_state(cell, "v_mv", dt);
    sim.run(2);
    EXPECT_EQ(v.at(10, 0), v_rest);
    EXPECT_NEAR(v.at(11, 0) - v_rest, w_small, w_large * std::ldexp(1.0, -30));
}

// Many inputs into one neuron in one step sum exactly as integers: 1000 synapses of weight
// 0.01 arriving together equal one synapse of weight 10 (to the fixed-point quantum).
TEST(fixed_point_weights, simultaneous_inputs_sum_without_order_dependent_rounding) {
    const lif_delta model{{.tau_m_ms = 10, .v_rest_mv = v_rest, .v_reset_mv = v_reset, .v_thresh_mv = 1000,
                           .t_ref_ms = 2, .i_e_mv = 0}};
    network net;
    std::vector<std::vector<double>> times(1000, std::vector<double>{1.0});
    const auto src = net.add_population("input", 1000, spike_source{times});
    const auto cell = net.add_population("cell", 1, model);
    net.connect(src, cell, all_to_all{}, {.weight = 0.01, .delay_ms = 0.1});
    simulation sim(net, context{.threads = 3}, {.dt_ms = dt});
    auto v = sim.record_state(cell, "v_mv", dt);
    sim.run(2);
    // 0.01 < 2^-6: quantum 2^-36; 1000 quanta of rounding error at most 1000·2^-37.
    EXPECT_NEAR(v.at(11, 0) - v_rest, 10.0, 1000 * std::ldexp(1.0, -37) + 1e-12);
}

}  // namespace
}  // namespace volley::snn
