"""pyNN.volley's Projection.set before the first run, and what it refuses. Three IF_curr_delta
neurons (weights in mV, v_rest 0) receive one spike at 10 ms through weights set per connection
(a number, then a (pre, post) array) and delays set to 2 ms: each v jumps by its weight at 12 ms
and decays with tau_m, so v(12.5 ms) = w·exp(-0.5/20) exactly, at most one step's decay apart.
Also: set() after run(), set() of an STDP parameter and a positive inhibitory current weight are
refused with VolleyNotSupported (or PyNN's ConnectionError) naming them. Then: a connection's weight and delay set through prj[i] (v jumps by the set
weight after the set delay), run_until of the current and of an earlier time, and a DCSource's
amplitude set before run() (v at 20 ms the analytic R·I·(1 - exp(-1)) to 1e-9 mV) and after it
(v at 40 ms analytic again), a bad value after it refused, leaving the source as it was; StepCurrentSource times on the grid, and out-of-order times refused as PyNN's
InvalidParameterValueError; TsodyksMarkramSynapse U set per connection, and U or a
SimpleStochasticSynapse's p out of range refused. Skips without PyNN."""

import math

from volley_test_support import check, require, volley_module

volley_module()
require("pyNN", "PyNN is not installed (pip install pyNN)")
import numpy as np  # noqa: E402
import volley.pynn as sim  # noqa: E402
from volley import InvalidParameter  # noqa: E402
from pyNN.errors import ConnectionError as PyNNConnectionError  # noqa: E402
from pyNN.errors import InvalidParameterValueError as PyNNInvalidParameterValueError  # noqa: E402

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
sim.end()

# A connection's weight and delay set through prj[i] before the first run; after it refused.
sim.setup(timestep=0.1)
src = sim.Population(1, sim.SpikeSourceArray(spike_times=[10.0]))
cells = sim.Population(3, sim.IF_curr_delta(tau_m=20.0, v_rest=0.0, v_reset=0.0, v_thresh=50.0))
cells.initialize(v=0.0)
prj = sim.Projection(src, cells, sim.AllToAllConnector(), sim.StaticSynapse(weight=1.0, delay=1.0))
connections = list(prj.connections)
check(len(connections) == 3 and [c.postsynaptic_index for c in connections] == [0, 1, 2], f"{connections}")
connections[1].weight, connections[1].delay = 4.0, 3.0
check(prj.get(["weight", "delay"], format="list") == [(0, 0, 1.0, 1.0), (0, 1, 4.0, 3.0), (0, 2, 1.0, 1.0)],
      f"{prj.get(['weight', 'delay'], format='list')}")
cells.record("v")
sim.run(20.0)
v = cells.get_data().segments[0].filter(name="v")[0]
t = np.asarray(v.times)
at = lambda ms, j: float(v.magnitude[int(np.argmin(np.abs(t - ms))), j])  # noqa: E731
check(at(11.5, 1) == 0.0 and 4.0 * math.exp(-0.6 / 20) - 1e-9 <= at(13.5, 1) <= 4.0 * math.exp(-0.4 / 20) + 1e-9,
      f"connection 1 (weight 4 mV, delay 3 ms): v(11.5) = {at(11.5, 1)}, v(13.5) = {at(13.5, 1)}")
check(1.0 * math.exp(-0.6 / 20) - 1e-9 <= at(11.5, 0) <= 1.0 * math.exp(-0.4 / 20) + 1e-9, f"v0(11.5) = {at(11.5, 0)}")
refused("a connection's weight after run", lambda: setattr(connections[0], "weight", 2.0), "connection 0 weight")
print("connections: weight and delay set through prj[i] before run() act as set")

# run_until: the current time again does nothing; an earlier time is refused naming both.
now = sim.get_current_time()
sim.run_until(now)
check(sim.get_current_time() == now, f"run_until(now) moved the time to {sim.get_current_time()}")
try:
    sim.run_until(now - 0.04)
except ValueError as e:
    check(f"{now - 0.04:g}" in str(e) and f"{now:g}" in str(e), f"{e} does not name t and now")
else:
    check(False, "run_until of an earlier time was accepted")
sim.end()

# Current sources: parameters read, set before the first run (v follows the set amplitude:
# IF_curr_exp, R = tau_m / cm = 20 MOhm, v(t) = v_rest + R·I·(1 - exp(-t / tau_m))), and refused after it.
sim.setup(timestep=0.1)
cell = sim.Population(1, sim.IF_curr_exp(tau_m=20.0, cm=1.0, v_rest=-65.0, v_thresh=0.0))
cell.initialize(v=-65.0)
dc = sim.DCSource(amplitude=0.1, start=0.0, stop=100.0)
dc.inject_into(cell)
check(dc.amplitude == 0.1 and dc.get_parameters() == {"amplitude": 0.1, "start": 0.0, "stop": 100.0},
      f"{dc.get_parameters()}")
dc.amplitude = 0.25
check(dc.amplitude == 0.25, f"amplitude {dc.amplitude} after setting 0.25")
step = sim.StepCurrentSource(times=[0.41, 0.42, 0.86], amplitudes=[0.5, -0.5, 0.5])
check(np.allclose(step.times, [0.4, 0.9]) and np.allclose(step.amplitudes, [-0.5, 0.5]),
      f"step times {step.times}, amplitudes {step.amplitudes}: expected [0.4, 0.9], [-0.5, 0.5]")
refused("negative step time", lambda: sim.StepCurrentSource(times=[0.4, -0.6], amplitudes=[0.5, 0.5]), "times",
        error=PyNNInvalidParameterValueError)
refused("decreasing step times", lambda: sim.StepCurrentSource(times=[0.4, 0.2], amplitudes=[0.5, 0.5]), "times",
        error=PyNNInvalidParameterValueError)
refused("SpikeSourceArray times out of order",
        lambda: sim.Population(1, sim.SpikeSourceArray(spike_times=[3.0, 1.0])), "spike_times",
        error=PyNNInvalidParameterValueError)
cell.record("v")
sim.run(20.0)
v = cell.get_data().segments[0].filter(name="v")[0]
got = float(v.magnitude[int(np.argmin(np.abs(np.asarray(v.times) - 20.0))), 0])
expected = -65.0 + 20.0 * 0.25 * (1 - math.exp(-20.0 / 20.0))
check(abs(got - expected) < 1e-9, f"v(20 ms) = {got} under 0.25 nA: expected {expected:.4f}")
dc.amplitude = 0.5  # after run(): from 20 ms on
sim.run(20.0)
v = cell.get_data().segments[0].filter(name="v")[0]
got40 = float(v.magnitude[int(np.argmin(np.abs(np.asarray(v.times) - 40.0))), 0])
v_inf = -65.0 + 20.0 * 0.5
expected40 = v_inf + (expected - v_inf) * math.exp(-20.0 / 20.0)
check(abs(got40 - expected40) < 1e-9, f"v(40 ms) after the amplitude went to 0.5 nA at 20 ms = {got40}: "
      f"expected {expected40:.6f}")
refused("a negative DCSource start after run", lambda: setattr(dc, "start", -5.0), "start_ms", error=InvalidParameter)
check(dc.start == 0.0 and dc.amplitude == 0.5, f"a refused start changed the source ({dc.get_parameters()})")
sim.end()
print("current sources: parameters read, set before and after run() as set")
# Short-term plasticity and release parameters: per connection through get/set, out of range refused
# naming projection, connection, parameter and value (as InvalidParameterValue), a refused set()
# changing nothing.
sim.setup(timestep=0.1)
pre, post = sim.Population(3, sim.IF_cond_exp()), sim.Population(2, sim.IF_cond_exp())
refused("U above 1", lambda: sim.Projection(pre, post, sim.AllToAllConnector(), sim.TsodyksMarkramSynapse(U=1.5)),
        "U", error=PyNNInvalidParameterValueError)
tm = sim.Projection(pre, post, sim.AllToAllConnector(), sim.TsodyksMarkramSynapse(U=0.3, tau_rec=400.0))
tm.set(U=np.array([[0.1, 0.2], [0.3, 0.4], [0.5, 0.6]]))
check(np.allclose(tm.get("U", format="array"), [[0.1, 0.2], [0.3, 0.4], [0.5, 0.6]]), f"{tm.get('U', format='array')}")
release = sim.Projection(pre, post, sim.AllToAllConnector(), sim.SimpleStochasticSynapse(p=0.5))
refused("p above 1", lambda: release.set(p=2.0), "p", error=PyNNInvalidParameterValueError)
check(np.allclose(release.get("p", format="array"), 0.5), "a refused p changed the projection")
sim.end()
print("short-term plasticity and release parameters: set per connection, refused out of range")
print("test_pynn_set: ok")
