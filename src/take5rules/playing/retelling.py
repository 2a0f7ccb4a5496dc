"""A saved game told again: the events of a take5-log, narrated or drawn turn by turn.

:func:`log_events` replays a checked log through the engine (:func:`take5rules.playing.engine.
play_round` with players that answer what the log says), so that the events are the engine's
own, and :func:`take5rules.text.narrate` tells them in any language. :func:`log_html` draws the
game as one web page: for every turn, its narration and the pictures of
:func:`take5rules.text.pictures.turn_svgs` (the same pictures as the documentation).

>>> from take5rules import CautiousPlayer, LowestCardPlayer, play_game
>>> from take5rules.logs.writer import log_from_events
>>> events = list(play_game({"ana": CautiousPlayer(), "bob": LowestCardPlayer()}, seed=5))
>>> list(log_events(log_from_events(events))) == events
True
"""

from __future__ import annotations

import html
from collections.abc import Iterator, Mapping, Sequence
from typing import Any

from take5rules._messages import N_
from take5rules.errors import LogError
from take5rules.events import (
    CardDrafted,
    CardPlaced,
    CardsRevealed,
    Event,
    GameOver,
    GameStarted,
    RoundStarted,
    RowTaken,
)
from take5rules.logs.validator import validate
from take5rules.playing.engine import play_round
from take5rules.playing.players import CardView, DraftView
from take5rules.table import Table
from take5rules.text import narrate, translator
from take5rules.text.pictures import turn_svgs
from take5rules.turn import RowChoice
from take5rules.variants import DEFAULT_THRESHOLD, Rules, Variant

__all__ = ["log_events", "log_html"]

_INVALID = N_("this log breaks a rule ({rule}, at {path}); `take5rules validate` says more")
_TURN = N_("Round {round}, turn {turn}")
_TITLE = N_("A game of Take 5")


class _LogEndsError(Exception):
    """The log has no answer left: a game in progress stops here."""


class _Script:
    """A player that answers what the log says it did, and stops where the log stops."""

    def __init__(self) -> None:
        self.cards: list[int] = []
        self.rows: list[int] = []
        self.draft: list[int] = []

    @staticmethod
    def _next(answers: list[int]) -> int:
        if not answers:
            raise _LogEndsError
        return answers.pop(0)

    def choose_card(self, view: CardView) -> int:
        return self._next(self.cards)

    def choose_row(self, choice: RowChoice) -> int:
        return self._next(self.rows)

    def choose_draft(self, view: DraftView) -> int:
        return self._next(self.draft)


def _checked(document: object) -> dict[str, Any]:
    """*document* if it is a valid take5-log; else a :class:`LogError` naming its first fault."""
    report = validate(document)
    if not report.valid:
        first = report.violations[0]
        raise LogError(_INVALID, rule=first.rule, path=first.path)
    assert isinstance(document, dict)
    return document


def _rules(document: Mapping[str, Any]) -> Rules:
    return Rules(Variant.parse(document["variant"]),
                 document.get("threshold", DEFAULT_THRESHOLD))


def log_events(document: object) -> Iterator[Event]:
    """The events of the game the take5-log *document* records, as the engine yields them.

    The log is checked first (:func:`take5rules.logs.validator.validate`); a log that breaks a rule
    raises :class:`~take5rules.errors.LogError`. A game in progress stops after its last turn.
    """
    log = _checked(document)
    rules = _rules(log)
    players = tuple(log["players"])
    yield GameStarted(rules, players)
    totals = dict.fromkeys(players, 0)
    for number, round_log in enumerate(log["rounds"], start=1):
        scripts = {player: _Script() for player in players}
        for pick, (player, card) in enumerate(round_log.get("draft", ()), start=1):
            scripts[player].draft.append(card)
            yield CardDrafted(number, pick, player, card)
        for turn in round_log["turns"]:
            for player, card in turn["plays"].items():
                scripts[player].cards.append(card)
            for player, row in turn.get("takes", {}).items():
                scripts[player].rows.append(row)
        hands = {player: tuple(cards) for player, cards in round_log["hands"].items()}
        events = play_round(scripts, number, Table.of(round_log["rows"]), hands, totals)
        while True:
            try:
                event = next(events)
            except StopIteration as stop:
                totals = stop.value
                break
            except _LogEndsError:  # a round in progress: the log stops here
                return
            yield event
    if rules.variant is Variant.TOURNAMENT or log.get("winners") is not None:
        from take5rules._kernel import lowest

        yield GameOver(len(log["rounds"]), totals, lowest(totals))


def log_html(document: object, language: str = "en") -> str:
    """The game of *document* as one HTML page: each turn's narration and pictures."""
    log = _checked(document)
    tr = translator(language)
    title = tr.gettext(_TITLE)
    parts = [f'<!DOCTYPE html>\n<html lang="{html.escape(language)}">\n<head>\n'
             f'<meta charset="utf-8"/>\n<title>{html.escape(title)}</title>\n'
             "<style>body{font-family:sans-serif;max-width:60rem;margin:auto;padding:1rem}"
             "figure{display:inline-block;vertical-align:top;margin:.3rem}svg{max-width:100%;height:auto}"
             "p{margin:.2rem 0}</style>\n</head>\n<body>\n"
             f"<h1>{html.escape(title)}</h1>\n"]
    events = list(log_events(log))
    rounds = iter(log["rounds"])
    round_log: Mapping[str, Any] = {}
    rows: Sequence[Sequence[int]] = ()  # the table as the events leave it (claims are optional)
    turn, section = 0, False
    rules: Rules | None = None
    for event in events:
        if section and not isinstance(event, CardPlaced | RowTaken):
            parts.append("</section>\n")
            section = False
        if isinstance(event, RoundStarted):
            round_log, turn = next(rounds), 0
            rows = event.rows
        elif isinstance(event, CardPlaced | RowTaken):
            rows = event.rows
        if isinstance(event, CardsRevealed):
            played = round_log["turns"][turn]
            turn += 1
            parts.append(f'<section id="r{event.round}t{turn}">\n<h2>'
                         + html.escape(tr.gettext(_TURN).format(round=event.round, turn=turn))
                         + "</h2>\n")
            pictures = turn_svgs(Table.of(rows), played["plays"], played.get("takes", {}))
            parts.extend(f"<figure>{picture}</figure>\n" for picture in pictures)
            section = True
        if isinstance(event, GameStarted):
            rules = event.rules
        for line in narrate(event, language, rules=rules).splitlines():
            parts.append(f"<p>{html.escape(line)}</p>\n")
    if section:
        parts.append("</section>\n")
    parts.append("</body>\n</html>\n")
    return "".join(parts)
