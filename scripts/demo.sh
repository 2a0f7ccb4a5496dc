#!/usr/bin/env bash
# Set up, then play a whole simulated game narrated turn by turn.
# Any arguments go to `take5rules play`, e.g.: bash scripts/demo.sh --lang bg --variant logic
set -euo pipefail
cd "$(dirname "$0")/.."
bash scripts/setup.sh
exec .venv/bin/take5rules play "$@"
