// Recorder handles.

#include <volley/snn/recorders.hpp>

#include <algorithm>
#include <unordered_map>

#include "model/spike_time_step.hpp"

namespace volley::snn {

double spike_recorder::mean_rate_hz() const noexcept {
    const double seconds = static_cast<double>(data_->steps_recorded) * data_->dt_ms / 1000.0;
    if (seconds <= 0 || data_->recorded_neurons == 0) return 0.0;
    return static_cast<double>(size()) / (seconds * data_->recorded_neurons);
}

std::vector<double> spike_times_ms(const spike_data& d, std::size_t begin, std::size_t end) {
    end = std::min(end, d.steps.size());
    std::vector<double> t;
    if (begin >= end) return t;
    t.reserve(end - begin);
    const auto& trains = d.source_times_ms;
    // Spikes of one step are contiguous: how many of each neuron came before, within the step.
    std::unordered_map<std::uint32_t, std::size_t> before;
    std::size_t run = begin;
    while (run > 0 && d.steps[run - 1] == d.steps[begin]) --run;
    for (std::size_t i = run; i < begin; ++i) ++before[d.node_ids[i]];
    for (std::size_t i = begin; i < end; ++i) {
        const std::int64_t k = d.steps[i];
        if (i > begin && k != d.steps[i - 1]) before.clear();
        const std::uint32_t n = d.node_ids[i];
        double time = static_cast<double>(k) * d.dt_ms;
        if (n < trains.size()) {
            const auto& train = trains[n];
            const auto first = std::partition_point(train.begin(), train.end(), [&](double x) {
                return detail::spike_time_step(x, d.dt_ms) < k;
            });
            const auto j = static_cast<std::ptrdiff_t>(before[n]++);
            if (train.end() - first > j && detail::spike_time_step(first[j], d.dt_ms) == k) time = first[j];
        }
        t.push_back(time);
    }
    return t;
}

std::vector<double> spike_recorder::times_ms() const { return spike_times_ms(*data_, 0, data_->steps.size()); }

}  // namespace volley::snn
