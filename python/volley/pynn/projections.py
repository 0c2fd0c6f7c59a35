"""Projection of the Volley backend: PyNN's connectors produce the connections (with PyNN's
random numbers), which become one volley.FromList projection with per-synapse weights and delays
in the target model's units."""

from itertools import repeat

import numpy as np
from pyNN import common
from pyNN.connectors import OneToOneConnector
from pyNN.errors import NonExistentParameterError
from pyNN.parameters import LazyArray
from pyNN.space import Space

import volley

from . import simulator
from .errors_ import invalid, unsupported
from .standardmodels import (MultiQuantalSynapse, SimpleStochasticSynapse, STDPMechanism, StaticSynapse,
                             TsodyksMarkramSynapse)

# The ranges of the parameters and state variables below (the engine's, plasticity.hpp).
_PROBABILITY = (lambda x: (x >= 0) & (x <= 1), "a probability must lie in [0, 1]")
_TAU_REC = (lambda x: x > 0, "must be > 0 ms")
_TAU_FACIL = (lambda x: x >= 0, "must be >= 0 ms (0: no facilitation)")
# The synapse types whose parameters are kept per connection and given to the engine as lists,
# with their ranges, checked when they are made or set.
_PER_CONNECTION = {
    TsodyksMarkramSynapse: {"U": (lambda x: (x > 0) & (x <= 1), "U must lie in (0, 1]"), "tau_rec": _TAU_REC,
                            "tau_facil": _TAU_FACIL},
    SimpleStochasticSynapse: {"p": _PROBABILITY},
    MultiQuantalSynapse: {"U": (lambda x: (x >= 0) & (x <= 1), "U must lie in [0, 1]"),  # NEST allows U = 0
                          "n": (lambda x: (x >= 1) & (x <= 65535) & (x == np.floor(x)),
                                "the number of release sites must be a whole number in [1, 65535]"),
                          "tau_rec": _TAU_REC, "tau_facil": _TAU_FACIL},
}
# The state variables that Projection.initialize() sets, per synapse type, with their ranges.
_INITIAL = {MultiQuantalSynapse: {"u": (_PROBABILITY[0], "a release probability must lie in [0, 1]"),
                                  "a": (lambda x: (x >= 0) & (x == np.floor(x)),
                                        "the available sites must be a whole number >= 0")}}


def _connect(connector, projection):
    """connector.connect(projection), except for PyNN 0.13's OneToOneConnector between one-cell
    populations or views under NumPy 2: its map gives a 0-d boolean, on which pyNN/connectors.py
    calls nonzero(), which NumPy 2 refuses ("Calling nonzero on 0d arrays is not allowed"; every
    backend, pyNN.nest included). The same map, each column a 1-d array, makes the same
    connections."""
    if type(connector) is OneToOneConnector and np.lib.NumpyVersion(np.__version__) >= "2.0.0":
        connection_map = LazyArray(lambda i, j: i == j, shape=projection.shape)
        connector._standard_connect(
            projection, lambda mask=None: (np.atleast_1d(column) for column in connection_map.by_column(mask)))
    else:
        connector.connect(projection)


class Connection(common.Connection):
    """One connection of a Projection, as pyNN.nest and pyNN.brian2 hand them out: presynaptic_index
    and postsynaptic_index (in the pre and post populations), weight and delay (PyNN's units; the
    learned weight of a plastic projection after a run), and for an STDPMechanism its rule's
    parameters. weight and delay can be set before the first run()."""

    def __init__(self, projection, index):
        self.projection = projection
        self.index = index

    @property
    def presynaptic_index(self):
        return int(self.projection._value("presynaptic_index", self.index))

    @property
    def postsynaptic_index(self):
        return int(self.projection._value("postsynaptic_index", self.index))

    def _get_weight(self):
        return float(self.projection._value("weight", self.index))

    def _set_weight(self, value):
        self.projection._set_one("weight", self.index, value)

    def _get_delay(self):
        return float(self.projection._value("delay", self.index))

    def _set_delay(self, value):
        self.projection._set_one("delay", self.index, value)

    weight = property(_get_weight, _set_weight)
    delay = property(_get_delay, _set_delay)

    def __getattr__(self, name):
        if name in ("projection", "index"):  # not yet set (copy, pickle)
            raise AttributeError(name)
        if name in self.projection._synapse_parameter_names():
            return float(self.projection._value(name, self.index))
        raise AttributeError(f"connection {self.index} of projection {self.projection.label} has no attribute "
                             f"'{name}' (it has {', '.join(self.projection._attribute_names())})")

    def as_tuple(self, *attribute_names):
        return tuple(getattr(self, name) for name in attribute_names)

    def __repr__(self):
        return (f"Connection({self.projection.label}: {self.presynaptic_index} -> {self.postsynaptic_index}, "
                f"weight={self.weight:g}, delay={self.delay:g})")


class Projection(common.Projection):
    __doc__ = common.Projection.__doc__
    _simulator = simulator
    _static_synapse_class = StaticSynapse

    def __init__(self, presynaptic_population, postsynaptic_population, connector, synapse_type=None,
                 source=None, receptor_type=None, space=Space(), label=None):
        simulator.state.require_unbuilt("Projection()")
        common.Projection.__init__(self, presynaptic_population, postsynaptic_population, connector, synapse_type,
                                   source, receptor_type, space, label)
        if not isinstance(self.synapse_type, (StaticSynapse, STDPMechanism, *_PER_CONNECTION)):
            raise unsupported(f"projection {self.label}", "synapse_type", type(self.synapse_type).__name__,
                              "pyNN.volley has StaticSynapse, STDPMechanism, TsodyksMarkramSynapse, "
                              "SimpleStochasticSynapse and MultiQuantalSynapse")
        # The receptor type: PyNN has checked it against the target's; build() maps it onto Volley's.
        self._pre, self._post, self._weights, self._delays = [], [], [], []
        self._parts = []  # plastic: (Volley projection, positions of its connections in _columns())
        names = _PER_CONNECTION.get(type(self.synapse_type), {})
        self._extra = {name: [] for name in names}  # per connection, as _weights
        self._initial = {}  # initialize()'s state variables: one value per connection
        _connect(connector, self)
        self._check_extra()
        simulator.state.projections.append(self)

    def _check_extra(self):
        """Refuses a short-term plasticity or release parameter, or a state variable given to
        initialize(), out of its range, naming the projection, the connection, the parameter and
        the value (InvalidParameterValue)."""
        kind = type(self.synapse_type)
        ranges = {**_PER_CONNECTION.get(kind, {}), **_INITIAL.get(kind, {})}
        columns = {name: np.concatenate(chunks) for name, chunks in self._extra.items() if chunks}
        columns.update(self._initial)
        for name, values in columns.items():
            ok, why = ranges[name]
            bad = np.flatnonzero(~(np.isfinite(values) & ok(values)))
            if bad.size:
                raise invalid(f"projection {self.label} connection {int(bad[0])}", name, f"{values[bad[0]]:g}", why)
        if "a" in self._initial:
            sites = np.concatenate(self._extra["n"]) if self._extra["n"] else np.array([])
            bad = np.flatnonzero(self._initial["a"] > sites)
            if bad.size:
                raise invalid(f"projection {self.label} connection {int(bad[0])}", "a", f"{self._initial['a'][bad[0]]:g}",
                              f"the available sites must be <= n ({sites[bad[0]]:g})")

    def _set_initial_value_array(self, variable, value):
        """Projection.initialize(): the state of each connection before the first spike (a
        MultiQuantalSynapse's u and a), before the first run()."""
        names = _INITIAL.get(type(self.synapse_type), {})
        if variable not in names:
            raise unsupported(f"projection {self.label}", "initialize()", variable,
                              f"{type(self.synapse_type).__name__} has no state variable Volley sets"
                              + (f" other than {', '.join(names)}" if names else ""))
        if simulator.state.simulation is not None:
            raise unsupported(f"projection {self.label}", "initialize()", variable,
                              "Volley builds the network at the first run(); initialize before it")
        values = np.broadcast_to(np.asarray(value.evaluate(simplify=True), dtype=float), (len(self),)).copy()
        previous = self._initial.get(variable)
        self._initial[variable] = values
        try:
            self._check_extra()
        except Exception:
            if previous is None:
                del self._initial[variable]
            else:
                self._initial[variable] = previous
            raise

    def __len__(self):
        return sum(len(p) for p in self._pre)

    def __getitem__(self, i):
        n = len(self)
        if not -n <= i < n:
            raise IndexError(f"projection {self.label}: connection {i} out of range ({n} connections)")
        return Connection(self, i % n)

    @property
    def connections(self):
        """An iterator over the connections, as Connection objects."""
        return (Connection(self, i) for i in range(len(self)))

    def _set_one(self, name, index, value):
        """Sets `name` (weight or delay) of connection `index`, before the first run()."""
        if simulator.state.simulation is not None:
            raise unsupported(f"projection {self.label}", f"connection {index} {name}", value,
                              "Volley builds the network at the first run(); set weights and delays before it")
        value = float(value)
        if name == "weight":
            from pyNN.standardmodels.base import check_weights
            check_weights(np.array([value]), self)
        elif value < self.synapse_type._get_minimum_delay() - 1e-12:
            raise invalid(f"projection {self.label}", f"connection {index} delay", value,
                          f"must be >= the minimum delay ({self.synapse_type._get_minimum_delay():g} ms)")
        chunk, offset = self._locate(index)
        (self._weights if name == "weight" else self._delays)[chunk][offset] = value

    def _locate(self, index):
        """(chunk, offset): where connection `index` lies in _pre, _post, _weights, _delays."""
        for chunk, part in enumerate(self._pre):
            if index < len(part):
                return chunk, index
            index -= len(part)
        raise IndexError(f"projection {self.label}: connection {index} out of range")

    def _value(self, name, index):
        """Attribute `name` of connection `index`, read without building every column."""
        plastic_weight = name == "weight" and self._parts and simulator.state.simulation is not None
        if name not in ("presynaptic_index", "postsynaptic_index", "weight", "delay") or plastic_weight:
            return self._column(name)[index]
        chunk, offset = self._locate(index)
        lists = {"presynaptic_index": self._pre, "postsynaptic_index": self._post, "weight": self._weights,
                 "delay": self._delays}
        return lists[name][chunk][offset]

    def _synapse_parameter_names(self):
        """The synapse type's own parameters beyond weight and delay (an STDPMechanism's, a
        TsodyksMarkramSynapse's)."""
        if self._extra:
            return list(self._extra)
        if not isinstance(self.synapse_type, STDPMechanism):
            return []
        return [name for name in self.synapse_type.get_parameter_names() if name not in ("weight", "delay")]

    def _attribute_names(self):
        return ["presynaptic_index", "postsynaptic_index", "weight", "delay"] + self._synapse_parameter_names()

    def _column(self, name):
        if name in ("weight", "delay", "presynaptic_index", "postsynaptic_index"):
            return self._columns()[name]
        return self._parameter_column(name)

    def _parameter_column(self, name):
        """The STDPMechanism or TsodyksMarkramSynapse parameter `name` of each connection (PyNN's
        names and units)."""
        if name in self._extra:
            return np.concatenate(self._extra[name]) if self._extra[name] else np.array([])
        pre = np.concatenate(self._pre) if self._pre else np.array([], dtype=np.int64)
        post = np.concatenate(self._post) if self._post else np.array([], dtype=np.int64)
        values = self.synapse_type.parameter_space[name]
        values.shape = (self.pre.size, self.post.size)
        full = np.broadcast_to(np.asarray(values.evaluate(simplify=False), dtype=float),
                               (self.pre.size, self.post.size))
        return full[pre, post]

    def set(self, **attributes):
        if simulator.state.simulation is not None:
            raise unsupported(f"projection {self.label}", "set()", ", ".join(attributes),
                              "Volley builds the network at the first run(); set weights and delays before it")
        for name in attributes:
            if name not in ("weight", "delay") and name not in self._extra:
                raise unsupported(f"projection {self.label}", "set()", name,
                                  "pyNN.volley sets weight, delay and the parameters of a TsodyksMarkramSynapse, "
                                  "SimpleStochasticSynapse or MultiQuantalSynapse (STDP parameters are given to "
                                  "STDPMechanism)")
        common.Projection.set(self, **attributes)

    def _set_attributes(self, parameter_space):
        """PyNN's set(): each connection (i, j) takes the value at [i, j] of the
        (pre.size, post.size) parameter space."""
        if not self._pre:
            return
        pre, post = np.concatenate(self._pre), np.concatenate(self._post)
        sizes = np.cumsum([len(p) for p in self._pre])[:-1]
        for name, value in parameter_space.items():
            value.shape = (self.pre.size, self.post.size)
            full = np.broadcast_to(np.asarray(value.evaluate(simplify=False), dtype=float),
                                   (self.pre.size, self.post.size))
            chosen = full[pre, post].copy()
            if name == "weight" and len(chosen):
                # PyNN's sign convention, as the connectors check it when they make connections
                from pyNN.standardmodels.base import check_weights
                check_weights(chosen, self)
            target = self._weights if name == "weight" else self._delays if name == "delay" else self._extra[name]
            previous = list(target)
            target[:] = np.split(chosen, sizes)
            try:
                self._check_extra()
            except Exception:
                target[:] = previous
                raise

    def _columns(self):
        """The connections as columns, in PyNN's units and local indices of pre and post."""
        if not self._pre:
            return {name: np.array([]) for name in ("presynaptic_index", "postsynaptic_index", "weight", "delay")}
        return {"presynaptic_index": np.concatenate(self._pre), "postsynaptic_index": np.concatenate(self._post),
                "weight": self._current_weights(), "delay": np.concatenate(self._delays)}

    def _current_weights(self):
        """The weights in PyNN's units: as made, or as learned so far for a plastic projection."""
        weights = np.concatenate(self._weights)
        sim = simulator.state.simulation
        if not self._parts or sim is None:
            return weights
        for index, positions, pre, post, scale in self._parts:
            sources, targets, learned = (np.asarray(a) for a in sim.weights(index))
            order = np.argsort(post, kind="stable")  # Volley lists a projection's synapses by target
            if not (np.array_equal(sources, pre[order]) and np.array_equal(targets, post[order])):
                raise RuntimeError(f"projection {self.label}: Volley's synapses do not match PyNN's connections")
            where = positions[order]
            changed = learned != weights[where] * scale  # unchanged weights keep PyNN's value, unrounded
            weights[where[changed]] = learned[changed] / scale
        return weights

    def _stdp_rule(self, scale, delays):
        """The volley.StdpPair of this projection's STDPMechanism, in Volley's weight units
        (weights times `scale`), with the dendritic share of `delays` [ms]."""
        syn = self.synapse_type
        values = {}
        for name, value in syn.native_parameters.items():
            if name in ("weight", "delay"):
                continue
            if not value.is_homogeneous:
                raise unsupported(f"projection {self.label}", name, "heterogeneous",
                                  "Volley's STDP parameters are one per projection")
            value.shape = (1,)
            values[name] = float(value.evaluate(simplify=True))
        w_min, w_max = values["w_min"] * scale, values["w_max"] * scale
        span = w_max - w_min
        dependence = syn.weight_dependence.volley_dependence
        # NEST's stdp_synapse (lambda = A_plus, alpha = A_minus / A_plus, Wmax) and pyNN.brian2:
        # a weight-independent change is A times w_max; a weight-dependent one A times the
        # distance to the bound (w_max - w or w - w_min), which the engine scales by 1 / span.
        a_plus = values["A_plus"] * (span if dependence == "soft_bounds" else w_max)
        a_minus = values["A_minus"] * (w_max if dependence == "additive" else span)
        fraction = values["dendritic_delay_fraction"]
        dendritic_ms = 0.0
        if fraction != 0.5:
            if not np.all(delays == delays[0]):
                raise unsupported(f"projection {self.label}", "delay", "heterogeneous",
                                  f"with dendritic_delay_fraction = {fraction:g} Volley's STDP needs one delay per "
                                  "projection (its post spikes are delayed by one time per projection)")
            # pre seen at t_pre + (1 - f)·d, post at t_post + f·d: the post side is late by (2f - 1)·d
            dendritic_ms = (2 * fraction - 1) * float(delays[0])
        return volley.StdpPair(tau_plus_ms=values["tau_plus"], tau_minus_ms=values["tau_minus"], a_plus=a_plus,
                               a_minus=a_minus, w_min=w_min, w_max=w_max, dependence=dependence,
                               pairing="all_to_all", dendritic_delay_ms=dendritic_ms)

    def _per_connection_rule(self, mask, post_pop, post):
        """The engine rule of the connections `mask` onto cells `post` of `post_pop`: a
        volley.StochasticRelease with p per connection, or a volley.TsodyksMarkram with U, tau_rec
        and tau_facil per connection and tau_psc the target's tau_syn of this receptor (as
        pyNN.nest gives NEST's tsodyks_synapse)."""
        values = {name: np.concatenate(self._extra[name])[mask] for name in self._extra}
        if isinstance(self.synapse_type, SimpleStochasticSynapse):
            return volley.StochasticRelease(p_transmit=values["p"])
        if isinstance(self.synapse_type, MultiQuantalSynapse):
            initial = {name: v[mask] for name, v in self._initial.items()}
            return volley.QuantalRelease(u=values["U"], tau_rec_ms=values["tau_rec"], tau_facil_ms=values["tau_facil"],
                                         sites=values["n"], initial_u=initial.get("u"), initial_available=initial.get("a"))
        key = "tau_syn_E" if self.receptor_type == "excitatory" else "tau_syn_I"
        tau_syn = post_pop._parameters.get(key)
        tau_psc = np.zeros(len(post)) if tau_syn is None else np.asarray(tau_syn, dtype=float)[post]
        return volley.TsodyksMarkram(u=values["U"], tau_rec_ms=values["tau_rec"], tau_facil_ms=values["tau_facil"],
                                     tau_psc_ms=tau_psc)

    def _named_columns(self, names):
        """The columns of `names`: those of _columns() and the STDPMechanism's parameters."""
        columns = self._columns()
        known = self._attribute_names()
        for name in names:
            if name not in known:
                raise NonExistentParameterError(name, f"projection {self.label} ({type(self.synapse_type).__name__})",
                                                known)
            if name not in columns:
                columns[name] = self._parameter_column(name)
        return columns

    def _get_attributes_as_list(self, names):
        columns = self._named_columns(names)
        return list(zip(*(columns[name].tolist() for name in names)))

    def _get_attributes_as_arrays(self, names, multiple_synapses="sum"):
        operation = common.Projection.MULTI_SYNAPSE_OPERATIONS[multiple_synapses]
        names = [{"weights": "weight", "delays": "delay"}.get(name, name) for name in names]
        columns = self._named_columns(names)
        out = []
        for name in names:
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
        for name, out in (("weight", self._weights), ("delay", self._delays), *self._extra.items()):
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
        plastic = isinstance(self.synapse_type, STDPMechanism)
        self._parts = []
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
                t = post_pop._translation
                receptor = t.receptors.get(self.receptor_type)
                if receptor is None:
                    raise unsupported(f"projection {self.label}", "receptor_type", self.receptor_type,
                                      f"population {post_pop.label} has the receptor types {', '.join(t.receptors)}")
                if receptor == "inhibitory" and not t.signed_weights and not post_pop.conductance_based:
                    if plastic:
                        raise unsupported(f"projection {self.label}", "receptor_type", "inhibitory",
                                          "Volley's STDP keeps weights >= 0; current-based inhibitory weights are "
                                          "negative (use a conductance-based target)")
                    weights = -np.abs(weights)
                rule = None
                if plastic:
                    if not np.all(scale[post] == scale[post][0]):
                        raise unsupported(f"projection {self.label}", "target", post_pop.label,
                                          "Volley's STDP bounds are one per projection, and the weight units of "
                                          "these targets differ (heterogeneous tau_m or cm)")
                    rule = self._stdp_rule(float(scale[post][0]), all_delays[mask])
                if self._extra:
                    rule = self._per_connection_rule(mask, post_pop, post)
                index = net.connect(pre_pop._volley_index, post_pop._volley_index,
                                    volley.FromList(pre.astype(np.uint32).tolist(), post.astype(np.uint32).tolist()),
                                    weight=weights, delay_ms=all_delays[mask], receptor=receptor,
                                    plasticity=rule)
                if plastic:
                    self._parts.append((index, np.nonzero(mask)[0], pre.astype(np.int64), post.astype(np.int64),
                                        float(scale[post][0])))
