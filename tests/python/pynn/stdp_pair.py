"""The STDP pair protocol as one PyNN script, run unchanged on pyNN.nest and on Volley's backend
(test_pynn_stdp.py runs it in a child process per backend and checks the result against the
analytic pair rule).

Thirteen pre/post pairs, one per spike-time difference: pair k's pre neuron (a SpikeSourceArray)
fires at 100, 400 and 700 ms, and a driver (another SpikeSourceArray, with a strong static
synapse) makes its post neuron (IF_curr_exp) fire about `lags[k]` ms later; a last pre spike at
1100 ms makes NEST, which updates a weight only at pre spikes, apply the potentiation of the last
post spikes. Each pre neuron reaches its post neuron through three plastic synapses, one per
weight dependence (additive, multiplicative, additive potentiation with multiplicative
depression), delay 1 ms, all of it dendritic (PyNN's default, the only choice NEST has): the
post spike 0.6 ms before the pre spike (lag -0.5) then counts as Δt = +0.4 ms, potentiation.
The plastic weights (at most 0.01 nA) hardly move the post neuron, whose spikes the driver sets.
An optional second argument sets dendritic_delay_fraction (Volley honours 0.5 to 1, NEST 1).
Prints the recorded spike times and the final weights as JSON."""

import importlib
import json
import sys

backend = sys.argv[1]
fraction = float(sys.argv[2]) if len(sys.argv) > 2 else 1.0
sim = importlib.import_module(backend)
extra = {"spike_precision": "on_grid"} if backend == "pyNN.nest" else {}
sim.setup(timestep=0.1, min_delay=0.1, **extra)

lags = [-50.0, -30.0, -20.0, -10.0, -5.0, -2.5, -0.5, 2.5, 5.0, 10.0, 20.0, 30.0, 50.0]  # post - pre [ms], about
pairings = [100.0, 400.0, 700.0]
flush = 1100.0
latency = 0.3  # [ms] driver spike -> post spike (delay 0.1 ms + the rise to threshold, about)
delay = 1.0    # [ms] of the plastic synapses
n = len(lags)

pre = sim.Population(n, sim.SpikeSourceArray(spike_times=[pairings + [flush] for _ in lags]), label="pre")
driver = sim.Population(n, sim.SpikeSourceArray(spike_times=[[t + lag - latency for t in pairings] for lag in lags]),
                        label="driver")
post = sim.Population(n, sim.IF_curr_exp(tau_m=10.0, cm=1.0, v_rest=-65.0, v_reset=-65.0, v_thresh=-55.0,
                                         tau_refrac=2.0, tau_syn_E=0.5, tau_syn_I=0.5), label="post")
sim.Projection(driver, post, sim.OneToOneConnector(), sim.StaticSynapse(weight=200.0, delay=0.1),
               receptor_type="excitatory")

w_max, w0 = 0.01, 0.005
rule = dict(tau_plus=20.0, tau_minus=30.0, A_plus=0.05, A_minus=0.06)
dependences = {"additive": sim.AdditiveWeightDependence, "multiplicative": sim.MultiplicativeWeightDependence,
               "additive_potentiation": sim.AdditivePotentiationMultiplicativeDepression}
projections = {}
for name, dependence in dependences.items():
    stdp = sim.STDPMechanism(timing_dependence=sim.SpikePairRule(**rule),
                             weight_dependence=dependence(w_min=0.0, w_max=w_max), weight=w0, delay=delay,
                             dendritic_delay_fraction=fraction)
    projections[name] = sim.Projection(pre, post, sim.OneToOneConnector(), stdp, receptor_type="excitatory")

pre.record("spikes")
post.record("spikes")
sim.run(flush + 50.0)


def trains(pop):
    return [[float(t) for t in st.magnitude] for st in
            sorted(pop.get_data().segments[0].spiketrains, key=lambda st: st.annotations["source_index"])]


out = {"lags": lags, "delay": delay, "fraction": fraction, "w0": w0, "w_max": w_max, "rule": rule, "pre": trains(pre),
       "post": trains(post), "weights": {}}
for name, prj in projections.items():
    w = prj.get("weight", format="array")
    out["weights"][name] = [float(w[k, k]) for k in range(n)]
print("RESULT " + json.dumps(out))
sim.end()
