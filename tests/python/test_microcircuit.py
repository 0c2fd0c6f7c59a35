"""The microcircuit from Python (volley.microcircuit_network) is the network `volley bench
microcircuit` runs: the same population sizes as NEST's example, and, simulated in Python with
the bench's seed, the same spike count in every population after the transient as the bench
reports (both run the one engine on the one network, so the counts are equal, not close)."""

import json
import subprocess

from volley_test_support import check, cli, volley_module

volley = volley_module()
import numpy as np  # noqa: E402

names = ["L23E", "L23I", "L4E", "L4I", "L5E", "L5I", "L6E", "L6I"]
tenth = volley.microcircuit_network(scale=0.1)
sizes = [tenth.population(n)["size"] for n in names]
check(sizes == [2068, 583, 2192, 548, 485, 106, 1440, 295], f"sizes at scale 0.1: {sizes}")
check(len(volley.microcircuit_network(scale=0.1, drive="dc").population_names) == 8, "the DC drive adds no population")
check(volley.microcircuit_full_scale_rates_hz()["L5I"] == 8.664, "NEST's full-scale rates")
try:
    volley.microcircuit_network(drive="pink")
    check(False, "an unknown drive is refused")
except volley.Error as e:
    check("drive" in str(e) and "pink" in str(e), str(e))

scale, transient, duration, seed = 0.02, 50.0, 100.0, 5
net = volley.microcircuit_network(scale=scale)
sim = volley.Simulation(net, dt_ms=0.1, seed=seed, threads=1)
recs = {n: sim.record_spikes(n) for n in names}
sim.run(transient + duration)
out = subprocess.run([cli(), "bench", "microcircuit", "--scale", str(scale), "--transient", str(transient),
                      "--duration", str(duration), "--seed", str(seed), "--threads", "1", "--json", "--quiet"],
                     check=True, capture_output=True, text=True).stdout
bench = {r["population"]: r["rate_hz"] for r in json.loads(out)["microcircuit_rates"]}
from_step = round(transient / 0.1)
total = 0
for n in names:
    after = int(np.count_nonzero(np.asarray(recs[n].steps) >= from_step))
    total += after
    expected = bench[n] * (duration / 1000.0) * net.population(n)["size"]
    check(abs(after - expected) < 1e-6, f"{n}: {after} spikes in Python, the bench's rate gives {expected}")
check(total > 50, f"the network must fire for the comparison to mean anything ({total} spikes)")
