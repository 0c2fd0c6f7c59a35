"""The PyNN CUBA script on pyNN.nest and pyNN.volley, side by side in one run (issue #26's
speed comparison; bench/peers/README.md).

    python3 bench/peers/pynn_cuba.py [--neurons 4000] [--duration 1000] [--threads 1] [--rounds 3]

Each round runs the script once per backend, alternating, each in a fresh process (a backend's
kernel cannot be reset between networks in one process), and times separately:
- build: setup() to the last Projection (populations, initial values, connectivity);
- run:   sim.run(duration), recording spikes;
- total: the process's wall clock, import included.
It prints one line per run, the medians, the ratio nest / volley of each median, and the mean
rates, so that a reader sees both backends simulated the same network; `--json` prints one
object instead. Needs PyNN and NEST (`scripts/setup --peers`) and Volley's Python module on
PYTHONPATH (build/release/python, or an installed `volley`).
"""

import argparse
import json
import os
import statistics
import subprocess
import sys
import time

SCRIPT = r"""
import importlib, json, sys, time
t0 = time.perf_counter()
backend, n, duration, threads = sys.argv[1], int(sys.argv[2]), float(sys.argv[3]), int(sys.argv[4])
sim = importlib.import_module(backend)
extra = {"spike_precision": "on_grid"} if backend == "pyNN.nest" else {}
t_setup = time.perf_counter()
sim.setup(timestep=0.1, min_delay=0.1, threads=threads, **extra)
n_exc = n * 4 // 5
cell = sim.IF_curr_exp(tau_m=20.0, cm=1.0, v_rest=-49.0, v_reset=-60.0, v_thresh=-50.0, tau_refrac=5.0,
                       tau_syn_E=5.0, tau_syn_I=10.0)
exc = sim.Population(n_exc, cell, label="exc")
inh = sim.Population(n - n_exc, cell, label="inh")
rng = sim.NumpyRNG(seed=12345)
for pop in (exc, inh):
    pop.initialize(v=sim.RandomDistribution("uniform", (-60.0, -50.0), rng=rng))
p = 0.02 * 4000 / n  # K = 80 inputs a neuron at every size, as volley bench cuba
connector = sim.FixedProbabilityConnector(p, rng=rng)
for target in (exc, inh):
    sim.Projection(exc, target, connector, sim.StaticSynapse(weight=1.62 / 20.0, delay=0.1), receptor_type="excitatory")
    sim.Projection(inh, target, connector, sim.StaticSynapse(weight=-9.0 / 20.0, delay=0.1), receptor_type="inhibitory")
exc.record("spikes")
inh.record("spikes")
t_built = time.perf_counter()
sim.run(duration)
t_ran = time.perf_counter()
spikes = sum(len(st) for pop in (exc, inh) for st in pop.get_data().segments[0].spiketrains)
sim.end()
print("RESULT " + json.dumps({"build_s": t_built - t_setup, "run_s": t_ran - t_built,
                              "rate_hz": spikes / n / (duration / 1000.0)}))
"""


def run_once(backend, args):
    t0 = time.perf_counter()
    out = subprocess.run([sys.executable, "-c", SCRIPT, backend, str(args.neurons), str(args.duration),
                          str(args.threads)], capture_output=True, text=True, env=os.environ.copy())
    total = time.perf_counter() - t0
    if out.returncode != 0:
        sys.exit(f"pynn_cuba: {backend} failed:\n{out.stderr[-2000:]}")
    line = [l for l in out.stdout.splitlines() if l.startswith("RESULT ")][-1]
    r = json.loads(line[len("RESULT "):])
    r["total_s"] = total
    return r


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--neurons", type=int, default=4000)
    ap.add_argument("--duration", type=float, default=1000.0)
    ap.add_argument("--threads", type=int, default=1)
    ap.add_argument("--rounds", type=int, default=3)
    ap.add_argument("--json", action="store_true")
    args = ap.parse_args()
    for module in ("pyNN", "nest", "volley"):
        try:
            __import__(module)
        except ImportError:
            sys.exit(f"pynn_cuba: Python module '{module}' is missing (scripts/setup --peers; PYTHONPATH=build/release/python)")
    backends = {"nest": "pyNN.nest", "volley": "volley.pynn"}
    runs = {k: [] for k in backends}
    for i in range(args.rounds):
        for name, module in backends.items():
            r = run_once(module, args)
            runs[name].append(r)
            if not args.json:
                print(f"round {i + 1} {name:6s}: build {r['build_s']:.3f} s, run {r['run_s']:.3f} s, "
                      f"total {r['total_s']:.2f} s, {r['rate_hz']:.2f} Hz", flush=True)
    med = {name: {k: statistics.median(r[k] for r in rs) for k in ("build_s", "run_s", "total_s", "rate_hz")}
           for name, rs in runs.items()}
    ratio = {k: med["nest"][k] / med["volley"][k] for k in ("build_s", "run_s", "total_s")}
    if args.json:
        print(json.dumps({"neurons": args.neurons, "duration_ms": args.duration, "threads": args.threads,
                          "rounds": args.rounds, "median": med, "nest_over_volley": ratio, "runs": runs}))
        return
    for name in backends:
        m = med[name]
        print(f"median {name:6s}: build {m['build_s']:.3f} s, run {m['run_s']:.3f} s, total {m['total_s']:.2f} s, "
              f"{m['rate_hz']:.2f} Hz")
    print(f"nest / volley: build {ratio['build_s']:.2f}x, run {ratio['run_s']:.2f}x, total {ratio['total_s']:.2f}x")


if __name__ == "__main__":
    main()
