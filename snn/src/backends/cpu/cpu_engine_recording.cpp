// The CPU backend's recorders (see cpu_engine.hpp): spikes, from the per-thread spike lists
// of a step, and state samples, read from the populations after a step.

#include "backends/cpu/cpu_engine.hpp"

#include <volley/error.hpp>

#include <algorithm>

namespace volley::snn::detail {

void cpu_engine::record_spikes(std::int64_t s) {
    for (int t = 0; t < threads_; ++t)
        for (std::uint32_t p = 0; p < n_pops_; ++p) {
            const auto& fired = spikes_of(s, t, p);
            std::size_t n = fired.size();
            if (sources_.replicated[p]) {  // drawn here for other reasons too: count the recorded ones
                const auto& rec = sources_.recorded[p];
                n = static_cast<std::size_t>(std::count_if(fired.begin(), fired.end(), [&](std::uint32_t i) { return rec[i] != 0; }));
            }
            spike_count_ += n;
            population_spikes_[p] += n;
        }
    for (auto& sink : spike_sinks_) {
        auto& d = *sink.data;
        const auto* rec = sources_.replicated[d.pop.value] ? &sources_.recorded[d.pop.value] : nullptr;
        // Threads own ascending ranges, so the ids come out ascending, as from one thread.
        for (int t = 0; t < threads_; ++t)
            for (std::uint32_t i : spikes_of(s, t, d.pop.value)) {
                if (rec && !(*rec)[i]) continue;  // a replicated source another rank records
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

void cpu_engine::remove_spike_recorder(const spike_data* data) {
    std::erase_if(spike_sinks_, [&](const spike_sink& s) { return s.data.get() == data; });
}

void cpu_engine::remove_state_recorder(const state_data* data) {
    std::erase_if(state_sinks_, [&](const state_sink& s) { return s.data.get() == data; });
}

}  // namespace volley::snn::detail
