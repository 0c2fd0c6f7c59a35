// Recorder handles.

#include <volley/snn/recorders.hpp>

namespace volley::snn {

double spike_recorder::mean_rate_hz() const noexcept {
    const double seconds = static_cast<double>(data_->steps_recorded) * data_->dt_ms / 1000.0;
    if (seconds <= 0 || data_->recorded_neurons == 0) return 0.0;
    return static_cast<double>(size()) / (seconds * data_->recorded_neurons);
}

std::vector<double> spike_recorder::times_ms() const {
    std::vector<double> t(data_->steps.size());
    for (std::size_t i = 0; i < t.size(); ++i) t[i] = static_cast<double>(data_->steps[i]) * data_->dt_ms;
    return t;
}

}  // namespace volley::snn
