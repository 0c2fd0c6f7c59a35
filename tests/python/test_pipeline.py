"""volley.pipeline.run is `volley demo` as a function: on the same options (a tiny training, the
hardware head and the temporal stage at a small size) it gives the figures the CLI prints, from
the model the CLI cached, and writes the same files; a bad option is refused by name."""

import json
import os
import subprocess
import sys
import tempfile

from volley_test_support import SKIP, check, cli, volley_module

if not os.path.exists("/usr/share/datasets/fashion-mnist/t10k-images-idx3-ubyte.gz"):
    print("skipped: Fashion-MNIST is not installed (scripts/setup installs it)")
    sys.exit(SKIP)
volley = volley_module()

# Run-dependent entries: wall times, paths, and how the model was obtained (the CLI trains it,
# the pipeline then reuses it from the cache).
VOLATILE = {"stages", "images_per_s", "synops_per_s", "outputs", "model", "features_s",
            "sequences_per_s", "eons_evaluations_per_s", "head_file", "network_file", "cost", "time_s_per_image"}


def same(a, b, path=""):
    """Every entry of two figure objects equal, except the run-dependent ones."""
    if isinstance(a, dict):
        check(isinstance(b, dict) and set(a) == set(b), f"{path}: keys {sorted(a)} != {sorted(b) if isinstance(b, dict) else b}")
        for k in a:
            if k not in VOLATILE:
                same(a[k], b[k], f"{path}/{k}")
    elif isinstance(a, list):
        check(isinstance(b, list) and len(a) == len(b), f"{path}: lengths differ")
        for i, (x, y) in enumerate(zip(a, b)):
            same(x, y, f"{path}[{i}]")
    else:
        check(a == b, f"{path}: CLI {a!r}, pipeline {b!r}")


with tempfile.TemporaryDirectory() as tmp:
    cli_out, py_out = os.path.join(tmp, "cli"), os.path.join(tmp, "py")
    args = ["demo", "--out", cli_out, "--epochs", "1", "--train-limit", "2000", "--norm-images", "500", "--threads", "2",
            "--limit", "40", "--timesteps", "16,32", "--raster-steps", "16", "--hardware-images", "10",
            "--temporal-sequences", "30", "--temporal-generations", "1", "--json", "--quiet"]
    run = subprocess.run([cli(), *args], capture_output=True, text=True, timeout=600)
    check(run.returncode == 0, f"volley demo failed: {run.stderr}")
    from_cli = json.loads(run.stdout)
    check(from_cli.pop("peak_rss_bytes") > 0, "the CLI adds the process's peak memory")

    lines = []
    figures = volley.pipeline.run(py_out, cache_dir=os.path.join(cli_out, "cache"), epochs=1, train_images=2000,
                                  norm_images=500, threads=2, images=40, timesteps=[16, 32], raster_steps=16,
                                  hardware_images=10, temporal_sequences=30, temporal_generations=1, log=lines.append)
    check(figures["model"]["source"] == "cache" and figures["model"]["sha256"] == from_cli["model"]["sha256"],
          f"the pipeline reuses the model the CLI trained: {figures['model']}")
    check(any(line.startswith("model: reused the cached") for line in lines), f"progress lines: {lines[:3]}")
    same(from_cli, figures)
    check(figures["hardware"]["available"] and figures["temporal"]["available"], "every stage ran")
    for name in ("accuracy_vs_T.svg", "raster.svg", "results.h5", "head_danna2.json", "temporal_order.json",
                 "temporal_change.json", "temporal_count.json", "temporal_raster.svg"):
        check(os.path.exists(os.path.join(py_out, name)), f"{name} written")
    # The temporal stage's networks are its saved result: the order network read back runs on
    # danna2 (volley.TennlabNetwork reads TENNLab JSON).
    order = volley.TennlabNetwork.load(os.path.join(py_out, "temporal_order.json"))
    check(order.num_nodes == figures["temporal"]["questions"][0]["neurons"], "the saved order network")

    for bad, parameter in ((dict(raster_steps=0), "raster_steps"), (dict(percentile=0.0), "percentile"),
                           (dict(threads=0), "threads")):
        try:
            volley.pipeline.run(os.path.join(tmp, "bad"), cache_dir=os.path.join(cli_out, "cache"), epochs=1,
                                train_images=2000, norm_images=500, temporal_sequences=0, hardware_timesteps=0, **bad)
            raise AssertionError(f"{bad} was accepted")
        except volley.InvalidParameter as e:
            check(e.parameter == parameter, f"{bad}: {e}")
print(f"pipeline: the CLI's figures at T = 16, 32 (SNN accuracy {figures['timesteps'][-1]['accuracy']:.3f}), "
      f"the hardware head and the temporal stage, from the cached model")
