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

/// The measures on prepared trains (PySpike's cython kernels).
double isi_distance_unchecked(spike_train a, spike_train b, const kreuz_options& options);
double spike_distance_unchecked(spike_train a, spike_train b, const kreuz_options& options);
double spike_sync_unchecked(spike_train a, spike_train b, const kreuz_options& options);

}  // namespace volley::snn::analysis::detail
