// Steps in pairs (temporal blocking; see lif_population::update_pair). At CUBA's N = 400,000 the
// dense LIF step streams 13 MB of state a step from L3, and that is most of the run. Input
// from a spike of step s enters after the update of step s + 1, so every neuron's steps s and
// s + 1 depend only on spikes of step s - 1 and before. Each chunk of neurons can take both
// steps while it is in cache. Before the pair, all neurons have taken step s - 1, so the
// spikes of step s - 2 are added straight from their rows (deliver_direct); those of step
// s - 1, added between the two steps, are sorted by chunk beforehand (sort_direct); those of
// step s wait for the next pair. The result is the same computation in the same order as
// single steps, so rasters are bit-identical with and without pairs
// (tests/validation/test_step_pairs.cpp).
//
// Why the spikes of step s - 2 are not sorted as well, to be added while each chunk comes
// into cache: the sort costs more than it saves. Sorted, their adds wait on L3 like the
// direct ones, and the sort costs 9-13 cycles an event (CUBA, N = 400,000, one thread: 4.35 s
// with the sort, 4.07 s without, medians of five alternated runs; two threads: 2.73 s, 2.45 s).

#include "backends/cpu/cpu_engine.hpp"

namespace volley::snn::detail {

namespace {
/// Pairs pay off when a thread's state (25 bytes a neuron) is well past its core's L2 cache
/// (2 MiB here, 1-2 MiB on most current cores): below that, both steps stream from L2 anyway.
constexpr std::uint32_t pair_min_neurons = 1u << 17;
}  // namespace

bool cpu_engine::pairs_allowed(const progress_callback& progress, std::int64_t interval) const {
    if (step_pairs_ == step_pairing::off || !ring_.empty() || !state_sinks_.empty()) return false;
    // A pair adds the spikes of step s - 2 before it, which other ranks have not sent yet.
    if (dist_.size() > 1) return false;
    if (progress && interval > 0 && interval % 2 != 0) return false;  // a stop could fall inside a pair
    for (const auto& pop : pops_) {
        const auto* lif = std::get_if<lif_population>(&pop);
        if (!lif || !lif->steps_in_pairs()) return false;
    }
    if (step_pairs_ == step_pairing::always) return true;
    for (int t = 0; t < threads_; ++t)
        if (lo_[t + 1] - lo_[t] < pair_min_neurons) return false;
    return true;
}

void cpu_engine::prepare_pair(int t, std::int64_t s, bool first) {
    for (std::uint32_t p = 0; p < n_pops_; ++p) {
        auto& lif = std::get<lif_population>(pops_[p]);
        const auto [lb, le] = local_range(t, p);
        direct_boxes_[static_cast<std::size_t>(t) * n_pops_ + p].routes.clear();
        if (lb >= le || !direct_[p]) continue;
        if (!first && s >= 2) deliver_direct(t, s - 2, p, lif);
        if (s >= 1) sort_direct(t, s - 1, p, lif, lb, le);
    }
}

void cpu_engine::update_pair(int t, std::int64_t s) {
    for (const std::uint32_t p : order_) {
        auto& now = spikes_of(s, t, p);
        auto& next = spikes_of(s + 1, t, p);
        now.clear();
        next.clear();
        const auto [lb, le] = local_range(t, p);
        if (lb >= le) continue;
        const std::size_t box = static_cast<std::size_t>(t) * n_pops_ + p;
        std::get<lif_population>(pops_[p]).update_pair(t, s, lb, le, direct_boxes_[box].routes, now, next);
    }
}

void cpu_engine::record_pair(std::int64_t s) {
    record_spikes(s);
    record_spikes(s + 1);
    step_ = s + 2;
}

void cpu_engine::finish_pairs(int t, std::int64_t s) {
    for (std::uint32_t p = 0; p < n_pops_; ++p) {
        auto& lif = std::get<lif_population>(pops_[p]);
        const auto [lb, le] = local_range(t, p);
        if (lb >= le || !direct_[p] || s < 2) continue;
        deliver_direct(t, s - 2, p, lif);
    }
}

}  // namespace volley::snn::detail
