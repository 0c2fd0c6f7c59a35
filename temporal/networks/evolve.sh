#!/bin/sh
# Regenerates the evolved networks the library carries (temporal/networks/{order,change,count}.json;
# docs/temporal.md, "Evolved networks"): for each question, `volley evolve` from random networks
# (no hand-built seed) on danna2 with oracle features, population 100, 300 generations, 400
# training sequences, one thread, seeds 1, 2 and 3; the kept network is the seed with the highest
# training fitness (ties: the fewest neurons and synapses). The test sequences never choose.
# About 25 minutes of one core (change is the slowest).
#
#   temporal/networks/evolve.sh [VOLLEY] [WORK_DIR]
#
# VOLLEY defaults to build/release/apps/volley, WORK_DIR (the runs' networks and reports) to
# out/evolved-networks. Needs the Fashion-MNIST files (volley evolve --help, --data-dir).
set -eu
here=$(cd "$(dirname "$0")" && pwd)
volley=${1:-build/release/apps/volley}
work=${2:-out/evolved-networks}
mkdir -p "$work"
for task in count order change; do
  for seed in 1 2 3; do
    echo "evolving $task, seed $seed" >&2
    "$volley" evolve --task "$task" --processor danna2 --population 100 --generations 300 \
      --train-sequences 400 --threads 1 --seed "$seed" --quiet --json \
      --out "$work/${task}_s$seed.json" > "$work/${task}_s$seed.report.json"
  done
  python3 - "$work" "$task" "$here/$task.json" <<'PY'
import json, shutil, sys
work, task, dest = sys.argv[1:]
def key(seed):
    net = json.load(open(f"{work}/{task}_s{seed}.json"))
    report = json.load(open(f"{work}/{task}_s{seed}.report.json"))
    return (-report["training_fitness"], len(net["Nodes"]) + len(net["Edges"]), seed)
best = min((1, 2, 3), key=key)
shutil.copyfile(f"{work}/{task}_s{best}.json", dest)
print(f"{task}: kept seed {best} (training fitness {-key(best)[0]:.4f}) as {dest}", file=sys.stderr)
PY
done
