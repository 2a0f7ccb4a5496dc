"""Players: the decision :class:`Player` protocol and three built-in players.

A player makes three kinds of decision, each from a read-only view of the game:

* :meth:`Player.choose_card`: which card of the hand to lay face down this turn;
* :meth:`Player.choose_row`: which row to take when their card is a low card;
* :meth:`Player.choose_draft`: which face-up card to take in the logic draft.

The engine checks every answer; an illegal one raises :class:`~take5rules.errors.IllegalMoveError`.
Each view holds what the seat may know with perfect recall: the table, its hand and the totals,
and the round's public history (every card revealed so far, turn by turn, what each player has
taken, the rows at the start, the draft's picks). A view describes the moment of the call it is
passed to: the engine hands each seat one view for the whole game, read from the game when read,
so keep what you need (``tuple(view.hand)``) or ``copy.copy(view)``, a frozen snapshot. A view
cannot be changed, and a player that tries changes neither the game nor another seat's view.

>>> from take5rules.table import Table
>>> view = CardView(1, 1, Table.of([[12], [37], [43], [58]]), (14, 44, 90), {"me": 0})
>>> LowestCardPlayer().choose_card(view), CautiousPlayer().choose_card(view)
(14, 44)
"""

from __future__ import annotations

import random
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Protocol, TypeVar, runtime_checkable

from take5rules import _kernel
from take5rules.cards import Card, bull_heads
from take5rules.table import ROW_COUNT, ROW_LIMIT, Table, least_difference_row
from take5rules.turn import RowChoice, _nothing

__all__ = [
    "BUILTIN_PLAYERS",
    "SEEDED_PLAYERS",
    "CardView",
    "CautiousPlayer",
    "DraftView",
    "LowestCardPlayer",
    "Player",
    "RandomPlayer",
    "Revealed",
    "RowChoice",
]


#: Each turn of the round so far: its ``(player, card)`` plays in placement order.
Revealed = tuple[tuple[tuple[str, Card], ...], ...]


@dataclass(frozen=True, slots=True)
class CardView:
    """What a player knows when choosing a card: everything it has seen, and its own hand.

    The table, their hand, the totals; and the round's public history (perfect recall): their
    own seat's name (*player*), every card revealed so far this round and who played it, turn
    by turn (*revealed*, each turn's plays in placement order), what each player has taken this
    round (*taken*), the rows laid out at the start of the round (*start*), and the picks of
    the draft (*picks*, logic and tournament; empty otherwise). The view the engine hands a
    player describes the moment of the call (``copy.copy`` keeps it); changing it changes
    nothing else.
    """

    round: int
    turn: int
    table: Table
    hand: tuple[Card, ...]
    totals: Mapping[str, int]
    player: str = ""
    revealed: Revealed = ()
    taken: Mapping[str, tuple[Card, ...]] = field(default_factory=_nothing)
    start: tuple[tuple[Card, ...], ...] = ()
    picks: tuple[tuple[str, Card], ...] = ()


@dataclass(frozen=True, slots=True)
class DraftView:
    """What a player knows when drafting: the face-up cards left and their picks so far.

    Also their seat's name (*player*), every pick of the draft so far in order (*picks*, as
    ``(player, card)``), and the totals before the round (*totals*).
    """

    round: int
    pick: int
    pool: tuple[Card, ...]
    hand: tuple[Card, ...]
    player: str = ""
    picks: tuple[tuple[str, Card], ...] = ()
    totals: Mapping[str, int] = field(default_factory=_nothing)


@runtime_checkable
class Player(Protocol):
    """The decisions a Take 5 player makes. Any object with these three methods is a player."""

    def choose_card(self, view: CardView) -> Card:
        """The card to play this turn, from ``view.hand``."""
        ...

    def choose_row(self, choice: RowChoice) -> int:
        """The row (0 to 3) to take for the low card ``choice.card``."""
        ...

    def choose_draft(self, view: DraftView) -> Card:
        """The face-up card to take, from ``view.pool``."""
        ...


def _row_cost(table: Table, index: int) -> tuple[int, int]:
    # A Table holds only checked cards, so its rows are counted without checking them again.
    row = table.rows[index]
    return _kernel.pile_heads(row), len(row)


def _cheapest_index(rows: Sequence[tuple[Card, ...]]) -> int:
    """:func:`cheapest_row` of the kernel's rows (private: the rollouts of the bots)."""
    heads = _kernel.pile_heads
    return min(range(len(rows)), key=lambda index: (heads(rows[index]), len(rows[index]), index))


def cheapest_row(table: Table) -> int:
    """The row with the fewest bull heads (then the fewest cards, then the first).

    >>> cheapest_row(Table.of([[3, 12], [24], [58, 61, 70], [96]]))
    1
    """
    return _cheapest_index(table.rows)


_Option = TypeVar("_Option")

#: The bits of one draw among the four rows (Random.choice of four draws these).
_ROW_BITS = ROW_COUNT.bit_length()


class RandomPlayer:
    """Plays, takes and drafts uniformly at random, reproducibly from *seed*.

    Each decision is one draw of ``Random.choice`` among the legal answers; the draw is written
    out here (the same rejection sampling, the same calls to ``getrandbits``, so the same
    answers as ``Random.choice`` from the same state) to spare its two function calls on the
    engine's hot path.
    """

    def __init__(self, seed: int | None = None) -> None:
        self._random = random.Random(seed)
        self._bits = self._random.getrandbits

    def _pick(self, options: Sequence[_Option]) -> _Option:
        """``Random.choice(options)``, drawn as the standard library draws it."""
        count = len(options)
        bits = count.bit_length()
        index = self._bits(bits)
        while index >= count:
            index = self._bits(bits)
        return options[index]

    def choose_card(self, view: CardView) -> Card:  # noqa: D102
        hand = view.hand
        count = len(hand)
        bits = count.bit_length()
        index = self._bits(bits)  # _pick, inlined: this is every card of every benchmark
        while index >= count:
            index = self._bits(bits)
        return hand[index]

    def choose_row(self, choice: RowChoice) -> int:  # noqa: D102
        # The same draw as the randrange(4) of 0.1.0: both take _randbelow(4), that is
        # getrandbits(3) until it is below 4 (_pick of the four row indices, inlined).
        index = self._bits(_ROW_BITS)
        while index >= ROW_COUNT:
            index = self._bits(_ROW_BITS)
        return index

    def choose_draft(self, view: DraftView) -> Card:  # noqa: D102
        return self._pick(view.pool)

    def __repr__(self) -> str:
        return "RandomPlayer()"


class LowestCardPlayer:
    """Always plays its lowest card, takes the cheapest row, drafts the lowest card."""

    def choose_card(self, view: CardView) -> Card:  # noqa: D102
        return min(view.hand)

    def choose_row(self, choice: RowChoice) -> int:  # noqa: D102
        return cheapest_row(choice.table)

    def choose_draft(self, view: DraftView) -> Card:  # noqa: D102
        return min(view.pool)

    def __repr__(self) -> str:
        return "LowestCardPlayer()"


class CautiousPlayer:
    """A sensible heuristic: avoid taking now, then prefer short rows and small gaps.

    For each card it looks at the row the card would go to if played alone: a card that would be
    sixth costs that row's bull heads; a low card costs the cheapest row; otherwise the risk grows
    with the row's length and the gap that other players' cards could fill. It drafts the
    cheapest cards, and takes the cheapest row.
    """

    def _risk(self, table: Table, value: Card) -> tuple[float, Card]:
        target = least_difference_row(table, value)
        if target is None:
            return float(_row_cost(table, cheapest_row(table))[0]) + 0.5, value
        row = table.rows[target]
        if len(row) >= ROW_LIMIT:
            return float(_kernel.pile_heads(row)) + 1.0, value
        gap = value - row[-1]
        return len(row) * gap / 400.0, value

    def choose_card(self, view: CardView) -> Card:  # noqa: D102
        return min(view.hand, key=lambda value: self._risk(view.table, value))

    def choose_row(self, choice: RowChoice) -> int:  # noqa: D102
        return cheapest_row(choice.table)

    def choose_draft(self, view: DraftView) -> Card:  # noqa: D102
        return min(view.pool, key=lambda value: (bull_heads(value), value))

    def __repr__(self) -> str:
        return "CautiousPlayer()"


def _greedy(seed: int | None = None) -> Player:
    from take5rules.playing.bots import GreedyPlayer

    return GreedyPlayer(seed)


def _montecarlo(seed: int | None = None) -> Player:
    from take5rules.playing.bots import MonteCarloPlayer

    return MonteCarloPlayer(seed=seed)


def _ismcts(seed: int | None = None) -> Player:
    from take5rules.playing.ismcts import ISMCTSPlayer

    return ISMCTSPlayer(seed=seed)


def _best(seed: int | None = None) -> Player:
    from take5rules.playing.bots import best_player

    return best_player(seed)


#: The built-in players by the names the command line uses: each a class or factory called
#: with no argument, or with a seed for the kinds of :data:`SEEDED_PLAYERS`.
BUILTIN_PLAYERS: dict[str, Callable[..., Player]] = {
    "random": RandomPlayer,
    "lowest": LowestCardPlayer,
    "cautious": CautiousPlayer,
    "greedy": _greedy,
    "montecarlo": _montecarlo,
    "ismcts": _ismcts,
    "best": _best,
}

#: The built-in kinds that take a seed (an arena seeds each seat's player with its own).
SEEDED_PLAYERS = frozenset({"random", "montecarlo", "ismcts", "best"})
