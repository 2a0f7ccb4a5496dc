"""The validator's fast path: a whole round replayed on plain ints, for a round that breaks no rule.

:func:`quick_deal` and :func:`quick_turns` answer only whether a round breaks no rule, and
what each player took; a round they do not vouch for is replayed again by the rule functions
(:mod:`take5rules.logs.round_check`), which find and name every violation. Differential tests pin
the two to the same reports on valid logs, on logs broken by every defect of
:mod:`take5rules.conformance.defects` and on logs mutated at random in every field.
"""

from __future__ import annotations

from collections.abc import Collection, Mapping, Sequence
from operator import itemgetter
from typing import Any

from take5rules._kernel import ROWS, Row, pile_heads, put, take, target
from take5rules.cards import Card
from take5rules.errors import Take5Error
from take5rules.logs.report import Findings
from take5rules.setup import check_deal
from take5rules.variants import Rules

__all__ = ["quick_deal", "quick_turns"]

#: A play's card, the key that sorts the plays lowest card first.
_card_of = itemgetter(1)


def quick_deal(
    findings: Findings, rules: Rules, players: tuple[str, ...], entry: Mapping[str, Any],
) -> tuple[dict[str, set[Card]], list[Row]] | None:
    """The hands and rows of a deal (not a draft) that breaks no rule, else ``None``.

    The deal is checked by :func:`~take5rules.setup.check_deal`, the one check of a deal (the
    full replay names its error): four rows of one card, one hand of ten for each player,
    distinct cards, all in play. A drafted round, and a tournament's later games (their hands
    are passed on), are left to the full replay.
    """
    if rules.drafted or "draft" in entry:
        return None
    try:
        table, hands = check_deal(entry["rows"], entry["hands"], players, rules, fresh=True)
    except Take5Error:
        return None
    findings.use("setup.deal", "cards.deck")
    if rules.reduced_deck:
        findings.use("variants.tactics")
    return {player: set(hand) for player, hand in hands.items()}, list(table.rows)


def quick_turns(
    findings: Findings, hands: dict[str, set[Card]], rows: list[Row],
    turns: Sequence[Mapping[str, Any]],
) -> dict[str, int] | None:
    """Each player's bull heads after *turns*, if no turn breaks a rule, else ``None``.

    :func:`~take5rules.round.play_turn` and the claims' checks, on plain ints, placing every
    card through the kernel (:func:`~take5rules._kernel.target`, :func:`~take5rules._kernel.put`,
    :func:`~take5rules._kernel.take`), the one home of the placement: every card from its
    player's hand, placed lowest first on the row ending closest below it, a sixth card or a
    low card taking its row; ``takes`` exactly for the low cards; the claims equal to what the
    rules give (an empty ``taken`` list is taking nothing). *rows* (the kernel's rows, tuples)
    and *hands* are changed in place.
    """
    seats = hands.keys()
    piles = dict.fromkeys(hands, 0)
    kinds = 0
    for turn in turns:
        plays = turn["plays"]
        if plays.keys() != seats:
            return None
        takes = turn.get("takes")
        claimed = turn.get("taken")
        # What each player took this turn (one card a turn: at most one row each), as the
        # log's lists, kept only when the log claims some taking to compare.
        taken: dict[str, list[Card]] | None = {} if claimed else None
        lows = 0
        for player, value in sorted(plays.items(), key=_card_of):
            try:
                hands[player].remove(value)
            except KeyError:  # not in the hand
                return None
            index = target(rows, value)
            if index < 0:
                if not takes or player not in takes:
                    return None
                index = takes[player]
                if not 0 <= index < ROWS:
                    return None
                lows += 1
                kinds |= 4
                row = take(rows, value, index)
            else:
                row = put(rows, value, index)
                if not row:
                    kinds |= 1
                    continue
                kinds |= 2
            piles[player] += pile_heads(row)
            if taken is not None:
                taken[player] = [*row]
            elif claimed is not None:  # the log claims nobody took anything
                return None
        if takes and len(takes) != lows:
            return None
        after = turn.get("rows_after")
        if after is not None and [*map(tuple, after)] != rows:
            return None
        # The claim as written (each row's cards in their order) first, then in any order.
        if claimed and claimed != taken and not _claims_taken(claimed, taken or {}, seats):
            return None
    if turns:
        findings.use("round.end", "turn.reveal", "turn.order", "table.ascending")
    for bit, rule in ((1, "table.least-difference"), (2, "table.sixth-card"),
                      (4, "table.low-card")):
        if kinds & bit:
            findings.use(rule)
    return piles


def _claims_taken(
    claimed: Mapping[str, Any], taken: Mapping[str, list[Card]], seats: Collection[str],
) -> bool:
    """Whether the ``taken`` claim of a turn lists what each player took (in any order).

    An empty list is taking nothing; every name is a player's.
    """
    for player, values in claimed.items():
        actual = taken.get(player)
        if player not in seats or (
            sorted(values) != sorted(actual) if actual is not None else values
        ):
            return False
    return claimed.keys() >= taken.keys()
