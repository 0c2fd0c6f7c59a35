"""pyNN.volley's ACSource and NoisyCurrentSource, and a SpikeSourceArray given new spike times
between runs. Each against an independent computation: the recorded AC current is PyNN's
formula offset + amplitude·sin(2π·f·(t - start)/1000 + phase) on [start, stop) to 1e-12 nA; the
membrane of a passive IF_curr_exp cell under it is the exact one-step solution of
tau_m·dv/dt = v_rest - v + R·I(t) for a current constant over each step, integrated here in
NumPy (1e-9 mV); the noise is held for its dt, has its mean and standard deviation within four
standard errors over 12,000 draws, and two cells receive different draws; a SpikeSourceArray set
after run() sends exactly its new times, and a time already past is refused, changing nothing;
a SpikeSourcePoisson whose rate is set after run() fires at the new rate from then on (counts
within 3.3 Poisson standard deviations); an IF_cond_exp whose v_rest is set after run() relaxes
to it as the analytic passive membrane (1e-6 mV), and an IF_curr_exp parameter is refused.
Skips without PyNN."""

import math

from volley_test_support import check, require, volley_module

volley_module()
require("pyNN", "PyNN is not installed (pip install pyNN)")
import numpy as np  # noqa: E402
import volley.pynn as sim  # noqa: E402
from volley import InvalidParameter  # noqa: E402

dt, tau_m, cm, v_rest = 0.1, 20.0, 1.0, -65.0
R = tau_m / cm  # MOhm: mV per nA


def passive_trace(current_na, v0):
    """v at the start of each step and after the last: the exact step map of the passive membrane."""
    p = math.exp(-dt / tau_m)
    v = [v0]
    for i in current_na:
        v.append(v_rest + R * i + (v[-1] - v_rest - R * i) * p)
    return np.array(v)


# ---- ACSource: its current, and a passive cell under it (across two runs) -----------------------
sim.setup(timestep=dt)
cell = sim.Population(2, sim.IF_curr_exp(tau_m=tau_m, cm=cm, v_rest=v_rest, v_thresh=50.0, tau_refrac=0.0))
cell.initialize(v=v_rest)
amp, offset, freq, phase, start, stop = 0.4, 0.1, 50.0, 30.0, 12.5, 61.0
ac = sim.ACSource(amplitude=amp, offset=offset, frequency=freq, phase=phase, start=start, stop=stop)
ac.inject_into(cell[1:2])
ac.record()
cell.record("v")
sim.run(40.0)
sim.run(40.0)
t, i_ac = ac._get_data()
steps = np.arange(801)
expected = np.where((steps >= 125) & (steps < 610),
                    offset + amp * np.sin(2 * np.pi * freq * (steps * dt - start) / 1000 + phase * np.pi / 180), 0.0)
check(len(i_ac) == 801 and np.allclose(t, steps * dt), f"{len(i_ac)} samples, t from {t[0]} to {t[-1]}")
check(np.max(np.abs(i_ac - expected)) < 1e-12, f"AC current off by {np.max(np.abs(i_ac - expected)):.3g} nA")
v = cell.get_data().segments[0].filter(name="v")[0].magnitude
want = passive_trace(expected[:800], v_rest)
check(np.max(np.abs(v[:, 1] - want)) < 1e-9, f"v under the AC current off by {np.max(np.abs(v[:, 1] - want)):.3g} mV")
check(np.all(v[:, 0] == v_rest), "the cell without the source moved")
print(f"ACSource: current and membrane exact over two runs (peak v {v[:, 1].max():.3f} mV)")
sim.end()

# ---- NoisyCurrentSource: held for its dt, mean and sd, independent cells ------------------------
sim.setup(timestep=dt)
cells = sim.Population(2, sim.IF_curr_exp(tau_m=tau_m, cm=cm, v_rest=v_rest, v_thresh=50.0, tau_refrac=0.0))
cells.initialize(v=v_rest)
mean, sd, hold = 0.5, 0.25, 1.0
noise = sim.NoisyCurrentSource(mean=mean, stdev=sd, start=5.0, stop=12005.0, dt=hold)
noise.inject_into(cells)
noise.record()
cells.record("v")
sim.run(12010.0)
t, i_noise = noise._get_data()
check(np.all(i_noise[:50] == 0) and np.all(i_noise[120050:] == 0), "noise outside [start, stop)")
window = i_noise[50:120050].reshape(-1, 10)
check(np.all(window == window[:, :1]), "the noise is not held for its dt (10 steps)")
draws = window[:, 0]
se = sd / math.sqrt(draws.size)
check(abs(draws.mean() - mean) < 4 * se, f"noise mean {draws.mean():.4f}: expected {mean} +- {4 * se:.4f}")
check(abs(draws.std() - sd) < 4 * sd / math.sqrt(2 * draws.size), f"noise sd {draws.std():.4f}: expected {sd}")
v = cells.get_data().segments[0].filter(name="v")[0].magnitude
want = passive_trace(i_noise[:-1], v_rest)
check(np.max(np.abs(v[:, 0] - want)) < 1e-9, "v of the recorded cell is not the one its recorded noise gives")
check(np.max(np.abs(v[:, 0] - v[:, 1])) > 0.1, "two cells received the same noise")
print(f"NoisyCurrentSource: {draws.size} draws, mean {draws.mean():.4f}, sd {draws.std():.4f}")
sim.end()

# ---- SpikeSourceArray: new times between runs ---------------------------------------------------
sim.setup(timestep=dt)
sources = sim.Population(2, sim.SpikeSourceArray(spike_times=[]))
sources.record("spikes")
sim.run(10.0)
sources.set(spike_times=[sim.Sequence([12.0, 15.0, 18.0]), sim.Sequence([17.0, 19.0])])
sim.run(10.0)
try:
    sources[1:2].set(spike_times=[sim.Sequence([19.5, 27.0])])
except InvalidParameter as e:
    print(f"refused (a spike time already past): {e}")
    check("19.5" in str(e), f"the error does not name the time: {e}")
else:
    check(False, "a spike time already past was accepted")
check(np.allclose(sources.get("spike_times")[1].value, [17.0, 19.0]), "a refused set changed the trains")
sources.set(spike_times=[sim.Sequence([22.0, 25.0]), sim.Sequence([23.0, 27.0, 29.0])])
sim.run(10.0)
trains = sources.get_data().segments[0].spiketrains
check(np.allclose(trains[0].magnitude, [12, 15, 18, 22, 25]), f"{trains[0].magnitude}")
check(np.allclose(trains[1].magnitude, [17, 19, 23, 27, 29]), f"{trains[1].magnitude}")
print("SpikeSourceArray: new times after run() sent as set")
sim.end()

# ---- SpikeSourcePoisson: a rate set between runs ------------------------------------------------
sim.setup(timestep=dt)
noise = sim.Population(400, sim.SpikeSourcePoisson(rate=10.0))
noise.record("spikes")
sim.run(2000.0)
noise[:200].set(rate=80.0)
sim.run(2000.0)
trains = noise.get_data().segments[0].spiketrains
before = sum(int(np.sum(st.magnitude <= 2000.0)) for st in trains)
fast = sum(int(np.sum(st.magnitude > 2000.0)) for st in trains[:200])
slow = sum(int(np.sum(st.magnitude > 2000.0)) for st in trains[200:])
for got, mean, what in ((before, 400 * 10 * 2.0, "before"), (fast, 200 * 80 * 2.0, "set to 80 Hz"),
                        (slow, 200 * 10 * 2.0, "left at 10 Hz")):
    check(abs(got - mean) < 3.3 * math.sqrt(mean), f"{what}: {got} spikes, expected {mean:.0f} +- {3.3 * math.sqrt(mean):.0f}")
print(f"SpikeSourcePoisson: {before} spikes before, {fast} at 80 Hz and {slow} at 10 Hz after the change")
sim.end()
# ---- cell parameters between runs: an ODE model takes them, a LIF model refuses --------------
sim.setup(timestep=0.01)
cond = sim.Population(1, sim.IF_cond_exp(v_rest=-70.0, tau_m=20.0, cm=1.0, v_thresh=0.0))
cond.initialize(v=-70.0)
cond.record("v")
sim.run(10.0)
cond.set(v_rest=-60.0)
sim.run(20.0)
v = cond.get_data().segments[0].filter(name="v")[0]
t = np.asarray(v.times)
want = np.where(t <= 10.0, -70.0, -60.0 - 10.0 * np.exp(-(t - 10.0) / 20.0))
err = float(np.max(np.abs(v.magnitude[:, 0] - want)))
check(err < 1e-6, f"IF_cond_exp after v_rest went to -60 mV at 10 ms: off the analytic membrane by {err:.3g} mV")
print(f"IF_cond_exp: v_rest set after run() holds from then on (within {err:.2g} mV of the analytic membrane)")
sim.end()
sim.setup(timestep=dt)
cell = sim.Population(1, sim.IF_curr_exp())
sim.run(1.0)
try:
    cell.set(tau_m=5.0)
except sim.VolleyNotSupported as e:
    print(f"refused (a LIF cell parameter after run()): {e}")
else:
    check(False, "a LIF cell parameter set after run() was accepted")
sim.end()
print("test_pynn_currents: ok")
