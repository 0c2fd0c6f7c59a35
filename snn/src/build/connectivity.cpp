// Connector expansion (see connectivity.hpp).

#include "build/connectivity.hpp"
#include "model/max_pool_gate.hpp"

#include "model/format_number.hpp"

#include <volley/error.hpp>

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <limits>
#include <numeric>
#include <unordered_set>

#include "build/draw_values.hpp"
#include "random/binomial.hpp"

namespace volley::snn::detail {

namespace {

using detail::format_number;

/// Sources of target j under fixed probability p: geometric skipping, O(expected degree).
void sources_fixed_probability(const fixed_probability& c, std::uint32_t n_src, bool exclude,
                               std::uint32_t j, counter_rng& rng, std::vector<std::uint32_t>& out) {
    if (c.p <= 0) return;
    if (c.p >= 1) {
        for (std::uint32_t i = 0; i < n_src; ++i)
            if (!(exclude && i == j)) out.push_back(i);
        return;
    }
    const double log_q = std::log1p(-c.p);
    double i = -1;
    for (;;) {
        i += 1 + std::floor(std::log(rng.uniform_open0()) / log_q);
        if (i >= n_src) break;
        const auto s = static_cast<std::uint32_t>(i);
        if (!(exclude && s == j)) out.push_back(s);
    }
}

/// k sources of target j, uniformly, in ascending order: distinct ones (Floyd's algorithm), or
/// k independent draws with allow_multapses.
void sources_fixed_in_degree(const fixed_in_degree& c, std::uint32_t n_src, bool exclude,
                             std::uint32_t j, counter_rng& rng, std::vector<std::uint32_t>& out) {
    const std::uint32_t n = n_src - (exclude ? 1 : 0);
    const std::size_t first = out.size();
    if (c.allow_multapses) {
        if (std::uint64_t{n} > 8ull * c.k) {
            for (std::uint32_t m = 0; m < c.k; ++m) out.push_back(rng.below(n));
            std::sort(out.begin() + first, out.end());
        } else {  // dense draws (hpc_benchmark: 9,000 of 9,000): a counting sort, O(n + k)
            thread_local std::vector<std::uint32_t> count;
            count.assign(n, 0);
            for (std::uint32_t m = 0; m < c.k; ++m) ++count[rng.below(n)];
            for (std::uint32_t i = 0; i < n; ++i) out.insert(out.end(), count[i], i);
        }
    } else if (c.k == n) {
        for (std::uint32_t i = 0; i < n; ++i) out.push_back(i);
    } else {
        std::unordered_set<std::uint32_t> chosen;
        chosen.reserve(c.k * 2);
        for (std::uint32_t m = n - c.k; m < n; ++m) {
            const std::uint32_t t = rng.below(m + 1);
            const std::uint32_t pick = chosen.insert(t).second ? t : m;
            if (pick == m) chosen.insert(m);
            out.push_back(pick);
        }
        std::sort(out.begin() + first, out.end());
    }
    if (exclude)
        for (auto it = out.begin() + first; it != out.end(); ++it)
            if (*it >= j) ++*it;
}

}  // namespace

void sources_convolution(const convolution& c, std::uint32_t j, std::vector<std::uint32_t>& sources,
                         std::vector<double>& weights) {
    const std::uint32_t oh = c.out_height(), ow = c.out_width();
    const std::uint32_t o = j / (oh * ow), y = j / ow % oh, x = j % ow;
    const std::uint32_t cg = c.in_channels / c.groups, og = c.out_channels / c.groups;
    const std::uint32_t c0 = o / og * cg;
    for (std::uint32_t ci = 0; ci < cg; ++ci)
        for (std::uint32_t ky = 0; ky < c.kernel_height; ++ky) {
            const std::int64_t iy = std::int64_t{y} * c.stride_h - c.pad_top + std::int64_t{ky} * c.dilation_h;
            if (iy < 0 || iy >= c.in_height) continue;
            for (std::uint32_t kx = 0; kx < c.kernel_width; ++kx) {
                const std::int64_t ix = std::int64_t{x} * c.stride_w - c.pad_left + std::int64_t{kx} * c.dilation_w;
                if (ix < 0 || ix >= c.in_width) continue;
                sources.push_back(static_cast<std::uint32_t>(((c0 + ci) * std::uint64_t{c.in_height} +
                                                              static_cast<std::uint64_t>(iy)) * c.in_width +
                                                             static_cast<std::uint64_t>(ix)));
                weights.push_back(c.kernel[((std::size_t{o} * cg + ci) * c.kernel_height + ky) * c.kernel_width + kx]);
            }
        }
}

std::int32_t delay_steps(double delay_ms, double dt_ms, const std::string& object) {
    if (delay_ms == 0) return 0;  // same-step delivery (network::connect allows only the constant 0)
    const double steps = std::nearbyint(delay_ms / dt_ms);
    if (!(steps >= 1))
        throw invalid_parameter(object, "delay_ms", format_number(delay_ms),
                                "delay is below dt (" + format_number(dt_ms) + " ms); delays are 0 or >= 1 step");
    if (steps > 1 << 20)
        throw invalid_parameter(object, "delay_ms", format_number(delay_ms), "delay exceeds 2^20 steps");
    return static_cast<std::int32_t>(steps);
}

projection_expander::projection_expander(const network& net, std::size_t index, std::uint64_t seed, double dt_ms)
    : net_(net), proj_(net.projections()[index]), seed_(seed), dt_ms_(dt_ms), key_(static_cast<std::uint32_t>(index)),
      n_src_(net.at(proj_.source).size), n_tgt_(net.at(proj_.target).size), same_(proj_.source == proj_.target),
      object_("projection " + std::to_string(index) + " ('" + net.at(proj_.source).name + "' -> '" +
              net.at(proj_.target).name + "')") {
    if (const auto* fl = std::get_if<from_list>(&proj_.rule)) {
        by_target_.resize(fl->targets.size());
        std::iota(by_target_.begin(), by_target_.end(), std::size_t{0});
        std::stable_sort(by_target_.begin(), by_target_.end(),
                         [&](std::size_t a, std::size_t b) { return fl->targets[a] < fl->targets[b]; });
    }
    cursor_ = by_target_.begin();
    if (const auto* ft = std::get_if<fixed_total_number>(&proj_.rule)) {
        // Multinomial in-degrees as a chain of binomials: target j takes Binomial(left, 1 / (targets
        // from j on)) of the synapses left. One stream for the projection (b = n_tgt, past every
        // target's own), so each part of the targets computes the same chain.
        counter_rng chain(seed_, stream_purpose::connectivity, key_, n_tgt_);
        in_degree_.resize(n_tgt_);
        std::uint64_t left = ft->n;
        for (std::uint32_t j = 0; j < n_tgt_; ++j) {
            const std::uint64_t k = binomial(left, 1.0 / static_cast<double>(n_tgt_ - j), chain);
            if (k > std::numeric_limits<std::uint32_t>::max())
                throw invalid_parameter(object_, "n", std::to_string(ft->n), "more than 2^32 synapses onto one target");
            in_degree_[j] = static_cast<std::uint32_t>(k);
            left -= k;
        }
    }
}

void projection_expander::expand(std::uint32_t j) {
    sources.clear();
    weights.clear();
    delays.clear();
    list_index_.clear();
    kernel_weights_.clear();
    counter_rng conn(seed_, stream_purpose::connectivity, key_, j);
    std::visit(
        [&](const auto& c) {
            using C = std::decay_t<decltype(c)>;
            if constexpr (std::is_same_v<C, all_to_all>) {
                for (std::uint32_t i = 0; i < n_src_; ++i) {
                    if (same_ && !c.allow_autapses && i == j) continue;
                    sources.push_back(i);
                    list_index_.push_back(std::size_t{i} * n_tgt_ + j);
                }
            } else if constexpr (std::is_same_v<C, one_to_one>) {
                sources.push_back(j);
                list_index_.push_back(j);
            } else if constexpr (std::is_same_v<C, fixed_probability>) {
                sources_fixed_probability(c, n_src_, same_ && !c.allow_autapses, j, conn, sources);
            } else if constexpr (std::is_same_v<C, fixed_in_degree>) {
                sources_fixed_in_degree(c, n_src_, same_ && !c.allow_autapses, j, conn, sources);
            } else if constexpr (std::is_same_v<C, fixed_total_number>) {
                sources_fixed_in_degree(fixed_in_degree{in_degree_[j], c.allow_autapses, true}, n_src_,
                                        same_ && !c.allow_autapses, j, conn, sources);
            } else if constexpr (std::is_same_v<C, convolution>) {
                sources_convolution(c, j, sources, kernel_weights_);
            } else if constexpr (std::is_same_v<C, max_pool_gate>) {
                sources_max_pool_gate(c, j, sources);  // the window; the engine gates it (gate_projection)
            } else {
                cursor_ = std::lower_bound(cursor_, by_target_.end(), j,
                                           [&](std::size_t a, std::uint32_t t) { return c.targets[a] < t; });
                for (auto it = cursor_; it != by_target_.end() && c.targets[*it] == j; ++it) {
                    sources.push_back(c.sources[*it]);
                    list_index_.push_back(*it);
                }
            }
        },
        proj_.rule);

    const auto& syn = proj_.synapse;
    const bool const_w = syn.weight.index() == 0, const_d = syn.delay_ms.index() == 0;
    if (std::holds_alternative<convolution>(proj_.rule)) {
        // The kernel carries the weights; the spec's weight is the constant 1 and its delay a constant.
        weights = kernel_weights_;
        delays.assign(sources.size(), sources.empty() ? 1 : delay_steps(std::get<double>(syn.delay_ms), dt_ms_, object_));
        return;
    }
    if (const_w && const_d) {
        // Nothing to draw: one value each, and one delay check.
        weights.assign(sources.size(), std::get<double>(syn.weight));
        delays.assign(sources.size(), sources.empty() ? 1 : delay_steps(std::get<double>(syn.delay_ms), dt_ms_, object_));
        return;
    }
    counter_rng values(seed_, stream_purpose::synapse_values, key_, j);
    for (std::size_t s = 0; s < sources.size(); ++s) {
        const std::size_t li = list_index_.empty() ? 0 : list_index_[s];
        weights.push_back(draw_value(syn.weight, li, values));
        delays.push_back(delay_steps(draw_value(syn.delay_ms, li, values), dt_ms_, object_));
    }
}

void expand_projection(const network& net, std::size_t index, std::uint64_t seed, double dt_ms,
                       std::uint32_t target_begin, std::uint32_t target_end, synapse_list& out) {
    projection_expander ex(net, index, seed, dt_ms);
    for (std::uint32_t j = target_begin; j < target_end; ++j) {
        ex.expand(j);
        out.source.insert(out.source.end(), ex.sources.begin(), ex.sources.end());
        out.target.insert(out.target.end(), ex.sources.size(), j);
        out.weight.insert(out.weight.end(), ex.weights.begin(), ex.weights.end());
        out.delay.insert(out.delay.end(), ex.delays.begin(), ex.delays.end());
        const auto& li = ex.list_indices();
        if (li.size() == ex.sources.size()) out.list_index.insert(out.list_index.end(), li.begin(), li.end());
    }
}

}  // namespace volley::snn::detail
