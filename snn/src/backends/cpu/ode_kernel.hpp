#pragma once
// The shared integration of the ODE models (see ode_population.hpp): one template, instantiated
// for each model's dynamics in ode_population.cpp.
//
// Why this scheme. Each neuron is integrated over a step with Boost.Odeint's Dormand-Prince 5(4)
// controlled stepper (runge_kutta_dopri5), whose step-size guess is kept per neuron between
// steps. Every accepted substep ends exactly at the step's end or inside it; when v crosses the
// spike level upwards within a substep, the crossing time is found on dopri5's dense output
// (its 4th-order continuous extension, calc_state) by the Illinois variant of regula falsi, the
// state there is taken from the same interpolant, the model is reset, and integration resumes
// from the reset state for the rest of the step (event location as in Hairer, Norsett & Wanner,
// Solving ODEs I, II.6). Refractory periods run in continuous time from the located spike time.
// Each neuron depends only on its own history, so results are bit-identical for any thread count.

#include <volley/error.hpp>

#include <algorithm>
#include <array>
#include <cmath>
#include <limits>
#include <string>
#include <vector>

#include <boost/numeric/odeint/stepper/controlled_runge_kutta.hpp>
#include <boost/numeric/odeint/stepper/runge_kutta_dopri5.hpp>

#include "backends/cpu/current_schedule.hpp"
#include "backends/cpu/ode_population.hpp"
#include "build/draw_values.hpp"
#include "model/format_number.hpp"

namespace volley::snn::detail {

class ode_population::kernel {
  public:
    virtual ~kernel() = default;
    virtual void update(std::int64_t s, std::uint32_t begin, std::uint32_t end,
                        const step_input& in, std::vector<std::uint32_t>& spikes) = 0;
    virtual void apply_currents(std::int64_t s, std::uint32_t begin, std::uint32_t end) = 0;
    virtual bool currents_change_at(std::int64_t s) const = 0;
    virtual const std::vector<double>& state(const std::string& variable) const = 0;
    virtual double last_spike_time_ms(std::uint32_t i) const = 0;
    virtual std::uint32_t size() const = 0;
    virtual void visit_state(state_archive& a) = 0;
};

/// Throws invalid_parameter when a projection onto conductance-based population `pop` can
/// carry a negative weight (a conductance jump must be >= 0 nS).
void check_conductance_weights(const network& net, population_index pop);

template <class Dyn>
class ode_kernel final : public ode_population::kernel {
  public:
    using params = typename Dyn::params;
    using state_t = typename Dyn::state;
    static constexpr std::size_t dim = Dyn::dim;

    ode_kernel(const network& net, population_index pop, double dt_ms, std::uint64_t seed)
        : currents_(net, pop, dt_ms) {
        const auto& p = net.at(pop);
        n_ = p.size;
        name_ = p.name;
        h_ = dt_ms;
        if constexpr (Dyn::conductance_input) check_conductance_weights(net, pop);
        const std::string object = "population '" + p.name + "'";
        const auto infos = model_parameters(p.model);
        if (p.parameters.empty()) {
            params_.push_back(std::get<typename Dyn::model>(p.model).p);
        } else {
            params_.reserve(n_);
            for (std::uint32_t i = 0; i < n_; ++i) {
                neuron_model m = p.model;
                const std::string who = object + " neuron " + std::to_string(i);
                for (const auto& [name, spec] : p.parameters) {
                    const auto k = static_cast<std::uint32_t>(
                        std::find_if(infos.begin(), infos.end(),
                                     [&](const auto& f) { return name == f.name; }) -
                        infos.begin());
                    const double v = draw_neuron_value(spec, seed, pop.value, k, i);
                    check_parameter(m, name, v, who);
                    set_parameter(m, name, v);
                }
                validate_model(m, who);
                params_.push_back(std::get<typename Dyn::model>(m).p);
            }
        }
        names_ = model_state_variables(p.model);
        x_.assign(dim, std::vector<double>(n_));
        for (std::uint32_t i = 0; i < n_; ++i) {
            const state_t x0 = Dyn::initial(param(i));
            for (std::size_t k = 0; k < dim; ++k) x_[k][i] = x0[k];
        }
        for (const auto& [var, spec] : p.initial_values) {
            const auto k =
                static_cast<std::size_t>(std::find_if(names_.begin(), names_.end(),
                                                      [&](const char* v) { return var == v; }) -
                                         names_.begin());
            for (std::uint32_t i = 0; i < n_; ++i)
                x_[k][i] =
                    draw_neuron_value(spec, seed, pop.value, static_cast<std::uint32_t>(64 + k), i);
        }
        i_ext_.assign(n_, 0.0);
        ref_left_.assign(n_, 0.0);
        dt_guess_.assign(n_, h_);
        last_spike_.assign(n_, -std::numeric_limits<double>::infinity());
        if (!currents_.empty()) currents_.amplitudes_at(0, 0, n_, i_ext_);
    }

    void update(std::int64_t s, std::uint32_t begin, std::uint32_t end,
                const ode_population::step_input& in, std::vector<std::uint32_t>& spikes) override {
        const std::size_t first = spikes.size();
        controlled_t ctrl(checker_t(Dyn::abs_tol, Dyn::rel_tol));
        for (std::uint32_t i = begin; i < end; ++i) {
            state_t x;
            for (std::size_t k = 0; k < dim; ++k) x[k] = x_[k][i];
            advance(ctrl, s, i, x, spikes);
            for (std::size_t k = 0; k < dim; ++k) x_[k][i] = x[k];
        }
        bool unsorted = false;
        for (const std::uint32_t k : in.touched) {
            const auto i = static_cast<std::uint32_t>(k + in.shift);
            std::int64_t* cell = in.cells + 2 * std::size_t{i};
            const double w_e = static_cast<double>(cell[0]) * in.scale_e;
            const double w_i = static_cast<double>(cell[1]) * in.scale_i;
            cell[0] = 0;
            cell[1] = 0;
            if (w_e == 0 && w_i == 0) continue;
            state_t x;
            for (std::size_t q = 0; q < dim; ++q) x[q] = x_[q][i];
            Dyn::add_input(param(i), x, w_e, w_i);
            if constexpr (Dyn::input_moves_v) {
                // A jump of v to or past the spike level fires at the step's end.
                if (ref_left_[i] <= 0 && x[0] >= Dyn::spike_level(param(i))) {
                    Dyn::reset(param(i), x);
                    ref_left_[i] = Dyn::refractory_ms(param(i));
                    last_spike_[i] = static_cast<double>(s + 1) * h_;
                    spikes.push_back(i);
                    unsorted = true;
                }
            }
            for (std::size_t q = 0; q < dim; ++q) x_[q][i] = x[q];
        }
        if (unsorted) std::sort(spikes.begin() + static_cast<std::ptrdiff_t>(first), spikes.end());
    }

    void apply_currents(std::int64_t s, std::uint32_t begin, std::uint32_t end) override {
        currents_.amplitudes_at(s, begin, end, i_ext_);
    }
    bool currents_change_at(std::int64_t s) const override { return currents_.changes_at(s); }

    const std::vector<double>& state(const std::string& variable) const override {
        for (std::size_t k = 0; k < names_.size(); ++k)
            if (variable == names_[k]) return x_[k];
        throw unknown_name("state variable", variable, "population '" + name_ + "'");
    }
    double last_spike_time_ms(std::uint32_t i) const override { return last_spike_[i]; }
    std::uint32_t size() const override { return n_; }
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

    const params& param(std::uint32_t i) const {
        return params_.size() == 1 ? params_[0] : params_[i];
    }

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

    std::uint32_t n_ = 0;
    std::string name_;
    double h_ = 0;
    current_schedule currents_;
    std::vector<params> params_;          ///< one, or one per neuron
    std::span<const char* const> names_;  ///< state variable names, in Dyn's state order
    std::vector<std::vector<double>> x_;  ///< [variable][neuron]
    std::vector<double> i_ext_;           ///< stimulus current of each neuron (model units)
    std::vector<double> ref_left_;        ///< refractory time left [ms]
    std::vector<double> dt_guess_;        ///< the integrator's next step size [ms]
    std::vector<double> last_spike_;      ///< [ms]
};

}  // namespace volley::snn::detail
