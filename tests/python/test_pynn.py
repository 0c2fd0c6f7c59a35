"""The same PyNN scripts (tests/python/pynn/current_step.py, examples/python/cuba_pynn.py) on pyNN.nest and on Volley's PyNN backend, each in
a child process: the current-step script gives identical spike times and traces (both
integrate IF_curr_exp exactly on the grid), and the CUBA network the same rates within
statistical bounds. `import pyNN.volley` (a copy of PyNN with the shim of volley.pynn.install_pyNN_shim) gives the
same results as volley.pynn. Skips without PyNN; without NEST only Volley's runs are checked."""

import json
import math
import os
import subprocess
import sys

from volley_test_support import SKIP, check, require, volley_module

volley_module()
require("pyNN", "PyNN is not installed (pip install pyNN)")
import numpy as np  # noqa: E402

here = os.path.join(os.path.dirname(os.path.abspath(__file__)), "pynn")
examples = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..", "examples", "python")


def run(script, backend):
    path = os.path.join(here, script) if os.path.exists(os.path.join(here, script)) else os.path.join(examples, script)
    p = subprocess.run([sys.executable, path, backend], capture_output=True, text=True,
                       timeout=600)
    lines = [line for line in p.stdout.splitlines() if line.startswith("RESULT ")]
    check(p.returncode == 0 and lines, f"{script} on {backend} failed:\n{p.stdout[-2000:]}\n{p.stderr[-3000:]}")
    return json.loads(lines[-1][len("RESULT "):])


have_nest = subprocess.run([sys.executable, "-c", "import pyNN.nest"], capture_output=True).returncode == 0
v = run("current_step.py", "volley.pynn")
lif, alpha = v["lif"], v["alpha"]
check(len(lif["spikes"][1]) == 6 and abs(lif["spikes"][1][0] - 11.0) < 1e-9,
      f"bias neuron: {lif['spikes'][1]} (analytic first spike 10 ln 3 = 10.99 ms -> 11.0)")
check(len(lif["v"][0]) == 1001, "v sampled every step")
import volley.pynn as sim  # noqa: E402

# `import pyNN.volley`, as an unchanged PyNN script writes it: a copy of PyNN with the shim.
import shutil  # noqa: E402
import tempfile  # noqa: E402
import pyNN  # noqa: E402
with tempfile.TemporaryDirectory() as tmp:
    shutil.copytree(os.path.dirname(pyNN.__file__), os.path.join(tmp, "pyNN"),
                    ignore=shutil.ignore_patterns("__pycache__"))
    sim.install_pyNN_shim(os.path.join(tmp, "pyNN"))
    env = dict(os.environ, PYTHONPATH=tmp + os.pathsep + os.environ.get("PYTHONPATH", ""))
    p = subprocess.run([sys.executable, os.path.join(here, "current_step.py"), "pyNN.volley"], capture_output=True,
                       text=True, timeout=600, env=env)
    check(p.returncode == 0 and "RESULT " in p.stdout, f"import pyNN.volley failed:\n{p.stderr[-2000:]}")
    shimmed = json.loads([x for x in p.stdout.splitlines() if x.startswith("RESULT ")][-1][len("RESULT "):])
    check(shimmed == v, "pyNN.volley gave other results than volley.pynn")
    print("import pyNN.volley (through the shim) runs the script to the same results")

# PopulationView targets and recording, Assembly, reset(): a second segment with the same spikes
# (Volley's Poisson streams restart with the same seed).
sim.setup(timestep=0.1, seed=5)
src = sim.Population(20, sim.SpikeSourcePoisson(rate=50.0))
cells = sim.Population(10, sim.IF_cond_exp())
view = cells[2:6]
prj = sim.Projection(src, view, sim.FixedNumberPreConnector(5, rng=sim.NumpyRNG(1)),
                     sim.StaticSynapse(weight=0.01, delay=0.5))
check(len(prj) == 20 and (src + cells).size == 30, "projection onto a view, assembly")
listed = sim.Projection(src[0:3], cells, sim.FromListConnector([(0, 1, 0.02, 1.5), (2, 4, 0.03, 2.0)]),
                        sim.StaticSynapse())
check(sorted(listed.get(["weight", "delay"], format="list")) == [(0, 1, 0.02, 1.5), (2, 4, 0.03, 2.0)],
      f"FromListConnector read back: {listed.get(['weight', 'delay'], format='list')}")
w = listed.get("weight", format="array")
check(w.shape == (3, 10) and w[2, 4] == 0.03 and np.isnan(w[0, 0]), "weights as a (pre, post) array")
view.record(["spikes", "v"])
src.record("spikes")
for _ in range(2):
    sim.run(200.0)
    sim.reset()
block, sources = view.get_data(), src.get_data()
check(len(block.segments) == 2 and block.segments[0].analogsignals[0].shape == (2001, 4), "two segments of v")
counts = [[len(st) for st in seg.spiketrains] for seg in sources.segments]
check(counts[0] == counts[1] and sum(counts[0]) > 100, f"Poisson spikes per segment {counts}")
views = [[list(st.magnitude) for st in seg.spiketrains] for seg in block.segments]
check(views[0] == views[1], "the view's spikes differ after reset()")
sim.end()

# A Projection onto and from an Assembly: one Volley projection per pair of populations, every
# cell of both reached (a 20 mV delta jump over the 15 mV to threshold fires each once, 1 ms
# after the source spike at 10 ms).
sim.setup(timestep=0.1)
left, right = sim.Population(3, sim.IF_curr_delta()), sim.Population(2, sim.IF_curr_delta())
source = sim.Population(1, sim.SpikeSourceArray(spike_times=[10.0]))
sim.Projection(source, left + right, sim.AllToAllConnector(), sim.StaticSynapse(weight=20.0, delay=1.0),
               receptor_type="excitatory")
sink = sim.Population(1, sim.IF_curr_delta())
sim.Projection(left + right, sink, sim.AllToAllConnector(), sim.StaticSynapse(weight=4.0, delay=1.0),
               receptor_type="excitatory")
for pop in (left, right, sink):
    pop.record("spikes")
sim.run(30.0)
fired = [[list(st.magnitude) for st in pop.get_data().segments[0].spiketrains] for pop in (left, right, sink)]
check(fired[0] == [[11.0]] * 3 and fired[1] == [[11.0]] * 2, f"cells of the assembly fired at {fired[:2]}")
check(fired[2] == [[12.0]], f"the sink of 5 x 4 mV from the assembly fired at {fired[2]}")
sim.end()

# What Volley cannot honour is refused, naming it.
sim.setup(timestep=0.1)
a = sim.Population(2, sim.IF_curr_exp())
try:
    sim.Projection(a, a, sim.OneToOneConnector(), sim.StaticSynapse(weight=0.1), receptor_type="gap")
    raise AssertionError("receptor_type 'gap' was accepted")
except sim.VolleyNotSupported as e:
    check(e.parameter == "receptor_type" and e.value == "gap", f"{e}")
except Exception as e:  # PyNN itself may refuse the receptor first
    check("gap" in str(e), f"{type(e).__name__}: {e}")
sim.run(1.0)
try:
    a.set(tau_m=5.0)
    raise AssertionError("set() after run() was accepted")
except sim.VolleyNotSupported as e:
    check(e.parameter == "set()", f"{e}")
sim.end()

if not have_nest:
    print("pyNN.nest not importable: Volley's runs checked alone")
    sys.exit(0)

n = run("current_step.py", "pyNN.nest")

for name in ("lif", "alpha"):
    for i, (a, b) in enumerate(zip(v[name]["spikes"], n[name]["spikes"], strict=True)):
        check(len(a) == len(b) and np.allclose(a, b, atol=1e-9), f"{name}[{i}] spikes: Volley {a}, NEST {b}")
    err = np.max(np.abs(np.array(v[name]["v"]) - np.array(n[name]["v"])))
    check(err < 1e-6, f"{name}: v differs from NEST's by {err} mV")
    print(f"current step, {name}: spikes {[len(s) for s in v[name]['spikes']]} identical to NEST's, "
          f"v within {err:.1e} mV")

# The other cell types (models.py): the same spike counts, and spike times equal on the grid
# where both take the same steps (Volley's rk4 or Euler and NEST's), within a tolerance where
# the integrators or the spike detection differ (EIF: both adaptive; HH: NEST detects the
# spike at the peak, Volley at the upward crossing of -20 mV).
mv, mn = run("models.py", "volley.pynn"), run("models.py", "pyNN.nest")
tolerance = {"IF_cond_exp": 0.01, "IF_cond_alpha": 0.01, "IF_curr_delta": 0.01, "Izhikevich": 0.01,
             "EIF_cond_exp_isfa_ista": 0.5, "HH_cond_exp": 0.3}
for name, tol in tolerance.items():
    a, b = np.array(mv[name]), np.array(mn[name])
    check(len(a) == len(b) and len(a) > 3, f"{name}: {len(a)} spikes on Volley, {len(b)} on NEST")
    err = np.max(np.abs(a - b))
    check(err <= tol, f"{name}: spike times differ from NEST's by up to {err} ms: {a} vs {b}")
    print(f"{name}: {len(a)} spikes, within {err:.2f} ms of NEST's")

rv, rn = run("cuba_pynn.py", "volley.pynn"), run("cuba_pynn.py", "pyNN.nest")
for pop in ("exc", "inh"):
    a, b = np.array(rv[pop]), np.array(rn[pop])
    # The population mean rate of two independent realisations (different connectivity and
    # initial values): within 5 standard errors of the per-neuron rates, and within 25%.
    sem = math.sqrt(a.var() / len(a) + b.var() / len(b))
    check(abs(a.mean() - b.mean()) < 5 * sem + 0.25 * b.mean(),
          f"CUBA {pop}: Volley {a.mean():.2f} Hz, NEST {b.mean():.2f} Hz (sem {sem:.2f})")
    check(1 < a.mean() < 50, f"CUBA {pop} rate {a.mean()} Hz")
    print(f"CUBA {pop}: Volley {a.mean():.2f} Hz, NEST {b.mean():.2f} Hz (standard error {sem:.2f} Hz)")
