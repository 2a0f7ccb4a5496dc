"""What happens in a game, as typed, immutable events.

The engine yields these; narration (:mod:`take5rules.text`), game logs (:mod:`take5rules.logs`)
and pictures (:mod:`take5rules.text.pictures`) consume them. Rounds and turns count from 1; rows are
0-based indices (row 0 is the first row), as in the game-log format and the referee protocol.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field, fields
from typing import Any, ClassVar

from take5rules._kernel import fast_constructor
from take5rules.cards import Card, total_bull_heads
from take5rules.variants import Rules

__all__ = [
    "CardDrafted",
    "CardPlaced",
    "CardsRevealed",
    "Event",
    "GameOver",
    "GameStarted",
    "LowCardTaken",
    "RoundScored",
    "RoundStarted",
    "RowTaken",
    "SixthCardTaken",
    "card_placed",
    "cards_revealed",
    "low_card_taken",
    "round_scored",
    "round_started",
    "seen_by",
    "sixth_card_taken",
]


@dataclass(frozen=True, slots=True)
class GameStarted:
    """A game (or a tournament) begins, with its rules and seats."""

    kind: ClassVar[str] = "game-started"
    rules: Rules
    players: tuple[str, ...]

    def to_json(self) -> dict[str, Any]:
        """The event as a JSON-ready dict: its ``kind``, then each field."""
        return _to_json(self)


@dataclass(frozen=True, slots=True)
class CardDrafted:
    """In the logic variant, *player* took *card* from the face-up cards (pick counts from 1)."""

    kind: ClassVar[str] = "card-drafted"
    round: int
    pick: int
    player: str
    card: Card

    def to_json(self) -> dict[str, Any]:
        """The event as a JSON-ready dict: its ``kind``, then each field."""
        return _to_json(self)


@dataclass(frozen=True, slots=True)
class RoundStarted:
    """A round begins: the four starting rows and each player's ten cards."""

    kind: ClassVar[str] = "round-started"
    round: int
    rows: tuple[tuple[Card, ...], ...]
    hands: Mapping[str, tuple[Card, ...]] = field(compare=True)

    def to_json(self) -> dict[str, Any]:
        """The event as a JSON-ready dict: its ``kind``, then each field."""
        return _to_json(self)


@dataclass(frozen=True, slots=True)
class CardsRevealed:
    """Every player's chosen card, revealed together; listed in the order they will be placed."""

    kind: ClassVar[str] = "cards-revealed"
    round: int
    turn: int
    plays: tuple[tuple[str, Card], ...]

    def to_json(self) -> dict[str, Any]:
        """The event as a JSON-ready dict: its ``kind``, then each field."""
        return _to_json(self)


@dataclass(frozen=True, slots=True)
class CardPlaced:
    """*card* went at the end of *row* by the ascending and least-difference rules."""

    kind: ClassVar[str] = "card-placed"
    round: int
    turn: int
    player: str
    card: Card
    row: int
    rows: tuple[tuple[Card, ...], ...]

    def to_json(self) -> dict[str, Any]:
        """The event as a JSON-ready dict: its ``kind``, then each field."""
        return _to_json(self)


@dataclass(frozen=True, slots=True)
class RowTaken:
    """*player* took the cards of *row*, and *card* now starts that row."""

    kind: ClassVar[str] = "row-taken"
    round: int
    turn: int
    player: str
    card: Card
    row: int
    taken: tuple[Card, ...]
    rows: tuple[tuple[Card, ...], ...]

    @property
    def bull_heads(self) -> int:
        """The bull heads of the cards taken."""
        return total_bull_heads(self.taken)

    def to_json(self) -> dict[str, Any]:
        """The event as a JSON-ready dict: its ``kind``, then each field."""
        return _to_json(self)


@dataclass(frozen=True, slots=True)
class SixthCardTaken(RowTaken):
    """*card* would have been sixth in *row*: its player took the five (``table.sixth-card``)."""

    kind: ClassVar[str] = "sixth-card-taken"


@dataclass(frozen=True, slots=True)
class LowCardTaken(RowTaken):
    """*card* was lower than every row: its player chose and took *row* (``table.low-card``)."""

    kind: ClassVar[str] = "low-card-taken"


@dataclass(frozen=True, slots=True)
class RoundScored:
    """The round is over: each player's penalty for it, and the totals so far."""

    kind: ClassVar[str] = "round-scored"
    round: int
    penalties: Mapping[str, int]
    totals: Mapping[str, int]

    def to_json(self) -> dict[str, Any]:
        """The event as a JSON-ready dict: its ``kind``, then each field."""
        return _to_json(self)


@dataclass(frozen=True, slots=True)
class GameOver:
    """The game is over: final totals and the winners (every player with the lowest total)."""

    kind: ClassVar[str] = "game-over"
    rounds: int
    totals: Mapping[str, int]
    winners: tuple[str, ...]

    def to_json(self) -> dict[str, Any]:
        """The event as a JSON-ready dict: its ``kind``, then each field."""
        return _to_json(self)


#: Any event.
Event = (
    GameStarted
    | CardDrafted
    | RoundStarted
    | CardsRevealed
    | CardPlaced
    | SixthCardTaken
    | LowCardTaken
    | RoundScored
    | GameOver
)


def seen_by(event: Event, seat: str) -> Event:
    """*event* as the player at *seat* may see it.

    A :class:`RoundStarted` keeps only *seat*'s own hand (the other hands are face down); every
    other event is public and comes back unchanged (the same object). A seat not in the round
    sees no hand at all.

    >>> event = RoundStarted(1, ((12,), (37,), (43,), (58,)), {"ana": (3, 9), "bob": (5, 70)})
    >>> seen_by(event, "ana").hands
    {'ana': (3, 9)}
    >>> seen_by(event, "cid").hands
    {}
    >>> placed = CardPlaced(1, 2, "ana", 71, 2, ((3,), (24,), (58, 71), (96,)))
    >>> seen_by(placed, "bob") is placed
    True
    """
    if isinstance(event, RoundStarted):
        hand = event.hands.get(seat)
        return RoundStarted(event.round, event.rows, {} if hand is None else {seat: hand})
    return event


def _json_value(value: object) -> Any:
    """*value* as JSON: tuples as lists, mappings as objects, rules as their two settings."""
    if isinstance(value, Rules):
        return {"variant": value.variant.value, "threshold": value.threshold}
    if isinstance(value, Mapping):
        return {key: _json_value(item) for key, item in value.items()}
    if isinstance(value, tuple):
        return [_json_value(item) for item in value]
    return value


def _to_json(event: object) -> dict[str, Any]:
    """An event's ``to_json``: ``{"kind": ..., field: value, ...}``, JSON-ready.

    >>> CardPlaced(1, 2, "ana", 71, 2, ((3,), (24,), (58, 71), (96,))).to_json()
    {'kind': 'card-placed', 'round': 1, 'turn': 2, 'player': 'ana', 'card': 71, 'row': 2, \
'rows': [[3], [24], [58, 71], [96]]}
    """
    result: dict[str, Any] = {"kind": getattr(event, "kind")}  # noqa: B009 -- a ClassVar
    for item in fields(event):  # type: ignore[arg-type]
        result[item.name] = _json_value(getattr(event, item.name))
    return result


#: The engine's positional constructors (:func:`take5rules._kernel.fast_constructor`): each
#: builds its event from every field, in order, with no check, for values already known valid
#: (the game builds tens of them a round). ``card_placed(1, 2, "ana", 71, 2, rows)`` equals
#: ``CardPlaced(1, 2, "ana", 71, 2, rows)``.
card_placed = fast_constructor(CardPlaced)
sixth_card_taken = fast_constructor(SixthCardTaken)
low_card_taken = fast_constructor(LowCardTaken)
cards_revealed = fast_constructor(CardsRevealed)
round_started = fast_constructor(RoundStarted)
round_scored = fast_constructor(RoundScored)
