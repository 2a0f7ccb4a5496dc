"""The claims of a take5-log, checked against what the rules give.

A log's claims are optional: the rows after a turn (``rows_after``), the cards each player took
(``taken``), a round's ``penalties``, the ``totals`` and the ``winners``. Each function here
compares one claim with the value the replay computed and notes, in a
:class:`~take5rules.logs.report.Findings`, every difference as a violation of the rule that
decides it (:mod:`take5rules.logs.attribution`).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from take5rules._messages import N_
from take5rules.cards import Card
from take5rules.errors import IllegalMoveError, Where
from take5rules.events import CardPlaced, RowTaken
from take5rules.logs.attribution import blame, seat_order_rows, taken_rule
from take5rules.logs.report import Findings, shown
from take5rules.logs.structure import member_path
from take5rules.table import Table

__all__ = ["penalties_claim", "rows_claim", "taken_claim", "totals_claim", "winners_claim"]


def rows_claim(
    findings: Findings, turn: Mapping[str, Any], before: Table, after: Table,
    placements: Sequence[CardPlaced | RowTaken], where: Where, path: str,
) -> None:
    """Check a turn's ``rows_after`` against *after*, the table the rules give."""
    claimed = turn["rows_after"]
    actual = after.to_json()
    if claimed == actual:
        return
    params = {"says": shown(claimed), "rules": shown(actual)}
    if claimed == seat_order_rows(before, turn):
        findings.fail(IllegalMoveError(
            "turn.order",
            N_("the log says the rows are {says} after the turn, as if the cards were "
               "placed in seat order; placed from the lowest to the highest they are "
               "{rules}"),
            where=where, **params,
        ), path)
        return
    rule, player, value = blame(claimed, actual, before, placements)
    findings.fail(IllegalMoveError(
        rule,
        N_("the log says the rows are {says} after the turn; the rules give {rules}"),
        where=Where(where.round, where.turn, player, value), **params,
    ), path)


def taken_claim(
    findings: Findings, claimed: Mapping[str, Any], players: Sequence[str],
    placements: Sequence[CardPlaced | RowTaken], where: Where, path: str,
) -> None:
    """Check a turn's ``taken``: every taker's cards listed, and nothing else."""
    actual: dict[str, list[Card]] = {}
    for event in placements:
        if isinstance(event, RowTaken):
            actual.setdefault(event.player, []).extend(event.taken)
    for player in claimed:
        if player not in players:
            findings.fail(IllegalMoveError(
                "turn.reveal",
                N_("'taken' names {player!r}, who is not a player of this game"),
                where=where, player=player,
            ), f"{path}{member_path(player)}")
    for player in players:
        says = sorted(claimed.get(player, []))
        rules = sorted(actual.get(player, []))
        if says == rules:
            continue
        rule, value = taken_rule(player, placements)
        findings.fail(IllegalMoveError(
            rule,
            N_("the log says {player!r} took {says} this turn; the rules give {rules}"),
            where=Where(where.round, where.turn, player, value), player=player,
            says=shown(claimed.get(player, [])), rules=shown(actual.get(player, [])),
        ), f"{path}{member_path(player)}")


def penalties_claim(
    findings: Findings, claimed: Mapping[str, Any], penalties: Mapping[str, int], number: int,
    path: str,
) -> None:
    """Check a round's ``penalties`` against the bull heads each player took."""
    players = list(penalties)
    if set(claimed) != set(players):
        findings.fail(IllegalMoveError(
            "round.score",
            N_("the penalties name {says}; the players are {rules}"),
            where=Where(number), says=shown(list(claimed)), rules=shown(players),
        ), path)
    for player in players:
        if player in claimed and claimed[player] != penalties[player]:
            findings.fail(IllegalMoveError(
                "round.score",
                N_("the log says {player!r} scores {says} this round; the bull heads "
                   "taken make {rules}"),
                where=Where(number, player=player), player=player,
                says=shown(claimed[player]), rules=penalties[player],
            ), f"{path}{member_path(player)}")


def totals_claim(
    findings: Findings, claimed: Mapping[str, Any], totals: Mapping[str, int]
) -> None:
    """Check the log's ``totals`` against the sum of the rounds."""
    findings.use("game.totals")
    players = list(totals)
    if set(claimed) != set(players):
        findings.fail(IllegalMoveError(
            "game.totals",
            N_("the totals name {says}; the players are {rules}"),
            says=shown(list(claimed)), rules=shown(players),
        ), "$.totals")
    for player in players:
        if player in claimed and claimed[player] != totals[player]:
            findings.fail(IllegalMoveError(
                "game.totals",
                N_("the log gives {player!r} a total of {says}; the rounds add up to "
                   "{rules}"),
                where=Where(player=player), player=player,
                says=shown(claimed[player]), rules=totals[player],
            ), f"$.totals{member_path(player)}")


def winners_claim(
    findings: Findings, claimed: Sequence[Any], won: tuple[str, ...] | None,
    totals: Mapping[str, int], unfinished: IllegalMoveError,
) -> None:
    """Check the log's ``winners`` against *won* (``None``: the game is not over).

    *unfinished* is the violation of naming winners before the end, worded for the variant.
    """
    findings.use("game.winners")
    if won is None:
        findings.fail(unfinished, "$.winners")
    elif sorted(claimed) != sorted(won):
        findings.fail(IllegalMoveError(
            "game.winners",
            N_("the log says the winners are {says}; the lowest total, {total}, is "
               "that of {rules}"),
            says=shown(claimed), total=totals[won[0]], rules=shown(list(won)),
        ), "$.winners")
