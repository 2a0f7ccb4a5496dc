"""A saved game told again: the events of a take5-log, narrated or drawn turn by turn.

:func:`log_events` replays a checked log through the engine (:func:`take5rules.playing.engine.
play_round` with players that answer what the log says), so that the events are the engine's
own, and :func:`take5rules.text.narrate` tells them in any language. :func:`log_html` draws the
game as one web page: for every turn, its narration and the pictures of
:func:`take5rules.text.pictures.turn_svgs` (the same pictures as the documentation).

A game can also be told as one seat saw it (:mod:`take5rules.logs.seat_view`):
:func:`seat_events` gives the events of a seat view, or of a log cut to one seat, each
:class:`~take5rules.events.RoundStarted` holding that seat's hand alone, and
:func:`narrate_seen` tells the other hands as hidden.

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

from take5rules._messages import N_, Nn_
from take5rules.errors import LogError, MalformedInputError
from take5rules.events import (
    CardDrafted,
    CardPlaced,
    CardsRevealed,
    Event,
    GameOver,
    GameStarted,
    RoundScored,
    RoundStarted,
    RowTaken,
)
from take5rules.logs.seat_view import is_seat_view, seat_view, stand_in_log
from take5rules.logs.structure import brief
from take5rules.logs.validator import validate
from take5rules.playing.engine import play_round
from take5rules.playing.players import CardView, DraftView, RowChoice
from take5rules.table import Table
from take5rules.text import narrate, translator
from take5rules.text.pictures import turn_svgs
from take5rules.variants import DEFAULT_THRESHOLD, Rules, Variant

__all__ = ["log_events", "log_html", "narrate_seen", "seat_events"]

_INVALID = N_("this log breaks a rule ({rule}, at {path}); `take5rules validate` says more")
_TURN = N_("Round {round}, turn {turn}")
_TITLE = N_("A game of Take 5")
_SEAT_TITLE = N_("A game of Take 5, as {seat} saw it")
_VIEW_INVALID = N_("this seat view breaks a rule ({rule}, at {path})")
_OTHER_SEAT = N_("this is what {own} saw of the game; it cannot tell what {seat} saw")
_HIDDEN = Nn_("{player}'s {count} card is hidden.", "{player}'s {count} cards are hidden.")


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


def _checked(document: object, message: str = _INVALID) -> dict[str, Any]:
    """*document* if it is a valid take5-log; else a :class:`LogError` naming its first fault."""
    report = validate(document)
    if not report.valid:
        first = report.violations[0]
        raise LogError(message, rule=first.rule, path=first.path)
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
    return _replayed(_checked(document))


def _replayed(log: Mapping[str, Any]) -> Iterator[Event]:
    """The events of the checked take5-log *log*."""
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
        # Each round is played from totals of 0 and the log's totals added after: the engine
        # takes up a round by the standard threshold, which a tournament's totals (and those
        # of a higher agreed threshold) pass before the game is over.
        events = play_round(scripts, number, Table.of(round_log["rows"]), hands,
                            dict.fromkeys(players, 0))
        while True:
            try:
                event = next(events)
            except StopIteration:
                break
            except _LogEndsError:  # a round in progress: the log stops here
                return
            if isinstance(event, RoundScored):
                totals = {player: totals[player] + event.penalties[player] for player in players}
                event = RoundScored(event.round, event.penalties, totals)
            yield event
    if rules.variant is Variant.TOURNAMENT or log.get("winners") is not None:
        from take5rules._kernel import lowest

        yield GameOver(len(log["rounds"]), totals, lowest(totals))


def _seat_replay(document: object, seat: str | None) -> tuple[dict[str, Any], Iterator[Event]]:
    """A seat view and its events, the other hands left out.

    The view is *document*, or the view of the log *document* from *seat*; it is checked by
    every rule through its stand-in log.
    """
    if is_seat_view(document):
        assert isinstance(document, dict)
        own = document.get("seat")
        if seat is not None and isinstance(own, str) and seat != own:
            raise MalformedInputError(
                "argument", _OTHER_SEAT, own=brief(own),
                seat=brief(seat) if isinstance(seat, str) else repr(seat)[:40])
        stand_in = stand_in_log(document)  # checks the view's shape first
        view: dict[str, Any] = document
    else:
        view = seat_view(document, seat)
        stand_in = stand_in_log(view)
    seen: str = view["seat"]
    events = _replayed(_checked(stand_in, _VIEW_INVALID))
    return view, (RoundStarted(event.round, event.rows, {seen: event.hands[seen]})
                  if isinstance(event, RoundStarted) else event for event in events)


def seat_events(document: object, seat: str | None = None) -> Iterator[Event]:
    """The events of a game as one seat saw them: each round's start holds its hand alone.

    *document* is a seat view (:mod:`take5rules.logs.seat_view`; *seat*, if given, must be
    its seat), or a take5-log told as the player *seat* saw it. The view is checked by every
    rule through :func:`~take5rules.logs.seat_view.stand_in_log`; one that breaks a rule raises
    :class:`~take5rules.errors.LogError`, and a *seat* that is not the game's (or not the
    view's) :class:`~take5rules.errors.MalformedInputError`. Every other event is the game's
    own: the draft, the cards revealed, placed and taken, the scores.

    >>> from take5rules import CautiousPlayer, LowestCardPlayer, play_game
    >>> from take5rules.events import RoundStarted
    >>> from take5rules.logs.writer import log_from_events
    >>> events = list(play_game({"ana": CautiousPlayer(), "bob": LowestCardPlayer()}, seed=5))
    >>> seen = list(seat_events(log_from_events(events), "bob"))
    >>> [list(event.hands) for event in seen if isinstance(event, RoundStarted)][0]
    ['bob']
    >>> [e for e in seen if not isinstance(e, RoundStarted)] == [
    ...     e for e in events if not isinstance(e, RoundStarted)]
    True
    """
    yield from _seat_replay(document, seat)[1]


def narrate_seen(event: Event, language: str = "en", players: Sequence[str] = (), *,
                 rules: Rules | None = None) -> str:
    """*event* told in *language* (:func:`take5rules.text.narrate`), hidden hands said so.

    A round's start that holds fewer hands than *players* (as :func:`seat_events` gives it)
    says, for each player whose hand it leaves out, that so many cards are hidden; every hand
    holds as many cards at the start of a round. Any other event is told as
    :func:`~take5rules.text.narrate` tells it.

    >>> event = RoundStarted(1, ((3,), (24,), (58,), (96,)), {"ana": (5, 17)})
    >>> print(narrate_seen(event, "en", ["ana", "bob"]))
    Round 1. The four rows start with 3, 24, 58, and 96.
    ana holds 5 and 17.
    bob's 2 cards are hidden.
    """
    text = narrate(event, language, rules=rules)
    if not isinstance(event, RoundStarted):
        return text
    hidden = [player for player in players if player not in event.hands]
    if not hidden:
        return text
    tr = translator(language)
    count = len(next(iter(event.hands.values()), ()))
    return "\n".join([text, *(tr.ngettext(_HIDDEN, count).format(
        player=player, count=tr.number(count)) for player in hidden)])


def log_html(document: object, language: str = "en", seat: str | None = None) -> str:
    """The game of *document* as one HTML page: each turn's narration and pictures.

    *document* is a take5-log, or a seat view; with *seat* (or for a seat view) the page
    shows what that seat saw (see :func:`seat_events`): the other hands are hidden.
    """
    tr = translator(language)
    players: Sequence[str] = ()
    if seat is None and not is_seat_view(document):
        log = _checked(document)
        events = list(_replayed(log))
        title = tr.gettext(_TITLE)
    else:
        log, told = _seat_replay(document, seat)
        events = list(told)
        players = log["players"]
        title = tr.gettext(_SEAT_TITLE).format(seat=log["seat"])
    parts = [f'<!DOCTYPE html>\n<html lang="{html.escape(language)}">\n<head>\n'
             f'<meta charset="utf-8"/>\n<title>{html.escape(title)}</title>\n'
             "<style>body{font-family:sans-serif;max-width:60rem;margin:auto;padding:1rem}"
             "figure{display:inline-block;vertical-align:top;margin:.3rem}svg{max-width:100%;height:auto}"
             "p{margin:.2rem 0}</style>\n</head>\n<body>\n"
             f"<h1>{html.escape(title)}</h1>\n"]
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
        for line in narrate_seen(event, language, players, rules=rules).splitlines():
            parts.append(f"<p>{html.escape(line)}</p>\n")
    if section:
        parts.append("</section>\n")
    parts.append("</body>\n</html>\n")
    return "".join(parts)
