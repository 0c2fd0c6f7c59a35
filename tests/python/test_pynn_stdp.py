"""The STDP pair protocol (tests/python/pynn/stdp_pair.py) on Volley's PyNN backend and on
pyNN.nest, each in a child process. Each backend's final weights are checked against the
analytic all-to-all pair rule evaluated here on that backend's own recorded spike times (NEST's
stdp_synapse definitions: Δt = t_post + d - t_pre with the whole delay d dendritic; additive
Δw = ±A·w_max·exp(∓Δt/τ), multiplicative ±A·(w_max - w | w - w_min)·exp(∓Δt/τ)), and the two
backends against each other. Also: what pyNN.volley cannot honour raises VolleyNotSupported.
Skips without PyNN; without NEST only Volley's run is checked."""

import json
import math
import os
import subprocess
import sys

from volley_test_support import check, require, volley_module

volley_module()
require("pyNN", "PyNN is not installed (pip install pyNN)")

here = os.path.join(os.path.dirname(os.path.abspath(__file__)), "pynn")
TOL = 1e-9  # [relative to w_max] backend vs analytic, and backend vs backend on equal spike times


def run(backend, *extra):
    p = subprocess.run([sys.executable, os.path.join(here, "stdp_pair.py"), backend, *extra], capture_output=True,
                       text=True, timeout=600)
    lines = [line for line in p.stdout.splitlines() if line.startswith("RESULT ")]
    check(p.returncode == 0 and lines, f"stdp_pair.py on {backend} failed:\n{p.stdout[-2000:]}\n{p.stderr[-3000:]}")
    return json.loads(lines[-1][len("RESULT "):])


def analytic(pre, post, delay, dependence, rule, w0, w_max):
    """The final weight of one synapse under the all-to-all pair rule, event by event: the post
    spikes reach the synapse at t_post + delay (the dendritic part, less the axonal part that
    delays the pre spikes), the pre spikes at t_pre."""
    events = sorted([(t, 1) for t in pre] + [(t + delay, 0) for t in post])
    w, seen_pre, seen_post = w0, [], []
    for t, is_pre in events:
        if is_pre:
            y = sum(math.exp(-(t - s) / rule["tau_minus"]) for s in seen_post)
            scale = w_max if dependence == "additive" else w  # w_min = 0
            w = max(0.0, w - rule["A_minus"] * scale * y)
            seen_pre.append(t)
        else:
            x = sum(math.exp(-(t - s) / rule["tau_plus"]) for s in seen_pre)
            scale = w_max - w if dependence == "multiplicative" else w_max
            w = min(w_max, w + rule["A_plus"] * scale * x)
            seen_post.append(t)
    return w


def check_analytic(result, backend):
    worst = 0.0
    shift = (2 * result["fraction"] - 1) * result["delay"]  # f·d dendritic, (1 - f)·d axonal
    for dependence, weights in result["weights"].items():
        for k, w in enumerate(weights):
            expected = analytic(result["pre"][k], result["post"][k], shift, dependence, result["rule"],
                                result["w0"], result["w_max"])
            worst = max(worst, abs(w - expected) / result["w_max"])
            check(abs(w - expected) <= TOL * result["w_max"],
                  f"{backend}, {dependence}, lag {result['lags'][k]}: weight {w!r}, analytic {expected!r}")
    print(f"{backend}: {3 * len(result['lags'])} final weights match the analytic pair rule (largest difference {worst:.1e} w_max)")


v = run("volley.pynn")
check(all(len(p) == 3 for p in v["post"]), f"each post neuron fires 3 times: {v['post']}")
check_analytic(v, "pyNN.volley")
# The window's shape: depression for Δt < 0, potentiation for Δt > 0 (Δt = lag + delay).
for dependence, weights in v["weights"].items():
    for lag, w in zip(v["lags"], weights):
        check((w > v["w0"]) == (lag + v["delay"] > 0), f"{dependence}: lag {lag}: weight {w} against w0 {v['w0']}")
# dendritic_delay_fraction = 0.5 (Volley only): the delay splits evenly and Δt = t_post - t_pre,
# so the post spike 0.6 ms before the pre spike now depresses.
half = run("volley.pynn", "0.5")
check_analytic(half, "pyNN.volley, dendritic_delay_fraction 0.5")
k = half["lags"].index(-0.5)
check(all(half["weights"][d][k] < half["w0"] for d in half["weights"]), "lag -0.5 with f = 0.5 must depress")

have_nest = subprocess.run([sys.executable, "-c", "import pyNN.nest"], capture_output=True).returncode == 0
if have_nest:
    n = run("pyNN.nest")
    check_analytic(n, "pyNN.nest")
    check(n["pre"] == v["pre"], f"pre spikes differ: NEST {n['pre']}, Volley {v['pre']}")
    same_post = all(len(a) == len(b) and all(abs(x - y) < 1e-6 for x, y in zip(a, b))
                    for a, b in zip(n["post"], v["post"]))
    print("post spike times " + ("identical on both backends" if same_post else f"differ: NEST {n['post']} Volley {v['post']}"))
    print(f"{'dependence':24s} {'Δt [ms]':>8s} {'Δw NEST':>12s} {'Δw Volley':>12s} {'Δw analytic':>12s}")
    for dependence in v["weights"]:
        for k, lag in enumerate(v["lags"]):
            wn, wv = n["weights"][dependence][k], v["weights"][dependence][k]
            dt = v["post"][k][0] + v["delay"] - v["pre"][k][0]
            if same_post:
                check(abs(wn - wv) <= TOL * v["w_max"], f"{dependence}, lag {lag}: NEST {wn!r}, Volley {wv!r}")
            else:  # a post spike a step apart moves Δw by about dt/τ = 0.5 %
                check(abs(wn - wv) <= 0.01 * abs(wn - n["w0"]) + TOL * v["w_max"],
                      f"{dependence}, lag {lag}: NEST {wn!r}, Volley {wv!r}")
            expected = analytic(v["pre"][k], v["post"][k], v["delay"], dependence, v["rule"], v["w0"], v["w_max"])
            print(f"{dependence:24s} {dt:8.1f} {wn - n['w0']:12.4e} {wv - v['w0']:12.4e} {expected - v['w0']:12.4e}")
    print("pyNN.nest and pyNN.volley agree on every final weight")
else:
    print("NEST is not installed: only pyNN.volley was checked")

# What cannot be honoured is named.
import volley.pynn as sim  # noqa: E402

sim.setup(timestep=0.1)
a = sim.Population(2, sim.SpikeSourceArray(spike_times=[10.0]))
b = sim.Population(2, sim.IF_curr_exp())
rule = sim.SpikePairRule()
for make, parameter in (
        (lambda: sim.STDPMechanism(rule, sim.AdditiveWeightDependence(), dendritic_delay_fraction=0.0),
         "dendritic_delay_fraction"),
        (lambda: sim.STDPMechanism(rule, sim.GutigWeightDependence()), "synapse model"),
        (lambda: sim.Projection(a, b, sim.AllToAllConnector(), sim.STDPMechanism(
            rule, sim.AdditiveWeightDependence(w_max=0.01), weight=-0.005), receptor_type="inhibitory"),
         "receptor_type"),
        (lambda: sim.Projection(a, b, sim.AllToAllConnector(), sim.STDPMechanism(
            sim.SpikePairRule(A_plus=sim.RandomDistribution("uniform", (0.01, 0.02))),
            sim.AdditiveWeightDependence(w_max=0.01), weight=0.005)), "A_plus")):
    try:
        make()
        sim.run(1.0)
    except sim.VolleyNotSupported as e:
        check(e.parameter == parameter, f"expected {parameter} named: {e}")
        print(f"refused: {e}")
    else:
        check(False, f"{parameter}: no VolleyNotSupported")
    sim.setup(timestep=0.1)
    a = sim.Population(2, sim.SpikeSourceArray(spike_times=[10.0]))
    b = sim.Population(2, sim.IF_curr_exp())

# Learned weights come back per connection for random connectivity onto an Assembly on two
# threads (one Volley projection per target population), and reset() restores the initial ones.
sim.setup(timestep=0.1, threads=2)
a = sim.Population(30, sim.SpikeSourcePoisson(rate=20.0))
targets = sim.Population(20, sim.IF_curr_exp(i_offset=1.2)) + sim.Population(5, sim.IF_curr_exp(i_offset=1.0))
prj = sim.Projection(a, targets, sim.FixedProbabilityConnector(0.5, rng=sim.NumpyRNG(3)), sim.STDPMechanism(
    sim.SpikePairRule(), sim.MultiplicativeWeightDependence(w_max=0.02),
    weight=sim.RandomDistribution("uniform", (0.0, 0.02), rng=sim.NumpyRNG(4))),
    receptor_type="excitatory")  # PyNN guesses an Assembly's default receptor from a set: at random
before = prj.get("weight", format="list")
sim.run(500.0)
after = prj.get("weight", format="list")
check([x[:2] for x in after] == [x[:2] for x in before], "the connections' order changed")
changed = sum(1 for x, y in zip(before, after) if x[2] != y[2])
check(changed > 0.9 * len(before) and all(0.0 <= x[2] <= 0.02 for x in after), f"{changed} of {len(before)} learned")
sim.reset()
check(prj.get("weight", format="list") == before, "reset() did not restore the initial weights")
print(f"Assembly target, 2 threads: {changed} of {len(before)} weights learned; reset() restores them")
sim.end()
print("test_pynn_stdp: ok")
