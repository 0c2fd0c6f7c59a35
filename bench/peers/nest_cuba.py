#!/usr/bin/env python3
"""The CUBA network in NEST (iaf_psc_exp, one thread): the second peer of `volley bench cuba`.

Same network as volley::snn::cuba_network (snn/src/standard_networks.cpp) and brian2_cuba.py:
80 % excitatory and 20 % inhibitory LIF neurons with exponential currents (tau_m 20 ms,
tau_syn_e 5 ms, tau_syn_i 10 ms, v_rest -49 mV, v_reset -60 mV, v_thresh -50 mV, t_ref 5 ms),
v(0) ~ U(-60, -50) mV, fixed probability p = min(1, 80/N) with autapses, w_e = 1.62 mV,
w_i = -9 mV, delay = dt = 0.1 ms.

Units. Volley's lif_exp (and Brian2's script) write the membrane equation with currents in mV:
    tau_m dv/dt = v_rest - v + i_e + i_i,   a spike of weight w adds w [mV] to i_e or i_i.
NEST's iaf_psc_exp writes it with currents in pA and a capacitance C_m [pF]:
    dV/dt = (E_L - V) / tau_m + (I_ex + I_in) / C_m,   a spike of weight J adds J [pA] to I_ex/I_in.
Dividing Volley's equation by tau_m gives the same form with I / C_m = i / tau_m, so
    I [pA] = i [mV] * C_m [pF] / tau_m [ms]      (pF * mV / ms = pA).
With C_m = tau_m numerically (20 pF for 20 ms, i.e. a membrane resistance of 1 GOhm) a current of
1 pA is 1 mV of Volley's current, and the weights carry over unchanged: J_e = 1.62 pA, J_i = -9 pA.
NEST integrates iaf_psc_exp exactly, in the same order within a step as Volley's CPU engine.

Connectivity. NEST's own `pairwise_bernoulli` rule draws one number per (source, target) pair:
O(N^2) work, 61 s of building at N = 40,000 and hours at 400,000. The script draws the same
distribution, a Bernoulli(p) trial for every pair, in O(synapses): over the pairs of a block
numbered target-major, the gaps between successive connected pairs are independent
Geometric(p) variables (numpy), and connects the resulting arrays with nest.Connect(arrays).
`--connect nest` uses NEST's rule instead (for checking; slow beyond N = 10,000).

  nest_cuba.py params                        prints the parameters as JSON (for the match test):
                                             the shared ones, and what NEST holds ("nest")
  nest_cuba.py run --neurons N --duration MS builds and simulates; prints JSON with build_s,
                                             prepare_s, sim_s, spikes, mean_rate_hz, synapses,
                                             in-degree statistics

Spikes are counted by a spike_recorder (memory backend), as Brian2's script counts them with a
SpikeMonitor and Volley records them: NEST has no cheaper counter. It costs NEST about 20 % at
N = 4,000 (1.41 s against 1.15 s without it, same network, 1 s).

Only nest.Run (the simulation loop) is timed as sim_s; nest.Prepare (kernel and connection
finalisation, the first part of nest.Simulate) is reported apart as prepare_s, and building
(Create + Connect) as build_s. `volley bench peers` runs this script in a child process,
alternating with Volley and Brian2, so the peak RSS it reports is that of this process.
"""
import argparse
import json
import os
import sys
import time

PARAMS = {
    "tau_m_ms": 20.0, "tau_syn_e_ms": 5.0, "tau_syn_i_ms": 10.0,
    "v_rest_mv": -49.0, "v_reset_mv": -60.0, "v_thresh_mv": -50.0, "t_ref_ms": 5.0,
    "v_init_mv": [-60.0, -50.0], "w_e_mv": 60 * 0.27 / 10, "w_i_mv": -20 * 4.5 / 10,
    "exc_fraction": 0.8, "inputs_per_neuron": 80.0, "autapses": True, "delay_steps": 1,
}

# C_m [pF] numerically equal to tau_m [ms]: then 1 pA of NEST current is 1 mV of Volley's.
C_M_PF = PARAMS["tau_m_ms"]
PA_PER_MV = C_M_PF / PARAMS["tau_m_ms"]


def neuron_params():
    """The iaf_psc_exp parameters that realise PARAMS (see the module docstring for the units)."""
    p = PARAMS
    return {"C_m": C_M_PF, "tau_m": p["tau_m_ms"], "tau_syn_ex": p["tau_syn_e_ms"], "tau_syn_in": p["tau_syn_i_ms"],
            "E_L": p["v_rest_mv"], "V_reset": p["v_reset_mv"], "V_th": p["v_thresh_mv"], "t_ref": p["t_ref_ms"],
            "I_e": 0.0}


def weights_pa():
    return PARAMS["w_e_mv"] * PA_PER_MV, PARAMS["w_i_mv"] * PA_PER_MV


def import_nest():
    # NEST prints a banner on stdout on import: drop it (stdout is for the JSON). Import errors
    # still reach stderr.
    stdout = os.dup(1)
    devnull = os.open(os.devnull, os.O_WRONLY)
    os.dup2(devnull, 1)
    os.close(devnull)
    try:
        import nest
    finally:
        sys.stdout.flush()
        os.dup2(stdout, 1)
        os.close(stdout)
    try:
        nest.verbosity = nest.VerbosityLevel.ERROR
    except AttributeError:
        nest.set_verbosity("M_ERROR")
    return nest


def reset(nest, dt_ms, seed):
    nest.ResetKernel()
    nest.local_num_threads = 1
    nest.resolution = dt_ms
    nest.rng_seed = seed


def bernoulli_block(rng, n_src, n_tgt, p, chunk=1 << 21):
    """(source, target) index arrays of a Bernoulli(p) graph over n_src x n_tgt pairs, in chunks:
    pair k = target * n_src + source is connected at k = g1 - 1, g1 + g2 - 1, ... with g ~ Geometric(p)."""
    total = n_src * n_tgt
    last = -1
    while True:
        pos = last + rng.geometric(p, size=chunk).cumsum()
        done = pos[-1] >= total
        pos = pos[pos < total]
        if pos.size:
            last = int(pos[-1])
            yield pos % n_src, pos // n_src
        if done:
            return


def build(nest, neurons, dt_ms, seed, connect):
    import numpy as np
    p = PARAMS
    pop = nest.Create("iaf_psc_exp", neurons, params=neuron_params())
    lo, hi = p["v_init_mv"]
    pop.V_m = nest.random.uniform(lo, hi)
    n_exc = neurons * 4 // 5
    prob = min(1.0, p["inputs_per_neuron"] / neurons)
    w_e, w_i = weights_pa()
    delay = p["delay_steps"] * dt_ms
    blocks = [(pop[:n_exc], w_e), (pop[n_exc:], w_i)]
    indeg = np.zeros(neurons, dtype=np.int64)
    if connect == "nest":
        for src, w in blocks:
            nest.Connect(src, pop, {"rule": "pairwise_bernoulli", "p": prob, "allow_autapses": p["autapses"]},
                         {"synapse_model": "static_synapse", "weight": w, "delay": delay})
        targets = nest.GetConnections(target=pop).get("target")
        indeg += np.bincount(np.asarray(targets) - pop[0].global_id, minlength=neurons)
    else:
        indeg += connect_arrays(nest, pop, blocks, prob, delay, seed)
    return record(nest, pop), indeg


def connect_arrays(nest, pop, blocks, prob, delay, seed):
    """Connects each (source slice, weight) of `blocks` to every neuron of pop with probability
    prob, drawn in O(synapses) (bernoulli_block); returns the in-degrees."""
    import numpy as np
    neurons = len(pop)
    indeg = np.zeros(neurons, dtype=np.int64)
    rng = np.random.default_rng(seed)
    first = pop[0].global_id  # node ids are contiguous
    for src, w in blocks:
        s0 = src[0].global_id
        for s, t in bernoulli_block(rng, len(src), neurons, prob):
            indeg += np.bincount(t, minlength=neurons)
            nest.Connect(s + s0, t + first, "one_to_one",
                         {"synapse_model": "static_synapse", "weight": np.full(s.size, w),
                          "delay": np.full(s.size, delay)})
    return indeg


def record(nest, pop):
    recorder = nest.Create("spike_recorder")
    nest.Connect(pop, recorder)
    return recorder


def timed_run(nest, build, neurons, duration_ms):
    """Times build() (-> recorder, in-degrees), Prepare and Run apart; the figures every NEST
    harness prints."""
    t0 = time.perf_counter()
    recorder, indeg = build()
    t1 = time.perf_counter()
    # nest.Simulate(T) is Prepare(); Run(T); Cleanup(): only Run is the simulation loop.
    nest.Prepare()
    t2 = time.perf_counter()
    nest.Run(duration_ms)
    t3 = time.perf_counter()
    nest.Cleanup()
    spikes = int(recorder.n_events)
    return {"tool": "nest", "version": nest.__version__, "threads": 1, "neurons": neurons, "duration_ms": duration_ms,
            "build_s": t1 - t0, "prepare_s": t2 - t1, "sim_s": t3 - t2,
            "spikes": spikes, "mean_rate_hz": spikes / (neurons * duration_ms / 1000.0),
            "synapses": int(nest.num_connections) - neurons,  # less the recorder's
            "in_degree_mean": float(indeg.mean()), "in_degree_std": float(indeg.std())}


def run(neurons, duration_ms, dt_ms, seed, connect):
    nest = import_nest()
    reset(nest, dt_ms, seed)
    out = timed_run(nest, lambda: build(nest, neurons, dt_ms, seed, connect), neurons, duration_ms)
    out.update(model="iaf_psc_exp", dt_ms=dt_ms, seed=seed, connect=connect)
    return out


def params(dt_ms):
    out = dict(PARAMS, dt_ms=dt_ms, c_m_pf=C_M_PF)
    w_e, w_i = weights_pa()
    out["w_e_pa"], out["w_i_pa"] = w_e, w_i
    try:
        nest = import_nest()
    except ImportError as e:
        out["nest"] = None
        out["nest_error"] = str(e)
        return out
    # What NEST holds after creation, read back (not what this script meant to set).
    reset(nest, dt_ms, 1)
    node = nest.Create("iaf_psc_exp", 1, params=neuron_params())
    keys = ["C_m", "tau_m", "tau_syn_ex", "tau_syn_in", "E_L", "V_reset", "V_th", "t_ref", "I_e"]
    out["nest"] = {k: float(node.get(k)) for k in keys}
    out["nest"]["resolution"] = float(nest.resolution)
    out["nest"]["local_num_threads"] = int(nest.local_num_threads)
    out["nest"]["version"] = nest.__version__
    return out


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("mode", choices=["params", "run"])
    ap.add_argument("--neurons", type=int, default=4000)
    ap.add_argument("--duration", type=float, default=1000.0, help="[ms]")
    ap.add_argument("--dt", type=float, default=0.1, help="[ms]")
    ap.add_argument("--seed", type=int, default=42, help=">= 1 (NEST's rng_seed)")
    ap.add_argument("--connect", choices=["arrays", "nest"], default="arrays",
                    help="arrays: Bernoulli pairs drawn in O(synapses) (default); nest: NEST's pairwise_bernoulli")
    a = ap.parse_args()
    if a.neurons < 10:
        ap.error(f"--neurons {a.neurons}: must be >= 10 (as cuba_network)")
    if a.seed < 1:
        ap.error(f"--seed {a.seed}: NEST's rng_seed must be >= 1")
    out = params(a.dt) if a.mode == "params" else run(a.neurons, a.duration, a.dt, a.seed, a.connect)
    json.dump(out, sys.stdout)
    sys.stdout.write("\n")


if __name__ == "__main__":
    main()
