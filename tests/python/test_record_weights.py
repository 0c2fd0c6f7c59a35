"""Simulation.record_weights: the weights of a plastic projection sampled over a run, against the
pair rule's closed form. Two pre/post pairs (pre a spike source, post a lif_delta made to fire
by a 100 mV input): pair 0 pre at 20 ms and post at about 30 ms (potentiation at the post
spike), pair 1 post at about 20 ms and pre at 30 ms (depression at the pre spike). The samples
every 5 ms hold w0 until the spike that changes the weight and w0 ± A·exp(-|Δt|/τ) from then
on; the last sample equals Simulation.weights."""

import math

from volley_test_support import check, volley_module

volley = volley_module()
import numpy as np  # noqa: E402

net = volley.Network()
pre = net.add_population("pre", 2, "spike_source", spike_times_ms=[[20.0], [30.0]])
drive = net.add_population("drive", 2, "spike_source", spike_times_ms=[[29.9], [19.9]])
post = net.add_population("post", 2, "lif_delta", t_ref_ms=1.0)
net.connect(drive, post, volley.OneToOne(), weight=100.0, delay_ms=0.1)
rule = volley.StdpPair(tau_plus_ms=20.0, tau_minus_ms=30.0, a_plus=0.01, a_minus=0.012, w_min=0.0, w_max=1.0)
q = net.connect(pre, post, volley.OneToOne(), weight=0.5, delay_ms=0.1, plasticity=rule)
sim = volley.Simulation(net, dt_ms=0.1, seed=1, threads=1)
spikes = sim.record_spikes(post)
rec = sim.record_weights(q, 5.0)
sim.run(60.0)

check(rec.projection == q and rec.source == "pre" and rec.target == "post", "recorder identity")
check(list(rec.sources) == [0, 1] and list(rec.targets) == [0, 1], f"synapses {rec.sources} -> {rec.targets}")
times, ids = spikes.spikes()
t_post = {int(i): float(t) for t, i in zip(times, ids)}
values, at = np.asarray(rec.values), np.asarray(rec.times_ms)
check(values.shape == (len(rec), 2) and len(rec) >= 11, f"shape {values.shape}")
up = 0.01 * math.exp(-(t_post[0] - 20.0) / 20.0)
down = 0.012 * math.exp(-(30.0 - t_post[1]) / 30.0)
for k, t in enumerate(at):
    expected = (0.5 + (up if t >= t_post[0] else 0.0), 0.5 - (down if t >= 30.0 else 0.0))
    for s in (0, 1):
        check(abs(values[k, s] - expected[s]) < 1e-12, f"synapse {s} at {t} ms: {values[k, s]}, expected {expected[s]}")
_, _, final = sim.weights(q)
check(np.array_equal(values[-1], np.asarray(final)), f"last sample {values[-1]} against weights() {final}")
print(f"record_weights: {len(rec)} samples of 2 synapses match the pair rule (Δw = +{up:.6f}, -{down:.6f})")
