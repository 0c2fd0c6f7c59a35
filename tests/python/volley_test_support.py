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
