// Synapse table construction (see synapse_table.hpp).

#include "backends/cpu/synapse_table.hpp"

#include <volley/error.hpp>

#include <algorithm>
#include <bit>
#include <cmath>

namespace volley::snn::detail {

int fixed_point_exponent(double max_abs_weight) {
    if (!(max_abs_weight > 0)) return 30;
    int exp2 = 0;
    std::frexp(max_abs_weight, &exp2);  // max_abs_weight < 2^exp2
    return 30 - exp2;
}

synapse_table::synapse_table(std::vector<synapse_entry> s, std::uint32_t n_source,
                             std::uint32_t max_target_offset, std::uint32_t max_delay) {
    delay_bits_ = static_cast<std::uint32_t>(std::bit_width(std::max<std::uint32_t>(max_delay, 2) - 1));
    delay_mask_ = (1u << delay_bits_) - 1;
    target_shift_ = delay_bits_ + 1;
    const auto target_bits = static_cast<std::uint32_t>(std::bit_width(max_target_offset));
    if (target_bits + target_shift_ > 32)
        throw error("synapse table: " + std::to_string(max_target_offset + 1) +
                    " targets per thread with delays up to " + std::to_string(max_delay) +
                    " steps do not fit the 32-bit synapse word; use more threads or shorter delays");

    // Rows by source; inside a row by delay, then target, so that ring writes ascend.
    std::sort(s.begin(), s.end(), [](const synapse_entry& a, const synapse_entry& b) {
        if (a.source != b.source) return a.source < b.source;
        if (a.delay != b.delay) return a.delay < b.delay;
        if (a.receptor != b.receptor) return a.receptor < b.receptor;
        return a.target_offset < b.target_offset;
    });
    row_begin_.assign(std::size_t{n_source} + 1, 0);
    words_.resize(s.size());
    weights_.resize(s.size());
    for (std::size_t k = 0; k < s.size(); ++k) {
        ++row_begin_[s[k].source + 1];
        words_[k] = (s[k].target_offset << target_shift_) | (std::uint32_t{s[k].receptor} << delay_bits_) |
                    (s[k].delay - 1);
        weights_[k] = s[k].weight;
    }
    for (std::uint32_t i = 0; i < n_source; ++i) row_begin_[i + 1] += row_begin_[i];
}

}  // namespace volley::snn::detail
