#!/usr/bin/env python3
"""A wrong referee with one deliberate bug, chosen by ``--bug``; all else follows the rules.

It speaks the referee line protocol (see take5rules.conformance.referee) and is written
independently of
take5rules, as another implementation would be:

* ``--bug low-card``: a low card takes the cheapest row, whatever its player chose;
* ``--bug fifth-card``: a row is taken by its fifth card instead of its sixth;
* ``--bug largest-difference``: a card goes on the row with the largest difference.
"""

from __future__ import annotations

import argparse
import json
import sys
from typing import Any

BUGS = ("low-card", "fifth-card", "largest-difference")


def heads(card: int) -> int:
    if card == 55:
        return 7
    if card % 11 == 0:
        return 5
    if card % 10 == 0:
        return 3
    return 2 if card % 5 == 0 else 1


def error(rule: str, message: str) -> dict[str, Any]:
    return {"error": {"rule": rule, "message": message}}


def resolve(request: dict[str, Any], bug: str) -> dict[str, Any]:
    rows: list[list[int]] = [list(row) for row in request["rows"]]
    plays: list[tuple[str, int]] = [(player, card) for player, card in request["plays"]]
    choices: dict[str, int] = request.get("choices", {})
    cards = [card for row in rows for card in row] + [card for _, card in plays]
    if len(set(cards)) != len(cards):
        return error("cards.deck", "a card appears twice")
    if any(len(row) > 5 for row in rows):
        return error("table.sixth-card", "a row holds more than five cards")
    taken: dict[str, list[int]] = {}
    chosen: dict[str, int] = {}
    full = 4 if bug == "fifth-card" else 5
    for player, card in sorted(plays, key=lambda play: play[1]):
        fits = [i for i, row in enumerate(rows) if row[-1] < card]
        if not fits:
            if player not in choices:
                return error("table.low-card", f"no row choice for {player}")
            index = choices[player]
            if bug == "low-card":
                index = min(range(4), key=lambda i: (sum(heads(c) for c in rows[i]), i))
            chosen[player] = index
            taken[player] = rows[index]
            rows[index] = [card]
            continue
        pick = max if bug == "largest-difference" else min
        index = pick(fits, key=lambda i: card - rows[i][-1])
        if len(rows[index]) == full:
            taken[player] = rows[index]
            rows[index] = [card]
        else:
            rows[index].append(card)
    return {"rows": rows, "taken": taken, "chosen": chosen}


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--bug", choices=BUGS, required=True)
    bug = parser.parse_args().bug
    for line in sys.stdin:
        if line.strip():
            print(json.dumps(resolve(json.loads(line), bug)), flush=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
