"""The checks of a game's answers and of a deal given from outside.

Private: :class:`take5rules.playing.stepper.Game` checks each answer once, through these, whether it
comes
from :meth:`~take5rules.playing.stepper.Game.play` or from a player object the engine asks.
"""

from __future__ import annotations

import operator
from collections.abc import Mapping

from take5rules._messages import N_
from take5rules.cards import Card
from take5rules.errors import IllegalMoveError, MalformedInputError, Where
from take5rules.game import add_penalties
from take5rules.setup import check_deal
from take5rules.table import Table, check_row_choice

__all__: list[str] = []


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
    return check_row_choice(value if checked is None else checked, where)


def _check_deal(
    players: tuple[str, ...],
    number: int,
    table: object,
    hands: Mapping[str, tuple[Card, ...]],
    totals: Mapping[str, int],
) -> None:
    """Check a deal given from outside (:meth:`Game.from_deal`): ``setup.check_deal``.

    A :class:`~take5rules.table.Table` is asked for (not plain rows), and *totals* must name
    the seats.
    """
    if not isinstance(table, Table):
        raise MalformedInputError(
            "setup.deal",
            N_("{value!r} is not a table; build one with Table.of(rows)"),
            value=table,
        )
    _, checked = check_deal(table, hands, players, round=number)  # rule setup.deal & co
    add_penalties(totals, dict.fromkeys(checked, 0))
