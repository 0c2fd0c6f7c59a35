"""pyNN.volley's MultiQuantalSynapse (PyNN's examples/multiquantal_synapses.py): a SpikeSourceArray
drives 2,000 IF_cond_exp cells through the inhibitory receptor, and each jump of gsyn_inh at a
spike's arrival, divided by the weight, is the number of sites released onto a cell. Its mean
over the cells follows the exact expectation of the rule (tests/python/test_nest_quantal.py,
there also against NEST) within 4.5 standard errors, for the example's depressing synapse with
initialize(a=n, u=U) and with another start state (a = 1, u = 0.5); the state before the first
spike is U and n by default. Bad values: U, n, a > n, an unknown state variable, initialize()
after run(). Skips without PyNN."""

import math

from volley_test_support import check, quantal_release_expectation, require, volley_module

volley = volley_module()
require("pyNN", "PyNN is not installed (pip install pyNN)")
import numpy as np  # noqa: E402
import volley.pynn as sim  # noqa: E402
from pyNN.errors import InvalidParameterValueError  # noqa: E402

CELLS, W, TAU_I, DT = 2000, 0.01, 4.3, 0.1
TIMES = np.array([10.0, 20.0, 30.0, 40.0, 60.0, 150.0, 160.0])


def expected(U, tau_rec, tau_facil, n, u, a):
    return np.array(quantal_release_expectation(TIMES, U, tau_rec, tau_facil, n, u, float(a)))


def released(params, **initial):
    sim.setup(timestep=DT, min_delay=DT)
    src = sim.Population(1, sim.SpikeSourceArray(spike_times=TIMES))
    cells = sim.Population(CELLS, sim.IF_cond_exp(e_rev_I=-75, tau_syn_I=TAU_I))
    cells.record("gsyn_inh")
    prj = sim.Projection(src, cells, sim.AllToAllConnector(), receptor_type="inhibitory",
                         synapse_type=sim.MultiQuantalSynapse(weight=W, delay=0.5, **params))
    if initial:
        prj.initialize(**initial)
    sim.run(TIMES[-1] + 5)
    g = np.asarray(cells.get_data().segments[0].filter(name="gsyn_inh")[0].magnitude)
    sim.end()
    jump = g[1:] - g[:-1] * math.exp(-DT / TAU_I)
    out = []
    for t in TIMES:  # the arrival at t + 0.5 ms lies in the steps around it
        k = int(round((t + 0.5) / DT))
        out.append(jump[k - 2:k + 3].sum(axis=0) / W)
    return np.stack(out, axis=1)


def check_release(q, exact, what):
    check(np.allclose(q, np.round(q), atol=1e-4), f"{what}: a partial quantum")
    z = np.abs(q.mean(axis=0) - exact) / (np.sqrt(q.var(axis=0) / CELLS) + 1e-9)
    check(np.all(z < 4.5), f"{what}: mean release per spike {q.mean(axis=0)}, expected {exact} (z = {z.max():.2f})")
    print(f"{what}: mean sites per spike {np.round(q.mean(axis=0), 3)}, expected {np.round(exact, 3)}")


depressing = dict(U=0.8, tau_rec=100.0, tau_facil=0.0, n=5)
check_release(released(depressing, a=5, u=0.8), expected(0.8, 100.0, 0.0, 5, 0.8, 5), "depressing, n=5")
check_release(released(depressing), expected(0.8, 100.0, 0.0, 5, 0.8, 5), "depressing, n=5, default start")
check_release(released(dict(U=0.04, tau_rec=50.0, tau_facil=200.0, n=5), a=1, u=0.5),
              expected(0.04, 50.0, 200.0, 5, 0.5, 1), "facilitating, n=5, a=1, u=0.5")


def refused(make, words, error=InvalidParameterValueError):
    sim.setup(timestep=DT)
    try:
        make()
    except error as e:
        check(all(w in str(e) for w in words), f"the message lacks {words}: {e}")
    else:
        check(False, f"accepted: {words}")
    finally:
        sim.end()


def projection(**params):
    src = sim.Population(1, sim.SpikeSourceArray(spike_times=[1.0]))
    cells = sim.Population(2, sim.IF_cond_exp())
    return sim.Projection(src, cells, sim.AllToAllConnector(), receptor_type="inhibitory",
                          synapse_type=sim.MultiQuantalSynapse(weight=W, **params))


refused(lambda: projection(U=1.5), ["U", "1.5"])
refused(lambda: projection(n=2.5), ["n", "2.5"])
refused(lambda: projection(n=3).initialize(a=4), ["a", "4", "n (3)"])
refused(lambda: projection().initialize(x=1.0), ["x", "u, a"], sim.VolleyNotSupported)


def after_run():
    prj = projection()
    sim.run(2.0)
    prj.initialize(u=0.3)


refused(after_run, ["initialize", "first run"], sim.VolleyNotSupported)
print("test_pynn_quantal: ok")
