#pragma once
// The fixed-step schemes of the ODE models (ode_integrator.hpp, fixed_step_schemes.hpp) over a
// population whose state is one column per variable.
//
// Step s of neurons [begin, end): one pass advances every neuron by the scheme (v held while
// refractory, for the models that clamp), fires where v crossed the spike level upwards during
// the step and the neuron was not refractory, resets those and sets their refractory countdown;
// its body has no branch, so GCC vectorises it across neurons (exp and expm1 are the
// branch-free vector_exp.hpp). The pass marks the neurons that fired in the sign bit of their
// refractory word and returns whether any v is not finite, which stops the run; a scan of the
// marks (one vector operation per 16 or 8 words) lists the spikes (stamped s + 1) in ascending
// order. Refractoriness is a countdown
// of whole steps: ceil(t_ref / dt) steps after the spike step. The input of the step's end is added
// within the pass, from every ring cell of the range, where the model's input cannot move v
// (every model but izhikevich: a sweep over the columns in order, where a touched list
// costs a scattered read-modify-write of every column per listed neuron); otherwise after it,
// from the touched list, as the adaptive scheme does. Each neuron depends only on its own history, and a vector lane
// rounds as the scalar code does (no FMA: -ffp-contract=off), so spikes are bit-identical for
// any thread count.

#include <algorithm>
#include <array>
#include <bit>
#include <cmath>
#include <cstdint>
#include <limits>
#include <string>
#include <vector>

#include "backends/cpu/cpu_isa.hpp"
#include "backends/cpu/ode/fixed_step_schemes.hpp"
#include "backends/cpu/ode/ode_columns.hpp"
#include "backends/cpu/split_to_double.hpp"
#include "model/format_number.hpp"
#include "model/refractory_steps.hpp"
#if defined(__GNUC__) && defined(__x86_64__)
#include <immintrin.h>
#endif

namespace volley::snn::detail {

/// A refractory word (fixed_step_pass.inc): the steps left in the low 31 bits, and the sign
/// bit set where the neuron fired in the last pass.
inline constexpr std::int32_t refractory_count = 0x7fffffff;
inline constexpr std::int32_t fired_mark = std::numeric_limits<std::int32_t>::min();

/// What the pass reads per neuron i besides the columns, as callables that a population with
/// one parameter set (or no stimulus) answers with constants: constants(i) (step_constants),
/// ref_steps(i) (refractory steps after a spike) and stimulus(i) (the external current).
template <class Constants, class RefSteps, class Stimulus>
struct pass_args {
    Constants constants;
    RefSteps ref_steps;
    Stimulus stimulus;
};

// The pass, compiled for each instruction set of cpu_isa.hpp (none with FMA, so all round
// alike; simulation_options::max_isa picks one to check). `pass_isa`: the set, for the mark
// scan's intrinsics; `converts_int64`: whether it has a vector conversion from 64-bit integers
// to doubles (to_double, split_to_double.hpp); without it GCC would leave the whole pass scalar.
inline constexpr cpu_isa pass_isa = cpu_isa::baseline;
inline constexpr bool converts_int64 = false;
#include "backends/cpu/ode/fixed_step_pass.inc"

#pragma GCC push_options
#pragma GCC target("avx2")
namespace fixed_avx2 {
inline constexpr cpu_isa pass_isa = cpu_isa::avx2;
#include "backends/cpu/ode/fixed_step_pass.inc"
}  // namespace fixed_avx2
#pragma GCC pop_options

#pragma GCC push_options
#pragma GCC target("avx512f,avx512vl,avx512dq,avx512bw,prefer-vector-width=512")
namespace fixed_avx512 {
inline constexpr cpu_isa pass_isa = cpu_isa::avx512;
inline constexpr bool converts_int64 = true;
#include "backends/cpu/ode/fixed_step_pass.inc"
}  // namespace fixed_avx512
#pragma GCC pop_options

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
        derive();
    }

    /// New parameters (simulation::set_parameter): the step's constants follow them.
    void refresh_parameters(const network& net, population_index pop, std::uint64_t seed) override {
        base::refresh_parameters(net, pop, seed);
        derive();
    }

    void set_isa(cpu_isa isa) override { isa_ = isa; }
    kernel_input input() const override { return in_pass ? kernel_input::every_cell : kernel_input::touched_list; }

    void update(std::int64_t s, std::uint32_t begin, std::uint32_t end,
                const ode_population::step_input& in, std::vector<std::uint32_t>& spikes) override {
        if (advance(begin, end, in) != 0) diverged(s, begin, end);
        collect(s, begin, end, spikes);
        if constexpr (!in_pass)
            this->add_input(
                s, in, spikes, [&](std::uint32_t i) { return (ref_left_[i] & refractory_count) == 0; },
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
    /// The refractory steps and the flow constants of each parameter set.
    void derive() {
        ref_steps_.clear();
        constants_.clear();
        ref_steps_.reserve(params_.size());
        for (std::size_t k = 0; k < params_.size(); ++k) {
            const double t_ref = Dyn::refractory_ms(params_[k]);
            ref_steps_.push_back(refractory_steps(std::ceil(t_ref / h_ - 1e-9), t_ref, h_, this->object(k)));
            constants_.push_back({params_[k], Dyn::make_flow(params_[k], h_)});
        }
    }

    /// Whether the pass adds the step's input (see the top of this file).
    static constexpr bool in_pass = !Dyn::input_moves_v;

    /// The pass over [begin, end) (fixed_step_pass). A population with one parameter set passes
    /// its constants by value; one without current sources passes a stimulus of 0, which
    /// leaves its column unread (the sum it enters, a constant + 0, is computed once, with the
    /// same bits as before).
    std::uint64_t advance(std::uint32_t begin, std::uint32_t end, const ode_population::step_input& in) {
        const auto stimulus = [i_ext = i_ext_.data()](std::uint32_t i) { return i_ext[i]; };
        if (!this->uniform_params()) {
            const step_constants<Dyn>* cs = constants_.data();
            const std::int32_t* steps = ref_steps_.data();
            return pass(begin, end, in, [cs](std::uint32_t i) -> const step_constants<Dyn>& { return cs[i]; },
                        [steps](std::uint32_t i) { return steps[i]; }, stimulus);
        }
        const step_constants<Dyn> c = constants_[0];
        const std::int32_t steps = ref_steps_[0];
        const auto constant = [c](std::uint32_t) { return c; };
        const auto ref_steps = [steps](std::uint32_t) { return steps; };
        if (this->has_currents()) return pass(begin, end, in, constant, ref_steps, stimulus);
        return pass(begin, end, in, constant, ref_steps, [](std::uint32_t) { return 0.0; });
    }

    /// fixed_step_pass compiled for the engine's instruction set, with the ring's input where the
    /// pass adds it and the population has a ring (not one whose input all comes direct).
    template <class Constants, class RefSteps, class Stimulus>
    std::uint64_t pass(std::uint32_t begin, std::uint32_t end, const ode_population::step_input& in,
                       Constants constants, RefSteps ref_steps, Stimulus stimulus) {
        std::array<double*, dim> col;
        for (std::size_t k = 0; k < dim; ++k) col[k] = x_[k].data();
        using args = pass_args<Constants, RefSteps, Stimulus>;
        const auto compiled = [this]<bool with_input>() {
            return isa_ == cpu_isa::avx512 ? &fixed_avx512::fixed_step_pass<Dyn, Scheme, with_input, args>
                   : isa_ == cpu_isa::avx2 ? &fixed_avx2::fixed_step_pass<Dyn, Scheme, with_input, args>
                                           : &fixed_step_pass<Dyn, Scheme, with_input, args>;
        };
        const bool ring = in_pass && in.cells != nullptr;
        auto* run = ring ? compiled.template operator()<in_pass>() : compiled.template operator()<false>();
        return run(col, ref_left_.data(), ring ? in.cells : nullptr, in.scale_e, in.scale_i,
                   args{constants, ref_steps, stimulus}, begin, end, h_);
    }

    /// The pass's spikes (stamped s + 1) in ascending order, from the fired marks (for_each_fired,
    /// for the engine's instruction set).
    void collect(std::int64_t s, std::uint32_t begin, std::uint32_t end, std::vector<std::uint32_t>& spikes) {
        const double t_spike = static_cast<double>(s + 1) * h_;
        const auto on = [&](std::uint32_t i) {
            spikes.push_back(i);
            last_spike_[i] = t_spike;
        };
        if (isa_ == cpu_isa::avx512) fixed_avx512::for_each_fired(ref_left_.data(), begin, end, on);
        else if (isa_ == cpu_isa::avx2) fixed_avx2::for_each_fired(ref_left_.data(), begin, end, on);
        else for_each_fired(ref_left_.data(), begin, end, on);
    }

    /// Ends the run at the first neuron of [begin, end) whose v is not finite after step s.
    [[noreturn]] void diverged(std::int64_t s, std::uint32_t begin, std::uint32_t end) const {
        std::uint32_t i = begin;
        while (i + 1 < end && std::isfinite(x_[0][i])) ++i;
        throw error(this->object(i) + ": v is not finite after step " + std::to_string(s) +
                    " with integrator '" + scheme_name(Scheme::id) + "' at dt = " + format_number(h_) +
                    " ms; use a smaller dt or another integrator (docs/integrators.md)");
    }

    std::vector<std::int32_t> ref_left_;   ///< refractory steps left, with the last pass's fired mark (fired_mark)
    std::vector<std::int32_t> ref_steps_;  ///< refractory steps after a spike (one, or per neuron)
    std::vector<step_constants<Dyn>> constants_;  ///< per parameter set (one, or per neuron)
    cpu_isa isa_ = cpu_isa::baseline;             ///< set_isa
};

}  // namespace volley::snn::detail
