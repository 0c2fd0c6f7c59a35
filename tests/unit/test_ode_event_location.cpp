// Event location inside a step: the spike times the ODE population locates agree with crossing
// times computed independently (analytically for lif_cond_exp under a constant current, by
// RK4 + bisection for izhikevich), and the reset, the continuous-time refractory period and the
// rest of the step are integrated from the located time (v at later grid points matches the
// analytic trajectory within 1e-6 mV).

#include <volley/snn.hpp>

#include <gtest/gtest.h>

#include <cmath>

#include "../validation/ode_reference.hpp"
#include "backends/cpu/ode_population.hpp"

namespace volley::snn {
namespace {

constexpr double dt = 0.1;

struct driven_population {
    network net;
    detail::ode_population pop;
    std::vector<double> spike_times, v_at_grid;
    driven_population(network n, double t_end)
        : net(std::move(n)), pop(net, population_index{0}, dt, 42) {
        const auto steps = static_cast<std::int64_t>(std::llround(t_end / dt));
        std::vector<std::uint32_t> spikes;
        v_at_grid.push_back(pop.state("v_mv")[0]);
        for (std::int64_t s = 0; s < steps; ++s) {
            spikes.clear();
            pop.update(s, 0, 1, {}, spikes);
            if (!spikes.empty()) {
                spike_times.push_back(pop.last_spike_time_ms(0));
                // The located time lies inside the step that reported the spike.
                EXPECT_GT(spike_times.back(), static_cast<double>(s) * dt);
                EXPECT_LE(spike_times.back(), static_cast<double>(s + 1) * dt);
            }
            v_at_grid.push_back(pop.state("v_mv")[0]);
        }
    }
};

TEST(ode_event_location, lif_cond_exp_spike_times_match_the_analytic_crossings) {
    // C = 250 pF, g_L = 25 nS: tau_m = 10 ms; I = 400 pA: v_inf = -54 mV above v_thresh = -55.
    lif_cond_exp m;
    m.p = {.c_m_pf = 250,
           .g_l_ns = 25,
           .e_l_mv = -70,
           .v_reset_mv = -70,
           .v_thresh_mv = -55,
           .t_ref_ms = 2.05,
           .e_ex_mv = 0,
           .e_in_mv = -85,
           .tau_syn_e_ms = 2,
           .tau_syn_i_ms = 2,
           .i_e_pa = 400};
    m.integrator.scheme = ode_scheme::adaptive;  // the scheme that locates crossings
    network net;
    net.add_population("cell", 1, m);
    const driven_population run(std::move(net), 100);
    const double tau = 10, v_inf = -54, period_free = tau * std::log((-70 - v_inf) / (-55 - v_inf));
    ASSERT_EQ(run.spike_times.size(), 3u);  // period 27.73 + 2.05 ms
    for (std::size_t k = 0; k < 3; ++k)
        EXPECT_NEAR(run.spike_times[k], period_free + static_cast<double>(k) * (period_free + 2.05),
                    1e-7)
            << k;
    // v at every grid point: clamped at v_reset for t_ref after each located spike, then relaxing.
    for (std::size_t g = 0; g < run.v_at_grid.size(); ++g) {
        const double t = static_cast<double>(g) * dt;
        double since = t, v0 = -70;
        for (double ts : run.spike_times)
            if (ts <= t) since = t - ts - 2.05;
        const double expected = since < 0 ? -70 : v_inf + (v0 - v_inf) * std::exp(-since / tau);
        EXPECT_NEAR(run.v_at_grid[g], expected, 1e-6) << "t = " << t;
    }
}

TEST(ode_event_location, izhikevich_spike_times_match_rk4_bisection) {
    const auto model = izhikevich::preset("RS");
    auto m = model;
    m.p.i_e = 10;
    network net;
    net.add_population("cell", 1, m);
    const driven_population run(std::move(net), 200);
    const auto& p = model.p;
    auto f = [&](const std::array<double, 2>& x, std::array<double, 2>& d) {
        d[0] = 0.04 * x[0] * x[0] + 5 * x[0] + 140 - x[1] + 10;
        d[1] = p.a * (p.b * x[0] - x[1]);
    };
    auto reset = [&](std::array<double, 2>& x) {
        x[0] = p.c_mv;
        x[1] += p.d;
    };
    const auto ref =
        testing::reference_spike_times<2>({-65.0, p.b * -65.0}, f, p.v_peak_mv, reset, 200, 0.0005);
    ASSERT_EQ(run.spike_times.size(), ref.size());
    ASSERT_GE(ref.size(), 3u);
    for (std::size_t k = 0; k < ref.size(); ++k) EXPECT_NEAR(run.spike_times[k], ref[k], 1e-6) << k;
    // Not on the grid: the location is real, not a rounding to step ends.
    EXPECT_GT(std::abs(ref[0] / dt - std::round(ref[0] / dt)), 1e-3);
}

}  // namespace
}  // namespace volley::snn
