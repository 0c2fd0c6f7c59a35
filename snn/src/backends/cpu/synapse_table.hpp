#pragma once
// The synapses leaving one source population towards the targets one thread owns, as CSR by
// source neuron. Each synapse is 8 bytes: a 32-bit word packing (target offset, receptor,
// delay - 1) and a 32-bit fixed-point weight. Rows add 4 bytes per source neuron.
//
// Why packed: heterogeneous delays then cost nothing extra per synapse, where grouping rows
// by delay costs a header per (row, delay) pair (ARCHITECTURE.md, "Event queues").

#include <cstdint>
#include <vector>

namespace volley::snn::detail {

/// One synapse before packing.
struct synapse_entry {
    std::uint32_t source;         ///< local index in the source population
    std::uint32_t target_offset;  ///< target's ring index minus the thread's first neuron
    std::uint8_t receptor;        ///< 0 excitatory, 1 inhibitory
    std::uint32_t delay;          ///< [steps], >= 1
    std::int32_t weight;          ///< fixed point
};

class synapse_table {
public:
    synapse_table() = default;

    /// Packs the synapses. Throws volley::error if the target
    /// range and the largest delay do not fit together in 32 bits.
    synapse_table(std::vector<synapse_entry> synapses, std::uint32_t n_source,
                  std::uint32_t max_target_offset, std::uint32_t max_delay);

    /// Calls f(target_offset, receptor, delay, weight) for every synapse of `source`'s row.
    template <class F>
    void for_each_synapse(std::uint32_t source, F&& f) const {
        const std::uint32_t b = row_begin_[source], e = row_begin_[source + 1];
        for (std::uint32_t k = b; k < e; ++k) {
            const std::uint32_t w = words_[k];
            f(w >> target_shift_, (w >> delay_bits_) & 1u, (w & delay_mask_) + 1, weights_[k]);
        }
    }

    /// Number of synapses in `source`'s row.
    std::uint32_t row_size(std::uint32_t source) const noexcept {
        return row_begin_[source + 1] - row_begin_[source];
    }

    std::uint64_t synapses() const noexcept { return words_.size(); }
    std::uint64_t bytes() const noexcept {
        return 4 * (row_begin_.size() + words_.size() + weights_.size());
    }

private:
    std::vector<std::uint32_t> row_begin_;
    std::vector<std::uint32_t> words_;
    std::vector<std::int32_t> weights_;
    std::uint32_t delay_bits_ = 0, delay_mask_ = 0, target_shift_ = 1;
};

/// The fixed-point exponent F for weights whose largest magnitude is `max_abs_weight`: weights
/// are stored as round(w * 2^F) in 32 bits, with 2^F * max|w| <= 2^30, so the relative
/// precision is 2^-30 of the largest weight and an int64 accumulator cannot overflow in practice.
int fixed_point_exponent(double max_abs_weight);

}  // namespace volley::snn::detail
