"""The deal or the draft of a logged round, checked by the rules of the setup and the variants.

:func:`setup` checks one round's starting rows and hands: dealt (:func:`dealt`), drafted
(:func:`drafted`, the logic variant and a tournament's first game) or, in a tournament's later
games, passed on (:func:`passed_on`). Each problem is noted in a
:class:`~take5rules.logs.report.Findings` with its rule and path.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Mapping, Sequence
from typing import Any

from take5rules._messages import N_
from take5rules.cards import Card
from take5rules.errors import IllegalMoveError, Take5Error, Where
from take5rules.logs.format import drafts_round
from take5rules.logs.report import Findings, shown
from take5rules.logs.structure import member_path
from take5rules.round import RoundState
from take5rules.setup import cards_in_play, check_deal
from take5rules.table import Table
from take5rules.variants import Rules, Variant, draft, tournament_hands

__all__ = ["dealt", "drafted", "passed_on", "setup"]

#: A round's hands and the four cards that start its rows.
_Formed = tuple[dict[str, tuple[Card, ...]], list[Card]]


def _relocated(error: Take5Error, where: Where) -> Take5Error:
    """The same error, said to happen at *where* (the draft names round 1 for every round)."""
    moved = type(error).__new__(type(error))
    moved.__dict__.update(error.__dict__)
    moved.where = where
    moved.args = (str(moved),)
    return moved


def setup(
    findings: Findings, rules: Rules, players: tuple[str, ...], number: int,
    entry: Mapping[str, Any], path: str, first: RoundState | None = None,
) -> RoundState | None:
    """Check round *number*'s deal (or draft); the round's start, or ``None`` if it is broken.

    *first* is the start of a tournament's first game, whose hands the later games pass on.
    """
    findings.use("setup.deal", "cards.deck")
    formed: _Formed | None
    if drafts_round(rules, number):
        formed = drafted(findings, rules, players, number, entry, path)
    else:
        if "draft" in entry:
            findings.fail(_needless_draft(rules, number), f"{path}.draft")
        formed = dealt(findings, rules, players, number, entry, path)
        if formed is not None and first is not None:
            formed = passed_on(findings, players, number, formed, first, path)
    if formed is None:
        return None
    hands_now, starters = formed
    return RoundState.start(number, Table.start(starters), hands_now)


def _needless_draft(rules: Rules, number: int) -> IllegalMoveError:
    if rules.variant is Variant.TOURNAMENT:
        return IllegalMoveError(
            "variants.tournament",
            N_("only the first game of a tournament drafts the hands; game {number} plays "
               "the hands passed on"),
            where=Where(number), number=number,
        )
    return IllegalMoveError(
        "variants.logic",
        N_("the round records a draft, but only the logic variant drafts the hands"),
        where=Where(number),
    )


def passed_on(
    findings: Findings, players: tuple[str, ...], number: int, formed: _Formed,
    first: RoundState, path: str,
) -> _Formed | None:
    """Check that game *number* of a tournament plays the first game's hands, passed on."""
    findings.use("variants.tournament")
    expected = tournament_hands(first.hands, players, number)
    hands, starters = formed
    broken = False
    for player in players:
        if Counter(hands[player]) != Counter(expected[player]):
            findings.fail(IllegalMoveError(
                "variants.tournament",
                N_("the hand of {player!r} in game {number} is {says}, but the tournament "
                   "passes on {rules}"),
                where=Where(number, player=player), player=player, number=number,
                says=shown(list(hands[player])), rules=shown(sorted(expected[player])),
            ), f"{path}.hands{member_path(player)}")
            broken = True
    rows = sorted(first.table.last_cards)
    if sorted(starters) != rows:
        findings.fail(IllegalMoveError(
            "variants.tournament",
            N_("game {number} starts with the rows {says}, but every game of a tournament "
               "starts with the four cards the draft left: {rules}"),
            where=Where(number), number=number, says=shown(starters), rules=shown(rows),
        ), f"{path}.rows")
        broken = True
    return None if broken else formed

def dealt(
    findings: Findings, rules: Rules, players: tuple[str, ...], number: int,
    entry: Mapping[str, Any], path: str,
) -> _Formed | None:
    """Check a dealt round by :func:`~take5rules.setup.check_deal`; its hands and row cards."""
    if rules.reduced_deck:
        findings.use("variants.tactics")
    try:
        table, hands = check_deal(entry["rows"], entry["hands"], players, rules, fresh=True,
                                  round=number)
    except Take5Error as error:
        findings.fail(error, _deal_path(error, entry["rows"], path))
        return None
    return hands, list(table.last_cards)


def _deal_path(error: Take5Error, rows: Sequence[Sequence[object]], path: str) -> str:
    """The JSON path of what a deal error of :func:`~take5rules.setup.check_deal` is about."""
    player = error.where.player
    if player is None and isinstance(error.params.get("player"), str):
        player = error.params["player"]
    if player is not None:
        return f"{path}.hands{member_path(player)}"
    if "sizes" in error.params:
        return f"{path}.hands"
    row = error.params.get("row")
    if isinstance(row, int) and 1 <= row <= len(rows):
        return f"{path}.rows[{row - 1}]"
    for index, cards_of_row in enumerate(rows):
        if error.where.card is not None and error.where.card in cards_of_row:
            return f"{path}.rows[{index}]"
    return f"{path}.rows"


def drafted(
    findings: Findings, rules: Rules, players: tuple[str, ...], number: int,
    entry: Mapping[str, Any], path: str,
) -> _Formed | None:
    """Check a drafted round: its picks, then that the hands and rows are what the draft gives.

    The picks are checked by :func:`~take5rules.variants.draft`.
    """
    findings.use("variants.logic", "variants.tactics")
    where = Where(number)
    hands = entry["hands"]
    if set(hands) != set(players):
        findings.fail(IllegalMoveError(
            "setup.deal",
            N_("the hands are those of {says}; the deal gives a hand to each player: "
               "{rules}"),
            where=where, says=shown(list(hands)), rules=shown(list(players)),
        ), f"{path}.hands")
        return None
    picks = entry.get("draft")
    if picks is None:
        if rules.variant is Variant.TOURNAMENT:
            findings.fail(IllegalMoveError(
                "variants.tournament",
                N_("a tournament drafts the hands of its first game, and the round records no "
                   "draft"),
                where=where,
            ), path)
        else:
            findings.fail(IllegalMoveError(
                "variants.logic",
                N_("the logic variant drafts the hands, and the round records no draft"),
                where=where,
            ), path)
        return None
    try:
        result = draft(cards_in_play(rules, len(players)), players,
                       [(player, value) for player, value in picks])
    except Take5Error as error:
        moved = _relocated(error, Where(number, None, error.where.player, error.where.card))
        findings.fail(moved, f"{path}.draft")
        return None
    broken = False
    for player in players:
        if Counter(hands[player]) != Counter(result.hands[player]):
            findings.fail(IllegalMoveError(
                "variants.logic",
                N_("the hand of {player!r} is {says}, but the draft gives {rules}"),
                where=Where(number, player=player), player=player,
                says=shown(hands[player]), rules=shown(sorted(result.hands[player])),
            ), f"{path}.hands{member_path(player)}")
            broken = True
    rows = entry["rows"]
    if sorted(rows) != [[value] for value in sorted(result.rows)]:
        # The four cards the draft leaves start the rows, one card each.
        findings.fail(IllegalMoveError(
            "variants.logic",
            N_("the rows start with {says}, but the draft leaves {rules}"),
            where=where, says=shown(rows), rules=shown(list(result.rows)),
        ), f"{path}.rows")
        broken = True
    if broken:
        return None
    return dict(result.hands), [row[0] for row in rows]
