// The LIF membrane under constant input against its analytic solution:
//   v(t) = v_rest + I (1 - e^{-t/tau}) + (v0 - v_rest) e^{-t/tau}
// below threshold, and the firing period T = tau ln((I - (v_reset - v_rest)) / (I - (v_thresh - v_rest)))
// above it. The engine integrates linear models exactly, so the trace must match to rounding.

#include "../support/snn_test_support.hpp"

#include <cmath>
#include <ostream>
#include <string>

namespace volley::snn {
namespace {

constexpr double dt = 0.1;

/// The three LIF models with the given parameters (the synaptic time constants are irrelevant:
/// no synapse is connected).
neuron_model make_lif(const std::string& model, double tau_m, double v_rest, double v_reset, double v_thresh,
                      double t_ref, double i_e) {
    neuron_model m = model_from_name(model);
    set_parameter(m, "tau_m_ms", tau_m);
    set_parameter(m, "v_rest_mv", v_rest);
    set_parameter(m, "v_reset_mv", v_reset);
    set_parameter(m, "v_thresh_mv", v_thresh);
    set_parameter(m, "t_ref_ms", t_ref);
    set_parameter(m, "i_e_mv", i_e);
    return m;
}

enum class drive { bias, dc, step };

struct membrane_case {
    std::string model;
    drive how;
};

void PrintTo(const membrane_case& c, std::ostream* os) {
    *os << c.model << (c.how == drive::bias ? " with i_e" : c.how == drive::dc ? " with dc_current" : " with step_current");
}

std::string membrane_case_name(const ::testing::TestParamInfo<membrane_case>& info) {
    const char* how = info.param.how == drive::bias ? "bias" : info.param.how == drive::dc ? "dc" : "step";
    return info.param.model + "_" + how;
}

class membrane_under_constant_current : public ::testing::TestWithParam<membrane_case> {};

TEST_P(membrane_under_constant_current, matches_exponential_relaxation_at_every_step) {
    const auto [model, how] = GetParam();
    const double tau = 13.7, v_rest = -65.0, v0 = -72.5, I = 11.3;
    network net;
    // Threshold far above the asymptote v_rest + I: no spike.
    const auto pop = net.add_population(
        "cell", 3, make_lif(model, tau, v_rest, -80.0, v_rest + I + 20, 2.0, how == drive::bias ? I : 0.0));
    net.initialise(pop, "v_mv", v0);
    if (how == drive::dc) net.inject(pop, dc_current{.amplitude_mv = I});
    if (how == drive::step) net.inject(pop, step_current{.times_ms = {0.0}, .amplitudes_mv = {I}});
    simulation sim(net, context{.threads = 1}, {.dt_ms = dt});
    auto v = sim.record_state(pop, "v_mv", dt);
    auto spikes = sim.record_spikes(pop);
    sim.run(100.0);

    ASSERT_EQ(v.samples(), 1001u);
    EXPECT_EQ(spikes.size(), 0u);
    for (std::size_t k = 0; k < v.samples(); ++k) {
        ASSERT_EQ(v.data().sample_steps[k], static_cast<std::int64_t>(k));
        const double t = static_cast<double>(k) * dt;
        const double expected = v_rest + I * (1 - std::exp(-t / tau)) + (v0 - v_rest) * std::exp(-t / tau);
        for (std::size_t n = 0; n < 3; ++n)
            ASSERT_NEAR(v.at(k, n), expected, 1e-9 * std::abs(expected)) << model << " step " << k;
    }
}

INSTANTIATE_TEST_SUITE_P(
    lif_models, membrane_under_constant_current,
    ::testing::Values(membrane_case{"lif_delta", drive::bias}, membrane_case{"lif_delta", drive::dc},
                      membrane_case{"lif_delta", drive::step}, membrane_case{"lif_exp", drive::bias},
                      membrane_case{"lif_exp", drive::dc}, membrane_case{"lif_exp", drive::step},
                      membrane_case{"lif_alpha", drive::bias}, membrane_case{"lif_alpha", drive::dc},
                      membrane_case{"lif_alpha", drive::step}),
    membrane_case_name);

class firing_period : public ::testing::TestWithParam<std::string> {};

// Starting at v_reset (not refractory) at t = 0, v reaches threshold after T; the first step
// whose end is at or after T is step ceil(T/dt) - 1, so the first spike is stamped ceil(T/dt).
// After a spike, v is clamped for ref_steps steps, then integrates from v_reset again, so the
// inter-spike interval is ref_steps + ceil(T/dt) steps.
TEST_P(firing_period, interspike_interval_is_refractory_steps_plus_ceil_of_period) {
    const std::string model = GetParam();
    const double tau = 10.0, v_rest = -70.0, v_reset = -65.0, v_thresh = -55.0, t_ref = 2.0, I = 20.0;
    const double T = tau * std::log((I - (v_reset - v_rest)) / (I - (v_thresh - v_rest)));  // 10 ln 3
    ASSERT_GT(std::abs(T / dt - std::round(T / dt)), 0.1) << "T/dt too close to an integer for a sharp test";
    const auto period_steps = static_cast<std::int64_t>(std::ceil(T / dt));
    const auto ref_steps = static_cast<std::int64_t>(std::llround(t_ref / dt));

    network net;
    const auto pop = net.add_population("cell", 1, make_lif(model, tau, v_rest, v_reset, v_thresh, t_ref, I));
    net.initialise(pop, "v_mv", v_reset);
    simulation sim(net, context{.threads = 1}, {.dt_ms = dt});
    auto spikes = sim.record_spikes(pop);
    sim.run(500.0);

    const auto& steps = spikes.steps();
    ASSERT_GE(steps.size(), 10u);
    EXPECT_EQ(steps[0], period_steps);
    for (std::size_t k = 1; k < steps.size(); ++k) {
        EXPECT_EQ(steps[k] - steps[k - 1], ref_steps + period_steps) << "interval " << k;
        // The continuous period tau ln(...) + t_ref, to within one step.
        EXPECT_LT(std::abs(static_cast<double>(steps[k] - steps[k - 1]) * dt - (T + t_ref)), dt);
    }
    // Exactly as many spikes as fit into 5000 steps.
    EXPECT_EQ(static_cast<std::int64_t>(steps.size()), 1 + (5000 - period_steps) / (ref_steps + period_steps));
}

INSTANTIATE_TEST_SUITE_P(lif_models, firing_period, ::testing::Values("lif_delta", "lif_exp", "lif_alpha"));

// During the refractory period v stays exactly at v_reset, then integrates from it.
TEST(refractory_clamp, voltage_is_held_at_reset_for_ref_steps_after_each_spike) {
    const double tau = 10.0, v_rest = -70.0, v_reset = -65.0, v_thresh = -55.0, t_ref = 2.0, I = 20.0;
    network net;
    const auto pop = net.add_population("cell", 1, make_lif("lif_exp", tau, v_rest, v_reset, v_thresh, t_ref, I));
    net.initialise(pop, "v_mv", v_reset);
    simulation sim(net, context{.threads = 1}, {.dt_ms = dt});
    auto v = sim.record_state(pop, "v_mv", dt);
    auto spikes = sim.record_spikes(pop);
    sim.run(50.0);
    ASSERT_GE(spikes.size(), 1u);
    const auto s = static_cast<std::size_t>(spikes.steps()[0]);
    for (std::size_t k = s; k <= s + 20; ++k) EXPECT_EQ(v.at(k, 0), v_reset) << "step " << k;
    const double one_step = v_rest + I * (1 - std::exp(-dt / tau)) + (v_reset - v_rest) * std::exp(-dt / tau);
    EXPECT_NEAR(v.at(s + 21, 0), one_step, 1e-12 * std::abs(one_step));
}

}  // namespace
}  // namespace volley::snn
