// ISI-distance (Kreuz et al., J. Neurosci. Methods 165, 2007) and SPIKE-distance (Kreuz et al.,
// J. Neurophysiol. 109, 2013; edge correction of Kreuz et al., J. Neurophysiol. 113, 2015), as
// PySpike 0.9's cython kernels define them (isi_distance_cython, spike_distance_cython), with
// the same edge corrections; the arithmetic is regrouped, so results agree to rounding.

#include <volley/snn/analysis/distances.hpp>

#include "analysis/pair_terms.hpp"

#include <algorithm>
#include <bit>
#include <cmath>
#include <cstdint>
#include <limits>

namespace volley::snn::analysis {

namespace detail {

// Both kernels walk the merged events of the two trains with a branch-free step (which train
// fires next is a coin toss on Poisson data, so an `if` per event mispredicts about half the
// time). The step compares event times as integers: for doubles >= 0 (spike times are, and
// +inf) the IEEE-754 bit patterns order like the values, and an integer load and compare
// shorten the loop-carried chain (load, compare, index) that bounds the ISI kernel.

namespace {

std::int64_t bits(double x) {
    return std::bit_cast<std::int64_t>(x);
}

constexpr std::int64_t no_event =
    std::bit_cast<std::int64_t>(std::numeric_limits<double>::infinity());

}  // namespace

double isi_distance_unchecked(const kreuz_knots& a, const kreuz_knots& b, const kreuz_options& o) {
    const double t_start = o.window.start_ms, t_end = o.window.stop_ms, mrts = o.mrts_ms;
    const double *next1 = a.next.data(), *next2 = b.next.data(), *isi1 = a.isi.data(),
                 *isi2 = b.isi.data();
    const auto value = [&](std::size_t k1, std::size_t k2) {
        const double nu1 = isi1[k1], nu2 = isi2[k2];
        return std::abs(nu1 - nu2) / std::max(mrts, std::max(nu1, nu2));
    };
    double sum = 0, last = t_start;
    std::size_t k1 = 0, k2 = 0;
    for (;;) {
        const std::int64_t e1 = bits(next1[k1]), e2 = bits(next2[k2]), e = std::min(e1, e2);
        if (e == no_event) break;
        const double t = std::bit_cast<double>(e);
        sum += value(k1, k2) * (t - last);
        last = t;
        k1 += e1 <= e2;
        k2 += e2 <= e1;
    }
    if (t_end > last) sum += value(k1, k2) * (t_end - last);
    return sum / (t_end - t_start);
}

namespace {

// The distance from t to the nearest of the knots k, k + 1 of `other`, which enclose t.
double nearest(double t, const kreuz_knots& other, std::size_t k) {
    return std::min(t - other.knot[k], other.knot[k + 1] - t);
}

// The distance from t (in the window) to the nearest knot of `other`, by a scan from the start.
double nearest_from_start(double t, const kreuz_knots& other) {
    std::size_t k = 0;
    while (other.knot[k + 1] < t) ++k;
    return nearest(t, other, k);
}

}  // namespace

// An auxiliary first knot takes the distance of the first spike (PySpike's edge rule).
double spike_start_distance(const kreuz_knots& own, const kreuz_knots& other, double t_start) {
    return own.first_copies ? nearest_from_start(own.knot[1], other) : nearest(t_start, other, 0);
}

namespace {

// One train's side of the SPIKE-distance walk. S_i(t) interpolates linearly between the
// distances (to the other train) of the knots enclosing t, so the integral is linear in those
// distances. The distance of the next knot is only known once the walk reaches it, so its
// coefficient is accumulated (`pending`) and paid when the train fires.
struct spike_side {
    spike_side(const kreuz_knots& own, const kreuz_knots& other, double t_start)
        : dist_prev(spike_start_distance(own, other, t_start)) {}
    double dist_prev;    // distance of the knot before t
    double pending = 0;  // accumulated coefficient of the next knot's distance
    double paid = 0;     // sum of pending * distance over the fired knots

    // Adds a stretch's weight `g` (its share of the integral per unit distance and time),
    // split between the knots before (`k_prev`) and after (`k_next`) the midpoint `mid`;
    // returns the part that is already known.
    double add(double g, double mid, double k_prev, double k_next) {
        pending += g * (mid - k_prev);
        return dist_prev * (g * (k_next - mid));
    }
    // If `fired`, the train reached its next knot, at distance `dist` from the other train.
    // Selects by multiplying with exact 0 / 1 (exact for finite values): GCC turns `?:` on
    // doubles into a branch here, which mispredicts as often as the merge would.
    void fire(bool fired, double dist) {
        const double f = fired, keep = 1 - f;
        paid += f * (pending * dist);
        pending *= keep;
        dist_prev = f * dist + keep * dist_prev;
    }
};

}  // namespace

// S(t) is piecewise linear between events, so each stretch between consecutive events
// contributes its length times S at its midpoint; with the distances paid as the walk reaches
// them (spike_side), one pass suffices. Matches PySpike's trapezoids of S to rounding, all
// terms being >= 0.
double spike_distance_unchecked(const kreuz_knots& a, const kreuz_knots& b,
                                const kreuz_options& o) {
    const double t_start = o.window.start_ms, t_end = o.window.stop_ms, mrts = o.mrts_ms;
    const std::size_t m1 = a.knot.size(), m2 = b.knot.size();
    spike_side s1(a, b, t_start), s2(b, a, t_start);
    // Raw pointers, loaded once: GCC otherwise reloads the vectors' data pointers per event.
    const double *knot1 = a.knot.data(), *knot2 = b.knot.data(), *next1 = a.next.data(),
                 *next2 = b.next.data(), *isi1s = a.isi.data(), *isi2s = b.isi.data(),
                 *inv1s = a.inv_isi.data(), *inv2s = b.inv_isi.data();
    double known = 0;
    const auto stretch = [&](double from, double to, std::size_t k1, std::size_t k2) {
        const double mid = 0.5 * (from + to), isi1 = isi1s[k1], isi2 = isi2s[k2];
        const double mean_isi = 0.5 * (isi1 + isi2);
        const double w = (to - from) * 0.5 / (mean_isi * std::max(mrts, mean_isi));
        known += s1.add(w * isi2 * inv1s[k1], mid, knot1[k1], knot1[k1 + 1]) +
                 s2.add(w * isi1 * inv2s[k2], mid, knot2[k2], knot2[k2 + 1]);
    };
    double last = t_start;
    std::size_t k1 = 0, k2 = 0;
    for (;;) {
        const std::int64_t e1 = bits(next1[k1]), e2 = bits(next2[k2]), e = std::min(e1, e2);
        if (e == no_event) break;
        const double t = std::bit_cast<double>(e);
        stretch(last, t, k1, k2);
        last = t;
        const bool fire1 = e1 <= e2, fire2 = e2 <= e1;
        k1 += fire1;
        k2 += fire2;
        s1.fire(fire1, std::min(t - knot2[k2], knot2[k2 + 1] - t));
        s2.fire(fire2, std::min(t - knot1[k1], knot1[k1 + 1] - t));
    }
    if (t_end > last) stretch(last, t_end, k1, k2);
    // The last knots are auxiliary: they take the last spike's distance, or PySpike's at stop.
    s1.fire(true, a.last_copies ? s1.dist_prev : nearest(t_end, b, m2 - 2));
    s2.fire(true, b.last_copies ? s2.dist_prev : nearest(t_end, a, m1 - 2));
    return (known + s1.paid + s2.paid) / (t_end - t_start);
}

}  // namespace detail

double isi_distance(spike_train a, spike_train b, const kreuz_options& options, std::size_t index_a,
                    std::size_t index_b) {
    check_spike_train(a, index_a);
    check_spike_train(b, index_b);
    detail::check_kreuz_options(options);
    const detail::kreuz_train ka(a, options.window, true), kb(b, options.window, true);
    return detail::isi_distance_unchecked(detail::kreuz_knots(ka.spikes(), options.window),
                                          detail::kreuz_knots(kb.spikes(), options.window),
                                          options);
}

double spike_distance(spike_train a, spike_train b, const kreuz_options& options,
                      std::size_t index_a, std::size_t index_b) {
    check_spike_train(a, index_a);
    check_spike_train(b, index_b);
    detail::check_kreuz_options(options);
    const detail::kreuz_train ka(a, options.window, true), kb(b, options.window, true);
    return detail::spike_distance_unchecked(detail::kreuz_knots(ka.spikes(), options.window),
                                            detail::kreuz_knots(kb.spikes(), options.window),
                                            options);
}

}  // namespace volley::snn::analysis
