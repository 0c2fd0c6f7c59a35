#!/usr/bin/python3
"""The CUBA network in Brian2, C++ standalone mode, one thread: the peer of `volley bench cuba`.

Same model as volley::snn::cuba_network (snn/src/standard_networks.cpp): 80 % excitatory and
20 % inhibitory LIF neurons with exponential currents (tau_m 20 ms, tau_e 5 ms, tau_i 10 ms,
v_rest -49 mV, v_reset -60 mV, v_thresh -50 mV, t_ref 5 ms), v(0) ~ U(-60, -50) mV, fixed
probability p = min(1, 80/N) with autapses, w_e = 1.62 mV, w_i = -9 mV, delay = dt.

  brian2_cuba.py params                      prints the parameters as JSON (for the match test)
  brian2_cuba.py build --neurons N --dir D   generates and compiles D/main (not run); prints JSON
                                             with the code-generation + compile time
  brian2_cuba.py rate --neurons N --duration MS   runs in runtime mode (numpy, no compiler) and
                                             prints the mean rate: the quick check of the tests
  brian2_cuba.py summary --dir D             after D/main has run: prints JSON with the spike
                                             count, the simulation time Brian measured and the
                                             in-degree statistics

`volley bench peers` runs D/main itself, alternating with Volley, so that only the simulation
is timed and the peak RSS is that of the simulating process.
"""
import argparse
import glob
import json
import os
import sys
import time
import warnings

warnings.filterwarnings("ignore")

PARAMS = {
    "tau_m_ms": 20.0, "tau_syn_e_ms": 5.0, "tau_syn_i_ms": 10.0,
    "v_rest_mv": -49.0, "v_reset_mv": -60.0, "v_thresh_mv": -50.0, "t_ref_ms": 5.0,
    "v_init_mv": [-60.0, -50.0], "w_e_mv": 60 * 0.27 / 10, "w_i_mv": -20 * 4.5 / 10,
    "exc_fraction": 0.8, "inputs_per_neuron": 80.0, "autapses": True, "delay_steps": 1,
}


def build(neurons, duration_ms, dt_ms, directory, seed, runtime=False):
    import brian2 as b
    from brian2 import ms, mV
    t0 = time.time()
    if runtime:
        b.prefs.codegen.target = "numpy"
    else:
        b.set_device("cpp_standalone", directory=directory, build_on_run=False)
        b.prefs.devices.cpp_standalone.openmp_threads = 0
    b.defaultclock.dt = dt_ms * ms
    b.seed(seed)
    p = PARAMS
    taum, taue, taui = p["tau_m_ms"] * ms, p["tau_syn_e_ms"] * ms, p["tau_syn_i_ms"] * ms
    El, Vr, Vt = p["v_rest_mv"] * mV, p["v_reset_mv"] * mV, p["v_thresh_mv"] * mV
    eqs = """
    dv/dt  = (ge + gi - (v - El)) / taum : volt (unless refractory)
    dge/dt = -ge / taue : volt
    dgi/dt = -gi / taui : volt
    """
    P = b.NeuronGroup(neurons, eqs, threshold="v >= Vt", reset="v = Vr", refractory=p["t_ref_ms"] * ms,
                      method="exact", namespace=dict(taum=taum, taue=taue, taui=taui, El=El, Vt=Vt, Vr=Vr))
    P.v = "Vr + rand() * (Vt - Vr)"
    n_exc = neurons * 4 // 5
    prob = min(1.0, p["inputs_per_neuron"] / neurons)
    we, wi = p["w_e_mv"] * mV, p["w_i_mv"] * mV
    Ce = b.Synapses(P, P, on_pre="ge += we", delay=p["delay_steps"] * dt_ms * ms, namespace=dict(we=we))
    Ci = b.Synapses(P, P, on_pre="gi += wi", delay=p["delay_steps"] * dt_ms * ms, namespace=dict(wi=wi))
    Ce.connect(condition=f"i < {n_exc}", p=prob)
    Ci.connect(condition=f"i >= {n_exc}", p=prob)
    count = b.SpikeMonitor(P, record=False)
    b.run(duration_ms * ms)
    if runtime:
        return {"tool": "brian2", "mode": "runtime (numpy)", "neurons": neurons, "duration_ms": duration_ms,
                "mean_rate_hz": float(count.num_spikes) / (neurons * duration_ms / 1000.0),
                "synapses": int(len(Ce) + len(Ci)), "wall_s": time.time() - t0}
    b.device.build(directory=directory, compile=True, run=False, debug=False)
    return {"tool": "brian2", "version": b.__version__, "neurons": neurons, "duration_ms": duration_ms,
            "dt_ms": dt_ms, "codegen_compile_s": time.time() - t0, "main": os.path.join(directory, "main"),
            "synapses_names": [Ce.name, Ci.name], "monitor": count.name}


def read_array(directory, prefix, dtype):
    import numpy as np
    files = sorted(glob.glob(os.path.join(directory, "results", prefix + "*")))
    if not files:
        raise SystemExit(f"brian2_cuba.py: no result file {prefix}* in {directory}/results")
    return np.fromfile(files[0], dtype=dtype)


def summary(directory, neurons, duration_ms):
    import numpy as np
    with open(os.path.join(directory, "results", "last_run_info.txt")) as f:
        run_s = float(f.read().split()[0])
    counts = read_array(directory, "_array_spikemonitor_count_", np.int32)
    out = {"tool": "brian2", "sim_s": run_s, "spikes": int(counts.sum()),
           "mean_rate_hz": float(counts.sum()) / (neurons * duration_ms / 1000.0)}
    indeg = np.zeros(neurons)
    synapses = 0
    for name in ("_dynamic_array_synapses__synaptic_post_", "_dynamic_array_synapses_1__synaptic_post_"):
        post = read_array(directory, name, np.int32)
        synapses += post.size
        indeg += np.bincount(post, minlength=neurons)
    out.update({"synapses": synapses, "in_degree_mean": float(indeg.mean()), "in_degree_std": float(indeg.std())})
    return out


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("mode", choices=["params", "build", "summary", "rate"])
    ap.add_argument("--neurons", type=int, default=4000)
    ap.add_argument("--duration", type=float, default=1000.0, help="[ms]")
    ap.add_argument("--dt", type=float, default=0.1, help="[ms]")
    ap.add_argument("--seed", type=int, default=42)
    ap.add_argument("--dir", default="brian2_cuba")
    a = ap.parse_args()
    if a.mode == "params":
        out = dict(PARAMS, dt_ms=a.dt)
    elif a.mode == "build":
        out = build(a.neurons, a.duration, a.dt, a.dir, a.seed)
    elif a.mode == "rate":
        out = build(a.neurons, a.duration, a.dt, a.dir, a.seed, runtime=True)
    else:
        out = summary(a.dir, a.neurons, a.duration)
    json.dump(out, sys.stdout)
    sys.stdout.write("\n")


if __name__ == "__main__":
    main()
