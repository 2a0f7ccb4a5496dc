#!/usr/bin/env python3
"""A wrong referee: a row is taken by its fifth card instead of its sixth.

Speaks the referee line protocol (see take5rules.referee); everything else follows the rules.
"""

from __future__ import annotations

import json
import sys
from typing import Any


def error(rule: str, message: str) -> dict[str, Any]:
    return {"error": {"rule": rule, "message": message}}


def resolve(request: dict[str, Any]) -> dict[str, Any]:
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
    for player, card in sorted(plays, key=lambda play: play[1]):
        fits = [i for i, row in enumerate(rows) if row[-1] < card]
        if not fits:
            if player not in choices:
                return error("table.low-card", f"no row choice for {player}")
            index = choices[player]
            chosen[player] = index
            taken[player] = rows[index]
            rows[index] = [card]
            continue
        index = min(fits, key=lambda i: card - rows[i][-1])
        # THE BUG: a fifth card takes the four, instead of a sixth card the five.
        if len(rows[index]) == 4:
            taken[player] = rows[index]
            rows[index] = [card]
        else:
            rows[index].append(card)
    return {"rows": rows, "taken": taken, "chosen": chosen}


def main() -> int:
    for line in sys.stdin:
        if line.strip():
            print(json.dumps(resolve(json.loads(line))), flush=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
