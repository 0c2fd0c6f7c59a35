"""The CUBA network built in Python (examples/python/cuba.py) is the network the C++ API builds
(snn::cuba_network, which `volley bench cuba` runs), and gives the same spikes as the `volley`
command running the network file Python wrote: spike for spike, on 1 and 2 threads."""

import csv
import os
import subprocess
import sys

from volley_test_support import check, cli, volley_module

volley = volley_module()
import numpy as np  # noqa: E402

sys.path.insert(0, os.path.join(os.path.dirname(__file__), "..", "..", "examples", "python"))
from cuba import build_cuba  # noqa: E402

n = 4000
net = build_cuba(3200, 800, 80.0 / n)
reference = volley.cuba_network(n, 0.1)
for pop in ("exc", "inh"):
    check(net.population(pop) == reference.population(pop), f"population {pop} differs from snn::cuba_network's")
for mine, theirs in zip(net.projections, reference.projections, strict=True):
    # snn::cuba_network computes w_e as 60 * 0.27 / 10 (Brian2's expression), 1.62 + 2e-16.
    check(abs(mine.pop("weight") - theirs.pop("weight")) < 1e-12 and mine == theirs,
          f"projection {mine} differs from snn::cuba_network's {theirs}")

duration = 300.0
rasters = {}
for threads in (1, 2):
    sim = volley.Simulation(net, dt_ms=0.1, seed=42, threads=threads)
    exc, inh = sim.record_spikes("exc"), sim.record_spikes("inh")
    sim.run(duration)
    rasters[threads] = [(r.population, np.array(r.steps), np.array(r.node_ids)) for r in (exc, inh)]
    rate = exc.mean_rate_hz
    check(2 < rate < 60, f"CUBA excitatory rate {rate} Hz")  # Brian2's example: about 5-20 Hz
for (_, s1, i1), (_, s2, i2) in zip(rasters[1], rasters[2]):
    check(np.array_equal(s1, s2) and np.array_equal(i1, i2), "1 and 2 threads give different spikes")

volley.save_json(net, "cuba_python.json", dt_ms=0.1, duration_ms=duration, seed=42)
loaded, settings = volley.load_json("cuba_python.json")
check(loaded == net and settings == {"dt_ms": 0.1, "duration_ms": duration, "seed": 42}, "JSON round trip")
subprocess.run([cli(), "run", "cuba_python.json", "--threads", "2", "--quiet", "--out", "cuba_python.csv"],
               check=True, stdout=subprocess.DEVNULL)
with open("cuba_python.csv") as f:
    rows = list(csv.DictReader(f))
for population, steps, ids in rasters[2]:
    cli_rows = [r for r in rows if r["population"] == population]
    cli_t = np.array([float(r["time_ms"]) for r in cli_rows])
    cli_i = np.array([int(r["node_id"]) for r in cli_rows])
    order_py = np.lexsort((ids, steps))
    order_cli = np.lexsort((cli_i, np.round(cli_t / 0.1)))
    check(len(cli_t) == len(steps), f"{population}: {len(cli_t)} spikes from the CLI, {len(steps)} from Python")
    check(np.array_equal(cli_i[order_cli], ids[order_py]) and
          np.allclose(cli_t[order_cli], steps[order_py] * 0.1, atol=1e-6), f"{population}: the spikes differ")
    print(f"{population}: {len(steps)} spikes, identical in Python (1 and 2 threads) and `volley run`")

# The portable device backend (the CUDA backend's source on OpenMP threads, docs/cuda.md) gives
# the CPU engine's spikes, where this build has it.
try:
    sims = {b: volley.Simulation(net, dt_ms=0.1, seed=42, threads=2, backend=b) for b in ("cpu", "portable")}
except volley.Error as e:
    print(f"no portable backend in this build: {e}")
else:
    recs = {b: s.record_spikes("exc") for b, s in sims.items()}
    for s in sims.values():
        s.run(100.0)
    check(np.array_equal(recs["cpu"].steps, recs["portable"].steps) and
          np.array_equal(recs["cpu"].node_ids, recs["portable"].node_ids), "the portable backend's spikes differ")
    print(f"backend='portable': {len(recs['portable'])} spikes in 100 ms, identical to the CPU engine's")
