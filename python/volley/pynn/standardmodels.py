"""The standard cell types, current sources and synapses of the Volley backend. Parameters keep
PyNN's names and units (identity translations); the unit conversion happens once, when the
network is built (cells.py)."""

import numpy as np
from pyNN.parameters import Sequence
from pyNN.standardmodels import build_translations, cells, electrodes, synapses

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
HH_cond_exp = _cell(cells.HH_cond_exp)
SpikeSourcePoisson = _cell(cells.SpikeSourcePoisson)
SpikeSourceArray = _cell(cells.SpikeSourceArray)


class _VolleyCurrentSource:
    """Registers the cells a source is injected into; the network takes it when it is built.
    Its parameters (PyNN's names and units) can be read at any time (source.amplitude,
    get_parameters()) and set until the first run()."""

    def __init__(self, **parameters):
        super().__init__(**parameters)
        self._check()

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
        if simulator.state.simulation is not None:
            names = ", ".join(parameters.keys())
            values = ", ".join(f"[{', '.join(f'{x:g}' for x in value.value)}]" if isinstance(value, Sequence)
                               else f"{value:g}" for _, value in parameters.items())
            raise unsupported(f"current source {type(self).__name__}", names, values,
                              "Volley builds its current inputs at the first run(); changing them after it is not "
                              "supported yet (set them before the first run(), or call setup() again)")
        previous = {name: self.parameter_space[name] for name in parameters.keys()}
        self.parameter_space.update(**dict(parameters.items()))
        try:
            self._check()
        except Exception:
            self.parameter_space.update(**previous)
            raise

    def _check(self):
        pass


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


def _unsupported_source(base, why):
    def __init__(self, *args, **kwargs):
        from .errors_ import unsupported
        raise unsupported("pyNN.volley", "current source", base.__name__, why)
    return type(base.__name__, (base,), {"__doc__": base.__doc__, "__init__": __init__})


ACSource = _unsupported_source(electrodes.ACSource, "Volley's current inputs are DC and step currents "
                               "(use a StepCurrentSource sampled at the time step for a sine)")
NoisyCurrentSource = _unsupported_source(electrodes.NoisyCurrentSource,
                                         "Volley's current inputs are DC and step currents (use a "
                                         "StepCurrentSource with drawn amplitudes for noise)")


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
TsodyksMarkramSynapse = _not_supported(synapses.TsodyksMarkramSynapse, "Volley has no short-term plasticity")
StochasticTsodyksMarkramSynapse = _not_supported(synapses.StochasticTsodyksMarkramSynapse,
                                                 "Volley has no short-term plasticity")
MultiQuantalSynapse = _not_supported(synapses.MultiQuantalSynapse, "Volley has no short-term plasticity")
SimpleStochasticSynapse = _not_supported(synapses.SimpleStochasticSynapse, "Volley's synapses always transmit")
ElectricalSynapse = _not_supported(synapses.ElectricalSynapse, "Volley has no gap junctions")
