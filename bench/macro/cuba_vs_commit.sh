#!/usr/bin/env bash
# CUBA on this tree's volley against an older commit's, alternated, one thread; prints the
# medians of sim_s and this tree's time over the old one's (bench/macro/README.md, "The
# time-driven path against dc05331").
#   git worktree add /tmp/old dc05331 && cmake -S /tmp/old -B /tmp/old/build -G Ninja \
#       -DCMAKE_BUILD_TYPE=Release -DVOLLEY_WITH_PYTHON=OFF -DBUILD_TESTING=OFF && ninja -C /tmp/old/build volley
#   bench/macro/cuba_vs_commit.sh /tmp/old/build/apps/volley N RUNS ISA [DURATION_MS]
# ISA: best, avx2 or baseline (the old binary reads VOLLEY_CPU_ISA, today's --cpu-isa).
set -euo pipefail
cd "$(dirname "$0")/../.."
old="${1:?old volley}"; n="${2:?neurons}"; runs="${3:-5}"; isa="${4:-best}"; duration="${5:-1000}"
new="${VOLLEY:-build/release/apps/volley}"
sim_s() { python3 -c "import json, sys; print(json.load(sys.stdin)['sim_s'])"; }
for _ in $(seq "$runs"); do
  o=$(VOLLEY_CPU_ISA="$isa" "$old" bench cuba --neurons "$n" --threads 1 --duration "$duration" --json --quiet | sim_s)
  t=$("$new" bench cuba --neurons "$n" --threads 1 --duration "$duration" --json --quiet --cpu-isa "$isa" | sim_s)
  echo "$o $t"
done | python3 -c "
import statistics as s, sys
r = [tuple(map(float, l.split())) for l in sys.stdin]
o, t = [a for a, _ in r], [b for _, b in r]
print(f'N = $n, $isa, {len(r)} runs: old {s.median(o):.4f} s, new {s.median(t):.4f} s, new / old {s.median(t) / s.median(o):.3f} '
      f'(pairwise median {s.median([b / a for a, b in r]):.3f})')"
