"""pyNN.volley's composed cells (PointNeuron: a LIF with post-synaptic responses of its own
naming), as PyNN's example monolith_vs_composed.py builds them. Against independent results: each
response's recorded current is the analytic w·exp(-(t - t_arrival)/tau_syn) (1e-12 nA); the
composed cell's membrane is the exact solution of tau_m dv/dt = v_rest - v + R·(I_e + I_i),
integrated here in closed form per step (1e-9 mV), and equals the monolithic IF_curr_exp's; with
NEST installed, both equal pyNN.nest's (iaf_psc_exp and iaf_psc_exp_multisynapse) to 1e-9 mV. A
conductance-based composition records its conductances, a receptor type the cell does not have
and a mix of response kinds are typed errors. Skips without PyNN."""

import math
import os
import subprocess
import sys
import tempfile

from volley_test_support import check, require, volley_module

volley_module()
require("pyNN", "PyNN is not installed (pip install pyNN)")
import numpy as np  # noqa: E402
from pyNN.parameters import Sequence  # noqa: E402

SCRIPT = r'''
import sys, numpy as np
from pyNN.parameters import Sequence
if sys.argv[1] == "nest":
    import pyNN.nest as sim
else:
    import volley.pynn as sim
sim.setup(timestep=0.1, min_delay=1.0)
mono = sim.Population(1, sim.IF_curr_exp(tau_m=10.0, v_rest=-60.0, tau_syn_E=1.0, tau_syn_I=2.0),
                      initial_values={"v": -60.0})
comp = sim.Population(1, sim.PointNeuron(sim.LIF(tau_m=10.0, v_rest=-60.0),
                                         excitatory=sim.CurrExpPostSynapticResponse(tau_syn=1.0),
                                         inhibitory=sim.CurrExpPostSynapticResponse(tau_syn=2.0)),
                      initial_values={"v": -60.0})
mono.record("v")
comp.record(["v", "excitatory.isyn", "inhibitory.isyn"])
neurons = mono + comp
inputs = sim.Population(2, sim.SpikeSourceArray(spike_times=[Sequence([30.0]), Sequence([120.0])]))
sim.Projection(inputs[0:1], neurons, sim.AllToAllConnector(),
               synapse_type=sim.StaticSynapse(weight=0.5, delay=1.5), receptor_type="excitatory")
sim.Projection(inputs[1:2], neurons, sim.AllToAllConnector(),
               synapse_type=sim.StaticSynapse(weight=-0.2, delay=1.5), receptor_type="inhibitory")
sim.run(200.0)
out = {}
for name, pop in (("mono", mono), ("comp", comp)):
    for sig in pop.get_data().segments[0].analogsignals:
        out[name + "_" + sig.name] = np.asarray(sig.magnitude).ravel()
np.savez(sys.argv[2], **out)
'''


work = tempfile.TemporaryDirectory()


def run(backend):
    path = os.path.join(work.name, f"point_neuron_{backend}.npz")
    r = subprocess.run([sys.executable, "-c", SCRIPT, backend, path], capture_output=True, text=True)
    check(r.returncode == 0, f"{backend}: {r.stderr[-2000:]}")
    return np.load(path)


got = run("volley")
dt, tau_m, cm, v_rest = 0.1, 10.0, 1.0, -60.0
R = tau_m / cm
t = np.arange(2001) * dt
# Arrivals: spike at 30 and 120 ms, delay 1.5 ms; the current jumps at the arrival step.
i_e = np.where(t >= 31.5 - 1e-9, 0.5 * np.exp(-(t - 31.5) / 1.0), 0.0)
i_i = np.where(t >= 121.5 - 1e-9, -0.2 * np.exp(-(t - 121.5) / 2.0), 0.0)
check(np.max(np.abs(got["comp_excitatory.isyn"] - i_e)) < 1e-12, "excitatory.isyn is not 0.5 exp(-(t - 31.5)/1)")
check(np.max(np.abs(got["comp_inhibitory.isyn"] - i_i)) < 1e-12, "inhibitory.isyn is not -0.2 exp(-(t - 121.5)/2)")

# The membrane: exact per step for an exponentially decaying current (closed form of the linear
# system), starting at the step where each current appears.
v = np.empty_like(t)
v[0] = v_rest
pm = math.exp(-dt / tau_m)
for k in range(1, len(t)):
    dv = v[k - 1] - v_rest
    for amp, t0, tau in ((0.5, 31.5, 1.0), (-0.2, 121.5, 2.0)):
        if t[k - 1] >= t0 - 1e-9:
            i0 = amp * math.exp(-(t[k - 1] - t0) / tau)  # current at the start of the step
            ps = math.exp(-dt / tau)
            dv += R * i0 * tau / (tau - tau_m) * (ps - pm) / pm if tau != tau_m else 0.0
    v[k] = v_rest + dv * pm
check(np.max(np.abs(got["comp_v"] - v)) < 1e-9, f"composed v differs from the exact solution by "
      f"{np.max(np.abs(got['comp_v'] - v)):.3g} mV")
check(np.array_equal(got["comp_v"], got["mono_v"]), "the composed cell's v differs from IF_curr_exp's")

try:
    import nest  # noqa: F401
    have_nest = True
except ImportError:
    have_nest = False
if have_nest:
    ref = run("nest")
    for key in ("mono_v", "comp_v", "comp_excitatory.isyn", "comp_inhibitory.isyn"):
        check(np.max(np.abs(ref[key] - got[key])) < 1e-9, f"{key}: differs from pyNN.nest by "
              f"{np.max(np.abs(ref[key] - got[key])):.3g}")

# Conductance-based, and the refusals.
import volley.pynn as sim  # noqa: E402
from volley.pynn.errors_ import VolleyNotSupported  # noqa: E402

sim.setup(timestep=0.1)
cond = sim.Population(1, sim.PointNeuron(sim.LIF(), AMPA=sim.CondExpPostSynapticResponse(tau_syn=2.0, e_syn=0.0),
                                         GABA=sim.CondExpPostSynapticResponse(tau_syn=6.0, e_syn=-75.0)))
check(cond.get("GABA.tau_syn") == 6.0 and cond.get("tau_m") == 20.0, "Population.get of a composed cell's parameters")
cond.set(**{"GABA.tau_syn": 4.0})  # reaches the engine: the decay below is 4 ms
check(cond.get("GABA.tau_syn") == 4.0, "Population.set of a response's parameter")
cond.record(["v", "AMPA.gsyn", "GABA.gsyn"])
src = sim.Population(1, sim.SpikeSourceArray(spike_times=[Sequence([5.0])]))
sim.Projection(src, cond, sim.AllToAllConnector(), sim.StaticSynapse(weight=0.01, delay=1.0), receptor_type="GABA")
sim.run(20.0)
sigs = {s.name: np.asarray(s.magnitude).ravel() for s in cond.get_data().segments[0].analogsignals}
tt = np.arange(len(sigs["GABA.gsyn"])) * 0.1
g_expected = np.where(tt >= 6.0 - 1e-9, 0.01 * np.exp(-(tt - 6.0) / 4.0), 0.0)
check(np.max(np.abs(sigs["GABA.gsyn"] - g_expected)) < 1e-12, "GABA.gsyn is not 0.01 exp(-(t - 6)/4) uS")
check(np.max(np.abs(sigs["AMPA.gsyn"])) == 0.0, "AMPA received GABA's spike")
check(sigs["v"][-1] < -65.0, "the GABA conductance (e_syn -75 mV) did not hyperpolarise the cell")
sim.end()

sim.setup(timestep=0.1)
mixed = sim.Population(1, sim.PointNeuron(sim.LIF(), a=sim.CurrExpPostSynapticResponse(),
                                          b=sim.CondExpPostSynapticResponse()))
try:
    sim.run(1.0)
    check(False, "a PointNeuron mixing current and conductance responses was run")
except Exception as e:  # PyNN's own check (conductance_based) or VolleyNotSupported
    check("mix" in str(e) or isinstance(e, VolleyNotSupported), f"unexpected error: {e!r}")
sim.end()

# PyNN's multi_synapse.py: four responses on an AdExp, refused by name (not an unknown attribute).
sim.setup(timestep=0.1)
try:
    sim.Population(1, sim.PointNeuron(sim.AdExp(), AMPA=sim.AlphaPSR(), NMDA=sim.AlphaPSR(), GABAA=sim.AlphaPSR(),
                                      GABAB=sim.AlphaPSR()))
    sim.run(1.0)
    check(False, "a PointNeuron of an AdExp was run")
except VolleyNotSupported as e:
    check("AdExp" in str(e), f"the refusal does not name the AdExp: {e}")
sim.end()
print("ok")
