#!/usr/bin/env python3
"""A take5-player program with deliberate protocol bugs, each chosen by ``--bug``.

Without ``--bug`` it follows protocol 1: it answers ``hello``, plays the lowest card of the
hand, takes row 0 for a low card and drafts the lowest face-up card, ignores every message and
field it does not know, and exits on ``quit`` or at the end of its input. It is written
independently of take5rules, as a program in another language would be. The bugs:

* ``wrong-id``: a card reply carries the request's id plus one;
* ``row-4``: a low card takes row 4 (rows are 0 to 3);
* ``turn-10``: at turn 10 it plays a card that is not in its hand;
* ``unknown-info``: it dies on an informational message of a type it does not know;
* ``no-draft``: it never answers a draft request;
* ``slow-tactics``: in the tactics variant it answers a card request after its move time;
* ``extra-field``: from round 2 on, its card replies carry a field the protocol does not have;
* ``ten-seats``: it dies on a game of 10 seats (it keeps at most 9 players);
* ``long-line``: it dies on a line over 60,000 bytes (a reader with a small buffer);
* ``echo``: it writes each informational message back (a line nobody asked for);
* ``needs-round``: it plays from the hand of the last ``round`` message, and dies on a card
  request that comes without one in its game;
* ``huge-reply``: in the tactics variant, its card replies are padded with spaces to 70,000
  bytes (a line may have 65,536);
* ``decline-row``: it declines every row request with an ``error`` reply;
* ``slow-game``: under a game clock, it thinks 80% of its move time on every card, whatever
  is left of the game's time.
"""

from __future__ import annotations

import argparse
import json
import sys
import time
from typing import Any

BUGS = ("wrong-id", "row-4", "turn-10", "unknown-info", "no-draft", "slow-tactics",
        "extra-field", "ten-seats", "long-line", "echo", "needs-round", "huge-reply",
        "decline-row", "slow-game")
INFORMATION = ("game", "round", "turn", "score", "end", "error")


def write(message: dict[str, Any]) -> None:
    sys.stdout.write(json.dumps(message) + "\n")
    sys.stdout.flush()


def main() -> int:
    parser = argparse.ArgumentParser()
    parser.add_argument("--bug", choices=BUGS)
    bug = parser.parse_args().bug
    variant = "standard"
    move_ms = 10_000
    game_clock = False
    hand: list[int] | None = None
    for line in sys.stdin:
        if bug == "long-line" and len(line) > 60_000:
            print("line too long for my buffer", file=sys.stderr)
            return 4
        message = json.loads(line)
        kind = message.get("type")
        if kind == "quit":
            return 0
        if kind == "hello":
            reply: dict[str, Any] = {
                "type": "hello", "protocol": 1, "name": f"buggy-{bug or 'none'}",
                "author": "tests", "variants": ["standard", "tactics", "logic", "tournament"]}
            write(reply)
            continue
        if kind == "game":
            if bug == "ten-seats" and len(message["players"]) > 9:
                seats = [0] * 9
                seats[len(message["players"]) - 1] = 1  # IndexError: the program dies
            rules = message.get("rules") or {}
            variant = rules.get("variant", "standard") if isinstance(rules, dict) else "standard"
            clock = message.get("clock") or {}
            move_ms = clock.get("move_ms") or 10_000
            game_clock = clock.get("game_ms") is not None
            hand = None
            continue
        if kind == "round":
            hand = list(message["hand"])
            continue
        if kind in INFORMATION:
            if bug == "echo":
                write(message)
            continue
        if kind == "card":
            cards = list(message["hand"])
            if bug == "needs-round":
                if hand is None:
                    raise RuntimeError("a card request before any round")
                cards = [card for card in hand if card in message["hand"]] or cards
            card = min(cards)
            if bug == "turn-10" and message["turn"] == 10:
                card = next(c for c in range(1, 105) if c not in message["hand"])
            if bug == "slow-game" and game_clock:
                time.sleep(move_ms / 1000 * 0.8)
            if bug == "slow-tactics" and variant == "tactics":
                time.sleep(move_ms / 1000 + 0.3)
            reply = {"type": "card", "id": message["id"], "card": card}
            if bug == "wrong-id":
                reply["id"] += 1
            if bug == "extra-field" and message["round"] >= 2:
                reply["comment"] = "my lowest card"
            if bug == "huge-reply" and variant == "tactics":
                sys.stdout.write(json.dumps(reply) + " " * 70_000 + "\n")
                sys.stdout.flush()
                continue
            write(reply)
            continue
        if kind == "row":
            if bug == "decline-row":
                write({"type": "error", "message": "I never take a row", "id": message["id"]})
                continue
            write({"type": "row", "id": message["id"], "row": 4 if bug == "row-4" else 0})
            continue
        if kind == "draft":
            if bug == "no-draft":
                continue
            write({"type": "draft", "id": message["id"], "card": min(message["pool"])})
            continue
        if bug == "unknown-info":
            print(f"unknown message type {kind!r}", file=sys.stderr)
            return 3
    return 0


if __name__ == "__main__":
    sys.exit(main())
