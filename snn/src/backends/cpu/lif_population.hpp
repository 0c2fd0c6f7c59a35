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

#include "backends/cpu/aligned_vector.hpp"
#include "backends/cpu/cpu_isa.hpp"
#include "backends/cpu/current_schedule.hpp"
#include "backends/cpu/population_kernel.hpp"
#include "checkpoint/state_archive.hpp"

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

    /// Input taken straight from the synapse rows of one uniform projection (see
    /// cpu_engine_direct.cpp): the neurons it reaches, sorted by chunk of direct_chunk neurons
    /// of the caller's range, so that update_pair() adds each chunk's input while the chunk
    /// is in cache.
    struct direct_route {
        std::uint32_t receptor = 0;  ///< 0 excitatory, 1 inhibitory
        double w = 0;                ///< the weight in mV times input_gain()
        const std::vector<std::uint32_t>* lists = nullptr;  ///< [chunk]: local indices, in order of arrival
    };
    static constexpr std::uint32_t direct_chunk = 4096;

    /// Sizes the refractory bookkeeping for `threads` callers of update(), each with its own
    /// range of neurons (call before the first update).
    void set_threads(int threads);
    /// The instruction set of the dense step (the engine's, cpu_isa.hpp).
    void set_isa(cpu_isa isa) noexcept { isa_ = isa; }

    static constexpr kernel_input input() { return kernel_input::touched_list; }

    /// One step (population_kernel.hpp): the current stimuli that change at it, then update().
    void step(const population_step& st, std::vector<std::uint32_t>& spikes) {
        if (st.s > 0 && currents_change_at(st.s)) apply_currents(st.s, st.begin, st.end);
        update(st.thread, st.s, st.begin, st.end, {st.cells, st.touched, st.shift, st.scale_e, st.scale_i}, spikes);
    }

    /// Advances neurons [begin, end) (local indices, the range of caller `thread`) over step
    /// `s`, adds their input (and clears its ring cells), and appends the local indices of
    /// neurons that fire to `spikes`.
    void update(int thread, std::int64_t s, std::uint32_t begin, std::uint32_t end, const step_input& in,
                std::vector<std::uint32_t>& spikes);

    /// Advances neurons [begin, end) over steps s and s + 1, chunk by chunk (temporal
    /// blocking: each chunk takes both steps while it is in cache, so the state is streamed
    /// from memory once per two steps). This is exact for input that arrives one step after
    /// its spike, and is the same computation as update(s), update(s + 1) in order, provided
    /// the caller has added the spikes of step s - 2 (the input update(s - 1) would have added
    /// at its end, which the previous update_pair could not know all of):
    /// - `between`, the spikes of step s - 1, is added after step s;
    /// - the spikes of step s, input after step s + 1, are for the caller to add before the
    ///   next call.
    /// Only for populations that steps_in_pairs(), with no ring input and no current stimuli.
    void update_pair(int thread, std::int64_t s, std::uint32_t begin, std::uint32_t end,
                     std::span<const direct_route> between, std::vector<std::uint32_t>& spikes,
                     std::vector<std::uint32_t>& next_spikes);
    /// True when update_pair() may be used: lif_exp with one set of parameters.
    bool steps_in_pairs() const noexcept { return scaled_; }

    /// True when input may be added straight into the synaptic state after update() (lif_exp
    /// and lif_alpha: the input of a step enters after the dense step).
    bool takes_input_after_update() const noexcept { return kind_ != kind::delta; }

    /// Adds `w` (a weight in mV times input_gain()) to receptor `receptor` (0 excitatory, 1
    /// inhibitory) of neurons offsets[k] + shift, as input that arrives at the end of the step
    /// just updated. For projections with one delay of one step and one weight: the spikes of
    /// step s - 1 go from their synapse rows into the currents with no ring buffer between.
    void add_uniform_input(std::uint32_t receptor, std::span<const std::uint32_t> offsets, std::int64_t shift,
                           double w);

    /// The factor by which input arriving at the end of step s is stored (1 unless scaled_).
    double input_gain(std::int64_t s, bool inhibitory) const;

    /// Applies the current stimuli that change at `step_index` to neurons [begin, end).
    void apply_currents(std::int64_t step_index, std::uint32_t begin, std::uint32_t end);

    /// True when a current stimulus of this population changes at `step_index`.
    bool currents_change_at(std::int64_t step_index) const;

    /// The current stimuli into the population changed in `net`: they hold from step `s` on.
    void refresh_currents(const network& net, population_index pop, std::uint64_t seed, std::int64_t s) {
        currents_ = current_schedule(net, pop, h_, seed);
        apply_currents(s, 0, n_);
    }

    /// Appends to `out` the values of a state variable ("v_mv", "i_syn_e_mv", "i_syn_i_mv")
    /// of neurons `ids` after `step` steps. Throws unknown_name for another variable.
    void sample_state(const std::string& variable, std::int64_t step, std::span<const std::uint32_t> ids,
                      std::vector<double>& out) const;

    /// Saves or restores the dynamic state (checkpoint/state_archive.hpp).
    void visit_state(state_archive& a) {
        a.field("v", v_), a.field("ie", ie_), a.field("ii", ii_), a.field("xe", xe_), a.field("xi", xi_);
        a.field("i_ext", i_ext_), a.field("refractory", refractory_), a.field("ends", ends_);
    }

    std::uint32_t size() const noexcept { return n_; }

    /// The state as built and the propagators, for another backend that steps the same model
    /// with the same arithmetic (backends/device). Parameter columns have size 1 or size(); the
    /// scaled form (lif_exp with one set of parameters) keeps v relative to v_rest.
    struct built_state {
        int kind = 0;  ///< 0 lif_delta, 1 lif_exp, 2 lif_alpha
        bool scaled = false;
        std::int64_t rescale_period = 1;
        std::vector<double> decay_power[2], input_power[2];
        std::vector<double> v, ie, ii, xe, xi;
        std::vector<double> v_rest, v_reset, v_thresh, p22, p20, p11e, p11i, p21e, p21i, p31e, p31i, jump_e, jump_i,
            i_bias;
        std::vector<std::int32_t> ref_steps;
    };
    built_state export_built_state() const;

private:
    enum class kind { delta, exp, alpha };

    /// The stored column of a variable (for lif_exp: the scaled currents, see scaled_).
    aligned_vector<double>& column(const std::string& variable);
    /// Scaled currents: the exponent k of step s, with s - k the last rescaling step.
    std::int64_t scaled_exponent(std::int64_t s) const { return s % rescale_period_; }

    /// One step of neurons [c0, c1), chunk (c0 - begin) / direct_chunk of the range that
    /// starts at `begin`, then the routes' input to it; fired neurons go to `spikes`. Kernel
    /// is 0 lif_delta, 1 lif_exp, 2 lif_alpha, 3 lif_exp scaled.
    template <int Kernel, bool Hetero>
    void step_chunk(int thread, std::int64_t s, std::uint32_t begin, std::uint32_t c0, std::uint32_t c1,
                    std::span<const direct_route> routes, std::vector<std::uint32_t>& spikes);
    /// Adds the routes' input to chunk `chunk` of the range being updated.
    void add_routes(std::uint32_t chunk, std::span<const direct_route> routes);
    void add_input(std::int64_t s, const step_input& in);
    /// Marks the neurons of chunk `chunk` that fired at step s refractory, and ends the
    /// refractory period of the chunk's neurons whose last refractory step is s.
    void hold_refractory(int thread, std::int64_t s, std::uint32_t chunk, std::span<const std::uint32_t> fired);

    kind kind_;
    bool hetero_ = false;
    cpu_isa isa_ = cpu_isa::baseline;  ///< set_isa
    std::uint32_t n_ = 0;
    std::string name_;
    double h_ = 0;
    // State. The columns the dense loop streams are on 64-byte boundaries: glibc puts a large
    // block 16 bytes into its page, so every AVX-512 load of a std::vector spanned two cache
    // lines (the step from L2 took 0.51 instead of 0.485 ns a neuron; from L3 no difference).
    aligned_vector<double> v_, ie_, ii_, xe_, xi_;
    std::vector<double> i_ext_;
    /// lif_exp with one set of parameters: v_ holds v - v_rest, and the currents are stored
    /// scaled, ie_[i] = I_e(s) / p11e^k with k = s mod rescale_period_, so that the dense loop reads them and never
    /// writes them: only v is written back, 16 bytes a neuron instead of 32 (the loop's time
    /// is the bytes it streams). Every rescale_period_ steps the stored values are brought
    /// back to scale 1; the period (at most 1024 steps) keeps the scale below e^200.
    bool scaled_ = false;
    std::int64_t rescale_period_ = 1;
    std::vector<double> decay_power_[2], input_power_[2];  ///< [receptor][k]: p11^k, p11^-(k + 1)
    /// 1 while a neuron is refractory (its v is held). One byte, read by the dense loop, where a
    /// step counter would cost eight: the dense loop's time is the bytes it streams.
    aligned_vector<std::uint8_t> refractory_;
    /// [thread][chunk][step % buckets_]: the neurons whose refractory period ends at that step.
    std::vector<std::vector<std::vector<std::vector<std::uint32_t>>>> ends_;
    std::size_t buckets_ = 1;
    /// lif_delta only: the input of the current step [mV], gathered before the dense loop.
    aligned_vector<double> in_e_, in_i_;
    // Parameters and propagators: size 1, or size n_ when hetero_.
    std::vector<double> v_rest_, v_reset_, v_thresh_, p22_, p20_, p11e_, p11i_, p21e_, p21i_,
        p31e_, p31i_, jump_e_, jump_i_, i_bias_;
    std::vector<std::int32_t> ref_steps_;
    current_schedule currents_;
};

}  // namespace volley::snn::detail
