"""The Brunel network of bench/peers/pynn_brunel.py (1,000 IF_curr_delta neurons, C_E = 80,
J·C_E = 100 mV, g = 5, η = 2) on pyNN.volley and pyNN.nest, one process per backend, run side by
side, over four seeds (each its own connectivity, Poisson input and initial V). The backends
agree when the means of the excitatory rate and of the ISI CV differ by less than four standard
errors of the difference (each backend's seed-to-seed spread), and the rate by less than 20 %;
both must be in Brunel's irregular regime (CV > 1) at tens of Hz, far from the refractory
limit. Skips without PyNN; without NEST only Volley's run is checked."""

import math
import os
import subprocess
import sys

from volley_test_support import check, mean_sd, require, run_peer_script, volley_module

volley_module()
require("pyNN", "PyNN is not installed (pip install pyNN)")

script = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..", "bench", "peers", "pynn_brunel.py")
seeds = ["1", "2", "3", "4"]
have_nest = subprocess.run([sys.executable, "-c", "import pyNN.nest"], capture_output=True).returncode == 0
backends = ["volley.pynn"] + (["pyNN.nest"] if have_nest else [])
command = ["--seeds", *seeds, "--time", "600", "--transient", "100"]
results = run_peer_script(script, backends, command, len(seeds), parallel=True)


def stats(backend, key):
    return mean_sd([r[key] for r in results[backend]])


for backend in backends:
    (rate, rate_sd), (cv, cv_sd) = stats(backend, "rate_hz"), stats(backend, "cv")
    run_s = sum(r["run_s"] for r in results[backend]) / len(seeds)
    print(f"{backend:12s} rate {rate:6.2f} ± {rate_sd:5.2f} Hz   CV {cv:5.3f} ± {cv_sd:5.3f}   "
          f"run {run_s:5.2f} s per seed   ({len(seeds)} seeds, mean ± seed-to-seed sd)")
    check(20.0 < rate < 150.0, f"{backend}: rate {rate} Hz is not Brunel's irregular regime (refractory limit 500 Hz)")
    check(cv > 1.0, f"{backend}: CV {cv}: the network is not irregular")

if have_nest:
    k = len(seeds)
    for key, name in (("rate_hz", "rate"), ("cv", "CV")):
        (mv, sv), (mn, sn) = stats("volley.pynn", key), stats("pyNN.nest", key)
        se = math.sqrt(sv ** 2 / k + sn ** 2 / k)
        print(f"{name}: Volley - NEST = {mv - mn:+.3f}, {abs(mv - mn) / se:.2f} standard errors")
        check(abs(mv - mn) < 4 * se, f"{name}: Volley {mv} vs NEST {mn} (standard error {se})")
    check(abs(stats("volley.pynn", "rate_hz")[0] / stats("pyNN.nest", "rate_hz")[0] - 1) < 0.2, "rates differ by > 20 %")
    print("pyNN.volley and pyNN.nest agree on the Brunel network's rate and CV")
else:
    print("NEST is not installed: only pyNN.volley was checked")
print("test_pynn_brunel: ok")
