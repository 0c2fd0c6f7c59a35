"""PyNN 0.13's own examples (examples/*.py of its source distribution), each run unchanged on
pyNN.nest and on pyNN.volley, in a child process apiece:

    PYTHONPATH=build/release/python python3 bench/peers/pynn_examples.py [PYNN_SOURCE]
        [--only NAME ...] [--backends nest volley] [--timeout 600] [--json FILE] [--python PY]

PYNN_SOURCE is PyNN's unpacked source tree (the folder that holds examples/): the argument, else
$VOLLEY_PYNN_SOURCE, else ${XDG_CACHE_HOME:-~/.cache}/volley/pynn-0.13.0, which
`scripts/setup --peers` fills. Every example takes the simulator's name on its command line
(`python examples/X.py nest`) and imports `pyNN.<name>`. For Volley the child first runs
`import volley.pynn`, which registers `pyNN.volley` in that process's sys.modules, and then the
script itself (runpy, as `__main__`, with its own file name and folder), so that neither the
script nor the installed PyNN is changed (`volley.pynn.install_pyNN_shim()` would instead write
a one-line pyNN/volley.py into the installed PyNN, for `python examples/X.py volley` as such).

Each run has its own empty working folder (examples write Results/...), MPLBACKEND=Agg, no
--plot-figure. Recorded per example and backend: exit status, wall time of the child process
(Python's start and the imports included), the last line of the error if it failed, the files
written, and a few comparable figures: from every Neo pickle the example saved, the number of
cells, spikes and the mean rate of each recorded population (and the mean of each recorded
signal); from its standard output the lines that report rates, spike counts, weights or EPSP
heights. Writes the results as JSON (--json, default bench/peers/latest_pynn_examples.json)
and prints a Markdown table (the one in docs/python.md, "PyNN's examples").

This is a peer harness, not a test: it asserts nothing and exits 0 whatever the examples do."""

import argparse
import glob
import json
import os
import pickle
import re
import shutil
import subprocess
import sys
import tempfile
import time

PYNN_VERSION = "0.13.0"
HERE = os.path.dirname(os.path.abspath(__file__))

# What some examples need that neither backend is (the reason is printed in the table).
NEEDS = {
    "nrn_artificial_cell.py": "needs NEURON (artificial cells)",
    "nineml_brunel.py": "needs NineML",
    "nineml_neuron.py": "needs NineML",
    "simpleRandomNetwork_csa.py": "needs CSA (the Connection Set Algebra)",
    "distrib_example.py": "needs MPI (mpi4py)",
    "random_distributions.py": "uses no simulator (pyNN.random only)",
}

# Arguments after the simulator's name that an example requires: one run per list.
EXTRA_ARGS = {"VAbenchmarks.py": [["CUBA"], ["COBA"]], "nineml_brunel.py": [["AI"]]}

# The child: run the example unchanged, as __main__, with the simulator's name as its argument.
CHILD = r"""
import os, runpy, sys
script, backend = sys.argv[1], sys.argv[2]
if backend == "volley":
    import volley.pynn  # registers pyNN.volley in this process
sys.argv = [script] + sys.argv[2:]
sys.path.insert(0, os.path.dirname(script))
runpy.run_path(script, run_name="__main__")
"""


def default_source():
    explicit = os.environ.get("VOLLEY_PYNN_SOURCE")
    if explicit:
        return explicit
    cache = os.environ.get("XDG_CACHE_HOME") or os.path.join(os.path.expanduser("~"), ".cache")
    return os.path.join(cache, "volley", f"pynn-{PYNN_VERSION}")


def stem(path, backend):
    """Results/20261204/VAbenchmarks_CUBA_exc_nest_np1_20261204-120000.pkl -> VAbenchmarks_CUBA_exc"""
    name = os.path.splitext(os.path.basename(path))[0]
    name = re.sub(r"_\d{8}-\d{6}$", "", name)
    name = re.sub(r"_np\d+$", "", name)
    return re.sub(r"_%s$" % backend, "", name)


def neo_figures(path):
    """Cells, spikes and mean rate per segment of a Neo pickle (PyNN's write_data), and the
    mean of each analog signal."""
    with open(path, "rb") as f:
        block = pickle.load(f)
    blocks = block if isinstance(block, list) else [block]
    out = []
    for blk in blocks:
        for seg in blk.segments:
            fig = {}
            trains = seg.spiketrains
            if len(trains):
                spikes = int(sum(len(st) for st in trains))
                duration_s = float((trains[0].t_stop - trains[0].t_start).rescale("s").magnitude)
                fig.update(cells=len(trains), spikes=spikes,
                           rate_hz=round(spikes / (len(trains) * duration_s), 4) if duration_s > 0 else None)
            for sig in seg.analogsignals:
                fig[f"mean_{sig.name}"] = float("%.6g" % float(sig.magnitude.mean()))
            if fig:
                out.append(fig)
    return out


STDOUT_FIGURES = re.compile(
    r"(rate\b.*Hz|spike counts|Final weights|Best fit|Mean firing rate|^\s{2}\S.* at -?[\d.]+ mV: |"
    r"Post-synaptic spike times|Number of Synapses)", re.IGNORECASE)


def stdout_figures(text):
    lines = [ln.rstrip() for ln in text.splitlines() if STDOUT_FIGURES.search(ln)]
    return [re.sub(r"\s+", " ", ln).strip()[:300] for ln in lines][:12]


def clean(text, *paths):
    for p in paths:
        if p:
            text = text.replace(p, "<%s>" % ("examples" if p.endswith("examples") else "work"))
    return text


def last_error_line(stderr, stdout):
    for stream in (stderr, stdout):
        lines = [ln for ln in stream.splitlines() if ln.strip()]
        for ln in reversed(lines):  # the exception's line, not a logging or warning line after it
            if re.match(r"^[A-Za-z_][\w.]*(Error|Exception|Exit|Interrupt|NotImplemented\w*)\b", ln):
                return ln.strip()
        if lines:
            return lines[-1].strip()
    return ""


def run_one(python, examples, name, extra, backend, timeout):
    work = tempfile.mkdtemp(prefix=f"pynn_ex_{backend}_")
    os.makedirs(os.path.join(work, "Results"))
    env = dict(os.environ, MPLBACKEND="Agg", PYTHONDONTWRITEBYTECODE="1")
    t0 = time.perf_counter()
    try:
        proc = subprocess.run([python, "-c", CHILD, os.path.join(examples, name), backend, *extra],
                              cwd=work, env=env, capture_output=True, text=True, timeout=timeout)
        rc, out, err = proc.returncode, proc.stdout, proc.stderr
    except subprocess.TimeoutExpired as e:
        rc = "timeout"
        out = e.stdout.decode() if isinstance(e.stdout, bytes) else (e.stdout or "")
        err = f"timed out after {timeout} s"
    wall = time.perf_counter() - t0
    result = {"status": "ok" if rc == 0 else "failed", "rc": rc, "wall_s": round(wall, 2)}
    if rc != 0:
        result["error"] = clean(last_error_line(err, out), examples, work)[:400]
    files = sorted(os.path.relpath(p, work) for p in glob.glob(os.path.join(work, "**", "*"), recursive=True)
                   if os.path.isfile(p))
    result["files"] = [stem(f, backend) + os.path.splitext(f)[1] for f in files]
    data = {}
    for f in files:
        if f.endswith((".conn", ".connections")):  # Projection.save: one connection a line
            with open(os.path.join(work, f)) as fh:
                data[stem(f, backend)] = [{"connections": sum(1 for ln in fh if ln.strip() and ln[0] != "#")}]
        elif f.endswith(".pkl"):
            try:
                data[stem(f, backend)] = neo_figures(os.path.join(work, f))
            except Exception as e:  # a pickle that is not Neo's, or one cut short
                data[stem(f, backend)] = f"unreadable: {type(e).__name__}"
    if data:
        result["data"] = data
    figures = stdout_figures(out)
    if figures:
        result["stdout"] = figures
    shutil.rmtree(work, ignore_errors=True)
    return result


def summary(res):
    """The figures of one run, short, for the table."""
    if res is None:
        return ""
    parts = []
    for key, segs in sorted(res.get("data", {}).items()):
        if isinstance(segs, str):
            parts.append(f"{key}: {segs}")
            continue
        rates = [s for s in segs if "rate_hz" in s]
        if rates:
            txt = "/".join("%.3g Hz" % s["rate_hz"] for s in rates[:3])
            parts.append(f"{key}: {txt} ({rates[0]['cells']} cells)")
        elif segs:
            k = "mean_v" if "mean_v" in segs[0] else sorted(segs[0])[0]
            parts.append(f"{key}: {k.replace('mean_', 'mean ')} {segs[0][k]:.4g}")
    hz = [ln for ln in res.get("stdout", []) if "Hz" in ln and "ate" in ln]  # printed rates
    parts += (hz or ([] if parts else res.get("stdout", [])))[:2]
    return "; ".join(parts)


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("source", nargs="?", default=None, help="PyNN's unpacked source (holds examples/)")
    ap.add_argument("--only", nargs="+", default=None, help="example file names (X.py)")
    ap.add_argument("--backends", nargs="+", default=["nest", "volley"])
    ap.add_argument("--timeout", type=float, default=600.0, help="[s] per run")
    ap.add_argument("--json", default=os.path.join(HERE, "latest_pynn_examples.json"))
    ap.add_argument("--python", default=sys.executable)
    args = ap.parse_args()

    source = args.source or default_source()
    examples = os.path.join(source, "examples")
    if not os.path.isdir(examples):
        sys.exit(f"no PyNN examples at {examples} (scripts/setup --peers unpacks PyNN {PYNN_VERSION}'s "
                 "source; VOLLEY_PYNN_SOURCE or the argument names another)")
    names = args.only or sorted(os.path.basename(p) for p in glob.glob(os.path.join(examples, "*.py")))

    results = {}
    for name, extra in ((n, e) for n in names for e in EXTRA_ARGS.get(n, [[]])):
        key = " ".join([name, *extra])
        results[key] = {"needs": NEEDS.get(name), "args": extra}
        for backend in args.backends:
            res = run_one(args.python, examples, name, extra, backend, args.timeout)
            results[key][backend] = res
            print(f"{key:40s} {backend:7s} {res['status']:7s} {res['wall_s']:7.1f} s  "
                  f"{res.get('error', '') or summary(res)}"[:220], file=sys.stderr, flush=True)

    doc = {"pynn": PYNN_VERSION, "date": time.strftime("%Y-%m-%d %H:%M"),
           "python": sys.version.split()[0], "timeout_s": args.timeout, "examples": results}
    from importlib import metadata
    for dist, key in (("nest-simulator", "nest"), ("pyNN", "pynn_installed"), ("numpy", "numpy"), ("neo", "neo")):
        try:
            doc[key] = metadata.version(dist)
        except metadata.PackageNotFoundError:
            pass
    with open(args.json, "w") as f:
        json.dump(doc, f, indent=1, default=str)
        f.write("\n")

    head = "| example | " + " | ".join(f"{b} (time)" for b in args.backends) + " | figures / reason |"
    print(head)
    print("|" + "---|" * (len(args.backends) + 2))
    for name, r in results.items():
        cells, notes = [], []
        for b in args.backends:
            res = r[b]
            cells.append(("y" if res["status"] == "ok" else "**n**") + f" ({res['wall_s']:.1f} s)")
            note = summary(res) if res["status"] == "ok" else "error: " + res.get("error", "")
            if note:
                notes.append(f"{b}: {note}")
        if r["needs"]:
            notes.insert(0, r["needs"])
        print(f"| {name} | " + " | ".join(cells) + " | " + "; ".join(notes).replace("|", "/") + " |")


if __name__ == "__main__":
    main()
