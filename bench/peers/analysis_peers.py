#!/usr/bin/env python3
"""Volley against Elephant and PySpike on the SAME trains, in one run (see
bench/micro/README-analysis.md). The trains are drawn once (numpy, seeded): Poisson-like trains
in [0, 10 s), --trains x --spikes for the per-train statistics and --pairs-trains x
--pairs-spikes for the distance matrices. They are written to a temporary file that
`bench_analysis_micro --from` reads, so Volley computes on bit-identical input; its time is
the compute time it reports itself (file reading excluded), the peers' the wall time of the
call. Each workload is timed --reps times, peer and Volley (1 and 2 threads) alternated, and
medians are printed with the ratios; Volley's matrices are checked against the peers' (max
relative difference). `spike/port` and `isi/port` time Volley's portable kernels (as on a CPU
without AVX-512) against the same PySpike calls. About a minute and a half with the defaults.

    python3 bench/peers/analysis_peers.py [--reps 3] [--json]
"""
import argparse
import json
import os
import statistics
import subprocess
import tempfile
import time
import warnings

import numpy as np
import quantities as pq
import neo
import elephant
import elephant.statistics as es
import elephant.spike_train_dissimilarity as ed
import pyspike
import pyspike.cython.cython_distances  # noqa: F401 -- fail rather than time the pure-Python fallback

warnings.simplefilter("ignore")
T = 10000.0
ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))


def draw(n, spikes, rng):
    return [np.sort(rng.uniform(0, T, rng.poisson(spikes))) for _ in range(n)]


def write_trains(path, trains):
    with open(path, "wb") as f:
        f.write(np.uint64(len(trains)).tobytes())
        for t in trains:
            f.write(np.uint64(len(t)).tobytes())
            f.write(np.asarray(t, dtype="<f8").tobytes())


def timed(f):
    t0 = time.perf_counter()
    out = f()
    return time.perf_counter() - t0, out


def volley(binary, trains_file, workload, threads, matrix_out=None, isa="best"):
    cmd = [binary, "--from", trains_file, workload, str(threads), matrix_out or "-", isa]
    out = subprocess.run(cmd, check=True, capture_output=True, text=True).stdout.split()
    return float(out[1]), float(out[3])  # wall, CPU of all threads


def max_relative_difference(a, b):
    a, b = np.asarray(a, float).ravel(), np.asarray(b, float).ravel()
    scale = np.where(b != 0, np.abs(b), 1.0)
    return float(np.max(np.abs(a - b) / scale))


def times_2(result):
    return bool(result["all_s"]["volley_2"])


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--trains", type=int, default=1000)
    ap.add_argument("--spikes", type=int, default=10000)
    ap.add_argument("--pairs-trains", type=int, default=200)
    ap.add_argument("--pairs-spikes", type=int, default=1000)
    ap.add_argument("--reps", type=int, default=3)
    ap.add_argument("--volley", default=os.path.join(ROOT, "build/release/bench/bench_analysis_micro"))
    ap.add_argument("--skip", default="", help="comma-separated workloads to leave out")
    ap.add_argument("--json", action="store_true", help="print one JSON object instead of a table")
    a = ap.parse_args()
    rng = np.random.default_rng(2025)
    big, small = draw(a.trains, a.spikes, rng), draw(a.pairs_trains, a.pairs_spikes, rng)
    neo_big = [neo.SpikeTrain(t * pq.ms, t_stop=T * pq.ms) for t in big]
    neo_small = [neo.SpikeTrain(t * pq.ms, t_stop=T * pq.ms) for t in small]
    ps = [pyspike.SpikeTrain(t, edges=(0, T)) for t in small]

    def stats():
        out = []
        for st in neo_big:
            isi = es.isi(st.magnitude)
            out.append(float(es.mean_firing_rate(st).rescale(pq.Hz)) + es.cv(isi) + es.cv2(isi) + es.lv(isi))
        return np.array(out)

    spike_matrix = lambda: pyspike.spike_distance_matrix(ps)
    isi_matrix = lambda: pyspike.isi_distance_matrix(ps)
    workloads = [  # label, Volley's workload, its instruction-set cap, peer, peer call, trains
        ("stats", "stats", "best", "Elephant", stats, "big"),
        ("spike", "spike", "best", "PySpike", spike_matrix, "small"),
        # The portable kernels, as on a CPU without AVX-512.
        ("spike/port", "spike", "baseline", "PySpike", spike_matrix, "small"),
        ("isi", "isi", "best", "PySpike", isi_matrix, "small"),
        ("isi/port", "isi", "baseline", "PySpike", isi_matrix, "small"),
        ("spike_sync", "spike_sync", "best", "PySpike", lambda: pyspike.spike_sync_matrix(ps), "small"),
        ("van_rossum", "van_rossum", "best", "Elephant",
         lambda: ed.van_rossum_distance(neo_small, time_constant=10 * pq.ms), "small"),
    ]
    workloads = [w for w in workloads if w[0] not in a.skip.split(",")]
    results = {}
    load_start = os.getloadavg()
    with tempfile.TemporaryDirectory() as tmp:
        files = {"big": os.path.join(tmp, "big.bin"), "small": os.path.join(tmp, "small.bin")}
        write_trains(files["big"], big)
        write_trains(files["small"], small)
        for name, workload, isa, peer, call, which in workloads:
            times = {"peer": [], "volley_1": [], "volley_2": [], "volley_2_cpu_over_1": []}
            matrix = os.path.join(tmp, workload + ".out")
            for _ in range(a.reps):
                dt, peer_out = timed(call)
                times["peer"].append(dt)
                wall_1, cpu_1 = volley(a.volley, files[which], workload, 1, matrix, isa)
                times["volley_1"].append(wall_1)
                if name != "stats":  # a serial loop over trains: no thread count to vary
                    wall_2, cpu_2 = volley(a.volley, files[which], workload, 2, None, isa)
                    times["volley_2"].append(wall_2)
                    times["volley_2_cpu_over_1"].append(cpu_2 / cpu_1)
            mine = np.fromfile(matrix, dtype="<f8")
            med = {k: statistics.median(v) if v else float("nan") for k, v in times.items()}
            results[name] = {
                "peer": peer,
                "trains": f"{len(big if which == 'big' else small)} x {a.spikes if which == 'big' else a.pairs_spikes}",
                "median_s": med,
                "all_s": times,
                "peer_over_volley_1_thread": med["peer"] / med["volley_1"],
                "volley_speedup_2_threads": med["volley_1"] / med["volley_2"],
                # Total CPU time on 2 threads over 1: ~1 means the work splits without overhead,
                # so the wall-time speed-up is bounded by free cores only.
                "volley_2_threads_cpu_over_1": med["volley_2_cpu_over_1"],
                "max_relative_difference": max_relative_difference(mine, peer_out),
            }
    load = os.getloadavg()
    if a.json:
        print(json.dumps({"elephant": elephant.__version__, "sizes": vars(a), "load_average": load,
                          "load_average_at_start": load_start, "results": results}, indent=2))
        return
    print(f"Elephant {elephant.__version__}, PySpike trains identical to Volley's; medians of "
          f"{a.reps}, peer and Volley alternated; load average (1 min) {load_start[0]:.2f} at the "
          f"start, {load[0]:.2f} at the end")
    print(f"{'workload':<11} {'trains':<13} {'peer':<9} {'peer s':>8} {'Volley 1t':>10} {'ratio':>7} "
          f"{'Volley 2t':>10} {'2t speed-up':>12} {'2t/1t CPU':>10} {'max rel diff':>13}")
    for name, r in results.items():
        m = r["median_s"]
        two = (f"{m['volley_2']:10.3f} {r['volley_speedup_2_threads']:11.2f}x "
               f"{r['volley_2_threads_cpu_over_1']:10.2f}") if times_2(r) else f"{'-':>10} {'-':>12} {'-':>10}"
        print(f"{name:<11} {r['trains']:<13} {r['peer']:<9} {m['peer']:8.3f} {m['volley_1']:10.3f} "
              f"{r['peer_over_volley_1_thread']:6.1f}x {two} {r['max_relative_difference']:13.1e}")
    print("ratio = peer / Volley on 1 thread; 2t speed-up = Volley wall time 1 thread / 2 threads; "
          "2t/1t CPU = Volley CPU time (all threads) 2 threads / 1 (~1: no parallel overhead, the "
          "speed-up is bounded by idle cores)")


if __name__ == "__main__":
    main()
