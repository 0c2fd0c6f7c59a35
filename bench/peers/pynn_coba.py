"""The Vogels-Abbott COBA benchmark (Vogels & Abbott 2005; Brette et al. 2007, benchmark 1) as
one PyNN script, run unchanged on pyNN.nest and pyNN.volley:

    python3 bench/peers/pynn_coba.py pyNN.nest [--seeds 1 2 3] [--n 4000] [--time 1000]
    python3 bench/peers/pynn_coba.py volley.pynn [--seeds 1 2 3] ...

The network of PyNN's own examples/VAbenchmarks.py (COBA): N = 4,000 IF_cond_exp cells, 80 %
excitatory, FixedProbabilityConnector p = 0.02 (exc -> exc, exc -> inh, inh -> exc, inh -> inh),
tau_m 20 ms, cm 0.2 nF (20,000 um^2 at 1 uF/cm^2, g_leak 10 nS), v_rest -60 mV, v_thresh -50 mV,
v_reset -60 mV, tau_refrac 5 ms, e_rev_E 0 mV, e_rev_I -80 mV, tau_syn_E 5 ms, tau_syn_I 10 ms,
delay 0.2 ms, initial v uniform in [v_reset, v_thresh). Weights: --weights pynn (default) takes
VAbenchmarks.py's 4 nS / 51 nS; --weights brette takes 6 nS / 67 nS (Brette et al. 2007's
rescaling for 4,000 cells; Brian's COBA example, `volley bench coba`). The initial kick is
VAbenchmarks.py's: 20 SpikeSourcePoisson at 100 Hz for the first 50 ms, each projecting to a cell
with probability 0.01 at 0.1 uS (excitatory). Every projection targets a Population (exc or inh),
never an Assembly: pyNN.nest 0.13 loses the weight conversion onto Assemblies for some cell types
(docs/python.md).

Integrators differ: pyNN.volley's IF_cond_exp is Volley's lif_cond_exp with its default rk4
scheme (fixed step 0.1 ms), NEST's iaf_cond_exp is integrated by GSL's adaptive RKF45, so spike
times differ and only the statistics can be compared.

Each seed draws its own connectivity, kick and initial v. Prints one line "RESULT {json}" per
seed: the mean rate [Hz] of the excitatory and of the inhibitory cells, and the mean CV of the
inter-spike intervals of the excitatory cells with at least 3 spikes, all after the first
--transient ms; build and run times [s]. tests/python/test_pynn_coba.py compares the backends."""

import argparse
import importlib
import json
import time

import numpy as np

parser = argparse.ArgumentParser()
parser.add_argument("backend")
parser.add_argument("--seeds", type=int, nargs="+", default=[1])
parser.add_argument("--n", type=int, default=4000)
parser.add_argument("--time", type=float, default=1000.0, help="[ms] simulated")
parser.add_argument("--transient", type=float, default=100.0, help="[ms] left out of the statistics")
parser.add_argument("--weights", choices=("pynn", "brette"), default="pynn")
args = parser.parse_args()
sim = importlib.import_module(args.backend)


def coba(seed):
    t0 = time.perf_counter()
    extra = {"spike_precision": "on_grid"} if args.backend == "pyNN.nest" else {}
    delay = 0.2
    sim.setup(timestep=0.1, min_delay=0.1, max_delay=delay, rng_seed=seed, **extra)  # seeds the Poisson kick

    n_exc = int(round(args.n * 0.8))
    n_inh = args.n - n_exc
    w_exc, w_inh = (0.004, 0.051) if args.weights == "pynn" else (0.006, 0.067)  # [uS]
    cell = sim.IF_cond_exp(tau_m=20.0, cm=0.2, v_rest=-60.0, v_thresh=-50.0, v_reset=-60.0, tau_refrac=5.0,
                           e_rev_E=0.0, e_rev_I=-80.0, tau_syn_E=5.0, tau_syn_I=10.0, i_offset=0.0)
    exc = sim.Population(n_exc, cell, label="exc")
    inh = sim.Population(n_inh, cell, label="inh")
    kick = sim.Population(20, sim.SpikeSourcePoisson(rate=100.0, start=0.0, duration=50.0), label="kick")

    rng = sim.NumpyRNG(seed=seed)
    for pop in (exc, inh):
        pop.initialize(v=sim.RandomDistribution("uniform", (-60.0, -50.0), rng=rng))
    for target in (exc, inh):
        sim.Projection(exc, target, sim.FixedProbabilityConnector(0.02, rng=rng),
                       sim.StaticSynapse(weight=w_exc, delay=delay), receptor_type="excitatory")
        sim.Projection(inh, target, sim.FixedProbabilityConnector(0.02, rng=rng),
                       sim.StaticSynapse(weight=w_inh, delay=delay), receptor_type="inhibitory")
        sim.Projection(kick, target, sim.FixedProbabilityConnector(0.01, rng=rng),
                       sim.StaticSynapse(weight=0.1, delay=delay), receptor_type="excitatory")
    exc.record("spikes")
    inh.record("spikes")
    build_s = time.perf_counter() - t0

    t0 = time.perf_counter()
    sim.run(args.time)
    run_s = time.perf_counter() - t0

    span_s = (args.time - args.transient) / 1000.0
    out = {"backend": args.backend, "seed": seed, "n": args.n, "weights": args.weights}
    for name, pop in (("exc", exc), ("inh", inh)):
        trains = [np.asarray(st.magnitude) for st in pop.get_data().segments[0].spiketrains]
        late = [t[t >= args.transient] for t in trains]
        out[f"rate_{name}_hz"] = float(np.mean([len(t) for t in late]) / span_s)
        if name == "exc":
            cvs = [np.std(np.diff(t)) / np.mean(np.diff(t)) for t in late if len(t) >= 3]
            out["cv"] = float(np.mean(cvs)) if cvs else float("nan")
    sim.end()
    out.update(build_s=build_s, run_s=run_s)
    return out


for seed in args.seeds:
    print("RESULT " + json.dumps(coba(seed)), flush=True)
