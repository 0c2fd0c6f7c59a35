// The gated max-pool projection (see gate_projection.hpp).

#include "backends/cpu/structured/gate_projection.hpp"

#include "backends/max_pool_leader.hpp"

#include <algorithm>

namespace volley::snn::detail {

gate_projection::gate_projection(const max_pool_gate& g, std::uint32_t source_pop, std::uint32_t target_pop,
                                 std::uint8_t receptor, std::uint32_t delay, std::int64_t weight, std::uint32_t own_begin,
                                 std::uint32_t own_end)
    : g_(g), source_(source_pop), target_(target_pop), delay_(delay), receptor_(receptor), weight_(weight),
      own_begin_(own_begin), own_end_(own_end), out_h_(g.out_height()), out_w_(g.out_width()) {
    const std::size_t n_src = std::size_t{g.channels} * g.in_height * g.in_width;
    count_.assign(n_src, 0);
    fired_.assign(n_src, 0);
    for (std::uint32_t j = own_begin; j < own_end; ++j) {
        const std::uint32_t oy = j / out_w_ % out_h_, ox = j % out_w_;
        const std::int64_t y0 = std::int64_t{oy} * g.stride_h - g.pad_top, x0 = std::int64_t{ox} * g.stride_w - g.pad_left;
        const std::int64_t rows = std::min<std::int64_t>(y0 + g.pool_h, g.in_height) - std::max<std::int64_t>(y0, 0);
        const std::int64_t cols = std::min<std::int64_t>(x0 + g.pool_w, g.in_width) - std::max<std::int64_t>(x0, 0);
        synapses_ += static_cast<std::uint64_t>(rows * cols);
    }
}

void gate_projection::count(std::span<const std::uint32_t> spikes) {
    for (const std::uint32_t i : spikes) {
        ++count_[i];
        if (!fired_[i]) {
            fired_[i] = 1;
            fired_list_.push_back(i);
        }
    }
}

std::uint32_t gate_projection::leader(std::uint32_t c, std::uint32_t oy, std::uint32_t ox) const {
    const pool_window_geometry g{g_.in_height, g_.in_width, g_.pool_h,  g_.pool_w,
                                 g_.stride_h,  g_.stride_w, g_.pad_top, g_.pad_left};
    std::uint32_t best = 0;
    max_pool_leader(count_.data(), g, c, oy, ox, best);
    return best;
}

std::uint64_t gate_projection::deliver(std::int64_t* cells, std::int64_t offset, std::vector<std::uint32_t>* touched) {
    std::uint64_t passed = 0;
    const std::int64_t hw = std::int64_t{g_.in_height} * g_.in_width;
    for (const std::uint32_t i : fired_list_) {
        fired_[i] = 0;
        const std::int64_t c = i / hw, y = i / g_.in_width % g_.in_height, x = i % g_.in_width;
        // Windows oy with oy·stride − pad <= y < oy·stride − pad + pool, and the same for x.
        const std::int64_t py = y + g_.pad_top, px = x + g_.pad_left;
        const std::int64_t oy_lo = std::max<std::int64_t>(0, (py - g_.pool_h + g_.stride_h) / g_.stride_h);
        const std::int64_t oy_hi = std::min<std::int64_t>(out_h_ - 1, py / g_.stride_h);
        const std::int64_t ox_lo = std::max<std::int64_t>(0, (px - g_.pool_w + g_.stride_w) / g_.stride_w);
        const std::int64_t ox_hi = std::min<std::int64_t>(out_w_ - 1, px / g_.stride_w);
        for (std::int64_t oy = oy_lo; oy <= oy_hi; ++oy)
            for (std::int64_t ox = ox_lo; ox <= ox_hi; ++ox) {
                const auto j = static_cast<std::uint32_t>((c * out_h_ + oy) * out_w_ + ox);
                if (j < own_begin_ || j >= own_end_) continue;
                if (leader(static_cast<std::uint32_t>(c), static_cast<std::uint32_t>(oy), static_cast<std::uint32_t>(ox)) != i)
                    continue;
                cells[2 * std::size_t{j}] += weight_;
                if (touched) touched->push_back(static_cast<std::uint32_t>(std::int64_t{j} + offset));
                ++passed;
            }
    }
    fired_list_.clear();
    return passed;
}

void gate_projection::reset() {
    std::fill(count_.begin(), count_.end(), 0u);
    std::fill(fired_.begin(), fired_.end(), std::uint8_t{0});
    fired_list_.clear();
}

std::uint64_t gate_projection::bytes() const noexcept {
    return count_.size() * (sizeof(std::uint32_t) + sizeof(std::uint8_t)) + sizeof(*this);
}

}  // namespace volley::snn::detail
