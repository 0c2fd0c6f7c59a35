// ISI-distance (Kreuz et al., J. Neurosci. Methods 165, 2007) and SPIKE-distance (Kreuz et al.,
// J. Neurophysiol. 109, 2013; edge correction of Kreuz et al., J. Neurophysiol. 113, 2015), as
// PySpike 0.9's cython kernels compute them (isi_distance_cython, spike_distance_cython), so
// that results agree to rounding.

#include <volley/snn/analysis/distances.hpp>

#include "analysis/pair_terms.hpp"

#include <algorithm>
#include <cmath>

namespace volley::snn::analysis {

namespace detail {

namespace {

// The interval from the last spike of `s` (size n) to the end, at least the last ISI.
double tail_isi(spike_train s, double t_end) {
    const std::size_t n = s.size();
    return n > 1 ? std::max(t_end - s[n - 1], s[n - 1] - s[n - 2]) : t_end - s[n - 1];
}

}  // namespace

double isi_distance_unchecked(spike_train s1, spike_train s2, const kreuz_options& o) {
    const double t_start = o.window.start_ms, t_end = o.window.stop_ms, mrts = o.mrts_ms;
    const long n1 = static_cast<long>(s1.size()), n2 = static_cast<long>(s2.size());
    double nu1, nu2;
    long i1, i2;
    if (s1[0] > t_start) {
        nu1 = n1 > 1 ? std::max(s1[0] - t_start, s1[1] - s1[0]) : s1[0] - t_start;
        i1 = -1;
    } else {
        nu1 = n1 > 1 ? s1[1] - s1[0] : t_end - s1[0];
        i1 = 0;
    }
    if (s2[0] > t_start) {
        nu2 = n2 > 1 ? std::max(s2[0] - t_start, s2[1] - s2[0]) : s2[0] - t_start;
        i2 = -1;
    } else {
        nu2 = n2 > 1 ? s2[1] - s2[0] : t_end - s2[0];
        i2 = 0;
    }
    const auto value = [mrts](double a, double b) {
        return std::abs(a - b) / std::max(mrts, std::max(a, b));
    };
    const auto next_nu = [t_end](spike_train s, long i, long n, double nu) {
        if (i < n - 1) return s[i + 1] - s[i];
        return n > 1 ? std::max(t_end - s[i], nu) : t_end - s[i];
    };
    double sum = 0, last_t = t_start, curr = value(nu1, nu2), curr_t = t_start;
    while (i1 + i2 < n1 + n2 - 2) {
        if (i1 < n1 - 1 && (i2 == n2 - 1 || s1[i1 + 1] < s2[i2 + 1])) {
            ++i1;
            curr_t = s1[i1];
            nu1 = next_nu(s1, i1, n1, nu1);
        } else if (i2 < n2 - 1 && (i1 == n1 - 1 || s1[i1 + 1] > s2[i2 + 1])) {
            ++i2;
            curr_t = s2[i2];
            nu2 = next_nu(s2, i2, n2, nu2);
        } else {
            ++i1;
            ++i2;
            curr_t = s1[i1];
            nu1 = next_nu(s1, i1, n1, nu1);
            nu2 = next_nu(s2, i2, n2, nu2);
        }
        sum += curr * (curr_t - last_t);
        curr = value(nu1, nu2);
        last_t = curr_t;
    }
    sum += curr * (t_end - last_t);
    return sum / (t_end - t_start);
}

namespace {

// min |t - s[i]| over i >= start and the two auxiliary edges lo, hi (PySpike's get_min_dist).
double min_dist(double t, spike_train s, long start, double lo, double hi) {
    double d = std::abs(t - lo);
    for (long i = std::max(start, 0L); i < static_cast<long>(s.size()); ++i) {
        const double e = std::abs(t - s[i]);
        if (e > d) return d;
        d = e;
    }
    return std::min(d, std::abs(hi - t));
}

double dist_at_t(double isi1, double isi2, double s1, double s2, double mrts) {
    const double mean_isi = 0.5 * (isi1 + isi2);
    return 0.5 * (s1 * isi2 + s2 * isi1) / (mean_isi * std::max(mrts, mean_isi));
}

}  // namespace

double spike_distance_unchecked(spike_train t1, spike_train t2, const kreuz_options& o) {
    const double t_start = o.window.start_ms, t_end = o.window.stop_ms, mrts = o.mrts_ms;
    const long n1 = static_cast<long>(t1.size()), n2 = static_cast<long>(t2.size());
    // Auxiliary spikes one ISI beyond each end (Kreuz et al. 2015), at least at the edges.
    const double aux1_lo = n1 > 1 ? std::min(t_start, 2 * t1[0] - t1[1]) : t_start;
    const double aux1_hi = n1 > 1 ? std::max(t_end, 2 * t1[n1 - 1] - t1[n1 - 2]) : t_end;
    const double aux2_lo = n2 > 1 ? std::min(t_start, 2 * t2[0] - t2[1]) : t_start;
    const double aux2_hi = n2 > 1 ? std::max(t_end, 2 * t2[n2 - 1] - t2[n2 - 2]) : t_end;
    double t_p1 = t1[0] == t_start ? t_start : aux1_lo;
    double t_p2 = t2[0] == t_start ? t_start : aux2_lo;
    double t_f1, t_f2, dt_p1, dt_p2, dt_f1, dt_f2, isi1, isi2, s1, s2;
    long i1, i2;
    if (t1[0] > t_start) {
        t_f1 = t1[0];
        dt_f1 = min_dist(t_f1, t2, 0, aux2_lo, aux2_hi);
        isi1 = n1 > 1 ? std::max(t_f1 - t_start, t1[1] - t1[0]) : t_f1 - t_start;
        dt_p1 = dt_f1;
        i1 = -1;
    } else {
        t_f1 = n1 > 1 ? t1[1] : t_end;
        dt_f1 = min_dist(t_f1, t2, 0, aux2_lo, aux2_hi);
        dt_p1 = min_dist(t_p1, t2, 0, aux2_lo, aux2_hi);
        isi1 = t_f1 - t1[0];
        i1 = 0;
    }
    s1 = dt_p1;
    if (t2[0] > t_start) {
        t_f2 = t2[0];
        dt_f2 = min_dist(t_f2, t1, 0, aux1_lo, aux1_hi);
        dt_p2 = dt_f2;
        isi2 = n2 > 1 ? std::max(t_f2 - t_start, t2[1] - t2[0]) : t_f2 - t_start;
        i2 = -1;
    } else {
        t_f2 = n2 > 1 ? t2[1] : t_end;
        dt_f2 = min_dist(t_f2, t1, 0, aux1_lo, aux1_hi);
        dt_p2 = min_dist(t_p2, t1, 0, aux1_lo, aux1_hi);
        isi2 = t_f2 - t2[0];
        i2 = 0;
    }
    s2 = dt_p2;
    double y_start = dist_at_t(isi1, isi2, s1, s2, mrts), y_end = 0;
    double sum = 0, t_last = t_start, t_curr = t_start;
    while (i1 + i2 < n1 + n2 - 2) {
        if (i1 < n1 - 1 && (t_f1 < t_f2 || i2 == n2 - 1)) {
            ++i1;
            s1 = dt_f1 * (t_f1 - t_p1) / isi1;
            dt_p1 = dt_f1;
            t_p1 = t_f1;
            t_f1 = i1 < n1 - 1 ? t1[i1 + 1] : aux1_hi;
            t_curr = t_p1;
            s2 = (dt_p2 * (t_f2 - t_p1) + dt_f2 * (t_p1 - t_p2)) / isi2;
            y_end = dist_at_t(isi1, isi2, s1, s2, mrts);
            sum += 0.5 * (y_start + y_end) * (t_curr - t_last);
            if (i1 < n1 - 1) {
                dt_f1 = min_dist(t_f1, t2, i2, aux2_lo, aux2_hi);
                isi1 = t_f1 - t_p1;
            } else {
                dt_f1 = dt_p1;
                isi1 = tail_isi(t1, t_end);
            }
            s1 = dt_p1;
            y_start = dist_at_t(isi1, isi2, s1, s2, mrts);
        } else if (i2 < n2 - 1 && (t_f1 > t_f2 || i1 == n1 - 1)) {
            ++i2;
            s2 = dt_f2 * (t_f2 - t_p2) / isi2;
            dt_p2 = dt_f2;
            t_p2 = t_f2;
            t_f2 = i2 < n2 - 1 ? t2[i2 + 1] : aux2_hi;
            t_curr = t_p2;
            s1 = (dt_p1 * (t_f1 - t_p2) + dt_f1 * (t_p2 - t_p1)) / isi1;
            y_end = dist_at_t(isi1, isi2, s1, s2, mrts);
            sum += 0.5 * (y_start + y_end) * (t_curr - t_last);
            if (i2 < n2 - 1) {
                dt_f2 = min_dist(t_f2, t1, i1, aux1_lo, aux1_hi);
                isi2 = t_f2 - t_p2;
            } else {
                dt_f2 = dt_p2;
                isi2 = tail_isi(t2, t_end);
            }
            s2 = dt_p2;
            y_start = dist_at_t(isi1, isi2, s1, s2, mrts);
        } else {  // coincident spikes: one event, S = 0 there
            ++i1;
            ++i2;
            t_p1 = t_f1;
            t_p2 = t_f2;
            dt_p1 = 0;
            dt_p2 = 0;
            t_curr = t_f1;
            sum += 0.5 * y_start * (t_curr - t_last);
            y_start = 0;
            if (i1 < n1 - 1) {
                t_f1 = t1[i1 + 1];
                dt_f1 = min_dist(t_f1, t2, i2, aux2_lo, aux2_hi);
                isi1 = t_f1 - t_p1;
            } else {
                t_f1 = aux1_hi;
                dt_f1 = dt_p1;
                isi1 = tail_isi(t1, t_end);
            }
            if (i2 < n2 - 1) {
                t_f2 = t2[i2 + 1];
                dt_f2 = min_dist(t_f2, t1, i1, aux1_lo, aux1_hi);
                isi2 = t_f2 - t_p2;
            } else {
                t_f2 = aux2_hi;
                dt_f2 = dt_p2;
                isi2 = tail_isi(t2, t_end);
            }
        }
        t_last = t_curr;
    }
    y_end = dist_at_t(isi1, isi2, dt_f1, dt_f2, mrts);
    sum += 0.5 * (y_start + y_end) * (t_end - t_last);
    return sum / (t_end - t_start);
}

}  // namespace detail

double isi_distance(spike_train a, spike_train b, const kreuz_options& options, std::size_t index_a,
                    std::size_t index_b) {
    check_spike_train(a, index_a);
    check_spike_train(b, index_b);
    detail::check_kreuz_options(options);
    const detail::kreuz_train ka(a, options.window, true), kb(b, options.window, true);
    return detail::isi_distance_unchecked(ka.spikes(), kb.spikes(), options);
}

double spike_distance(spike_train a, spike_train b, const kreuz_options& options,
                      std::size_t index_a, std::size_t index_b) {
    check_spike_train(a, index_a);
    check_spike_train(b, index_b);
    detail::check_kreuz_options(options);
    const detail::kreuz_train ka(a, options.window, true), kb(b, options.window, true);
    return detail::spike_distance_unchecked(ka.spikes(), kb.spikes(), options);
}

}  // namespace volley::snn::analysis
