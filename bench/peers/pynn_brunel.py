"""A Brunel network (Brunel 2000, J Comput Neurosci 8:183; model A, scaled down) as one PyNN
script, run unchanged on pyNN.nest and pyNN.volley:

    python3 bench/peers/pynn_brunel.py pyNN.nest [--seeds 1 2 3] [--n N] [--time T]
    python3 bench/peers/pynn_brunel.py volley.pynn [--seeds 1 2 3] ...

N IF_curr_delta neurons (80 % excitatory), each with C_E = 0.1·N_E excitatory and
C_I = 0.1·N_I inhibitory inputs (FixedNumberPreConnector), J·C_E = 100 mV, relative inhibition
g = 5, external Poisson drive η = ν_ext/ν_thr = 2 (one SpikeSourcePoisson per neuron at
C_E·η·ν_thr, weight J), delay 1.5 ms, θ = 20 mV, V_reset = 10 mV, τ_m = 20 ms, τ_ref = 2 ms.
Inhibitory weights are negative, PyNN's convention for current-based synapses. The recurrent
projections target `exc` and `inh` separately: onto the Assembly `exc + inh` (--assembly), pyNN.nest
0.13 connects IF_curr_delta weights 1000 times too large (its Projection undoes the nA -> pA
factor with the cell type's receptor_scale only `if hasattr(self.post, "celltype")`, which an
Assembly lacks: 1.25 mV becomes 1250 mV), and the network fires at the refractory limit. Initial
V is uniform in [V_reset, θ), set on the NEST nodes directly for pyNN.nest (see below); the first
`--transient` ms are left out of the statistics.

Each seed draws its own connectivity, Poisson input and initial V. Prints one line
"RESULT {json}" per seed: the mean rate [Hz] and the mean CV of the inter-spike intervals of the
excitatory neurons (those with at least 3 spikes after the transient), build and run times [s].
tests/python/test_pynn_brunel.py compares the two backends over several seeds."""

import argparse
import importlib
import json
import time

import numpy as np

parser = argparse.ArgumentParser()
parser.add_argument("backend")
parser.add_argument("--seeds", type=int, nargs="+", default=[1])
parser.add_argument("--n", type=int, default=1000)
parser.add_argument("--time", type=float, default=1000.0, help="[ms] simulated")
parser.add_argument("--transient", type=float, default=200.0, help="[ms] left out of the statistics")
parser.add_argument("--g", type=float, default=5.0)
parser.add_argument("--eta", type=float, default=2.0)
parser.add_argument("--assembly", action="store_true",
                    help="project onto the Assembly exc + inh, as PyNN users write it: pyNN.nest 0.13 then "
                         "connects IF_curr_delta with 1000 times the weights (see the docstring)")
args = parser.parse_args()
sim = importlib.import_module(args.backend)


def brunel(seed):
    t0 = time.perf_counter()
    extra = {"spike_precision": "on_grid"} if args.backend == "pyNN.nest" else {}
    sim.setup(timestep=0.1, min_delay=0.1, max_delay=10.0, rng_seed=seed, **extra)  # seeds the Poisson sources

    n_e = int(round(0.8 * args.n))
    n_i = args.n - n_e
    c_e, c_i = int(round(0.1 * n_e)), int(round(0.1 * n_i))
    theta, tau_m, delay = 20.0, 20.0, 1.5
    J = 100.0 / c_e                              # [mV] J·C_E = 100 mV
    nu_thr = theta / (J * c_e * tau_m)           # [1/ms]
    rate_ext = args.eta * nu_thr * c_e * 1000.0  # [Hz] per neuron

    cell = sim.IF_curr_delta(tau_m=tau_m, cm=1.0, v_rest=0.0, v_reset=10.0, v_thresh=theta, tau_refrac=2.0,
                             i_offset=0.0)
    exc = sim.Population(n_e, cell, label="exc")
    inh = sim.Population(n_i, cell, label="inh")
    cells = exc + inh
    noise = sim.Population(args.n, sim.SpikeSourcePoisson(rate=rate_ext), label="noise")

    rng = sim.NumpyRNG(seed=seed)
    for target in ([cells] if args.assembly else [exc, inh]):
        sim.Projection(exc, target, sim.FixedNumberPreConnector(c_e, rng=rng),
                       sim.StaticSynapse(weight=J, delay=delay), receptor_type="excitatory")
        sim.Projection(inh, target, sim.FixedNumberPreConnector(c_i, rng=rng),
                       sim.StaticSynapse(weight=-args.g * J, delay=delay), receptor_type="inhibitory")
    for pop, part in ((exc, noise[:n_e]), (inh, noise[n_e:])):
        sim.Projection(part, pop, sim.OneToOneConnector(), sim.StaticSynapse(weight=J, delay=delay),
                       receptor_type="excitatory")
    # V uniform in [V_reset, θ) on both backends, from one NumPy stream. pyNN.nest 0.13 drops
    # initialize(v=...) for IF_curr_delta (no variable_map: "NEST does not allow setting an
    # initial value for v", and V_m stays at NEST's -70 mV), so it is set on the NEST nodes.
    v0 = np.random.default_rng(seed).uniform(10.0, theta, args.n)
    for pop, values in ((exc, v0[:n_e]), (inh, v0[n_e:])):
        if args.backend == "pyNN.nest":
            pop.node_collection.set(V_m=values)
        else:
            pop.initialize(v=values)
    exc.record("spikes")
    build_s = time.perf_counter() - t0

    t0 = time.perf_counter()
    sim.run(args.time)
    run_s = time.perf_counter() - t0

    trains = [np.asarray(st.magnitude) for st in exc.get_data().segments[0].spiketrains]
    span_s = (args.time - args.transient) / 1000.0
    late = [t[t >= args.transient] for t in trains]
    rate = float(np.mean([len(t) for t in late]) / span_s)
    cvs = [np.std(np.diff(t)) / np.mean(np.diff(t)) for t in late if len(t) >= 3]
    sim.end()
    return {"backend": args.backend, "seed": seed, "n": args.n, "g": args.g, "eta": args.eta, "rate_hz": rate,
            "cv": float(np.mean(cvs)) if cvs else float("nan"), "build_s": build_s, "run_s": run_s}


for seed in args.seeds:
    print("RESULT " + json.dumps(brunel(seed)), flush=True)
