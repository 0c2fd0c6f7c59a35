#!/usr/bin/env python3
"""Writes the NIR fixtures of tests/data/nir (README.md there) and the LIF task's traces.

The files follow the NIR HDF5 layout (docs/specs/NIR.md) as the frameworks' exporters write it:
a root `version` string, `node/type` = NIRGraph, `node/nodes/<name>/...` with a scalar `type`
string and one dataset per parameter, `node/edges` as an (n, 2) array of strings. Every value is
the project's own: the weights are drawn from numpy's seeded generator, the traces are computed
here from the LIF equation (an exact zero-order-hold solution with the reset inside the step, and
float32 forward Euler), independently of Volley.

Needs numpy and h5py (Debian: python3-numpy python3-h5py). Run from anywhere:
    python3 tests/data/nir/make_fixtures.py
It rewrites the files in place and prints the LIF task's spike steps, which the tests name.
"""

import os

import h5py
import numpy as np

HERE = os.path.dirname(os.path.abspath(__file__))
STR = h5py.string_dtype("utf-8")

# The LIF task: dt = 1e-4 s, 1,000 steps; unit input pulses on a seeded set of steps.
DT = 1e-4
STEPS = 1000
TAU = 0.002         # [s]: dt / tau = 0.05
V_TH = 0.12
LINEAR_W = 0.05     # the Linear graph's weight ...
LINEAR_R = 20.0     # ... and its LIF's r: 1.0 per pulse in the steady state, 0.05 per step (Euler)


def write_graph(path, version, nodes, edges, compression=None):
    """nodes: {name: (type, {param: array or str}) or ("NIRGraph", nodes, edges)}."""
    with h5py.File(path, "w", track_order=True) as f:
        f.create_dataset("version", data=version, dtype=STR)
        write_nodes(f.create_group("node"), nodes, edges, compression)


def write_nodes(group, nodes, edges, compression):
    group.create_dataset("type", data="NIRGraph", dtype=STR)
    g = group.create_group("nodes")
    for name, spec in nodes.items():
        n = g.create_group(name)
        if spec[0] == "NIRGraph":
            write_nodes(n, spec[1], spec[2], compression)
            continue
        kind, params = spec
        n.create_dataset("type", data=kind, dtype=STR)
        for key, value in params.items():
            if isinstance(value, str):
                n.create_dataset(key, data=value, dtype=STR)
            elif np.ndim(value) == 0 or compression is None:
                n.create_dataset(key, data=value)
            else:
                n.create_dataset(key, data=value, compression=compression)
    group.create_dataset("edges", data=np.array(edges, dtype=object), dtype=STR)


def f32(x):
    return np.asarray(x, dtype=np.float32)


def f64(x):
    return np.asarray(x, dtype=np.float64)


def i64(x):
    return np.asarray(x, dtype=np.int64)


def lif_task_input():
    """Unit pulses: sparse at first, then denser, so that the neuron needs several to fire."""
    rng = np.random.default_rng(20261225)
    x = np.zeros(STEPS)
    for start, stop, p in ((0, 300, 0.02), (300, 700, 0.09), (700, STEPS, 0.05)):
        x[start:stop] = rng.random(stop - start) < p
    return x


def exact_trace(x, gain):
    """tau dv/dt = -v + gain * x(t), x held over each step; a crossing of V_TH inside a step
    resets v to 0 at the crossing time and the step goes on from there."""
    v, rows = 0.0, []
    for xt in x:
        target = gain * xt
        decay = np.exp(-DT / TAU)
        nxt = target + (v - target) * decay
        spike = 0.0
        if nxt >= V_TH and target > V_TH:
            # v(t) = target + (v - target) e^{-t/tau} reaches V_TH at t*
            t_star = -TAU * np.log((target - V_TH) / (target - v))
            nxt = target * (1 - np.exp(-(DT - t_star) / TAU))
            spike = 1.0
        v = nxt
        rows.append((xt, v, spike))
    return np.array(rows)


def euler_trace(x, gain):
    """Forward Euler in float32, reset to 0 at the end of the step that reaches V_TH."""
    v, rows = np.float32(0), []
    a = np.float32(DT / TAU)
    for xt in x:
        v = np.float32(v + a * (np.float32(gain * xt) - v))
        spike = 0.0
        if v >= np.float32(V_TH):
            v, spike = np.float32(0), 1.0
        rows.append((xt, float(v), spike))
    return np.array(rows)


def lif_task():
    x = lif_task_input()
    write_graph(os.path.join(HERE, "lif_affine.nir"), "0.1.1", {
        "input": ("Input", {"shape": i64([1])}),
        "0": ("Affine", {"weight": f32([[1.0]]), "bias": f32([0.0])}),
        "1": ("LIF", {"tau": f32([TAU]), "r": f32([1.0]), "v_leak": f32([0.0]), "v_threshold": f32([V_TH])}),
        "output": ("Output", {"shape": i64([1])}),
    }, [("input", "0"), ("0", "1"), ("1", "output")])
    # The Output's shape [1, 1, 1] is inconsistent with the [1] it receives: a reader repairs it
    # and says so (an exporter once wrote it like this).
    write_graph(os.path.join(HERE, "lif_linear_bad_output.nir"), "0.2.0", {
        "input": ("Input", {"shape": i64([1])}),
        "0_Linear": ("Linear", {"weight": f32([[LINEAR_W]])}),
        "1_LIF": ("LIF", {"tau": f32([TAU]), "r": f32([LINEAR_R]), "v_leak": f32([0.0]), "v_threshold": f32([V_TH])}),
        "output": ("Output", {"shape": i64([1, 1, 1])}),
    }, [("input", "0_Linear"), ("0_Linear", "1_LIF"), ("1_LIF", "output")])
    exact = exact_trace(x, 1.0)
    np.savetxt(os.path.join(HERE, "lif_trace_exact.csv"), exact, delimiter=",", fmt="%.18e")
    np.savetxt(os.path.join(HERE, "lif_trace_euler.csv"), euler_trace(x, 1.0), delimiter=",", fmt="%.18e")
    linear = exact_trace(x, float(np.float32(LINEAR_W)) * float(np.float32(LINEAR_R)))
    np.savetxt(os.path.join(HERE, "lif_linear_bad_output.csv"), linear, delimiter=",", fmt="%.18e")
    print("lif_trace_exact.csv spikes at", [int(t) for t in np.flatnonzero(exact[:, 2])])
    print("lif_trace_euler.csv spikes at", [int(t) for t in np.flatnonzero(euler_trace(x, 1.0)[:, 2])])
    print("lif_linear_bad_output.csv spikes at", [int(t) for t in np.flatnonzero(linear[:, 2])])


def two_lif():
    """LIF -> Linear -> LIF in float64: the first fires on its own (v_leak above threshold); the
    second integrates its spikes below its threshold."""
    write_graph(os.path.join(HERE, "two_lif.nir"), "0.2.0", {
        "in": ("Input", {"shape": i64([1])}),
        "linear1": ("Linear", {"weight": f64([[1.0]])}),
        "lif1": ("LIF", {"tau": f64([0.002]), "r": f64([1.0]), "v_leak": f64([1.5]), "v_threshold": f64([1.0])}),
        "linear2": ("Linear", {"weight": f64([[1.0]])}),
        "lif2": ("LIF", {"tau": f64([0.002]), "r": f64([1.0]), "v_leak": f64([0.0]), "v_threshold": f64([12.0])}),
        "out": ("Output", {"shape": i64([1])}),
    }, [("in", "linear1"), ("linear1", "lif1"), ("lif1", "linear2"), ("linear2", "lif2"), ("lif2", "out")])


def conv_if_cnn():
    """A spiking CNN of integrate-and-fire layers on a [2, 34, 34] event frame: 3 Conv2d, 5 IF,
    2 SumPool2d, Flatten, 2 Affine, 10 outputs; He-scaled normal weights, zero biases."""
    rng = np.random.default_rng(34)

    def he(*shape):
        fan_in = int(np.prod(shape[1:]))
        return f32(rng.normal(0.0, 1.6 * np.sqrt(2.0 / fan_in), size=shape))

    def conv(w, stride, padding, size):
        return ("Conv2d", {"weight": w, "bias": f32(np.zeros(w.shape[0])), "stride": i64([stride, stride]),
                           "padding": i64([padding, padding]), "dilation": i64([1, 1]), "groups": i64(1),
                           "input_shape": i64([size, size])})

    def if_layer(*shape):
        return ("IF", {"r": f32(np.ones(shape)), "v_threshold": f32(np.ones(shape))})

    def pool():
        return ("SumPool2d", {"kernel_size": i64([2, 2]), "stride": i64([2, 2]), "padding": i64([0, 0])})

    nodes = {
        "input": ("Input", {"shape": i64([2, 34, 34])}),
        "0": conv(he(16, 2, 5, 5), 2, 1, 34), "1": if_layer(16, 16, 16),
        "2": conv(he(16, 16, 3, 3), 1, 1, 16), "3": if_layer(16, 16, 16),
        "4": pool(),
        "5": conv(he(8, 16, 3, 3), 1, 1, 8), "6": if_layer(8, 8, 8),
        "7": pool(),
        "8": ("Flatten", {"start_dim": i64(0), "end_dim": i64(-1), "input_type": i64([8, 4, 4])}),
        "9": ("Affine", {"weight": he(256, 128), "bias": f32(np.zeros(256))}), "10": if_layer(256),
        "11": ("Affine", {"weight": he(10, 256), "bias": f32(np.zeros(10))}), "12": if_layer(10),
        "output": ("Output", {"shape": i64([10])}),
    }
    chain = ["input"] + [str(i) for i in range(13)] + ["output"]
    edges = list(zip(chain[:-1], chain[1:]))
    rng.shuffle(edges)  # the file's edge order says nothing: a reader sorts the graph itself
    write_graph(os.path.join(HERE, "cnn_conv_if.nir"), "0.2.0", nodes, [tuple(e) for e in edges])


def cuba_rnn():
    """A recurrent CubaLIF network, 12 inputs -> hidden CubaLIF with a recurrent projection ->
    7 CubaLIF outputs: with Affine layers (38 hidden), with Linear layers (40 hidden), and the
    first nested as a subgraph."""
    rng = np.random.default_rng(12)

    def cuba(n, tau_mem, tau_syn, r, w_in):
        return ("CubaLIF", {"tau_mem": f64(np.full(n, tau_mem)), "tau_syn": f64(np.full(n, tau_syn)),
                            "r": f64(np.full(n, r)), "v_leak": f64(np.zeros(n)), "v_threshold": f64(np.ones(n)),
                            "w_in": f64(np.full(n, w_in))})

    def w(rows, cols, scale, mean=0.0):
        return f32(rng.normal(mean, scale, size=(rows, cols)))

    hidden = 38
    fc1, b1 = w(hidden, 12, 1.2, 0.3), f32(rng.normal(0.0, 0.3, hidden))
    rec, brec = w(hidden, hidden, 0.6, -0.05), f32(rng.normal(0.0, 0.2, hidden))
    fc2, b2 = w(7, hidden, 0.8, 0.1), f32(rng.uniform(0.1, 0.4, 7))
    lif1 = cuba(hidden, 0.002, 0.0005, 5.0, 2.0)
    lif2 = cuba(7, 0.0005, 0.0004, 2.5, 2.0)
    flat = {
        "input": ("Input", {"shape": i64([12])}),
        "fc1": ("Affine", {"weight": fc1, "bias": b1}),
        "lif1.lif": lif1,
        "lif1.w_rec": ("Affine", {"weight": rec, "bias": brec}),
        "fc2": ("Affine", {"weight": fc2, "bias": b2}),
        "lif2": lif2,
        "output": ("Output", {"shape": i64([7])}),
    }
    flat_edges = [("input", "fc1"), ("fc1", "lif1.lif"), ("lif1.lif", "lif1.w_rec"), ("lif1.w_rec", "lif1.lif"),
                  ("lif1.lif", "fc2"), ("fc2", "lif2"), ("lif2", "output")]
    write_graph(os.path.join(HERE, "rnn_cuba.nir"), "0.2.0", flat, flat_edges)

    # Nested: the hidden layer as a subgraph whose inner edges name 'lif' while its node is
    # 'lif1' (a renaming the exporter missed): a reader must refuse it naming both.
    inner = {
        "input": ("Input", {"shape": i64([hidden])}),
        "lif1": lif1,
        "lin": ("Affine", {"weight": rec, "bias": brec}),
        "output": ("Output", {"shape": i64([hidden])}),
    }
    inner_edges = [("input", "lif"), ("lif", "lin"), ("lin", "lif"), ("lif", "output")]
    nested = {
        "input": ("Input", {"shape": i64([12])}),
        "fc1": ("Affine", {"weight": fc1, "bias": b1}),
        "lif1": ("NIRGraph", inner, inner_edges),
        "fc2": ("Affine", {"weight": fc2, "bias": b2}),
        "lif2": lif2,
        "output": ("Output", {"shape": i64([7])}),
    }
    write_graph(os.path.join(HERE, "rnn_cuba_subgraph.nir"), "0.2.0", nested,
                [("input", "fc1"), ("fc1", "lif1"), ("lif1", "fc2"), ("fc2", "lif2"), ("lif2", "output")])

    hidden = 40
    linear = {
        "input": ("Input", {"shape": i64([12])}),
        "fc1": ("Linear", {"weight": w(hidden, 12, 1.5, 0.4)}),
        "lif1.lif": cuba(hidden, 0.001, 0.0004, 4.0, 3.0),
        "lif1.w_rec": ("Linear", {"weight": w(hidden, hidden, 0.5, -0.05)}),
        "fc2": ("Linear", {"weight": w(7, hidden, 0.9, 0.15)}),
        "lif2": cuba(7, 0.0004, 0.0003, 2.0, 2.0),
        "output": ("Output", {"shape": i64([7])}),
    }
    write_graph(os.path.join(HERE, "rnn_cuba_linear.nir"), "0.2.0", linear, flat_edges)


def all_primitives():
    """Twelve primitive types, gzip-compressed arrays, scalar parameters and a string padding,
    as NIR 1.0 writers store them: Input -> Linear -> Output connected, the rest on their own."""
    ones3 = f32(np.ones(3))
    nodes = {
        "input": ("Input", {"shape": i64([3])}),
        "lin": ("Linear", {"weight": f32([[1.0, 0.5, 0.0], [0.0, 1.0, -0.5], [0.25, 0.0, 1.0]])}),
        "output": ("Output", {"shape": i64([3])}),
        "avg": ("AvgPool2d", {"kernel_size": i64([2, 2]), "stride": i64([2, 2]), "padding": i64([0, 0])}),
        "conv1": ("Conv1d", {"weight": f32(np.full((2, 3, 5), 0.5)), "bias": f32([0.5, 0.5]), "stride": i64(1),
                             "padding": "same", "dilation": i64(1), "groups": i64(1), "input_shape": i64(16)}),
        "culi": ("CubaLI", {"tau_mem": f32([0.5, 0.5, 0.5]), "tau_syn": f32([0.25, 0.25, 0.25]), "r": ones3,
                            "v_leak": f32(np.zeros(3)), "w_in": ones3}),
        "delay": ("Delay", {"delay": f32([0.5, 1.0, 1.5])}),
        "i": ("I", {"r": ones3}),
        "if": ("IF", {"r": ones3, "v_threshold": f32([0.5, 0.5, 0.5]), "v_reset": f32(np.zeros(3))}),
        "li": ("LI", {"tau": f32([0.5, 0.5, 0.5]), "r": ones3, "v_leak": f32(np.zeros(3))}),
        "scale": ("Scale", {"scale": f32([2.0, 2.0, 2.0])}),
        "thr": ("Threshold", {"threshold": f32([0.5, 0.5, 0.5])}),
    }
    write_graph(os.path.join(HERE, "allprims.nir"), "1.0.7", nodes, [("input", "lin"), ("lin", "output")],
                compression="gzip")


if __name__ == "__main__":
    lif_task()
    two_lif()
    conv_if_cnn()
    cuba_rnn()
    all_primitives()
