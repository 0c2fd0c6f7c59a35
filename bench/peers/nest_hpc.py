#!/usr/bin/env python3
"""NEST's hpc_benchmark (pynest/examples/hpc_benchmark.py, NEST 3) with the sizes of
`volley bench hpc`, for a side-by-side run: prints one JSON line with build_s, sim_s and the
mean rate of the E and I neurons.

    python3 bench/peers/nest_hpc.py --scale 1 --duration 100 --threads 1 [--in-degree-scale F]

The network is the script's: iaf_psc_alpha, C_E = 9,000 and C_I = 2,250 (times
--in-degree-scale), fixed in-degree with multapses and no autapses, J_E for a 0.14 mV EPSP,
g = -5, delay 1.5 ms, one poisson_generator at eta = 1.685 times the threshold rate,
stdp_pl_synapse_hom_hpc on E -> E, V_m ~ N(5.7, 7.2) mV. Unlike the script there is no
presimulation (Volley's bench has none either) and every E and I neuron is counted."""
import argparse
import json
import time

import numpy as np
import scipy.special as sp
import nest


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--scale", type=float, default=1.0)
    ap.add_argument("--in-degree-scale", type=float, default=1.0)
    ap.add_argument("--duration", type=float, default=300.0)
    ap.add_argument("--threads", type=int, default=1)
    ap.add_argument("--seed", type=int, default=42)
    ap.add_argument("--static", action="store_true", help="E -> E static at J_E (as volley bench hpc --static)")
    a = ap.parse_args()

    nest.set_verbosity("M_ERROR")
    nest.ResetKernel()
    nest.SetKernelStatus({"local_num_threads": a.threads, "resolution": 0.1, "rng_seed": a.seed})
    tau_syn = 0.32582722403722841
    model = {"E_L": 0.0, "C_m": 250.0, "tau_m": 10.0, "t_ref": 0.5, "V_th": 20.0, "V_reset": 0.0,
             "tau_syn_ex": tau_syn, "tau_syn_in": tau_syn, "tau_minus": 30.0}
    t0 = time.time()
    NE, NI = int(9000 * a.scale), int(2250 * a.scale)
    E = nest.Create("iaf_psc_alpha", NE, params=model)
    I = nest.Create("iaf_psc_alpha", NI, params=model)
    vm = nest.random.normal(5.7, 7.2)
    E.V_m = vm
    I.V_m = vm
    CE = int(int(NE / a.scale) * a.in_degree_scale)
    CI = int(int(NI / a.scale) * a.in_degree_scale)
    tau_m, C_m = 10.0, 250.0
    aa, b = tau_m / tau_syn, 1.0 / tau_syn - 1.0 / tau_m
    t_rise = 1.0 / b * (-sp.lambertw(-np.exp(-1.0 / aa) / aa, k=-1).real - 1.0 / aa)
    v_max = np.exp(1.0) / (tau_syn * C_m * b) * ((np.exp(-t_rise / tau_m) - np.exp(-t_rise / tau_syn)) / b
                                                 - t_rise * np.exp(-t_rise / tau_syn))
    JE_pA = 0.14 / v_max
    CE_full = int(NE / a.scale)
    nu_thresh = 20.0 / (CE_full * tau_m / C_m * JE_pA * np.exp(1.0) * tau_syn)
    drive = nest.Create("poisson_generator", 1, {"rate": 1.685 * nu_thresh * CE_full * 1000.0})
    nest.SetDefaults("static_synapse_hpc", {"delay": 1.5})
    nest.CopyModel("static_synapse_hpc", "syn_ex", {"weight": JE_pA})
    nest.CopyModel("static_synapse_hpc", "syn_in", {"weight": -5.0 * JE_pA})
    nest.SetDefaults("stdp_pl_synapse_hom_hpc", {"delay": 1.5, "alpha": 0.0513, "lambda": 0.1, "mu": 0.4,
                                                 "tau_plus": 15.0, "weight": JE_pA})
    nest.Connect(drive, E, "all_to_all", {"synapse_model": "syn_ex"})
    nest.Connect(drive, I, "all_to_all", {"synapse_model": "syn_ex"})
    conn = lambda k: {"rule": "fixed_indegree", "indegree": k, "allow_autapses": False, "allow_multapses": True}
    nest.Connect(E, E, conn(CE), {"synapse_model": "syn_ex" if a.static else "stdp_pl_synapse_hom_hpc"})
    nest.Connect(I, E, conn(CI), {"synapse_model": "syn_in"})
    nest.Connect(E, I, conn(CE), {"synapse_model": "syn_ex"})
    nest.Connect(I, I, conn(CI), {"synapse_model": "syn_in"})
    rec = nest.Create("spike_recorder")
    nest.Connect(E + I, rec)
    nest.Prepare()
    build_s = time.time() - t0
    t1 = time.time()
    nest.Run(a.duration)
    sim_s = time.time() - t1
    nest.Cleanup()
    n = rec.n_events
    print(json.dumps({"tool": "nest", "version": nest.__version__, "scale": a.scale, "in_degree_scale": a.in_degree_scale,
                      "threads": a.threads, "duration_ms": a.duration, "build_s": build_s, "sim_s": sim_s,
                      "spikes": n, "mean_rate_hz": n / (NE + NI) / (a.duration / 1000.0),
                      "synapses": nest.GetKernelStatus("num_connections"),
                      "spikes_per_10_ms": np.bincount((np.asarray(rec.events["times"]) // 10).astype(int)).tolist()}))


if __name__ == "__main__":
    main()
