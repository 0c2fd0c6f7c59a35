// The CPU engine's dynamic state for checkpoints: every population, plastic table, convolution
// and gate describes its own (visit_state); the engine adds the ring buffer, the touched and
// spike lists of the steps in flight (its own and other ranks'), the step and the counters.

#include "backends/cpu/cpu_engine.hpp"

#include <string>

namespace volley::snn::detail {

void cpu_engine::visit_state(state_archive& a) {
    a.field("step", step_);
    a.field("spike_count", spike_count_);
    a.field("population_spikes", population_spikes_);
    std::vector<std::uint64_t> events(counters_.size());
    for (std::size_t t = 0; t < counters_.size(); ++t) events[t] = counters_[t].events;
    a.field("events", events);
    if (a.restoring())
        for (std::size_t t = 0; t < counters_.size() && t < events.size(); ++t) counters_[t].events = events[t];
    a.field("ring", ring_);
    a.field("touched", touched_);
    for (std::size_t k = 0; k < spikes_.size(); ++k) {  // two epochs of spike lists
        a.field("spikes" + std::to_string(k), spikes_[k]);
        std::vector<std::vector<std::uint32_t>> remote;  // [population * 2 + after]
        for (auto& lists : remote_[k]) {
            remote.push_back(lists.before);
            remote.push_back(lists.after);
        }
        a.field("remote" + std::to_string(k), remote);
        if (a.restoring())
            for (std::size_t p = 0; p < remote_[k].size() && 2 * p + 1 < remote.size(); ++p) {
                remote_[k][p].before = std::move(remote[2 * p]);
                remote_[k][p].after = std::move(remote[2 * p + 1]);
            }
    }
    for (std::uint32_t p = 0; p < n_pops_; ++p) {
        auto scope = a.scope("population" + std::to_string(p));
        std::visit([&](auto& pop) { pop.visit_state(a); }, pops_[p]);
    }
    for (std::size_t t = 0; t < plastic_.size(); ++t)
        for (std::size_t i = 0; i < plastic_[t].size(); ++i) {
            auto scope = a.scope("plastic" + std::to_string(t) + "_" + std::to_string(i));
            plastic_[t][i].visit_state(a);
        }
    for (std::size_t t = 0; t < structured_.size(); ++t) {
        std::vector<std::size_t> of_kind(std::variant_size_v<structured_state>, 0);  // "convolution0_0", "gate0_0", ...
        for (auto& projection : structured_[t])
            std::visit(
                [&](auto& p) {
                    auto scope = a.scope(std::string(p.kind) + std::to_string(t) + "_" +
                                         std::to_string(of_kind[projection.index()]++));
                    p.visit_state(a);
                },
                projection);
    }
}

}  // namespace volley::snn::detail
