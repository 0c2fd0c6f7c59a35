#!/usr/bin/env python3
"""The COBA network in NEST (iaf_cond_exp, one thread): the NEST peer of `volley bench coba`.

Same network as volley::snn::coba_network (snn/src/standard_networks.cpp) and brian2_coba.py:
80 % excitatory and 20 % inhibitory conductance-based LIF neurons (C 200 pF, g_L 10 nS,
E_L -60 mV, v_thresh -50 mV, v_reset -60 mV, t_ref 5 ms, E_ex 0 mV, E_in -80 mV, tau_e 5 ms,
tau_i 10 ms), v(0) ~ N(-65, 5) mV, g_e(0) ~ N(40, 15) nS, g_i(0) ~ N(200, 120) nS, fixed
probability p = min(1, 80/N) with autapses, w_e = 6 nS, w_i = 67 nS (NEST takes inhibitory
conductance jumps as negative weights), delay = dt = 0.1 ms.

NEST integrates iaf_cond_exp with GSL's adaptive RKF45 per neuron (its own tolerances), so its
row compares with Volley's `adaptive` scheme; the connectivity is drawn in O(synapses) as in
nest_cuba.py (same distribution as NEST's pairwise_bernoulli).

  nest_coba.py run --neurons N --duration MS [--seed S]   builds and simulates; prints JSON
      with build_s, prepare_s, sim_s, spikes, mean_rate_hz, synapses, in-degree statistics
  nest_coba.py params     the iaf_cond_exp parameters a NEST node holds once created, and the
                          weights (for the match test)
"""
import argparse
import json
import sys

from nest_cuba import connect_arrays, import_nest, record, reset, timed_run

NEURON = {"C_m": 200.0, "g_L": 10.0, "E_L": -60.0, "V_reset": -60.0, "V_th": -50.0, "t_ref": 5.0,
          "E_ex": 0.0, "E_in": -80.0, "tau_syn_ex": 5.0, "tau_syn_in": 10.0, "I_e": 0.0}
W_E_NS, W_I_NS = 6.0, 67.0


def build(nest, neurons, dt_ms, seed):
    pop = nest.Create("iaf_cond_exp", neurons, params=NEURON)
    pop.V_m = nest.random.normal(-65.0, 5.0)
    pop.g_ex = nest.random.normal(40.0, 15.0)
    pop.g_in = nest.random.normal(200.0, 120.0)
    n_exc = neurons * 4 // 5
    prob = min(1.0, 80.0 / neurons)
    indeg = connect_arrays(nest, pop, ((pop[:n_exc], W_E_NS), (pop[n_exc:], -W_I_NS)), prob, dt_ms, seed)
    return record(nest, pop), indeg


def run(neurons, duration_ms, dt_ms, seed):
    nest = import_nest()
    reset(nest, dt_ms, seed)
    out = timed_run(nest, lambda: build(nest, neurons, dt_ms, seed), neurons, duration_ms)
    out.update(model="iaf_cond_exp", dt_ms=dt_ms, seed=seed)
    return out


def params(dt_ms):
    nest = import_nest()
    reset(nest, dt_ms, 1)
    node = nest.Create("iaf_cond_exp", 1, params=NEURON)
    held = {k: float(node.get(k)) for k in NEURON}  # read back, not what this script meant to set
    held.update(resolution=float(nest.resolution), version=nest.__version__)
    return {"nest": held, "w_e_ns": W_E_NS, "w_i_ns": W_I_NS, "delay_ms": dt_ms}


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("mode", choices=["run", "params"])
    ap.add_argument("--neurons", type=int, default=4000)
    ap.add_argument("--duration", type=float, default=1000.0, help="[ms]")
    ap.add_argument("--dt", type=float, default=0.1, help="[ms]")
    ap.add_argument("--seed", type=int, default=42, help=">= 1 (NEST's rng_seed)")
    a = ap.parse_args()
    if a.neurons < 10:
        ap.error(f"--neurons {a.neurons}: must be >= 10 (as coba_network)")
    if a.seed < 1:
        ap.error(f"--seed {a.seed}: NEST's rng_seed must be >= 1")
    out = params(a.dt) if a.mode == "params" else run(a.neurons, a.duration, a.dt, a.seed)
    json.dump(out, sys.stdout)
    sys.stdout.write("\n")


if __name__ == "__main__":
    main()
