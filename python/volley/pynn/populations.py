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
        simulator.state.require_unbuilt("set()")
        parameter_space.evaluate(simplify=False)
        cells.check(self.celltype, self.parent.label, dict(parameter_space.items()),
                    np.arange(self.parent.size)[self.mask])
        for name, value in parameter_space.items():
            self.parent._parameters[name][self.mask] = value

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
        simulator.state.require_unbuilt("set()")
        parameter_space.evaluate(simplify=False)
        cells.check(self.celltype, self.label, dict(parameter_space.items()))
        for name, value in parameter_space.items():
            self._parameters[name] = value
