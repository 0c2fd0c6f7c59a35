#!/usr/bin/env python3
"""Alternates two volley binaries on the macro benchmarks of the no-slowdown table
(bench/macro/README.md) and prints medians and new/old ratios.

Usage: bench/macro/alternate.py OLD_VOLLEY NEW_VOLLEY [--repeats 5] [--only NAME,...]
Each benchmark runs old, new, old, new, ... so that both see the same load."""
import argparse
import json
import statistics
import subprocess
import sys

BENCHES = [
    # name, arguments, JSON field holding the time
    ("cuba4k", ["bench", "cuba", "--neurons", "4000", "--threads", "1", "--json", "--quiet"], "sim_s"),
    ("cuba40k", ["bench", "cuba", "--neurons", "40000", "--threads", "1", "--json", "--quiet"], "sim_s"),
    ("cuba40k_t2", ["bench", "cuba", "--neurons", "40000", "--threads", "2", "--json", "--quiet"], "sim_s"),
    ("cuba400k", ["bench", "cuba", "--neurons", "400000", "--duration", "300", "--threads", "1", "--json", "--quiet"],
     "sim_s"),
    ("cuba400k_t2", ["bench", "cuba", "--neurons", "400000", "--duration", "300", "--threads", "2", "--json",
                     "--quiet"], "sim_s"),
    ("coba4k", ["bench", "coba", "--neurons", "4000", "--threads", "1", "--json", "--quiet"], "sim_s"),
    ("convert200", ["convert", "tests/data/convert/fmnist_small_torch.h5", "--limit", "200", "--norm-images", "200",
                    "--timesteps", "256", "--threads", "1", "--json"], "wall_s"),
    ("risp", ["bench", "risp", "--json"], "seconds"),
]


def run(binary, args, field):
    out = subprocess.run([binary] + args, check=True, capture_output=True, text=True).stdout
    return float(json.loads(out)[field])


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("old")
    ap.add_argument("new")
    ap.add_argument("--repeats", type=int, default=5)
    ap.add_argument("--only", default="")
    a = ap.parse_args()
    only = set(filter(None, a.only.split(",")))
    print("| benchmark | old [s] | new [s] | new / old |")
    print("|---|---|---|---|")
    for name, args, field in BENCHES:
        if only and name not in only:
            continue
        old, new = [], []
        for _ in range(a.repeats):
            old.append(run(a.old, args, field))
            new.append(run(a.new, args, field))
        mo, mn = statistics.median(old), statistics.median(new)
        print(f"| {name} | {mo:.4g} | {mn:.4g} | {mn / mo:.2f} |", flush=True)
        print(f"  {name} old {sorted(old)} new {sorted(new)}", file=sys.stderr, flush=True)


if __name__ == "__main__":
    main()
