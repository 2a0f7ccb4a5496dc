#!/usr/bin/env python3
"""A Take 5 bot that speaks the take5-player protocol (version 1), with the standard library only.

    take5rules arena cautious "cmd:python3 examples/bots/python_bot.py"

One JSON object a line on stdin and stdout. Strategy: the card that fits closest above the last
card of a row that is not yet full; else the lowest card. A low card takes the row with the
fewest bull heads; a draft takes the card of fewest bull heads, the lowest on a tie.
"""

from __future__ import annotations

import json
import sys
from typing import Any

HELLO = {"type": "hello", "protocol": 1, "name": "python-bot", "author": "take5rules examples",
         "variants": ["standard", "tactics", "logic", "tournament"]}


def heads(card: int) -> int:
    """The bull heads of *card*: 7 for 55, 5 for a double, 3 for tens, 2 for fives, else 1."""
    if card == 55:
        return 7
    if card % 11 == 0:
        return 5
    return 3 if card % 10 == 0 else 2 if card % 5 == 0 else 1


def choose_card(hand: list[int], rows: list[list[int]]) -> int:
    """The card closest above the last card of a row of fewer than five; else the lowest."""
    fits = []
    for card in hand:
        below = [row for row in rows if row[-1] < card]
        if below:
            row = max(below, key=lambda row: row[-1])
            if len(row) < 5:
                fits.append((card - row[-1], card))
    return min(fits)[1] if fits else min(hand)


def cheapest_row(rows: list[list[int]]) -> int:
    """The row (0..3) with the fewest bull heads; the first on a tie."""
    costs = [sum(map(heads, row)) for row in rows]
    return costs.index(min(costs))


def answer(message: dict[str, Any]) -> dict[str, Any] | None:
    """The reply to *message*, or None for information (and for types this bot does not know)."""
    kind = message.get("type")
    if kind == "hello":
        return HELLO
    if kind == "card":
        return {"type": "card", "id": message["id"],
                "card": choose_card(message["hand"], message["rows"])}
    if kind == "row":
        return {"type": "row", "id": message["id"], "row": cheapest_row(message["rows"])}
    if kind == "draft":
        pick = min(message["pool"], key=lambda card: (heads(card), card))
        return {"type": "draft", "id": message["id"], "card": pick}
    return None


def main() -> int:
    for line in sys.stdin:
        message = json.loads(line)
        if message.get("type") == "quit":
            break
        reply = answer(message)
        if reply is not None:
            sys.stdout.write(json.dumps(reply) + "\n")
            sys.stdout.flush()
    return 0


if __name__ == "__main__":
    sys.exit(main())
