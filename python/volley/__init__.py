"""Volley: an event-driven spiking neural network simulator (docs/python.md).

    import volley
    net = volley.Network()
    exc = net.add_population("exc", 3200, "lif_exp", v_rest_mv=-49)
    net.initialise(exc, "v_mv", volley.Uniform(-60, -50))
    net.connect(exc, exc, volley.FixedProbability(0.02), weight=1.62, delay_ms=0.1)
    sim = volley.Simulation(net, dt_ms=0.1, seed=42)
    spikes = sim.record_spikes(exc)
    sim.run(1000.0)
    times, ids = spikes.spikes()
"""

from ._volley import *  # noqa: F401,F403
from ._volley import __version__  # noqa: F401


def spike_trains(recorder):
    """One sorted array of spike times [ms] per neuron of the recorder's population (by local
    id), for the functions of volley.analysis."""
    import numpy as np

    times, ids = recorder.spikes()
    order = np.argsort(ids, kind="stable")
    counts = np.bincount(ids, minlength=recorder.population_size)
    return np.split(times[order], np.cumsum(counts)[:-1])
