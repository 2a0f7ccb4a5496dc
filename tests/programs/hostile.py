#!/usr/bin/env python3
"""A hostile take5-player program for the arena's tests: ``hostile.py KIND PIDFILE``.

It first appends its process id to *PIDFILE* (one a line), so that a test can check that the
table stopped it. The kinds:

* ``dies``: exits at once with status 3, reading nothing;
* ``echo``: writes every line the table sends back to it, as it came;
* ``silent``: answers ``hello``, then never answers a request (and ignores SIGTERM, so that
  only SIGKILL stops it);
* ``illegal``: answers ``hello``, then plays card 105, takes row 7, drafts card 105;
* ``huge``: answers ``hello``, then answers each request with a line of 10 MB;
* ``flaky``: plays as the built-in ``lowest`` does (the lowest card; the row of fewest bull
  heads, then of fewest cards, then the first; the lowest face-up card), but exits
  with status 4 at the first request of its fifth game (counted from its start: a program
  started afresh counts from 1 again).
"""

from __future__ import annotations

import json
import os
import signal
import sys
from typing import Any

KINDS = ("dies", "echo", "silent", "illegal", "huge", "flaky")
HELLO = {"type": "hello", "protocol": 1, "name": "hostile", "author": "",
         "variants": ["standard", "tactics", "logic", "tournament"]}


def write(text: str) -> None:
    sys.stdout.write(text + "\n")
    sys.stdout.flush()


def illegal(message: dict[str, Any]) -> dict[str, Any]:
    if message["type"] == "row":
        return {"type": "row", "id": message["id"], "row": 7}
    return {"type": message["type"], "id": message["id"], "card": 105}


def heads(card: int) -> int:
    if card == 55:
        return 7
    if card % 11 == 0:
        return 5
    return 3 if card % 10 == 0 else 2 if card % 5 == 0 else 1


def legal(message: dict[str, Any]) -> dict[str, Any]:
    if message["type"] == "row":
        rows = message["rows"]
        costs = [(sum(map(heads, row)), len(row), index) for index, row in enumerate(rows)]
        return {"type": "row", "id": message["id"], "row": min(costs)[2]}
    cards = message["hand"] if message["type"] == "card" else message["pool"]
    return {"type": message["type"], "id": message["id"], "card": min(cards)}


def main() -> int:
    kind, pidfile = sys.argv[1], sys.argv[2]
    assert kind in KINDS, kind
    with open(pidfile, "a", encoding="utf-8") as pids:
        pids.write(f"{os.getpid()}\n")
    if kind == "dies":
        return 3
    if kind == "silent":
        signal.signal(signal.SIGTERM, signal.SIG_IGN)
    games = 0
    for line in sys.stdin:
        if kind == "echo":
            write(line.rstrip("\n"))
            continue
        message = json.loads(line)
        if message["type"] == "hello":
            write(json.dumps(HELLO))
        elif message["type"] == "game":
            games += 1
        elif message["type"] not in ("card", "row", "draft"):
            continue
        elif kind == "flaky":
            if games == 5:
                return 4
            write(json.dumps(legal(message)))
        elif kind == "illegal":
            write(json.dumps(illegal(message)))
        elif kind == "huge":
            write("x" * 10_000_000)
    if kind == "silent":  # the table closed our input: still never answer
        signal.pause()
    return 0


if __name__ == "__main__":
    sys.exit(main())
