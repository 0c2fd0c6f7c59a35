#!/usr/bin/env python3
"""The modelled weak scaling of hpc_benchmark to many ranks (bench/mpi/README.md).

For each rank count R, `volley bench hpc --scale R*S --project-ranks R` builds and runs rank 0
of R alone (its 11,250*S neurons and their synapses; the other ranks' spikes mirrored from its
own) and models the MPI_Allgatherv of each epoch with the latency and bandwidth given; R = 1 is
a plain run. Prints a Markdown table, with the median of --repeats runs for each R.

    bench/mpi/project.py [--volley build/release/apps/volley] [--per-rank-scale 0.5]
        [--ranks 1,2,4,16,64,256,1024] [--duration 100] [--repeats 3]
        [--latency-us 2] [--bandwidth-gbs 12.5]
"""
import argparse
import json
import statistics
import subprocess
import sys


def run(args, ranks):
    cmd = [args.volley, "bench", "hpc", "--scale", str(ranks * args.per_rank_scale), "--duration", str(args.duration),
           "--threads", "1", "--count-only", "--quiet", "--json", "--seed", str(args.seed)]
    if ranks > 1:
        cmd += ["--project-ranks", str(ranks), "--model-latency-us", str(args.latency_us),
                "--model-bandwidth-gbs", str(args.bandwidth_gbs)]
    out = subprocess.run(cmd, check=True, capture_output=True, text=True).stdout
    return json.loads(out)


def main():
    p = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("--volley", default="build/release/apps/volley")
    p.add_argument("--per-rank-scale", type=float, default=0.5)
    p.add_argument("--ranks", default="1,2,4,16,64,256,1024")
    p.add_argument("--duration", type=float, default=100)
    p.add_argument("--repeats", type=int, default=3)
    p.add_argument("--seed", type=int, default=1)
    p.add_argument("--latency-us", type=float, default=2)
    p.add_argument("--bandwidth-gbs", type=float, default=12.5)
    args = p.parse_args()
    print(f"per rank: {11250 * args.per_rank_scale:.0f} neurons, 1 thread; {args.duration} ms; model: "
          f"{args.latency_us} us per step, {args.bandwidth_gbs} GB/s; median of {args.repeats}", flush=True)
    print("| ranks | neurons | rank 0 build [s] | rank 0 work [s] (measured) | events gathered / epoch | "
          "exchange [s] (modelled) | simulation [s] (modelled) | RTF (modelled) | rate [Hz] | peak RSS [GB] |")
    print("|---|---|---|---|---|---|---|---|---|---|", flush=True)
    for r in (int(x) for x in args.ranks.split(",")):
        runs = [run(args, r) for _ in range(args.repeats)]
        med = lambda f: statistics.median(f(d) for d in runs)
        bio = args.duration / 1000
        neurons = sum(q["size"] for q in runs[0]["populations"] if not q["model"].endswith("source"))
        if r == 1:  # the neurons' spikes (the drive is not exchanged) per epoch of 1.5 ms
            work, ex = med(lambda d: d["sim_s"]), 0.0
            events = med(lambda d: d["mean_rate_hz"]) * neurons * bio / (args.duration / 1.5)
        else:
            work = med(lambda d: d["projection"]["rank_work_s"])
            ex = med(lambda d: d["projection"]["modelled_exchange_s"])
            events = med(lambda d: d["projection"]["gathered_events_per_epoch"])
        print(f"| {r:,} | {neurons:,} | {med(lambda d: d['build_s']):.2f} | {work:.2f} | {events:,.0f} | {ex:.4f} | "
              f"{work + ex:.2f} | {(work + ex) / bio:.1f} | {med(lambda d: d['mean_rate_hz']):.2f} | "
              f"{med(lambda d: d['peak_rss_bytes']) / 1e9:.2f} |", flush=True)


if __name__ == "__main__":
    sys.exit(main())
