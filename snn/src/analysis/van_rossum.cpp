// Van Rossum distance by Houghton & Kreuz's recursion (Network 23, 2012): the self term of a
// train in one pass ("markage"), the cross term in one merge of both trains.

#include <volley/snn/analysis/distances.hpp>

#include "analysis/pair_terms.hpp"

#include <volley/error.hpp>

#include <algorithm>
#include <cmath>

namespace volley::snn::analysis {

namespace detail {

double van_rossum_self_term(spike_train a, double tau_ms) {
    double markage = 0, sum = 0;
    for (std::size_t i = 1; i < a.size(); ++i) {
        markage = (markage + 1.0) * std::exp(-(a[i] - a[i - 1]) / tau_ms);
        sum += markage;
    }
    return static_cast<double>(a.size()) + 2.0 * sum;
}

double van_rossum_cross_term(spike_train a, spike_train b, double tau_ms) {
    // acc_a / acc_b: sum of e^{-(t - t_k)/tau} over the spikes of a / b merged so far, at the
    // time t of the last merged spike. At equal times b goes first, so each pair counts once.
    double acc_a = 0, acc_b = 0, last = 0, sum = 0;
    std::size_t i = 0, j = 0;
    while (i < a.size() || j < b.size()) {
        const bool take_b = j < b.size() && (i == a.size() || b[j] <= a[i]);
        const double t = take_b ? b[j] : a[i];
        const double decay = std::exp(-(t - last) / tau_ms);
        acc_a *= decay;
        acc_b *= decay;
        last = t;
        if (take_b) {
            sum += acc_a;
            acc_b += 1;
            ++j;
        } else {
            sum += acc_b;
            acc_a += 1;
            ++i;
        }
    }
    return sum;
}

void check_tau(double tau_ms) {
    if (!std::isfinite(tau_ms) || !(tau_ms > 0))
        throw invalid_parameter("van Rossum distance", "tau_ms", value_text(tau_ms),
                                "must be finite and > 0");
}

double van_rossum_from_terms(double self_a, double self_b, double cross) {
    return std::sqrt(std::max(0.0, self_a + self_b - 2 * cross));
}

}  // namespace detail

double van_rossum_distance(spike_train a, spike_train b, double tau_ms, std::size_t index_a,
                           std::size_t index_b) {
    check_spike_train(a, index_a);
    check_spike_train(b, index_b);
    detail::check_tau(tau_ms);
    if (std::equal(a.begin(), a.end(), b.begin(), b.end())) return 0;  // exact, not rounding noise
    return detail::van_rossum_from_terms(detail::van_rossum_self_term(a, tau_ms),
                                         detail::van_rossum_self_term(b, tau_ms),
                                         detail::van_rossum_cross_term(a, b, tau_ms));
}

}  // namespace volley::snn::analysis
