"""Network files from Python: a network written as JSON reads back equal; a NIR file written by
Volley from a discrete-neuron network reads back and runs to the same spikes; the NIR fixtures of
tests/data/nir load with their inputs and outputs named."""

import glob
import os
import tempfile

from volley_test_support import check, data_dir, volley_module

volley = volley_module()
import numpy as np  # noqa: E402

net = volley.Network()
src = net.add_population("in", 4, "spike_source", spike_times_ms=[[1.0, 5.0], [2.0], [], [3.0, 4.0]])
izh = net.add_population("izh", 3, "izhikevich", preset="RS")
hh = net.add_population("hh", 2, "hh")
cond = net.add_population("cond", 3, "lif_cond_alpha", integrator="rk2")
net.set_parameter(izh, "i_e", [5.0, 10.0, 15.0])
net.connect(src, izh, volley.AllToAll(), weight=volley.Uniform(1.0, 2.0), delay_ms=1.0)
net.connect(src, cond, volley.FromList([0, 1], [2, 0]), weight=[3.0, 4.0], delay_ms=[1.0, 2.0], receptor="inhibitory")
net.connect(src, hh, volley.FixedInDegree(2), weight=volley.Normal(5.0, 0.0))
net.connect(izh, izh, volley.FixedTotalNumber(7, allow_autapses=False),
            weight=volley.Normal(0.5, 0.1, low=0.0), delay_ms=volley.Normal(1.5, 0.75, low=0.025))
net.inject(cond, volley.StepCurrent([0.0, 20.0], [500.0, 0.0]))
text = volley.to_json(net, dt_ms=0.05, duration_ms=50.0, seed=3)
back, settings = volley.from_json(text)
check(back == net and settings["dt_ms"] == 0.05, "JSON round trip of every kind of population")
total = volley.Network()
a = total.add_population("a", 5, "lif_exp")
total.connect(a, a, volley.FixedTotalNumber(7, allow_autapses=False), weight=volley.Normal(0.5, 0.1, low=0.0))
check(volley.Simulation(total, dt_ms=0.1, threads=1).stats()["synapses"] == 7, "FixedTotalNumber makes exactly n synapses")
check(repr(volley.Normal(1.5, 0.75, low=0.025)) == "volley.Normal(1.5, 0.75, low=0.025, high=inf)",
      repr(volley.Normal(1.5, 0.75, low=0.025)))
sim = volley.Simulation(total, dt_ms=0.1, threads=1)
rec = sim.record_spikes(a)
sim.run(10.0)
check(repr(sim) == "volley.Simulation(1 populations, 5 neurons, dt_ms=0.1, time_ms=10, threads=1)", repr(sim))
check(repr(rec) == f"volley.SpikeRecorder('a', 5 neurons, {len(rec.steps)} spikes)", repr(rec))
try:
    net.connect(izh, izh, volley.AllToAll(), weight=volley.Normal(0.0, 1.0, low=5.0))
    check(False, "a normal with almost no mass within its bounds is refused")
except volley.Error as e:
    check("0.1%" in str(e), str(e))

with tempfile.TemporaryDirectory() as tmp:
    # A discrete-neuron network out to NIR and back.
    d = volley.Network()
    inp = d.add_population("input", 2, "analog_source", values=[[1.0, 0.5]] * 20)
    lif = d.add_population("lif", 3, "discrete_neuron", tau_mem_ms=2.0, v_threshold=1.0)
    d.connect(inp, lif, volley.AllToAll(), weight=[4.0, 3.0, 2.5, 2.0, 1.0, 3.0], delay_ms=0.1)
    path = os.path.join(tmp, "d.nir")
    volley.save_nir(d, path, dt_s=1e-4)
    loaded, info = volley.load_nir(path, dt_s=1e-4)
    check(info["inputs"] == ["input"], f"NIR inputs {info['inputs']}")

    def run(network):
        sim = volley.Simulation(network, dt_ms=0.1, threads=1)
        r = sim.record_spikes("lif")
        sim.set_input("input", np.tile([1.0, 0.5], (20, 1)))
        sim.run(2.0)
        return np.array(r.steps), np.array(r.node_ids)

    s1, s2 = run(d), run(loaded)
    check(len(s1[0]) > 0 and np.array_equal(s1[0], s2[0]) and np.array_equal(s1[1], s2[1]),
          f"NIR round trip: {len(s1[0])} vs {len(s2[0])} spikes")

# The well-formed fixtures (tests/data/nir/damaged/ holds hostile files for the CLI's tests,
# test_hostile_hdf5_cli, which read them in a child process).
fixtures = sorted(f for f in glob.glob(os.path.join(data_dir(), "nir", "**", "*.nir"), recursive=True)
                  if os.sep + "damaged" + os.sep not in f)
loaded_count = 0
for f in fixtures[:10]:
    try:
        n, info = volley.load_nir(f)
    except volley.Error:
        continue  # some fixtures are there to be refused
    check(n.neuron_count > 0 and info["inputs"], f"{f}: no neurons or inputs")
    loaded_count += 1
check(loaded_count > 0, "no NIR fixture loaded")
print(f"JSON and NIR round trips equal; {loaded_count} NIR fixtures loaded")
