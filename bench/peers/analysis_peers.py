#!/usr/bin/env python3
"""Times Elephant and PySpike on the workloads of bench/micro/bench_analysis.cpp (Poisson trains
in [0, 10 s), the same sizes; the trains are drawn with numpy, not the C++ generator, so the
data are statistically, not bitwise, the same). Prints one JSON object; compare with
build/release/bench/bench_analysis_micro. See bench/micro/README-analysis.md.

    python3 bench/peers/analysis_peers.py [--trains 1000] [--spikes 10000] [--pairs-trains 200]
"""
import argparse
import json
import time
import warnings

import numpy as np
import quantities as pq
import neo
import elephant
import elephant.statistics as es
import elephant.spike_train_dissimilarity as ed
import pyspike

warnings.simplefilter("ignore")
T = 10000.0


def trains(n, spikes, rng):
    out = []
    for _ in range(n):
        k = rng.poisson(spikes)
        out.append(np.sort(rng.uniform(0, T, k)))
    return out


def timed(f):
    t0 = time.perf_counter()
    f()
    return time.perf_counter() - t0


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--trains", type=int, default=1000)
    ap.add_argument("--spikes", type=int, default=10000)
    ap.add_argument("--pairs-trains", type=int, default=200)
    ap.add_argument("--pairs-spikes", type=int, default=1000)
    a = ap.parse_args()
    rng = np.random.default_rng(2025)
    big = [neo.SpikeTrain(t * pq.ms, t_stop=T * pq.ms) for t in trains(a.trains, a.spikes, rng)]
    small = trains(a.pairs_trains, a.pairs_spikes, rng)

    def stats():
        for st in big:
            es.mean_firing_rate(st)
            isi = es.isi(st.magnitude)
            es.cv(isi), es.cv2(isi), es.lv(isi)

    ps = [pyspike.SpikeTrain(t, edges=(0, T)) for t in small]
    neo_small = [neo.SpikeTrain(t * pq.ms, t_stop=T * pq.ms) for t in small]
    out = {
        "elephant": elephant.__version__,
        "sizes": vars(a),
        "elephant_rates_cv_cv2_lv_s": timed(stats),
        "pyspike_spike_distance_matrix_s": timed(lambda: pyspike.spike_distance_matrix(ps)),
        "pyspike_isi_distance_matrix_s": timed(lambda: pyspike.isi_distance_matrix(ps)),
        "pyspike_spike_sync_matrix_s": timed(lambda: pyspike.spike_sync_matrix(ps)),
        "elephant_van_rossum_matrix_s": timed(lambda: ed.van_rossum_distance(neo_small, time_constant=10 * pq.ms)),
    }
    print(json.dumps(out, indent=2))


if __name__ == "__main__":
    main()
