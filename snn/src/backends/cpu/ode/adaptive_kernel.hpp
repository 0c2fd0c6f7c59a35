#pragma once
// The adaptive scheme of the ODE models (ode_integrator.hpp): one template, instantiated for
// each model's dynamics in ode_population.cpp.
//
// Why this scheme. Each neuron is integrated over a step with Boost.Odeint's Dormand-Prince 5(4)
// controlled stepper (runge_kutta_dopri5), whose step-size guess is kept per neuron between
// steps, at the population's tolerances (abs_tol, rel_tol). Every accepted substep ends exactly
// at the step's end or inside it; when v crosses the
// spike level upwards within a substep, the crossing time is found on dopri5's dense output
// (its 4th-order continuous extension, calc_state) by the Illinois variant of regula falsi, the
// state there is taken from the same interpolant, the model is reset, and integration resumes
// from the reset state for the rest of the step (event location as in Hairer, Norsett & Wanner,
// Solving ODEs I, II.6). Refractory periods run in continuous time from the located spike time.
// Each neuron depends only on its own history, so results are bit-identical for any thread count.

#include <algorithm>
#include <array>
#include <cmath>
#include <limits>
#include <string>
#include <vector>

#include <boost/numeric/odeint/stepper/controlled_runge_kutta.hpp>
#include <boost/numeric/odeint/stepper/runge_kutta_dopri5.hpp>

#include "backends/cpu/ode/ode_columns.hpp"
#include "model/format_number.hpp"

namespace volley::snn::detail {

template <class Dyn>
class adaptive_kernel final : public ode_columns<Dyn> {
    using base = ode_columns<Dyn>;
    using typename base::params;
    using typename base::state_t;
    using base::dim;
    using base::h_;
    using base::n_;
    using base::name_;
    using base::x_;
    using base::i_ext_;
    using base::last_spike_;
    using base::param;

  public:
    adaptive_kernel(const network& net, population_index pop, double dt_ms, std::uint64_t seed)
        : base(net, pop, dt_ms, seed) {
        ref_left_.assign(n_, 0.0);
        dt_guess_.assign(n_, h_);
    }

    void update(std::int64_t s, std::uint32_t begin, std::uint32_t end,
                const ode_population::step_input& in, std::vector<std::uint32_t>& spikes) override {
        controlled_t ctrl(checker_t(this->integrator_.abs_tol, this->integrator_.rel_tol));
        for (std::uint32_t i = begin; i < end; ++i) {
            state_t x = this->load(i);
            advance(ctrl, s, i, x, spikes);
            this->store(i, x);
        }
        this->add_input(
            s, in, spikes, [&](std::uint32_t i) { return ref_left_[i] <= 0; },
            [&](std::uint32_t i, state_t& x) {
                Dyn::reset(param(i), x);
                ref_left_[i] = Dyn::refractory_ms(param(i));
            });
    }

    void visit_state(state_archive& a) override {
        a.field("x", x_), a.field("i_ext", i_ext_), a.field("ref_left", ref_left_), a.field("dt_guess", dt_guess_);
        a.field("last_spike", last_spike_);
    }

  private:
    using stepper_t = boost::numeric::odeint::runge_kutta_dopri5<state_t>;
    using checker_t =
        boost::numeric::odeint::default_error_checker<double, typename stepper_t::algebra_type,
                                                      typename stepper_t::operations_type>;
    using controlled_t = boost::numeric::odeint::controlled_runge_kutta<stepper_t, checker_t>;

    static bool finite(const state_t& x) {
        return std::all_of(x.begin(), x.end(), [](double v) { return std::isfinite(v); });
    }

    /// Advances neuron i over step s: segments between spikes and refractory ends.
    void advance(controlled_t& ctrl, std::int64_t s, std::uint32_t i, state_t& x,
                 std::vector<std::uint32_t>& spikes) {
        const params& p = param(i);
        double t = 0, ref = ref_left_[i];
        while (t < h_) {
            const bool refractory = ref > 0;
            const double t0 = t;
            const double seg_end = refractory ? std::min(h_, t + ref) : h_;
            const bool fired = integrate(ctrl, p, i, refractory && Dyn::clamp_when_refractory,
                                         !refractory, x, t, seg_end);
            if (refractory) {
                ref = seg_end < h_ ? 0.0 : std::max(0.0, ref - (h_ - t0));
                if (ref < 1e-12 * h_) ref = 0;
            }
            if (fired) {
                spikes.push_back(i);
                last_spike_[i] = static_cast<double>(s) * h_ + t;
                Dyn::reset(p, x);
                ref = Dyn::refractory_ms(p);
            }
        }
        ref_left_[i] = ref;
    }

    /// Integrates x from t to t_end; with `detect`, stops at the first upward crossing of the
    /// spike level (returns true, t = crossing time, x = state there). `clamped`: v is held.
    bool integrate(controlled_t& ctrl, const params& p, std::uint32_t i, bool clamped, bool detect,
                   state_t& x, double& t, double t_end) {
        const double iext = i_ext_[i];
        auto sys = [&](const state_t& y, state_t& dydt, double) {
            Dyn::derivative(p, iext, clamped, y, dydt);
        };
        const double level = Dyn::spike_level(p);
        double& dt = dt_guess_[i];
        state_t dxdt, x_new, dxdt_new;
        sys(x, dxdt, t);
        int rejected = 0;
        while (t < t_end) {
            const double remaining = t_end - t;
            const bool last = dt >= remaining;
            double step = last ? remaining : dt;
            double t_try = t;
            const auto result = ctrl.try_step(sys, x, dxdt, t_try, x_new, dxdt_new, step);
            if (result != boost::numeric::odeint::success || !finite(x_new)) {
                dt = result == boost::numeric::odeint::success ? 0.25 * (t_try - t) : step;
                if (!(dt > 1e-14 * h_) || ++rejected > 100000)
                    throw error("population '" + name_ + "' neuron " + std::to_string(i) +
                                ": the integration diverged (state not finite or step size below " +
                                format_number(1e-14 * h_) + " ms); check the parameters");
                continue;
            }
            const double t_old = t, t_new = t_try;  // t_try = t + the step taken
            if (!last) dt = step;                   // the controller's guess for the next step
            if (detect && x[0] < level && x_new[0] >= level) {
                t = locate(ctrl, x, dxdt, t_old, x_new, dxdt_new, t_new, level);
                state_t x_event;
                ctrl.stepper().calc_state(t, x_event, x, dxdt, t_old, x_new, dxdt_new, t_new);
                x = x_event;
                return true;
            }
            x = x_new;
            dxdt = dxdt_new;
            t = last ? t_end : t_new;
        }
        return false;
    }

    /// The time in (t_old, t_new] where the dense output's v reaches `level` (Illinois method).
    static double locate(controlled_t& ctrl, const state_t& x_old, const state_t& d_old,
                         double t_old, const state_t& x_new, const state_t& d_new, double t_new,
                         double level) {
        double a = t_old, b = t_new, fa = x_old[0] - level, fb = x_new[0] - level;
        int side = 0;
        state_t y;
        for (int it = 0; it < 200 && b - a > 1e-15 * std::max(1.0, std::abs(b)); ++it) {
            const double c = (fb - fa) != 0 ? b - fb * (b - a) / (fb - fa) : 0.5 * (a + b);
            const double m = (c <= a || c >= b) ? 0.5 * (a + b) : c;
            ctrl.stepper().calc_state(m, y, x_old, d_old, t_old, x_new, d_new, t_new);
            const double fm = y[0] - level;
            if (fm == 0) return m;
            if (fm < 0) {
                a = m;
                fa = fm;
                if (side == -1) fb *= 0.5;
                side = -1;
            } else {
                b = m;
                fb = fm;
                if (side == 1) fa *= 0.5;
                side = 1;
            }
        }
        return b;
    }

    std::vector<double> ref_left_;  ///< refractory time left [ms]
    std::vector<double> dt_guess_;  ///< the integrator's next step size [ms]
};

}  // namespace volley::snn::detail
