#pragma once
// Spike-train distances, pairwise and as matrices (docs/analysis.md):
// van Rossum (exact, O(n + m)), Victor-Purpura (dynamic programming, O(n m)), and Kreuz's
// ISI-distance, SPIKE-distance and SPIKE-synchronization with PySpike's edge corrections.
// Every function checks its trains (sorted, finite, >= 0) and throws invalid_parameter naming
// "spike train <index>" and the value; `index_a`/`index_b` are only used in those messages.

#include <volley/snn/analysis/spike_train.hpp>
#include <volley/snn/simulation.hpp>  // instruction_set

#include <cstddef>
#include <vector>

namespace volley::snn::analysis {

/// Van Rossum distance as Elephant defines it: D^2 = sum_ij e^{-|a_i - a_j|/tau}
/// + sum_ij e^{-|b_i - b_j|/tau} - 2 sum_ij e^{-|a_i - b_j|/tau}, i.e. (2 / tau) times the
/// integral of the squared difference of the trains filtered with e^{-t/tau} (van Rossum's
/// original 1/tau normalisation gives D / sqrt(2)). Computed exactly with Houghton & Kreuz's
/// recursion (2012). One spike each, Delta apart: sqrt(2 (1 - e^{-|Delta|/tau})).
/// invalid_parameter unless tau_ms is finite and > 0.
double van_rossum_distance(spike_train a, spike_train b, double tau_ms, std::size_t index_a = 0,
                           std::size_t index_b = 1);

/// Victor-Purpura distance (1996): the least cost of turning `a` into `b` by deleting or
/// inserting spikes (cost 1 each) and shifting spikes (cost cost_per_ms * |shift|).
/// invalid_parameter unless cost_per_ms is finite and >= 0.
double victor_purpura_distance(spike_train a, spike_train b, double cost_per_ms,
                               std::size_t index_a = 0, std::size_t index_b = 1);

/// Options shared by the Kreuz measures. Spikes outside [start_ms, stop_ms] are ignored and
/// repeated spike times in one train count once (as PySpike's reconcile step does).
struct kreuz_options {
    time_window window;     ///< the edges of the trains [ms]
    double mrts_ms = 0;     ///< minimum relevant time scale (Satuvuori et al. 2017), 0 = off
    double max_tau_ms = 0;  ///< SPIKE-synchronization only: largest coincidence window
                            ///< half-width [ms], 0 = unbounded
};

/// ISI-distance (Kreuz et al. 2007): the time average over the window of
/// |nu_a(t) - nu_b(t)| / max(nu_a(t), nu_b(t), mrts), nu the current ISI, with PySpike's edge
/// correction (the interval before the first and after the last spike is at least as long as
/// the neighbouring ISI). An empty train counts as spikes at both edges.
double isi_distance(spike_train a, spike_train b, const kreuz_options& options,
                    std::size_t index_a = 0, std::size_t index_b = 1);

/// SPIKE-distance (Kreuz et al. 2013), the time average of the piecewise-linear dissimilarity
/// profile S(t), with the edge correction of Kreuz et al. 2015 as PySpike implements it
/// (auxiliary spikes mirrored at the edges). An empty train counts as spikes at both edges.
double spike_distance(spike_train a, spike_train b, const kreuz_options& options,
                      std::size_t index_a = 0, std::size_t index_b = 1);

/// SPIKE-synchronization (Kreuz et al. 2015): the fraction of spikes of both trains that have
/// a coincident partner in the other within the adaptive window tau_ij; 1 when both trains
/// are empty.
double spike_synchronization(spike_train a, spike_train b, const kreuz_options& options,
                             std::size_t index_a = 0, std::size_t index_b = 1);

/// The pairwise measures of distance_matrix.
enum class distance_measure { van_rossum, victor_purpura, isi, spike, spike_sync };

/// Parameters of distance_matrix; each measure reads its own.
struct distance_options {
    double tau_ms = 10;        ///< van_rossum: the kernel's time constant [ms]
    double cost_per_ms = 0.1;  ///< victor_purpura: the shift cost [1/ms]
    kreuz_options kreuz;       ///< isi, spike, spike_sync
    /// The widest vector instruction set the kernels may use (isi and spike: many pairs at
    /// once with AVX-512). Every such kernel gives the doubles of its portable twin; a cap is
    /// for comparing them.
    instruction_set max_isa = instruction_set::best;
};

/// The n x n matrix (row-major) of `measure` between every pair of `trains`; the diagonal is
/// 0 (1 for spike_sync). Pairs run in parallel on OpenMP threads; every entry is computed the
/// same way whatever the thread count, so the result does not depend on it.
std::vector<double> distance_matrix(std::span<const spike_train> trains, distance_measure measure,
                                    const distance_options& options);

}  // namespace volley::snn::analysis
