"""A LIF neuron under a constant current against the analytic solution (tests/validation does
the same in C++): v(t) = v_rest + I (1 - exp(-t / tau)), so the first spike comes at
t* = tau ln(I / (I - theta)), theta = v_thresh - v_rest, and each later one a refractory period
plus tau ln((I - (v_reset - v_rest)) / (I - theta)) after the one before. Exact propagators
make v exact at the grid points, so the spike falls in the first step at or after t*."""

import math

from volley_test_support import check, volley_module

volley = volley_module()
import numpy as np  # noqa: E402

tau, v_rest, v_reset, v_thresh, t_ref, current, dt = 10.0, -70.0, -70.0, -55.0, 2.0, 20.0, 0.1
theta = v_thresh - v_rest

for model in ("lif_delta", "lif_exp", "lif_alpha"):
    net = volley.Network()
    pop = net.add_population("n", 3, model, tau_m_ms=tau, v_rest_mv=v_rest, v_reset_mv=v_reset,
                             v_thresh_mv=v_thresh, t_ref_ms=t_ref)
    net.initialise(pop, "v_mv", v_rest)
    # Neuron 0 gets the current from a DCCurrent, neuron 1 from its bias i_e, neuron 2 nothing.
    net.inject(pop, volley.DCCurrent(amplitude_mv=current), neurons=[0])
    net.set_parameter(pop, "i_e_mv", [0.0, current, 0.0])
    sim = volley.Simulation(net, dt_ms=dt, seed=1, threads=1)
    spikes = sim.record_spikes(pop)
    trace = sim.record_state(pop, "v_mv", dt)
    sim.run(100.0)

    times, ids = spikes.spikes()
    check(times.dtype == np.float64 and ids.dtype == np.uint32, f"{model}: dtypes {times.dtype}, {ids.dtype}")
    check(not np.any(ids == 2), f"{model}: the neuron without input fired")
    t_first = tau * math.log(current / (current - theta))
    period = t_ref + tau * math.log((current - (v_reset - v_rest)) / (current - theta))
    for n in (0, 1):
        t = times[ids == n]
        check(len(t) > 5, f"{model}: neuron {n} fired {len(t)} times")
        expected = math.ceil(t_first / dt - 1e-9) * dt
        check(abs(t[0] - expected) < 1e-9, f"{model}: neuron {n} first spike {t[0]} ms, analytic {t_first} -> {expected}")
        # Later spikes: the period rounds up to the grid, with the refractory period in whole steps.
        isi = np.diff(t)
        check(np.all(np.abs(isi - period) <= dt + 1e-9),
              f"{model}: neuron {n} intervals {isi[:4]} vs analytic period {period}")
        check(abs(isi.mean() - period) < dt, f"{model}: mean interval {isi.mean()} vs {period}")

    # The trace before the first spike is the analytic membrane at every grid point.
    v, tv = trace.values, trace.times_ms
    check(v.shape == (len(tv), 3), f"{model}: trace shape {v.shape}")
    before = tv < t_first - dt
    analytic = v_rest + current * (1 - np.exp(-tv[before] / tau))
    for n in (0, 1):
        err = np.max(np.abs(v[before, n] - analytic))
        check(err < 1e-9, f"{model}: neuron {n} trace differs from the analytic membrane by {err} mV")
    check(np.all(v[:, 2] == v_rest), f"{model}: the neuron without input moved")
    print(f"{model}: first spike {times[0]:.1f} ms (analytic {t_first:.4f} ms), "
          f"mean interval {np.diff(times[ids == 0]).mean():.4f} ms (analytic {period:.4f} ms), trace error < 1e-9 mV")
