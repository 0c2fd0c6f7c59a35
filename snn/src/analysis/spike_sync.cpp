// SPIKE-synchronization (Kreuz et al., J. Neurophysiol. 113, 2015; adaptive window with a
// minimum relevant time scale after Satuvuori et al., J. Neurosci. Methods 287, 2017), as
// PySpike 0.9's coincidence_value_cython and get_tau compute it.

#include <volley/snn/analysis/distances.hpp>

#include "analysis/pair_terms.hpp"

#include <algorithm>

namespace volley::snn::analysis {

namespace detail {

namespace {

// PySpike's thresholded interpolation: min(a, b) for small t, b for large t, t between.
double interpolate(double a, double b, double t) {
    if (t < a && a < b) return a;
    if (t < b && b <= a) return b;
    if (t > b) return b;
    return t;
}

// The coincidence window of spike i of s1 and spike j of s2 (Eq. 19 of Kreuz et al. 2015).
double coincidence_tau(spike_train s1, spike_train s2, long i, long j, double max_tau,
                       double mrts) {
    const long n1 = static_cast<long>(s1.size()), n2 = static_cast<long>(s2.size());
    double mf1 = max_tau, mp1 = max_tau, mf2 = max_tau, mp2 = max_tau;
    if (i < n1 - 1 && i > -1) mf1 = s1[i + 1] - s1[i];
    if (j < n2 - 1 && j > -1) mf2 = s2[j + 1] - s2[j];
    if (i > 0) mp1 = s1[i] - s1[i - 1];
    if (j > 0) mp2 = s2[j] - s2[j - 1];
    mf1 /= 2;
    mf2 /= 2;
    mp1 /= 2;
    mp2 /= 2;
    mrts /= 4;
    if (i < 0 || j < 0 || s1[i] <= s2[j])
        return std::min(interpolate(mp1, mf1, mrts), interpolate(mf2, mp2, mrts));
    return std::min(interpolate(mf1, mp1, mrts), interpolate(mp2, mf2, mrts));
}

}  // namespace

double spike_sync_unchecked(spike_train s1, spike_train s2, const kreuz_options& o) {
    const long n1 = static_cast<long>(s1.size()), n2 = static_cast<long>(s2.size());
    double max_tau = o.window.duration_ms();
    if (o.max_tau_ms > 0) max_tau = std::min(max_tau, 2 * o.max_tau_ms);
    double coincidences = 0, multiplicity = 0;
    long i = -1, j = -1;
    while (i + j < n1 + n2 - 2) {
        if (i < n1 - 1 && (j == n2 - 1 || s1[i + 1] < s2[j + 1])) {
            ++i;
            multiplicity += 1;
            const double tau = coincidence_tau(s1, s2, i, j, max_tau, o.mrts_ms);
            if (j > -1 && s1[i] - s2[j] < tau) coincidences += 2;
        } else if (j < n2 - 1 && (i == n1 - 1 || s1[i + 1] > s2[j + 1])) {
            ++j;
            multiplicity += 1;
            const double tau = coincidence_tau(s1, s2, i, j, max_tau, o.mrts_ms);
            if (i > -1 && s2[j] - s1[i] < tau) coincidences += 2;
        } else {
            ++i;
            ++j;
            multiplicity += 2;
            coincidences += 2;
        }
    }
    return multiplicity > 0 ? coincidences / multiplicity : 1.0;
}

}  // namespace detail

double spike_synchronization(spike_train a, spike_train b, const kreuz_options& options,
                             std::size_t index_a, std::size_t index_b) {
    check_spike_train(a, index_a);
    check_spike_train(b, index_b);
    detail::check_kreuz_options(options);
    const detail::kreuz_train ka(a, options.window, false), kb(b, options.window, false);
    return detail::spike_sync_unchecked(ka.spikes(), kb.spikes(), options);
}

}  // namespace volley::snn::analysis
