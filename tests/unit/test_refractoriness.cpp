// Refractoriness (NEST iaf_psc_* convention): after a spike v is clamped at v_reset for
// round(t_ref/dt) steps; synaptic currents keep evolving meanwhile and drive v once the clamp
// ends, while delta inputs arriving during the clamp are lost.
//
// Set-up shared by the tests: v(0) above threshold, so the neuron spikes at the end of step 0
// (stamp 1) and is clamped for steps 1..20 (t_ref = 2 ms, dt = 0.1 ms); v integrates again in
// step 21, so samples 1..21 equal v_reset. An input spike at step 2 with a 3-step delay
// arrives at sample 5, inside the clamp.

#include "../support/snn_test_support.hpp"

#include <cmath>

namespace volley::snn {
namespace {

constexpr double dt = 0.1, v_rest = -70, v_reset = -75, v_thresh = -55;
constexpr std::size_t arrival = 5, clamp_end = 21;

template <class Model>
state_recorder run_kicked(const Model& model, double w, const char* variable = "v_mv") {
    network net;
    const auto src = net.add_population("input", 1, spike_source{{{0.2}}});
    const auto cell = net.add_population("cell", 1, model);
    net.initialise(cell, "v_mv", v_thresh + 1);
    net.connect(src, cell, one_to_one{}, {.weight = w, .delay_ms = 0.3});
    simulation sim(net, context{.threads = 1}, {.dt_ms = dt});
    auto v = sim.record_state(cell, variable, dt);
    auto spikes = sim.record_spikes(cell);
    sim.run(20);
    EXPECT_EQ(spikes.steps(), (std::vector<std::int64_t>{1}));
    return v;
}

TEST(refractoriness, lif_exp_current_arriving_during_the_clamp_drives_v_after_it) {
    const double tau_m = 20, tau_s = 5, w = 6.0;
    const lif_exp model{{.tau_m_ms = tau_m, .tau_syn_e_ms = tau_s, .tau_syn_i_ms = 10, .v_rest_mv = v_rest,
                         .v_reset_mv = v_reset, .v_thresh_mv = v_thresh, .t_ref_ms = 2, .i_e_mv = 0}};
    const auto v = run_kicked(model, w);
    for (std::size_t k = 1; k <= clamp_end; ++k) ASSERT_EQ(v.at(k, 0), v_reset) << "sample " << k;
    // From sample 21: relaxation from v_reset plus the response to the current left at 21.
    const double i0 = w * std::exp(-static_cast<double>(clamp_end - arrival) * dt / tau_s);
    for (std::size_t k = clamp_end; k < v.samples(); ++k) {
        const double t = static_cast<double>(k - clamp_end) * dt;
        const double expected = v_rest + (v_reset - v_rest) * std::exp(-t / tau_m) +
                                i0 * tau_s / (tau_s - tau_m) * (std::exp(-t / tau_s) - std::exp(-t / tau_m));
        ASSERT_NEAR(v.at(k, 0), expected, 1e-9 * 75) << "sample " << k;
    }
}

TEST(refractoriness, lif_exp_synaptic_current_decays_normally_during_the_clamp) {
    const double tau_s = 5, w = 6.0;
    const lif_exp model{{.tau_m_ms = 20, .tau_syn_e_ms = tau_s, .tau_syn_i_ms = 10, .v_rest_mv = v_rest,
                         .v_reset_mv = v_reset, .v_thresh_mv = v_thresh, .t_ref_ms = 2, .i_e_mv = 0}};
    const auto i = run_kicked(model, w, "i_syn_e_mv");
    for (std::size_t k = 0; k < arrival; ++k) EXPECT_EQ(i.at(k, 0), 0.0);
    for (std::size_t k = arrival; k < i.samples(); ++k)
        ASSERT_NEAR(i.at(k, 0), w * std::exp(-static_cast<double>(k - arrival) * dt / tau_s), 1e-9 * w);
}

TEST(refractoriness, lif_delta_input_arriving_during_the_clamp_is_lost) {
    const double tau_m = 10;
    const lif_delta model{{.tau_m_ms = tau_m, .v_rest_mv = v_rest, .v_reset_mv = v_reset, .v_thresh_mv = v_thresh,
                           .t_ref_ms = 2, .i_e_mv = 0}};
    const auto v = run_kicked(model, 8.0);
    for (std::size_t k = 1; k <= clamp_end; ++k) ASSERT_EQ(v.at(k, 0), v_reset) << "sample " << k;
    for (std::size_t k = clamp_end; k < v.samples(); ++k) {
        const double t = static_cast<double>(k - clamp_end) * dt;
        ASSERT_NEAR(v.at(k, 0), v_rest + (v_reset - v_rest) * std::exp(-t / tau_m), 1e-9 * 75) << "sample " << k;
    }
}

// t_ref not a multiple of dt rounds to the nearest step count: 1.26 ms -> 13 steps.
TEST(refractoriness, clamp_length_is_t_ref_rounded_to_nearest_step) {
    const lif_delta model{{.tau_m_ms = 10, .v_rest_mv = v_rest, .v_reset_mv = v_reset, .v_thresh_mv = v_thresh,
                           .t_ref_ms = 1.26, .i_e_mv = 30}};
    network net;
    const auto cell = net.add_population("cell", 1, model);
    net.initialise(cell, "v_mv", v_thresh + 1);
    simulation sim(net, context{.threads = 1}, {.dt_ms = dt});
    auto v = sim.record_state(cell, "v_mv", dt);
    sim.run(3);
    for (std::size_t k = 1; k <= 14; ++k) ASSERT_EQ(v.at(k, 0), v_reset) << "sample " << k;
    EXPECT_GT(v.at(15, 0), v_reset);
}

}  // namespace
}  // namespace volley::snn
