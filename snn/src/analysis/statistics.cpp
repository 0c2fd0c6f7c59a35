#include <volley/snn/analysis/statistics.hpp>

#include <volley/error.hpp>

#include "binning.hpp"

#include <cmath>
#include <numbers>

namespace volley::snn::analysis {

namespace {

std::string train_name(std::size_t index) {
    return "spike train " + std::to_string(index);
}

void need_spikes(spike_train train, std::size_t needed, std::size_t index, const char* measure) {
    if (train.size() < needed)
        throw invalid_parameter(
            train_name(index), "spike count", std::to_string(train.size()),
            std::string(measure) + " needs at least " + std::to_string(needed) + " spikes");
}

}  // namespace

double mean_rate_hz(spike_train train, const time_window& window, std::size_t index) {
    check_spike_train(train, index);
    check_window(window);
    return static_cast<double>(restrict_to(train, window).size()) / (window.duration_ms() / 1e3);
}

std::vector<double> binned_counts(spike_train train, const time_window& window, double bin_ms,
                                  std::size_t index) {
    check_spike_train(train, index);
    check_window(window);
    check_bin(bin_ms, window);
    const std::size_t bins = detail::bin_count(window, bin_ms);
    std::vector<double> counts(bins, 0.0);
    for (double t : restrict_to(train, window)) {
        const auto b = static_cast<std::size_t>(std::floor((t - window.start_ms) / bin_ms));
        if (b < bins) counts[b] += 1;
    }
    return counts;
}

std::vector<double> binned_rate_hz(spike_train train, const time_window& window, double bin_ms,
                                   std::size_t index) {
    auto counts = binned_counts(train, window, bin_ms, index);
    for (double& c : counts) c /= bin_ms / 1e3;
    return counts;
}

std::vector<double> kernel_rate_hz(spike_train train, const time_window& window, rate_kernel kernel,
                                   double width_ms, double sampling_ms, std::size_t index) {
    check_spike_train(train, index);
    check_window(window);
    if (!std::isfinite(width_ms) || !(width_ms > 0))
        throw invalid_parameter("kernel rate", "width_ms", value_text(width_ms),
                                "must be finite and > 0");
    if (!std::isfinite(sampling_ms) || !(sampling_ms > 0))
        throw invalid_parameter("kernel rate", "sampling_ms", value_text(sampling_ms),
                                "must be finite and > 0");
    check_bin(sampling_ms, window);
    const std::size_t samples = detail::bin_count(window, sampling_ms);
    std::vector<double> rate(samples, 0.0);
    if (kernel == rate_kernel::gaussian) {
        // Terms beyond 10 sigma are below 2e-22 of the peak: far under double rounding.
        const double reach = 10 * width_ms;
        const double norm = 1e3 / (std::sqrt(2 * std::numbers::pi) * width_ms);
        std::size_t first = 0;
        for (std::size_t k = 0; k < samples; ++k) {
            const double t = window.start_ms + (static_cast<double>(k) + 0.5) * sampling_ms;
            while (first < train.size() && train[first] < t - reach) ++first;
            double sum = 0;
            for (std::size_t i = first; i < train.size() && train[i] <= t + reach; ++i) {
                const double z = (t - train[i]) / width_ms;
                sum += std::exp(-0.5 * z * z);
            }
            rate[k] = sum * norm;
        }
    } else {
        // Exact recursion: the sum decays by exp(-dt / tau) between samples.
        double sum = 0, last_t = 0;
        std::size_t next = 0;
        for (std::size_t k = 0; k < samples; ++k) {
            const double t = window.start_ms + (static_cast<double>(k) + 0.5) * sampling_ms;
            if (k > 0) sum *= std::exp(-(t - last_t) / width_ms);
            for (; next < train.size() && train[next] <= t; ++next)
                sum += std::exp(-(t - train[next]) / width_ms);
            last_t = t;
            rate[k] = sum * 1e3 / width_ms;
        }
    }
    return rate;
}

std::vector<double> isis(spike_train train, std::size_t index) {
    check_spike_train(train, index);
    std::vector<double> out;
    if (train.size() < 2) return out;
    out.reserve(train.size() - 1);
    for (std::size_t i = 1; i < train.size(); ++i) out.push_back(train[i] - train[i - 1]);
    return out;
}

double cv(spike_train train, std::size_t index) {
    check_spike_train(train, index);
    need_spikes(train, 3, index, "CV");
    const double n = static_cast<double>(train.size() - 1);
    const double mean = (train.back() - train.front()) / n;
    if (!(mean > 0))
        throw invalid_parameter(train_name(index), "mean ISI", value_text(mean),
                                "CV needs a mean ISI > 0");
    double ss = 0;
    for (std::size_t i = 1; i < train.size(); ++i) {
        const double d = train[i] - train[i - 1] - mean;
        ss += d * d;
    }
    return std::sqrt(ss / n) / mean;
}

namespace {

// Mean over consecutive ISI pairs of f(I[i], I[i+1]); throws for a pair of zero ISIs.
template <class F>
double isi_pair_mean(spike_train train, std::size_t index, const char* measure, F f) {
    check_spike_train(train, index);
    need_spikes(train, 3, index, measure);
    double sum = 0;
    for (std::size_t i = 2; i < train.size(); ++i) {
        const double a = train[i - 1] - train[i - 2], b = train[i] - train[i - 1];
        if (!(a + b > 0))
            throw invalid_parameter(
                train_name(index), "times_ms[" + std::to_string(i) + "]", value_text(train[i]),
                std::string(measure) + " is undefined for two consecutive zero ISIs");
        sum += f(a, b);
    }
    return sum / static_cast<double>(train.size() - 2);
}

}  // namespace

double cv2(spike_train train, std::size_t index) {
    return isi_pair_mean(train, index, "CV2",
                         [](double a, double b) { return 2 * std::abs(b - a) / (a + b); });
}

double lv(spike_train train, std::size_t index) {
    return isi_pair_mean(train, index, "LV", [](double a, double b) {
        const double r = (a - b) / (a + b);
        return 3 * r * r;
    });
}

isi_summary isi_statistics(spike_train train, std::size_t index) {
    check_spike_train(train, index);
    need_spikes(train, 3, index, "CV");
    const std::size_t n = train.size() - 1;
    isi_summary out;
    out.intervals = n;
    out.mean_isi_ms = (train.back() - train.front()) / static_cast<double>(n);
    if (!(out.mean_isi_ms > 0))
        throw invalid_parameter(train_name(index), "mean ISI", value_text(out.mean_isi_ms),
                                "CV needs a mean ISI > 0");
    double ss = 0, cv2_sum = 0, lv_sum = 0, previous = train[1] - train[0];
    {
        const double d = previous - out.mean_isi_ms;
        ss = d * d;
    }
    for (std::size_t i = 2; i < train.size(); ++i) {
        const double isi = train[i] - train[i - 1], d = isi - out.mean_isi_ms, sum = previous + isi;
        if (!(sum > 0))
            throw invalid_parameter(train_name(index), "times_ms[" + std::to_string(i) + "]",
                                    value_text(train[i]),
                                    "CV2 is undefined for two consecutive zero ISIs");
        ss += d * d;
        // One division for both terms (it bounds this loop): 2 |r| is 2 |isi - previous| / sum
        // to the bit, as scaling by 2 commutes with rounding.
        const double r = (previous - isi) / sum;
        cv2_sum += 2 * std::abs(r);
        lv_sum += 3 * r * r;
        previous = isi;
    }
    out.cv = std::sqrt(ss / static_cast<double>(n)) / out.mean_isi_ms;
    out.cv2 = cv2_sum / static_cast<double>(n - 1);
    out.lv = lv_sum / static_cast<double>(n - 1);
    return out;
}

namespace {

double fano_of_counts(const std::vector<double>& counts, const std::string& object) {
    if (counts.size() < 2)
        throw invalid_parameter(object, "count windows", std::to_string(counts.size()),
                                "the Fano factor needs at least 2");
    double mean = 0;
    for (double c : counts) mean += c;
    mean /= static_cast<double>(counts.size());
    if (!(mean > 0))
        throw invalid_parameter(object, "mean spike count", "0", "the Fano factor needs spikes");
    double ss = 0;
    for (double c : counts) ss += (c - mean) * (c - mean);
    return ss / static_cast<double>(counts.size()) / mean;
}

}  // namespace

double fano_factor(spike_train train, const time_window& window, double counting_ms,
                   std::size_t index) {
    return fano_of_counts(binned_counts(train, window, counting_ms, index), train_name(index));
}

double fano_factor(std::span<const spike_train> trials) {
    check_spike_trains(trials);
    std::vector<double> counts;
    counts.reserve(trials.size());
    for (const auto& t : trials) counts.push_back(static_cast<double>(t.size()));
    return fano_of_counts(counts, "trials");
}

}  // namespace volley::snn::analysis
