"""Issue 52: per-cell SpikeSourcePoisson rates and record()'s sampling_interval in volley.pynn.

- SpikeSourcePoisson(rate=[100, 200, 1000]) fires each cell at its own rate: over 10 s each
  count is Poisson(rate * 10 s), so each must lie within 3.3 sd of it (and far from the 10 Hz
  the cells fired at when only one rate per population reached the engine). Population.set and
  PopulationView.set of the rate before the run act the same way. A negative rate is refused
  with volley.InvalidParameter naming the population, the cell, the parameter and the value.
- record("v", sampling_interval=1.0) gives one sample per ms, stamped 0, 1, ..., T: an
  IF_curr_exp cell under a constant current below threshold follows
  v(t) = v_rest + R·I·(1 - exp(-t/tau_m)) (R = tau_m/cm), which the samples must match at their
  stamped times (the engine integrates it exactly on the grid). An interval that is not a whole
  number of steps is refused with VolleyNotSupported.
Skips without PyNN."""

import math

from volley_test_support import check, require, volley_module

volley = volley_module()
require("pyNN", "PyNN is not installed (pip install pyNN)")
import numpy as np  # noqa: E402
import volley.pynn as sim  # noqa: E402

z999 = 3.3


def raises(cls, f):
    try:
        f()
    except cls as e:
        return e
    raise AssertionError(f"expected {cls.__name__}")


# Per-cell rates, given at creation, by Population.set and by PopulationView.set.
duration_ms = 10000.0
sim.setup(timestep=0.1, seed=7)
given = sim.Population(3, sim.SpikeSourcePoisson(rate=[100.0, 200.0, 1000.0]), label="given")
later = sim.Population(2, sim.SpikeSourcePoisson(rate=5.0), label="later")
later.set(rate=[50.0, 400.0])
viewed = sim.Population(3, sim.SpikeSourcePoisson(rate=20.0), label="viewed")
viewed[1:2].set(rate=300.0)
for pop in (given, later, viewed):
    pop.record("spikes")
sim.run(duration_ms)
for pop, rates in ((given, [100, 200, 1000]), (later, [50, 400]), (viewed, [20, 300, 20])):
    trains = pop.get_data().segments[0].spiketrains
    for i, (train, rate) in enumerate(zip(trains, rates)):
        mean = rate * duration_ms / 1000
        print(f"{pop.label} cell {i}: {len(train) / (duration_ms / 1000):.2f} Hz (rate {rate} Hz)")
        check(abs(len(train) - mean) <= z999 * math.sqrt(mean),
              f"{pop.label} cell {i}: {len(train)} spikes in {duration_ms} ms, expected {mean} +- {math.sqrt(mean):.1f}")
sim.end()

# A negative rate: at creation, by set() and by a view's set().
sim.setup(timestep=0.1)
e = raises(volley.InvalidParameter, lambda: sim.Population(3, sim.SpikeSourcePoisson(rate=[100.0, -5.0, 1.0]),
                                                           label="bad"))
check((e.object, e.parameter, e.value) == ("population 'bad' cell 1", "rate", "-5"), f"{e}")
ok = sim.Population(4, sim.SpikeSourcePoisson(rate=1.0), label="ok")
e = raises(volley.InvalidParameter, lambda: ok.set(rate=-2.0))
check((e.object, e.parameter, e.value) == ("population 'ok' cell 0", "rate", "-2"), f"{e}")
e = raises(volley.InvalidParameter, lambda: ok[2:4].set(rate=[3.0, -1.5]))
check((e.object, e.parameter, e.value) == ("population 'ok' cell 3", "rate", "-1.5"), f"{e}")
sim.end()
print("per-cell rates: each cell at its own rate; negative rates refused")

# The sampling interval.
tau_m, cm, i_offset, v_rest = 20.0, 1.0, 0.5, -65.0  # R·I = 10 mV: v tends to -55 mV, below -50
sim.setup(timestep=0.1)
cell = sim.Population(2, sim.IF_curr_exp(tau_m=tau_m, cm=cm, i_offset=i_offset, v_rest=v_rest, v_thresh=-50.0))
cell.initialize(v=v_rest)
cell.record("v", sampling_interval=1.0)
cell.record("spikes")
sim.run(20.0)
v = cell.get_data().segments[0].filter(name="v")[0]
t = np.asarray(v.times.rescale("ms"))
check(v.shape == (21, 2), f"v has shape {v.shape}: expected 21 samples (t = 0, 1, ..., 20 ms) of 2 cells")
check(abs(float(v.sampling_period.rescale("ms")) - 1.0) < 1e-12, f"sampling period {v.sampling_period}")
check(np.allclose(t, np.arange(21.0), rtol=0, atol=1e-9), f"sample times {t}")
expected = v_rest + tau_m / cm * i_offset * (1 - np.exp(-t / tau_m))
got = np.asarray(v.magnitude)
check(np.allclose(got, expected[:, None], rtol=0, atol=1e-9),
      f"v at the sample times differs from the analytic solution by {np.max(np.abs(got - expected[:, None]))} mV")
check(all(len(s) == 0 for s in cell.get_data().segments[0].spiketrains), "the cell fired below threshold")
sim.end()

sim.setup(timestep=0.1)
cell = sim.Population(1, sim.IF_curr_exp())
e = raises(sim.VolleyNotSupported, lambda: cell.record("v", sampling_interval=0.25))
check(e.parameter == "sampling_interval" and e.value == 0.25, f"{e}")
sim.end()
print("sampling_interval: 21 samples at 0, 1, ..., 20 ms on the analytic v")
