"""The backend's state: what PyNN has declared so far, and the volley.Simulation built from it at
the first run(). Volley builds a network once, so the structure (populations, projections,
current sources, parameters) is fixed from the first run until reset() or setup()."""

import numpy as np
from pyNN import common

import volley

from . import cells
from .errors_ import unsupported

name = "Volley"


class ID(int, common.IDMixin):
    def __init__(self, n):
        int.__init__(n)
        common.IDMixin.__init__(self)


class State(common.control.BaseState):
    def __init__(self):
        super().__init__()
        self.mpi_rank = 0
        self.num_processes = 1
        self.dt = 0.1
        self.min_delay = "auto"
        self.max_delay = "auto"
        self.threads = 1
        self.seed = 42
        self.clear()

    def clear(self):
        self.recorders = set()
        self.populations = []
        self.projections = []
        self.current_sources = []
        self.id_counter = 0
        self.segment_counter = -1
        self.simulation = None
        self.network = None
        self.reset()

    def reset(self):
        self.running = False
        self.t = 0.0
        self.t_start = 0.0
        self.segment_counter += 1
        if self.simulation is not None:
            self.simulation.reset()

    def require_unbuilt(self, what):
        if self.simulation is not None:
            raise unsupported("pyNN.volley", what, "after run()",
                              "Volley builds the network at the first run(); change it before, or call setup() again")

    def run(self, simtime):
        if self.simulation is None:
            self.build()
        self.running = True
        self.simulation.run(simtime)
        self.t = self.simulation.time_ms

    def run_until(self, tstop):
        """Runs up to `tstop` [ms]. A run of no length (within 1e-9 ms) does nothing; a `tstop`
        before the current time is a ValueError naming both."""
        duration = float(tstop) - self.t
        if duration < -1e-9:
            raise ValueError(f"pyNN.volley: run_until(t = {float(tstop):g} ms): t is earlier than the current "
                             f"time (now = {self.t:g} ms)")
        if duration <= 1e-9:
            return
        self.run(duration)

    def delays(self):
        """Every connection's delay [ms] over all projections (PyNN's units)."""
        parts = [d for prj in self.projections for d in prj._delays]
        return np.concatenate(parts) if parts else np.array([])

    def build(self):
        """Translates every population, projection and current source into a volley.Network."""
        net = volley.Network()
        for p in self.populations:
            values = {k: np.asarray(v, dtype=float) if k != "spike_times" else v
                      for k, v in p._native_values().items()}
            t = cells.translate(p.celltype, values)
            p._translation = t
            label = f"{p._volley_name}"
            scalar, varying = {}, {}
            for k, v in t.params.items():
                v = np.broadcast_to(np.asarray(v, dtype=float), (p.size,))
                (scalar if np.all(v == v[0]) else varying)[k] = v[0] if np.all(v == v[0]) else v
            p._volley_index = net.add_population(label, p.size, t.model, **scalar, **t.fixed)
            for k, v in varying.items():
                net.set_parameter(p._volley_index, k, v)
            for variable, value in p._initial_values.items():
                if variable not in t.state:
                    raise unsupported(f"population {p.label}", "initial value", variable,
                                      f"Volley's {t.model} has no such state variable")
                vname, factor = t.state[variable]
                net.initialise(p._volley_index, vname, np.broadcast_to(np.asarray(value, dtype=float) * factor,
                                                                        (p.size,)).copy())
        for prj in self.projections:
            prj._add_to(net)
        for source, _ in self.current_sources:
            source._stimuli, source._first_cell = [], None
        stimulus = 0
        for source, target in self.current_sources:
            stimulus = _inject(net, source, target, stimulus)
        self.network = net
        self.simulation = volley.Simulation(net, dt_ms=self.dt, seed=self.seed, threads=self.threads)
        for rec in self.recorders:
            rec._attach()


def _inject(net, source, target, stimulus):
    """A current source into the cells `target`, in each target model's units: one stimulus per
    (population, unit scale), numbered from `stimulus` on and remembered by the source so that it
    can change them after run(). Returns the number of the next stimulus."""
    groups = {}
    for cell in target:
        parent = cell.parent
        index = parent.id_to_index(cell)
        scale = parent._translation.current_scale
        if scale is None:
            raise unsupported(f"population {parent.label}", "current source", type(source).__name__,
                              "a spike source takes no current")
        groups.setdefault((id(parent), float(scale[index])), (parent, []))[1].append(int(index))
    for (_, scale), (parent, indices) in groups.items():
        net.inject(parent._volley_index, source._waveform(scale), indices)
        source._stimuli.append((stimulus, parent, scale))
        if source._first_cell is None:
            source._first_cell = (stimulus, indices[0], scale)
        stimulus += 1
    return stimulus


state = State()
