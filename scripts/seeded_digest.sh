#!/usr/bin/env bash
# The digest of many seeded games, event for event: every variant, every built-in player kind,
# several seeds, each game's events as `take5rules play --json` prints them. Two versions of
# take5rules play the same games exactly when they print the same digest.
#
#   bash scripts/seeded_digest.sh [PYTHON]   # default: .venv/bin/python (runs python -m take5rules)
set -euo pipefail
cd "$(dirname "$0")/.."
python=${1:-.venv/bin/python}
cmd="$python -m take5rules"
games() {
  for variant in standard tactics logic tournament; do
    for seed in 1 2 3; do
      for players in "a=random,b=lowest,c=cautious,d=greedy" "a=greedy,b=random,c=random" \
          "a=cautious,b=lowest,c=greedy,d=random,e=lowest,f=cautious,g=random,h=greedy,i=lowest,j=random"; do
        echo "# $variant $seed $players"
        $cmd play --json --variant "$variant" --seed "$seed" --players "$players" --lang en
      done
    done
    echo "# $variant search"
    $cmd play --json --variant "$variant" --seed 7 --threshold 20 \
      --players "a=montecarlo,b=ismcts,c=best,d=cautious" --lang en
  done
}
out=$(games)
printf '%s\n' "$out" | sha256sum | cut -d' ' -f1
