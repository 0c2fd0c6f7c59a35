#pragma once
// Runtime state of one LIF population (lif_delta, lif_exp or lif_alpha) as structure of
// arrays, and its exact update. Parameters are either one value for the whole population or
// one per neuron ("heterogeneous"); the update is compiled for each case.

#include <cstdint>
#include <string>
#include <vector>

#include <volley/snn/network.hpp>

namespace volley::snn::detail {

class lif_population {
public:
    /// Builds state and propagators for population `pop` of `net` at step `dt_ms`.
    lif_population(const network& net, population_index pop, double dt_ms, std::uint64_t seed);

    /// Advances neurons [begin, end) (local indices) by one step. Reads and clears their ring
    /// input (`in_e`, `in_i` point at the population's neuron 0 in the current slot; values are
    /// fixed point, scaled by `scale_e`/`scale_i` to mV) and appends the global ids of neurons
    /// that fire to `spikes`.
    void update(std::uint32_t begin, std::uint32_t end, std::int64_t* in_e, std::int64_t* in_i,
                double scale_e, double scale_i, std::uint32_t first_global,
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
    struct current_schedule {
        std::vector<std::int64_t> steps;  ///< where the amplitude changes, ascending
        std::vector<double> amplitudes;   ///< the amplitude from that step on [mV]
        std::vector<std::uint32_t> neurons;  ///< empty: all
        double at(std::int64_t s) const;
    };

    template <kind K, bool Hetero>
    void update_impl(std::uint32_t begin, std::uint32_t end, std::int64_t* in_e, std::int64_t* in_i,
                     double scale_e, double scale_i, std::uint32_t first_global,
                     std::vector<std::uint32_t>& spikes);

    kind kind_;
    bool hetero_ = false;
    std::uint32_t n_ = 0;
    std::string name_;
    double h_ = 0;
    // State.
    std::vector<double> v_, ie_, ii_, xe_, xi_, i_ext_;
    std::vector<std::int32_t> ref_;
    // Parameters and propagators: size 1, or size n_ when hetero_.
    std::vector<double> v_rest_, v_reset_, v_thresh_, p22_, p20_, p11e_, p11i_, p21e_, p21i_,
        p31e_, p31i_, jump_e_, jump_i_, i_bias_;
    std::vector<std::int32_t> ref_steps_;
    std::vector<current_schedule> currents_;
    std::vector<std::int64_t> change_steps_;  ///< union of the schedules' steps, ascending
};

}  // namespace volley::snn::detail
