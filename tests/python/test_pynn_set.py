"""pyNN.volley's Projection.set before the first run, and what it refuses. Three IF_curr_delta
neurons (weights in mV, v_rest 0) receive one spike at 10 ms through weights set per connection
(a number, then a (pre, post) array) and delays set to 2 ms: each v jumps by its weight at 12 ms
and decays with tau_m, so v(12.5 ms) = w·exp(-0.5/20) exactly, at most one step's decay apart.
Also: set() after run(), set() of an STDP parameter, a positive inhibitory current weight, and
ACSource / NoisyCurrentSource are refused with VolleyNotSupported (or PyNN's ConnectionError)
naming them. Skips without PyNN."""

import math

from volley_test_support import check, require, volley_module

volley_module()
require("pyNN", "PyNN is not installed (pip install pyNN)")
import numpy as np  # noqa: E402
import volley.pynn as sim  # noqa: E402
from pyNN.errors import ConnectionError as PyNNConnectionError  # noqa: E402

sim.setup(timestep=0.1)
src = sim.Population(1, sim.SpikeSourceArray(spike_times=[10.0]))
cells = sim.Population(3, sim.IF_curr_delta(tau_m=20.0, v_rest=0.0, v_reset=0.0, v_thresh=50.0, tau_refrac=2.0))
cells.initialize(v=0.0)
prj = sim.Projection(src, cells, sim.AllToAllConnector(), sim.StaticSynapse(weight=1.0, delay=1.0))
prj.set(weight=0.7)
check(np.allclose(prj.get("weight", format="array"), 0.7), "set(weight=0.7)")
prj.set(weight=np.array([[1.5, 3.0, 4.5]]), delay=2.0)
check(np.allclose(prj.get("weight", format="array"), [[1.5, 3.0, 4.5]]), f"{prj.get('weight', format='array')}")
check(np.allclose(prj.get("delay", format="array"), 2.0), "set(delay=2.0)")
cells.record("v")
sim.run(20.0)
v = cells.get_data().segments[0].filter(name="v")[0]
t = np.asarray(v.times)
row = int(np.argmin(np.abs(t - 12.5)))
for j, w in enumerate((1.5, 3.0, 4.5)):
    got = float(v.magnitude[row, j])
    check(w * math.exp(-0.6 / 20) - 1e-9 <= got <= w * math.exp(-0.4 / 20) + 1e-9,
          f"neuron {j}: v(12.5) = {got}, weight {w}: expected about {w * math.exp(-0.5 / 20):.4f}")
    check(abs(float(v.magnitude[int(np.argmin(np.abs(t - 11.5))), j])) < 1e-12, "nothing arrives before 12 ms")
print("set(): weights and delays set before run() act as set")


def refused(what, action, parameter=None, error=sim.VolleyNotSupported):
    try:
        action()
    except error as e:
        check(parameter is None or e.parameter == parameter, f"{what}: {e} does not name {parameter}")
        print(f"refused ({what}): {e}")
    else:
        check(False, f"{what} was accepted")


refused("set after run", lambda: prj.set(weight=1.0), "set()")
sim.setup(timestep=0.1)
a = sim.Population(2, sim.SpikeSourceArray(spike_times=[10.0]))
b = sim.Population(2, sim.IF_curr_exp())
stdp = sim.Projection(a, b, sim.AllToAllConnector(), sim.STDPMechanism(
    sim.SpikePairRule(), sim.AdditiveWeightDependence(w_max=0.01), weight=0.005))
refused("set of an STDP parameter", lambda: stdp.set(tau_plus=10.0), "set()")
inh = sim.Projection(a, b, sim.AllToAllConnector(), sim.StaticSynapse(weight=-0.5), receptor_type="inhibitory")
refused("positive current-based inhibitory weight", lambda: inh.set(weight=0.5), error=PyNNConnectionError)
refused("ACSource", lambda: sim.ACSource(amplitude=1.0, frequency=10.0), "current source")
refused("NoisyCurrentSource", lambda: sim.NoisyCurrentSource(mean=1.0, stdev=0.1), "current source")
sim.end()
print("test_pynn_set: ok")
