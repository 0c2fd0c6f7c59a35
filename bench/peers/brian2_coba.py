#!/usr/bin/python3
"""The COBA network in Brian2, C++ standalone mode, one thread: the peer of `volley bench coba`.

Same model as volley::snn::coba_network (snn/src/standard_networks.cpp) and Brian2's COBA
example (Brette et al. 2007, benchmark 1): 80 % excitatory and 20 % inhibitory lif_cond_exp
neurons (C 200 pF, g_L 10 nS, E_L -60 mV, v_thresh -50 mV, v_reset -60 mV, t_ref 5 ms,
E_ex 0 mV, E_in -80 mV, tau_e 5 ms, tau_i 10 ms), v(0) ~ N(-65, 5) mV, g_e(0) ~ N(40, 15) nS,
g_i(0) ~ N(200, 120) nS, fixed probability p = min(1, 80/N) with autapses, w_e = 6 nS,
w_i = 67 nS, delay = dt.

  brian2_coba.py build --neurons N --method M --dir D [--seed S] [--duration MS]
      generates and compiles D/main with integration method M (rk4, rk2, exponential_euler,
      euler: named as Volley's schemes); prints JSON with the code-generation + compile time
  brian2_coba.py summary --neurons N --duration MS --dir D
      after D/main has run: the spike count, the simulation time Brian measured and the
      in-degree statistics (as brian2_cuba.py's summary)

`volley bench peers --network coba --integrator M` runs D/main itself, alternating with Volley
and NEST, so that only the simulation is timed.
"""
import argparse
import json
import os
import sys
import time
import warnings

from brian2_cuba import summary

warnings.filterwarnings("ignore")


def coba_model(b):
    """The COBA neuron: equations, namespace, threshold, reset and refractoriness."""
    from brian2 import ms, mV, nS, pF
    ns = dict(Cm=200 * pF, gl=10 * nS, El=-60 * mV, Ee=0 * mV, Ei=-80 * mV, taue=5 * ms, taui=10 * ms,
              Vt=-50 * mV, Vr=-60 * mV)
    eqs = """
    dv/dt = (gl*(El-v) + ge*(Ee-v) + gi*(Ei-v)) / Cm : volt (unless refractory)
    dge/dt = -ge / taue : siemens
    dgi/dt = -gi / taui : siemens
    """
    return dict(model=eqs, namespace=ns, threshold="v > Vt", reset="v = Vr", refractory=5 * ms)


def build(model, neurons, duration_ms, dt_ms, method, directory, seed):
    """Generates and compiles the 80/20 conductance network of `model(brian2)`'s neurons."""
    import brian2 as b
    from brian2 import ms
    t0 = time.time()
    b.set_device("cpp_standalone", directory=directory, build_on_run=False)
    b.prefs.devices.cpp_standalone.openmp_threads = 0
    b.defaultclock.dt = dt_ms * ms
    b.seed(seed)
    P = b.NeuronGroup(neurons, method=method, **model(b))
    P.v = "El + (randn() * 5 - 5) * mV"
    P.ge = "(randn() * 1.5 + 4) * 10. * nS"
    P.gi = "(randn() * 12 + 20) * 10. * nS"
    n_exc = neurons * 4 // 5
    prob = min(1.0, 80.0 / neurons)
    Ce = b.Synapses(P, P, on_pre="ge += 6 * nS", delay=dt_ms * ms)
    Ci = b.Synapses(P, P, on_pre="gi += 67 * nS", delay=dt_ms * ms)
    Ce.connect(condition=f"i < {n_exc}", p=prob)
    Ci.connect(condition=f"i >= {n_exc}", p=prob)
    count = b.SpikeMonitor(P, record=False)  # noqa: F841 (a name keeps it in the magic network)
    b.run(duration_ms * ms)
    b.device.build(directory=directory, compile=True, run=False, debug=False)
    return {"tool": "brian2", "version": b.__version__, "method": method, "neurons": neurons,
            "duration_ms": duration_ms, "dt_ms": dt_ms, "seed": seed, "codegen_compile_s": time.time() - t0,
            "main": os.path.join(directory, "main")}


def main(model=coba_model, default_method="rk4", doc=__doc__):
    ap = argparse.ArgumentParser(description=doc, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("mode", choices=["build", "summary"])
    ap.add_argument("--neurons", type=int, default=4000)
    ap.add_argument("--duration", type=float, default=1000.0, help="[ms]")
    ap.add_argument("--dt", type=float, default=0.1, help="[ms]")
    ap.add_argument("--method", default=default_method, choices=["rk4", "rk2", "exponential_euler", "euler"])
    ap.add_argument("--seed", type=int, default=42)
    ap.add_argument("--dir", default="brian2_network")
    a = ap.parse_args()
    if a.mode == "build":
        out = build(model, a.neurons, a.duration, a.dt, a.method, a.dir, a.seed)
    else:
        out = summary(a.dir, a.neurons, a.duration)
    json.dump(out, sys.stdout)
    sys.stdout.write("\n")


if __name__ == "__main__":
    main()
