"""The validator's fast path: a whole round replayed on plain ints, for a round that breaks no rule.

:func:`quick_deal` and :func:`quick_turns` answer only whether a round breaks no rule, and
what each player took; a round they do not vouch for is replayed again by the rule functions
(:mod:`take5rules.logs.round_check`), which find and name every violation. Differential tests pin
the two to the same reports on valid logs, on logs broken by every defect of
:mod:`take5rules.conformance.defects` and on logs mutated at random in every field.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from operator import itemgetter
from typing import Any

from take5rules.cards import Card, bull_heads, deck
from take5rules.errors import Take5Error
from take5rules.logs.report import Findings
from take5rules.setup import ROWS, check_deal
from take5rules.table import ROW_LIMIT
from take5rules.variants import Rules

__all__ = ["quick_deal", "quick_turns"]

#: The bull heads of each card, by its number (index 0 unused), from the rule function.
_HEADS = (0, *(bull_heads(value) for value in deck()))


#: A play's card, the key that sorts the plays lowest card first.
_card_of = itemgetter(1)


def quick_deal(
    findings: Findings, rules: Rules, players: tuple[str, ...], entry: Mapping[str, Any],
) -> tuple[dict[str, set[Card]], list[list[Card]]] | None:
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
    return {player: set(hand) for player, hand in hands.items()}, [list(row) for row in table.rows]


def quick_turns(
    findings: Findings, hands: dict[str, set[Card]], rows: list[list[Card]],
    turns: Sequence[Mapping[str, Any]],
) -> dict[str, int] | None:
    """Each player's bull heads after *turns*, if no turn breaks a rule, else ``None``.

    The kernel of :func:`~take5rules.round.play_turn` and the claims' checks, on plain ints:
    every card from its player's hand, placed lowest first on the row ending closest below
    it, a sixth card or a low card taking its row; ``takes`` exactly for the low cards; the
    claims equal to what the rules give (an empty ``taken`` list is taking nothing).
    """
    seats = hands.keys()
    heads = _HEADS
    piles = dict.fromkeys(hands, 0)
    lasts = [row[-1] for row in rows]
    kinds = 0
    for turn in turns:
        plays = turn["plays"]
        if plays.keys() != seats:
            return None
        takes = turn.get("takes")
        claimed = turn.get("taken")
        taken: dict[str, list[Card]] | None = {} if claimed is not None else None
        lows = 0
        for player, value in sorted(plays.items(), key=_card_of):
            hand = hands[player]
            if value not in hand:
                return None
            hand.remove(value)
            # The row ending closest below the card, the scan unrolled over the ROWS rows (the
            # unpacking fails loudly should their number ever change).
            first, second, third, fourth = lasts
            best = -1
            top = 0
            if first < value:
                best, top = 0, first
            if top < second < value:
                best, top = 1, second
            if top < third < value:
                best, top = 2, third
            if top < fourth < value:
                best = 3
            if best < 0:
                if not takes or player not in takes:
                    return None
                best = takes[player]
                if not 0 <= best < ROWS:
                    return None
                lows += 1
                kinds |= 4
            elif len(rows[best]) < ROW_LIMIT:
                rows[best].append(value)
                lasts[best] = value
                kinds |= 1
                continue
            else:
                kinds |= 2
            row = rows[best]
            piles[player] += sum([heads[card] for card in row])
            if taken is not None:
                taken.setdefault(player, []).extend(row)
            rows[best] = [value]
            lasts[best] = value
        if takes and len(takes) != lows:
            return None
        if "rows_after" in turn and turn["rows_after"] != rows:
            return None
        if claimed is not None and taken is not None:
            for player, values in claimed.items():
                actual = taken.get(player)
                if player not in seats or (
                    sorted(values) != sorted(actual) if actual is not None else values
                ):
                    return None
            if not claimed.keys() >= taken.keys():
                return None
    if turns:
        findings.use("round.end", "turn.reveal", "turn.order", "table.ascending")
    for bit, rule in ((1, "table.least-difference"), (2, "table.sixth-card"),
                      (4, "table.low-card")):
        if kinds & bit:
            findings.use(rule)
    return piles
