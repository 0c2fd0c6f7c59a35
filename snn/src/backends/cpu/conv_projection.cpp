// Convolutional projection on the CPU (see conv_projection.hpp).

#include "backends/cpu/conv_projection.hpp"

#include <algorithm>
#include <cmath>
#include <map>

namespace volley::snn::detail {

namespace {

/// acc[q] += round(k[q] * x): an analog value times a fixed-point weight, rounded per term.
inline void add_scaled_slice(std::int64_t* __restrict acc, const std::int64_t* __restrict k, std::uint32_t n, double x) {
    for (std::uint32_t q = 0; q < n; ++q) acc[q] += std::llround(static_cast<double>(k[q]) * x);
}

}  // namespace

conv_projection::conv_projection(const convolution& c, std::uint32_t source_pop, std::uint32_t target_pop,
                                 std::uint8_t receptor, std::uint32_t delay, double to_fixed, std::uint32_t own_begin,
                                 std::uint32_t own_end)
    : source_(source_pop), target_(target_pop), delay_(delay), receptor_(receptor),
      in_hw_(c.in_height * c.in_width), in_w_(c.in_width), out_hw_(c.out_height() * c.out_width()),
      out_w_(c.out_width()), kh_(c.kernel_height), kw_(c.kernel_width), own_begin_(own_begin), own_end_(own_end) {
    if (empty()) return;
    const std::uint32_t oh = c.out_height(), ow = c.out_width();
    o_lo_ = own_begin / out_hw_;
    n_ch_ = (own_end - 1) / out_hw_ - o_lo_ + 1;
    // Which output rows an input row reaches: y * stride - pad + ky * dilation = iy.
    auto taps = [](std::uint32_t in, std::uint32_t k, std::uint32_t pad, std::uint32_t dil, std::uint32_t stride,
                   std::uint32_t out, std::vector<std::uint32_t>& begin, std::vector<tap>& list) {
        for (std::uint32_t i = 0; i < in; ++i) {
            begin.push_back(static_cast<std::uint32_t>(list.size()));
            for (std::uint32_t kk = 0; kk < k; ++kk) {
                const std::int64_t num = std::int64_t{i} + pad - std::int64_t{kk} * dil;
                if (num < 0 || num % stride != 0 || num / stride >= out) continue;
                list.push_back({kk, static_cast<std::uint32_t>(num / stride)});
            }
        }
        begin.push_back(static_cast<std::uint32_t>(list.size()));
    };
    taps(c.in_height, kh_, c.pad_top, c.dilation_h, c.stride_h, oh, row_tap_begin_, row_taps_);
    taps(c.in_width, kw_, c.pad_left, c.dilation_w, c.stride_w, ow, col_tap_begin_, col_taps_);

    const std::uint32_t cg = c.in_channels / c.groups, og = c.out_channels / c.groups;
    ch_first_.resize(c.in_channels);
    ch_count_.resize(c.in_channels);
    slice_of_.resize(std::size_t{c.in_channels} * kh_ * kw_);
    for (std::uint32_t ch = 0; ch < c.in_channels; ++ch) {
        const std::uint32_t g = ch / cg, ci = ch % cg;
        const std::uint32_t a = std::max(g * og, o_lo_), b = std::min((g + 1) * og, o_lo_ + n_ch_);
        ch_first_[ch] = a < b ? a - o_lo_ : 0;
        ch_count_[ch] = a < b ? b - a : 0;
        // Identical slices are stored once: a pool folded into a kernel repeats each weight
        // pool_h x pool_w times, and the kernel then stays in cache.
        std::map<std::vector<std::int64_t>, std::uint64_t> seen;
        std::vector<std::int64_t> slice(ch_count_[ch]);
        for (std::uint32_t ky = 0; ky < kh_; ++ky)
            for (std::uint32_t kx = 0; kx < kw_; ++kx) {
                for (std::uint32_t o = a; o < b; ++o)
                    slice[o - a] = std::llround(c.kernel[((std::size_t{o} * cg + ci) * kh_ + ky) * kw_ + kx] * to_fixed);
                const auto [it, fresh] = seen.try_emplace(slice, slices_.size());
                if (fresh) slices_.insert(slices_.end(), slice.begin(), slice.end());
                slice_of_[(std::size_t{ch} * kh_ + ky) * kw_ + kx] = it->second;
            }
    }
    // Synaptic events per source spike: the owned targets it reaches.
    fanout_.assign(std::size_t{c.in_channels} * in_hw_, 0);
    for (std::uint32_t i = 0; i < fanout_.size(); ++i) {
        const std::uint32_t ch = i / in_hw_, iy = i % in_hw_ / in_w_, ix = i % in_w_;
        const std::uint32_t a = o_lo_ + ch_first_[ch], b = a + ch_count_[ch];
        std::uint32_t n = 0;
        for (std::uint32_t r = row_tap_begin_[iy]; r < row_tap_begin_[iy + 1]; ++r)
            for (std::uint32_t q = col_tap_begin_[ix]; q < col_tap_begin_[ix + 1]; ++q) {
                const std::uint32_t p = row_taps_[r].out * out_w_ + col_taps_[q].out;
                for (std::uint32_t o = a; o < b; ++o) {
                    const std::uint32_t j = o * out_hw_ + p;
                    n += j >= own_begin_ && j < own_end_;
                }
            }
        fanout_[i] = n;
        synapses_ += n;
    }
    acc_.assign(std::size_t{out_hw_} * n_ch_, 0);
}

// The hot loop of a convolutional projection, compiled for AVX-512, AVX2 and the baseline
// and chosen at load time (GCC function multi-versioning). Integer additions round nowhere,
// so every version gives the same sums.
#if defined(__GNUC__) && defined(__x86_64__) && !defined(__clang__)
[[gnu::target_clones("avx512f", "avx2", "default")]]
#endif
std::uint64_t conv_spike_kernel(const conv_projection::view& v, const std::uint32_t* spikes, std::size_t count) {
    std::uint64_t events = 0;
    // A slice of a compile-time width N (0: the run-time width n) is a fixed number of vector
    // additions, without the loop and remainder handling of a run-time count.
    auto deliver = [&]<std::uint32_t N>(std::uint32_t i) {
        const std::uint32_t ch = i / v.in_hw, iy = i % v.in_hw / v.in_w, ix = i % v.in_w;
        const std::uint32_t n = N == 0 ? v.ch_count[ch] : N;
        events += v.fanout[i];
        const std::uint64_t* slice_of = v.slice_of + std::size_t{ch} * v.kh * v.kw;
        std::int64_t* out = v.acc + v.ch_first[ch];
        for (std::uint32_t r = v.row_tap_begin[iy]; r < v.row_tap_begin[iy + 1]; ++r) {
            const auto rt = v.row_taps[r];
            std::int64_t* row = out + std::size_t{rt.out} * v.out_w * v.n_ch;
            const std::uint64_t* row_slices = slice_of + std::size_t{rt.k} * v.kw;
            for (std::uint32_t q = v.col_tap_begin[ix]; q < v.col_tap_begin[ix + 1]; ++q) {
                const auto ct = v.col_taps[q];
                std::int64_t* __restrict a = row + std::size_t{ct.out} * v.n_ch;
                const std::int64_t* __restrict w = v.slices + row_slices[ct.k];
                for (std::uint32_t c = 0; c < n; ++c) a[c] += w[c];
            }
        }
    };
    for (std::size_t k = 0; k < count; ++k) {
        const std::uint32_t i = spikes[k];
        switch (v.ch_count[i / v.in_hw]) {
            case 0: break;
            case 8: deliver.template operator()<8>(i); break;
            case 16: deliver.template operator()<16>(i); break;
            case 32: deliver.template operator()<32>(i); break;
            case 64: deliver.template operator()<64>(i); break;
            default: deliver.template operator()<0>(i); break;
        }
    }
    return events;
}

std::uint64_t conv_projection::add_spikes(std::span<const std::uint32_t> spikes, const double* values) {
    if (empty() || spikes.empty()) return 0;
    dirty_ = true;
    const view v{in_hw_, in_w_, out_w_, kh_, kw_, n_ch_, ch_count_.data(), ch_first_.data(), slice_of_.data(),
                 fanout_.data(), row_tap_begin_.data(), col_tap_begin_.data(), row_taps_.data(), col_taps_.data(),
                 slices_.data(), acc_.data()};
    if (!values) return conv_spike_kernel(v, spikes.data(), spikes.size());
    std::uint64_t events = 0;
    for (std::size_t k = 0; k < spikes.size(); ++k) {
        const std::uint32_t i = spikes[k];
        const std::uint32_t ch = i / in_hw_, iy = i % in_hw_ / in_w_, ix = i % in_w_;
        const std::uint32_t n = ch_count_[ch];
        if (n == 0) continue;
        events += fanout_[i];
        const std::uint64_t* slice_of = slice_of_.data() + std::size_t{ch} * kh_ * kw_;
        std::int64_t* out = acc_.data() + ch_first_[ch];
        for (std::uint32_t r = row_tap_begin_[iy]; r < row_tap_begin_[iy + 1]; ++r) {
            const tap rt = row_taps_[r];
            for (std::uint32_t q = col_tap_begin_[ix]; q < col_tap_begin_[ix + 1]; ++q) {
                const tap ct = col_taps_[q];
                add_scaled_slice(out + (std::size_t{rt.out} * out_w_ + ct.out) * n_ch_,
                                 slices_.data() + slice_of[std::size_t{rt.k} * kw_ + ct.k], n, values[k]);
            }
        }
    }
    return events;
}

void conv_projection::flush(std::int64_t* cells, std::int64_t offset, std::vector<std::uint32_t>* touched) {
    if (!dirty_) return;
    dirty_ = false;
    for (std::uint32_t k = 0; k < n_ch_; ++k) {
        const std::uint32_t o = o_lo_ + k;
        const std::uint32_t p0 = std::max(own_begin_, o * out_hw_) - o * out_hw_;
        const std::uint32_t p1 = std::min(own_end_, (o + 1) * out_hw_) - o * out_hw_;
        const std::int64_t* column = acc_.data() + k;
        std::int64_t* target = cells + 2 * std::size_t{o} * out_hw_;
        if (!touched) {
            for (std::uint32_t p = p0; p < p1; ++p) target[2 * std::size_t{p}] += column[std::size_t{p} * n_ch_];
            continue;
        }
        for (std::uint32_t p = p0; p < p1; ++p) {
            const std::int64_t v = column[std::size_t{p} * n_ch_];
            if (v == 0) continue;
            target[2 * std::size_t{p}] += v;
            touched->push_back(static_cast<std::uint32_t>(o * out_hw_ + p + offset));
        }
    }
    std::fill(acc_.begin(), acc_.end(), 0);
}

std::uint64_t conv_projection::bytes() const noexcept {
    return 8 * (slices_.size() + acc_.size()) + 4 * (fanout_.size() + ch_first_.size() * 2 + row_tap_begin_.size() +
                                                     col_tap_begin_.size()) +
           8 * (row_taps_.size() + col_taps_.size() + slice_of_.size());
}

}  // namespace volley::snn::detail
