"""Spike times off the dt grid against NEST: a spike source with times between grid points drives
a current-based LIF cell (lif_exp; NEST's grid-based iaf_psc_exp with C_m = tau_m, so a weight
in pA is Volley's in mV), and NEST's spike_generator runs with precise_times, as pyNN.nest sets
it. NEST's grid-based neuron receives a precise spike at the end of the step that holds it; so
must Volley's. Checked: the source's recorded spike times equal NEST's recorded precise times
(1e-9 ms), and the cell's membrane equals NEST's at every step (1e-9 mV). Skips without NEST
(pip install nest-simulator)."""

from volley_test_support import check, require, volley_module

volley = volley_module()
import numpy as np  # noqa: E402

nest = require("nest", "NEST is not installed (pip install nest-simulator): nothing to compare with")

DT, W, DELAY, T_END = 0.1, 40.0, 1.0, 30.0
TAU_M, TAU_E = 10.0, 2.0
# Off the grid, on it (2.5, 9.9), two in one step (4.071, 4.079), and one just past a grid point.
TIMES = [1.03, 2.5, 4.071, 4.079, 7.77, 9.9, 12.0001, 17.35, 21.2468]


def volley_run():
    net = volley.Network()
    src = net.add_population("src", 1, "spike_source", spike_times_ms=[TIMES])
    cell = net.add_population("cell", 1, "lif_exp", tau_m_ms=TAU_M, tau_syn_e_ms=TAU_E, tau_syn_i_ms=TAU_E,
                              v_rest_mv=-70.0, v_reset_mv=-80.0, v_thresh_mv=1e9, t_ref_ms=0.0)
    net.connect(src, cell, volley.AllToAll(), weight=W, delay_ms=DELAY)
    sim = volley.Simulation(net, dt_ms=DT, seed=1)
    spikes = sim.record_spikes(src)
    v = sim.record_state(cell, "v_mv", DT)
    sim.run(T_END)
    return np.asarray(spikes.times_ms), np.asarray(v.times_ms), np.asarray(v.values[:, 0])


def nest_run():
    nest.ResetKernel()
    nest.resolution = DT
    sg = nest.Create("spike_generator", params={"spike_times": TIMES, "precise_times": True})
    cell = nest.Create("iaf_psc_exp", params={"tau_m": TAU_M, "C_m": TAU_M, "tau_syn_ex": TAU_E, "tau_syn_in": TAU_E,
                                              "E_L": -70.0, "V_m": -70.0, "V_reset": -80.0, "V_th": 1e9,
                                              "t_ref": 0.0, "I_e": 0.0})
    sr = nest.Create("spike_recorder")
    mm = nest.Create("multimeter", params={"record_from": ["V_m"], "interval": DT})
    nest.Connect(sg, cell, syn_spec={"weight": W, "delay": DELAY})
    nest.Connect(sg, sr)
    nest.Connect(mm, cell)
    nest.Simulate(T_END)
    ev = mm.get("events")
    return np.sort(np.asarray(sr.get("events")["times"], dtype=float)), np.asarray(ev["times"]), np.asarray(ev["V_m"])


ours_spikes, ours_t, ours_v = volley_run()
nest_spikes, nest_t, nest_v = nest_run()

check(len(ours_spikes) == len(TIMES), f"volley recorded {len(ours_spikes)} source spikes of {len(TIMES)}")
err = np.max(np.abs(ours_spikes - np.asarray(TIMES)))
check(err < 1e-9, f"recorded source times differ from the given ones by {err:.3g} ms: {ours_spikes}")
check(len(nest_spikes) == len(TIMES), f"NEST recorded {len(nest_spikes)} source spikes of {len(TIMES)}")
err = np.max(np.abs(ours_spikes - nest_spikes))
check(err < 1e-9, f"recorded source times differ from NEST's by {err:.3g} ms\nvolley {ours_spikes}\nnest   {nest_spikes}")

# The membrane at the times both sampled (NEST's multimeter starts at one step and lags the
# run's end by the delay).
steps_ours = np.rint(ours_t / DT).astype(int)
steps_nest = np.rint(nest_t / DT).astype(int)
common, i_ours, i_nest = np.intersect1d(steps_ours, steps_nest, return_indices=True)
check(len(common) == len(nest_t) and len(common) > 250, f"{len(common)} common samples of NEST's {len(nest_t)}")
diff = np.abs(ours_v[i_ours] - nest_v[i_nest])
worst = int(np.argmax(diff))
check(diff[worst] < 1e-9, f"v differs from NEST's by {diff[worst]:.3g} mV at t = {common[worst] * DT:.2f} ms "
      f"(volley {ours_v[i_ours][worst]:.9f}, nest {nest_v[i_nest][worst]:.9f})")
moved = np.count_nonzero(np.abs(nest_v[i_nest] + 70.0) > 1e-3)
check(moved > 100, f"the cell barely moved ({moved} samples away from rest)")
print(f"{len(TIMES)} source spikes at NEST's precise times; v equal to NEST's at {len(common)} steps "
      f"within {diff[worst]:.2g} mV")
print("test_nest_offgrid: ok")
