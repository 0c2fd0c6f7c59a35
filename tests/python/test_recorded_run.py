"""Simulation.run_recorded(), the library's recorded run as `volley run` does it: the SONATA and
CSV files it writes hold the spikes of an in-memory recorder of the same network and seed (read
back with volley.read_spikes and, for the CSV, Python's own csv module); its figures are those
`volley run --json` prints for the same network file, checksum included, and the CLI's file holds
the same spikes; the state report is written; Ctrl-C stops it with the outputs kept and a
checkpoint from which run_recorded(resume=...) gives the rest of the uninterrupted spikes."""

import csv
import json
import os
import signal
import subprocess
import sys
import tempfile
import time

from volley_test_support import check, cli, volley_module

volley = volley_module()
import numpy as np  # noqa: E402


def reference(net, duration_ms):
    """{population: (node_ids, times_ms)} of a plain simulation with one recorder per population."""
    sim = volley.Simulation(net, dt_ms=0.1, seed=7, threads=1)
    recs = {name: sim.record_spikes(name) for name in ("exc", "inh")}
    sim.run(duration_ms)
    return {name: (np.array(r.node_ids, dtype=np.uint64), np.array(r.times_ms)) for name, r in recs.items()}


def same(a, b):
    return a.keys() == b.keys() and all(np.array_equal(a[k][0], b[k][0]) and np.allclose(a[k][1], b[k][1], atol=1e-9)
                                        for k in a)


if len(sys.argv) > 2 and sys.argv[1] == "child":  # the Ctrl-C part: interrupted by the parent
    tmp = sys.argv[2]
    net = volley.cuba_network(20000)
    sim = volley.Simulation(net, dt_ms=0.1, seed=7, threads=1)
    print("running", flush=True)
    try:
        sim.run_recorded(1e6, out=os.path.join(tmp, "long.h5"), checkpoint=os.path.join(tmp, "long_ck.h5"))
        sys.exit(1)
    except KeyboardInterrupt as e:
        figures = e.args[0]
        print(json.dumps({"completed": figures["completed"], "duration_ms": figures["duration_ms"],
                          "spikes": figures["spikes"], "time_ms": sim.time_ms}), flush=True)
        sys.exit(0)

net = volley.cuba_network(1000)
with tempfile.TemporaryDirectory() as tmp:
    h5, svg, csv_file = (os.path.join(tmp, f) for f in ("spikes.h5", "raster.svg", "spikes.csv"))
    sim = volley.Simulation(net, dt_ms=0.1, seed=7, threads=1)
    figures = sim.run_recorded(100.0, out=h5, plot=svg, title="cuba 1000", record=[("exc", "v_mv", 1.0)])
    expected = reference(net, 100.0)
    n = sum(len(ids) for ids, _ in expected.values())
    check(n > 100, f"the network fired {n} spikes")
    check(same(volley.read_spikes(h5), expected), "the .h5 output differs from an in-memory recorder")
    check(figures["completed"] and figures["spikes"] == n and figures["output"] == h5 and figures["plot"] == svg,
          f"figures: {figures}")
    check(abs(sim.time_ms - 100.0) < 1e-9, f"the simulation is at {sim.time_ms} ms")
    check("cuba 1000" in open(svg).read(), "the plot's title")

    # CSV, read with Python's own reader.
    sim = volley.Simulation(net, dt_ms=0.1, seed=7, threads=1)
    sim.run_recorded(100.0, out=csv_file)
    rows = list(csv.DictReader(open(csv_file)))
    from_csv = {name: (np.array([int(r["node_id"]) for r in rows if r["population"] == name], dtype=np.uint64),
                       np.array([float(r["time_ms"]) for r in rows if r["population"] == name]))
                for name in ("exc", "inh")}
    check(same(from_csv, expected), "the .csv output differs from an in-memory recorder")

    # The CLI on the same network file: the same figures and the same spikes in its file.
    net_file, cli_h5 = os.path.join(tmp, "cuba.json"), os.path.join(tmp, "cli.h5")
    volley.save_json(net, net_file, dt_ms=0.1, duration_ms=100.0, seed=7)
    run = subprocess.run([cli(), "run", net_file, "--threads", "1", "--out", cli_h5, "--json", "--quiet"],
                         capture_output=True, text=True, timeout=300)
    check(run.returncode == 0, run.stderr)
    from_cli = json.loads(run.stdout)
    for key in ("spike_checksum", "spikes", "synapses", "synaptic_events", "neurons", "duration_ms", "mean_rate_hz"):
        check(from_cli[key] == figures[key], f"{key}: CLI {from_cli[key]}, run_recorded {figures[key]}")
    check(same(volley.read_spikes(cli_h5), expected), "the CLI's .h5 differs")

    # Ctrl-C: a child runs a long recorded run and gets SIGINT.
    child = subprocess.Popen([sys.executable, __file__, "child", tmp], stdout=subprocess.PIPE, text=True)
    check(child.stdout.readline().strip() == "running", "the child did not start")
    time.sleep(2.0)
    child.send_signal(signal.SIGINT)
    out, _ = child.communicate(timeout=120)
    check(child.returncode == 0, f"child exit status {child.returncode}: {out}")
    stopped = json.loads(out)
    check(not stopped["completed"] and 0 < stopped["duration_ms"] < 1e6, f"stopped: {stopped}")
    kept = volley.read_spikes(os.path.join(tmp, "long.h5"))
    t_max = max(times.max() for _, times in kept.values() if len(times))
    check(sum(len(ids) for ids, _ in kept.values()) == stopped["spikes"] and t_max <= stopped["duration_ms"] + 1e-9,
          "the interrupted run's file holds every spike up to where it stopped")
    # Its checkpoint continues to the spikes of an uninterrupted run.
    big = volley.cuba_network(20000)
    rest = volley.Simulation(big, dt_ms=0.1, seed=7, threads=1)
    after = rest.run_recorded(5.0, out=os.path.join(tmp, "rest.h5"), resume=os.path.join(tmp, "long_ck.h5"))
    check(abs(after["start_ms"] - stopped["duration_ms"]) < 1e-9, f"resumed at {after['start_ms']} ms")
    whole = volley.Simulation(big, dt_ms=0.1, seed=7, threads=1)
    rec = whole.record_spikes("exc")
    whole.run(stopped["duration_ms"] + 5.0)
    tail = np.array(rec.times_ms) > stopped["duration_ms"] + 1e-9
    resumed = volley.read_spikes(os.path.join(tmp, "rest.h5"))["exc"]
    check(np.array_equal(resumed[0], np.array(rec.node_ids)[tail].astype(np.uint64))
          and np.allclose(resumed[1], np.array(rec.times_ms)[tail]), "resumed spikes differ from the uninterrupted run")
print(f"{n} spikes in .h5 and .csv as in memory and as the CLI's; interrupted at {stopped['duration_ms']} ms, "
      f"resumed to the same spikes")
