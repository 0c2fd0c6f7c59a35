"""Volley's quantal_release against NEST's quantal_stp_synapse and against the exact expectation.
One source with an irregular train drives 4,000 lif_delta cells (tau_m 1e9 ms) through the rule,
and each jump of v, divided by the weight, is the number of sites a spike released onto a cell.
The two simulators draw different random numbers, so they agree in distribution: for each spike
the mean over the cells is checked against the exact expected release (linear in the expected
available sites, so it follows a closed recursion: m = u E[a]; E[a] <- E[a](1 - u), then
E[a] <- E[a] + (n - E[a])(1 - exp(-h / tau_rec)); u <- U + u (1 - U) exp(-h / tau_facil)) within
4.5 standard errors on both, and the variances of the two within 5 standard errors of each
other. Four parameter sets: PyNN's example's depressing and facilitating synapses, strong
facilitation with immediate recovery, and a start state other than (U, n). Skips without NEST."""


from volley_test_support import check, quantal_release_expectation, require, volley_module

volley = volley_module()
import numpy as np  # noqa: E402

nest = require("nest", "NEST is not installed (pip install nest-simulator): nothing to compare with")

DT, W, TAU_M, CELLS, EVERY = 0.1, 0.5, 1e9, 4000, 0.5
TIMES = [3.0, 5.5, 6.5, 14.0, 40.0, 41.0, 95.0, 97.5, 99.0, 180.0]  # on the 0.5 ms sampling grid
CASES = [  # U, tau_rec, tau_facil, n, u0, a0 (None: U and n)
    (0.8, 100.0, 0.0, 5, None, None),
    (0.04, 50.0, 200.0, 5, None, None),
    (0.1, 1e-3, 50.0, 20, None, None),
    (0.5, 30.0, 20.0, 3, 0.2, 1),
]


def expected(U, tau_rec, tau_facil, n, u0, a0):
    return np.array(quantal_release_expectation(TIMES, U, tau_rec, tau_facil, n, U if u0 is None else u0,
                                                float(n if a0 is None else a0)))


def quanta(v):
    """v sampled every EVERY ms from 0: the sites released by each spike onto each cell."""
    at = [int(round(t / EVERY)) for t in TIMES]
    return np.stack([(v[k + 1] - v[k]) / W for k in at], axis=1)


def volley_quanta(U, tau_rec, tau_facil, n, u0, a0):
    net = volley.Network()
    src = net.add_population("src", 1, "spike_source", spike_times_ms=[TIMES])
    tgt = net.add_population("tgt", CELLS, "lif_delta", tau_m_ms=TAU_M, v_rest_mv=0.0, v_reset_mv=-1.0,
                             v_thresh_mv=1e9, t_ref_ms=0.0)
    rule = volley.QuantalRelease(u=U, tau_rec_ms=tau_rec, tau_facil_ms=tau_facil, sites=n, initial_u=u0,
                                 initial_available=a0)
    net.connect(src, tgt, volley.AllToAll(), weight=W, delay_ms=2 * DT, plasticity=rule)
    sim = volley.Simulation(net, dt_ms=DT, seed=11)
    v = sim.record_state(tgt, "v_mv", EVERY)
    sim.run(TIMES[-1] + 2)
    return quanta(np.asarray(v.values))


def nest_quanta(U, tau_rec, tau_facil, n, u0, a0):
    nest.ResetKernel()
    nest.resolution = DT
    nest.rng_seed = 11
    sg = nest.Create("spike_generator", params={"spike_times": TIMES})
    parrot = nest.Create("parrot_neuron")
    cells = nest.Create("iaf_psc_delta", CELLS, params={"tau_m": TAU_M, "E_L": 0.0, "V_m": 0.0, "V_th": 1e9,
                                                        "V_reset": -1.0, "t_ref": 0.0, "C_m": 1.0})
    nest.Connect(sg, parrot, syn_spec={"delay": DT})
    nest.Connect(parrot, cells, syn_spec={"synapse_model": "quantal_stp_synapse", "weight": W, "delay": DT, "U": U,
                                          "u": U if u0 is None else u0, "n": n, "a": n if a0 is None else a0,
                                          "tau_rec": tau_rec, "tau_fac": tau_facil})
    mm = nest.Create("multimeter", params={"record_from": ["V_m"], "interval": EVERY})
    nest.Connect(mm, cells)
    nest.Simulate(TIMES[-1] + 2)
    ev = mm.get("events")
    index = {g: i for i, g in enumerate(cells.tolist())}
    v = np.zeros((int(round((TIMES[-1] + 2) / EVERY)) + 1, CELLS))
    for g, t, x in zip(ev["senders"], ev["times"], ev["V_m"]):
        v[int(round(t / EVERY)), index[g]] = x
    return quanta(v)


for case in CASES:
    ours, theirs, exact = volley_quanta(*case), nest_quanta(*case), expected(*case)
    for name, q in (("volley", ours), ("nest", theirs)):
        check(np.allclose(q, np.round(q), atol=1e-6), f"{case}: {name} delivered a partial quantum")
        se = np.sqrt(q.var(axis=0) / CELLS) + 1e-9
        z = np.abs(q.mean(axis=0) - exact) / se
        check(np.all(z < 4.5), f"{case}: {name}'s mean release per spike {q.mean(axis=0)} differs from the "
              f"expectation {exact} (z = {z.max():.2f})")
    vo, vn = ours.var(axis=0), theirs.var(axis=0)
    tol = 5 * np.sqrt(2.0 / CELLS) * np.maximum(vo, vn) + 1e-9
    check(np.all(np.abs(vo - vn) < tol), f"{case}: variances per spike differ: volley {vo}, nest {vn}")
    print(f"{case}: mean sites per spike volley {np.round(ours.mean(axis=0), 3)}, nest "
          f"{np.round(theirs.mean(axis=0), 3)}, exact {np.round(exact, 3)}")
print("test_nest_quantal: ok")
