#!/usr/bin/env python3
"""Generates reference.json for tests/unit/test_spike_*.cpp (see README.md here).

Builds a fixed set of spike trains (seeded), writes them into the fixture, and computes the
measures with Elephant and PySpike (the peers Volley's analysis library is checked against),
and with plain numpy where neither has the measure (Golomb's chi, windowed Fano factor, exact
kernel sums, the shift predictor). Run: python3 make_reference.py > reference.json
"""
import json
import sys
import warnings

import numpy as np
import quantities as pq
import neo
import elephant
import elephant.statistics as es
import elephant.spike_train_correlation as ec
import elephant.spike_train_dissimilarity as ed
from elephant.conversion import BinnedSpikeTrain
import pyspike
import scipy

warnings.simplefilter("ignore")

T0, T1 = 0.0, 2000.0  # window [ms]
BIN = 5.0             # bin width [ms]
TAU = 10.0            # van Rossum time constant [ms]
Q = 0.1               # Victor-Purpura cost [1/ms]
MAX_LAG = 20          # correlogram lags [bins]

rng = np.random.default_rng(20250125)


def poisson(rate_hz):
    n = rng.poisson(rate_hz * (T1 - T0) / 1e3)
    return np.sort(rng.uniform(T0, T1, n))


def jittered(base, sigma_ms, drop):
    keep = base[rng.uniform(size=base.size) >= drop]
    t = keep + rng.normal(0.0, sigma_ms, keep.size)
    return np.sort(t[(t >= T0) & (t < T1)])


# Trains 0-3 independent Poisson at 10-40 Hz; 4-5 jittered copies of 0; 6 a copy of 1 with
# fewer spikes; 7 a sparse one (3 spikes).
trains = [poisson(r) for r in (10.0, 20.0, 30.0, 40.0)]
trains += [jittered(trains[0], 2.0, 0.1), jittered(trains[0], 8.0, 0.3), jittered(trains[1], 1.0, 0.5)]
trains += [np.sort(rng.uniform(T0, T1, 3))]
neo_trains = [neo.SpikeTrain(t * pq.ms, t_start=T0 * pq.ms, t_stop=T1 * pq.ms) for t in trains]
n = len(trains)

out = {
    "generator": "tests/data/analysis/make_reference.py",
    "versions": {"elephant": elephant.__version__, "pyspike": getattr(pyspike, "__version__", "0.9.0"),
                 "neo": neo.__version__, "quantities": pq.__version__, "numpy": np.__version__,
                 "scipy": scipy.__version__, "python": sys.version.split()[0]},
    "window_ms": [T0, T1], "bin_ms": BIN, "tau_ms": TAU, "cost_per_ms": Q, "max_lag_bins": MAX_LAG,
    "trains": [t.tolist() for t in trains],
}

# Single-train statistics (Elephant).
stats = []
for t, st in zip(trains, neo_trains):
    isi = es.isi(st).magnitude
    row = {"mean_rate_hz": float(es.mean_firing_rate(st, t_start=T0 * pq.ms, t_stop=T1 * pq.ms).rescale("Hz").magnitude)}
    if t.size >= 3:
        row.update(cv=float(es.cv(isi)), cv2=float(es.cv2(isi)), lv=float(es.lv(isi)))
    stats.append(row)
out["statistics"] = stats
out["fano_factor_trials"] = float(es.fanofactor(neo_trains))

# Windowed Fano factor of train 3 over 100 ms windows (numpy, population variance).
counts_100 = np.histogram(trains[3], bins=np.arange(T0, T1 + 1e-9, 100.0))[0]
out["fano_factor_windows"] = {"train": 3, "counting_ms": 100.0,
                              "value": float(counts_100.var() / counts_100.mean())}

# Binned counts and PSTH (Elephant).
bst = BinnedSpikeTrain(neo_trains, bin_size=BIN * pq.ms, t_start=T0 * pq.ms, t_stop=T1 * pq.ms)
dense = bst.to_array().astype(float)
out["binned_counts"] = dense.tolist()
hist_counts = es.time_histogram(neo_trains, BIN * pq.ms, output="counts").magnitude.ravel()
hist_rate = es.time_histogram(neo_trains, BIN * pq.ms, output="rate").rescale("Hz").magnitude.ravel()
out["psth"] = {"counts": hist_counts.tolist(), "rate_hz": hist_rate.tolist()}

# Kernel rates: exact kernel sums at bin centres (numpy), and Elephant's instantaneous_rate
# (binned FFT convolution) for the record of how far apart the two are.
centres = T0 + (np.arange(int((T1 - T0) / 1.0)) + 0.5) * 1.0
t = trains[2]
d = centres[:, None] - t[None, :]
gauss = (np.exp(-0.5 * (d / 20.0) ** 2) / (np.sqrt(2 * np.pi) * 20.0)).sum(axis=1) * 1e3
expo = np.where(d >= 0, np.exp(-np.clip(d, 0, None) / 20.0) / 20.0, 0.0).sum(axis=1) * 1e3
out["kernel_rate"] = {"train": 2, "width_ms": 20.0, "sampling_ms": 1.0,
                      "gaussian_hz": gauss.tolist(), "exponential_hz": expo.tolist()}
from elephant.kernels import GaussianKernel
el = es.instantaneous_rate(neo_trains[2], sampling_period=1.0 * pq.ms, kernel=GaussianKernel(20.0 * pq.ms))
el = el.rescale("Hz").magnitude.ravel()
out["kernel_rate"]["elephant_gaussian_max_abs_difference_hz"] = float(np.abs(el - gauss).max())

# Correlation coefficients (Elephant).
out["correlation_matrix"] = ec.correlation_coefficient(bst).tolist()

# Golomb's chi on binned counts (numpy).
pop_var = dense.mean(axis=0).var()
out["golomb_chi"] = float(np.sqrt(pop_var / dense.var(axis=1).mean()))

# Cross-correlogram of trains 0 and 4 (Elephant) and the auto-correlogram of train 3.
def elephant_cch(i, j):
    bi = BinnedSpikeTrain(neo_trains[i], bin_size=BIN * pq.ms, t_start=T0 * pq.ms, t_stop=T1 * pq.ms)
    bj = BinnedSpikeTrain(neo_trains[j], bin_size=BIN * pq.ms, t_start=T0 * pq.ms, t_stop=T1 * pq.ms)
    cch, lags = ec.cross_correlation_histogram(bi, bj, window=[-MAX_LAG, MAX_LAG], border_correction=False,
                                               binary=False)
    return cch.magnitude.ravel(), lags


def numpy_cch(x, y):  # C[k] = sum_t x(t) y(t + k)
    full = np.correlate(y, x, mode="full")  # index m: lag m - (len - 1)
    mid = len(x) - 1
    return full[mid - MAX_LAG: mid + MAX_LAG + 1]


cch, lags = elephant_cch(0, 4)
own = numpy_cch(dense[0], dense[4])
assert np.array_equal(cch, own), "Elephant's CCH lag convention differs from C[k] = sum x_a(t) x_b(t+k)"
out["cross_correlogram"] = {"a": 0, "b": 4, "lags_bins": lags.tolist(), "counts": cch.tolist()}
acg, _ = elephant_cch(3, 3)
out["auto_correlogram"] = {"train": 3, "counts": acg.tolist()}

# Shift predictor over 4 "trials": trains 0,1,2,3 as neuron A and 4,5,6,7 as neuron B (numpy).
raw = np.mean([numpy_cch(dense[r], dense[4 + r]) for r in range(4)], axis=0)
pred = np.mean([numpy_cch(dense[r], dense[4 + (r + 1) % 4]) for r in range(4)], axis=0)
out["shift_predictor"] = {"trials_a": [0, 1, 2, 3], "trials_b": [4, 5, 6, 7], "raw": raw.tolist(),
                          "predictor": pred.tolist(), "corrected": (raw - pred).tolist()}

# Distances: van Rossum and Victor-Purpura (Elephant).
out["van_rossum"] = ed.van_rossum_distance(neo_trains, time_constant=TAU * pq.ms).tolist()
out["victor_purpura"] = ed.victor_purpura_distance(neo_trains, cost_factor=Q / pq.ms).tolist()

# Kreuz measures (PySpike, cython backend), on the same trains plus an empty one.
ps = [pyspike.SpikeTrain(t, edges=(T0, T1)) for t in trains] + [pyspike.SpikeTrain([], edges=(T0, T1))]
out["pyspike_trains"] = "trains + one empty train (index 8)"
out["isi_distance"] = pyspike.isi_distance_matrix(ps).tolist()
out["spike_distance"] = pyspike.spike_distance_matrix(ps).tolist()
out["spike_sync"] = pyspike.spike_sync_matrix(ps).tolist()
out["spike_sync_max_tau"] = {"max_tau_ms": 3.0, "matrix": pyspike.spike_sync_matrix(ps, max_tau=3.0).tolist()}
out["spike_distance_mrts"] = {"mrts_ms": 50.0, "matrix": pyspike.spike_distance_matrix(ps, MRTS=50.0).tolist()}
out["isi_distance_mrts"] = {"mrts_ms": 50.0, "matrix": pyspike.isi_distance_matrix(ps, MRTS=50.0).tolist()}

json.dump(out, sys.stdout, indent=None, separators=(",", ":"))
sys.stdout.write("\n")
