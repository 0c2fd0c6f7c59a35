"""Volley's errors arrive as Python exceptions of the matching class (volley.InvalidParameter for
volley::invalid_parameter, ...), also catchable as the built-in they resemble, with the C++
error's fields as attributes and its message as str()."""

import json
import os

from volley_test_support import check, data_dir, volley_module

volley = volley_module()


def raises(cls, call):
    try:
        call()
    except cls as e:
        return e
    raise AssertionError(f"{call} did not raise {cls.__name__}")


net = volley.Network()
exc = net.add_population("exc", 10, "lif_exp")

e = raises(volley.InvalidParameter, lambda: net.add_population("bad", 5, "lif_exp", tau_m_ms=-1.0))
check((e.object, e.parameter, e.value) == ("model 'lif_exp'", "tau_m_ms", "-1") and "must be > 0" in str(e),
      f"fields {e.object!r} {e.parameter!r} {e.value!r}: {e}")
check(isinstance(e, ValueError) and isinstance(e, volley.Error), "InvalidParameter is a ValueError and a volley.Error")

e = raises(volley.InvalidParameter, lambda: net.connect(exc, exc, volley.FixedProbability(1.5)))
check(e.parameter == "p" and e.value == "1.5", f"p out of range: {e}")

e = raises(volley.UnknownName, lambda: net.initialise("nope", "v_mv", -60.0))
check((e.kind, e.name) == ("population", "nope") and isinstance(e, LookupError), f"unknown population: {e}")
e = raises(volley.UnknownName, lambda: volley.NeuronModel("lif_exp", tau_q_ms=1.0))
check((e.kind, e.name) == ("parameter", "tau_q_ms"), f"unknown parameter: {e}")
check("known: " in str(e) and "tau_m_ms" in str(e), f"an unknown parameter lists the valid names: {e}")

e = raises(volley.UnsupportedModel, lambda: volley.NeuronModel("lif_quantum"))
check(e.model == "lif_quantum", f"unknown model: {e}")
e = raises(volley.UnsupportedModel, lambda: volley.NeuronModel("lif_exp", integrator="rk4"))
check(e.model == "lif_exp", f"integrator on a non-ODE model: {e}")

e = raises(volley.FileFormatError, lambda: volley.from_json('{"format_version": 1, "populations": 3}'))
check(e.file == "<string>" and e.location != "", f"file format: file {e.file!r} location {e.location!r}: {e}")

e = raises(volley.IoError, lambda: volley.load_json("/nonexistent/net.json"))
check(e.file == "/nonexistent/net.json" and isinstance(e, OSError), f"io error: {e}")

sim = volley.Simulation(net, dt_ms=0.1)
e = raises(volley.InvalidParameter, lambda: sim.run(float("nan")))
check(e.parameter == "duration_ms", f"run(nan): {e}")
e = raises(volley.UnknownName, lambda: sim.record_state(exc, "w_mv", 1.0))
check(e.name == "w_mv", f"record_state of an unknown variable: {e}")

with open(os.path.join(data_dir(), "risp-vectors", "01_chain_delays", "network.json")) as f:
    network = json.load(f)
proc = volley.Processor("risp", network["Associated_Data"]["proc_params"])
proc.load_network(volley.TennlabNetwork.from_dict(network))
e = raises(volley.TennlabError, lambda: proc.apply_spike((2, 0, 1.5)))
check(e.object != "" and isinstance(e, volley.Error), f"normalised value 1.5: {e} ({e.reference_message!r})")
e = raises(volley.UnsupportedModel, lambda: volley.Processor("truenorth"))
check(e.model == "truenorth", f"unknown processor: {e}")
print("every error class raised with its fields")
