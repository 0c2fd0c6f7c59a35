"""PyNN's standard cell types on Volley's neuron models: names and units (PyNN: mV, ms, nA, nF,
uS; Volley: mV, ms, R*I in mV for the current-based LIFs, pA, pF and nS for the conductance
models). Each translation maps a population's PyNN parameters (one array per name) onto a
volley model name and its parameters, and says how to scale weights and injected currents."""

import numpy as np

from .errors_ import invalid, unsupported


class Translation:
    """A cell type's mapping. weight_scale[i] and current_scale[i] turn a PyNN weight or an
    injected current [nA] into the units of target neuron i."""

    def __init__(self, model, params, weight_scale, current_scale, state, fixed=None):
        self.model = model
        # PyNN receptor type -> Volley receptor; a composed cell names its own (PointNeuron), and
        # takes its weights with the sign given (standard current-based cells make inhibitory
        # weights negative).
        self.receptors = {"excitatory": "excitatory", "inhibitory": "inhibitory"}
        self.signed_weights = False
        self.params = params
        self.weight_scale = weight_scale
        self.current_scale = current_scale
        self.state = state  # PyNN state variable -> (volley variable, factor PyNN -> Volley)
        self.fixed = fixed or {}


def _lif_current(model, p, with_syn=True):
    r = p["tau_m"] / p["cm"]  # membrane resistance [MOhm] = mV per nA
    params = {"tau_m_ms": p["tau_m"], "v_rest_mv": p["v_rest"], "v_reset_mv": p["v_reset"],
              "v_thresh_mv": p["v_thresh"], "t_ref_ms": p["tau_refrac"], "i_e_mv": p["i_offset"] * r}
    if with_syn:
        params["tau_syn_e_ms"] = p["tau_syn_E"]
        params["tau_syn_i_ms"] = p["tau_syn_I"]
    state = {"v": ("v_mv", 1.0)}
    if with_syn:
        state.update({"isyn_exc": ("i_syn_e_mv", r), "isyn_inh": ("i_syn_i_mv", r)})
    return Translation(model, params, r, r, state)


def _lif_cond(model, p):
    params = {"c_m_pf": p["cm"] * 1e3, "g_l_ns": p["cm"] / p["tau_m"] * 1e3, "e_l_mv": p["v_rest"],
              "v_reset_mv": p["v_reset"], "v_thresh_mv": p["v_thresh"], "t_ref_ms": p["tau_refrac"],
              "e_ex_mv": p["e_rev_E"], "e_in_mv": p["e_rev_I"], "tau_syn_e_ms": p["tau_syn_E"],
              "tau_syn_i_ms": p["tau_syn_I"], "i_e_pa": p["i_offset"] * 1e3}
    n = len(p["cm"])
    return Translation(model, params, np.full(n, 1e3), np.full(n, 1e3),
                       {"v": ("v_mv", 1.0), "gsyn_exc": ("g_e_ns", 1e3), "gsyn_inh": ("g_i_ns", 1e3)})


_RESPONSES = {"CurrExpPostSynapticResponse": "lif_exp", "CondExpPostSynapticResponse": "lif_cond_exp",
              "CondAlphaPostSynapticResponse": "lif_cond_alpha"}


def _point_neuron(celltype, p):
    """A PointNeuron: a LIF whose one or two responses, all of one kind, become the two receptors
    of lif_exp, lif_cond_exp or lif_cond_alpha (the first receptor type by name on Volley's
    excitatory receptor, the second on its inhibitory one: the two differ only in their
    parameters)."""
    names = celltype.receptor_types
    kinds = {type(celltype.post_synaptic_receptors[r]).__name__ for r in names}
    neuron = type(celltype.neuron).__name__
    if neuron != "LIF" or not 1 <= len(names) <= 2 or len(kinds) != 1 or next(iter(kinds)) not in _RESPONSES:
        raise unsupported("cell type PointNeuron", "components",
                          f"{neuron} with {', '.join(sorted(kinds)) or 'no responses'}",
                          "pyNN.volley composes a LIF with one or two responses of one kind: "
                          + ", ".join(_RESPONSES))
    model = _RESPONSES[next(iter(kinds))]
    first, second = names[0], names[-1]
    q = {k: v for k, v in p.items() if "." not in k}
    q["tau_syn_E"], q["tau_syn_I"] = p[f"{first}.tau_syn"], p[f"{second}.tau_syn"]
    if model == "lif_exp":
        t = _lif_current(model, q)
        renames = {"isyn_exc": f"{first}.isyn", "isyn_inh": f"{second}.isyn"}
    else:
        q["e_rev_E"], q["e_rev_I"] = p[f"{first}.e_syn"], p[f"{second}.e_syn"]
        t = _lif_cond(model, q)
        renames = {"gsyn_exc": f"{first}.gsyn", "gsyn_inh": f"{second}.gsyn"}
    t.state = {renames.get(k, k): v for k, v in t.state.items()}
    t.receptors = {first: "excitatory", second: "inhibitory"} if second != first else {first: "excitatory"}
    t.signed_weights = True
    return t


def _where(label, cells, i, n):
    cell = int(cells[i]) if cells is not None and n > 1 else i
    return f"population '{label}'" + (f" cell {cell}" if n > 1 else "")


def check(celltype, label, p, cells=None):
    """Refuses, as InvalidParameterValue (a volley.InvalidParameter and PyNN's
    InvalidParameterValueError) naming the population, the cell, the PyNN parameter and the value,
    a value the Volley model cannot take, when it is set: a SpikeSourcePoisson rate below 0 Hz,
    SpikeSourceArray spike times out of order. `cells`: the population indices of the values (a
    view's), else 0, 1, ..."""
    if type(celltype).__name__ == "SpikeSourceArray" and "spike_times" in p:
        trains = p["spike_times"]
        trains = [trains] if not isinstance(trains, np.ndarray) or trains.dtype != object else list(trains.flat)
        for i, train in enumerate(trains):
            times = np.asarray(train.value if hasattr(train, "value") else train, dtype=float).ravel()
            late = np.flatnonzero(np.diff(times) < 0)
            if late.size:
                k = int(late[0])
                raise invalid(_where(label, cells, i, len(trains)), "spike_times",
                              f"[{', '.join(f'{t:g}' for t in times)}]",
                              f"must be in increasing order ({times[k]:g} ms, then {times[k + 1]:g} ms)")
    if type(celltype).__name__ == "SpikeSourcePoisson" and "rate" in p:
        rate = np.atleast_1d(np.asarray(p["rate"], dtype=float))
        bad = np.flatnonzero(~(rate >= 0))
        if bad.size:
            i = int(bad[0])
            raise invalid(_where(label, cells, i, rate.size), "rate", f"{rate[i]:g}", "must be >= 0 Hz")


def translate(celltype, p):
    """The Translation of a population of `celltype` whose PyNN parameters are the arrays `p`."""
    name = type(celltype).__name__
    if hasattr(p.get("spike_times"), "value"):  # one cell's Sequence, as PyNN evaluates a population of one
        p = dict(p, spike_times=[p["spike_times"]])
    n = len(next(iter(p.values()))) if p else 0
    if name == "IF_curr_exp":
        return _lif_current("lif_exp", p)
    if name == "PointNeuron":
        return _point_neuron(celltype, p)
    if name == "IF_curr_alpha":
        return _lif_current("lif_alpha", p)
    if name == "IF_curr_delta":
        t = _lif_current("lif_delta", p, with_syn=False)
        t.weight_scale = np.ones(n)  # PyNN gives delta weights in mV
        return t
    if name == "IF_cond_exp":
        return _lif_cond("lif_cond_exp", p)
    if name == "IF_cond_alpha":
        return _lif_cond("lif_cond_alpha", p)
    if name == "Izhikevich":
        # As pyNN.nest: I [pA] in the paper's equation, weights jump v by their value in mV.
        params = {"a": p["a"], "b": p["b"], "c_mv": p["c"], "d": p["d"], "i_e": p["i_offset"] * 1e3}
        # NEST's izhikevich (consistent_integration) takes forward Euler steps of dt.
        return Translation("izhikevich", params, np.ones(n), np.full(n, 1e3), {"v": ("v_mv", 1.0), "u": ("u", 1.0)},
                           fixed={"integrator": "euler"})
    if name in ("EIF_cond_exp_isfa_ista", "EIF_cond_alpha_isfa_ista"):  # adex / adex_alpha (aeif_cond_alpha)
        params = {"c_m_pf": p["cm"] * 1e3, "g_l_ns": p["cm"] / p["tau_m"] * 1e3, "e_l_mv": p["v_rest"],
                  "v_t_mv": p["v_thresh"], "delta_t_mv": p["delta_T"], "a_ns": p["a"], "tau_w_ms": p["tau_w"],
                  "b_pa": p["b"] * 1e3, "v_reset_mv": p["v_reset"], "v_peak_mv": p["v_spike"],
                  "t_ref_ms": p["tau_refrac"], "e_ex_mv": p["e_rev_E"], "e_in_mv": p["e_rev_I"],
                  "tau_syn_e_ms": p["tau_syn_E"], "tau_syn_i_ms": p["tau_syn_I"], "i_e_pa": p["i_offset"] * 1e3}
        return Translation("adex" if name == "EIF_cond_exp_isfa_ista" else "adex_alpha", params, np.full(n, 1e3),
                           np.full(n, 1e3),
                           {"v": ("v_mv", 1.0), "w": ("w_pa", 1e3), "gsyn_exc": ("g_e_ns", 1e3),
                            "gsyn_inh": ("g_i_ns", 1e3)})
    if name == "HH_cond_exp":
        params = {"c_m_pf": p["cm"] * 1e3, "g_l_ns": p["g_leak"] * 1e3, "e_l_mv": p["e_rev_leak"],
                  "g_na_ns": p["gbar_Na"] * 1e3, "g_k_ns": p["gbar_K"] * 1e3, "e_na_mv": p["e_rev_Na"],
                  "e_k_mv": p["e_rev_K"], "v_t_mv": p["v_offset"], "e_ex_mv": p["e_rev_E"], "e_in_mv": p["e_rev_I"],
                  "tau_syn_e_ms": p["tau_syn_E"], "tau_syn_i_ms": p["tau_syn_I"], "i_e_pa": p["i_offset"] * 1e3}
        # Adaptive steps, as NEST's hh_cond_exp_traub (GSL RKF45): exponential Euler at dt = 0.1 ms,
        # Volley's default for hh, fires about 8% slower here.
        return Translation("hh", params, np.full(n, 1e3), np.full(n, 1e3),
                           {"v": ("v_mv", 1.0), "m": ("m", 1.0), "n": ("n", 1.0), "h": ("h", 1.0),
                            "gsyn_exc": ("g_e_ns", 1e3), "gsyn_inh": ("g_i_ns", 1e3)},
                           fixed={"integrator": "adaptive", "abs_tol": 1e-6, "rel_tol": 1e-6})
    if name == "SpikeSourcePoisson":  # rate, start and duration per cell (poisson_source takes each per neuron)
        params = {"rate_hz": p["rate"], "start_ms": p["start"], "stop_ms": p["start"] + p["duration"]}
        return Translation("poisson_source", params, None, None, {})
    if name == "SpikeSourcePoissonRefractory":  # a dead time of tau_refrac at the same mean rate
        params = {"rate_hz": p["rate"], "start_ms": p["start"], "stop_ms": p["start"] + p["duration"],
                  "dead_time_ms": p["tau_refrac"]}
        return Translation("poisson_source", params, None, None, {})
    if name == "SpikeSourceGamma":  # intervals Gamma(alpha, rate beta): mean alpha / beta
        params = {"rate_hz": p["beta"] / p["alpha"], "gamma_shape": p["alpha"], "start_ms": p["start"],
                  "stop_ms": p["start"] + p["duration"]}
        return Translation("poisson_source", params, None, None, {})
    if name == "SpikeSourceArray":
        times = [[float(t) for t in np.asarray(s.value if hasattr(s, "value") else s, dtype=float)]
                 for s in p["spike_times"]]
        return Translation("spike_source", {}, None, None, {}, fixed={"spike_times_ms": times})
    raise unsupported(f"cell type {name}", "celltype", name,
                      "pyNN.volley runs IF_curr_exp, IF_curr_alpha, IF_curr_delta, IF_cond_exp, IF_cond_alpha, "
                      "Izhikevich, EIF_cond_exp_isfa_ista, EIF_cond_alpha_isfa_ista, HH_cond_exp, SpikeSourcePoisson, "
                      "SpikeSourcePoissonRefractory, SpikeSourceGamma, SpikeSourceArray and PointNeuron")
