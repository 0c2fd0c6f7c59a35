"""Writes the example network files of examples/networks (README.md there says how to run each):

    PYTHONPATH=build/release/python python3 examples/networks/make_examples.py

- cuba.json: the CUBA network of examples/python/cuba.py (Vogels & Abbott 2005), 1,000 ms at
  dt 0.1 ms, seed 42, written by the volley module;
- lif_input.csv: the input of the NIR LIF task (the first column of the project's fixture
  tests/data/nir/lif_trace_exact.csv, one row per step) for tests/data/nir/lif_affine.nir.

cartpole_medium_risp1.json is not written here: `volley evolve` made it (README.md).
"""

import csv
import pathlib
import sys

HERE = pathlib.Path(__file__).resolve().parent
ROOT = HERE.parents[1]
sys.path.insert(0, str(ROOT / "examples" / "python"))

import volley  # noqa: E402
from cuba import build_cuba  # noqa: E402

volley.save_json(build_cuba(), str(HERE / "cuba.json"), dt_ms=0.1, duration_ms=1000.0, seed=42)
with open(ROOT / "tests" / "data" / "nir" / "lif_trace_exact.csv") as f, open(HERE / "lif_input.csv", "w") as out:
    for row in csv.reader(f):
        out.write(f"{float(row[0]):g}\n")
print("wrote", HERE / "cuba.json", "and", HERE / "lif_input.csv")
