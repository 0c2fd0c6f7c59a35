#pragma once
// A convolutional projection on the CPU: one shared kernel in fixed point instead of a synapse
// table. Each thread holds one for the targets it owns. A spike of source (c, iy, ix) adds the
// kernel slice kernel[:, c', ky, kx] into every output position (y, x) it reaches; the
// accumulator is laid out channel-innermost (HWC), so each addition is a contiguous run over
// the output channels of c's group, which the compiler vectorises. After a step's spikes the
// accumulator moves into the target population's ring cells (CHW) and lists the touched
// neurons, exactly as a synapse table would have written them. Integer sums make the result
// independent of the order of spikes and of the thread count.
//
// When every source neuron fires at most once per step (neuron populations, not spike sources
// or analog values), one step's input to a target is bounded by the sum of |kernel| over its
// taps; the spikes then go through a 32-bit copy of the kernel and a 32-bit accumulator, which
// halves the memory traffic of the delivery. That copy is the 64-bit kernel divided by 2^shift
// (rounded), with the smallest shift for which the bound fits in 31 bits, and the flush
// multiplies by 2^shift again: the weights keep at least 31 bits of the largest step input.
// The 32-bit copy is also laid out as strips: for an input column whose taps reach
// consecutive output columns (the interior of a map), the slices of one kernel row for those
// taps, in output order, side by side. The output positions are adjacent in the accumulator,
// so one spike adds one contiguous strip per kernel row instead of one slice per tap.
//
// When the projection is its target's only input (an IF layer of a converted CNN), the target
// can read the 32-bit accumulator in place (read_in_place): the same integers, without the
// move into the ring cells and the cells' traffic.

#include <cstdint>
#include <span>
#include <vector>

#include <volley/snn/connectors.hpp>

#include "backends/cpu/aligned_vector.hpp"
#include "backends/cpu/cpu_isa.hpp"
#include "checkpoint/state_archive.hpp"

namespace volley::snn::detail {

/// A convolution's kernel (OIHW) in fixed point as one spike delivers it: round(w·to_fixed),
/// and on the 32-bit path (`narrow`: a source that spikes at most once per step and a shift
/// that fits every output's step input in 31 bits, see below) that divided by 2^shift,
/// rounded, times 2^shift. The device backends deliver these integers, so their sums are the
/// CPU's on either path.
struct conv_fixed_kernel {
    std::vector<std::int64_t> weights;
    bool narrow = false;
    std::uint32_t shift = 0;
};
conv_fixed_kernel make_conv_fixed_kernel(const convolution& c, double to_fixed, bool once_per_step);

class conv_projection {
public:
    /// The projection from population `source_pop` to `target_pop` restricted to the target
    /// neurons [own_begin, own_end) (local indices), with weights scaled by `to_fixed` into
    /// fixed point (round(w * to_fixed), as synapse tables), receptor and delay [steps].
    /// `once_per_step`: each source neuron appears at most once in a step's spikes (enables the
    /// 32-bit path).
    conv_projection(const convolution& c, std::uint32_t source_pop, std::uint32_t target_pop, std::uint8_t receptor,
                    std::uint32_t delay, double to_fixed, std::uint32_t own_begin, std::uint32_t own_end,
                    bool once_per_step);

    /// Adds the input of the given source spikes (local indices) to the accumulator and
    /// returns the number of synaptic events they cause on the owned targets. With `values`
    /// (an analog source), spike k carries values[k]: each kernel term w becomes round(w·x),
    /// as the synapse tables deliver analog values.
    std::uint64_t add_spikes(std::span<const std::uint32_t> spikes, const double* values = nullptr);

    // The structured interface (structured_projection.hpp).
    static constexpr const char* kind = "convolution";
    std::uint64_t take(std::span<const std::uint32_t> spikes, const double* values) { return add_spikes(spikes, values); }
    std::uint64_t deliver(std::int64_t* cells, std::int64_t offset, std::vector<std::uint32_t>* touched) {
        flush(cells, offset, touched);
        return 0;  // counted by take()
    }

    /// Moves the accumulator into ring cells and clears it: `cells` points at the cell of
    /// target neuron 0 for this projection's receptor (stride 2 per neuron); `touched`, unless
    /// null (targets that read every cell), gets each owned target with input, as its local
    /// index plus `offset`. No-op after no spikes.
    void flush(std::int64_t* cells, std::int64_t offset, std::vector<std::uint32_t>* touched);

    /// Whether the 32-bit path carries every step's spikes (neuron sources, no analog values).
    bool narrow() const noexcept { return narrow_; }
    /// From now on flush() leaves the step's sums to the target, which takes them with
    /// take_in_place(). Only for a narrow projection whose target reads nothing else.
    void read_in_place();
    bool reads_in_place() const noexcept { return !chw32_.empty(); }
    /// The step's sums in the target's order, and clears the accumulator: target neuron j
    /// (local index, own_begin <= j < own_end) gets sums[j] · 2^shift, the value the flush
    /// would have added into its cell (entries below own_begin are unused).
    struct in_place_input {
        const std::int32_t* sums;
        std::uint32_t shift;
    };
    in_place_input take_in_place();

    std::uint32_t source() const noexcept { return source_; }
    std::uint32_t target() const noexcept { return target_; }
    std::uint8_t receptor() const noexcept { return receptor_; }
    std::uint32_t delay() const noexcept { return delay_; }
    bool empty() const noexcept { return own_begin_ >= own_end_; }
    std::uint64_t bytes() const noexcept;
    /// The synapses the kernel stands for, onto the owned targets.
    std::uint64_t synapses() const noexcept { return synapses_; }

    /// An input row (or column) reaches output row `out` through kernel row `k`.
    struct tap {
        std::uint32_t k, out;
    };
    /// Where a source neuron sits in the input map (a table: the hot loop divides nowhere).
    struct place {
        std::uint32_t ch, iy, ix;
    };
    /// The arrays of the delivery loop, for the kernel compiled per instruction set, with
    /// 64-bit or 32-bit slices and accumulator.
    template <class Word>
    struct view {
        std::uint32_t out_w, kh, kw, n_ch;
        const place* places;
        const std::uint32_t *ch_count, *ch_first;
        const std::uint64_t* slice_of;
        const std::uint32_t *fanout, *row_tap_begin, *col_tap_begin;
        const tap *row_taps, *col_taps;
        const Word* slices;
        Word* acc;
        // Strips (32-bit path only; null otherwise).
        const std::uint32_t *col_pattern, *col_first_out, *pattern_taps;
        const std::uint64_t* strip_of;
        const Word* strips;
        std::uint32_t n_patterns;
    };
    static constexpr std::uint32_t no_strip = ~0u;
    /// The instruction set of the delivery kernels (the engine's, cpu_isa.hpp).
    void set_isa(cpu_isa isa) noexcept { wide_ = isa == cpu_isa::avx512; }
    /// Saves or restores the dynamic state (checkpoint/state_archive.hpp): the accumulators of
    /// input not yet handed to the targets.
    void visit_state(state_archive& a) {
        a.field("acc", acc_), a.field("acc32", acc32_), a.field("dirty", dirty_), a.field("dirty32", dirty32_);
        a.field("chw32", chw32_), a.field("chw_dirty", chw_dirty_), a.field("group_count", group_count_);
    }

private:
    std::uint32_t source_, target_, delay_;
    std::uint8_t receptor_;
    std::uint32_t in_hw_, in_w_, out_hw_, out_w_, kh_, kw_;
    std::uint32_t own_begin_, own_end_;
    std::uint32_t o_lo_ = 0, n_ch_ = 0;  ///< accumulator channels [o_lo_, o_lo_ + n_ch_)
    std::vector<std::uint32_t> row_tap_begin_, col_tap_begin_;  ///< per input row / column
    std::vector<tap> row_taps_, col_taps_;
    std::vector<std::uint32_t> ch_first_, ch_count_;  ///< per input channel: its group's accumulator channels
    std::vector<std::uint64_t> slice_of_;  ///< [input channel][ky][kx]: offset of its slice in slices_
    aligned_vector<std::int64_t> slices_;  ///< distinct kernel slices, each over the accumulator channels
    std::vector<std::uint32_t> fanout_;  ///< owned targets reached from each source neuron
    std::vector<place> places_;          ///< of each source neuron
    aligned_vector<std::int64_t> acc_;   ///< [y][x][channel - o_lo_]
    bool narrow_ = false;                ///< spikes go through slices32_ and acc32_
    std::uint32_t shift_ = 0;            ///< slices32_ = slices_ / 2^shift_, rounded
    aligned_vector<std::int32_t> slices32_, acc32_;
    /// Per input column: its tap pattern (no_strip: none) and the first output column it reaches.
    std::vector<std::uint32_t> col_pattern_, col_first_out_;
    std::vector<std::uint32_t> pattern_taps_;  ///< per pattern: its number of taps
    /// [(input channel * kh + ky) * patterns + pattern]: offset of the strip in strips32_, or ~0.
    std::vector<std::uint64_t> strip_of_;
    aligned_vector<std::int32_t> strips32_;
    /// Groups (32-bit path): the sources of one channel whose rows reach the same output rows
    /// through kernel rows with the same slices, and whose columns do likewise (the 2 x 2
    /// inputs of a pool folded into the kernel), add the same slices at the same places. A
    /// step's spikes are counted per group, and each group adds its slices once, times its
    /// count. Empty when grouping would not save a quarter of the additions.
    std::vector<std::uint32_t> group_of_;    ///< per source neuron
    std::vector<place> group_places_;        ///< per group: the place of its first source
    std::vector<std::uint32_t> group_fanout_;  ///< per group: the fanout of each of its sources
    std::vector<std::int32_t> group_count_;  ///< per group: its spikes so far (0 between calls)
    std::vector<std::uint32_t> hit_groups_;  ///< a step's groups with spikes, in group order (room for all + 16)
    std::vector<std::int32_t> hit_counts_;   ///< their counts
    void build_groups(const convolution& c);
    /// The 32-bit path's arrays, with `places` for the sources delivered (neurons or groups).
    view<std::int32_t> narrow_view(const place* places);
    std::uint64_t synapses_ = 0;
    bool dirty_ = false, dirty32_ = false;
    aligned_vector<std::int32_t> chw32_;  ///< read_in_place: acc32_ in target order, channels [0, o_lo_ + n_ch_)
    bool chw_dirty_ = false;              ///< chw32_ holds a step's nonzero sums
    bool wide_ = false;                   ///< AVX-512 kernels (set_isa)
};

}  // namespace volley::snn::detail
