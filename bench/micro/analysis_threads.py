#!/usr/bin/env python3
"""Volley's distance matrices on 1 and on 2 threads, timed only while the machine is otherwise
idle (see micro/README-analysis.md). On a shared machine a 2-thread wall time says little when
another job holds a core, so each pair of runs (1 thread, then 2) starts only after both cores
were idle for a second, and the other processes' CPU use during each run is measured
(/proc/stat's busy time minus Volley's own CPU time, in cores; the binary's start and file
reading count as "others", so it is an upper bound). Pairs where others used more than
--max-others cores in either run are dropped. Prints, per workload, the kept pairs and the
median of the wall-time ratios. Linux only. The trains are analysis_peers.py's 200 x 1,000.

    python3 bench/micro/analysis_threads.py [--pairs 3] [--minutes 20]
"""
import argparse
import itertools
import os
import statistics
import subprocess
import sys
import tempfile
import time

import numpy as np

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
sys.path.insert(0, os.path.join(ROOT, "bench", "peers"))
from analysis_peers import draw, write_trains  # noqa: E402


def cpu_jiffies():
    v = list(map(int, open("/proc/stat").readline().split()[1:]))
    return sum(v), v[3] + v[4]  # all, idle + iowait


def idle_fraction(seconds=1.0):
    t0, i0 = cpu_jiffies()
    time.sleep(seconds)
    t1, i1 = cpu_jiffies()
    return (i1 - i0) / max(1, t1 - t0)


def timed(binary, trains, workload, threads, isa):
    """(wall s, Volley CPU s, other processes' cores) of one run."""
    t0, i0 = cpu_jiffies()
    out = subprocess.run([binary, "--from", trains, workload, str(threads), "-", isa],
                         capture_output=True, text=True, check=True).stdout.split()
    t1, i1 = cpu_jiffies()
    wall, cpu = float(out[1]), float(out[3])
    hz, cores = os.sysconf("SC_CLK_TCK"), os.cpu_count()
    busy = ((t1 - t0) - (i1 - i0)) / hz
    span = (t1 - t0) / hz / cores
    return wall, cpu, max(0.0, busy - cpu) / span


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--pairs", type=int, default=3, help="kept pairs wanted per workload")
    ap.add_argument("--minutes", type=float, default=20, help="give up after this long")
    ap.add_argument("--max-others", type=float, default=0.1)
    ap.add_argument("--volley", default=os.path.join(ROOT, "build/release/bench/bench_analysis_micro"))
    a = ap.parse_args()
    rng = np.random.default_rng(2025)
    draw(1000, 10000, rng)  # analysis_peers.py draws its statistics trains first
    small = draw(200, 1000, rng)
    workloads = [("spike", "best"), ("spike", "baseline"), ("isi", "best"), ("isi", "baseline"),
                 ("spike_sync", "best"), ("van_rossum", "best")]
    kept = {w: [] for w in workloads}
    deadline = time.time() + 60 * a.minutes
    with tempfile.TemporaryDirectory() as tmp:
        trains = os.path.join(tmp, "small.bin")
        write_trains(trains, small)
        for w in itertools.cycle(workloads):
            if time.time() > deadline or all(len(k) >= a.pairs for k in kept.values()):
                break
            if len(kept[w]) >= a.pairs:
                continue
            while time.time() < deadline and idle_fraction() < 0.95:
                pass
            one = timed(a.volley, trains, w[0], 1, w[1])
            two = timed(a.volley, trains, w[0], 2, w[1])
            if max(one[2], two[2]) <= a.max_others:
                kept[w].append((one, two))
    print(f"1 vs 2 threads, runs with other processes using <= {a.max_others} cores; "
          f"load average now {os.getloadavg()[0]:.2f}")
    print(f"{'workload':<22} {'pairs':>5} {'1t wall s':>10} {'2t wall s':>10} {'speed-up':>9} "
          f"{'2t/1t CPU':>9}")
    for (name, isa), pairs in kept.items():
        if not pairs:
            print(f"{name + ' ' + isa:<22} {0:>5}   (never idle)")
            continue
        med = lambda f: statistics.median(f(p) for p in pairs)  # noqa: E731
        print(f"{name + ' ' + isa:<22} {len(pairs):>5} {med(lambda p: p[0][0]):10.3f} "
              f"{med(lambda p: p[1][0]):10.3f} {med(lambda p: p[0][0] / p[1][0]):8.2f}x "
              f"{med(lambda p: p[1][1] / p[0][1]):9.2f}")


if __name__ == "__main__":
    main()
