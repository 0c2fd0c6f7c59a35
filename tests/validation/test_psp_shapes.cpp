// Postsynaptic potentials of one input spike against their closed forms. A spike_source spike
// at t_s through a synapse of delay d reaches the target at t_a = t_s + d: the synaptic state
// jumps at the end of the step that ends at t_a, and v feels it from the next step, so with
// u = v - v_rest and t = time - t_a:
//   lif_exp:   u(t) = w tau_s/(tau_s - tau_m) (e^{-t/tau_s} - e^{-t/tau_m}),  u = w t/tau e^{-t/tau} if equal
//   lif_alpha: u(t) = w e/tau_s · 1/(tau_m a²) [e^{-t/tau_m} - e^{-t/tau_s}(1 + a t)],  a = 1/tau_s - 1/tau_m
//   lif_delta: u(t) = w e^{-t/tau_m} (a jump of w at t_a itself).

#include "../support/snn_test_support.hpp"

#include <algorithm>
#include <cmath>
#include <functional>
#include <numbers>

namespace volley::snn {
namespace {

constexpr double dt = 0.1;
constexpr double t_spike = 1.0;  // source spike [ms], step 10
constexpr double delay = 1.5;    // [ms], 15 steps
constexpr std::int64_t arrival_step = 25;
constexpr double v_rest = -70.0;

/// Runs one source spike into a single target neuron and returns its v trace, one sample a step.
state_recorder psp_trace(const neuron_model& target_model, double w, receptor_type r, double duration_ms) {
    network net;
    const auto src = net.add_population("input", 1, spike_source{{{t_spike}}});
    const auto tgt = net.add_population("cell", 1, target_model);
    net.connect(src, tgt, one_to_one{}, {.weight = w, .delay_ms = delay, .receptor = r});
    simulation sim(net, context{.threads = 1}, {.dt_ms = dt});
    auto v = sim.record_state(tgt, "v_mv", dt);
    auto spikes = sim.record_spikes(tgt);
    sim.run(duration_ms);
    EXPECT_EQ(spikes.size(), 0u);
    return v;
}

/// Compares the trace with v_rest + u(t - t_a) at every step; u = 0 before arrival. Tolerance
/// 1e-7 of the peak |u|.
void expect_trace(const state_recorder& v, const std::function<double(double)>& u) {
    double peak = 0;
    for (std::size_t k = 0; k < v.samples(); ++k) {
        const auto s = static_cast<std::int64_t>(k);
        if (s > arrival_step) peak = std::max(peak, std::abs(u(static_cast<double>(s - arrival_step) * dt)));
    }
    ASSERT_GT(peak, 0.1);
    for (std::size_t k = 0; k < v.samples(); ++k) {
        const auto s = v.data().sample_steps[k];
        const double expected = s < arrival_step ? v_rest : v_rest + u(static_cast<double>(s - arrival_step) * dt);
        ASSERT_NEAR(v.at(k, 0), expected, 1e-7 * peak) << "step " << s;
    }
}

lif_exp exp_cell(double tau_m, double tau_e, double tau_i) {
    return lif_exp{{.tau_m_ms = tau_m, .tau_syn_e_ms = tau_e, .tau_syn_i_ms = tau_i, .v_rest_mv = v_rest,
                    .v_reset_mv = -80, .v_thresh_mv = 0, .t_ref_ms = 2, .i_e_mv = 0}};
}

lif_alpha alpha_cell(double tau_m, double tau_e, double tau_i) {
    return lif_alpha{{.tau_m_ms = tau_m, .tau_syn_e_ms = tau_e, .tau_syn_i_ms = tau_i, .v_rest_mv = v_rest,
                      .v_reset_mv = -80, .v_thresh_mv = 0, .t_ref_ms = 2, .i_e_mv = 0}};
}

std::function<double(double)> exp_psp(double w, double tau_s, double tau_m) {
    return [=](double t) { return w * tau_s / (tau_s - tau_m) * (std::exp(-t / tau_s) - std::exp(-t / tau_m)); };
}

std::function<double(double)> alpha_psp(double w, double tau_s, double tau_m) {
    const double a = 1 / tau_s - 1 / tau_m;
    return [=](double t) {
        return w * std::numbers::e / tau_s / (tau_m * a * a) *
               (std::exp(-t / tau_m) - std::exp(-t / tau_s) * (1 + a * t));
    };
}

TEST(exp_psp, excitatory_matches_difference_of_exponentials) {
    const double w = 3.7, tau_m = 20, tau_e = 5, tau_i = 10;
    expect_trace(psp_trace(exp_cell(tau_m, tau_e, tau_i), w, excitatory, 150), exp_psp(w, tau_e, tau_m));
}

TEST(exp_psp, inhibitory_negative_weight_uses_tau_syn_i) {
    const double w = -4.2, tau_m = 20, tau_e = 5, tau_i = 10;
    expect_trace(psp_trace(exp_cell(tau_m, tau_e, tau_i), w, inhibitory, 150), exp_psp(w, tau_i, tau_m));
}

TEST(exp_psp, synaptic_tau_larger_than_membrane_tau) {
    const double w = 1.3, tau_m = 4, tau_e = 17, tau_i = 10;
    expect_trace(psp_trace(exp_cell(tau_m, tau_e, tau_i), w, excitatory, 200), exp_psp(w, tau_e, tau_m));
}

TEST(exp_psp, equal_time_constants_give_the_limiting_form_w_t_over_tau_exp) {
    const double w = 2.5, tau = 12;
    for (auto r : {excitatory, inhibitory}) {
        const double sw = r == excitatory ? w : -w;
        expect_trace(psp_trace(exp_cell(tau, tau, tau), sw, r, 150),
                     [=](double t) { return sw * t / tau * std::exp(-t / tau); });
    }
}

TEST(alpha_psp, excitatory_matches_closed_form) {
    const double w = 2.1, tau_m = 20, tau_e = 2, tau_i = 6;
    expect_trace(psp_trace(alpha_cell(tau_m, tau_e, tau_i), w, excitatory, 150), alpha_psp(w, tau_e, tau_m));
}

TEST(alpha_psp, inhibitory_negative_weight_uses_tau_syn_i) {
    const double w = -3.3, tau_m = 20, tau_e = 2, tau_i = 6;
    expect_trace(psp_trace(alpha_cell(tau_m, tau_e, tau_i), w, inhibitory, 150), alpha_psp(w, tau_i, tau_m));
}

TEST(alpha_psp, synaptic_tau_larger_than_membrane_tau) {
    const double w = 0.9, tau_m = 5, tau_e = 11, tau_i = 6;
    expect_trace(psp_trace(alpha_cell(tau_m, tau_e, tau_i), w, excitatory, 200), alpha_psp(w, tau_e, tau_m));
}

// tau_s == tau_m: u(t) = w e/tau · t²/(2 tau) · e^{-t/tau} (the a -> 0 limit).
TEST(alpha_psp, equal_time_constants_give_the_limiting_form) {
    const double w = 1.7, tau = 8;
    expect_trace(psp_trace(alpha_cell(tau, tau, tau), w, excitatory, 150),
                 [=](double t) { return w * std::numbers::e / tau * t * t / (2 * tau) * std::exp(-t / tau); });
}

// Peak of the alpha current is w at t = tau_s: check the recorded current itself.
TEST(alpha_psp, synaptic_current_peaks_at_w_after_tau_syn) {
    const double w = 2.0, tau_s = 3.0;
    network net;
    const auto src = net.add_population("input", 1, spike_source{{{t_spike}}});
    const auto tgt = net.add_population("cell", 1, alpha_cell(20, tau_s, 6));
    net.connect(src, tgt, one_to_one{}, {.weight = w, .delay_ms = delay, .receptor = excitatory});
    simulation sim(net, context{.threads = 1}, {.dt_ms = dt});
    auto i = sim.record_state(tgt, "i_syn_e_mv", dt);
    sim.run(30);
    for (std::size_t k = 0; k < i.samples(); ++k) {
        const auto s = i.data().sample_steps[k];
        const double t = static_cast<double>(s - arrival_step) * dt;
        const double expected = s <= arrival_step ? 0.0 : w * t / tau_s * std::exp(1 - t / tau_s);
        ASSERT_NEAR(i.at(k, 0), expected, 1e-9 * w) << "step " << s;
    }
    EXPECT_NEAR(i.at(static_cast<std::size_t>(arrival_step + 30), 0), w, 1e-9 * w);
}

lif_delta delta_cell(double tau_m) {
    return lif_delta{{.tau_m_ms = tau_m, .v_rest_mv = v_rest, .v_reset_mv = -80, .v_thresh_mv = 0,
                      .t_ref_ms = 2, .i_e_mv = 0}};
}

TEST(delta_psp, jumps_by_w_at_arrival_then_decays_with_tau_m) {
    for (double w : {4.5, -6.0}) {
        const double tau_m = 15;
        const auto r = w > 0 ? excitatory : inhibitory;
        auto v = psp_trace(delta_cell(tau_m), w, r, 100);
        // Exactly v_rest until the sample before arrival, exactly v_rest + w at arrival.
        for (std::int64_t s = 0; s < arrival_step; ++s) ASSERT_EQ(v.at(static_cast<std::size_t>(s), 0), v_rest);
        EXPECT_NEAR(v.at(static_cast<std::size_t>(arrival_step), 0), v_rest + w, 1e-12 * std::abs(w) + 1e-12);
        for (std::size_t k = static_cast<std::size_t>(arrival_step); k < v.samples(); ++k) {
            const double t = static_cast<double>(static_cast<std::int64_t>(k) - arrival_step) * dt;
            ASSERT_NEAR(v.at(k, 0), v_rest + w * std::exp(-t / tau_m), 1e-7 * std::abs(w)) << "step " << k;
        }
    }
}

// Two inputs superpose linearly: the second spike's PSP adds to the first.
TEST(exp_psp, two_inputs_superpose) {
    const double w1 = 1.5, w2 = -2.5, tau_m = 20, tau_e = 5, tau_i = 10;
    network net;
    const auto src = net.add_population("input", 2, spike_source{{{t_spike}, {t_spike + 3.0}}});
    const auto tgt = net.add_population("cell", 1, exp_cell(tau_m, tau_e, tau_i));
    net.connect(src, tgt, from_list{{0}, {0}}, {.weight = w1, .delay_ms = delay, .receptor = excitatory});
    net.connect(src, tgt, from_list{{1}, {0}}, {.weight = w2, .delay_ms = delay, .receptor = inhibitory});
    simulation sim(net, context{.threads = 1}, {.dt_ms = dt});
    auto v = sim.record_state(tgt, "v_mv", dt);
    sim.run(120);
    const auto u1 = exp_psp(w1, tau_e, tau_m), u2 = exp_psp(w2, tau_i, tau_m);
    const std::int64_t a1 = arrival_step, a2 = arrival_step + 30;
    for (std::size_t k = 0; k < v.samples(); ++k) {
        const auto s = static_cast<std::int64_t>(k);
        double expected = v_rest;
        if (s >= a1) expected += u1(static_cast<double>(s - a1) * dt);
        if (s >= a2) expected += u2(static_cast<double>(s - a2) * dt);
        ASSERT_NEAR(v.at(k, 0), expected, 1e-7 * 2.5) << "step " << s;
    }
}

}  // namespace
}  // namespace volley::snn
