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
