#!/usr/bin/env bash
# The digest of many seeded games, event for event: every variant, the simple and greedy players
# at 2 to 10 seats as `take5rules play --json` prints them (three seeds each), and the searches
# (Monte Carlo, ISMCTS) seeded through the API, each event's repr. Two versions of take5rules
# play the same games exactly when they print the same digest.
#
#   bash scripts/seeded_digest.sh [PYTHON]   # default: .venv/bin/python (runs python -m take5rules)
set -euo pipefail
cd "$(dirname "$0")/.."
python=${1:-.venv/bin/python}
cmd="$python -m take5rules"
games() {
  for variant in standard tactics logic tournament; do
    for seed in 1 2 3; do
      many="a=cautious,b=lowest,c=greedy,d=random,e=lowest,f=cautious,g=random,h=greedy,i=lowest,j=random"
      [ "$variant" = logic ] && many="a=cautious,b=lowest,c=greedy,d=random,e=lowest,f=cautious"
      [ "$variant" = tournament ] && many="a=cautious,b=lowest,c=greedy,d=random,e=lowest"
      for players in "a=random,b=lowest,c=cautious,d=greedy" "a=greedy,b=random,c=random" "$many"; do
        echo "# $variant $seed $players"
        $cmd play --json --variant "$variant" --seed "$seed" --players "$players" --lang en
      done
    done
    echo "# $variant search"
    $python - "$variant" <<'PY'
import sys

import take5rules

try:  # 0.5.0 and later
    from take5rules.playing.bots import GreedyPlayer, MonteCarloPlayer
    from take5rules.playing.ismcts import ISMCTSPlayer
except ImportError:  # 0.4.0
    from take5rules.bots import GreedyPlayer, MonteCarloPlayer
    from take5rules.ismcts import ISMCTSPlayer
seats = {"a": MonteCarloPlayer(worlds=16, seed=3), "b": ISMCTSPlayer(iterations=60, seed=4),
         "c": GreedyPlayer(), "d": take5rules.CautiousPlayer()}
rules = take5rules.Rules(variant=take5rules.Variant.parse(sys.argv[1]), threshold=20)
for event in take5rules.play_game(seats, rules, seed=7):
    print(repr(event))
PY
  done
}
out=$(games)
printf '%s\n' "$out" | sha256sum | cut -d' ' -f1
