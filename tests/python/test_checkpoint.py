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
