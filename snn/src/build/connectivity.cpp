// Connector expansion (see connectivity.hpp).

#include "build/connectivity.hpp"

#include <volley/error.hpp>

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <numeric>
#include <unordered_set>

#include "build/draw_values.hpp"

namespace volley::snn::detail {

namespace {

std::string num(double v) {
    char buf[32];
    std::snprintf(buf, sizeof buf, "%.17g", v);
    return buf;
}

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

/// k distinct sources of target j, uniformly (Floyd's algorithm), in ascending order.
void sources_fixed_in_degree(const fixed_in_degree& c, std::uint32_t n_src, bool exclude,
                             std::uint32_t j, counter_rng& rng, std::vector<std::uint32_t>& out) {
    const std::uint32_t n = n_src - (exclude ? 1 : 0);
    const std::size_t first = out.size();
    if (c.k == n) {
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

std::int32_t delay_steps(double delay_ms, double dt_ms, const std::string& object) {
    const double steps = std::nearbyint(delay_ms / dt_ms);
    if (!(steps >= 1))
        throw invalid_parameter(object, "delay_ms", num(delay_ms),
                                "delay is below dt (" + num(dt_ms) + " ms); delays are >= 1 step");
    if (steps > 1 << 20)
        throw invalid_parameter(object, "delay_ms", num(delay_ms), "delay exceeds 2^20 steps");
    return static_cast<std::int32_t>(steps);
}

void expand_projection(const network& net, std::size_t index, std::uint64_t seed, double dt_ms,
                       std::uint32_t target_begin, std::uint32_t target_end, synapse_list& out) {
    const auto& proj = net.projections()[index];
    const std::uint32_t n_src = net.at(proj.source).size;
    const std::uint32_t n_tgt = net.at(proj.target).size;
    const bool same = proj.source == proj.target;
    const std::string object = "projection " + std::to_string(index) + " ('" + net.at(proj.source).name +
                               "' -> '" + net.at(proj.target).name + "')";
    const auto proj_key = static_cast<std::uint32_t>(index);

    std::vector<std::uint32_t> sources;
    std::vector<std::size_t> list_index;  // element index for list-valued weights and delays
    std::vector<std::size_t> by_target;   // from_list pairs sorted by target
    if (const auto* fl = std::get_if<from_list>(&proj.rule)) {
        by_target.resize(fl->targets.size());
        std::iota(by_target.begin(), by_target.end(), std::size_t{0});
        std::stable_sort(by_target.begin(), by_target.end(),
                         [&](std::size_t a, std::size_t b) { return fl->targets[a] < fl->targets[b]; });
    }
    auto cursor = by_target.begin();

    for (std::uint32_t j = target_begin; j < target_end; ++j) {
        sources.clear();
        list_index.clear();
        counter_rng conn(seed, stream_purpose::connectivity, proj_key, j);
        std::visit(
            [&](const auto& c) {
                using C = std::decay_t<decltype(c)>;
                if constexpr (std::is_same_v<C, all_to_all>) {
                    for (std::uint32_t i = 0; i < n_src; ++i) {
                        if (same && !c.allow_autapses && i == j) continue;
                        sources.push_back(i);
                        list_index.push_back(std::size_t{i} * n_tgt + j);
                    }
                } else if constexpr (std::is_same_v<C, one_to_one>) {
                    sources.push_back(j);
                    list_index.push_back(j);
                } else if constexpr (std::is_same_v<C, fixed_probability>) {
                    sources_fixed_probability(c, n_src, same && !c.allow_autapses, j, conn, sources);
                } else if constexpr (std::is_same_v<C, fixed_in_degree>) {
                    sources_fixed_in_degree(c, n_src, same && !c.allow_autapses, j, conn, sources);
                } else {
                    cursor = std::lower_bound(cursor, by_target.end(), j,
                                              [&](std::size_t a, std::uint32_t t) { return c.targets[a] < t; });
                    for (auto it = cursor; it != by_target.end() && c.targets[*it] == j; ++it) {
                        sources.push_back(c.sources[*it]);
                        list_index.push_back(*it);
                    }
                }
            },
            proj.rule);

        counter_rng values(seed, stream_purpose::synapse_values, proj_key, j);
        for (std::size_t s = 0; s < sources.size(); ++s) {
            const std::size_t li = list_index.empty() ? 0 : list_index[s];
            const double w = draw_value(proj.synapse.weight, li, values);
            const double d = draw_value(proj.synapse.delay_ms, li, values);
            out.source.push_back(sources[s]);
            out.target.push_back(j);
            out.weight.push_back(w);
            out.delay.push_back(delay_steps(d, dt_ms, object));
        }
    }
}

}  // namespace volley::snn::detail
