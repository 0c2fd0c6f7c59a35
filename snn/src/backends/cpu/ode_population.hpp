#pragma once
// Runtime state of one population of a model integrated with Boost.Odeint (lif_cond_exp,
// lif_cond_alpha, izhikevich, adex, hh), and its update. The model's right-hand side lives in
// backends/cpu/ode/<model>_dynamics.hpp; the schemes are shared: adaptive (ode/adaptive_kernel.hpp:
// dopri5 with event location) and the fixed-step ones (ode/fixed_step_kernel.hpp), each compiled
// once per model behind this facade and chosen from the model's integrator when the engine is
// built, so the engine makes one virtual call per population and step, never one per neuron.
//
// Order within step s (as for the LIF models, engine.md): integrate every neuron from s·dt to
// (s+1)·dt (adaptive: locating each threshold crossing inside the step, resetting there and
// integrating the rest of the step from the reset state); then add the input that arrives at the step's end
// (conductance jumps, or v jumps for izhikevich). A spike inside step s is stamped s + 1.

#include <cstdint>
#include <memory>
#include <span>
#include <string>
#include <vector>

#include <volley/snn/network.hpp>
#include "backends/cpu/cpu_isa.hpp"
#include "backends/cpu/population_kernel.hpp"
#include "checkpoint/state_archive.hpp"

namespace volley::snn::detail {

class ode_population {
  public:
    /// Builds the state of population `pop` of `net` (whose model must satisfy is_ode_model)
    /// at step `dt_ms`. Throws invalid_parameter for a bad per-neuron parameter or a negative
    /// conductance weight onto a conductance-based population.
    ode_population(const network& net, population_index pop, double dt_ms, std::uint64_t seed);
    ~ode_population();
    ode_population(ode_population&&) noexcept;
    ode_population& operator=(ode_population&&) noexcept;

    /// The input that arrives at the end of a step (the same layout as lif_population's).
    struct step_input {
        std::int64_t* cells =
            nullptr;  ///< ring cells [neuron][receptor] of the population's neuron 0; null where
                      ///< all its input comes direct (add_uniform_input)
        std::span<const std::uint32_t> touched;  ///< neurons that may have input (repeats allowed;
                                                 ///< empty for a kernel that reads every cell)
        std::int64_t shift = 0;                  ///< local index = touched[k] + shift
        double scale_e = 0, scale_i = 0;         ///< fixed point -> weight units per receptor
    };

    /// How the kernel takes its input (population_kernel.hpp): the fixed-step kernels of
    /// models whose input cannot move v read every ring cell within their pass, the others
    /// the touched list.
    kernel_input input() const { return input_; }

    /// One step (population_kernel.hpp): the current stimuli that change at it, then update().
    void step(const population_step& st, std::vector<std::uint32_t>& spikes) {
        if (st.s > 0 && currents_change_at(st.s)) apply_currents(st.s, st.begin, st.end);
        update(st.s, st.begin, st.end, {st.cells, st.touched, st.shift, st.scale_e, st.scale_i}, spikes);
    }

    /// Advances neurons [begin, end) over step `s`, adds their input (clearing its ring cells)
    /// and appends the local index of every spike to `spikes`, in ascending order (a neuron
    /// that fires twice in the step appears twice).
    void update(std::int64_t s, std::uint32_t begin, std::uint32_t end, const step_input& in,
                std::vector<std::uint32_t>& spikes);

    /// True when input may be added straight into the state after update(): every model whose
    /// input is a jump of a synaptic variable, not of v (all but izhikevich).
    bool takes_input_after_update() const noexcept { return after_update_; }

    /// Adds `w` (a weight in the model's units) to receptor `receptor` (0 excitatory, 1
    /// inhibitory) of neurons offsets[k] + shift, as input that arrives at the end of the step
    /// just updated, one event at a time (Dyn::add_input's jump, the same value for each: any
    /// order gives the same bits). The direct delivery (cpu_engine_direct.cpp).
    void add_uniform_input(std::uint32_t receptor, std::span<const std::uint32_t> offsets, std::int64_t shift,
                           double w);

    /// Applies the current stimuli that change at `step_index` to neurons [begin, end).
    void apply_currents(std::int64_t step_index, std::uint32_t begin, std::uint32_t end);

    /// The current stimuli into the population changed in `net`: they hold from step `s` on.
    void refresh_currents(const network& net, population_index pop, std::uint64_t seed, std::int64_t s);
    /// The population's parameters changed in `net` (simulation::set_parameter): from the next
    /// step on, the state kept.
    void refresh_parameters(const network& net, population_index pop, std::uint64_t seed);

    /// True when a current stimulus of this population changes at `step_index`.
    bool currents_change_at(std::int64_t step_index) const;

    /// The state column of a variable (model_state_variables); throws unknown_name.
    const std::vector<double>& state(const std::string& variable) const;
    void sample_state(const std::string& variable, std::int64_t, std::span<const std::uint32_t> ids,
                      std::vector<double>& values) const {
        append_column(state(variable), ids, values);
    }

    /// The time [ms] of neuron i's latest spike, located inside its step (-inf before any).
    double last_spike_time_ms(std::uint32_t i) const;

    /// Saves or restores the dynamic state (checkpoint/state_archive.hpp).
    void visit_state(state_archive& a);

    std::uint32_t size() const noexcept;

    /// The instruction set of the fixed-step kernels (the engine's, cpu_isa.hpp).
    void set_isa(cpu_isa isa);

    /// The per-model, per-scheme implementation (ode/ode_columns.hpp).
    class kernel;

  private:
    std::unique_ptr<kernel> k_;
    kernel_input input_ = kernel_input::touched_list;
    bool after_update_ = false;
};

}  // namespace volley::snn::detail
