"""Shared by the Python tests (tests/python/python.cmake runs each file as one ctest test).

A test that lacks a peer it needs (NumPy, PyNN, NEST) exits with SKIP, which ctest reports as
skipped rather than failed.
"""

import importlib
import os
import sys

SKIP = 77


def require(module, why):
    """Imports `module`, or ends the test as skipped saying what is missing."""
    try:
        return importlib.import_module(module)
    except ImportError as e:
        print(f"skipped: {why} ({e})")
        sys.exit(SKIP)


def volley_module():
    """The volley module from the build tree; skips without NumPy (its recorders return arrays)."""
    require("numpy", f"{sys.executable} cannot import numpy (Debian: python3-numpy)")
    import volley
    return volley


def data_dir():
    return os.environ["VOLLEY_TEST_DATA_DIR"]


def cli():
    return os.environ["VOLLEY_CLI"]


def check(condition, message):
    """assert that also works under python -O."""
    if not condition:
        raise AssertionError(message)


def run_peer_script(script, backends, args, runs, parallel):
    """Runs `python3 SCRIPT BACKEND ARGS` for each backend (a bench/peers script that prints one
    `RESULT {json}` line per run) and returns {backend: [result, ...]}; fails the test unless
    each backend printed `runs` results. `parallel`: all backends at once, else one by one."""
    import json
    import subprocess

    def start(backend):
        return subprocess.Popen([sys.executable, script, backend, *args], stdout=subprocess.PIPE,
                                stderr=subprocess.PIPE, text=True)

    results = {}
    children = {b: start(b) for b in backends} if parallel else {}
    for backend in backends:
        child = children[backend] if parallel else start(backend)
        out, err = child.communicate(timeout=900)
        lines = [json.loads(x[len("RESULT "):]) for x in out.splitlines() if x.startswith("RESULT ")]
        check(child.returncode == 0 and len(lines) == runs, f"{backend} failed:\n{out[-2000:]}\n{err[-3000:]}")
        results[backend] = lines
    return results


def mean_sd(values):
    """The mean and the sample standard deviation of `values` (at least two)."""
    import math
    mean = sum(values) / len(values)
    return mean, math.sqrt(sum((v - mean) ** 2 for v in values) / (len(values) - 1))


def quantal_release_expectation(times, U, tau_rec, tau_facil, n, u, a):
    """The exact expected sites released by each spike at `times` [ms] through a multi-quantal
    synapse (NEST's quantal_stp_synapse, Volley's quantal_release) that starts with release
    probability u and a available sites: release and recovery are linear in the available sites,
    so their expectation follows the recursion m = u E[a]; E[a] <- E[a](1 - u), then
    E[a] <- E[a] + (n - E[a])(1 - exp(-h / tau_rec)); u <- U + u (1 - U) exp(-h / tau_facil)."""
    import math
    out, last = [], None
    for t in times:
        if last is not None:
            h = t - last
            u = U + u * (1 - U) * (math.exp(-h / tau_facil) if tau_facil > 0 else 0.0)
            a += (n - a) * (1 - math.exp(-h / tau_rec))
        out.append(u * a)
        a *= 1 - u
        last = t
    return out
