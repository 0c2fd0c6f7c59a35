"""PyNN's own system tests (test/system/scenarios of PyNN's source distribution) run on
volley.pynn: each scenario, whichever simulators PyNN names for it, runs once with pyNN.volley.

The source tree is not committed: `scripts/setup --peers` unpacks PyNN 0.13.0's sdist into
${XDG_CACHE_HOME:-~/.cache}/volley/pynn-0.13.0; VOLLEY_PYNN_SOURCE names another one.

KNOWN_FAILURES lists the scenarios volley.pynn does not pass yet, with the reason (the same table
is in docs/python.md, "PyNN's system tests"). The test fails when a scenario outside the list
fails, and when a listed one passes (so that the list stays true). Skips (exit 77) without PyNN,
pytest or the source tree. Extra arguments go to pytest (e.g. -k electrodes).
"""

import os
import sys
import tempfile

from volley_test_support import SKIP, require, volley_module

PYNN_VERSION = "0.13.0"

KNOWN_FAILURES = {
    "test_cell_types.py::test_composed_neuron_model_homogeneous_receptors": "a PointNeuron of three receptor types, one on an AdExp: Volley's models have "
                                                                            "two receptors",
}


def source_tree():
    explicit = os.environ.get("VOLLEY_PYNN_SOURCE")
    if explicit:
        return explicit
    cache = os.environ.get("XDG_CACHE_HOME") or os.path.join(os.path.expanduser("~"), ".cache")
    return os.path.join(cache, "volley", f"pynn-{PYNN_VERSION}")


def test_id(nodeid):
    """'.../scenarios/test_x.py::test_y[volley]' -> 'test_x.py::test_y' (other parameters kept)."""
    name = nodeid.split("scenarios/", 1)[-1]
    return name[:-len("[volley]")] if name.endswith("[volley]") else name.replace("[volley-", "[")


class Outcomes:
    """A pytest plugin that keeps each scenario's outcome: failed if any phase failed."""

    def __init__(self):
        self.outcome = {}

    def pytest_runtest_logreport(self, report):
        key = test_id(report.nodeid)
        if report.failed:
            self.outcome[key] = "failed"
        elif report.skipped:
            self.outcome.setdefault(key, "skipped")
        elif report.when == "call":
            self.outcome.setdefault(key, "passed")


def main(args):
    volley_module()
    pynn = require("pyNN", "PyNN is not installed (scripts/setup --peers)")
    pytest = require("pytest", "pytest is not installed (scripts/setup --peers)")
    tree = os.path.abspath(source_tree())
    scenarios = os.path.join(tree, "test", "system", "scenarios")
    if not os.path.isfile(os.path.join(scenarios, "fixtures.py")):
        print(f"skipped: PyNN's source tree (its test/system/scenarios) is not at {tree} "
              "(scripts/setup --peers unpacks it; VOLLEY_PYNN_SOURCE names another)")
        return SKIP
    if pynn.__version__ != PYNN_VERSION:
        print(f"note: PyNN {pynn.__version__} is installed; KNOWN_FAILURES is for PyNN {PYNN_VERSION}")

    import volley.pynn  # noqa: F401  (registers pyNN.volley)
    sys.path.insert(0, os.path.join(tree, "test"))
    import system.scenarios.fixtures as fixtures
    every_simulator = fixtures.run_with_simulators
    fixtures.run_with_simulators = lambda *names: every_simulator("volley")

    outcomes = Outcomes()
    with tempfile.TemporaryDirectory() as work:  # some scenarios write files (Results/...)
        os.chdir(work)
        code = pytest.main(["-p", "no:cacheprovider", scenarios, "-q", "--tb=short", "-rfE", *args],
                           plugins=[outcomes])
    if code not in (pytest.ExitCode.OK, pytest.ExitCode.TESTS_FAILED):
        print(f"pytest could not run the scenarios (exit {int(code)})")
        return 1

    results = outcomes.outcome
    passed = sorted(k for k, v in results.items() if v == "passed")
    failed = sorted(k for k, v in results.items() if v == "failed")
    skipped = sorted(k for k, v in results.items() if v == "skipped")
    unexpected = [k for k in failed if k not in KNOWN_FAILURES]
    fixed = [k for k in passed if k in KNOWN_FAILURES]
    missing = [] if args else sorted(k for k in KNOWN_FAILURES if k not in results)
    print()
    for k in unexpected:
        print(f"FAILED, not in KNOWN_FAILURES: {k}")
    for k in fixed:
        print(f"PASSED, but listed in KNOWN_FAILURES (remove it there and in docs/python.md): {k}")
    for k in missing:
        print(f"in KNOWN_FAILURES, but no such scenario ran: {k}")
    known = len(failed) - len(unexpected)
    print(f"pyNN scenarios on volley.pynn: {len(passed)} passed, {known} known failures, {len(skipped)} skipped "
          f"of {len(results)}" + (f"; {len(unexpected)} unexpected failures" if unexpected else ""))
    return 1 if unexpected or fixed or missing else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
