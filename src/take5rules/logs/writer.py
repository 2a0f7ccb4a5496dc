"""Writing take5-logs from the engine's events: :class:`LogWriter` and :func:`log_from_events`.

>>> from take5rules.playing.engine import play_game
>>> from take5rules.playing.players import CautiousPlayer, LowestCardPlayer
>>> log = log_from_events(play_game({"ana": CautiousPlayer(), "bob": LowestCardPlayer()}, seed=3))
>>> log["format"], log["version"], log["variant"], log["players"]
('take5-log', 1, 'standard', ['ana', 'bob'])
>>> first = log["rounds"][0]
>>> len(first["rows"]), len(first["hands"]["ana"]), len(first["turns"])
(4, 10, 10)
>>> list(first["turns"][0])
['plays', 'takes', 'rows_after', 'taken']
>>> log["winners"] == [min(log["totals"], key=log["totals"].__getitem__)]
True
"""

from __future__ import annotations

import json
from collections.abc import Iterable, Mapping
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
    LowCardTaken,
    RoundScored,
    RoundStarted,
    RowTaken,
)
from take5rules.logs.format import FORMAT, VERSION, drafts_round
from take5rules.setup import HAND_SIZE
from take5rules.variants import Rules

__all__ = ["LogWriter", "log_from_events"]


class LogWriter:
    """Build a take5-log from the engine's events, one event at a time.

    Feed it every event of :func:`take5rules.playing.engine.play_game` with :meth:`add`; :meth:`log`
    gives the log so far. A log taken before the game is over records a game in progress: it
    holds only whole turns, and no winners. With ``claims=False`` the log holds only what the
    rules cannot compute (rows, hands, draft, plays and takes).

    A tournament is logged as one round per game: the draft in the first, the hands passed
    on in the others.

    >>> from take5rules.playing.engine import play_game
    >>> from take5rules.playing.players import CautiousPlayer, LowestCardPlayer
    >>> from take5rules.variants import Rules, Variant
    >>> log = log_from_events(play_game({"ana": CautiousPlayer(), "bob": LowestCardPlayer()},
    ...                                 Rules(Variant.TOURNAMENT), seed=3))
    >>> len(log["rounds"]), ["draft" in entry for entry in log["rounds"]]
    (2, [True, False])
    >>> log["rounds"][1]["hands"]["bob"] == log["rounds"][0]["hands"]["ana"]
    True
    """

    def __init__(self, *, claims: bool = True) -> None:
        self.claims = claims
        self._rules: Rules | None = None
        self._players: tuple[str, ...] = ()
        self._rounds: list[dict[str, Any]] = []
        self._picks: list[list[Any]] = []
        self._turn: dict[str, Any] | None = None
        self._expected = 0
        self._placed = 0
        self._totals: dict[str, int] | None = None
        self._scored = 0
        self._winners: list[str] | None = None

    def add(self, event: Event) -> None:
        """Record one event."""
        if isinstance(event, GameStarted):
            self._rules = event.rules
            self._players = tuple(event.players)
        elif isinstance(event, CardDrafted):
            self._picks.append([event.player, event.card])
        elif isinstance(event, RoundStarted):
            self._start_round(event)
        elif isinstance(event, CardsRevealed):
            by_player = dict(event.plays)
            self._turn = {
                "plays": {player: by_player[player] for player in self._seats(by_player)},
                "takes": {},
                "rows_after": [],
                "taken": {},
            }
            self._expected, self._placed = len(event.plays), 0
            self._rounds[-1]["turns"].append(self._turn)
        elif isinstance(event, CardPlaced | RowTaken):
            self._place(event)
        elif isinstance(event, RoundScored):
            self._rounds[-1]["penalties"] = dict(event.penalties)
            self._totals = dict(event.totals)
            self._scored += 1
        elif isinstance(event, GameOver):
            self._totals = dict(event.totals)
            self._winners = list(event.winners)

    def _seats(self, names: Iterable[str]) -> list[str]:
        present = set(names)
        return [player for player in self._players if player in present]

    def _start_round(self, event: RoundStarted) -> None:
        entry: dict[str, Any] = {
            "rows": [list(row) for row in event.rows],
            "hands": {player: list(event.hands[player]) for player in self._seats(event.hands)},
        }
        if self._rules is not None and drafts_round(self._rules, len(self._rounds) + 1):
            entry["draft"] = self._picks
        self._picks = []
        entry["turns"] = []
        self._rounds.append(entry)
        self._turn = None

    def _place(self, event: CardPlaced | RowTaken) -> None:
        turn = self._turn
        if turn is None:
            return
        self._placed += 1
        turn["rows_after"] = [list(row) for row in event.rows]
        if isinstance(event, LowCardTaken):
            turn["takes"][event.player] = event.row
        if isinstance(event, RowTaken):
            turn["taken"][event.player] = [*turn["taken"].get(event.player, []), *event.taken]

    def log(self) -> dict[str, Any]:
        """The take5-log of the events so far (a fresh dict each time)."""
        if self._rules is None:
            raise LogError(N_("no game has started: a log begins with the game's seats"))
        rounds: list[dict[str, Any]] = []
        for index, entry in enumerate(self._rounds):
            turns = entry["turns"]
            if index == len(self._rounds) - 1 and self._turn is not None \
                    and self._placed < self._expected and turns and turns[-1] is self._turn:
                turns = turns[:-1]  # the last turn is not resolved yet
            copied = {key: value for key, value in entry.items() if key != "turns"}
            copied["turns"] = [self._turn_json(turn) for turn in turns]
            if not self.claims:
                copied.pop("penalties", None)
            if "penalties" in copied:
                copied["penalties"] = dict(copied.pop("penalties"))
            rounds.append(json.loads(json.dumps(copied)))
        log: dict[str, Any] = {
            "format": FORMAT,
            "version": VERSION,
            "variant": self._rules.variant.value,
            "threshold": self._rules.threshold,
            "players": list(self._players),
            "rounds": rounds,
        }
        whole = sum(1 for entry in rounds if len(entry["turns"]) == HAND_SIZE)
        if self.claims and self._totals is not None and self._scored == whole:
            log["totals"] = dict(self._totals)  # only once every whole round is scored
        if self.claims and self._winners is not None:
            log["winners"] = list(self._winners)
        return log

    def _turn_json(self, turn: Mapping[str, Any]) -> dict[str, Any]:
        result: dict[str, Any] = {"plays": dict(turn["plays"]), "takes": dict(turn["takes"])}
        if self.claims:
            result["rows_after"] = [list(row) for row in turn["rows_after"]]
            result["taken"] = {player: list(cards) for player, cards in turn["taken"].items()}
        return result


def log_from_events(events: Iterable[Event], *, claims: bool = True) -> dict[str, Any]:
    """The take5-log of a game's events (see :class:`LogWriter`)."""
    writer = LogWriter(claims=claims)
    for event in events:
        writer.add(event)
    return writer.log()
