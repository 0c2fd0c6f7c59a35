// The spike exchange between ranks (see cpu_engine.hpp): after each epoch every rank hands the
// spikes of its domain (replicated sources apart, which each rank draws) to the distributed context and files every other rank's, per step and
// source population, before or after its own (ranks own ascending neuron ranges), so that each
// delivery reads the spikes of a population in the order of its neurons whatever the partition.

#include "backends/cpu/cpu_engine.hpp"

#include <volley/error.hpp>

#include <algorithm>

namespace volley::snn::detail {

void cpu_engine::exchange(std::int64_t a, std::int64_t b) {
    std::vector<spike_event> local;
    for (std::int64_t s = a; s < b; ++s)
        for (std::uint32_t p = 0; p < n_pops_; ++p) {
            if (sources_.replicated[p]) continue;  // every rank draws the ones it needs
            for (int t = 0; t < threads_; ++t)
                for (const std::uint32_t i : spikes_of(s, t, p)) local.push_back({s, first_[p] + i});
        }
    const gathered_spikes all = dist_.gather_spikes(local);
    if (all.partition.size() != static_cast<std::size_t>(dist_.size()) + 1 || all.partition.back() != all.events.size())
        throw internal_error("spike exchange: the gathered spikes do not have one part per rank");
    // The next epoch's lists too: its zero-delay deliveries read them before its exchange.
    for (std::int64_t s = a; s < b + epoch_; ++s)
        for (auto& lists : remote_[static_cast<std::size_t>(s & spike_mask_)]) {
            lists.before.clear();
            lists.after.clear();
        }
    const int me = dist_.id();
    for (int r = 0; r < dist_.size(); ++r) {
        if (r == me) continue;
        const auto ru = static_cast<std::size_t>(r);
        for (std::size_t k = all.partition[ru]; k < all.partition[ru + 1]; ++k) {
            const spike_event& e = all.events[k];
            if (e.step < a || e.step >= b || e.neuron >= n_)
                throw internal_error("spike exchange: rank " + std::to_string(r) + " sent neuron " +
                                     std::to_string(e.neuron) + " at step " + std::to_string(e.step) +
                                     ", outside the epoch [" + std::to_string(a) + ", " + std::to_string(b) + ")");
            const auto p = static_cast<std::uint32_t>(std::upper_bound(first_.begin(), first_.end(), e.neuron) -
                                                      first_.begin() - 1);
            auto& lists = remote_[static_cast<std::size_t>(e.step & spike_mask_)][p];
            (r < me ? lists.before : lists.after).push_back(e.neuron - first_[p]);
        }
    }
}

}  // namespace volley::snn::detail
