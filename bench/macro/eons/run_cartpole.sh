#!/usr/bin/env bash
# EONS on the cart-pole from random networks (bench/macro/eons/README.md): one `volley evolve`
# per seed, each stopped at its time budget (or once its curriculum is done: the best network
# survives every training and validation start of the last stage), then one line per seed and
# a summary. A seed
# succeeds when its best network survives all 15,000 steps of each of the 20 held-out test
# starts with at most MAX_NODES neurons.
#   bench/macro/eons/run_cartpole.sh SETTING PRESET [FIRST_SEED LAST_SEED] [extra volley evolve options]
# PRESET is a RISP preset name or a RISP parameter file (risp-1-t1.json here: RISP-1 with
# thresholds of 1, whose networks act alike on danna2 and the DANNA grid).
# Environment: VOLLEY (the CLI, default build/release/apps/volley), OUT (folder, default
# out/eons), BUDGET (seconds per seed, default 1800), THREADS (default: all cores), MAX_NODES (16),
# SELECTION (EONS parent selection: lexicase, the default, or tournament).
set -euo pipefail
cd "$(dirname "$0")/../../.."
setting="${1:?setting}"; preset="${2:?preset}"; first="${3:-1}"; last="${4:-10}"
shift $(( $# < 4 ? $# : 4 ))
volley="${VOLLEY:-build/release/apps/volley}"
out="${OUT:-out/eons}/cartpole_${setting}_$(basename "$preset" .json)"  # PRESET: a name or a RISP parameter file
budget="${BUDGET:-1800}"
threads="${THREADS:-$(nproc)}"
max_nodes="${MAX_NODES:-16}"
selection="${SELECTION:-lexicase}"
mkdir -p "$out"
config="$out/eons.json"
printf '{"max_nodes": %d, "selection": "%s"}\n' "$max_nodes" "$selection" > "$config"
for seed in $(seq "$first" "$last"); do
  "$volley" evolve --task cartpole --setting "$setting" --preset "$preset" --seed "$seed" \
    --config "$config" --generations 100000 --time-limit "$budget" --threads "$threads" \
    --out "$out/best_$seed.json" --plot "$out/fitness_$seed.svg" --json --quiet "$@" > "$out/seed_$seed.json"
  python3 - "$out/seed_$seed.json" "$max_nodes" <<'PY'
import json, sys
r = json.load(open(sys.argv[1])); t = r["test"]
ok = t["survived"] == t["episodes"] and t["neurons"] <= int(sys.argv[2])
same = ", ".join(f"{k}: not placed" if "error" in v else f"{k}: {v['episodes_differing']} of {v['episodes']} episodes differ" for k, v in r.get("same_actions_on", {}).items())
print(f'seed {r["seed"]:3d}: {"SOLVED" if ok else "no    "} {t["survived"]:2d}/{t["episodes"]} test starts survived, '
      f'mean {t["mean_steps"]:8.1f} steps, {t["neurons"]:2d} neurons, {t["synapses"]:2d} synapses, '
      f'{r["generations"]:4d} generations, {r["evolve_s"]:7.1f} s, stage {r["stage"]} of {r["stages"]}, '
      f'{len(r["mined_starts"])} starts mined{", curriculum done" if r["curriculum_done"] else ""}; {same}')
PY
done | tee "$out/summary.txt"
echo "$(grep -c SOLVED "$out/summary.txt" || true) of $((last - first + 1)) seeds solved $setting with $preset" | tee -a "$out/summary.txt"
