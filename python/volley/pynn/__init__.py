"""pyNN.volley: PyNN's backend API on Volley (docs/python.md, "PyNN").

    import volley.pynn as sim      # or, with the shim installed, import pyNN.volley as sim
    sim.setup(timestep=0.1)
    cells = sim.Population(100, sim.IF_curr_exp())
    ...

Cell types: IF_curr_exp, IF_curr_alpha, IF_curr_delta, IF_cond_exp, IF_cond_alpha, Izhikevich,
EIF_cond_exp_isfa_ista, EIF_cond_alpha_isfa_ista, HH_cond_exp, SpikeSourcePoisson, SpikeSourcePoissonRefractory,
SpikeSourceGamma, SpikeSourceArray, and PointNeuron composing a LIF with one or two
CurrExpPostSynapticResponse, CondExpPostSynapticResponse or CondAlphaPostSynapticResponse. Current sources: DCSource, StepCurrentSource, ACSource,
NoisyCurrentSource. Synapses: StaticSynapse, STDPMechanism (SpikePairRule with Additive,
Multiplicative or AdditivePotentiationMultiplicativeDepression weight dependence),
TsodyksMarkramSynapse, SimpleStochasticSynapse, MultiQuantalSynapse. Every PyNN connector; NativeRNG (a NumpyRNG
seeded from setup() unless given a seed). Spikes and state
variables are recorded into Neo blocks, an injected current through its source's record().
The network is built at the first run(); afterwards a current source's parameters, a
SpikeSourceArray's spike times and a Poisson source's parameters can change (from the next step
on), and any other change raises VolleyNotSupported naming what was changed.
"""

import os
import sys

from pyNN import errors, random, space  # noqa: F401
from pyNN.connectors import *  # noqa: F401,F403
from pyNN.network import Network  # noqa: F401
from pyNN.parameters import Sequence  # noqa: F401
from pyNN.random import NumpyRNG, RandomDistribution  # noqa: F401
from pyNN.recording import *  # noqa: F401,F403
from pyNN.space import Space  # noqa: F401
from pyNN.standardmodels import StandardCellType
from pyNN import common
from pyNN.connectors import FixedProbabilityConnector

from .control import (end, get_current_time, get_max_delay, get_min_delay, get_time_step,  # noqa: F401
                      initialize, num_processes, rank, reset, run, run_for, run_until, setup)
from .errors_ import VolleyNotSupported  # noqa: F401
from .populations import Assembly, Population, PopulationView  # noqa: F401
from .projections import Projection
from .standardmodels import *  # noqa: F401,F403
from .standardmodels import StaticSynapse
from . import simulator

create = common.build_create(Population)
connect = common.build_connect(Projection, FixedProbabilityConnector, StaticSynapse)
record = common.build_record(simulator)


class NativeRNG(NumpyRNG, random.NativeRNG):
    """PyNN's request for "the simulator's own random numbers" (pyNN.nest has NEST's). pyNN.volley
    draws connections and parameter values in Python in any case, so its NativeRNG is a NumpyRNG
    (it is also a pyNN.random.NativeRNG): seeded with `seed`, or, without one, with the seed
    setup() was given (rng_seed or seed, default 42), so that a script is reproducible."""

    def __init__(self, seed=None, parallel_safe=True):
        super().__init__(simulator.state.seed if seed is None else seed, parallel_safe)


def list_standard_models():
    """The StandardCellType classes this backend runs."""
    return [obj.__name__ for obj in globals().values()
            if isinstance(obj, type) and issubclass(obj, StandardCellType) and obj is not StandardCellType]


def install_pyNN_shim(pynn_dir=None):
    """Writes volley.py into the installed PyNN package (or into `pynn_dir`), so that
    `import pyNN.volley` finds this backend in any process; returns its path. PyNN finds
    backends only inside its own package. (After `import volley.pynn`, `pyNN.volley` is also
    an alias of it in this process.)"""
    import pyNN
    path = os.path.join(pynn_dir or os.path.dirname(pyNN.__file__), "volley.py")
    with open(path, "w") as f:
        f.write('"""PyNN backend for Volley (installed by volley.pynn.install_pyNN_shim)."""\n'
                "from volley.pynn import *  # noqa: F401,F403\n")
    return path


sys.modules.setdefault("pyNN.volley", sys.modules[__name__])
