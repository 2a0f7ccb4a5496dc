"""Game logs: the ``take5-log`` format, version 1: its schema, its shape, reading and writing.

A take5-log is a JSON document any implementation can write and :mod:`take5rules.logs.validator`
can check. It records the variant, the threshold and the seats; then, round by round, the four
starting rows, the hands as dealt (or drafted, with every pick in the logic variant and in the
first game of a tournament) and the turns: each player's card and, for a low card, the row its
player took. In a tournament each game is one round of the log: one draft, then as many games
as players, the hands passed on after each. Everything else the log may say (the rows after a
turn, the cards taken, the penalties, the totals, the winners) is a *claim*: optional, and
checked when present. The JSON Schema ships with the package (:func:`schema`,
``take5rules/logs/schemas/take5-log-1.schema.json``); members whose names start with ``x-`` are
extensions that validators ignore.

:class:`~take5rules.logs.writer.LogWriter` turns the events of
:func:`take5rules.playing.engine.play_game` into a log.
"""

from __future__ import annotations

import errno
import json
import os
import sys
from collections.abc import Mapping
from functools import cache
from importlib import resources
from pathlib import Path
from typing import Any

from take5rules._messages import N_, os_reason
from take5rules.errors import LogError
from take5rules.logs.reader import MAX_LOG_BYTES, decode_utf8, parse_json, read_capped
from take5rules.logs.structure import FORMAT, VERSION, check_document
from take5rules.variants import Rules, Variant

__all__ = [
    "FORMAT",
    "LOGGED_VARIANTS",
    "MAX_LOG_BYTES",
    "VERSION",
    "LogError",
    "binary_stdin",
    "check_format",
    "check_loggable",
    "check_writable",
    "drafts_round",
    "dumps",
    "load",
    "loads",
    "schema",
    "write_log",
]

#: The variants a version-1 log can record: every variant (the tournament since 0.2.0).
LOGGED_VARIANTS = tuple(Variant)

_SCHEMA_FILE = "take5-log-1.schema.json"
#: The longest object :func:`dumps` writes on one line.
_SHORT = 72


def check_loggable(rules: Rules) -> Rules:
    """Check that a take5-log of version 1 can record a game under *rules*; return them.

    Every variant has a log since 0.2.0 (a tournament's games are the rounds of its log).

    >>> check_loggable(Rules(Variant.TOURNAMENT)).variant.value
    'tournament'
    """
    return rules


def drafts_round(rules: Rules, number: int) -> bool:
    """Whether round *number* of a log under *rules* records a draft.

    Every round of the logic variant is drafted; a tournament drafts once, for its first game,
    and passes the hands on after each game.

    >>> [drafts_round(Rules(Variant.TOURNAMENT), n) for n in (1, 2)]
    [True, False]
    >>> drafts_round(Rules(Variant.LOGIC), 2), drafts_round(Rules(), 1)
    (True, False)
    """
    return rules.variant is Variant.LOGIC or (rules.variant is Variant.TOURNAMENT and number == 1)


@cache
def schema() -> dict[str, Any]:
    """The JSON Schema (draft 2020-12) of take5-log version 1, as shipped in the package.

    >>> schema()["properties"]["format"]["const"]
    'take5-log'
    """
    text = resources.files("take5rules.logs").joinpath("schemas", _SCHEMA_FILE).read_text("utf-8")
    loaded: dict[str, Any] = json.loads(text)
    return loaded


def check_format(document: object) -> dict[str, Any]:
    """Check that *document* is a take5-log of version 1 by the shape its schema gives; return it.

    The rules of the game are not checked here (see :func:`take5rules.logs.validator.validate`),
    only
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
exponent [log]
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
line 1 column 2 [log]
    >>> loads("1" * 5000)
    Traceback (most recent call last):
    ...
    take5rules.errors.LogError: not JSON: a number has more than 4300 digits [log]
    """
    return parse_json(decode_utf8(text) if isinstance(text, bytes) else text)


def binary_stdin() -> Any:
    """Standard input as a binary file, or a :class:`LogError` when it is closed.

    The one way a command reads a log from ``-`` (:func:`load`, the validator's stream).
    """
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
            stream = binary_stdin()
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
directory [log]
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
