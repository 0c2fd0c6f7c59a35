"""Recorded data comes back as read-only NumPy views of the recorder's vectors (no copy), and a
view taken before a later run() keeps its values while the recorder grows."""

from volley_test_support import check, volley_module

volley = volley_module()
import numpy as np  # noqa: E402

net = volley.cuba_network(4000)
sim = volley.Simulation(net, dt_ms=0.1, seed=42, threads=2)
spikes = sim.record_spikes("exc")
trace = sim.record_state("exc", "v_mv", 1.0, neurons=[0, 5, 9])
sim.run(100.0)

a, b = spikes.steps, spikes.steps
check(np.shares_memory(a, b), "two reads of steps do not share the recorder's buffer")
check(not a.flags.writeable and a.dtype == np.int64 and spikes.node_ids.dtype == np.uint32, "flags and dtypes")
v = trace.values
check(v.shape == (len(trace.times_ms), 3) and v.flags.c_contiguous and np.shares_memory(v, trace.values),
      f"trace view shape {v.shape}")
copy_a, copy_v, n = a.copy(), v.copy(), len(a)

sim.run(200.0)  # the recorder's vectors grow and may move
check(np.array_equal(a, copy_a) and np.array_equal(v, copy_v), "an old view changed after run()")
check(len(spikes.steps) > n and np.array_equal(spikes.steps[:n], copy_a), "the recorder lost its first spikes")
check(trace.values.shape[0] == 301, f"{trace.values.shape[0]} samples after 300 ms at 1 ms")
sim.reset()
check(len(spikes) == 0 and np.array_equal(a, copy_a), "reset() cleared an old view")
print(f"views: {n} spikes and a {copy_v.shape} trace read without copying, unchanged by later runs")
