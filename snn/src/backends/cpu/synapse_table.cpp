// Synapse table construction (see synapse_table.hpp).

#include "backends/cpu/synapse_table.hpp"

#include <volley/error.hpp>

#include <algorithm>
#include <bit>
#include <cmath>

namespace volley::snn::detail {

synapse_table::synapse_table(const std::vector<std::uint32_t>& row_sizes, const synapse_table_shape& shape,
                             std::int32_t fixed_weight, std::uint32_t max_target_offset) {
    uniform_ = shape.uniform;
    one_route_ = shape.one_route;
    receptor_ = shape.receptor;
    delay_ = std::max<std::uint32_t>(shape.delay, 1);
    weight_ = fixed_weight;
    if (!uniform_) {
        delay_bits_ = static_cast<std::uint32_t>(std::bit_width(std::max<std::uint32_t>(shape.max_delay, 2) - 1));
        delay_mask_ = (1u << delay_bits_) - 1;
        target_shift_ = delay_bits_ + 1;
    }
    const auto target_bits = static_cast<std::uint32_t>(std::bit_width(max_target_offset));
    if (target_bits + target_shift_ > 32)
        throw error("synapse table: " + std::to_string(max_target_offset + 1) +
                    " targets per thread with delays up to " + std::to_string(shape.max_delay) +
                    " steps do not fit the 32-bit synapse word; use more threads or shorter delays");
    row_begin_.assign(row_sizes.size() + 1, 0);
    std::uint64_t total = 0;
    for (std::size_t i = 0; i < row_sizes.size(); ++i) {
        total += row_sizes[i];
        if (total >= (std::uint64_t{1} << 32))
            throw error("synapse table: 2^32 or more synapses from one population to one thread's targets; "
                        "use more threads");
        row_begin_[i + 1] = static_cast<std::uint32_t>(total);
    }
    words_.resize(total);
    if (!uniform_) weights_.resize(total);
    cursor_.assign(row_begin_.begin(), row_begin_.end() - 1);
}

void synapse_table::finish() {
    cursor_ = {};
    if (row_begin_.size() < 2) return;  // no sources (a default-constructed table)
    const std::size_t sources = row_begin_.size() - 1, length = row_begin_[1];
    shared_targets_ = !uniform_ && one_route_ && length > 0 && words_.size() == sources * length;
    for (std::size_t i = 1; i < sources && shared_targets_; ++i)
        shared_targets_ = std::equal(words_.begin(), words_.begin() + static_cast<std::ptrdiff_t>(length),
                                     words_.begin() + static_cast<std::ptrdiff_t>(i * length));
}

}  // namespace volley::snn::detail
