"""The standard cell types, current sources and synapses of the Volley backend. Parameters keep
PyNN's names and units (identity translations); the unit conversion happens once, when the
network is built (cells.py)."""

import numpy as np
from pyNN.parameters import Sequence
from pyNN.parameters import ParameterSpace
from pyNN.standardmodels import build_translations, cells, electrodes, receptors, synapses

import volley

from . import simulator
from .errors_ import invalid, unsupported


def _identity(base):
    return build_translations(*[(name, name) for name in base.default_parameters])


def _cell(base):
    return type(base.__name__, (base,), {"__doc__": base.__doc__, "translations": _identity(base)})


IF_curr_exp = _cell(cells.IF_curr_exp)
IF_curr_alpha = _cell(cells.IF_curr_alpha)
IF_curr_delta = _cell(cells.IF_curr_delta)
IF_cond_exp = _cell(cells.IF_cond_exp)
IF_cond_alpha = _cell(cells.IF_cond_alpha)
Izhikevich = _cell(cells.Izhikevich)
EIF_cond_exp_isfa_ista = _cell(cells.EIF_cond_exp_isfa_ista)
EIF_cond_alpha_isfa_ista = _cell(cells.EIF_cond_alpha_isfa_ista)
HH_cond_exp = _cell(cells.HH_cond_exp)
SpikeSourcePoisson = _cell(cells.SpikeSourcePoisson)
SpikeSourceArray = _cell(cells.SpikeSourceArray)
SpikeSourcePoissonRefractory = _cell(cells.SpikeSourcePoissonRefractory)
SpikeSourceGamma = _cell(cells.SpikeSourceGamma)


def _component(base, recordable):
    return type(base.__name__, (base,), {"__doc__": base.__doc__, "translations": _identity(base),
                                         "recordable": recordable})


# The parts of a composed cell (PointNeuron): a LIF and its post-synaptic responses.
LIF = _component(cells.LIF, ["spikes", "v"])
CurrExpPostSynapticResponse = _component(receptors.CurrExpPostSynapticResponse, ["isyn"])
CondExpPostSynapticResponse = _component(receptors.CondExpPostSynapticResponse, ["gsyn"])
CondAlphaPostSynapticResponse = _component(receptors.CondAlphaPostSynapticResponse, ["gsyn"])
# What PointNeuron refuses by name (cells.translate) rather than as an unknown attribute.
AdExp = _component(cells.AdExp, ["spikes", "v", "w"])
# pyNN.nest's short names for the responses.
ExpPSR, AlphaPSR = CondExpPostSynapticResponse, CondAlphaPostSynapticResponse


class PointNeuron(cells.PointNeuron):
    """A composed cell: a LIF with one or two post-synaptic responses of one kind (current
    exponential, conductance exponential or conductance alpha), run as Volley's lif_exp,
    lif_cond_exp or lif_cond_alpha with the responses on its two receptors (cells.translate).
    Its parameters keep PyNN's names, the responses' as "<receptor>.<parameter>"."""

    @property
    def translations(self):
        """Identity translations of the neuron's parameters and the responses' "<receptor>.<name>"
        (Population.get and set look names up here)."""
        translations = dict(self.neuron.translations)
        for name in self.receptor_types:
            for key in self.post_synaptic_receptors[name].translations:
                if key != "locations":
                    dotted = f"{name}.{key}"
                    same = (lambda n: lambda **values: values[n])(dotted)  # a dotted name cannot be eval'ed
                    translations[dotted] = {"translated_name": dotted, "forward_transform": same,
                                            "reverse_transform": same, "type": "simple"}
        return translations

    @property
    def native_parameters(self):
        space = self.neuron.native_parameters
        for name in self.receptor_types:
            for key, value in self.post_synaptic_receptors[name].native_parameters.items():
                if key != "locations":
                    space.update(**{f"{name}.{key}": value})
        return space

    def reverse_translate(self, native_parameters):
        own = {k: v for k, v in native_parameters.items() if "." not in k}
        standard = dict(self.neuron.reverse_translate(ParameterSpace(own, shape=native_parameters.shape)).items())
        standard.update({k: v for k, v in native_parameters.items() if "." in k})
        return ParameterSpace(standard, shape=native_parameters.shape)


class _VolleyCurrentSource:
    """Registers the cells a source is injected into; the network takes it when it is built.
    Its parameters (PyNN's names and units) can be read at any time (source.amplitude,
    get_parameters()) and set at any time: after a run() the change holds from the next step on
    (volley.Simulation.set_current). record() and get_data() give the current the engine applies
    to the first cell it drives, step by step, in nA."""

    def __init__(self, **parameters):
        super().__init__(**parameters)
        self._check()
        self._stimuli = []  # (index in the network's stimuli, population, scale), set at build
        self._first_cell = None  # (stimulus index, local index, scale) of the first cell driven

    def inject_into(self, cells_):
        simulator.state.require_unbuilt("inject_into")
        simulator.state.current_sources.append((self, cells_))

    def get_native_parameters(self):
        parameters = self.native_parameters
        parameters.shape = (1,)
        parameters.evaluate(simplify=True)
        return parameters

    def get_parameters(self):
        """{name: value} in PyNN's names and units: a float, or an array for times and amplitudes."""
        parameters = self.reverse_translate(self.get_native_parameters())
        parameters.evaluate(simplify=True)
        return {name: np.array(value.value) if isinstance(value, Sequence) else value
                for name, value in parameters.items()}

    def set_native_parameters(self, parameters):
        parameters.evaluate(simplify=True)
        previous = {name: self.parameter_space[name] for name in parameters.keys()}
        self.parameter_space.update(**dict(parameters.items()))
        try:
            self._check()
            sim = simulator.state.simulation
            for index, _, scale in (self._stimuli if sim is not None else []):
                sim.set_current(index, self._waveform(scale))
        except Exception:
            self.parameter_space.update(**previous)
            raise

    def _values(self):
        """{name: float or array} of the native parameters."""
        out = {}
        for name, value in self.get_native_parameters().items():
            out[name] = np.asarray(value.value, dtype=float) if isinstance(value, Sequence) else float(value)
        return out

    def _waveform(self, scale):
        """The volley current for cells whose current scale (nA to the model's units) is `scale`."""
        raise NotImplementedError

    def _check(self):
        pass

    def record(self):
        self._recorded = True

    def _get_data(self):
        state = simulator.state
        if self._first_cell is None or state.simulation is None:
            raise unsupported(f"current source {type(self).__name__}", "get_data()", "before run()",
                              "its current is known once it is injected and the network is built")
        index, cell, scale = self._first_cell
        steps = int(round(state.t / state.dt))
        current = state.simulation.current_trace(index, cell, steps + 1) / scale
        return np.arange(steps + 1) * state.dt, current


def _grid_steps(times, amplitudes, dt):
    """A StepCurrentSource's `times` and `amplitudes` checked (times >= 0, increasing) and put
    on the time grid: each time rounded to the nearest step, of times that fall on one step the
    last amplitude kept (as pyNN.neuron and pyNN.brian2)."""
    times = np.asarray(times, dtype=float).ravel()
    amplitudes = np.asarray(amplitudes, dtype=float).ravel()
    listed = f"[{', '.join(f'{t:g}' for t in times)}]"
    if times.size != amplitudes.size:
        raise invalid("StepCurrentSource", "times", listed,
                      f"{times.size} times for {amplitudes.size} amplitudes; give one amplitude per time")
    if times.size and not np.all(times >= 0):
        raise invalid("StepCurrentSource", "times", listed, "must be >= 0 ms")
    if not np.all(np.diff(times) > 0):
        raise invalid("StepCurrentSource", "times", listed, "must be strictly increasing")
    on_grid = np.rint(times / dt) * dt
    last = np.append(np.diff(np.rint(times / dt)) != 0, True)  # the last time of each step
    return on_grid[last], amplitudes[last]


class DCSource(_VolleyCurrentSource, electrodes.DCSource):
    __doc__ = electrodes.DCSource.__doc__
    translations = _identity(electrodes.DCSource)

    def _waveform(self, scale):
        v = self._values()
        return volley.DCCurrent(amplitude_mv=v["amplitude"] * scale, start_ms=v["start"], stop_ms=v["stop"])


class ACSource(_VolleyCurrentSource, electrodes.ACSource):
    __doc__ = electrodes.ACSource.__doc__
    translations = _identity(electrodes.ACSource)

    def _waveform(self, scale):
        v = self._values()
        return volley.ACCurrent(amplitude_mv=v["amplitude"] * scale, offset_mv=v["offset"] * scale,
                                frequency_hz=v["frequency"], phase_deg=v["phase"], start_ms=v["start"],
                                stop_ms=v["stop"])


class NoisyCurrentSource(_VolleyCurrentSource, electrodes.NoisyCurrentSource):
    __doc__ = electrodes.NoisyCurrentSource.__doc__
    translations = _identity(electrodes.NoisyCurrentSource)

    def _waveform(self, scale):
        v = self._values()
        return volley.NoiseCurrent(mean_mv=v["mean"] * scale, stdev_mv=v["stdev"] * scale, interval_ms=v["dt"],
                                   start_ms=v["start"], stop_ms=v["stop"])


class StepCurrentSource(_VolleyCurrentSource, electrodes.StepCurrentSource):
    __doc__ = electrodes.StepCurrentSource.__doc__
    translations = _identity(electrodes.StepCurrentSource)

    def _check(self):
        values = {}
        for name in ("times", "amplitudes"):
            value = self.parameter_space[name].base_value
            values[name] = value.value if isinstance(value, Sequence) else value
        times, amplitudes = _grid_steps(values["times"], values["amplitudes"], simulator.state.dt)
        self.parameter_space.update(times=Sequence(times), amplitudes=Sequence(amplitudes))

    def _waveform(self, scale):
        v = self._values()
        return volley.StepCurrent(list(np.atleast_1d(v["times"])), list(np.atleast_1d(v["amplitudes"]) * scale))


class StaticSynapse(synapses.StaticSynapse):
    __doc__ = synapses.StaticSynapse.__doc__
    translations = _identity(synapses.StaticSynapse)

    def _get_minimum_delay(self):
        d = simulator.state.min_delay
        return simulator.state.dt if d == "auto" else d


# ---- Plasticity -----------------------------------------------------------------------------
# STDPMechanism(SpikePairRule, Additive/Multiplicative/AdditivePotentiationMultiplicativeDepression)
# becomes Volley's stdp_pair (docs/python.md, "STDP"), with NEST's stdp_synapse definitions:
#   additive:        Δw+ = A_plus·w_max·x,        Δw- = A_minus·w_max·y
#   multiplicative:  Δw+ = A_plus·(w_max - w)·x,  Δw- = A_minus·(w - w_min)·y
#   additive potentiation, multiplicative depression: A_plus·w_max·x and A_minus·(w - w_min)·y
# all-to-all pairing, weights clipped to [w_min, w_max], and the delay split into a dendritic
# part (dendritic_delay_fraction) that the post spikes take to reach the synapse.

class STDPMechanism(synapses.STDPMechanism):
    __doc__ = synapses.STDPMechanism.__doc__
    base_translations = build_translations(
        ('weight', 'weight'),
        ('delay', 'delay'),
        ('dendritic_delay_fraction', 'dendritic_delay_fraction'),
    )

    def __init__(self, timing_dependence=None, weight_dependence=None, voltage_dependence=None,
                 dendritic_delay_fraction=1.0, weight=0.0, delay=None):
        from .errors_ import unsupported
        if voltage_dependence is not None:
            raise unsupported("STDPMechanism", "voltage_dependence", type(voltage_dependence).__name__,
                              "Volley's STDP depends on spike times only")
        if not isinstance(timing_dependence, SpikePairRule):
            raise unsupported("STDPMechanism", "timing_dependence", type(timing_dependence).__name__,
                              "pyNN.volley has SpikePairRule")
        if not isinstance(weight_dependence, _VOLLEY_WEIGHT_DEPENDENCES):
            raise unsupported("STDPMechanism", "weight_dependence", type(weight_dependence).__name__,
                              "pyNN.volley has AdditiveWeightDependence, MultiplicativeWeightDependence and "
                              "AdditivePotentiationMultiplicativeDepression")
        if dendritic_delay_fraction < 0.5:
            raise unsupported("STDPMechanism", "dendritic_delay_fraction", dendritic_delay_fraction,
                              "Volley delays post spikes for the rule (fractions 0.5 to 1); an axonal share over "
                              "half the delay would need pre spikes seen later than they are sent")
        super().__init__(timing_dependence, weight_dependence, voltage_dependence, dendritic_delay_fraction,
                         weight, delay)

    def _get_minimum_delay(self):
        d = simulator.state.min_delay
        return simulator.state.dt if d == "auto" else d


class SpikePairRule(synapses.SpikePairRule):
    __doc__ = synapses.SpikePairRule.__doc__
    translations = _identity(synapses.SpikePairRule)
    possible_models = {"stdp_pair"}


class AdditiveWeightDependence(synapses.AdditiveWeightDependence):
    __doc__ = synapses.AdditiveWeightDependence.__doc__
    translations = _identity(synapses.AdditiveWeightDependence)
    possible_models = {"stdp_pair"}
    volley_dependence = "additive"


class MultiplicativeWeightDependence(synapses.MultiplicativeWeightDependence):
    __doc__ = synapses.MultiplicativeWeightDependence.__doc__
    translations = _identity(synapses.MultiplicativeWeightDependence)
    possible_models = {"stdp_pair"}
    volley_dependence = "soft_bounds"


class AdditivePotentiationMultiplicativeDepression(synapses.AdditivePotentiationMultiplicativeDepression):
    __doc__ = synapses.AdditivePotentiationMultiplicativeDepression.__doc__
    translations = _identity(synapses.AdditivePotentiationMultiplicativeDepression)
    possible_models = {"stdp_pair"}
    volley_dependence = "multiplicative"


_VOLLEY_WEIGHT_DEPENDENCES = (AdditiveWeightDependence, MultiplicativeWeightDependence,
                              AdditivePotentiationMultiplicativeDepression)


def _not_supported(base, why):
    def __init__(self, *args, **kwargs):
        from .errors_ import unsupported
        raise unsupported("pyNN.volley", "synapse model", base.__name__, why)
    return type(base.__name__, (base,), {"__doc__": base.__doc__, "__init__": __init__})


GutigWeightDependence = _not_supported(
    synapses.GutigWeightDependence, "Volley's weight dependences are PyNN's additive, multiplicative and "
    "additive-potentiation-multiplicative-depression (Gütig's mu = 0 or 1)")
Vogels2011Rule = _not_supported(synapses.Vogels2011Rule, "Volley's STDP timing rule is SpikePairRule")


class TsodyksMarkramSynapse(synapses.TsodyksMarkramSynapse):
    """Volley's tsodyks_markram rule (docs/plasticity.md), as pyNN.nest's tsodyks_synapse: U,
    tau_rec and tau_facil per connection, tau_psc the target cell's tau_syn of the receptor."""
    translations = _identity(synapses.TsodyksMarkramSynapse)

    def _get_minimum_delay(self):
        d = simulator.state.min_delay
        return simulator.state.dt if d == "auto" else d
StochasticTsodyksMarkramSynapse = _not_supported(synapses.StochasticTsodyksMarkramSynapse,
                                                 "Volley's Tsodyks-Markram synapse is deterministic (its "
                                                 "stochastic release of several sites is MultiQuantalSynapse)")


class MultiQuantalSynapse(synapses.MultiQuantalSynapse):
    """Volley's quantal_release rule (docs/plasticity.md), as pyNN.nest's quantal_stp_synapse:
    U, n, tau_rec and tau_facil per connection; Projection.initialize(u=..., a=...) sets the
    release probability and the available sites before the first spike (by default U and n)."""
    translations = _identity(synapses.MultiQuantalSynapse)

    def __init__(self, **parameters):
        # PyNN's parameter space holds n as an integer and would truncate 2.5 to 2 silently.
        n = parameters.get("n")
        if isinstance(n, (int, float, np.integer, np.floating)) and not float(n).is_integer():
            from .errors_ import invalid
            raise invalid("MultiQuantalSynapse", "n", f"{n:g}", "the number of release sites must be a whole number")
        super().__init__(**parameters)

    def _get_minimum_delay(self):
        d = simulator.state.min_delay
        return simulator.state.dt if d == "auto" else d


class SimpleStochasticSynapse(synapses.SimpleStochasticSynapse):
    """Volley's stochastic_release rule (NEST's bernoulli_synapse): each spike crosses each
    connection with probability p, drawn from the simulation's seed."""
    translations = _identity(synapses.SimpleStochasticSynapse)

    def _get_minimum_delay(self):
        d = simulator.state.min_delay
        return simulator.state.dt if d == "auto" else d
ElectricalSynapse = _not_supported(synapses.ElectricalSynapse, "Volley has no gap junctions")
