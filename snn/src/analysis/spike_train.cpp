#include <volley/snn/analysis/spike_train.hpp>

#include <volley/error.hpp>

#include <algorithm>
#include <charconv>
#include <cmath>
#include <limits>

namespace volley::snn::analysis {

std::string value_text(double value) {
    char text[32];
    const auto end = std::to_chars(text, text + sizeof text, value).ptr;
    return std::string(text, end);
}

void check_spike_train(spike_train train, std::size_t index) {
    // The fast path only compares; messages are built once a bad value is found.
    const auto fail = [&](std::size_t i, const std::string& reason) {
        throw invalid_parameter("spike train " + std::to_string(index),
                                "times_ms[" + std::to_string(i) + "]", value_text(train[i]),
                                reason);
    };
    double previous = 0;
    for (std::size_t i = 0; i < train.size(); ++i) {
        const double t = train[i];
        if (t >= previous && t <= std::numeric_limits<double>::max()) {
            previous = t;
            continue;
        }
        if (!std::isfinite(t)) fail(i, "must be finite");
        if (t < 0) fail(i, "must be >= 0 ms");
        fail(i, "must be >= the previous spike time " + value_text(train[i - 1]) +
                    " ms (spike times must be sorted)");
    }
}

void check_spike_trains(std::span<const spike_train> trains) {
    for (std::size_t i = 0; i < trains.size(); ++i) check_spike_train(trains[i], i);
}

void check_window(const time_window& window) {
    if (!std::isfinite(window.start_ms))
        throw invalid_parameter("time window", "start_ms", value_text(window.start_ms),
                                "must be finite");
    if (!std::isfinite(window.stop_ms))
        throw invalid_parameter("time window", "stop_ms", value_text(window.stop_ms),
                                "must be finite");
    if (!(window.stop_ms > window.start_ms))
        throw invalid_parameter("time window", "stop_ms", value_text(window.stop_ms),
                                "must be > start_ms = " + value_text(window.start_ms));
}

void check_bin(double bin_ms, const time_window& window) {
    if (!std::isfinite(bin_ms) || !(bin_ms > 0))
        throw invalid_parameter("binning", "bin_ms", value_text(bin_ms), "must be finite and > 0");
    if (window.duration_ms() / bin_ms > 1e8)
        throw invalid_parameter(
            "binning", "bin_ms", value_text(bin_ms),
            "gives more than 10^8 bins in a window of " + value_text(window.duration_ms()) + " ms");
}

std::vector<spike_train> views(const std::vector<std::vector<double>>& trains) {
    std::vector<spike_train> out;
    out.reserve(trains.size());
    for (const auto& t : trains) out.push_back(view(t));
    return out;
}

spike_train restrict_to(spike_train train, const time_window& window) {
    const auto first = std::lower_bound(train.begin(), train.end(), window.start_ms);
    const auto last = std::lower_bound(first, train.end(), window.stop_ms);
    return train.subspan(static_cast<std::size_t>(first - train.begin()),
                         static_cast<std::size_t>(last - first));
}

}  // namespace volley::snn::analysis
