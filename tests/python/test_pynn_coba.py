"""The Vogels-Abbott COBA benchmark of bench/peers/pynn_coba.py (PyNN's examples/VAbenchmarks.py:
4,000 IF_cond_exp cells, p = 0.02, 4 nS / 51 nS, delay 0.2 ms, a 50 ms Poisson kick) on
pyNN.volley and pyNN.nest, one process per backend, run one after the other, over three seeds
(each its own connectivity, kick and initial v), 500 ms each with the first 100 ms left out.

The backends integrate differently (Volley's lif_cond_exp: fixed-step rk4; NEST's iaf_cond_exp:
adaptive RKF45), so spike times differ and only statistics are compared: the means over seeds of
the excitatory rate, the inhibitory rate and the excitatory ISI CV must differ by less than four
standard errors of the difference (from each backend's seed-to-seed spread), and the rates by
less than 20 %; both must show self-sustained irregular activity (rates of a few to tens of Hz
after the kick, far from the 200 Hz refractory limit; CV > 0.8). Skips (77) without PyNN or NEST."""

import math
import os
import subprocess
import sys

from volley_test_support import SKIP, check, mean_sd, require, run_peer_script, volley_module

volley_module()
require("pyNN", "PyNN is not installed (pip install pyNN)")
if subprocess.run([sys.executable, "-c", "import pyNN.nest"], capture_output=True).returncode != 0:
    print("skipped: pyNN.nest cannot be imported (NEST is not installed): nothing to compare with")
    sys.exit(SKIP)

script = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..", "bench", "peers", "pynn_coba.py")
seeds = ["1", "2", "3"]
backends = ["volley.pynn", "pyNN.nest"]
command = ["--seeds", *seeds, "--time", "500", "--transient", "100"]
results = run_peer_script(script, backends, command, len(seeds), parallel=False)  # NEST's run is the heavy one


def stats(backend, key):
    return mean_sd([r[key] for r in results[backend]])


keys = (("rate_exc_hz", "exc rate", "Hz"), ("rate_inh_hz", "inh rate", "Hz"), ("cv", "exc CV", ""))
for backend in backends:
    parts = []
    for key, name, unit in keys:
        m, s = stats(backend, key)
        parts.append(f"{name} {m:6.2f} ± {s:5.2f}{(' ' + unit) if unit else ''}")
    run_s = sum(r["run_s"] for r in results[backend]) / len(seeds)
    print(f"{backend:12s} " + "   ".join(parts) + f"   run {run_s:5.2f} s per seed   "
          f"({len(seeds)} seeds, mean ± seed-to-seed sd)")
    for key in ("rate_exc_hz", "rate_inh_hz"):
        rate = stats(backend, key)[0]
        check(3.0 < rate < 60.0, f"{backend}: {key} {rate} Hz is not the benchmark's self-sustained regime")
    check(stats(backend, "cv")[0] > 0.8, f"{backend}: CV {stats(backend, 'cv')[0]}: the network is not irregular")

k = len(seeds)
for key, name, _ in keys:
    (mv, sv), (mn, sn) = stats("volley.pynn", key), stats("pyNN.nest", key)
    se = math.sqrt(sv ** 2 / k + sn ** 2 / k)
    print(f"{name}: Volley - NEST = {mv - mn:+.3f}, {abs(mv - mn) / se:.2f} standard errors, "
          f"{100 * (mv / mn - 1):+.1f} %")
    check(abs(mv - mn) < 4 * se, f"{name}: Volley {mv} vs NEST {mn} (standard error {se})")
    if key != "cv":
        check(abs(mv / mn - 1) < 0.2, f"{name}: Volley {mv} vs NEST {mn} differ by > 20 %")
print("pyNN.volley and pyNN.nest agree on the COBA benchmark's rates and CV")
print("test_pynn_coba: ok")
