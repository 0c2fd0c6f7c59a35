"""Population, PopulationView and Assembly of the Volley backend: parameters and initial values
are kept as PyNN evaluates them, and read by simulator.State.build()."""

import numpy as np
from pyNN import common
from pyNN.parameters import ParameterSpace, simplify
from pyNN.standardmodels import StandardCellType

from . import cells, simulator
from .recording import Recorder


class Assembly(common.Assembly):
    _simulator = simulator


class PopulationView(common.PopulationView):
    _assembly_class = Assembly
    _simulator = simulator

    def _get_parameters(self, *names):
        native = self.celltype.get_native_names(*names)
        values = {name: simplify(np.asarray(self.parent._parameters[name])[self.mask]) for name in native}
        return self.celltype.reverse_translate(ParameterSpace(values, shape=(self.size,)))

    def _set_parameters(self, parameter_space):
        _require_settable(self.parent, parameter_space)
        parameter_space.evaluate(simplify=False)
        cells.check(self.celltype, self.parent.label, dict(parameter_space.items()),
                    np.arange(self.parent.size)[self.mask])
        previous = {name: self.parent._parameters[name].copy() for name in parameter_space.keys()}
        for name, value in parameter_space.items():
            self.parent._parameters[name][self.mask] = value
        _send_changes(self.parent, previous)

    def _set_initial_value_array(self, variable, initial_values):
        simulator.state.require_unbuilt("initialize()")
        current = np.broadcast_to(self.parent._initial_values.get(variable, np.nan), (self.parent.size,)).copy()
        current[self.mask] = initial_values.evaluate(simplify=False)
        self.parent._initial_values[variable] = current

    def _get_view(self, selector, label=None):
        return PopulationView(self, selector, label)


class Population(common.Population):
    __doc__ = common.Population.__doc__
    _simulator = simulator
    _recorder_class = Recorder
    _assembly_class = Assembly

    def _create_cells(self):
        simulator.state.require_unbuilt("Population()")
        if not isinstance(self.celltype, StandardCellType):
            raise TypeError(f"pyNN.volley runs standard cell types only, not {type(self.celltype).__name__}")
        ids = np.arange(simulator.state.id_counter, simulator.state.id_counter + self.size)
        self.all_cells = np.array([simulator.ID(i) for i in ids], dtype=simulator.ID)
        self._mask_local = np.ones(self.size, dtype=bool)
        parameter_space = self.celltype.native_parameters
        parameter_space.shape = (self.size,)
        parameter_space.evaluate(simplify=False)
        self._parameters = parameter_space.as_dict()
        cells.check(self.celltype, self.label, self._parameters)
        self._initial_values = {}
        for cell in self.all_cells:
            cell.parent = self
        simulator.state.id_counter += self.size
        self._volley_name = f"p{len(simulator.state.populations)}_{self.label}"
        simulator.state.populations.append(self)

    def _native_values(self):
        return dict(self._parameters)

    def _set_initial_value_array(self, variable, initial_values):
        simulator.state.require_unbuilt("initialize()")
        self._initial_values[variable] = initial_values.evaluate(simplify=False)

    def _get_view(self, selector, label=None):
        return PopulationView(self, selector, label)

    def _get_parameters(self, *names):
        native = self.celltype.get_native_names(*names)
        values = {name: simplify(self._parameters[name]) for name in native}
        return self.celltype.reverse_translate(ParameterSpace(values, shape=(self.size,)))

    def _set_parameters(self, parameter_space):
        _require_settable(self, parameter_space)
        parameter_space.evaluate(simplify=False)
        cells.check(self.celltype, self.label, dict(parameter_space.items()))
        previous = {name: self._parameters[name] for name in parameter_space.keys()}
        for name, value in parameter_space.items():
            self._parameters[name] = value
        _send_changes(self, previous)


_POISSON_TYPES = ("SpikeSourcePoisson", "SpikeSourcePoissonRefractory", "SpikeSourceGamma")
# Cell types on Volley's ODE models, whose parameters the engine takes between runs.
_ODE_TYPES = ("IF_cond_exp", "IF_cond_alpha", "Izhikevich", "EIF_cond_exp_isfa_ista", "EIF_cond_alpha_isfa_ista",
              "HH_cond_exp")
_SETTABLE_AFTER_RUN = _POISSON_TYPES + _ODE_TYPES


def _require_settable(population, parameter_space):
    """After run() a SpikeSourceArray's spike_times and the parameters of a Poisson source or of a
    cell on an ODE model can change (the engine takes them between runs); anything else is
    refused as before the network is built."""
    if simulator.state.simulation is None:
        return
    kind = type(population.celltype).__name__
    if kind == "SpikeSourceArray" and set(parameter_space.keys()) == {"spike_times"}:
        return
    if kind in _SETTABLE_AFTER_RUN:
        return
    simulator.state.require_unbuilt("set()")


def _send_changes(population, previous):
    """Hands a SpikeSourceArray's new trains, or a Poisson source's new parameters, to the running
    simulation; on refusal (a spike already past, a value out of range) the parameters go back to
    `previous` and the error rises."""
    sim = simulator.state.simulation
    kind = type(population.celltype).__name__
    if sim is None or (kind != "SpikeSourceArray" and kind not in _SETTABLE_AFTER_RUN):
        return
    try:
        t = cells.translate(population.celltype, population._native_values())
        if kind == "SpikeSourceArray":
            sim.set_spike_times(population._volley_index, t.fixed["spike_times_ms"])
        else:
            for name, value in t.params.items():
                sim.set_parameter(population._volley_index, name,
                                  np.broadcast_to(np.asarray(value, dtype=float), (population.size,)).copy())
    except Exception:
        population._parameters.update(previous)
        raise
