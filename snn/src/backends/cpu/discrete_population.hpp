#pragma once
// Runtime state of one discrete_neuron population (the NIR neuron family and the IF neuron of
// CNN conversion) as structure of arrays, with its Euler or exact step (neuron_models.hpp).
// Every parameter is kept per neuron: these populations are small next to their synapses, and
// set_bias changes i_bias per neuron at run time.

#include <cstdint>
#include <span>
#include <string>
#include <vector>

#include <volley/snn/network.hpp>
#include "backends/cpu/cpu_isa.hpp"
#include "backends/cpu/population_kernel.hpp"
#include "checkpoint/state_archive.hpp"

namespace volley::snn::detail {

class discrete_population {
public:
    /// Builds state and step coefficients for population `pop` of `net` at step `dt_ms`.
    discrete_population(const network& net, population_index pop, double dt_ms, std::uint64_t seed);

    /// The input that arrives this step: the population's ring cells [neuron][receptor] in fixed
    /// point, and the scale of each receptor. Both receptors add to the same input.
    struct step_input {
        std::int64_t* cells = nullptr;
        double scale_e = 0, scale_i = 0;
        /// False when no projection reaches the inhibitory receptor: its cells stay 0 and the
        /// plain IF step neither reads nor clears them.
        bool inhibitory = true;
        /// False when no projection reaches the population at all (the first layer of a
        /// converted CNN, driven by its bias): the plain IF step reads no cell.
        bool fed = true;
        /// When not null (plain IF only), the excitatory input of neuron i is
        /// sums[i] · 2^sums_shift instead of its cell: a convolution that is the population's
        /// only input, read in place (conv_projection::read_in_place).
        const std::int32_t* sums = nullptr;
        std::uint32_t sums_shift = 0;
    };

    static constexpr kernel_input input() { return kernel_input::every_cell; }

    /// One step (population_kernel.hpp).
    void step(const population_step& st, std::vector<std::uint32_t>& spikes) {
        update(st.begin, st.end, {st.cells, st.scale_e, st.scale_i, st.inhibitory, st.fed, st.sums, st.sums_shift},
               spikes);
    }

    /// Advances neurons [begin, end) (local indices) over step `s`, reading and clearing their
    /// ring cells, and appends the local indices of neurons that fire to `spikes`.
    void update(std::uint32_t begin, std::uint32_t end, const step_input& in, std::vector<std::uint32_t>& spikes);

    /// Returns v and i_syn to their initial values (the parameters stay as they are).
    void restart() {
        v_ = v_initial_;
        i_syn_ = i_syn_initial_;
        ahead_end_.clear();
        ahead_given_ = 0;
    }

    /// Sets i_bias per neuron; throws invalid_parameter on a size mismatch or a non-finite value.
    void set_bias(std::span<const double> per_neuron);
    /// set_bias's checks, for population `population` of `n` neurons.
    static void check_bias(const std::string& population, std::uint32_t n, std::span<const double> per_neuron);

    /// The state column of a variable ("v", "i_syn"), at the step the engine is at.
    const std::vector<double>& state(const std::string& variable) const;
    void sample_state(const std::string& variable, std::int64_t, std::span<const std::uint32_t> ids,
                      std::vector<double>& values) const {
        append_column(state(variable), ids, values);
    }

    /// Saves or restores the dynamic state (checkpoint/state_archive.hpp).
    void visit_state(state_archive& a) {
        a.field("v", v_), a.field("i_syn", i_syn_), a.field("i_bias", i_bias_), a.field("ahead_v", ahead_v_);
        a.field("ahead_bits", ahead_bits_), a.field("ahead_spikes", ahead_spikes_), a.field("ahead_end", ahead_end_);
        a.field("ahead_given", ahead_given_);
    }

    std::uint32_t size() const noexcept { return n_; }

    /// The state and step coefficients as built, for the device backends, which step the
    /// general formula of update() with them (device_kernels.hpp: discrete_step).
    struct built_state {
        discrete_neuron::reset_mode reset = discrete_neuron::reset_mode::to_v_reset;
        std::vector<double> v, i_syn, v_leak, v_threshold, v_reset, w_in, i_bias, r, syn_keep, mem_keep, in_gain, cross;
        std::vector<std::uint8_t> has_syn, drive_from_i;
    };
    built_state export_built_state() const {
        return {reset_, v_initial_, i_syn_initial_, v_leak_, v_threshold_, v_reset_, w_in_, i_bias_, r_, syn_keep_,
                mem_keep_, in_gain_, cross_, has_syn_, drive_from_i_};
    }

    /// The instruction set of the IF kernels (the engine's, cpu_isa.hpp).
    void set_isa(cpu_isa isa) noexcept { isa_ = isa; }
    /// Every neuron is a plain IF neuron: the step that can read a convolution's sums in place
    /// (population_step::sums).
    bool reads_sums() const noexcept { return plain_if_; }

private:
    /// update() for plain IF neurons (no leak, no synaptic stage, v_leak = 0): the same
    /// arithmetic in a loop that vectorises (discrete_if_kernel.cpp).
    void update_plain_if(std::uint32_t begin, std::uint32_t end, const step_input& in, std::vector<std::uint32_t>& spikes);
    /// update() for every other neuron, with reset rule R (chosen once per call from reset_).
    template <discrete_neuron::reset_mode R>
    void update_general(std::uint32_t begin, std::uint32_t end, const step_input& in, std::vector<std::uint32_t>& spikes);

    // Run-ahead (discrete_if_ahead.cpp). A unit IF population with no input (the first layer
    // of a converted CNN, driven by its bias) that one thread updates whole does not depend on
    // anything else, so update() computes ahead_steps steps per pass over v, with v held in
    // registers, and hands out one step's spikes per call. v_ then holds v before the first of
    // those steps and ahead_v_ after the last; the v of the step the engine is at is replayed
    // from v_ when asked for (state(), set_bias()). The arithmetic is that of the one-step
    // kernel, so the spikes and v are the same.
    static constexpr std::uint32_t ahead_steps = 16;
    void update_ahead(std::vector<std::uint32_t>& spikes);
    /// v after `steps` steps from v_ (the arithmetic of one step, repeated), into `out`.
    void replay(std::uint32_t steps, std::vector<double>& out) const;
    /// Makes v_ the v of the step the engine is at and drops the steps computed ahead.
    void settle();
    std::vector<double> ahead_v_;
    std::vector<std::uint8_t> ahead_bits_;                 ///< [step][neuron / 8]: who fires
    std::vector<std::uint32_t> ahead_spikes_, ahead_end_;  ///< the steps' lists back to back; each one's end
    std::uint32_t ahead_given_ = 0;                        ///< steps handed out of ahead_end_.size()
    mutable std::vector<double> v_now_;                    ///< state("v") while ahead
    bool plain_if_ = false;  ///< every neuron is a plain IF neuron
    cpu_isa isa_ = cpu_isa::baseline;  ///< the IF kernels' instruction set (set_isa)
    bool unit_if_ = false;   ///< plain IF with r = w_in = 1 and one threshold and reset for all
    std::uint32_t n_ = 0;
    std::string name_;
    discrete_neuron::reset_mode reset_ = discrete_neuron::reset_mode::to_v_reset;
    /// The plain IF step's choice between its two resets (it runs for to_v_reset and subtract).
    bool subtracts() const noexcept { return reset_ == discrete_neuron::reset_mode::subtract; }
    // State.
    std::vector<double> v_, i_syn_;
    std::vector<double> v_initial_, i_syn_initial_;
    // Per-neuron parameters and step coefficients (see the constructor).
    std::vector<double> v_leak_, v_threshold_, v_reset_, w_in_, i_bias_, r_;
    std::vector<std::uint8_t> has_syn_;
    std::vector<std::uint8_t> drive_from_i_;  ///< the membrane sees the new i (else u, exact case)
    std::vector<double> syn_keep_;  ///< i = u + (i - u)·syn_keep_
    std::vector<double> mem_keep_;  ///< leaky: v - v_leak decays by mem_keep_ over the step
    std::vector<double> mem_gain_;  ///< leaky: weight of r·drive held over the step
    std::vector<double> in_gain_;   ///< mem_gain_·r, within a few float32 ulps of 1 taken as 1
    std::vector<double> cross_;     ///< exact with synaptic stage: weight of r·(i_old - u)
};

}  // namespace volley::snn::detail
