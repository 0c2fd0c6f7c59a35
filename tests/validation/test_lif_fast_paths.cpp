// The fast paths of the LIF update against closed forms, over hundreds of steps:
// - lif_exp with one set of parameters stores its currents scaled (lif_population.hpp) and
//   brings them back to scale 1 every floor(200 tau_fast / dt) steps; the traces must stay on
//   the closed form across those rescalings;
// - a uniform projection with a one-step delay skips the ring buffer (cpu_engine_direct.cpp);
//   its input must arrive on the same step as through the ring;
// - refractoriness is a per-neuron flag set and cleared from the spike lists; neurons with
//   different refractory periods must each keep their own.
// And, with all three at work, the raster must not depend on the thread count.

#include "../support/snn_test_support.hpp"

#include <cmath>

namespace volley::snn {
namespace {

using testing::raster;

constexpr double dt = 0.1;
constexpr double v_rest = -70.0;

/// Closed forms of one input of weight w arriving at step a (the current jumps at the end of
/// the step that ends at a·dt; see test_psp_shapes.cpp), sampled after step s.
double exp_current(double w, double tau_s, std::int64_t s, std::int64_t a) {
    return s < a ? 0.0 : w * std::exp(-static_cast<double>(s - a) * dt / tau_s);
}
double exp_psp(double w, double tau_s, double tau_m, std::int64_t s, std::int64_t a) {
    if (s < a) return 0.0;
    const double t = static_cast<double>(s - a) * dt;
    return w * tau_s / (tau_s - tau_m) * (std::exp(-t / tau_s) - std::exp(-t / tau_m));
}

// tau_syn_e = 0.4 ms: the currents are rescaled every 800 steps, three times in 300 ms. The
// excitatory input comes through a one-step delay (the direct path), the inhibitory one
// through 1.5 ms (the ring buffer).
TEST(scaled_currents, exp_traces_follow_the_closed_form_across_rescalings) {
    const double tau_m = 10, tau_e = 0.4, tau_i = 0.7, w_e = 9.0, w_i = -6.0;
    network net;
    std::vector<double> exc_times, inh_times;
    for (int k = 0; k < 30; ++k) exc_times.push_back(1.0 + 9.7 * k);  // multiples of dt
    for (int k = 0; k < 22; ++k) inh_times.push_back(2.0 + 13.1 * k);
    const auto src = net.add_population("input", 2, spike_source{{exc_times, inh_times}});
    const auto cell = net.add_population(
        "cell", 1,
        lif_exp{{.tau_m_ms = tau_m, .tau_syn_e_ms = tau_e, .tau_syn_i_ms = tau_i, .v_rest_mv = v_rest,
                 .v_reset_mv = -80, .v_thresh_mv = 0, .t_ref_ms = 2, .i_e_mv = 0}});
    net.connect(src, cell, from_list{{0}, {0}}, {.weight = w_e, .delay_ms = dt, .receptor = excitatory});
    net.connect(src, cell, from_list{{1}, {0}}, {.weight = w_i, .delay_ms = 1.5, .receptor = inhibitory});
    simulation sim(net, context{.threads = 1}, {.dt_ms = dt});
    auto v = sim.record_state(cell, "v_mv", dt);
    auto ie = sim.record_state(cell, "i_syn_e_mv", dt);
    auto ii = sim.record_state(cell, "i_syn_i_mv", dt);
    auto spikes = sim.record_spikes(cell);
    sim.run(300);
    ASSERT_EQ(spikes.size(), 0u);
    // A spike at t reaches the target at step round(t / dt) + delay steps.
    auto arrival = [](double t, int delay_steps) { return std::llround(t / dt) + delay_steps; };
    double max_v = 0;
    for (std::size_t k = 0; k < v.samples(); ++k) {
        const auto s = v.data().sample_steps[k];
        double e = 0, i = 0, u = 0;
        for (const double t : exc_times) {
            e += exp_current(w_e, tau_e, s, arrival(t, 1));
            u += exp_psp(w_e, tau_e, tau_m, s, arrival(t, 1));
        }
        for (const double t : inh_times) {
            i += exp_current(w_i, tau_i, s, arrival(t, 15));
            u += exp_psp(w_i, tau_i, tau_m, s, arrival(t, 15));
        }
        max_v = std::max(max_v, std::abs(u));
        ASSERT_NEAR(ie.at(k, 0), e, 1e-9 * w_e) << "step " << s;
        ASSERT_NEAR(ii.at(k, 0), i, 1e-9 * std::abs(w_i)) << "step " << s;
        ASSERT_NEAR(v.at(k, 0), v_rest + u, 1e-7 * w_e) << "step " << s;
    }
    EXPECT_GT(max_v, 0.1);
    EXPECT_EQ(v.samples(), 3001u);
}

// Three neurons under the same constant drive, with refractory periods of 1, 2.5 and 4 ms:
// each fires with the period ref_steps + ceil(T / dt) of its own (test_lif_membrane.cpp).
TEST(refractory, per_neuron_periods_each_hold_their_own_neuron) {
    const double tau = 10.0, v_reset = -65.0, v_thresh = -55.0, I = 20.0;
    const double T = tau * std::log((I - (v_reset - v_rest)) / (I - (v_thresh - v_rest)));
    const auto period_steps = static_cast<std::int64_t>(std::ceil(T / dt));
    const std::vector<double> t_ref{1.0, 2.5, 4.0};
    network net;
    const auto pop = net.add_population(
        "cells", 3,
        lif_exp{{.tau_m_ms = tau, .tau_syn_e_ms = 2, .tau_syn_i_ms = 2, .v_rest_mv = v_rest, .v_reset_mv = v_reset,
                 .v_thresh_mv = v_thresh, .t_ref_ms = 2, .i_e_mv = I}});
    net.set_parameter(pop, "t_ref_ms", t_ref);
    net.initialise(pop, "v_mv", v_reset);
    simulation sim(net, context{.threads = 1}, {.dt_ms = dt});
    auto spikes = sim.record_spikes(pop);
    sim.run(300.0);
    for (std::uint32_t n = 0; n < 3; ++n) {
        std::vector<std::int64_t> steps;
        for (std::size_t k = 0; k < spikes.size(); ++k)
            if (spikes.node_ids()[k] == n) steps.push_back(spikes.steps()[k]);
        ASSERT_GE(steps.size(), 10u) << "neuron " << n;
        EXPECT_EQ(steps[0], period_steps) << "neuron " << n;
        const auto ref_steps = std::llround(t_ref[n] / dt);
        for (std::size_t k = 1; k < steps.size(); ++k)
            ASSERT_EQ(steps[k] - steps[k - 1], ref_steps + period_steps) << "neuron " << n << " interval " << k;
    }
}

/// A recurrent lif_exp network with fast synapses (rescaled every 800 steps), one-step delays
/// (direct) and 2-ms delays (ring), driven by Poisson input.
std::vector<testing::raster_event> fast_synapse_raster(int threads) {
    network net;
    const auto noise = net.add_population("noise", 200, poisson_source{{.rate_hz = 30}});
    const auto cells = net.add_population(
        "cells", 997,
        lif_exp{{.tau_m_ms = 10, .tau_syn_e_ms = 0.4, .tau_syn_i_ms = 1.5, .v_rest_mv = -60, .v_reset_mv = -70,
                 .v_thresh_mv = -50, .t_ref_ms = 2, .i_e_mv = 0}});
    net.initialise(cells, "v_mv", uniform{-70, -50});
    net.connect(noise, cells, fixed_in_degree{.k = 20}, {.weight = 40.0, .delay_ms = dt, .receptor = excitatory});
    net.connect(cells, cells, fixed_probability{.p = 0.05}, {.weight = 20.0, .delay_ms = dt, .receptor = excitatory});
    net.connect(cells, cells, fixed_probability{.p = 0.05}, {.weight = -15.0, .delay_ms = 2.0, .receptor = inhibitory});
    simulation sim(net, context{.threads = threads}, {.dt_ms = dt, .seed = 7});
    auto rec = sim.record_spikes(cells);
    sim.run(250);
    return raster({&rec});
}

TEST(fast_paths, raster_is_identical_on_1_2_and_3_threads_across_rescalings) {
    const auto one = fast_synapse_raster(1);
    ASSERT_GT(one.size(), 1000u);
    ASSERT_GT(one.back().step, 2000) << "activity must last past the rescalings at steps 800 and 1600";
    EXPECT_EQ(fast_synapse_raster(2), one);
    EXPECT_EQ(fast_synapse_raster(3), one);
}

}  // namespace
}  // namespace volley::snn
