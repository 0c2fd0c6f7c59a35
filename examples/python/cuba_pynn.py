"""The CUBA network (Vogels & Abbott 2005; examples/python/cuba.py) written for PyNN, so that it
runs unchanged on any PyNN backend:

    python3 examples/python/cuba_pynn.py               # Volley's backend (volley.pynn)
    python3 examples/python/cuba_pynn.py pyNN.nest     # NEST, for comparison

Weights are CUBA's 1.62 mV and -9 mV as currents, through R = tau_m / cm = 20 MOhm. Prints the
mean rates, and one line "RESULT {json}" with every neuron's rate (tests/python/test_pynn.py
compares the backends with it)."""

import importlib
import json
import sys

backend = sys.argv[1] if len(sys.argv) > 1 else "volley.pynn"
try:
    sim = importlib.import_module(backend)
except ImportError as e:
    # volley.pynn is PyNN's API on Volley: it needs PyNN itself (scripts/setup --peers installs it).
    sys.exit(f"cuba_pynn.py: cannot import {backend}: {e}\n"
             "PyNN is an optional peer: install it with scripts/setup --peers (or pip install PyNN), "
             "or run examples/python/cuba.py, the same network on the volley module alone.")
extra = {"spike_precision": "on_grid"} if backend == "pyNN.nest" else {"threads": 2}
sim.setup(timestep=0.1, min_delay=0.1, **extra)
n_exc, n_inh, duration = 3200, 800, 1000.0
cell = sim.IF_curr_exp(tau_m=20.0, cm=1.0, v_rest=-49.0, v_reset=-60.0, v_thresh=-50.0, tau_refrac=5.0,
                       tau_syn_E=5.0, tau_syn_I=10.0)
exc = sim.Population(n_exc, cell, label="exc")
inh = sim.Population(n_inh, cell, label="inh")
rng = sim.NumpyRNG(seed=12345)
for pop in (exc, inh):
    pop.initialize(v=sim.RandomDistribution("uniform", (-60.0, -50.0), rng=rng))
connector = sim.FixedProbabilityConnector(0.02, rng=rng)
for target in (exc, inh):
    sim.Projection(exc, target, connector, sim.StaticSynapse(weight=1.62 / 20.0, delay=0.1), receptor_type="excitatory")
    sim.Projection(inh, target, connector, sim.StaticSynapse(weight=-9.0 / 20.0, delay=0.1), receptor_type="inhibitory")
exc.record("spikes")
inh.record("spikes")
sim.run(duration)
rates = {}
for pop in (exc, inh):
    counts = [len(st) for st in pop.get_data().segments[0].spiketrains]
    rates[pop.label] = [c / (duration / 1000.0) for c in counts]
for label, r in rates.items():
    print(f"{label}: {sum(r) / len(r):.2f} Hz on {backend}")
print("RESULT " + json.dumps(rates))
sim.end()
