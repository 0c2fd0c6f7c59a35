#pragma once
// The synapses from one source population onto one target population, restricted to the
// targets one thread owns, as CSR by source neuron (GeNN's "presynaptic" layout).
//
// Two layouts, chosen per table when it is sized:
// - uniform: every synapse has the same receptor, delay and fixed-point weight (CUBA, and any
//   projection with scalar weight and delay). A synapse is then only its 32-bit target offset:
//   4 bytes, and the delivery loop is a plain gather-add over the row.
// - general: a 32-bit word packing (target offset, receptor, delay - 1) and a 32-bit
//   fixed-point weight: 8 bytes. Heterogeneous delays cost nothing extra per synapse, where
//   grouping rows by delay costs a header per (row, delay) pair.
// Rows add 4 bytes per source neuron.

#include <cstdint>
#include <limits>

#include "lowering/fixed_point.hpp"
#include "lowering/synapse_plan.hpp"
#include <span>
#include <vector>

#include "backends/cpu/huge_page_vector.hpp"

namespace volley::snn::detail {

class synapse_table {
public:
    synapse_table() = default;

    /// Sizes the table: `row_sizes[i]` synapses leave source i; `fixed_weight` is the shape's
    /// weight in fixed point. Throws volley::error if the
    /// target range and the largest delay do not fit together in 32 bits, or if there are
    /// 2^32 synapses or more.
    synapse_table(const std::vector<std::uint32_t>& row_sizes, const synapse_table_shape& shape,
                  std::int32_t fixed_weight, std::uint32_t max_target_offset);

    /// Appends a synapse to `source`'s row; rows fill in any order. Call finish() after the last.
    void put(std::uint32_t source, std::uint32_t target_offset, std::uint8_t receptor, std::uint32_t delay,
             std::int32_t weight) {
        const std::uint32_t k = cursor_[source]++;
        if (uniform_) {
            words_[k] = target_offset;
        } else {
            words_[k] = (target_offset << target_shift_) | (std::uint32_t{receptor} << delay_bits_) | (delay - 1);
            weights_[k] = weight;
        }
    }

    /// Frees the fill cursors, and notes whether the rows share their targets (shared_targets).
    void finish();

    /// True when every synapse has receptor(), delay() and weight(); words are target offsets.
    bool uniform() const noexcept { return uniform_; }
    /// True when every synapse has receptor() and delay() (the weights may differ).
    bool one_route() const noexcept { return one_route_; }
    std::uint32_t receptor() const noexcept { return receptor_; }
    std::uint32_t delay() const noexcept { return delay_; }
    std::int32_t weight() const noexcept { return weight_; }

    /// The words of `source`'s row (uniform: target offsets; general: packed, see decode).
    std::span<const std::uint32_t> row(std::uint32_t source) const noexcept {
        return {words_.data() + row_begin_[source], words_.data() + row_begin_[source + 1]};
    }
    /// Asks the caches for `source`'s row of words.
    void prefetch_row(std::uint32_t source) const noexcept {
        const std::uint32_t* p = words_.data() + row_begin_[source];
        const std::uint32_t* end = words_.data() + row_begin_[source + 1];
        for (; p < end; p += 16) __builtin_prefetch(p);
    }
    /// Asks the caches for where `source`'s row starts (prefetch_row and row read it).
    void prefetch_row_start(std::uint32_t source) const noexcept { __builtin_prefetch(row_begin_.data() + source); }
    /// The weights of `source`'s row (general layout only).
    const std::int32_t* row_weights(std::uint32_t source) const noexcept { return weights_.data() + row_begin_[source]; }

    std::uint32_t target_of(std::uint32_t word) const noexcept { return word >> target_shift_; }
    std::uint32_t receptor_of(std::uint32_t word) const noexcept { return (word >> delay_bits_) & 1u; }
    std::uint32_t delay_of(std::uint32_t word) const noexcept { return (word & delay_mask_) + 1; }

    std::uint64_t synapses() const noexcept { return words_.size(); }
    /// True for a one-route table whose rows all list the same targets in the same order (an
    /// all-to-all projection, such as a converted dense layer): a step's rows of weights can
    /// then be summed into one row before any target is touched. Source i's weights are then
    /// row_weights(0)[i·n, (i+1)·n) for rows of n.
    bool shared_targets() const noexcept { return shared_targets_; }
    std::uint64_t bytes() const noexcept { return 4 * (row_begin_.size() + words_.size() + weights_.size()); }

private:
    huge_page_vector<std::uint32_t> row_begin_;
    huge_page_vector<std::uint32_t> words_;
    huge_page_vector<std::int32_t> weights_;  ///< empty when uniform
    std::vector<std::uint32_t> cursor_;  ///< fill position of each row while building
    bool uniform_ = true, one_route_ = true, shared_targets_ = false;
    std::uint32_t receptor_ = 0, delay_ = 1;
    std::int32_t weight_ = 0;
    std::uint32_t delay_bits_ = 0, delay_mask_ = 0, target_shift_ = 0;
};



}  // namespace volley::snn::detail
