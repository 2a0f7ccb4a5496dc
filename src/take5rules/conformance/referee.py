r"""The referee line protocol's implementation: a request checked, answered, and served.

The protocol (request, reply, errors, limits) is described where it is imported from,
:mod:`take5rules.conformance.referee`. :func:`parse_request` makes every check of a request once;
:func:`answer` places the cards by the rules' unchecked kernel, :func:`resolve` by
:func:`~take5rules.turn.resolve_turn` (``tests/test_referee.py`` pins the two); :func:`serve`
answers a stream line by line, with bounded memory.

>>> answer({"rows": [[12], [37], [43], [58]], "plays": [["ana", 5]], "choices": {"ana": 0}})
{'rows': [[5], [37], [43], [58]], 'taken': {'ana': [12]}, 'chosen': {'ana': 0}}
"""

from __future__ import annotations

import contextlib
import errno
import json
import os
import re
import sys
from collections.abc import Iterator, Mapping
from typing import IO, Any

from take5rules import _kernel
from take5rules._messages import N_, json_reason, os_reason
from take5rules.cards import HIGHEST, card, cards
from take5rules.errors import MalformedInputError, ProtocolError, Take5Error, Where
from take5rules.table import ROW_COUNT, ROW_LIMIT, Table, trusted_table
from take5rules.turn import MOST_PLAYS, LowCard, TurnResult, resolve_turn

__all__ = [
    "MAX_DEPTH",
    "MAX_LINE_BYTES",
    "answer",
    "answer_line",
    "byte_lines",
    "parse_request",
    "resolve",
    "serve",
]

#: The longest request line the referee reads, in bytes of UTF-8 without the newline. A valid
#: request is a few hundred bytes; a longer line is answered with a ``protocol`` error and the
#: rest of it is skipped without being kept in memory.
MAX_LINE_BYTES = 65_536

#: The deepest nesting of arrays and objects the referee reads. A valid request is nested three
#: levels deep; a deeper line is answered with a ``protocol`` error, the same in every process
#: (it does not depend on how much of Python's stack is free).
MAX_DEPTH = 100

#: A JSON string, to be skipped when counting how deep brackets nest.
_STRING = re.compile(r'"(?:[^"\\]|\\.)*"')
_BRACKETS = re.compile(r"[\[\]{}]")

_FIELDS = frozenset(("rows", "plays", "choices"))

#: What a blank line may hold: ASCII whitespace, as ``bytes.strip`` strips. The referee answers
#: a blank line with a ``protocol`` error, as any line that is not a request: one reply a line.
_BLANK = " \t\n\r\x0b\x0c"

#: How much of stdin is read at once; every complete line read is answered before the next read.
_CHUNK = 65_536

_DECODER = json.JSONDecoder()
_ENCODER = json.JSONEncoder(ensure_ascii=False)
_ASCII_ENCODER = json.JSONEncoder(ensure_ascii=True)


def parse_request(request: object) -> tuple[Table, dict[str, int], dict[str, int]]:
    """Check a request's shape and values; return the table, the plays and the choices.

    Every check of a request happens here, once; the rules then run on checked values. A
    request of plain JSON values that passes every check is taken in one pass
    (:func:`_plain_request`); any other is checked step by step, and the first problem raises
    its error.

    >>> table, plays, choices = parse_request({"rows": [[3], [24], [58], [96]],
    ...                                        "plays": [["ana", 17]]})
    >>> table.last_cards, plays, choices
    ((3, 24, 58, 96), {'ana': 17}, {})
    """
    plain = _plain_request(request)
    return plain if plain is not None else _checked_request(request)


def _plain_request(request: object) -> tuple[Table, dict[str, int], dict[str, int]] | None:
    """What :func:`_checked_request` returns, for a request of plain values that passes it.

    The common case, in one pass and without words: an object with ``rows``, ``plays`` and
    perhaps ``choices``; four lists of one to five ascending ``int`` cards; one to ten
    ``[player, card]`` lists, ASCII player ids each once, ``int`` cards; no card twice; choices
    naming players with an ``int`` row index 0 to 3. For anything else (other types, other
    text, or a problem) it answers ``None`` and :func:`_checked_request` names the problem.
    """
    if type(request) is not dict:
        return None
    rows = request.get("rows")
    played = request.get("plays")
    chosen = request.get("choices")
    if len(request) != (2 if chosen is None else 3) or type(rows) is not list \
            or len(rows) != ROW_COUNT or type(played) is not list \
            or not 0 < len(played) <= MOST_PLAYS:
        return None
    every: list[int] = []
    for row in rows:
        if type(row) is not list or not 0 < len(row) <= ROW_LIMIT:
            return None
        before = 0  # each card an int above the one before it, and from 1 to 104
        for value in row:
            if type(value) is not int or not before < value <= HIGHEST:
                return None
            before = value
        every += row
    plays: dict[str, int] = {}
    for pair in played:
        if type(pair) is not list or len(pair) != 2:
            return None
        player, value = pair
        if type(player) is not str or player in plays or not player.isascii() \
                or type(value) is not int or not 0 < value <= HIGHEST:
            return None
        plays[player] = value
    every += plays.values()
    if len(set(every)) != len(every):  # a card twice
        return None
    choices: dict[str, int] = {}
    if chosen is not None:
        if type(chosen) is not dict:
            return None
        for player, index in chosen.items():
            if player not in plays or type(index) is not int or not 0 <= index < ROW_COUNT:
                return None
            choices[player] = index
    return trusted_table(tuple(map(tuple, rows))), plays, choices


def _checked_request(request: object) -> tuple[Table, dict[str, int], dict[str, int]]:
    """:func:`parse_request`'s checks one by one: the first problem raises its error."""
    if type(request) is not dict and not isinstance(request, Mapping):
        raise ProtocolError(N_("a request is a JSON object with rows, plays and choices"))
    if not _FIELDS.issuperset(request):
        raise ProtocolError(N_("unknown request field {field!r}"),
                            field=sorted(set(request) - _FIELDS, key=repr)[0])
    if "rows" not in request or "plays" not in request:
        raise ProtocolError(N_("a request needs both 'rows' and 'plays'"))
    rows = request["rows"]
    if not isinstance(rows, list) or not all(isinstance(row, list) for row in rows):
        raise ProtocolError(N_("'rows' is a list of four lists of cards"))
    table = Table.of(rows)
    plays_field = request["plays"]
    if not isinstance(plays_field, list) or not 1 <= len(plays_field) <= MOST_PLAYS:
        raise ProtocolError(N_("'plays' is a list of 1 to 10 [player, card] pairs"))
    plays: dict[str, int] = {}
    for pair in plays_field:
        if not (isinstance(pair, list) and len(pair) == 2 and isinstance(pair[0], str)):
            raise ProtocolError(N_("each play is a pair [player, card], not {value!r}"),
                                value=pair)
        player, value = pair
        if player in plays:
            raise ProtocolError(N_("player {player!r} plays twice in one turn"), player=player)
        if not player.isascii():
            _check_text(player)
        # The common case costs one comparison; anything else gets card()'s own error.
        plays[player] = value if type(value) is int and 0 < value <= HIGHEST else card(
            value, Where(player=player))
    on_table = [value for row in table.rows for value in row]
    every = [*on_table, *plays.values()]
    if len(set(every)) != len(every):
        cards(every)  # raises, naming the card that appears twice
    choices_field = request.get("choices", {})
    if type(choices_field) is not dict and not isinstance(choices_field, Mapping):
        raise ProtocolError(N_("'choices' is an object mapping players to row indices"))
    choices: dict[str, int] = {}
    for player, index in choices_field.items():
        if player not in plays:
            raise ProtocolError(N_("'choices' names {player!r}, who plays no card"),
                                player=player)
        if type(index) is not int or not 0 <= index < ROW_COUNT:
            raise ProtocolError(
                N_("the choice of {player!r} is {value!r}; a row index is 0, 1, 2 or 3"),
                player=player,
                value=index,
            )
        choices[player] = index
    return table, plays, choices


def _check_text(player: str) -> None:
    """Refuse a player id that is not Unicode text (a lone surrogate cannot be written out)."""
    try:
        player.encode("utf-8")
    except UnicodeEncodeError:
        raise ProtocolError(
            N_("player id {player!r} is not Unicode text: it holds a lone surrogate"),
            player=player,
        ) from None


def answer(request: object, language: str = "en") -> dict[str, Any]:
    """The reply to one request (already parsed from JSON): the turn resolved, or an error.

    Error messages are in *language*; the rule id is the same in every language.

    :func:`parse_request` makes every check :func:`take5rules.turn.resolve_turn` would make
    (one to ten plays, each a card, no card twice, none already on the table, choices 0..3),
    so the turn is then placed by the rules' unchecked kernel, the code ``resolve_turn`` runs
    after its own checks, without building the placements that only :func:`resolve` reports.
    ``tests/test_referee.py`` pins the two paths to the same reply.

    >>> answer({"rows": [[3, 12], [24], [58, 61, 70], [96]],
    ...         "plays": [["ana", 17], ["bob", 2]], "choices": {"bob": 3}})
    {'rows': [[3, 12, 17], [24], [58, 61, 70], [2]], 'taken': {'bob': [96]}, 'chosen': {'bob': 3}}
    """
    try:
        table, plays, choices = parse_request(request)
        rows = list(table.rows)
        chosen: dict[str, int] = {}

        def choose(player: str, value: int, rows: list[tuple[int, ...]]) -> int:
            row = choices.get(player)
            if row is None:
                raise _no_row_chosen(player, value)
            chosen[player] = row
            return row

        taken = {player: list(pile) for player, _, _, pile, _ in
                 _kernel.placements(rows, _kernel.order(plays.items()), choose) if pile}
    except Take5Error as error:
        return _error_reply(error, language)
    except RecursionError:  # a value nested too deeply to be shown in an error message
        return _error_reply(ProtocolError(N_("the request is nested too deeply")), language)
    return {"rows": [list(row) for row in rows], "taken": taken, "chosen": chosen}


def _no_row_chosen(player: str, value: int) -> MalformedInputError:
    """The error for a low card whose player has no row in the request's ``choices``."""
    return MalformedInputError(
        "table.low-card",
        N_("card {value} of {player!r} is lower than every row's last card, and "
           "'choices' has no row for {player!r}"),
        where=Where(player=player, card=value),
        value=value,
        player=player,
    )


def resolve(request: object, language: str = "en") -> tuple[dict[str, Any], TurnResult | None]:
    """The reply to one request, and the resolved turn it reports (``None`` for an error).

    For callers that need both, such as :mod:`take5rules.conformance.run` counting the rules a turn
    applies, without resolving the turn twice.

    >>> reply, result = resolve({"rows": [[3], [24], [58], [96]], "plays": [["ana", 17]]})
    >>> reply["rows"][0], [placement.rule for _, placement in result.placements]
    ([3, 17], ['table.least-difference'])
    """
    try:
        table, plays, choices = parse_request(request)
        chosen: dict[str, int] = {}

        def choose(choice: LowCard) -> int:
            row = choices.get(choice.player)
            if row is None:
                raise _no_row_chosen(choice.player, choice.card)
            chosen[choice.player] = row
            return row

        result = resolve_turn(table, plays, choose)
    except Take5Error as error:
        return _error_reply(error, language), None
    except RecursionError:  # a value nested too deeply to be shown in an error message
        return _error_reply(ProtocolError(N_("the request is nested too deeply")), language), None
    return {
        "rows": [list(row) for row in result.table.rows],
        "taken": {player: list(taken) for player, taken in result.taken().items()},
        "chosen": chosen,
    }, result


def _error_reply(error: Take5Error, language: str) -> dict[str, Any]:
    return {"error": {"rule": error.rule, "message": _message(error, language)}}


def _message(error: Take5Error, language: str) -> str:
    """*error* worded as every command words it: an id that is no rule is not called one."""
    from take5rules.text import error_message

    return error_message(error, language)


def _parse_line(line: str | bytes) -> object:
    """The JSON value of one request line, or raise :class:`ProtocolError` saying why not."""
    if not (line.strip(_BLANK) if isinstance(line, str) else line.strip()):
        raise ProtocolError(N_("the request line is blank; each line holds one request, a JSON "
                               "object with rows, plays and choices"))
    if len(line) > MAX_LINE_BYTES:
        raise ProtocolError(N_("the request line is longer than {limit} bytes"),
                            limit=MAX_LINE_BYTES)
    if isinstance(line, bytes):
        try:
            line = line.decode("utf-8")
        except UnicodeDecodeError as error:
            raise ProtocolError(N_("the request is not UTF-8 text: byte {position} is invalid"),
                                position=error.start + 1) from None
    if line.count("[") + line.count("{") > MAX_DEPTH and _depth(line) > MAX_DEPTH:
        raise ProtocolError(N_("the request is nested too deeply"))
    try:
        return _DECODER.decode(line)
    except json.JSONDecodeError as error:
        raise ProtocolError(N_("the request is not valid JSON: {reason}"),
                            reason=json_reason(error)
                            ) from None
    except RecursionError:
        raise ProtocolError(N_("the request is nested too deeply")) from None
    except ValueError:  # an integer over Python's digit limit (sys.get_int_max_str_digits)
        raise ProtocolError(N_("the request holds a number too long to read")) from None


def _depth(line: str) -> int:
    """How deep the arrays and objects of *line* nest, outside its strings."""
    depth = deepest = 0
    for bracket in _BRACKETS.findall(_STRING.sub("", line)):
        if bracket in "[{":
            depth += 1
            deepest = max(deepest, depth)
        else:
            depth -= 1
    return deepest


def _reply_text(line: str | bytes, language: str) -> str:
    """The reply line (without newline) to one request line, whatever the line holds."""
    try:
        reply = answer(_parse_line(line), language)
    except ProtocolError as error:
        reply = _error_reply(error, language)
    text = _ENCODER.encode(reply)
    if not text.isascii():
        try:
            text.encode("utf-8")
        except UnicodeEncodeError:  # a lone surrogate that slipped into a message: escape it
            text = _ASCII_ENCODER.encode(reply)
    return text


def answer_line(line: str | bytes, language: str = "en") -> str:
    """The JSON reply line to one JSON request line (text, or bytes that must be UTF-8).

    >>> answer_line("not json")
    '{"error": {"rule": "protocol", "message": "the request is not valid JSON: Expecting value \
at line 1 column 1 [protocol]"}}'
    >>> answer_line(bytes([0xFF]))
    '{"error": {"rule": "protocol", "message": "the request is not UTF-8 text: byte 1 is \
invalid [protocol]"}}'
    >>> answer_line("  ")
    '{"error": {"rule": "protocol", "message": "the request line is blank; each line holds one \
request, a JSON object with rows, plays and choices [protocol]"}}'
    """
    return _reply_text(line, language)


def byte_lines(stream: IO[bytes], limit: int = MAX_LINE_BYTES, *,
               blank: bool = False) -> Iterator[list[bytes]]:
    r"""Batches of complete lines from *stream*: all that one read made available.

    A line longer than *limit* (:data:`MAX_LINE_BYTES`; the MCP server's stdio reader gives its
    own) is cut to its first ``limit + 1`` bytes (enough to be refused as too long) and the rest
    is skipped as it arrives. Blank lines (ASCII whitespace only) are left out unless *blank*
    (the referee answers them; the MCP transport skips them). A last line without its newline
    counts when it holds anything.

    >>> import io
    >>> list(byte_lines(io.BytesIO(b"a\n\n b\n  "), blank=True))
    [[b'a', b'', b' b'], [b'  ']]
    >>> list(byte_lines(io.BytesIO(b"a\n\n b\n  ")))
    [[b'a', b' b']]
    """
    read = getattr(stream, "read1", stream.read)
    pending = b""
    skipping = False
    while True:
        chunk = read(_CHUNK)
        if not chunk:
            break
        lines = chunk.split(b"\n")
        if skipping:  # the rest of an over-long line: dropped, up to its newline
            if len(lines) == 1:
                continue
            skipping = False
            del lines[0]
        else:
            lines[0] = pending + lines[0]
        pending = lines.pop()
        if len(pending) > limit:
            lines.append(pending[:limit + 1])
            pending, skipping = b"", True
        yield lines if blank else [line for line in lines if line.strip()]
    if (pending if blank else pending.strip()) and not skipping:
        yield [pending]


def _text_lines(stream: IO[str]) -> Iterator[list[str]]:
    """Lines of a text stream (no ``buffer``), blank ones included, cut as byte_lines cuts."""
    while True:
        line = stream.readline(MAX_LINE_BYTES + 1)
        if not line:
            return
        if len(line) > MAX_LINE_BYTES and not line.endswith("\n"):
            while True:  # skip the rest of the over-long line
                rest = stream.readline(_CHUNK)
                if not rest or rest.endswith("\n"):
                    break
        yield [line.rstrip("\n")]


def serve(stdin: IO[str] | None, stdout: IO[str] | None, language: str = "en") -> int:
    """Answer every line of *stdin* on *stdout*, one reply a line; return the exit status.

    A blank line gets a ``protocol`` error reply, so that a client counting one reply per line
    never waits. The status is 0 at the end of *stdin*, and 0 too when the reader of *stdout*
    went away (a closed pipe, as with ``| head -1``: nothing is said, as every ``take5rules``
    command does); 1 if *stdin* fails; 2 if *stdout* cannot be written (a full disk, a closed
    descriptor), said in one line on stderr.

    The replies to all the lines one read makes available are written and flushed together,
    before the next read; so a client that sends one line and waits gets its reply at once,
    and one that sends many is answered at full speed. When *stdin* and *stdout* have a
    binary ``buffer`` (as ``sys.stdin`` and ``sys.stdout`` do), bytes are read and written
    directly: the locale's encoding does not matter, and a line that is not UTF-8 is answered
    with an error.
    """
    if stdin is None:  # standard input closed (``<&-``): nothing to answer
        return 0
    if stdout is None:  # standard output closed (``>&-``): nowhere to answer
        return 1
    source = getattr(stdin, "buffer", None)
    sink = getattr(stdout, "buffer", None)
    batches: Iterator[list[str] | list[bytes]] = (
        byte_lines(source, blank=True) if source is not None else _text_lines(stdin))
    while True:
        try:
            batch: list[str] | list[bytes] | None = next(batches, None)
        except OSError as error:  # a device or socket that failed
            _report(N_("take5rules referee: the requests could not be read: {reason}"),
                    error, language)
            return 1
        if batch is None:
            return 0
        if not batch:
            continue
        replies = [_reply_text(line, language) for line in batch]
        text = "\n".join(replies) + "\n"
        try:
            if sink is not None:
                stdout.flush()
                sink.write(text.encode("utf-8"))
                sink.flush()
            else:
                stdout.write(text)
                stdout.flush()
        except OSError as error:
            _silence(stdout)
            if error.errno != errno.EPIPE:  # the reader went away: nothing to say, no one to hear
                _report(N_("cannot write the output: {reason}"), error, language)
                return 2
            return 0  # a closed pipe is the reader's choice, not an error of the input


def _silence(stdout: IO[str]) -> None:
    """Point *stdout*'s file at /dev/null, so that no flush at exit fails again."""
    try:
        descriptor = stdout.fileno()
    except (OSError, ValueError, AttributeError):
        return
    null = os.open(os.devnull, os.O_WRONLY)
    try:
        os.dup2(null, descriptor)
    finally:
        os.close(null)


def _report(template: str, error: OSError, language: str) -> None:
    """Say on stderr, in one line, why the referee stops."""
    from take5rules.text import phrase_text

    with contextlib.suppress(OSError, ValueError, AttributeError):
        print(phrase_text(template, language, reason=os_reason(error)),
              file=sys.stderr)
