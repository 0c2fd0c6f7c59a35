"""The standard cell types, current sources and synapses of the Volley backend. Parameters keep
PyNN's names and units (identity translations); the unit conversion happens once, when the
network is built (cells.py)."""

from pyNN.standardmodels import build_translations, cells, electrodes, synapses

from . import simulator


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
    """Registers the cells a source is injected into; the network takes it when it is built."""

    def inject_into(self, cells_):
        simulator.state.require_unbuilt("inject_into")
        simulator.state.current_sources.append((self, cells_))


class DCSource(_VolleyCurrentSource, electrodes.DCSource):
    __doc__ = electrodes.DCSource.__doc__
    translations = _identity(electrodes.DCSource)


class StepCurrentSource(_VolleyCurrentSource, electrodes.StepCurrentSource):
    __doc__ = electrodes.StepCurrentSource.__doc__
    translations = _identity(electrodes.StepCurrentSource)


class StaticSynapse(synapses.StaticSynapse):
    __doc__ = synapses.StaticSynapse.__doc__
    translations = _identity(synapses.StaticSynapse)

    def _get_minimum_delay(self):
        d = simulator.state.min_delay
        return simulator.state.dt if d == "auto" else d
