#!/bin/sh
# Runs each macro config (bench/macro/{cuba,coba,cobahh}_*.json) three times; prints one JSON
# line per run. Usage: bench/macro/run.sh [path/to/volley]
set -eu
volley=${1:-build/release/apps/volley}
for cfg in "$(dirname "$0")"/cuba_*.json "$(dirname "$0")"/coba_*.json "$(dirname "$0")"/cobahh_*.json; do
  [ -e "$cfg" ] || continue
  read -r net n <<EOT
$(python3 -c "import json,sys; c=json.load(open(sys.argv[1])); print(c['network'], c['neurons'])" "$cfg")
EOT
  for rep in 1 2 3; do
    "$volley" bench "$net" --neurons "$n" --duration 1000 --dt 0.1 --seed 42 --threads 2 --json --quiet |
      python3 -c "import json,sys; d=json.load(sys.stdin); d.pop('populations'); print(json.dumps(d))"
  done
done
