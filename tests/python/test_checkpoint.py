"""checkpoint() and restore(): a simulation restored from a checkpoint taken after 150 ms gives
the spikes of the uninterrupted run from there on, spike for spike."""

import os
import tempfile

from volley_test_support import check, volley_module

volley = volley_module()
import numpy as np  # noqa: E402

net = volley.cuba_network(4000)
with tempfile.TemporaryDirectory() as tmp:
    path = os.path.join(tmp, "state.h5")
    whole = volley.Simulation(net, dt_ms=0.1, seed=7, threads=2)
    rec = whole.record_spikes("exc")
    whole.run(150.0)
    whole.checkpoint(path)
    n_before = len(rec)
    whole.run(150.0)
    tail_steps, tail_ids = np.array(rec.steps)[n_before:], np.array(rec.node_ids)[n_before:]

    resumed = volley.Simulation(net, dt_ms=0.1, seed=7, threads=2)
    rec2 = resumed.record_spikes("exc")
    resumed.restore(path)
    check(abs(resumed.time_ms - 150.0) < 1e-9, f"restored at {resumed.time_ms} ms")
    resumed.run(150.0)
    check(np.array_equal(rec2.steps, tail_steps) and np.array_equal(rec2.node_ids, tail_ids),
          f"resumed run: {len(rec2)} spikes, uninterrupted {len(tail_steps)}")

    e = None
    try:
        volley.Simulation(volley.cuba_network(1000), dt_ms=0.1, seed=7, threads=2).restore(path)
    except volley.InvalidParameter as err:
        e = err
    check(e is not None, "a checkpoint of another network was accepted")
print(f"{len(tail_steps)} spikes after the checkpoint, identical when resumed")

# STDP with a dendritic delay: a checkpoint taken while post spikes are on their way to the rule
# (post at about 20.1 ms reaches it at 25.1 ms; the checkpoint is at 22 ms) keeps them: the
# restored run ends with the weights of the uninterrupted one, which the pending spikes change.
net = volley.Network()
pre = net.add_population("pre", 20, "poisson_source", rate_hz=40.0)
drive = net.add_population("drive", 5, "spike_source", spike_times_ms=[[20.0, 60.0]] * 5)
post = net.add_population("post", 5, "lif_delta", t_ref_ms=1.0)
net.connect(drive, post, volley.OneToOne(), weight=100.0, delay_ms=0.1)
rule = volley.StdpPair(a_plus=0.01, a_minus=0.012, w_min=0.0, w_max=1.0, dependence="soft_bounds",
                       dendritic_delay_ms=5.0)
q = net.connect(pre, post, volley.AllToAll(), weight=0.5, delay_ms=0.1, plasticity=rule)
with tempfile.TemporaryDirectory() as tmp:
    path = os.path.join(tmp, "stdp.h5")
    whole = volley.Simulation(net, dt_ms=0.1, seed=3, threads=2)
    whole.run(22.0)
    at_checkpoint = np.asarray(whole.weights(q)[2]).copy()
    whole.checkpoint(path)
    whole.run(78.0)
    resumed = volley.Simulation(net, dt_ms=0.1, seed=3, threads=2)
    resumed.restore(path)
    resumed.run(78.0)
    final = np.asarray(whole.weights(q)[2])
    check(np.array_equal(np.asarray(resumed.weights(q)[2]), final), "STDP weights after restore differ")
    whole.reset()
    whole.run(25.5)  # the pending post spikes have reached the rule
    check(not np.array_equal(np.asarray(whole.weights(q)[2]), at_checkpoint),
          "the post spikes pending at the checkpoint changed nothing")
print("checkpoint with post spikes in flight to the STDP rule: the restored run ends with the same weights")
