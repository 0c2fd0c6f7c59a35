"""Projection of the Volley backend: PyNN's connectors produce the connections (with PyNN's
random numbers), which become one volley.FromList projection with per-synapse weights and delays
in the target model's units."""

from itertools import repeat

import numpy as np
from pyNN import common
from pyNN.space import Space

import volley

from . import simulator
from .errors_ import unsupported
from .standardmodels import StaticSynapse


class Projection(common.Projection):
    __doc__ = common.Projection.__doc__
    _simulator = simulator
    _static_synapse_class = StaticSynapse

    def __init__(self, presynaptic_population, postsynaptic_population, connector, synapse_type=None,
                 source=None, receptor_type=None, space=Space(), label=None):
        simulator.state.require_unbuilt("Projection()")
        common.Projection.__init__(self, presynaptic_population, postsynaptic_population, connector, synapse_type,
                                   source, receptor_type, space, label)
        if not isinstance(self.synapse_type, StaticSynapse):
            raise unsupported(f"projection {self.label}", "synapse_type", type(self.synapse_type).__name__,
                              "pyNN.volley has StaticSynapse only (STDP is not mapped yet)")
        if self.receptor_type not in ("excitatory", "inhibitory"):
            raise unsupported(f"projection {self.label}", "receptor_type", self.receptor_type,
                              "must be excitatory or inhibitory")
        self._pre, self._post, self._weights, self._delays = [], [], [], []
        connector.connect(self)
        simulator.state.projections.append(self)

    def __len__(self):
        return sum(len(p) for p in self._pre)

    def set(self, **attributes):
        raise unsupported(f"projection {self.label}", "set()", ", ".join(attributes),
                          "changing synapses after they are made is not supported by pyNN.volley")

    def _columns(self):
        """The connections as columns, in PyNN's units and local indices of pre and post."""
        if not self._pre:
            return {name: np.array([]) for name in ("presynaptic_index", "postsynaptic_index", "weight", "delay")}
        return {"presynaptic_index": np.concatenate(self._pre), "postsynaptic_index": np.concatenate(self._post),
                "weight": np.concatenate(self._weights), "delay": np.concatenate(self._delays)}

    def _get_attributes_as_list(self, names):
        columns = self._columns()
        for name in names:
            if name not in columns:
                raise unsupported(f"projection {self.label}", "attribute", name, "Volley's synapses have weight and delay")
        return list(zip(*(columns[name].tolist() for name in names)))

    def _get_attributes_as_arrays(self, names, multiple_synapses="sum"):
        operation = common.Projection.MULTI_SYNAPSE_OPERATIONS[multiple_synapses]
        columns = self._columns()
        out = []
        for name in names:
            name = name[:-1] if name.endswith("s") else name  # weights -> weight
            if name not in columns:
                raise unsupported(f"projection {self.label}", "attribute", name, "Volley's synapses have weight and delay")
            values = np.full((self.pre.size, self.post.size), np.nan)
            for i, j, v in zip(columns["presynaptic_index"], columns["postsynaptic_index"], columns[name]):
                values[i, j] = v if np.isnan(values[i, j]) else operation(values[i, j], v)
            out.append(values)
        return out

    def _convergent_connect(self, presynaptic_indices, postsynaptic_index, location_selector=None,
                            **connection_parameters):
        if location_selector is not None:
            raise unsupported(f"projection {self.label}", "location_selector", location_selector,
                              "Volley has point neurons only")
        n = len(presynaptic_indices)
        self._pre.append(np.asarray(presynaptic_indices, dtype=np.int64))
        self._post.append(np.full(n, int(postsynaptic_index), dtype=np.int64))
        for name, out in (("weight", self._weights), ("delay", self._delays)):
            value = connection_parameters.get(name)
            out.append(np.broadcast_to(np.asarray(value, dtype=float), (n,)).copy())

    def _indices(self, pop_like):
        """(population, index array) of a Population or PopulationView."""
        if hasattr(pop_like, "parent"):
            root = pop_like.parent
            while hasattr(root, "parent"):
                root = root.parent
            return root, np.asarray(root.id_to_index(pop_like.all_cells), dtype=np.int64)
        return pop_like, np.arange(pop_like.size)

    def _flatten(self, pop_like):
        """(root populations, root number per cell, index in its root per cell) of a Population,
        PopulationView or Assembly (whose cells are its populations' cells in order)."""
        if hasattr(pop_like, "populations"):  # an Assembly
            roots, which, local = [], [], []
            for part in pop_like.populations:
                r, w, i = self._flatten(part)
                which.append(w + len(roots))
                local.append(i)
                roots += r
            return roots, np.concatenate(which), np.concatenate(local)
        root, index = self._indices(pop_like)
        return [root], np.zeros(len(index), dtype=np.int64), index

    def _add_to(self, net):
        if not self._pre:
            return
        pre_roots, pre_which, pre_local = self._flatten(self.pre)
        post_roots, post_which, post_local = self._flatten(self.post)
        pre_cells, post_cells = np.concatenate(self._pre), np.concatenate(self._post)
        all_weights, all_delays = np.concatenate(self._weights), np.concatenate(self._delays)
        pre_root, post_root = pre_which[pre_cells], post_which[post_cells]
        # One Volley projection per pair of root populations the connections join.
        for a in np.unique(pre_root):
            for b in np.unique(post_root):
                mask = (pre_root == a) & (post_root == b)
                if not mask.any():
                    continue
                pre_pop, post_pop = pre_roots[a], post_roots[b]
                pre, post = pre_local[pre_cells[mask]], post_local[post_cells[mask]]
                scale = post_pop._translation.weight_scale
                if scale is None:
                    raise unsupported(f"projection {self.label}", "target", post_pop.label,
                                      "a spike source cannot be a target")
                weights = all_weights[mask] * scale[post]
                if self.receptor_type == "inhibitory" and not post_pop.conductance_based:
                    weights = -np.abs(weights)
                net.connect(pre_pop._volley_index, post_pop._volley_index,
                            volley.FromList(pre.astype(np.uint32).tolist(), post.astype(np.uint32).tolist()),
                            weight=weights, delay_ms=all_delays[mask], receptor=self.receptor_type)
