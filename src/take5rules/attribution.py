"""Attribution: which rule decides where an answer differs from what the rules give.

One module for every judgement of the kind "this is wrong, and rule X says so", shared by the
log validator (:mod:`take5rules.validate`: a log's claimed rows or cards taken), the
conformance check (:mod:`take5rules.conform`: another referee's reply) and the defects
(:mod:`take5rules.defects`: the seat-order mistake they put into logs):

* :func:`placed_in_order`, the counterfactual "placed in this order" (most often seat order,
  a common mistake), by the placement rules themselves;
* :func:`placement_rule`, the rule that placed a card, from its event;
* :func:`blame`, the rule, player and card behind the first difference between a claimed table
  and the one the rules give;
* :func:`taken_rule`, the rule behind a wrong claim of the cards a player took;
* :func:`deciding_rule`, the rule that decides a turn on which a referee's reply differs from
  ours, with :func:`normal_reply`, the parts of a reply that are compared.

>>> from take5rules.table import Table
>>> turn = placed_in_order(Table.of([[1], [2], [3], [4]]), [("ana", 6), ("bob", 5)], {})
>>> turn.to_json()["rows"]
[[1], [2], [3, 5], [4, 6]]
"""

from __future__ import annotations

import itertools
from collections.abc import Iterable, Iterator, Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from .cards import Card
from .conformance.referee import parse_request
from .errors import Take5Error
from .events import CardPlaced, LowCardTaken, RowTaken, SixthCardTaken
from .registry import RULE_ORDER
from .table import ROW_LIMIT, Table, ascending_rows, place_card
from .turn import resolve_turn

__all__ = [
    "InOrder",
    "blame",
    "deciding_rule",
    "normal_reply",
    "placed_in_order",
    "placement_rule",
    "seat_order_rows",
    "taken_rule",
]

#: Plays up to which every order of the plays is tried to recognise a wrong placement order.
_PERMUTE_UP_TO = 6


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


def normal_reply(reply: Mapping[str, Any]) -> dict[str, Any]:
    """The parts of a referee reply that are compared: rows, taken and chosen, or ``error``.

    >>> normal_reply({"rows": [[1], [2], [3], [4]], "taken": {"ana": []}, "chosen": {}})
    {'rows': [[1], [2], [3], [4]], 'taken': {}, 'chosen': {}}
    """
    if "error" in reply:
        return {"error": True}
    return {
        "rows": [list(row) for row in reply["rows"]],
        # An empty list says "took nothing", like no entry at all.
        "taken": {player: list(cards) for player, cards in reply["taken"].items() if cards},
        "chosen": dict(reply["chosen"]),
    }


def _their_fates(theirs: Mapping[str, Any]) -> dict[int, tuple[int | None, int | None]]:
    """For each card in *theirs*: its row (``None`` once taken) and the card before it."""
    fates: dict[int, tuple[int | None, int | None]] = {}
    for cards in theirs.get("taken", {}).values():
        for position, value in enumerate(cards):
            fates[value] = (None, cards[position - 1] if position else None)
    for index, row in enumerate(theirs.get("rows", [])):
        for position, value in enumerate(row):
            fates[value] = (index, row[position - 1] if position else None)
    return fates


def deciding_rule(request: Mapping[str, Any], theirs: Mapping[str, Any]) -> str:
    """The rule that decides a turn on which *theirs* differs from our answer to *request*.

    *request* must be valid. If placing the same cards in another order by our rules gives
    exactly *theirs* (:func:`placed_in_order`), the rule is ``turn.order``. Otherwise our
    placements are walked lowest card first, and the first one that *theirs* contradicts (the
    card missing, in another row or after another card, another take, another row choice)
    decides:

    * ``table.low-card`` when that card is a low card, or when *theirs* has its player choose a
      row although the card fits on one;
    * ``table.ascending`` when *theirs* puts the card after a higher card;
    * ``table.least-difference`` when it went to another row (one ending lower) or after
      another card;
    * ``table.sixth-card`` when it went to the right row but a row was taken, or not, wrongly
      (or other cards than the five);
    * the rule of the placement itself when the card is missing from *theirs*.

    When every placement agrees, what is left is about the cards no placement moved: a card
    lost, added or doubled is ``cards.deck``, and a row choice for a player whose card was not
    low is ``table.low-card``. An error reply to the valid *request* is blamed on the rule it
    names when that is a rule of the game, and otherwise on ``table.low-card`` if the turn has
    a low card (the one part of a request a referee must look up in ``choices``), else on the
    rule of its first placement.

    >>> request = {"rows": [[1], [2], [3], [4]], "plays": [["ana", 6], ["bob", 5]]}
    >>> deciding_rule(request, {"rows": [[1], [2], [3, 5], [4, 6]], "taken": {}, "chosen": {}})
    'turn.order'
    >>> deciding_rule(request, {"rows": [[1, 5], [2, 6], [3], [4]], "taken": {}, "chosen": {}})
    'table.least-difference'
    """
    table, plays, choices = parse_request(request)
    result = resolve_turn(table, plays, lambda choice: choices[choice.player])
    if "error" in theirs:
        their_rule = theirs["error"].get("rule") if isinstance(theirs["error"], dict) else None
        if their_rule in RULE_ORDER:
            return str(their_rule)
        rules = [placement.rule for _, placement in result.placements]
        return "table.low-card" if "table.low-card" in rules else rules[0]
    target = normal_reply(theirs)
    if len(plays) <= _PERMUTE_UP_TO:
        orders: Iterator[tuple[tuple[str, int], ...]] = itertools.permutations(plays.items())
    else:
        orders = iter((tuple(plays.items()), tuple(reversed(plays.items()))))
    for order in orders:
        if list(order) != sorted(order, key=lambda item: item[1]):
            other = placed_in_order(table, order, choices)
            if other is not None and other.to_json() == target:
                return "turn.order"
    fates = _their_fates(target)
    taken = target["taken"]
    chosen = target["chosen"]
    before = table
    for player, placement in result.placements:
        rule = placement.rule
        takes = rule in ("table.sixth-card", "table.low-card")
        expected = None if takes else before.rows[placement.row][-1]
        our_choice = choices[player] if rule == "table.low-card" else None
        fate = fates.get(placement.card)
        if fate is not None and fate == (placement.row if fate[0] is not None else None,
                                         expected) \
                and taken.get(player, []) == list(placement.taken) \
                and chosen.get(player) == our_choice:
            before = placement.table
            continue
        if rule == "table.low-card" or chosen.get(player) is not None:
            return "table.low-card"
        if fate is None:
            return rule
        row, predecessor = fate
        if predecessor is not None and predecessor > placement.card:
            return "table.ascending"
        if (row is not None and row != placement.row) or None not in (predecessor, expected):
            return "table.least-difference"
        return "table.sixth-card"
    their_cards = [value for row in target["rows"] for value in row]
    their_cards += [value for cards in taken.values() for value in cards]
    if sorted(their_cards) != sorted([*table.cards(), *plays.values()]):
        return "cards.deck"
    if set(chosen) - set(plays):
        return "table.low-card"
    # Every card is where our rules put it, yet the replies differ (a row untouched by the
    # turn moved elsewhere): blame the last placement on the first row that differs.
    their_rows = target["rows"]
    for index, our_row in enumerate(result.table.to_json()):
        if their_rows[index] != our_row:
            for _, placement in reversed(result.placements):
                if placement.row == index:
                    return placement.rule
    return result.placements[0][1].rule
