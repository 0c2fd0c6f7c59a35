#!/usr/bin/env python3
"""The Potjans-Diesmann microcircuit in NEST 3, built as `volley bench microcircuit` builds it
(snn/src/microcircuit_network.cpp; the model of NEST's pynest/examples/Potjans_2014), for a
side-by-side run: prints one JSON line with build_s, sim_s and each population's rate after
the transient.

    python3 bench/peers/nest_microcircuit.py --scale 0.1 [--in-degree-scale K] [--drive dc]
        [--duration 1000] [--transient 500] [--threads 2] [--seed 42]

iaf_psc_exp (C_m = 250 pF, tau_m = 10 ms, tau_syn = 0.5 ms, E_L = V_reset = -65 mV,
V_th = -50 mV, t_ref = 2 ms); fixed_total_number with log(1 - p) / log(1 - 1/(N_pre N_post))
synapses times scale x in-degree scale; weights ~ N(w, 0.1 |w|) redrawn to keep their sign,
delays ~ N(d, d/2) redrawn below dt/2; one poisson_generator per population at 8 Hz x K_ext,
or the DC current of the same mean; with in-degree scale K < 1 weights x 1/sqrt(K) and a DC
current for the lost mean input (NEST's adjust_weights_and_input_to_synapse_scaling)."""
import argparse
import json
import time

import numpy as np
import nest

NAMES = ["L23E", "L23I", "L4E", "L4I", "L5E", "L5I", "L6E", "L6I"]
N_FULL = np.array([20683, 5834, 21915, 5479, 4850, 1065, 14395, 2948], dtype=float)
RATES_FULL = np.array([0.943, 3.026, 4.368, 5.882, 7.733, 8.664, 1.096, 7.851])
P = np.array([[0.1009, 0.1689, 0.0437, 0.0818, 0.0323, 0., 0.0076, 0.],
              [0.1346, 0.1371, 0.0316, 0.0515, 0.0755, 0., 0.0042, 0.],
              [0.0077, 0.0059, 0.0497, 0.135, 0.0067, 0.0003, 0.0453, 0.],
              [0.0691, 0.0029, 0.0794, 0.1597, 0.0033, 0., 0.1057, 0.],
              [0.1004, 0.0622, 0.0505, 0.0057, 0.0831, 0.3726, 0.0204, 0.],
              [0.0548, 0.0269, 0.0257, 0.0022, 0.06, 0.3158, 0.0086, 0.],
              [0.0156, 0.0066, 0.0211, 0.0166, 0.0572, 0.0197, 0.0396, 0.2252],
              [0.0364, 0.001, 0.0034, 0.0005, 0.0277, 0.008, 0.0658, 0.1443]])
K_EXT = np.array([1600, 1500, 2100, 1900, 2000, 1900, 2900, 2100], dtype=float)
V0_MEAN = [-68.28, -63.16, -63.33, -63.45, -63.11, -61.66, -66.72, -61.43]
V0_SD = [5.36, 4.57, 4.74, 4.94, 4.94, 4.55, 5.46, 4.48]
C_M, TAU_M, TAU_SYN = 250.0, 10.0, 0.5


def psc_per_psp():
    """Peak PSC [pA] whose PSP at rest peaks at 1 mV (exponential current, exact)."""
    sub = 1.0 / (TAU_SYN - TAU_M)
    frac = (TAU_M / TAU_SYN) ** sub
    return 1.0 / (TAU_M * TAU_SYN / C_M * sub * (frac ** TAU_M - frac ** TAU_SYN))


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--scale", type=float, default=0.1)
    ap.add_argument("--in-degree-scale", type=float, default=0.0, help="default: --scale")
    ap.add_argument("--drive", choices=["poisson", "dc"], default="poisson")
    ap.add_argument("--duration", type=float, default=1000.0)
    ap.add_argument("--transient", type=float, default=500.0)
    ap.add_argument("--threads", type=int, default=1)
    ap.add_argument("--seed", type=int, default=42)
    ap.add_argument("--dt", type=float, default=0.1)
    a = ap.parse_args()
    k = a.in_degree_scale if a.in_degree_scale > 0 else a.scale
    poisson = a.drive == "poisson"

    prod = np.outer(N_FULL, N_FULL)
    with np.errstate(divide="ignore"):
        syn_full = np.log(1.0 - P) / np.log((prod - 1.0) / prod)
    w = 0.15 * psc_per_psp()
    w_mat = np.tile([w, -4 * w], (8, 4))
    w_mat[0, 2] *= 2
    dc = np.zeros(8) if poisson else 8.0 * K_EXT * w * TAU_SYN * 1e-3
    if k != 1:
        input_rec = np.sum(w_mat * syn_full / N_FULL[:, None] * RATES_FULL, axis=1)
        dc = dc + 1e-3 * TAU_SYN * (1 - np.sqrt(k)) * input_rec
        if poisson:
            dc = dc + 1e-3 * TAU_SYN * (1 - np.sqrt(k)) * w * K_EXT * 8.0

    nest.set_verbosity("M_ERROR")
    nest.ResetKernel()
    nest.SetKernelStatus({"local_num_threads": a.threads, "resolution": a.dt, "rng_seed": a.seed})
    t0 = time.time()
    pops = []
    for i in range(8):
        pop = nest.Create("iaf_psc_exp", int(round(N_FULL[i] * a.scale)),
                          {"C_m": C_M, "tau_m": TAU_M, "tau_syn_ex": TAU_SYN, "tau_syn_in": TAU_SYN,
                           "E_L": -65.0, "V_reset": -65.0, "V_th": -50.0, "t_ref": 2.0, "I_e": dc[i]})
        pop.V_m = nest.random.normal(V0_MEAN[i], V0_SD[i])
        pops.append(pop)
    for i in range(8):
        for j in range(8):
            n = int(round(syn_full[i, j] * a.scale * k))
            if n == 0:
                continue
            wij = w_mat[i, j] / np.sqrt(k)
            d = 1.5 if j % 2 == 0 else 0.75
            weight = nest.math.redraw(nest.random.normal(wij, abs(wij) * 0.1),
                                      min=0.0 if wij > 0 else -np.inf, max=np.inf if wij > 0 else 0.0)
            delay = nest.math.redraw(nest.random.normal(d, d * 0.5), min=0.5 * a.dt, max=np.inf)
            nest.Connect(pops[j], pops[i], {"rule": "fixed_total_number", "N": n},
                         {"synapse_model": "static_synapse", "weight": weight, "delay": delay})
    if poisson:
        for i in range(8):
            pg = nest.Create("poisson_generator", 1, {"rate": 8.0 * round(K_EXT[i] * k)})
            nest.Connect(pg, pops[i], "all_to_all", {"weight": w / np.sqrt(k), "delay": 1.5})
    recs = []
    for pop in pops:
        rec = nest.Create("spike_recorder", 1, {"start": a.transient})
        nest.Connect(pop, rec)
        recs.append(rec)
    nest.Prepare()
    build_s = time.time() - t0
    t1 = time.time()
    nest.Run(a.transient + a.duration)
    sim_s = time.time() - t1
    nest.Cleanup()
    rates = [rec.n_events / len(pop) / (a.duration / 1000.0) for rec, pop in zip(recs, pops)]
    print(json.dumps({"tool": "nest", "version": nest.__version__, "scale": a.scale, "in_degree_scale": k,
                      "drive": a.drive, "threads": a.threads, "seed": a.seed, "duration_ms": a.duration,
                      "transient_ms": a.transient, "build_s": build_s, "sim_s": sim_s,
                      "synapses": nest.GetKernelStatus("num_connections"),
                      "rates_hz": dict(zip(NAMES, rates))}))


if __name__ == "__main__":
    main()
