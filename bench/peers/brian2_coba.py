#!/usr/bin/python3
"""The COBA network in Brian2, C++ standalone mode, one thread: the peer of `volley bench coba`.

Same model as volley::snn::coba_network (snn/src/standard_networks.cpp) and Brian2's COBA
example (Brette et al. 2007, benchmark 1): 80 % excitatory and 20 % inhibitory lif_cond_exp
neurons (C 200 pF, g_L 10 nS, E_L -60 mV, v_thresh -50 mV, v_reset -60 mV, t_ref 5 ms,
E_ex 0 mV, E_in -80 mV, tau_e 5 ms, tau_i 10 ms), v(0) ~ N(-65, 5) mV, g_e(0) ~ N(40, 15) nS,
g_i(0) ~ N(200, 120) nS, fixed probability p = min(1, 80/N) with autapses, w_e = 6 nS,
w_i = 67 nS, delay = dt.

  brian2_coba.py --neurons N --method rk4 --dir D [--seed S] [--duration MS]
      generates, compiles and runs D/main once; prints one JSON object with the simulation time
      Brian measured (sim_s), the spike count and the mean rate.
  brian2_coba.py --dir D --reuse
      runs the D/main built before again (the same network and seed): only the simulation.

bench/peers/coba_schemes.sh alternates these runs with `volley bench coba --integrator`.
"""
import argparse
import json
import os
import subprocess
import time
import warnings

warnings.filterwarnings("ignore")


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--neurons", type=int, default=4000)
    ap.add_argument("--duration", type=float, default=1000.0)
    ap.add_argument("--dt", type=float, default=0.1)
    ap.add_argument("--method", default="rk4", choices=["rk4", "rk2", "exponential_euler", "euler"])
    ap.add_argument("--seed", type=int, default=42)
    ap.add_argument("--dir", required=True)
    ap.add_argument("--reuse", action="store_true", help="D/main is already built: only run it")
    a = ap.parse_args()
    if a.reuse:
        print(json.dumps(run(a.dir, a.neurons, a.duration)))
        return
    import brian2 as b
    from brian2 import ms, mV, nS, pF
    t0 = time.time()
    b.set_device("cpp_standalone", directory=a.dir, build_on_run=False)
    b.prefs.devices.cpp_standalone.openmp_threads = 0
    b.defaultclock.dt = a.dt * ms
    b.seed(a.seed)
    ns = dict(Cm=200 * pF, gl=10 * nS, El=-60 * mV, Ee=0 * mV, Ei=-80 * mV, taue=5 * ms, taui=10 * ms,
              Vt=-50 * mV, Vr=-60 * mV)
    eqs = """
    dv/dt = (gl*(El-v) + ge*(Ee-v) + gi*(Ei-v)) / Cm : volt (unless refractory)
    dge/dt = -ge / taue : siemens
    dgi/dt = -gi / taui : siemens
    """
    n = a.neurons
    P = b.NeuronGroup(n, eqs, threshold="v > Vt", reset="v = Vr", refractory=5 * ms, method=a.method, namespace=ns)
    P.v = "El + (randn() * 5 - 5) * mV"
    P.ge = "(randn() * 1.5 + 4) * 10. * nS"
    P.gi = "(randn() * 12 + 20) * 10. * nS"
    n_exc = n * 4 // 5
    prob = min(1.0, 80.0 / n)
    Ce = b.Synapses(P, P, on_pre="ge += 6 * nS", delay=a.dt * ms)
    Ci = b.Synapses(P, P, on_pre="gi += 67 * nS", delay=a.dt * ms)
    Ce.connect(condition=f"i < {n_exc}", p=prob)
    Ci.connect(condition=f"i >= {n_exc}", p=prob)
    count = b.SpikeMonitor(P, record=False)
    b.run(a.duration * ms)
    b.device.build(directory=a.dir, compile=True, run=False, debug=False)
    figures = run(a.dir, n, a.duration)
    figures.update({"version": b.__version__, "method": a.method, "seed": a.seed, "build_s": time.time() - t0})
    print(json.dumps(figures))


def run(directory, neurons, duration_ms):
    """Runs directory/main; the simulation time Brian measured, and the spike count."""
    import glob
    import numpy as np
    subprocess.run([os.path.join(directory, "main")], cwd=directory, check=True, stdout=subprocess.DEVNULL)
    with open(os.path.join(directory, "results", "last_run_info.txt")) as f:
        sim_s = float(f.read().split()[0])
    counts = glob.glob(os.path.join(directory, "results", "_array_spikemonitor_N_*"))
    spikes = int(np.fromfile(counts[0], dtype=np.int32)[0])
    return {"tool": "brian2", "neurons": neurons, "sim_s": sim_s, "spikes": spikes,
            "mean_rate_hz": spikes / (neurons * duration_ms / 1000.0)}


if __name__ == "__main__":
    main()
