"""The checks of a game's answers and of a deal given from outside, and the observation type.

Private: :class:`take5rules.state.Game` checks each answer once, through these, whether it comes
from :meth:`~take5rules.state.Game.play` or from a player object the engine asks.
"""

from __future__ import annotations

import enum
import operator
from collections.abc import Mapping
from dataclasses import dataclass

from ._text import N_
from .cards import Card, cards
from .errors import IllegalMoveError, MalformedInputError, Where
from .game import add_penalties
from .players import Revealed
from .setup import HAND_SIZE
from .table import Row, Table, _checked_choice

__all__ = ["Observation", "Phase"]


class Phase(enum.Enum):
    """What a game waits for: cards, a low card's row, a draft pick; or nothing, it is over."""

    CARDS = "cards"
    ROW = "row"
    DRAFT = "draft"
    OVER = "over"


@dataclass(frozen=True, slots=True)
class Observation:
    """What one seat may know now, and nothing else (:meth:`Game.observe`).

    *table* is ``None`` while the first draft is under way (no row is laid yet); *hand* is the
    seat's cards (while drafting, the cards it has drafted); *laid* the card it has laid face
    down this turn, if any; *pending* the low card waiting for its row, ``(player, card)``;
    *pool* the face-up cards left to draft. The history fields are those of
    :class:`~take5rules.players.CardView`.
    """

    player: str
    phase: Phase
    round: int
    turn: int
    table: Table | None
    hand: tuple[Card, ...]
    totals: Mapping[str, int]
    revealed: Revealed
    taken: Mapping[str, tuple[Card, ...]]
    start: tuple[Row, ...]
    picks: tuple[tuple[str, Card], ...]
    pool: tuple[Card, ...]
    laid: Card | None
    pending: tuple[str, Card] | None
    to_move: tuple[str, ...]


def _integral(value: object) -> int | None:
    """*value* as an ``int`` if it is an integer of any integral type; ``bool``, float: None."""
    if type(value) is int:
        return value
    if isinstance(value, bool | float):
        return None
    try:
        return operator.index(value)  # type: ignore[arg-type]
    except TypeError:
        return None


def _illegal_card(number: int, turn: int, player: str, value: object) -> IllegalMoveError:
    """An answer that is not a card of the player's hand (rule ``turn.reveal``)."""
    return IllegalMoveError(
        "turn.reveal",
        N_("card {value} is not in the hand of {player!r}"),
        where=Where(number, turn, player, value if type(value) is int else None),
        value=value,
        player=player,
    )


def _lay(hand: list[Card], value: object, number: int, turn: int, player: str) -> Card:
    """Take the card *value* out of *hand*; anything else is an illegal move (``turn.reveal``)."""
    checked = value if type(value) is int else _integral(value)
    if checked is None:
        raise _illegal_card(number, turn, player, value)
    try:
        hand.remove(checked)
    except ValueError:
        raise _illegal_card(number, turn, player, value) from None
    return checked


def _row_index(value: object, where: Where) -> int:
    """Check the row a low card takes: an index 0..3 of any integral type (``table.low-card``)."""
    checked = value if type(value) is int else _integral(value)
    return _checked_choice(value if checked is None else checked, where)


def _check_deal(
    players: tuple[str, ...],
    number: int,
    table: object,
    hands: Mapping[str, tuple[Card, ...]],
    totals: Mapping[str, int],
) -> None:
    """Check a deal given from outside (:meth:`Game.from_deal`)."""
    if not isinstance(table, Table):
        raise MalformedInputError(
            "setup.deal",
            N_("{value!r} is not a table; build one with Table.of(rows)"),
            value=table,
        )
    checked = {player: cards(hand, Where(number, player=player)) for player, hand in hands.items()}
    cards([*table.cards(), *(value for hand in checked.values() for value in hand)],
          Where(number))
    for player in checked:
        if player not in players:
            raise MalformedInputError(
                "setup.players",
                N_("{player!r} is not a player of this game"),
                where=Where(number, player=player),
                player=player,
            )
    sizes = [len(checked.get(player, ())) for player in players]
    if len(set(sizes)) > 1 or not 1 <= sizes[0] <= HAND_SIZE:
        raise MalformedInputError(
            "setup.deal",
            N_("the hands of a round hold the same number of cards, one to ten, not {sizes}"),
            where=Where(number),
            sizes=", ".join(str(size) for size in sizes),
        )
    add_penalties(totals, dict.fromkeys(checked, 0))
