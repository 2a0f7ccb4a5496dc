"""The verdict on a referee's reply: which rule decides where it differs from ours.

:func:`deciding_rule` names the rule that decides a turn on which another referee's reply
differs from our answer, by the judgements of :mod:`take5rules.logs.attribution` (the turn
placed in another order, the first placement contradicted); :func:`normal_reply` keeps the
parts of a reply that are compared. The conformance run and its shrinker use both.
"""

from __future__ import annotations

import itertools
from collections.abc import Iterator, Mapping
from typing import Any

from take5rules.conformance.referee import parse_request
from take5rules.logs.attribution import placed_in_order
from take5rules.registry import RULE_ORDER
from take5rules.turn import resolve_turn

__all__ = ["deciding_rule", "normal_reply"]

#: Up to this many plays, every order of a turn is tried as the "placed in another order" mistake.
_PERMUTE_UP_TO = 6


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
