#pragma once
// The fixed-step schemes of the ODE models (ode_integrator.hpp, fixed_step_schemes.hpp) over a
// population whose state is one column per variable.
//
// Step s of neurons [begin, end): one pass advances every neuron by the scheme (v held while
// refractory, for the models that clamp), fires where v crossed the spike level upwards during
// the step and the neuron was not refractory, resets those and sets their refractory countdown;
// its body has no branch, so GCC vectorises it across neurons where the model's right-hand
// side has no call either (lif_cond_exp and lif_cond_alpha with rk4, rk2 and euler, and
// izhikevich; hh, adex and exponential_euler call exp or expm1 and stay scalar). A second
// pass checks that v is finite, and a third collects the spikes (stamped s + 1) in ascending
// order, eight neurons at a time where none fired. Refractoriness is a countdown of whole
// steps: ceil(t_ref / dt) steps after the spike step. Then the input of the step's end is
// added, as for every scheme. Each neuron depends only on its own history, and a vector lane
// rounds as the scalar code does (no FMA: -ffp-contract=off), so spikes are bit-identical for
// any thread count.

#include <algorithm>
#include <array>
#include <cmath>
#include <cstdint>
#include <cstring>
#include <limits>
#include <string>
#include <vector>

#include "backends/cpu/ode/fixed_step_schemes.hpp"
#include "backends/cpu/ode/ode_columns.hpp"
#include "model/format_number.hpp"

namespace volley::snn::detail {

/// The vectorised pass over neurons [begin, end) (see the top of this file). `param(i)` and
/// `ref_steps(i)` give neuron i's parameters and refractory steps (by value for a population
/// with one parameter set, so that they stay in registers). Written for GCC's loop vectoriser,
/// which needs a body without branches: bitwise & for the firing condition, selects for the
/// reset and the countdown, and the file that instantiates it compiled with -fno-trapping-math
/// (snn/CMakeLists.txt), so that the right-hand side, whose v part only matters when the neuron
/// is free, may be computed for every neuron. That flag lets the compiler speculate; it
/// changes no result.
template <class Dyn, class Scheme, class Param, class RefSteps>
void fixed_step_pass(std::array<double*, Dyn::dim> col, const double* __restrict i_ext,
                     std::int32_t* __restrict ref_left, std::uint8_t* __restrict fired, Param param,
                     RefSteps ref_steps, std::uint32_t begin, std::uint32_t end, double h) {
    for (std::uint32_t i = begin; i < end; ++i) {
        const auto p = param(i);
        typename Dyn::state x;
        for (std::size_t k = 0; k < Dyn::dim; ++k) x[k] = col[k][i];
        const std::int32_t ref = ref_left[i];
        const double v_old = x[0];
        Scheme::template step<Dyn>(p, i_ext[i], Dyn::clamp_when_refractory && ref > 0, x, h);
        const double level = Dyn::spike_level(p);
        const bool fire = (ref == 0) & (v_old < level) & (x[0] >= level);
        typename Dyn::state r = x;
        Dyn::reset(p, r);
        for (std::size_t k = 0; k < Dyn::dim; ++k) col[k][i] = fire ? r[k] : x[k];
        ref_left[i] = fire ? ref_steps(i) : std::max(ref - 1, 0);
        fired[i] = fire ? 1 : 0;
    }
}

/// True when v[begin, end) is finite (a loop of its own: it vectorises, and a reduction inside
/// fixed_step_pass would keep that loop scalar).
inline bool all_finite(const double* v, std::uint32_t begin, std::uint32_t end) {
    bool finite = true;
    for (std::uint32_t i = begin; i < end; ++i) finite &= std::abs(v[i]) <= std::numeric_limits<double>::max();
    return finite;
}

template <class Dyn, class Scheme>
class fixed_step_kernel final : public ode_columns<Dyn> {
    using base = ode_columns<Dyn>;
    using typename base::params;
    using typename base::state_t;
    using base::dim;
    using base::h_;
    using base::n_;
    using base::x_;
    using base::i_ext_;
    using base::last_spike_;
    using base::params_;
    using base::param;

  public:
    fixed_step_kernel(const network& net, population_index pop, double dt_ms, std::uint64_t seed)
        : base(net, pop, dt_ms, seed) {
        ref_left_.assign(n_, 0);
        fired_.assign(n_, 0);
        ref_steps_.reserve(params_.size());
        for (std::size_t k = 0; k < params_.size(); ++k) {
            const double t_ref = Dyn::refractory_ms(params_[k]);
            const double steps = std::ceil(t_ref / h_ - 1e-9);
            if (!(steps < std::numeric_limits<std::int32_t>::max()))
                throw invalid_parameter(this->object(k), "t_ref_ms", format_number(t_ref),
                                        "is more than 2^31 steps of dt = " + format_number(h_) + " ms");
            ref_steps_.push_back(static_cast<std::int32_t>(std::max(0.0, steps)));
        }
    }

    void update(std::int64_t s, std::uint32_t begin, std::uint32_t end,
                const ode_population::step_input& in, std::vector<std::uint32_t>& spikes) override {
        if (this->uniform_params()) advance<true>(begin, end);
        else advance<false>(begin, end);
        if (!all_finite(x_[0].data(), begin, end))
            for (std::uint32_t i = begin; i < end; ++i)
                if (!std::isfinite(x_[0][i])) diverged(s, i);
        const double t_spike = static_cast<double>(s + 1) * h_;
        for (std::uint32_t i = begin; i < end;) {
            std::uint64_t word = 0;  // eight neurons at a time while none fired
            if (end - i >= 8) std::memcpy(&word, fired_.data() + i, 8);
            if (end - i >= 8 && word == 0) {
                i += 8;
                continue;
            }
            if (fired_[i]) {
                spikes.push_back(i);
                last_spike_[i] = t_spike;
            }
            ++i;
        }
        this->add_input(
            s, in, spikes, [&](std::uint32_t i) { return ref_left_[i] == 0; },
            [&](std::uint32_t i, state_t& x) {
                Dyn::reset(param(i), x);
                ref_left_[i] = ref_steps_[params_.size() == 1 ? 0 : i];
            });
    }

    void visit_state(state_archive& a) override {
        a.field("x", x_), a.field("i_ext", i_ext_), a.field("ref_left_steps", ref_left_);
        a.field("last_spike", last_spike_);
    }

  private:
    /// The pass over [begin, end) (fixed_step_pass); `uniform`: one parameter set for all.
    template <bool uniform>
    void advance(std::uint32_t begin, std::uint32_t end) {
        std::array<double*, dim> col;
        for (std::size_t k = 0; k < dim; ++k) col[k] = x_[k].data();
        if constexpr (uniform) {
            const params p = params_[0];
            const std::int32_t steps = ref_steps_[0];
            fixed_step_pass<Dyn, Scheme>(
                col, i_ext_.data(), ref_left_.data(), fired_.data(), [p](std::uint32_t) { return p; },
                [steps](std::uint32_t) { return steps; }, begin, end, h_);
        } else {
            const params* ps = params_.data();
            const std::int32_t* steps = ref_steps_.data();
            fixed_step_pass<Dyn, Scheme>(
                col, i_ext_.data(), ref_left_.data(), fired_.data(),
                [ps](std::uint32_t i) -> const params& { return ps[i]; },
                [steps](std::uint32_t i) { return steps[i]; }, begin, end, h_);
        }
    }

    [[noreturn]] void diverged(std::int64_t s, std::uint32_t i) const {
        throw error(this->object(i) + ": v is not finite after step " + std::to_string(s) +
                    " with integrator '" + scheme_name(Scheme::id) + "' at dt = " + format_number(h_) +
                    " ms; use a smaller dt or another integrator (docs/integrators.md)");
    }

    std::vector<std::int32_t> ref_left_;   ///< refractory steps left
    std::vector<std::int32_t> ref_steps_;  ///< refractory steps after a spike (one, or per neuron)
    std::vector<std::uint8_t> fired_;      ///< 1 where the neuron fired in the last pass
};

}  // namespace volley::snn::detail
