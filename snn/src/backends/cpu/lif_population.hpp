#pragma once
// Runtime state of one LIF population (lif_delta, lif_exp or lif_alpha) as structure of
// arrays, and its exact update. Parameters are either one value for the whole population or
// one per neuron ("heterogeneous"); the update is compiled for each case.
//
// Why the update is split in two: synaptic input is sparse (CUBA: ~0.05 inputs per neuron and
// step), so the dense loop over all neurons never reads the ring buffer. It propagates the
// state, tests the threshold and decays the currents without branches (the refractory clamp
// is a select, so the loop vectorises); then only the neurons that received input (the
// "touched" list the delivery wrote) add it. For lif_exp and lif_alpha this is exact: the
// input of a step enters after the decay and after v is propagated, so `i = i·p11 + in` in one
// pass or `i = i·p11` then `i += in` round identically. lif_delta's input enters v before the
// threshold, so it is gathered first into a dense scratch column.

#include <cstdint>
#include <span>
#include <string>
#include <vector>

#include <volley/snn/network.hpp>

#include "backends/cpu/current_schedule.hpp"

namespace volley::snn::detail {

class lif_population {
public:
    /// Builds state and propagators for population `pop` of `net` at step `dt_ms`.
    lif_population(const network& net, population_index pop, double dt_ms, std::uint64_t seed);

    /// The input that arrives at the end of a step.
    struct step_input {
        std::int64_t* cells = nullptr;  ///< ring cells [neuron][receptor] of the population's neuron 0
        std::span<const std::uint32_t> touched;  ///< neurons that may have input (repeats allowed)
        std::int64_t shift = 0;                  ///< local index = touched[k] + shift
        double scale_e = 0, scale_i = 0;         ///< fixed point -> mV per receptor
    };

    /// Advances neurons [begin, end) (local indices) over step `s`, adds their input (and
    /// clears its ring cells), and appends the local indices of neurons that fire to `spikes`.
    void update(std::int64_t s, std::uint32_t begin, std::uint32_t end, const step_input& in,
                std::vector<std::uint32_t>& spikes);

    /// Applies the current stimuli that change at `step_index` to neurons [begin, end).
    void apply_currents(std::int64_t step_index, std::uint32_t begin, std::uint32_t end);

    /// True when a current stimulus of this population changes at `step_index`.
    bool currents_change_at(std::int64_t step_index) const;

    /// The state column of a variable ("v_mv", "i_syn_e_mv", "i_syn_i_mv").
    const std::vector<double>& state(const std::string& variable) const;

    std::uint32_t size() const noexcept { return n_; }

private:
    enum class kind { delta, exp, alpha };

    template <kind K, bool Hetero>
    void update_impl(std::int64_t s, std::uint32_t begin, std::uint32_t end, std::vector<std::uint32_t>& spikes);
    void add_input(const step_input& in);

    kind kind_;
    bool hetero_ = false;
    std::uint32_t n_ = 0;
    std::string name_;
    double h_ = 0;
    // State.
    std::vector<double> v_, ie_, ii_, xe_, xi_, i_ext_;
    /// The first step at which each neuron integrates again after a spike (a double holding an
    /// integer, so that the refractory test vectorises with the rest of the state).
    std::vector<double> next_active_;
    /// lif_delta only: the input of the current step [mV], gathered before the dense loop.
    std::vector<double> in_e_, in_i_;
    // Parameters and propagators: size 1, or size n_ when hetero_.
    std::vector<double> v_rest_, v_reset_, v_thresh_, p22_, p20_, p11e_, p11i_, p21e_, p21i_,
        p31e_, p31i_, jump_e_, jump_i_, i_bias_;
    std::vector<std::int32_t> ref_steps_;
    std::vector<double> ref_steps_d_;  ///< ref_steps_ as doubles, for the vectorised loop
    current_schedule currents_;
};

}  // namespace volley::snn::detail
