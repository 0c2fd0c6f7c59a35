"""pyNN.volley's NativeRNG (PyNN's examples/random_numbers.py uses sim.NativeRNG): it is a
pyNN.random.NativeRNG and a NumpyRNG; with a seed it draws what NumpyRNG(seed) draws (the same
FixedProbabilityConnector connections and normal weights), without one it takes setup()'s
rng_seed, so two NativeRNG() after the same setup() give the same projection and another
rng_seed another one. Skips without PyNN."""

from volley_test_support import check, require, volley_module

volley_module()
require("pyNN", "PyNN is not installed (pip install pyNN)")
import numpy as np  # noqa: E402
import pyNN.random  # noqa: E402
import volley.pynn as sim  # noqa: E402


def weights(rng_seed, make_rng):
    sim.setup(timestep=0.1, rng_seed=rng_seed)
    pre = sim.Population(20, sim.SpikeSourcePoisson(rate=10.0))
    post = sim.Population(30, sim.IF_cond_exp())
    rng = make_rng()
    prj = sim.Projection(pre, post, sim.FixedProbabilityConnector(p_connect=0.3, rng=rng),
                         sim.StaticSynapse(weight=sim.RandomDistribution("normal", mu=0.5, sigma=0.01, rng=rng),
                                           delay=0.5))
    w = prj.get("weight", format="array")
    sim.run(5.0)  # the projection builds and runs
    sim.end()
    return w, rng


w_native, rng = weights(7, lambda: sim.NativeRNG(seed=1234))
check(isinstance(rng, pyNN.random.NativeRNG) and isinstance(rng, pyNN.random.NumpyRNG), f"{type(rng).__mro__}")
check(rng.seed == 1234, f"seed {rng.seed}")
w_numpy, _ = weights(7, lambda: sim.NumpyRNG(seed=1234))
connected = ~np.isnan(w_native)
check(100 < connected.sum() < 260, f"{connected.sum()} connections of 600 at p = 0.3")
check(np.array_equal(connected, ~np.isnan(w_numpy)) and np.allclose(w_native[connected], w_numpy[connected]),
      "NativeRNG(seed) and NumpyRNG(seed) draw the same connections and weights")
check(abs(np.nanmean(w_native) - 0.5) < 0.01, f"mean weight {np.nanmean(w_native)}")
print(f"NativeRNG(seed=1234): {connected.sum()} connections, as NumpyRNG(seed=1234)")

a, rng_a = weights(11, sim.NativeRNG)
b, _ = weights(11, sim.NativeRNG)
c, _ = weights(12, sim.NativeRNG)
check(rng_a.seed == 11, f"NativeRNG() after setup(rng_seed=11) has seed {rng_a.seed}")
check(np.array_equal(np.isnan(a), np.isnan(b)) and np.allclose(a[~np.isnan(a)], b[~np.isnan(b)]),
      "two NativeRNG() after setup(rng_seed=11) draw the same")
check(not np.array_equal(np.isnan(a), np.isnan(c)), "setup(rng_seed=12) draws other connections")
print("NativeRNG() takes setup()'s rng_seed")
