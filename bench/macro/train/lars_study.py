#!/usr/bin/env python3
"""LARS against linearly scaled SGD at a fixed epoch budget (issue: "the seed's claim, in miniature").

The baseline is SGD with momentum at batch 256; at each large batch (4K, 8K, 16K) it sets
  (a) SGD with momentum, the linear scaling rule and warm-up (Goyal et al. 2017), against
  (b) LARS with warm-up and polynomial decay (You, Gitman & Ginsburg 2017: trust coefficient
      0.001, weight decay 5e-4, momentum 0.9, poly power 2).
Every run has the same epochs, warm-up and schedule (linear warm-up, then polynomial decay of
power 2 to 0: `volley train`'s only schedule), so the optimiser is the only difference. The
search budget is the same for every (method, batch): `--budget` peak learning rates from the lists below, each run
once; a row reports the best of them. Each run's `volley train --json` is kept in --results, so
the study can stop and continue (a run whose file exists is not run again).

    bench/macro/train/lars_study.py run [--batches 256,8192,4096,16384] [--epochs 30] [--threads 2]
        [--rates SGD/LARS, e.g. 0.2,0.4,0.8/16,32,64: the large batches' rates, named] [--results DIR]
    bench/macro/train/lars_study.py table [--svg docs/lars_accuracy.svg]
"""
import argparse
import json
import math
import os
import subprocess
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
# Peak learning rates tried per (method, batch), five each: SGD at the linear rule from the
# baseline's 0.05 at batch 256 (Goyal et al.: rate proportional to batch) and at 1/2 to 1/16 of
# it (the 5-epoch experiment found the rule's rate too large at 8K); LARS at global rates gamma =
# 4 to 64 (each layer's bias at its weights' trust ratio, convert/include/volley/convert/
# optimizer.hpp; with biases at the raw gamma, as before 2026-12-06, training collapsed from
# gamma = 8 at 8K: those runs are kept in lars_study/bias_at_global_rate/). The baseline tries
# 0.025 to 0.8 (six: the first five left the best at the edge). A budget of three takes the
# SGD factors' three largest (1/4 to 1 of the rule) and the middle three gammas (8, 16, 32),
# where the five-rate searches at 8K found their best.
SGD_FACTORS = [0.0625, 0.125, 0.25, 0.5, 1]
LARS_GAMMAS = [4, 8, 16, 32, 64]
BASE_RATES = [0.025, 0.05, 0.1, 0.2, 0.4, 0.8]
BASE_LR = 0.05


def runs_for(batch, budget, base_rates=BASE_RATES):
    """The runs of one batch size: for a large batch the `budget` rates of each method where the
    searches found their best (SGD: the largest factors; LARS: the middle gammas)."""
    if batch == 256:
        return [("sgd", lr) for lr in base_rates]
    sgd = [("sgd", BASE_LR * batch / 256 * f) for f in SGD_FACTORS[len(SGD_FACTORS) - budget:]]
    first = (len(LARS_GAMMAS) - budget) // 2
    return sgd + [("lars", g) for g in LARS_GAMMAS[first:first + budget]]


def result_path(args, method, batch, lr):
    return os.path.join(args.results, f"{method}_b{batch}_lr{lr:g}_e{args.epochs}.json")


def explicit_runs(rates):
    """--rates SGD/LARS (e.g. 0.2,0.4,0.8/16,32,64): the runs of each large batch, named."""
    sgd, lars = rates.split("/")
    return [("sgd", float(r)) for r in sgd.split(",") if r] + [("lars", float(g)) for g in lars.split(",") if g]


def run(args):
    os.makedirs(args.results, exist_ok=True)
    base_rates = [float(r) for r in args.base_rates.split(",")]
    for batch in (int(b) for b in args.batches.split(",")):
        runs = explicit_runs(args.rates) if args.rates and batch != 256 else runs_for(batch, args.budget, base_rates)
        for method, lr in runs:
            path = result_path(args, method, batch, lr)
            if os.path.exists(path):
                continue
            cmd = [args.volley, "train", "--model", args.model, "--optimizer", method, "--batch", str(batch),
                   "--lr", f"{lr:g}", "--epochs", str(args.epochs), "--warmup-epochs", str(args.warmup),
                   "--momentum", "0.9", "--weight-decay", "5e-4", "--threads", str(args.threads), "--seed", "1",
                   "--format", "volley", "--out", path[:-len(".json")] + ".h5",  # ignored by git; one per run
                   "--json", "--quiet"]
            print(" ".join(cmd), flush=True)
            p = subprocess.run(cmd, capture_output=True, text=True)
            if p.returncode == 0:
                out = json.loads(p.stdout)
            elif "diverged" in p.stderr:  # a learning rate too large: part of the search, kept
                out = {"diverged": p.stderr.strip().splitlines()[-1], "test_accuracy": 0.0}
            else:
                sys.exit(f"{cmd}: exit {p.returncode}\n{p.stderr}")
            out["study"] = {"method": method, "batch": batch, "lr": lr, "epochs": args.epochs, "warmup": args.warmup,
                            "model": args.model}
            with open(path, "w") as f:
                json.dump(out, f)
            print(f"  test accuracy {100 * out['test_accuracy']:.2f}%", flush=True)


def load(args):
    rows = []
    for name in sorted(n for n in os.listdir(args.results) if n.endswith(".json")):
        with open(os.path.join(args.results, name)) as f:
            rows.append(json.load(f))
    return rows


def best(rows):
    """(method, batch) -> (best accuracy, its lr, the lrs tried)."""
    out = {}
    for r in rows:
        s = r["study"]
        key = ("baseline" if s["batch"] == 256 else s["method"], s["batch"])
        acc, lr, tried = out.get(key, (-1, None, []))
        tried = tried + [s["lr"]]
        out[key] = (r["test_accuracy"], s["lr"], tried) if r["test_accuracy"] > acc else (acc, lr, tried)
    return out


def svg(path, table, model, epochs):
    w, h, l, r, t, b = 640, 360, 60, 170, 30, 50
    batches = sorted({k[1] for k in table if k[0] != "baseline"})
    if not batches:
        return
    accs = [v[0] * 100 for v in table.values()]
    lo = math.floor(min(accs) / 5) * 5
    hi = min(100, math.ceil(max(accs) / 5) * 5)
    x = lambda B: l + (math.log2(B) - math.log2(batches[0])) / max(1e-9, math.log2(batches[-1]) - math.log2(batches[0])) * (w - l - r) if len(batches) > 1 else l + (w - l - r) / 2
    y = lambda a: t + (hi - a) / max(1e-9, hi - lo) * (h - t - b)
    parts = [f'<svg xmlns="http://www.w3.org/2000/svg" width="{w}" height="{h}" font-family="sans-serif" font-size="12">',
             f'<text x="{l}" y="18" font-size="13">Test accuracy against batch size (Fashion-MNIST, {model} CNN, {epochs} epochs each)</text>']
    for a in range(int(lo), int(hi) + 1, 5):
        parts.append(f'<line x1="{l}" x2="{w - r}" y1="{y(a):.1f}" y2="{y(a):.1f}" stroke="#ddd"/>'
                     f'<text x="{l - 8}" y="{y(a) + 4:.1f}" text-anchor="end">{a}%</text>')
    for B in batches:
        parts.append(f'<text x="{x(B):.1f}" y="{h - b + 18}" text-anchor="middle">{B}</text>')
    parts.append(f'<text x="{(l + w - r) / 2:.1f}" y="{h - 12}" text-anchor="middle">batch size (log2 axis)</text>')
    if ("baseline", 256) in table:
        a = table[("baseline", 256)][0] * 100
        parts.append(f'<line x1="{l}" x2="{w - r}" y1="{y(a):.1f}" y2="{y(a):.1f}" stroke="#444" stroke-dasharray="6,4"/>'
                     f'<text x="{w - r + 8}" y="{y(a) + 4:.1f}">batch 256 SGD {a:.1f}%</text>')
    for method, colour, label in (("sgd", "#d62728", "(a) SGD, linear scaling"), ("lars", "#1f77b4", "(b) LARS")):
        pts = [(x(B), y(table[(method, B)][0] * 100)) for B in batches if (method, B) in table]
        if not pts:
            continue
        parts.append(f'<polyline fill="none" stroke="{colour}" stroke-width="2" points="{" ".join(f"{px:.1f},{py:.1f}" for px, py in pts)}"/>')
        parts += [f'<circle cx="{px:.1f}" cy="{py:.1f}" r="3.5" fill="{colour}"/>' for px, py in pts]
        parts.append(f'<text x="{pts[-1][0] + 8:.1f}" y="{pts[-1][1] + 4:.1f}" fill="{colour}">{label}</text>')
    parts.append("</svg>\n")
    with open(path, "w") as f:
        f.write("\n".join(parts))


def table(args):
    rows = load(args)
    t = best(rows)
    print("| batch | optimiser | peak LR tried | best peak LR | steps | test accuracy (best) | against batch 256 |")
    print("|---|---|---|---|---|---|---|")
    base = t.get(("baseline", 256), (None,))[0]
    for key in sorted(t, key=lambda k: (k[1], ["baseline", "sgd", "lars"].index(k[0]))):
        acc, lr, tried = t[key]
        steps = math.ceil(60000 / key[1]) * args.epochs
        name = {"baseline": "SGD (baseline)", "sgd": "(a) SGD, linear scaling + warm-up", "lars": "(b) LARS + warm-up"}[key[0]]
        diff = f"{100 * (acc - base):+.2f} points" if base is not None and key[0] != "baseline" else ""
        print(f"| {key[1]:,} | {name} | {', '.join(f'{v:g}' for v in sorted(tried))} | {lr:g} | {steps:,} | "
              f"{100 * acc:.2f}% | {diff} |")
    if args.svg:
        svg(args.svg, t, args.model, args.epochs)


def main():
    p = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("what", choices=["run", "table"])
    p.add_argument("--volley", default="build/release/apps/volley")
    p.add_argument("--model", default="small", help="a `volley train --model` name")
    p.add_argument("--results", default="", help="default: lars_study/ for small, lars_study_MODEL/ otherwise")
    p.add_argument("--batches", default="256,8192,4096,16384")
    p.add_argument("--epochs", type=int, default=30)
    p.add_argument("--warmup", type=float, default=5)
    p.add_argument("--threads", type=int, default=2)
    p.add_argument("--svg", default="")
    p.add_argument("--budget", type=int, default=5, help="rates per (method, batch), at most 5")
    p.add_argument("--rates", default="", help="the large batches' peak rates, SGD/LARS, e.g. 0.2,0.4,0.8/16,32,64 "
                   "(instead of --budget's choice)")
    p.add_argument("--base-rates", default=",".join(f"{r:g}" for r in BASE_RATES),
                   help="the baseline's (batch 256) peak rates")
    args = p.parse_args()
    if not args.results:
        args.results = os.path.join(HERE, "lars_study" if args.model == "small" else f"lars_study_{args.model}")
    run(args) if args.what == "run" else table(args)


if __name__ == "__main__":
    sys.exit(main())
