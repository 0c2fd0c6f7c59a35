// The CPU backend's recorders (see cpu_engine.hpp): spikes, from the per-thread spike lists
// of a step, and state samples, read from the populations after a step.

#include "backends/cpu/cpu_engine.hpp"

#include <volley/error.hpp>

namespace volley::snn::detail {

void cpu_engine::record_spikes(std::int64_t s) {
    for (int t = 0; t < threads_; ++t)
        for (std::uint32_t p = 0; p < n_pops_; ++p) {
            spike_count_ += spikes_of(s, t, p).size();
            population_spikes_[p] += spikes_of(s, t, p).size();
        }
    for (auto& sink : spike_sinks_) {
        auto& d = *sink.data;
        // Threads own ascending ranges, so the ids come out ascending, as from one thread.
        for (int t = 0; t < threads_; ++t)
            for (std::uint32_t i : spikes_of(s, t, d.pop.value)) {
                if (!sink.mask.empty() && !sink.mask[i]) continue;
                d.node_ids.push_back(i);
                d.steps.push_back(s + 1);
            }
    }
}

void cpu_engine::sample_state(const state_sink& sink) {
    auto& d = *sink.data;
    std::visit([&](const auto& pop) { pop.sample_state(d.variable, step_, d.node_ids, d.values); }, pops_[sink.pop]);
    d.sample_steps.push_back(step_);
}

void cpu_engine::add_spike_recorder(std::shared_ptr<spike_data> data, std::vector<std::uint8_t> mask) {
    data->first_neuron = first_[data->pop.value];
    spike_sinks_.push_back({std::move(data), std::move(mask)});
}

void cpu_engine::add_state_recorder(std::shared_ptr<state_data> data, population_index pop) {
    for (const std::uint32_t i : data->node_ids)  // a rank samples only the neurons it owns
        if (const std::uint32_t g = first_[pop.value] + i; g < domain_lo_ || g >= domain_hi_)
            throw invalid_parameter("population '" + data->population + "'", "neuron", std::to_string(i),
                                    dist_.name() + " rank " + std::to_string(dist_.id()) + " owns the global neurons [" +
                                        std::to_string(domain_lo_) + ", " + std::to_string(domain_hi_) +
                                        "); record this neuron's state on the rank that owns it");
    std::vector<double> none;
    std::visit(  // each throws unknown_name for a variable it does not have
        [&](const auto& p) { p.sample_state(data->variable, step_, {}, none); }, pops_[pop.value]);
    state_sinks_.push_back({std::move(data), pop.value, step_});
    sample_state(state_sinks_.back());
}

}  // namespace volley::snn::detail
