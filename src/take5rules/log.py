"""Game logs: the ``take5-log`` format, version 1, written from the engine's events.

A take5-log is a JSON document any implementation can write and :mod:`take5rules.validate`
can check. It records the variant, the threshold and the seats; then, round by round, the four
starting rows, the hands as dealt (or drafted, with every pick in the logic variant) and the
turns: each player's card and, for a low card, the row its player took. Everything else the log
may say (the rows after a turn, the cards taken, the penalties, the totals, the winners) is a
*claim*: optional, and checked when present. The JSON Schema ships with the package
(:func:`schema`, ``take5rules/schemas/take5-log-1.schema.json``); members whose names start with
``x-`` are extensions that validators ignore.

:class:`LogWriter` turns the events of :func:`take5rules.engine.play_game` into a log:

>>> from take5rules.engine import play_game
>>> from take5rules.players import CautiousPlayer, LowestCardPlayer
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

import errno
import json
import os
import sys
from collections.abc import Iterable, Mapping
from functools import cache
from importlib import resources
from pathlib import Path
from typing import Any

from ._logread import (
    FORMAT,
    MAX_LOG_BYTES,
    VERSION,
    check_document,
    decode_utf8,
    parse_json,
    read_capped,
)
from ._text import N_, os_reason
from .errors import LogError, RulesError
from .events import (
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
from .variants import Rules, Variant

__all__ = [
    "FORMAT",
    "LOGGED_VARIANTS",
    "MAX_LOG_BYTES",
    "VERSION",
    "LogError",
    "LogWriter",
    "check_format",
    "check_loggable",
    "dumps",
    "load",
    "loads",
    "log_from_events",
    "schema",
    "write_log",
]

#: The variants a version-1 log can record (the tournament has no log format yet).
LOGGED_VARIANTS = (Variant.STANDARD, Variant.TACTICS, Variant.LOGIC)

_SCHEMA_FILE = "take5-log-1.schema.json"
#: The turns of a whole round.
_TURNS = 10
#: The longest object :func:`dumps` writes on one line.
_SHORT = 72


def check_loggable(rules: Rules) -> Rules:
    """Check that a take5-log of version 1 can record a game under *rules*; return them.

    >>> check_loggable(Rules(Variant.LOGIC)).variant.value
    'logic'
    """
    if rules.variant not in LOGGED_VARIANTS:
        raise RulesError(
            "variants.tournament",
            N_("the {variant} variant has no take5-log format in version 1; a log records a "
               "standard, tactics or logic game"),
            variant=rules.variant.value,
        )
    return rules


@cache
def schema() -> dict[str, Any]:
    """The JSON Schema (draft 2020-12) of take5-log version 1, as shipped in the package.

    >>> schema()["properties"]["format"]["const"]
    'take5-log'
    """
    text = resources.files("take5rules").joinpath("schemas", _SCHEMA_FILE).read_text("utf-8")
    loaded: dict[str, Any] = json.loads(text)
    return loaded


def check_format(document: object) -> dict[str, Any]:
    """Check that *document* is a take5-log of version 1 by the shape its schema gives; return it.

    The rules of the game are not checked here (see :func:`take5rules.validate.validate`), only
    the shape: the members, their types and the format and version. The check is written by
    hand after the JSON Schema (:func:`schema`), and stricter on two points the schema cannot
    express: an integer (a card, row index, score, threshold, version) is written without a
    fraction or exponent (``3``, never ``3.0`` nor ``true``), and a string never holds a lone
    surrogate. The error names the JSON path of the first problem and, where it applies, the
    round, turn and player.

    >>> check_format({"format": "take5-log", "version": 1, "variant": "standard",
    ...               "players": ["ana", "bob"], "rounds": []})["players"]
    ['ana', 'bob']
    >>> check_format({"format": "take5-log", "version": 1, "variant": "standard",
    ...               "players": ["ana", "bob"], "rounds": [{"rows": [[12]], "hands": {},
    ...               "turns": [{"plays": {"ana": "14"}}]}]})
    Traceback (most recent call last):
    ...
    take5rules.errors.LogError: round 1, turn 1, player 'ana': not a take5-log: at \
$.rounds[0].turns[0].plays.ana: "14" is not a whole number written without a decimal point or \
exponent [rule log]
    """
    return check_document(document)


def loads(text: str | bytes) -> object:
    """Parse the JSON text of a log, without checking it; bytes must be UTF-8.

    Every failure is a :class:`LogError`: text that is not JSON, bytes that are not UTF-8
    (surrogates encoded as UTF-8 included), values nested too deeply, numbers too long.

    >>> loads('{"format": "take5-log"}')
    {'format': 'take5-log'}
    >>> loads("{")
    Traceback (most recent call last):
    ...
    take5rules.errors.LogError: not JSON: Expecting property name enclosed in double quotes at \
line 1 column 2 [rule log]
    >>> loads("1" * 5000)
    Traceback (most recent call last):
    ...
    take5rules.errors.LogError: not JSON: a number has more than 4300 digits [rule log]
    """
    return parse_json(decode_utf8(text) if isinstance(text, bytes) else text)


def _stdin() -> Any:
    """Standard input as a binary file, or a :class:`LogError` when it is closed."""
    stream = sys.stdin
    if stream is None:
        raise LogError(N_("cannot read the file: {reason}"), reason=os_reason(errno.EBADF))
    return getattr(stream, "buffer", stream)


def load(path: str | Path) -> object:
    """Read and parse the JSON file at *path* (``-`` is standard input), without checking it.

    At most :data:`MAX_LOG_BYTES` are read. Raises :class:`LogError` when the file cannot be
    read, is larger, or is not JSON in UTF-8.
    """
    name = str(path)
    try:
        if name == "-":
            stream = _stdin()
            data = read_capped(stream.read)
        else:
            with Path(path).open("rb") as handle:
                data = read_capped(handle.read)
    except OSError as error:
        raise LogError(N_("cannot read the file: {reason}"),
                       reason=os_reason(error)) from None
    return loads(data) if isinstance(data, bytes) else parse_json(data)


def _flat(value: object) -> bool:
    """Whether *value* is a scalar or a list of scalars."""
    if isinstance(value, list):
        return all(not isinstance(item, dict | list) for item in value)
    return not isinstance(value, dict)


def _inline(value: object) -> bool:
    """Whether *value* is written on one line.

    Scalars, lists of flat values (cards, rows, picks), and short objects of flat values
    (a turn's plays, takes and cards taken) are.
    """
    if isinstance(value, list):
        return all(_flat(item) for item in value)
    if isinstance(value, dict):
        return all(_flat(item) for item in value.values()) and len(
            json.dumps(value, ensure_ascii=False)) <= _SHORT
    return True


def dumps(document: object, indent: int = 0) -> str:
    """JSON text of a log: objects indented, lists of cards and rows kept on one line.

    >>> print(dumps({"rows": [[12], [37, 40]], "turns": [{"plays": {"ana": 14, "bob": 5}}]}))
    {
      "rows": [[12], [37, 40]],
      "turns": [
        {
          "plays": {"ana": 14, "bob": 5}
        }
      ]
    }
    """
    pad = "  " * (indent + 1)
    if isinstance(document, dict) and not _inline(document):
        items = [
            f"{pad}{json.dumps(key, ensure_ascii=False)}: {dumps(value, indent + 1)}"
            for key, value in document.items()
        ]
        return "{\n" + ",\n".join(items) + "\n" + "  " * indent + "}"
    if isinstance(document, list) and not _inline(document):
        items = [f"{pad}{dumps(item, indent + 1)}" for item in document]
        return "[\n" + ",\n".join(items) + "\n" + "  " * indent + "]"
    return json.dumps(document, ensure_ascii=False)


def check_writable(path: str | Path) -> None:
    """Check, before a game is played, that its log can be written to *path*.

    >>> check_writable("/no/such/folder/game.json")
    Traceback (most recent call last):
    ...
    take5rules.errors.LogError: cannot write /no/such/folder/game.json: no such file or \
directory [rule log]
    """
    if str(path) == "-":
        return
    target = Path(path)
    folder = target.parent if str(target.parent) else Path(".")
    problem = None
    if not folder.is_dir():
        problem = errno.ENOENT
    elif target.is_dir():
        problem = errno.EISDIR
    elif not os.access(target if target.exists() else folder, os.W_OK):
        problem = errno.EACCES
    if problem is not None:
        raise LogError(N_("cannot write {source}: {reason}"), source=str(path),
                       reason=os_reason(problem))


def write_log(log: Mapping[str, Any], path: str | Path) -> None:
    """Write *log* as JSON text (see :func:`dumps`) to *path* (``-`` is standard output)."""
    text = dumps(dict(log)) + "\n"
    if str(path) == "-":
        sys.stdout.write(text)
        return
    try:
        Path(path).write_text(text, encoding="utf-8")
    except OSError as error:
        raise LogError(N_("cannot write {source}: {reason}"), source=str(path),
                       reason=os_reason(error)) from None


class LogWriter:
    """Build a take5-log from the engine's events, one event at a time.

    Feed it every event of :func:`take5rules.engine.play_game` with :meth:`add`; :meth:`log`
    gives the log so far. A log taken before the game is over records a game in progress: it
    holds only whole turns, and no winners. With ``claims=False`` the log holds only what the
    rules cannot compute (rows, hands, draft, plays and takes).

    >>> from take5rules.events import GameStarted
    >>> writer = LogWriter()
    >>> writer.add(GameStarted(Rules(Variant.TOURNAMENT), ("ana", "bob")))
    Traceback (most recent call last):
    ...
    take5rules.errors.RulesError: the tournament variant has no take5-log format in version 1; \
a log records a standard, tactics or logic game [rule variants.tournament]
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
            check_loggable(event.rules)
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
        if self._rules is not None and self._rules.drafted:
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
        whole = sum(1 for entry in rounds if len(entry["turns"]) == _TURNS)
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

