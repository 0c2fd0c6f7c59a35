#!/usr/bin/env python3
"""Writes the snnTorch and Norse fixtures of this folder: each network is built and run in its
own framework (float32, CPU), exported with that framework's own NIR exporter, and its spikes
are saved beside the file. Run from anywhere:

    python3 make_fixtures.py            # needs torch, snntorch, norse, nir, nirtorch, numpy
    python3 make_fixtures.py NAME ...   # only these (the names of FIXTURES)

Every `NAME.nir` gets a `NAME.json`: the framework, the options of `volley run` that should
reproduce it (`reset`: the --reset values, MODE or NODE=MODE), the input (one row per step, 0/1), and the spikes of every neuron layer as
[step, neuron] pairs under the NIR node name that Volley gives the layer (nested graphs
flattened as "graph.node"). Nothing in the test suite runs Python: the tests read these files.
"""
import json
import pathlib

import nir
import numpy as np
import torch

HERE = pathlib.Path(__file__).resolve().parent
STEPS = 100
SEED = 29


def bernoulli_input(steps, shape, p, seed):
    g = torch.Generator().manual_seed(seed)
    return (torch.rand((steps, *shape), generator=g) < p).float()


def spikes_of(raster):
    """[step, neuron] pairs of a (steps, ...) 0/1 tensor, neurons in C order."""
    flat = raster.reshape(raster.shape[0], -1).numpy()
    steps, neurons = np.nonzero(flat)
    return [[int(s), int(n)] for s, n in zip(steps, neurons)]


def save(name, graph, framework, reset, dt, x, layers, note=""):
    # Uncompressed: the arrays are tiny, and gzip chunks would make the files 2.5 times larger.
    nir.write(str(HERE / f"{name}.nir"), graph, compression=None)
    ref = {
        "framework": framework,
        "versions": versions(),
        "volley_options": {"dt_s": dt, "discretisation": "euler",
                           "reset": reset if isinstance(reset, list) else [reset]},
        "note": note,
        "steps": int(x.shape[0]),
        "input_shape": list(x.shape[1:]),
        "input": x.reshape(x.shape[0], -1).int().tolist(),
        "layers": {k: spikes_of(v) for k, v in layers.items()},
    }
    (HERE / f"{name}.json").write_text(json.dumps(ref, separators=(",", ":")) + "\n")
    counts = ", ".join(f"{k}: {int(v.sum())}" for k, v in layers.items())
    print(f"{name}: {counts}")


def versions():
    import norse
    import nirtorch
    import snntorch

    return {"torch": torch.__version__.split("+")[0], "snntorch": snntorch.__version__,
            "norse": norse.__version__ if hasattr(norse, "__version__") else "1.1.0",
            "nir": nir.__version__, "nirtorch": getattr(nirtorch, "__version__", "?")}


# snnTorch ------------------------------------------------------------------------------------
# snnTorch's exporter writes beta as tau = dt/(1 - beta), r = tau/dt with dt = 1e-4 s.
SNNTORCH_DT = 1e-4


def run_snntorch(net, x):
    """Runs a Sequential of init_hidden snnTorch layers step by step; the spikes of every
    Leaky/RLeaky, by the module's index in the Sequential."""
    import snntorch as snn

    for m in net:
        if isinstance(m, (snn.Leaky, snn.RLeaky)):
            m.reset_hidden() if hasattr(m, "reset_hidden") else None
    utils_reset(net)
    rec = {}
    with torch.no_grad():
        for t in range(x.shape[0]):
            h = x[t]  # one sample, no batch axis: what the exporter traces
            for i, m in enumerate(net):
                h = m(h)
                if isinstance(m, (snn.Leaky, snn.RLeaky)):
                    rec.setdefault(str(i), []).append(h.clone())
    return {k: torch.stack(v) for k, v in rec.items()}


def utils_reset(net):
    from snntorch import utils

    utils.reset(net)


def per_neuron(value, n):
    """A float32 parameter per neuron: the exporter's type inference needs the layer size."""
    return torch.full(n if isinstance(n, tuple) else (n,), value)


def snntorch_dense(name, reset_mechanism, reset_delay, recurrent, volley_reset, seed):
    import snntorch as snn
    from snntorch.export_nir import export_to_nir

    torch.manual_seed(seed)
    n_in, n_hid, n_out = 12, 16, 6
    if recurrent:
        lif1 = snn.RLeaky(beta=0.9, linear_features=n_hid, init_hidden=True,
                          reset_mechanism=reset_mechanism, reset_delay=reset_delay)
    else:
        lif1 = snn.Leaky(beta=per_neuron(0.9, n_hid), threshold=per_neuron(1.0, n_hid),
                         init_hidden=True, reset_mechanism=reset_mechanism,
                         reset_delay=reset_delay)
    lif2 = snn.Leaky(beta=per_neuron(0.8, n_out), threshold=per_neuron(1.0, n_out),
                     init_hidden=True, reset_mechanism=reset_mechanism,
                     reset_delay=reset_delay)
    net = torch.nn.Sequential(torch.nn.Linear(n_in, n_hid), lif1,
                              torch.nn.Linear(n_hid, n_out), lif2)
    with torch.no_grad():
        net[0].weight.mul_(3.0)   # strong drive: membranes well above threshold, often
        net[2].weight.mul_(2.0)
        if recurrent:
            lif1.recurrent.weight.mul_(0.5)
    x = bernoulli_input(STEPS, (n_in,), 0.4, seed)
    layers = run_snntorch(net, x)
    graph = export_to_nir(net, x[0])
    names = {"1": "1.lif" if recurrent else "1", "3": "3"}
    save(name, graph, "snntorch", volley_reset, SNNTORCH_DT, x,
         {names[k]: v for k, v in layers.items()},
         note=f"{'RLeaky' if recurrent else 'Leaky'} reset_mechanism={reset_mechanism!r} "
              f"reset_delay={reset_delay}")


def snntorch_conv(seed):
    import snntorch as snn
    from snntorch.export_nir import export_to_nir

    torch.manual_seed(seed)
    net = torch.nn.Sequential(
        torch.nn.Conv2d(1, 4, 3, padding=1),
        snn.Leaky(beta=per_neuron(0.9, (4, 6, 6)), threshold=per_neuron(1.0, (4, 6, 6)), init_hidden=True),
        torch.nn.Flatten(start_dim=0), torch.nn.Linear(4 * 6 * 6, 5),
        snn.Leaky(beta=per_neuron(0.9, 5), threshold=per_neuron(1.0, 5), init_hidden=True))
    with torch.no_grad():
        net[0].weight.mul_(3.0)
    x = bernoulli_input(STEPS, (1, 6, 6), 0.3, seed)
    layers = run_snntorch(net, x)
    graph = export_to_nir(net, x[0])
    save("snntorch_conv", graph, "snntorch", "snntorch", SNNTORCH_DT, x, layers,
         note="Conv2d(1,4,3,padding=1) -> Leaky -> Flatten -> Linear -> Leaky, reset subtract, reset_delay=True")


def snntorch_ties(seed):
    """Quantised weights (multiples of 1/4) and reset to zero: the membrane often lands exactly
    on the threshold, which snnTorch does not count as a spike (it tests mem > threshold)."""
    import snntorch as snn
    from snntorch.export_nir import export_to_nir

    torch.manual_seed(seed)
    lin = torch.nn.Linear(4, 3, bias=False)
    with torch.no_grad():
        lin.weight.copy_(torch.randint(1, 5, (3, 4)).float() / 4)
    lif = snn.Leaky(beta=per_neuron(0.9, 3), threshold=per_neuron(1.0, 3), init_hidden=True,
                    reset_mechanism="zero")
    net = torch.nn.Sequential(lin, lif)
    x = bernoulli_input(STEPS, (4,), 0.3, seed)
    layers = run_snntorch(net, x)
    ties = 0
    utils_reset(net)
    with torch.no_grad():
        for t in range(STEPS):
            net(x[t])
            ties += int((lif.mem == 1.0).sum())
    graph = export_to_nir(net, x[0])
    save("snntorch_ties", graph, "snntorch", "to-v-reset", SNNTORCH_DT, x, layers,
         note=f"Linear(4,3) weights k/4 -> Leaky 'zero': the membrane equals the threshold {ties} times")
    print(f"snntorch_ties: {ties} steps with mem == threshold")


def snntorch_ties_half(seed):
    """beta = 0.5, weights in quarters (some negative) and reset to zero: every membrane is an
    exact binary fraction; it goes below zero and lands exactly on the threshold, where a decay
    that is not exactly 0.5 moves it to either side (docs/nir.md, "Threshold ties")."""
    import snntorch as snn
    from snntorch.export_nir import export_to_nir

    torch.manual_seed(seed)
    n_in, n_hid, n_out = 10, 24, 6
    lin1 = torch.nn.Linear(n_in, n_hid, bias=False)
    lin2 = torch.nn.Linear(n_hid, n_out, bias=False)
    with torch.no_grad():
        lin1.weight.copy_(torch.randint(-3, 6, (n_hid, n_in)).float() / 4)
        lin2.weight.copy_(torch.randint(-2, 5, (n_out, n_hid)).float() / 4)
    lif1 = snn.Leaky(beta=per_neuron(0.5, n_hid), threshold=per_neuron(1.0, n_hid), init_hidden=True,
                     reset_mechanism="zero")
    lif2 = snn.Leaky(beta=per_neuron(0.5, n_out), threshold=per_neuron(1.0, n_out), init_hidden=True,
                     reset_mechanism="zero")
    net = torch.nn.Sequential(lin1, lif1, lin2, lif2)
    x = bernoulli_input(STEPS, (n_in,), 0.3, seed)
    layers = run_snntorch(net, x)
    ties = 0
    utils_reset(net)
    with torch.no_grad():
        for t in range(STEPS):
            net(x[t])
            ties += int((lif1.mem == 1.0).sum()) + int((lif2.mem == 1.0).sum())
    graph = export_to_nir(net, x[0])
    save("snntorch_ties_half", graph, "snntorch", "to-v-reset", SNNTORCH_DT, x, layers,
         note=f"Linear weights k/4 (some negative) -> Leaky beta 0.5 'zero', twice: mem equals the threshold {ties} times")
    print(f"snntorch_ties_half: {ties} steps with mem == threshold")


def snntorch_synaptic(name, reset_mechanism, volley_reset, seed):
    """Synaptic (CubaLIF: a current with decay alpha, then the membrane with decay beta)."""
    import snntorch as snn
    from snntorch.export_nir import export_to_nir

    torch.manual_seed(seed)
    n_in, n_hid = 12, 16
    lin = torch.nn.Linear(n_in, n_hid)
    with torch.no_grad():
        lin.weight.mul_(2.0)
    syn = snn.Synaptic(alpha=per_neuron(0.8, n_hid), beta=per_neuron(0.9, n_hid), threshold=per_neuron(1.0, n_hid),
                       init_hidden=True, reset_mechanism=reset_mechanism)
    net = torch.nn.Sequential(lin, syn)
    x = bernoulli_input(STEPS, (n_in,), 0.4, seed)
    utils_reset(net)
    rec = []
    with torch.no_grad():
        for t in range(STEPS):
            rec.append(net(x[t]).clone())
    graph = export_to_nir(net, x[0])
    save(name, graph, "snntorch", volley_reset, SNNTORCH_DT, x, {"1": torch.stack(rec)},
         note=f"Linear -> Synaptic alpha 0.8 beta 0.9 reset_mechanism={reset_mechanism!r}")


# Norse ---------------------------------------------------------------------------------------
NORSE_DT = 1e-3


def fix_norse_graph(graph, cells):
    """Norse 1.1's exporter (norse/torch/utils/export_nir.py) has two known bugs, corrected
    here in the graph before it is written:
    - it writes tau = dt / tau_inv, which is dt·tau, not tau: the true tau is 1 / tau_inv;
    - for LIFCell (CubaLIF) it leaves w_in at the NIR default 1, but Norse adds each step's
      input to the current with weight 1 where NIR's Euler step adds dt/tau_syn·w_in·input,
      so w_in must be tau_syn / dt; and it drops v_reset (written here from the cell's p)."""
    for name, cell in cells.items():
        node = graph.nodes[name]
        p = cell.p
        if isinstance(node, nir.CubaLIF):
            node.tau_mem = (1.0 / p.tau_mem_inv.detach()).numpy()
            node.tau_syn = (1.0 / p.tau_syn_inv.detach()).numpy()
            node.w_in = node.tau_syn / np.float32(NORSE_DT)
        else:
            node.tau = (1.0 / p.tau_mem_inv.detach()).numpy()
        node.v_reset = p.v_reset.detach().numpy()


def norse_net(name, cell_type, seed):
    import norse.torch as norse
    from norse.torch.utils.export_nir import to_nir

    torch.manual_seed(seed)
    n_in, n_hid, n_out = 12, 16, 6
    def make(n):  # per-neuron parameters: the exported nodes then say their size
        full = lambda v: torch.full((n,), v)
        if cell_type == "LIFBox":
            p = norse.LIFBoxParameters(tau_mem_inv=full(100.0), v_th=full(0.5), v_leak=full(0.0),
                                       v_reset=full(0.0))
            return norse.LIFBoxCell(p, dt=NORSE_DT)
        p = norse.LIFParameters(tau_mem_inv=full(100.0), tau_syn_inv=full(200.0), v_th=full(0.5),
                                v_leak=full(0.0), v_reset=full(0.0))
        return norse.LIFCell(p, dt=NORSE_DT)

    gain = 40.0 if cell_type == "LIFBox" else 8.0
    lin1, cell1 = torch.nn.Linear(n_in, n_hid), make(n_hid)
    lin2, cell2 = torch.nn.Linear(n_hid, n_out), make(n_out)
    with torch.no_grad():
        lin1.weight.mul_(gain)
        lin2.weight.mul_(gain)
    x = bernoulli_input(STEPS, (n_in,), 0.4, seed)
    rec = {"1": [], "3": []}
    s1 = s2 = None
    with torch.no_grad():
        for t in range(STEPS):
            z1, s1 = cell1(lin1(x[t].unsqueeze(0)), s1)
            z2, s2 = cell2(lin2(z1), s2)
            rec["1"].append(z1[0].clone())
            rec["3"].append(z2[0].clone())
    layers = {k: torch.stack(v) for k, v in rec.items()}
    net = norse.SequentialState(lin1, cell1, lin2, cell2)
    graph = to_nir(net, x[0], dt=NORSE_DT)
    fix_norse_graph(graph, {"1": cell1, "3": cell2})
    save(name, graph, "norse", "norse", NORSE_DT, x, layers,
         note=f"Linear -> {cell_type}Cell -> Linear -> {cell_type}Cell; tau and w_in corrected (see the README)")


FIXTURES = {
    "snntorch_leaky_subtract": lambda: snntorch_dense("snntorch_leaky_subtract", "subtract", True, False, "snntorch", SEED),
    "snntorch_leaky_subtract_nodelay": lambda: snntorch_dense("snntorch_leaky_subtract_nodelay", "subtract", False, False,
                                                              "subtract-no-delay", SEED + 1),
    "snntorch_leaky_zero": lambda: snntorch_dense("snntorch_leaky_zero", "zero", True, False, "to-v-reset", SEED + 2),
    "snntorch_leaky_none": lambda: snntorch_dense("snntorch_leaky_none", "none", True, False, "none", SEED + 3),
    "snntorch_rleaky_subtract": lambda: snntorch_dense("snntorch_rleaky_subtract", "subtract", True, True, "snntorch",
                                                       SEED + 4),
    "snntorch_rleaky_subtract_nodelay": lambda: snntorch_dense("snntorch_rleaky_subtract_nodelay", "subtract", False,
                                                               True, "subtract-no-delay", SEED + 5),
    "snntorch_rleaky_zero": lambda: snntorch_dense("snntorch_rleaky_zero", "zero", True, True,
                                                   ["to-v-reset", "1.lif=to-v-reset-delayed"], SEED + 6),
    "snntorch_rleaky_zero_nodelay": lambda: snntorch_dense("snntorch_rleaky_zero_nodelay", "zero", False, True,
                                                           "to-v-reset", SEED + 7),
    "snntorch_conv": lambda: snntorch_conv(SEED + 8),
    "snntorch_ties": lambda: snntorch_ties(SEED + 11),
    "snntorch_ties_half": lambda: snntorch_ties_half(SEED + 12),
    "snntorch_synaptic_subtract": lambda: snntorch_synaptic("snntorch_synaptic_subtract", "subtract", "snntorch",
                                                            SEED + 13),
    "snntorch_synaptic_zero": lambda: snntorch_synaptic("snntorch_synaptic_zero", "zero", "to-v-reset-delayed",
                                                        SEED + 14),
    "norse_lifbox": lambda: norse_net("norse_lifbox", "LIFBox", SEED + 9),
    "norse_lif": lambda: norse_net("norse_lif", "LIF", SEED + 10),
}


def main():
    """Every fixture, or those named on the command line."""
    import sys

    for name in sys.argv[1:] or FIXTURES:
        FIXTURES[name]()


if __name__ == "__main__":
    main()
