"""One PyNN script, run unchanged on pyNN.nest and on Volley's backend (test_pynn.py runs it in
a child process per backend): IF_curr_exp neurons under a bias, a StepCurrentSource and a
DCSource, and an IF_curr_alpha neuron driven by a SpikeSourceArray. Prints the spikes and the
v traces as JSON."""

import importlib
import json
import sys

backend = sys.argv[1]
sim = importlib.import_module(backend)
extra = {"spike_precision": "on_grid"} if backend == "pyNN.nest" else {}  # both on the dt grid
sim.setup(timestep=0.1, **extra)

lif = sim.Population(3, sim.IF_curr_exp(tau_m=10.0, cm=1.0, v_rest=-70.0, v_reset=-70.0, v_thresh=-55.0,
                                        tau_refrac=2.0, tau_syn_E=5.0, tau_syn_I=5.0, i_offset=[0.0, 2.0, 0.0]))
sim.StepCurrentSource(times=[20.0, 60.0], amplitudes=[2.0, 0.5]).inject_into(lif[0:1])
sim.DCSource(amplitude=1.7, start=10.0, stop=80.0).inject_into(lif[2:3])
alpha = sim.Population(1, sim.IF_curr_alpha(tau_m=20.0, cm=0.5, v_rest=-65.0, v_reset=-65.0, v_thresh=-60.0,
                                             tau_refrac=1.0, tau_syn_E=2.0, tau_syn_I=2.0))
source = sim.Population(1, sim.SpikeSourceArray(spike_times=[5.0, 10.0, 12.0, 30.0, 31.0, 32.0, 33.0]))
sim.Projection(source, alpha, sim.AllToAllConnector(), sim.StaticSynapse(weight=0.8, delay=1.0),
               receptor_type="excitatory")
lif.record(["spikes", "v"])
alpha.record(["spikes", "v"])
sim.run(100.0)

out = {}
for name, pop in (("lif", lif), ("alpha", alpha)):
    seg = pop.get_data().segments[0]
    out[name] = {"spikes": [[float(t) for t in st.magnitude] for st in seg.spiketrains],
                 "v": [[float(x) for x in row] for row in seg.filter(name="v")[0].magnitude.T]}
print("RESULT " + json.dumps(out))
sim.end()
