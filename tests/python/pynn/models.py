"""Each conductance-based and nonlinear PyNN cell type under a DCSource and excitatory and
inhibitory input spikes, run unchanged on pyNN.nest and on Volley's backend by test_pynn.py
(their integrators differ, so test_pynn.py compares spike times within a tolerance). Prints the
spike times as JSON."""

import importlib
import json
import sys

backend = sys.argv[1]
sim = importlib.import_module(backend)
extra = {"spike_precision": "on_grid"} if backend == "pyNN.nest" else {}
sim.setup(timestep=0.1, **extra)

cells = {
    "IF_cond_exp": (sim.IF_cond_exp(tau_refrac=2.0), 1.0, 0.02),
    "IF_cond_alpha": (sim.IF_cond_alpha(tau_refrac=2.0), 1.0, 0.02),
    "EIF_cond_exp_isfa_ista": (sim.EIF_cond_exp_isfa_ista(), 0.8, 0.02),
    "HH_cond_exp": (sim.HH_cond_exp(), 0.5, 0.02),
    "Izhikevich": (sim.Izhikevich(), 0.01, 2.0),
    "IF_curr_delta": (sim.IF_curr_delta(tau_refrac=2.0), 0.9, 2.0),
}
inputs = sim.Population(2, sim.SpikeSourceArray(spike_times=[[50.0, 52.0, 54.0, 150.0], [100.0, 101.0]]))
pops = {}
for name, (celltype, current, weight) in cells.items():
    pop = sim.Population(1, celltype, label=name)
    sim.DCSource(amplitude=current, start=20.0, stop=200.0).inject_into(pop)
    sim.Projection(inputs[0:1], pop, sim.AllToAllConnector(), sim.StaticSynapse(weight=weight, delay=1.0),
                   receptor_type="excitatory")
    inh_weight = -weight if name in ("Izhikevich", "IF_curr_delta") else weight
    sim.Projection(inputs[1:2], pop, sim.AllToAllConnector(), sim.StaticSynapse(weight=inh_weight, delay=1.0),
                   receptor_type="inhibitory")
    pop.record("spikes")
    pops[name] = pop
sim.run(250.0)
print("RESULT " + json.dumps({name: [float(t) for t in p.get_data().segments[0].spiketrains[0].magnitude]
                             for name, p in pops.items()}))
sim.end()
