"""Runs an example script as __main__, or ends as skipped when a module it needs is missing:
    run_example.py [--requires MODULE]... SCRIPT [ARGS...]"""

import runpy
import sys

from volley_test_support import require

args = sys.argv[1:]
while args and args[0] == "--requires":
    require(args[1], f"the example needs {args[1]}")
    args = args[2:]
require("numpy", "the volley module needs NumPy")
sys.argv = args
runpy.run_path(args[0], run_name="__main__")
