#!/usr/bin/env python3
"""Referee-line-protocol adapter for the third-party PyPI package ``py6nimmt``.

This script lets the take5rules conformance tool drive py6nimmt 0.1.2
(distribution ``py6nimmt``, import name ``py6Nimmt``, MIT licence,
https://github.com/juanjo78git/py6Nimmt).  None of py6nimmt's code is copied
here: it is imported, and every card is placed by py6nimmt's own logic.

Protocol: one JSON request per line on stdin, one JSON reply per line on
stdout (flushed), exit status 0 at EOF.  Invalid requests get
``{"error": {"rule": "protocol", "message": ...}}`` and serving continues.

How a request is mapped onto py6nimmt
-------------------------------------
* A ``py6Nimmt.Table.Table(0)`` is created for every request (its random deal
  is discarded).  ``Table.iniDeck()`` then rebuilds py6nimmt's 104
  ``Card`` objects, so bull-head values are py6nimmt's own.
* ``rows`` become ``table.board``: four ``Deck`` objects, oldest card first.
* Each entry of ``plays`` becomes a ``Player`` (id 1, 2, ... in request
  order, name = protocol id) holding exactly its played card in its hand.
* Each card is played with ``Table.playCard(player_id, 1)``.  That method
  finds the row (``Table.boardCorrect``), takes a full row of five into the
  player's pile and places the card.  If the card is lower than every row's
  last card it places nothing and returns the card; py6nimmt then expects
  its caller to ask the player for a row (its console ``main()`` does so
  with ``input()``).  The adapter answers from ``choices`` and calls
  ``Table.catchBoard(player_id, row + 1, card)``, exactly as ``main()``.
* ``taken`` is read from each player's pile, ``rows`` from ``table.board``.

What py6nimmt cannot express
----------------------------
* Simultaneous plays.  py6nimmt is turn-based: in ``main()`` players play one
  after another in seat order (1, 2, ...), each card placed at once, and
  nothing sorts cards ascending.  By default the adapter therefore plays the
  cards in request order (the request order is the seat order).  With
  ``--ascending`` it sorts them first; that ordering is then the adapter's,
  not py6nimmt's, and lets the rest of py6nimmt's logic be tested alone.
* A low card with no row choice: py6nimmt never picks a row by itself, so
  the adapter replies with a protocol error if ``choices`` lacks the player.
* Validation: py6nimmt checks nothing (it even puts a duplicate card on
  top of an equal one).  All request checks are the adapter's: 4 rows of
  1..5 cards, 1..10 plays, cards 1..104 and all distinct, unique player ids,
  choices 0..3 for players that are in ``plays``.

If ``py6Nimmt`` cannot be imported, every request gets a protocol error
giving the reason.  py6nimmt 0.1.2 does import and run on Python 3.11 with
no patching.  Install it in its own venv: its wheel also installs a
top-level ``tests`` package into site-packages.
"""

from __future__ import annotations

import argparse
import contextlib
import importlib
import json
import sys
from dataclasses import dataclass
from types import ModuleType
from typing import Any

NUM_ROWS = 4
MAX_ROW = 5
MAX_CARD = 104
MAX_PLAYERS = 10


class ProtocolError(Exception):
    """An invalid request; reported as a ``protocol`` error reply."""


@dataclass(frozen=True)
class Request:
    """A validated request."""

    rows: list[list[int]]
    plays: list[tuple[str, int]]
    choices: dict[str, int]


@dataclass(frozen=True)
class Py6Nimmt:
    """The py6nimmt modules the adapter uses."""

    table: ModuleType
    deck: ModuleType
    player: ModuleType


def load_py6nimmt() -> Py6Nimmt | str:
    """Import py6nimmt, or return why it cannot be imported."""
    try:
        return Py6Nimmt(
            table=importlib.import_module("py6Nimmt.Table"),
            deck=importlib.import_module("py6Nimmt.Deck"),
            player=importlib.import_module("py6Nimmt.Player"),
        )
    except Exception as exc:  # any import failure is reported
        return (
            "py6nimmt cannot be imported on Python "
            f"{sys.version_info.major}.{sys.version_info.minor}: "
            f"{type(exc).__name__}: {exc}"
        )


def _card(value: object, where: str) -> int:
    if type(value) is not int or not 1 <= value <= MAX_CARD:
        msg = f"{where} must be an integer card 1..{MAX_CARD}, got {value!r}"
        raise ProtocolError(msg)
    return value


def _rows(raw: object) -> list[list[int]]:
    if not isinstance(raw, list) or len(raw) != NUM_ROWS:
        msg = f"rows must be a list of {NUM_ROWS} rows"
        raise ProtocolError(msg)
    rows: list[list[int]] = []
    for i, row in enumerate(raw):
        if not isinstance(row, list) or not 1 <= len(row) <= MAX_ROW:
            msg = f"rows[{i}] must be a list of 1..{MAX_ROW} cards"
            raise ProtocolError(msg)
        rows.append([_card(c, f"rows[{i}][{j}]") for j, c in enumerate(row)])
    return rows


def _plays(raw: object) -> list[tuple[str, int]]:
    if not isinstance(raw, list) or not 1 <= len(raw) <= MAX_PLAYERS:
        msg = f"plays must be a list of 1..{MAX_PLAYERS} [player, card] pairs"
        raise ProtocolError(msg)
    plays: list[tuple[str, int]] = []
    for i, play in enumerate(raw):
        if (
            not isinstance(play, list)
            or len(play) != 2  # a [player, card] pair
            or not isinstance(play[0], str)
        ):
            msg = f"plays[{i}] must be a [player id string, card] pair"
            raise ProtocolError(msg)
        plays.append((play[0], _card(play[1], f"plays[{i}] card")))
    names = [name for name, _ in plays]
    if len(set(names)) != len(names):
        msg = "a player id appears more than once in plays"
        raise ProtocolError(msg)
    return plays


def _choices(raw: object, players: set[str]) -> dict[str, int]:
    if not isinstance(raw, dict):
        msg = "choices must be an object mapping player id to row 0..3"
        raise ProtocolError(msg)
    choices: dict[str, int] = {}
    for name, row in raw.items():
        if name not in players:
            msg = f"choices names {name!r}, who is not in plays"
            raise ProtocolError(msg)
        if type(row) is not int or not 0 <= row < NUM_ROWS:
            msg = f"choices[{name!r}] must be a row index 0..3, got {row!r}"
            raise ProtocolError(msg)
        choices[name] = row
    return choices


def parse_request(line: str) -> Request:
    """Parse and validate one request line."""
    try:
        raw: Any = json.loads(line)
    except json.JSONDecodeError as exc:
        msg = f"request is not valid JSON: {exc}"
        raise ProtocolError(msg) from exc
    if not isinstance(raw, dict):
        msg = "request must be a JSON object"
        raise ProtocolError(msg)
    missing = [key for key in ("rows", "plays", "choices") if key not in raw]
    if missing:
        msg = f"request lacks {', '.join(missing)}"
        raise ProtocolError(msg)
    rows = _rows(raw["rows"])
    plays = _plays(raw["plays"])
    choices = _choices(raw["choices"], {name for name, _ in plays})
    cards = [c for row in rows for c in row] + [c for _, c in plays]
    if len(set(cards)) != len(cards):
        msg = "a card appears more than once in rows and plays"
        raise ProtocolError(msg)
    return Request(rows=rows, plays=plays, choices=choices)


def play_turn(lib: Py6Nimmt, req: Request, *, ascending: bool) -> dict[str, Any]:
    """Play one turn through py6nimmt and build the protocol reply."""
    table: Any = lib.table.Table(0)
    table.deck.clean()
    table.iniDeck()  # py6nimmt's own 104 cards, value -> bull heads
    cards: dict[int, Any] = {card.value: card for card in table.deck.list}

    table.board = [lib.deck.Deck(i, [cards[v] for v in row]) for i, row in enumerate(req.rows)]
    seats = {name: seat for seat, (name, _) in enumerate(req.plays, start=1)}
    table.players = [
        lib.player.Player(seats[name], name, lib.deck.Deck(seats[name], [cards[v]]))
        for name, v in req.plays
    ]

    order = sorted(req.plays, key=lambda p: p[1]) if ascending else req.plays
    chosen: dict[str, int] = {}
    for name, value in order:
        low_card = table.playCard(seats[name], 1)  # hand position, 1-based
        if low_card is None:
            continue
        if name not in req.choices:
            msg = (
                f"card {value} of {name!r} is a low card but choices gives "
                "no row for that player (py6nimmt would ask with input())"
            )
            raise ProtocolError(msg)
        table.catchBoard(seats[name], req.choices[name] + 1, low_card)
        chosen[name] = req.choices[name]

    taken = {
        player.name: [card.value for card in player.pile.list]
        for player in table.players
        if player.pile.count() > 0
    }
    rows = [[card.value for card in row.list] for row in table.board]
    return {"rows": rows, "taken": taken, "chosen": chosen}


def error_reply(message: str) -> dict[str, Any]:
    """Build a protocol error reply."""
    return {"error": {"rule": "protocol", "message": message}}


def serve(*, ascending: bool) -> int:
    """Serve requests from stdin until EOF."""
    lib = load_py6nimmt()
    for line in sys.stdin:
        reply: dict[str, Any]
        if isinstance(lib, str):
            reply = error_reply(lib)
        else:
            try:
                req = parse_request(line)
                # py6nimmt must never write to the protocol stream.
                with contextlib.redirect_stdout(sys.stderr):
                    reply = play_turn(lib, req, ascending=ascending)
            except ProtocolError as exc:
                reply = error_reply(str(exc))
            except Exception as exc:  # keep serving whatever py6nimmt raises
                reply = error_reply(f"py6nimmt failed: {type(exc).__name__}: {exc}")
        sys.stdout.write(json.dumps(reply) + "\n")
        sys.stdout.flush()
    return 0


def main() -> int:
    """Parse the command line and serve."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument(
        "--ascending",
        action="store_true",
        help="play the cards in ascending order instead of request (seat) "
        "order; this ordering is the adapter's, py6nimmt has none",
    )
    args = parser.parse_args()
    return serve(ascending=args.ascending)


if __name__ == "__main__":
    sys.exit(main())
