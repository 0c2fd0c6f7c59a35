// Convolutional projection on the CPU (see conv_projection.hpp).

#include "backends/cpu/structured/conv_projection.hpp"
#include "backends/cpu/structured/conv_spike_kernels.hpp"
#include "backends/cpu/cpu_isa.hpp"
#include "lowering/fixed_point.hpp"

#include <algorithm>
#include <bit>
#include <cmath>
#if defined(__GNUC__) && defined(__x86_64__)
#include <immintrin.h>
#endif
#include <limits>
#include <map>

namespace volley::snn::detail {

namespace {

/// acc[q] += round(k[q] * x): an analog value times a fixed-point weight, rounded per term.
inline void add_scaled_slice(std::int64_t* __restrict acc, const std::int64_t* __restrict k, std::uint32_t n, double x) {
    for (std::uint32_t q = 0; q < n; ++q) acc[q] += std::llround(static_cast<double>(k[q]) * x);
}

/// w / 2^k, rounded half away from zero.
std::int64_t rounded_shift(std::int64_t w, std::uint32_t k) {
    if (k == 0) return w;
    const std::int64_t half = std::int64_t{1} << (k - 1), m = w < 0 ? -w : w;
    return (w < 0 ? -1 : 1) * ((m + half) >> k);
}

}  // namespace

conv_fixed_kernel make_conv_fixed_kernel(const convolution& c, double to_fixed, bool once_per_step) {
    conv_fixed_kernel out;
    out.weights.reserve(c.kernel.size());
    for (const double w : c.kernel) out.weights.push_back(to_fixed_point(w, to_fixed));
    if (!once_per_step) return out;
    // The 32-bit copy: the smallest shift for which every output channel's sum of |weight| over
    // its taps (one step's largest input) fits in 31 bits. Each tap of one target reads a
    // different source neuron, and each fires at most once per step. The shift comes from the
    // whole kernel, not the owned channels, so that every thread count rounds alike.
    const std::size_t per_output = std::size_t{c.in_channels / c.groups} * c.kernel_height * c.kernel_width;
    for (std::uint32_t k = 0; k < 40; ++k) {
        bool fits = true;
        for (std::uint32_t o = 0; o < c.out_channels && fits; ++o) {
            std::int64_t bound = 0;
            for (std::size_t q = 0; q < per_output; ++q) {
                const std::int64_t w = rounded_shift(out.weights[o * per_output + q], k);
                bound += w < 0 ? -w : w;
            }
            fits = bound <= std::numeric_limits<std::int32_t>::max();
        }
        if (!fits) continue;
        out.narrow = true;
        out.shift = k;
        for (auto& w : out.weights) w = rounded_shift(w, k) * (std::int64_t{1} << k);
        return out;
    }
    return out;
}

conv_projection::conv_projection(const convolution& c, std::uint32_t source_pop, std::uint32_t target_pop,
                                 std::uint8_t receptor, std::uint32_t delay, double to_fixed, std::uint32_t own_begin,
                                 std::uint32_t own_end, bool once_per_step)
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
                    slice[o - a] = to_fixed_point(c.kernel[((std::size_t{o} * cg + ci) * kh_ + ky) * kw_ + kx], to_fixed);
                const auto [it, fresh] = seen.try_emplace(slice, slices_.size());
                if (fresh) slices_.insert(slices_.end(), slice.begin(), slice.end());
                slice_of_[(std::size_t{ch} * kh_ + ky) * kw_ + kx] = it->second;
            }
    }
    // Synaptic events per source spike: the owned targets it reaches.
    fanout_.assign(std::size_t{c.in_channels} * in_hw_, 0);
    places_.resize(fanout_.size());
    for (std::uint32_t i = 0; i < fanout_.size(); ++i) {
        const std::uint32_t ch = i / in_hw_, iy = i % in_hw_ / in_w_, ix = i % in_w_;
        places_[i] = {ch, iy, ix};
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
    const conv_fixed_kernel fixed = make_conv_fixed_kernel(c, to_fixed, once_per_step);
    narrow_ = fixed.narrow;
    shift_ = fixed.shift;
    if (!narrow_) return;
    slices32_.resize(slices_.size());
    for (std::size_t q = 0; q < slices_.size(); ++q) slices32_[q] = static_cast<std::int32_t>(rounded_shift(slices_[q], shift_));
    acc32_.assign(acc_.size(), 0);

    // Strips: the input columns whose taps reach consecutive output columns, grouped by their
    // kernel columns in output order; for each (channel, kernel row, pattern) the slices side
    // by side. Only channels whose slices span all accumulator channels (no groups) use them.
    std::map<std::vector<std::uint32_t>, std::uint32_t> patterns;
    std::vector<std::vector<std::uint32_t>> pattern_ks;
    col_pattern_.assign(c.in_width, no_strip);
    col_first_out_.assign(c.in_width, 0);
    for (std::uint32_t ix = 0; ix < c.in_width; ++ix) {
        std::vector<tap> t(col_taps_.begin() + col_tap_begin_[ix], col_taps_.begin() + col_tap_begin_[ix + 1]);
        if (t.size() < 2) continue;
        std::sort(t.begin(), t.end(), [](const tap& a, const tap& b) { return a.out < b.out; });
        bool consecutive = true;
        std::vector<std::uint32_t> ks;
        for (std::size_t j = 0; j < t.size(); ++j) {
            consecutive = consecutive && (j == 0 || t[j].out == t[j - 1].out + 1);
            ks.push_back(t[j].k);
        }
        if (!consecutive) continue;
        const auto [it, fresh] = patterns.try_emplace(ks, static_cast<std::uint32_t>(pattern_ks.size()));
        if (fresh) pattern_ks.push_back(ks);
        col_pattern_[ix] = it->second;
        col_first_out_[ix] = t.front().out;
    }
    const auto n_pat = static_cast<std::uint32_t>(pattern_ks.size());
    for (const auto& ks : pattern_ks) pattern_taps_.push_back(static_cast<std::uint32_t>(ks.size()));
    strip_of_.assign(std::size_t{c.in_channels} * kh_ * n_pat, ~std::uint64_t{0});
    std::map<std::vector<std::int32_t>, std::uint64_t> seen_strips;
    for (std::uint32_t ch = 0; ch < c.in_channels; ++ch) {
        if (ch_count_[ch] != n_ch_) continue;
        for (std::uint32_t ky = 0; ky < kh_; ++ky)
            for (std::uint32_t pat = 0; pat < n_pat; ++pat) {
                std::vector<std::int32_t> strip;
                for (const std::uint32_t kx : pattern_ks[pat]) {
                    const auto* w = slices32_.data() + slice_of_[(std::size_t{ch} * kh_ + ky) * kw_ + kx];
                    strip.insert(strip.end(), w, w + n_ch_);
                }
                const auto [it, fresh] = seen_strips.try_emplace(strip, strips32_.size());
                if (fresh) strips32_.insert(strips32_.end(), strip.begin(), strip.end());
                strip_of_[(std::size_t{ch} * kh_ + ky) * n_pat + pat] = it->second;
            }
    }
    build_groups(c);
}

void conv_projection::build_groups(const convolution& c) {
    // Input rows (columns) are alike when their taps, in kernel order, reach the same output
    // rows (columns) through kernel rows (columns) whose slices are the same in every channel.
    auto classes = [&](std::uint32_t in, const std::vector<std::uint32_t>& begin, const std::vector<tap>& list,
                       bool rows) {
        std::map<std::vector<std::uint64_t>, std::uint32_t> seen;
        std::vector<std::uint32_t> of(in);
        for (std::uint32_t i = 0; i < in; ++i) {
            std::vector<std::uint64_t> key;
            for (std::uint32_t q = begin[i]; q < begin[i + 1]; ++q) {
                key.push_back(list[q].out);
                for (std::uint32_t ch = 0; ch < c.in_channels; ++ch)
                    for (std::uint32_t o = 0; o < (rows ? kw_ : kh_); ++o)
                        key.push_back(rows ? slice_of_[(std::size_t{ch} * kh_ + list[q].k) * kw_ + o]
                                           : slice_of_[(std::size_t{ch} * kh_ + o) * kw_ + list[q].k]);
            }
            of[i] = seen.try_emplace(key, static_cast<std::uint32_t>(seen.size())).first->second;
        }
        return std::pair{of, static_cast<std::uint32_t>(seen.size())};
    };
    const auto [row_class, n_rows] = classes(c.in_height, row_tap_begin_, row_taps_, true);
    const auto [col_class, n_cols] = classes(c.in_width, col_tap_begin_, col_taps_, false);
    const std::size_t n_groups = std::size_t{c.in_channels} * n_rows * n_cols;
    if (4 * n_groups > 3 * places_.size()) return;
    group_of_.resize(places_.size());
    group_places_.assign(n_groups, place{~0u, 0, 0});
    group_fanout_.assign(n_groups, 0);
    for (std::uint32_t i = 0; i < places_.size(); ++i) {
        const place p = places_[i];
        const auto g = static_cast<std::uint32_t>((std::size_t{p.ch} * n_rows + row_class[p.iy]) * n_cols + col_class[p.ix]);
        group_of_[i] = g;
        if (group_places_[g].ch == ~0u) {
            group_places_[g] = p;
            group_fanout_[g] = fanout_[i];
        }
    }
    group_count_.assign(n_groups, 0);
    hit_groups_.assign(n_groups + 16, 0);
    hit_counts_.assign(n_groups + 16, 0);
}

conv_projection::view<std::int32_t> conv_projection::narrow_view(const place* places) {
    return {out_w_, kh_, kw_, n_ch_, places, ch_count_.data(), ch_first_.data(), slice_of_.data(), fanout_.data(),
            row_tap_begin_.data(), col_tap_begin_.data(), row_taps_.data(), col_taps_.data(), slices32_.data(),
            acc32_.data(), col_pattern_.data(), col_first_out_.data(), pattern_taps_.data(),
            strip_of_.data(), strips32_.empty() ? nullptr : strips32_.data(),
            static_cast<std::uint32_t>(pattern_taps_.size())};
}

namespace {

/// Lists the groups g in [first, n) with a nonzero count, in group order, into `groups` and
/// their counts into `counts` (room for n + 16 each), clears the counts, and adds count x
/// fanout to `events`. Returns how many. Branch-free: about a third of the groups of a
/// converted layer have spikes.
std::size_t collect_groups(std::int32_t* count, std::size_t n, const std::uint32_t* fanout, std::uint32_t* groups,
                           std::int32_t* counts, std::uint64_t& events, std::size_t first = 0) {
    std::size_t hits = 0;
    for (std::size_t g = first; g < n; ++g) {
        const std::int32_t c = count[g];
        groups[hits] = static_cast<std::uint32_t>(g);
        counts[hits] = c;
        events += static_cast<std::uint64_t>(c) * fanout[g];
        hits += c != 0;
        count[g] = 0;
    }
    return hits;
}

#if defined(__GNUC__) && defined(__x86_64__)
/// collect_groups sixteen groups at a time, the lists written by compressing in registers.
[[gnu::target("avx512f")]]
std::size_t collect_groups_avx512(std::int32_t* count, std::size_t n, const std::uint32_t* fanout, std::uint32_t* groups,
                                  std::int32_t* counts, std::uint64_t& events) {
    const __m512i iota = _mm512_setr_epi32(0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15);
    __m512i sum = _mm512_setzero_si512();  // 64-bit lanes
    std::size_t hits = 0, g = 0;
    for (; g + 16 <= n; g += 16) {
        const __m512i c = _mm512_loadu_si512(count + g);
        const __mmask16 m = _mm512_test_epi32_mask(c, c);
        _mm512_storeu_si512(count + g, _mm512_setzero_si512());
        _mm512_storeu_si512(groups + hits, _mm512_maskz_compress_epi32(m, _mm512_add_epi32(iota, _mm512_set1_epi32(static_cast<int>(g)))));
        _mm512_storeu_si512(counts + hits, _mm512_maskz_compress_epi32(m, c));
        const __m512i e = _mm512_mullo_epi32(c, _mm512_loadu_si512(fanout + g));  // <= 2^31: a count is at most a group's size
        sum = _mm512_add_epi64(sum, _mm512_maskz_cvtepu32_epi64(0xFF, _mm512_maskz_extracti64x4_epi64(0xF, e, 0)));
        sum = _mm512_add_epi64(sum, _mm512_maskz_cvtepu32_epi64(0xFF, _mm512_maskz_extracti64x4_epi64(0xF, e, 1)));
        hits += static_cast<std::size_t>(std::popcount(static_cast<unsigned>(m)));
    }
    alignas(64) std::uint64_t lanes[8];
    _mm512_store_si512(lanes, sum);
    for (const std::uint64_t e : lanes) events += e;  // (_mm512_reduce_add_epi64 trips GCC 12's -Wuninitialized)
    return hits + collect_groups(count, n, fanout, groups + hits, counts + hits, events, g);
}

#endif

}  // namespace

std::uint64_t conv_projection::add_spikes(std::span<const std::uint32_t> spikes, const double* values) {
    if (empty() || spikes.empty()) return 0;
    if (narrow_ && !values && !group_of_.empty()) {
        dirty32_ = true;
        for (std::size_t q = 0; q < acc32_.size(); q += 16) __builtin_prefetch(acc32_.data() + q, 1, 3);
        // Count first, then list the groups with spikes in one pass over the counts: listing a
        // group at its first spike would make each spike wait for the count its predecessor
        // stored (the sources of a group are neighbours in the spike list).
        for (const std::uint32_t i : spikes) ++group_count_[group_of_[i]];
        std::uint64_t events = 0;
        std::size_t hits;
#if defined(__GNUC__) && defined(__x86_64__)
        const bool wide = wide_;
        if (wide)
            hits = collect_groups_avx512(group_count_.data(), group_count_.size(), group_fanout_.data(),
                                         hit_groups_.data(), hit_counts_.data(), events);
        else
#endif
            hits = collect_groups(group_count_.data(), group_count_.size(), group_fanout_.data(), hit_groups_.data(),
                                  hit_counts_.data(), events);
        conv_group_kernel(narrow_view(group_places_.data()), hit_groups_.data(), hit_counts_.data(), hits);
        return events;
    }
    if (narrow_ && !values) {
        dirty32_ = true;
        return conv_spike_kernel(narrow_view(places_.data()), spikes.data(), spikes.size());
    }
    dirty_ = true;
    const view<std::int64_t> v{out_w_, kh_, kw_, n_ch_, places_.data(), ch_count_.data(), ch_first_.data(),
                               slice_of_.data(), fanout_.data(), row_tap_begin_.data(), col_tap_begin_.data(),
                               row_taps_.data(), col_taps_.data(), slices_.data(), acc_.data(),
                               nullptr, nullptr, nullptr, nullptr, nullptr, 0};
    if (!values) return conv_spike_kernel(v, spikes.data(), spikes.size());
    std::uint64_t events = 0;
    for (std::size_t k = 0; k < spikes.size(); ++k) {
        const std::uint32_t i = spikes[k];
        const auto [ch, iy, ix] = places_[i];
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

std::uint64_t conv_projection::bytes() const noexcept {
    return 8 * (slices_.size() + acc_.size() + strip_of_.size()) + sizeof(place) * places_.size() +
           4 * (strips32_.size() + col_pattern_.size() + col_first_out_.size() + pattern_taps_.size() + slices32_.size() + acc32_.size() + fanout_.size() + ch_first_.size() * 2 + row_tap_begin_.size() +
                                                     col_tap_begin_.size()) +
           8 * (row_taps_.size() + col_taps_.size() + slice_of_.size());
}

}  // namespace volley::snn::detail
