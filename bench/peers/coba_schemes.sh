#!/usr/bin/env bash
# COBA, N = 4000, 1 s, dt 0.1 ms, one thread: Volley's fixed-step schemes against Brian2's C++
# standalone with the same method, alternated in one run (docs/integrators.md, "Speed").
#   bench/peers/coba_schemes.sh [VOLLEY_BINARY] [REPEATS]
# Needs Brian2 (scripts/setup --peers, or pip install brian2) and a C++ compiler for it.
set -euo pipefail
volley=${1:-build/release/apps/volley}
repeats=${2:-3}
here=$(cd "$(dirname "$0")" && pwd)
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
median() { python3 -c "import statistics,sys; print(statistics.median(float(x) for x in sys.argv[1:]))" "$@"; }
field() { python3 -c "import json,sys; f=json.load(sys.stdin); print($1)"; }
printf '%-18s %10s %10s %8s  %s\n' scheme volley_s brian2_s ratio "rates volley / brian2 [Hz]"
for method in rk4 rk2 exponential_euler euler; do
  python3 "$here/brian2_coba.py" --neurons 4000 --method "$method" --dir "$work/$method" > "$work/first.json"
  v=() b=()
  for ((k = 0; k < repeats; k++)); do
    out=$("$volley" bench coba --neurons 4000 --duration 1000 --threads 1 --integrator "$method" --json --quiet)
    v+=("$(echo "$out" | field "f['sim_s']")")
    vr=$(echo "$out" | field "round(f['spikes'] / 4000, 2)")
    out=$(python3 "$here/brian2_coba.py" --dir "$work/$method" --neurons 4000 --reuse)
    b+=("$(echo "$out" | field "f['sim_s']")")
    br=$(echo "$out" | field "round(f['mean_rate_hz'], 2)")
  done
  vm=$(median "${v[@]}") bm=$(median "${b[@]}")
  printf '%-18s %10.3f %10.3f %8.2f  %s / %s\n' "$method" "$vm" "$bm" "$(python3 -c "print($bm / $vm)")" "$vr" "$br"
done
