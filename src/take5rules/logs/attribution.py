"""Attribution: which rule decides where an answer differs from what the rules give.

One module for every judgement of the kind "this is wrong, and rule X says so", shared by the
log validator (:mod:`take5rules.logs.validator`: a log's claimed rows or cards taken), the
conformance check (:mod:`take5rules.conformance.run`: another referee's reply) and the defects
(:mod:`take5rules.conformance.defects`: the seat-order mistake they put into logs):

* :func:`placed_in_order`, the counterfactual "placed in this order" (most often seat order,
  a common mistake), by the placement rules themselves;
* :func:`placement_rule`, the rule that placed a card, from its event;
* :func:`blame`, the rule, player and card behind the first difference between a claimed table
  and the one the rules give;
* :func:`taken_rule`, the rule behind a wrong claim of the cards a player took.

>>> from take5rules.table import Table
>>> turn = placed_in_order(Table.of([[1], [2], [3], [4]]), [("ana", 6), ("bob", 5)], {})
>>> turn.to_json()["rows"]
[[1], [2], [3, 5], [4, 6]]
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from take5rules.cards import Card
from take5rules.errors import Take5Error
from take5rules.events import CardPlaced, LowCardTaken, RowTaken, SixthCardTaken
from take5rules.table import ROW_LIMIT, Table, ascending_rows, place_card

__all__ = [
    "InOrder",
    "blame",
    "placed_in_order",
    "placement_rule",
    "seat_order_rows",
    "taken_rule",
]


@dataclass(frozen=True, slots=True)
class InOrder:
    """A turn's cards placed in a given order: the table after, the cards taken, the rows chosen."""

    table: Table
    taken: Mapping[str, list[Card]]
    chosen: Mapping[str, int]

    def to_json(self) -> dict[str, Any]:
        """The turn as a referee reply: ``rows``, ``taken`` (takers only) and ``chosen``."""
        return {"rows": self.table.to_json(), "taken": {p: list(c) for p, c in self.taken.items()},
                "chosen": dict(self.chosen)}


def placed_in_order(
    table: Table, order: Iterable[tuple[str, Card]], choices: Mapping[str, Any]
) -> InOrder | None:
    """The turn if its cards were placed in *order* by the placement rules, or ``None``.

    *choices* gives the row each player takes should their card be low; ``None`` when a card
    placed in this order needs a choice *choices* does not give (or gives a row that is not
    one), or a card cannot be placed at all.

    >>> turn = placed_in_order(Table.of([[10], [20], [30], [40]]), [("ana", 5)], {"ana": 2})
    >>> turn.table.to_json(), dict(turn.taken), dict(turn.chosen)
    ([[10], [20], [5], [40]], {'ana': [30]}, {'ana': 2})
    >>> placed_in_order(Table.of([[10], [20], [30], [40]]), [("ana", 5)], {}) is None
    True
    """
    taken: dict[str, list[Card]] = {}
    chosen: dict[str, int] = {}
    for player, value in order:
        try:
            placement = place_card(table, value, choices.get(player))
        except Take5Error:
            return None
        if placement.rule == "table.low-card":
            chosen[player] = choices[player]
        if placement.taken:
            taken.setdefault(player, []).extend(placement.taken)
        table = placement.table
    return InOrder(table, taken, chosen)


def seat_order_rows(before: Table, turn: Mapping[str, Any]) -> list[list[Card]] | None:
    """The rows after a logged *turn* if its cards were placed in seat order (its plays' order).

    >>> seat_order_rows(Table.of([[1], [2], [3], [4]]), {"plays": {"ana": 6, "bob": 5}})
    [[1], [2], [3, 5], [4, 6]]
    """
    result = placed_in_order(before, turn["plays"].items(), turn.get("takes", {}))
    return None if result is None else result.table.to_json()


def placement_rule(event: CardPlaced | RowTaken) -> str:
    """The rule that placed a card, from its placement event."""
    if isinstance(event, SixthCardTaken):
        return "table.sixth-card"
    if isinstance(event, LowCardTaken):
        return "table.low-card"
    return "table.least-difference"


def _locate(value: Card, rows: Sequence[Sequence[object]]) -> tuple[int, int] | None:
    for index, row in enumerate(rows):
        for position, item in enumerate(row):
            if item == value:
                return index, position
    return None


def blame(
    claimed: Sequence[Sequence[object]], actual: Sequence[Sequence[Card]], before: Table,
    placements: Sequence[CardPlaced | RowTaken],
) -> tuple[str, str | None, Card | None]:
    """The rule, player and card behind the first difference between two tables.

    *claimed* is the table a log claims after a turn, *actual* the one the rules give from
    *before* by *placements*. The placements are walked in order; the first card the claim
    puts elsewhere names its player and the rule it breaks: ``table.ascending`` after a higher
    card, ``table.sixth-card`` or ``table.low-card`` when it starts a row it should not, else
    the rule that placed it.
    """
    table = before
    for event in placements:
        here = _locate(event.card, actual)
        there = _locate(event.card, claimed)
        if here is None and there is not None:
            # Taken later in the turn: the placement that took it is to blame.
            table = Table(event.rows)
            continue
        if here != there:
            rule = placement_rule(event)
            if there is not None and isinstance(event, CardPlaced):
                row, position = there
                if position > 0 and row not in ascending_rows(table, event.card):
                    rule = "table.ascending"
                elif position == 0:
                    full = row < len(table.rows) and len(table.rows[row]) >= ROW_LIMIT
                    rule = "table.sixth-card" if full else "table.low-card"
            elif there is not None and isinstance(event, SixthCardTaken) \
                    and there[0] != event.row:
                rule = "table.least-difference"
            return rule, event.player, event.card
        table = Table(event.rows)
    for event in placements:
        if isinstance(event, RowTaken) and any(
            _locate(value, claimed) is not None for value in event.taken
        ):
            return placement_rule(event), event.player, event.card
    return "table.ascending", None, None


def taken_rule(
    player: str, placements: Sequence[CardPlaced | RowTaken]
) -> tuple[str, Card]:
    """The rule behind a wrong claim of what *player* took in a turn, and the card they played.

    A player takes cards only by their own card's placement, so its rule decides.
    """
    event = next(event for event in placements if event.player == player)
    return placement_rule(event), event.card
