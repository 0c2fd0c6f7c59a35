"""Volley's tsodyks_markram against NEST's own synapse models, spike for spike: one source with
an irregular train drives a lif_delta cell (tau_m 1e7 ms) through the rule, and each jump of v
is the weight the synapse delivered. NEST's tsodyks_synapse (tau_psc > 0) and tsodyks2_synapse
(Volley's tau_psc = 0) drive iaf_psc_delta cells the same way. Every delivered weight agrees
within 1e-8 mV (weights of 2 mV: Volley sums input in fixed point, 2^-31 of the largest weight). Skips without NEST (pip install nest-simulator)."""

import math

from volley_test_support import check, require, volley_module

volley = volley_module()
import numpy as np  # noqa: E402

nest = require("nest", "NEST is not installed (pip install nest-simulator): nothing to compare with")

DT, W, TAU_M = 0.1, 2.0, 1e7
TIMES = [3.0, 5.5, 6.0, 14.2, 40.0, 41.1, 95.0, 97.3, 99.9, 180.0, 181.0, 300.0, 300.4, 301.0, 520.0]
CASES = [  # U, tau_rec, tau_facil, tau_psc
    (0.3, 120.0, 80.0, 5.0),
    (0.5, 800.0, 0.0, 3.0),
    (0.04, 100.0, 1000.0, 2.0),
    (0.45, 300.0, 0.0, 0.0),
    (0.1, 50.0, 200.0, 0.0),
]


def jumps(v):
    keep = math.exp(-DT / TAU_M)
    d = np.asarray(v[1:]) - np.asarray(v[:-1]) * keep
    return d[np.abs(d) > 1e-9]


def volley_weights(u, tau_rec, tau_facil, tau_psc):
    net = volley.Network()
    src = net.add_population("src", 1, "spike_source", spike_times_ms=[TIMES])
    tgt = net.add_population("tgt", 1, "lif_delta", tau_m_ms=TAU_M, v_rest_mv=0.0, v_reset_mv=-1.0, v_thresh_mv=1e9,
                             t_ref_ms=0.0)
    net.connect(src, tgt, volley.AllToAll(), weight=W, delay_ms=DT,
                plasticity=volley.TsodyksMarkram(u=u, tau_rec_ms=tau_rec, tau_facil_ms=tau_facil, tau_psc_ms=tau_psc))
    sim = volley.Simulation(net, dt_ms=DT, seed=1)
    v = sim.record_state(tgt, "v_mv", DT)
    sim.run(TIMES[-1] + 2)
    return jumps(v.values[:, 0])


def nest_weights(u, tau_rec, tau_facil, tau_psc):
    nest.ResetKernel()
    nest.resolution = DT
    sg = nest.Create("spike_generator", params={"spike_times": TIMES})
    parrot = nest.Create("parrot_neuron")
    cell = nest.Create("iaf_psc_delta", params={"tau_m": TAU_M, "E_L": 0.0, "V_m": 0.0, "V_th": 1e9, "V_reset": -1.0,
                                                "t_ref": 0.0, "C_m": 1.0})
    nest.Connect(sg, parrot)
    if tau_psc > 0:
        syn = {"synapse_model": "tsodyks_synapse", "tau_psc": tau_psc, "y": 0.0}
    else:
        syn = {"synapse_model": "tsodyks2_synapse"}
    syn.update({"weight": W, "delay": DT, "U": u, "u": 0.0 if tau_psc > 0 else u, "x": 1.0, "tau_rec": tau_rec,
                "tau_fac": tau_facil})
    nest.Connect(parrot, cell, syn_spec=syn)
    mm = nest.Create("multimeter", params={"record_from": ["V_m"], "interval": DT})
    nest.Connect(mm, cell)
    nest.Simulate(TIMES[-1] + 5)
    return jumps(mm.get("events")["V_m"])


for case in CASES:
    ours, theirs = volley_weights(*case), nest_weights(*case)
    check(len(ours) == len(TIMES) and len(theirs) == len(TIMES), f"{case}: {len(ours)} and {len(theirs)} jumps")
    err = np.max(np.abs(ours - theirs))
    check(err < 1e-8, f"U, tau_rec, tau_facil, tau_psc = {case}: delivered weights differ by {err:.3g} mV\n"
          f"volley {ours}\nnest   {theirs}")
    print(f"{case}: {len(ours)} weights equal to NEST's within {err:.2g} mV")
print("test_nest_tsodyks: ok")
