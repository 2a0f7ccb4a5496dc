"""The environment's observation vector and action mask, encoded from :meth:`Game.observe`.

Everything in the vector comes from the seat's :class:`~take5rules.playing.stepper.Observation`,
which
holds what that seat may know and nothing else (no other hand, no card set aside, no random
state): its hand, the rows, the totals, and the round's perfect-recall public history (each
card revealed, by whom and in which turn, what each player took, the rows at the start, the
draft's picks).
"""

from __future__ import annotations

from collections.abc import Mapping

import numpy as np
import numpy.typing as npt

from take5rules._kernel import pile_heads
from take5rules.cards import HIGHEST
from take5rules.playing.stepper import Game, Phase
from take5rules.setup import ROWS
from take5rules.table import ROW_LIMIT

__all__ = ["ACTIONS", "MAX_SEATS", "OBSERVATION_LAYOUT", "PASS", "ROW_ACTIONS", "SIZE",
           "encode", "mask"]

#: The number of actions: 104 cards, 4 rows, and pass.
ACTIONS = HIGHEST + ROWS + 1
#: The first row action: ``ROW_ACTIONS + r`` takes row *r* (0-based).
ROW_ACTIONS = HIGHEST
#: The pass action, for an agent with no decision to make.
PASS = HIGHEST + ROWS
#: The most seats of any variant: the width of the per-seat parts of the vector.
MAX_SEATS = 10

#: The phases in the order the ``phase`` entry numbers them.
PHASES = (Phase.CARDS, Phase.ROW, Phase.DRAFT, Phase.OVER)


def _layout() -> dict[str, slice]:
    parts = [("hand", HIGHEST), ("rows", ROWS * ROW_LIMIT), ("pool", HIGHEST), ("seen", HIGHEST),
             ("phase", 1), ("low_card", 1), ("round", 1), ("penalties", MAX_SEATS),
             ("totals", MAX_SEATS), ("turn", 1), ("laid", 1), ("played_by", HIGHEST),
             ("played_turn", HIGHEST), ("taken_by", HIGHEST), ("start", ROWS),
             ("picked_by", HIGHEST)]
    layout, start = {}, 0
    for name, width in parts:
        layout[name] = slice(start, start + width)
        start += width
    return layout


OBSERVATION_LAYOUT: Mapping[str, slice] = _layout()
"""Where each part of the ``"observation"`` vector lies.

* ``hand``: 1 for each card held (while drafting: drafted so far), card *c* at index *c - 1*;
* ``rows``: the four rows, five places each, oldest card first, 0 for an empty place;
* ``pool``: 1 for each face-up card left to draft (logic and tournament variants);
* ``seen``: 1 for each card revealed so far this round, by anyone;
* ``phase``: 0 cards to play, 1 a row to take, 2 a card to draft, 3 the game over;
* ``low_card``: the low card whose row this agent must choose now, else 0;
* ``round``: the round (in a tournament, the game) number;
* ``penalties`` and ``totals``: bull heads taken this round and totals before it, the
  observing agent first, then the others in seat order after it; unused seats are 0;
* ``turn``: the turn of the round (0 while drafting); ``laid``: the card this agent has laid
  face down this turn, else 0;
* ``played_by``, ``played_turn``: for each card revealed this round, the seat that played it
  (1 the observer, 2 the next seat ..., 0 not revealed) and the turn it was revealed in;
* ``taken_by``: for each card taken this round, the seat that took it (numbered the same way);
* ``start``: the four cards that started the rows this round;
* ``picked_by``: for each card drafted this round, the seat that drafted it.
"""
SIZE = max(part.stop for part in OBSERVATION_LAYOUT.values())

_AT = {name: part.start for name, part in OBSERVATION_LAYOUT.items()}


def encode(game: Game, agent: str) -> npt.NDArray[np.int32]:
    """The observation vector of *agent* (:data:`OBSERVATION_LAYOUT`), from what it may know."""
    seen = game.observe(agent)
    vector = np.zeros(SIZE, dtype=np.int32)
    seat = game.players.index(agent)
    order = game.players[seat:] + game.players[:seat]
    relative = {player: offset + 1 for offset, player in enumerate(order)}
    hand, pool, seen_at = _AT["hand"] - 1, _AT["pool"] - 1, _AT["seen"] - 1
    for card in seen.hand:
        vector[hand + card] = 1
    if seen.table is not None:
        for index, row in enumerate(seen.table.rows):
            start = _AT["rows"] + index * ROW_LIMIT
            vector[start : start + len(row)] = row
    for card in seen.pool:
        vector[pool + card] = 1
    played_by, played_turn = _AT["played_by"] - 1, _AT["played_turn"] - 1
    for turn, plays in enumerate(seen.revealed, start=1):
        for player, card in plays:
            vector[seen_at + card] = 1
            vector[played_by + card] = relative[player]
            vector[played_turn + card] = turn
    vector[_AT["phase"]] = PHASES.index(seen.phase)
    if seen.pending is not None and seen.pending[0] == agent:
        vector[_AT["low_card"]] = seen.pending[1]
    vector[_AT["round"]] = seen.round
    vector[_AT["turn"]] = seen.turn if seen.phase is not Phase.DRAFT else 0
    vector[_AT["laid"]] = seen.laid or 0
    taken_by = _AT["taken_by"] - 1
    for player, offset in relative.items():
        taken = seen.taken.get(player, ())
        vector[_AT["penalties"] + offset - 1] = pile_heads(taken)
        vector[_AT["totals"] + offset - 1] = seen.totals[player]
        for card in taken:
            vector[taken_by + card] = offset
    for index, row in enumerate(seen.start):
        vector[_AT["start"] + index] = row[0]
    picked_by = _AT["picked_by"] - 1
    for player, card in seen.picks:
        vector[picked_by + card] = relative[player]
    return vector


def mask(game: Game, agent: str) -> npt.NDArray[np.int8]:
    """The legal actions of *agent* now: its legal answers, or pass when it has none to give."""
    legal = np.zeros(ACTIONS, dtype=np.int8)
    answers = game.legal(agent)
    if not answers:
        legal[PASS] = 1
    elif game.phase is Phase.ROW:
        legal[[ROW_ACTIONS + index for index in answers]] = 1
    else:
        legal[[card - 1 for card in answers]] = 1
    return legal
