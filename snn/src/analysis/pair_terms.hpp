#pragma once
// Unchecked kernels of the pairwise distances, shared by the pairwise functions and
// distance_matrix (which checks every train once, not once per pair).

#include <volley/snn/analysis/distances.hpp>

#include <vector>

namespace volley::snn::analysis::detail {

/// sum_ij e^{-|a_i - a_j| / tau} of one sorted train.
double van_rossum_self_term(spike_train a, double tau_ms);
/// sum_ij e^{-|a_i - b_j| / tau} of two sorted trains.
double van_rossum_cross_term(spike_train a, spike_train b, double tau_ms);
/// sqrt(max(0, self_a + self_b - 2 cross)).
double van_rossum_from_terms(double self_a, double self_b, double cross);
/// invalid_parameter unless tau_ms is finite and > 0.
void check_tau(double tau_ms);

/// Victor-Purpura distance of two sorted trains with shift cost q [1/ms].
double victor_purpura_unchecked(spike_train a, spike_train b, double q);

/// The spikes of a train inside [start, stop], repeated times once, with PySpike's
/// substitute {start, stop} for an empty train when `non_empty`. Views the input when no
/// change is needed, otherwise owns a copy.
class kreuz_train {
  public:
    kreuz_train(spike_train train, const time_window& window, bool non_empty);
    kreuz_train(const kreuz_train&) = delete;  // spikes_ may view owned_
    kreuz_train& operator=(const kreuz_train&) = delete;
    spike_train spikes() const { return spikes_; }

  private:
    std::vector<double> owned_;
    spike_train spikes_;
};

/// invalid_parameter for a bad window, or mrts_ms / max_tau_ms not finite and >= 0.
void check_kreuz_options(const kreuz_options& options);

/// A prepared train (kreuz_train) as the ISI- and SPIKE-distance kernels walk it, built once
/// per train so that a matrix does not redo it per pair. PySpike's edge handling becomes plain
/// data: knots K[0] <= start < K[1] < ... < K[m-2] <= stop <= K[m-1], where K[0] is the first
/// spike when it lies on `start`, else the auxiliary spike one ISI before the first (at most
/// `start`), and K[m-1] the auxiliary spike one ISI after the last (at least `stop`). Between
/// two knots the current ISI is their distance; the events of the train are K[1..m-2].
struct kreuz_knots {
    /// The end of interval k, packed for the vector kernel's gathers (one address, two loads).
    struct step {
        double knot;     ///< K[k+1] [ms]
        double inv_isi;  ///< 1 / (K[k+1] - K[k]) [1/ms]
    };
    kreuz_knots(spike_train prepared, const time_window& window);
    std::vector<double> knot;     ///< K, size m [ms]
    std::vector<double> next;     ///< K[k+1] (>= +0) while that is an event, else +inf; m-1 [ms]
    std::vector<double> isi;      ///< K[k+1] - K[k], size m-1 [ms]
    std::vector<double> inv_isi;  ///< 1 / isi [1/ms]
    std::vector<step> steps;      ///< {K[k+1], 1 / isi[k]}, size m-1
    bool first_copies = false;    ///< S at K[0] is that of K[1] (K[0] is auxiliary)
    bool last_copies = true;      ///< S at K[m-1] is that of K[m-2]; false only for a single
                                  ///< spike on `start` (PySpike then measures at `stop`)
};

/// The measures on prepared trains (PySpike's cython kernels).
double isi_distance_unchecked(const kreuz_knots& a, const kreuz_knots& b,
                              const kreuz_options& options);
double spike_distance_unchecked(const kreuz_knots& a, const kreuz_knots& b,
                                const kreuz_options& options);
/// S at the walk's first knot of `own` (PySpike's edge rule): the distance of K[1] to `other`
/// when K[0] is auxiliary, else that of `t_start` [ms].
double spike_start_distance(const kreuz_knots& own, const kreuz_knots& other, double t_start);
double spike_sync_unchecked(spike_train a, spike_train b, const kreuz_options& options);

}  // namespace volley::snn::analysis::detail
