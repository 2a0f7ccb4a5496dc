"""The take5-player protocol, version 1: any program at the table, in JSON lines.

A table starts a player program, writes messages to its standard input and reads its replies
from its standard output: UTF-8, one JSON object a line, no line over :data:`MAX_LINE` bytes
(its newline included). Every message has a string ``"type"``. The table sends ``hello``
(a request), then for each game ``game``, for each round ``round``, and asks for decisions with
the requests ``card``, ``row`` (a low card's row) and ``draft`` (logic and tournament); it tells
what each turn did (``turn``), each round's score (``score``), the end (``end``), a violation
(``error``) and ``quit``. A program answers each request, in order, with one reply of the same
``type`` and ``id``, or declines it with ``{"type": "error", "message": ...}``. The JSON Schema
of every message is ``schemas/take5-player-1.schema.json`` in this package (:func:`schema`).

This module holds both sides, written once:

* the table's: the builders of the table's messages (:func:`hello_message`,
  :func:`game_message`, :func:`card_request`, ...), :class:`SeatNews`, which turns the events a
  seat may see into the information messages, and the strict readers of the program's replies
  (:func:`read_hello_reply`, :func:`read_card_reply`, :func:`read_row_reply`,
  :func:`read_draft_reply`), which raise :class:`ProtocolViolation`;
* the program's: the parsers of the table's requests into the views a
  :class:`~take5rules.playing.players.Player` reads (:func:`parse_card_request`, ...), the reply
  builders, and :func:`serve`, which seats any player behind standard input and output
  (``take5rules player KIND``).

>>> from take5rules.table import Table
>>> from take5rules.playing.players import CardView
>>> view = CardView(1, 1, Table.of([[12], [37], [43], [58]]), (14, 44), {"ana": 0, "bob": 0})
>>> request = card_request(1, view)
>>> request["type"], request["rows"], request["hand"]
('card', [[12], [37], [43], [58]], [14, 44])
>>> read_card_reply({"type": "card", "id": 1, "card": 44}, 1, view.hand)
44
>>> read_card_reply({"type": "card", "id": 1, "card": 45}, 1, view.hand)
Traceback (most recent call last):
...
take5rules.playing.protocol.ProtocolViolation: illegal: the program answered card 45, which is \
not in its hand [rule turn.reveal]
"""

from __future__ import annotations

import importlib
import json
from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass
from functools import cache
from importlib import resources
from typing import IO, Any, Final

from take5rules._messages import N_, Phrase, json_reason, shown
from take5rules.cards import Card
from take5rules.errors import Take5Error
from take5rules.events import (
    CardPlaced,
    CardsRevealed,
    Event,
    GameOver,
    GameStarted,
    RoundScored,
    RoundStarted,
    RowTaken,
)
from take5rules.playing.players import (
    CardView,
    DraftView,
    Player,
    RowChoice,
    check_draft_view,
    check_view,
)
from take5rules.table import Table
from take5rules.variants import Rules, Variant

__all__ = [
    "KINDS",
    "MAX_LINE",
    "PROTOCOL",
    "QUIT",
    "REQUESTS",
    "GameInfo",
    "Hello",
    "PlayerServer",
    "ProtocolViolation",
    "SeatNews",
    "card_reply",
    "card_request",
    "decode",
    "draft_reply",
    "draft_request",
    "encode",
    "end_message",
    "error_message",
    "game_clock",
    "game_message",
    "hello_message",
    "hello_reply",
    "messages_for",
    "move_clock",
    "parse_card_request",
    "parse_draft_request",
    "parse_game",
    "parse_hello",
    "parse_row_request",
    "read_card_reply",
    "read_draft_reply",
    "read_hello_reply",
    "read_row_reply",
    "request_id",
    "round_message",
    "row_reply",
    "row_request",
    "schema",
    "score_message",
    "serve",
    "turn_message",
]

#: The version of the protocol this module speaks.
PROTOCOL: Final = 1

#: The longest line either side may write, in bytes, its newline included (64 KiB).
MAX_LINE: Final = 65_536

#: The message that tells a program to stop.
QUIT: Final[dict[str, str]] = {"type": "quit"}

#: The requests: the messages a program must answer, each with the reply's fields.
REQUESTS: Final = {"hello": ("type", "protocol", "name", "author", "variants"),
                   "card": ("type", "id", "card"),
                   "row": ("type", "id", "row"),
                   "draft": ("type", "id", "card")}

#: The kinds of violation the readers (and the table) name: a reply not of the protocol's
#: shape, a legal shape with an answer the rules refuse, a program that declined.
KINDS: Final = ("malformed", "illegal", "declined")

#: The longest name and author a program's hello may give, in characters.
_NAME_LIMIT = 64

#: The rule ids an illegal answer names, as the engine names them.
_CARD_RULE, _ROW_RULE, _DRAFT_RULE = "turn.reveal", "table.low-card", "variants.logic"

_SCHEMA_FILE = "take5-player-1.schema.json"

# The readers' messages: what the program answered, and why the table refuses it.
_NOT_UTF8 = N_("the line is not UTF-8 text: byte {position} is invalid")
_NOT_JSON = N_("the line is not JSON: {reason}")
_TOO_DEEP = N_("the line is nested too deeply")
_TOO_LONG_NUMBER = N_("the line holds a number too long to read")
_NOT_A_NUMBER = N_("the line holds {value}, which is not a number of JSON")
_TWICE = N_("the object has the member {field!r} twice")
_TOO_LONG = N_("the line is longer than {limit} bytes")
_NOT_OBJECT = N_("the message is {value}, not a JSON object")
_NO_TYPE = N_("the message has no \"type\" that is a string")
_WRONG_TYPE = N_("the program answered a {got!r} message to the {expected!r} request")
_MISSING = N_("the {type!r} reply has no {field!r}")
_UNKNOWN = N_("the {type!r} reply has the unknown field {field!r}")
_WRONG_ID = N_("the {type!r} reply has the id {got}, not the request's id {expected}")
_NOT_INTEGER = N_("the {type!r} reply has {field!r} = {value}, not a whole number")
_NOT_TEXT = N_("the {type!r} reply has {field!r} = {value}, not a string")
_DECLINED = N_("the program declined: {message!r}")
_NOT_IN_HAND = N_("the program answered card {card}, which is not in its hand [rule {rule}]")
_NOT_A_ROW = N_("the program answered row {row}, but the rows are 0 to 3 [rule {rule}]")
_NOT_IN_POOL = N_("the program answered card {card}, which is not among the face-up cards left "
                  "to draft [rule {rule}]")
_OTHER_PROTOCOL = N_("the program speaks protocol {got}, the table speaks protocol {expected}")
_BAD_NAME = N_("the hello's name {value} is not 1 to 64 characters")
_BAD_AUTHOR = N_("the hello's author {value} is more than 64 characters")
_BAD_VARIANTS = N_("the hello's variants {value} are not a non-empty list of distinct variant "
                   "names (standard, tactics, logic, tournament)")
# The program side's messages: a table message it cannot use.
_BAD_FIELD = N_("the {type!r} message has {field!r} = {value}, not {expected}")
_BAD_VIEW = N_("the {type!r} message shows what no game can show: {reason}")
_NO_PLAYER = N_("the player could not decide: {reason}")
_CANNOT_SPEAK = N_("this program speaks protocol {expected}, not {got}")
_UNEXPECTED = N_("the {type!r} message needs a game: no game message came before it")

# What a field of a table message must be (the program side's messages).
_A_NUMBER = N_("a whole number")
_A_TEXT = N_("a string")
_A_CARD = N_("a card from 1 to 104")
_CARDS = N_("a list of cards from 1 to 104")
_NAMES = N_("a list of names")
_ROWS = N_("four rows of cards")
_TOTALS = N_("an object of names to whole numbers")
_TAKEN = N_("an object of names to lists of cards")
_PLAYS = N_("a list of [name, card] pairs")
_TURNS = N_("a list of turns of [name, card] pairs")
_RULES = N_("the rules: a variant and a threshold")


class ProtocolViolation(Exception):  # noqa: N818 -- the spec's name: a violation, not an error
    """A message that breaks the take5-player protocol: its *kind*, and a *detail* saying how.

    *kind* is ``malformed`` (not a JSON object of the message's shape: a missing, unknown or
    mistyped field, a wrong ``type`` or ``id``), ``illegal`` (a legal shape whose answer the
    rules refuse: the detail names the rule id as the engine does, ``turn.reveal``,
    ``table.low-card`` or ``variants.logic``) or ``declined`` (the program answered with an
    ``error`` message, which the detail quotes). *detail* is a translatable
    :class:`~take5rules._messages.Phrase` (English when printed).

    >>> violation = ProtocolViolation("malformed", Phrase(_NOT_OBJECT, value=[]))
    >>> violation.kind, str(violation.detail)
    ('malformed', 'the message is [], not a JSON object')
    """

    kind: str
    detail: Phrase | str

    def __init__(self, kind: str, detail: Phrase | str, /) -> None:
        self.kind = kind
        self.detail = detail
        super().__init__(kind, detail)

    def __str__(self) -> str:
        return f"{self.kind}: {self.detail}"


def _violation(kind: str, template: str, /, **params: object) -> ProtocolViolation:
    return ProtocolViolation(kind, Phrase(template, **params))


@dataclass(frozen=True, slots=True)
class Hello:
    """A program's answer to ``hello``: the protocol, its name and author, its variants."""

    protocol: int
    name: str
    author: str
    variants: tuple[Variant, ...]


@dataclass(frozen=True, slots=True)
class GameInfo:
    """A ``game`` message as a program reads it: which game, which seat, which rules, which seed.

    *clock* is the message's ``clock`` (``move_ms`` and ``game_ms``, in ms, each ``None`` when
    there is no such limit), or ``None`` when the table keeps no time.
    """

    game: int
    seat: str
    players: tuple[str, ...]
    rules: Rules
    seed: int | None
    clock: Mapping[str, int | None] | None = None


@cache
def schema() -> dict[str, Any]:
    """The JSON Schema (draft 2020-12) of every take5-player message, as shipped in the package.

    One entry of ``$defs`` per message, both directions (the table's ``card`` request is
    ``card``, the program's reply ``card-reply``).

    >>> schema()["$defs"]["row-reply"]["required"]
    ['type', 'id', 'row']
    """
    text = resources.files("take5rules.playing").joinpath("schemas", _SCHEMA_FILE).read_text(
        "utf-8")
    loaded: dict[str, Any] = json.loads(text)
    return loaded


# --- Lines ----------------------------------------------------------------------------------


def _no_constant(value: str) -> object:
    raise ValueError(value)  # NaN, Infinity, -Infinity: not JSON numbers


def _pairs(pairs: list[tuple[str, Any]]) -> dict[str, Any]:
    result = dict(pairs)
    if len(result) != len(pairs):
        seen: set[str] = set()
        for key, _ in pairs:
            if key in seen:
                raise _violation("malformed", _TWICE, field=shown(key))
            seen.add(key)
    return result


_DECODER = json.JSONDecoder(object_pairs_hook=_pairs, parse_constant=_no_constant)


def decode(line: bytes | str) -> dict[str, Any]:
    r"""The JSON object of one protocol *line* (its newline optional), with a string ``type``.

    Anything else raises :class:`ProtocolViolation` of kind ``malformed``: a line over
    :data:`MAX_LINE` bytes, bytes that are not UTF-8, text that is not JSON (``NaN`` and
    ``Infinity`` are not), an object with a member twice, a value that is not an object, an
    object without a string ``type``; never another exception, whatever the line holds.

    >>> decode(b'{"type": "card", "id": 3, "card": 57}\n')
    {'type': 'card', 'id': 3, 'card': 57}
    >>> decode("[]")
    Traceback (most recent call last):
    ...
    take5rules.playing.protocol.ProtocolViolation: malformed: the message is [], not a JSON object
    """
    size = len(line) if isinstance(line, bytes) else len(line.encode("utf-8", "surrogatepass"))
    if size > MAX_LINE:
        raise _violation("malformed", _TOO_LONG, limit=MAX_LINE)
    if isinstance(line, bytes):
        try:
            line = line.decode("utf-8")
        except UnicodeDecodeError as error:
            raise _violation("malformed", _NOT_UTF8, position=error.start + 1) from None
    try:
        value = _DECODER.decode(line)
    except ProtocolViolation:
        raise
    except json.JSONDecodeError as error:
        raise _violation("malformed", _NOT_JSON, reason=json_reason(error)) from None
    except RecursionError:
        raise _violation("malformed", _TOO_DEEP) from None
    except ValueError as error:  # NaN, or an integer over Python's digit limit
        if error.args and error.args[0] in ("NaN", "Infinity", "-Infinity"):
            raise _violation("malformed", _NOT_A_NUMBER, value=error.args[0]) from None
        raise _violation("malformed", _TOO_LONG_NUMBER) from None
    if not isinstance(value, dict):
        raise _violation("malformed", _NOT_OBJECT, value=shown(value))
    if not isinstance(value.get("type"), str):
        raise _violation("malformed", _NO_TYPE)
    return value


def encode(message: Mapping[str, Any]) -> bytes:
    r"""*message* as one protocol line: compact JSON, UTF-8, with its newline.

    A text that UTF-8 cannot hold (a lone surrogate read from a message) is written escaped.

    >>> encode({"type": "row", "id": 8, "row": 2})
    b'{"type":"row","id":8,"row":2}\n'
    """
    text = json.dumps(message, ensure_ascii=False, separators=(",", ":"))
    try:
        return text.encode("utf-8") + b"\n"
    except UnicodeEncodeError:
        return json.dumps(message, separators=(",", ":")).encode("ascii") + b"\n"


# --- The table's messages -------------------------------------------------------------------


def _table_name() -> str:
    """``take5rules`` and its version (the package's ``__version__``)."""
    return f"take5rules {importlib.import_module('take5rules').__version__}"


def hello_message(table: str | None = None) -> dict[str, Any]:
    """The table's first message, a request: the protocol and the table's name.

    >>> hello_message("my table 1.0")
    {'type': 'hello', 'protocol': 1, 'table': 'my table 1.0'}
    """
    return {"type": "hello", "protocol": PROTOCOL,
            "table": _table_name() if table is None else table}


def game_clock(move_ms: int | None = None, game_ms: int | None = None
               ) -> dict[str, int | None] | None:
    """The ``clock`` of a ``game`` message: the limits in ms, ``None`` when there is neither.

    >>> game_clock(10_000), game_clock()
    ({'move_ms': 10000, 'game_ms': None}, None)
    """
    if move_ms is None and game_ms is None:
        return None
    return {"move_ms": move_ms, "game_ms": game_ms}


def move_clock(move_ms: int | None = None, game_ms_left: int | None = None
               ) -> dict[str, int | None] | None:
    """The ``clock`` of a request: the move's limit and what is left of the game's, in ms.

    >>> move_clock(10_000, 52_000)
    {'move_ms': 10000, 'game_ms_left': 52000}
    """
    if move_ms is None and game_ms_left is None:
        return None
    return {"move_ms": move_ms, "game_ms_left": game_ms_left}


def game_message(
    game: int,
    seat: str,
    players: Sequence[str],
    rules: Rules,
    seed: int | None,
    clock: Mapping[str, int | None] | None = None,
) -> dict[str, Any]:
    """The ``game`` message: the program's *game*-th game (from 1) begins, at *seat*.

    *rules* are written as the take5-log writes them (``variant`` and ``threshold``); *seed* is
    the seed the table gives this seat for this game (or ``None``); *clock* as
    :func:`game_clock` makes it.

    >>> game_message(1, "ana", ["ana", "bob"], Rules(), 7, game_clock(10_000))["rules"]
    {'variant': 'standard', 'threshold': 66}
    """
    return {"type": "game", "game": game, "seat": seat, "players": list(players),
            "rules": {"variant": rules.variant.value, "threshold": rules.threshold},
            "seed": seed, "clock": None if clock is None else dict(clock)}


def _rows(rows: Iterable[Iterable[Card]]) -> list[list[Card]]:
    return [list(row) for row in rows]


def _plays(plays: Iterable[tuple[str, Card]]) -> list[list[Any]]:
    return [[player, card] for player, card in plays]


def _taken(taken: Mapping[str, Iterable[Card]]) -> dict[str, list[Card]]:
    return {player: list(cards) for player, cards in taken.items()}


def round_message(
    round: int,
    rows: Iterable[Iterable[Card]],
    hand: Iterable[Card],
    totals: Mapping[str, int],
) -> dict[str, Any]:
    """The ``round`` message: the round's starting *rows*, the seat's *hand* and the *totals*.

    >>> round_message(1, [(12,), (37,), (43,), (58,)], (3, 9), {"ana": 0})["rows"]
    [[12], [37], [43], [58]]
    """
    return {"type": "round", "round": round, "rows": _rows(rows), "hand": list(hand),
            "totals": dict(totals)}


def card_request(id: int, view: CardView,
                 clock: Mapping[str, int | None] | None = None) -> dict[str, Any]:
    """The ``card`` request *id*: choose a card, knowing what *view* shows.

    The fields are those of :class:`~take5rules.playing.players.CardView` but its player (the
    ``game`` message named the seat): lists for tuples, ``rows`` for the table; *clock* as
    :func:`move_clock` makes it.
    """
    return {"type": "card", "id": id, "round": view.round, "turn": view.turn,
            "rows": _rows(view.table.rows), "hand": list(view.hand), "totals": dict(view.totals),
            "revealed": [_plays(turn) for turn in view.revealed], "taken": _taken(view.taken),
            "start": _rows(view.start), "picks": _plays(view.picks),
            "clock": None if clock is None else dict(clock)}


def row_request(id: int, choice: RowChoice,
                clock: Mapping[str, int | None] | None = None) -> dict[str, Any]:
    """The ``row`` request *id*: the seat's low card ``choice.card`` takes a row; which?

    The fields are those of :class:`~take5rules.playing.players.RowChoice` but its player.
    """
    return {"type": "row", "id": id, "card": choice.card, "round": choice.round,
            "turn": choice.turn, "rows": _rows(choice.table.rows), "hand": list(choice.hand),
            "totals": dict(choice.totals),
            "revealed": [_plays(turn) for turn in choice.revealed],
            "taken": _taken(choice.taken), "start": _rows(choice.start),
            "picks": _plays(choice.picks), "clock": None if clock is None else dict(clock)}


def draft_request(id: int, view: DraftView,
                  clock: Mapping[str, int | None] | None = None) -> dict[str, Any]:
    """The ``draft`` request *id*: take a face-up card of ``view.pool`` (logic, tournament).

    >>> draft_request(9, DraftView(1, 1, (3, 5, 8), (), "ana"))["pool"]
    [3, 5, 8]
    """
    return {"type": "draft", "id": id, "round": view.round, "pick": view.pick,
            "pool": list(view.pool), "hand": list(view.hand), "picks": _plays(view.picks),
            "totals": dict(view.totals), "clock": None if clock is None else dict(clock)}


def turn_message(
    round: int,
    turn: int,
    plays: Iterable[tuple[str, Card]],
    rows: Iterable[Iterable[Card]],
    taken: Mapping[str, Iterable[Card]],
) -> dict[str, Any]:
    """The ``turn`` message: the *plays* in placement order, the *rows* after, who *taken* what.

    >>> turn_message(1, 3, [("bob", 2), ("ana", 30)], [[2], [37], [43], [58, 30]],
    ...              {"bob": (12, 13)})["taken"]
    {'bob': [12, 13]}
    """
    return {"type": "turn", "round": round, "turn": turn, "plays": _plays(plays),
            "rows": _rows(rows), "taken": _taken(taken)}


def score_message(event: RoundScored) -> dict[str, Any]:
    """The ``score`` message of a round's :class:`~take5rules.events.RoundScored`."""
    return {"type": "score", "round": event.round, "penalties": dict(event.penalties),
            "totals": dict(event.totals)}


def end_message(event: GameOver) -> dict[str, Any]:
    """The ``end`` message of the game's :class:`~take5rules.events.GameOver`."""
    return {"type": "end", "totals": dict(event.totals), "winners": list(event.winners)}


def error_message(text: str, id: int | None = None) -> dict[str, Any]:
    """An ``error`` message: the table's before it stops a program, or a program's decline.

    A program declining a request gives the request's *id* (optional for ``hello``).

    >>> error_message("card 105 is not in the hand [rule turn.reveal]")
    {'type': 'error', 'message': 'card 105 is not in the hand [rule turn.reveal]'}
    >>> error_message("no idea", 7)
    {'type': 'error', 'message': 'no idea', 'id': 7}
    """
    message: dict[str, Any] = {"type": "error", "message": text}
    if id is not None:
        message["id"] = id
    return message


class SeatNews:
    """The information messages one seat may get, from the events of its games.

    Give it every event of a game in order (:meth:`see`): a
    :class:`~take5rules.events.RoundStarted` becomes a ``round`` message with only the seat's
    own hand, a turn's :class:`~take5rules.events.CardsRevealed` and its placements become one
    ``turn`` message once its last card is placed, a
    :class:`~take5rules.events.RoundScored` a ``score`` message, the
    :class:`~take5rules.events.GameOver` an ``end`` message; the other events (the start of the
    game, which the table tells with its own ``game`` message, and the draft's picks, which
    each ``draft`` and ``card`` request shows) make none. The totals a ``round`` message shows
    are those of the last ``score``, or 0 for each seat of the
    :class:`~take5rules.events.GameStarted` before the first (give it that event too: without
    it, the first round names only the seats whose hands its event shows, and a seat's view of
    a :class:`~take5rules.events.RoundStarted`, :func:`~take5rules.events.seen_by`, shows one).

    >>> from take5rules.playing.engine import play_game
    >>> from take5rules.playing.players import CautiousPlayer
    >>> news = SeatNews("ana")
    >>> sent = [message for event in play_game({"ana": CautiousPlayer(), "bob": CautiousPlayer()},
    ...                                        seed=3) for message in news.see(event)]
    >>> [message["type"] for message in sent[:3]], sent[-1]["type"]
    (['round', 'turn', 'turn'], 'end')
    """

    __slots__ = ("_placed", "_plays", "_rows", "_taken", "_totals", "_turn", "seat")

    def __init__(self, seat: str) -> None:
        self.seat = seat
        self._totals: dict[str, int] = {}
        self._plays: tuple[tuple[str, Card], ...] = ()
        self._turn: tuple[int, int] = (0, 0)
        self._placed = 0
        self._rows: tuple[tuple[Card, ...], ...] = ()
        self._taken: dict[str, list[Card]] = {}

    def see(self, event: Event) -> list[dict[str, Any]]:
        """The messages *event* makes for the seat (often none: a turn waits for its end)."""
        if isinstance(event, CardPlaced | RowTaken):
            self._placed += 1
            self._rows = event.rows
            if isinstance(event, RowTaken):
                self._taken.setdefault(event.player, []).extend(event.taken)
            if self._placed != len(self._plays):
                return []
            round_, turn = self._turn
            return [turn_message(round_, turn, self._plays, self._rows, self._taken)]
        if isinstance(event, CardsRevealed):
            self._plays, self._turn = event.plays, (event.round, event.turn)
            self._placed, self._taken = 0, {}
            return []
        if isinstance(event, RoundStarted):
            totals = self._totals or dict.fromkeys(event.hands, 0)
            return [round_message(event.round, event.rows, event.hands.get(self.seat, ()),
                                  totals)]
        if isinstance(event, RoundScored):
            self._totals = dict(event.totals)
            return [score_message(event)]
        if isinstance(event, GameOver):
            return [end_message(event)]
        if isinstance(event, GameStarted):
            self._totals = dict.fromkeys(event.players, 0)
        return []


def messages_for(seat: str, events: Iterable[Event]) -> list[dict[str, Any]]:
    """Every information message *seat* gets from *events* (a game's, in order).

    :class:`SeatNews` does the same one event at a time, as a game goes.
    """
    news = SeatNews(seat)
    return [message for event in events for message in news.see(event)]


# --- The table's readers of replies ---------------------------------------------------------


def _is_int(value: object) -> bool:
    return type(value) is int  # a bool is no whole number of the protocol, nor is 3.0


def _reply(obj: object, expected: str, request: int | None) -> dict[str, Any]:
    """*obj* as a reply of type *expected* to request *request*: fields exactly as they must be.

    An ``error`` reply (with the request's id; optional for ``hello``) is a decline.
    """
    if not isinstance(obj, dict):
        raise _violation("malformed", _NOT_OBJECT, value=shown(obj))
    kind = obj.get("type")
    if not isinstance(kind, str):
        raise _violation("malformed", _NO_TYPE)
    fields: tuple[str, ...]
    if kind == "error":
        fields = ("type", "message", "id")
        optional: tuple[str, ...] = ("id",) if request is None else ()
    elif kind == expected:
        fields, optional = REQUESTS[expected], ()
    else:
        raise _violation("malformed", _WRONG_TYPE, got=shown(kind), expected=expected)
    for field in obj:
        if field not in fields:
            raise _violation("malformed", _UNKNOWN, type=kind, field=shown(field))
    for field in fields:
        if field not in obj and field not in optional:
            raise _violation("malformed", _MISSING, type=kind, field=field)
    if "id" in obj:
        got = obj["id"]
        if not _is_int(got):
            raise _violation("malformed", _NOT_INTEGER, type=kind, field="id", value=shown(got))
        if got != request:
            raise _violation("malformed", _WRONG_ID, type=kind, got=got,
                             expected=0 if request is None else request)
    if kind == "error":
        message = obj["message"]
        if not isinstance(message, str):
            raise _violation("malformed", _NOT_TEXT, type=kind, field="message",
                             value=shown(message))
        raise _violation("declined", _DECLINED, message=shown(message))
    return obj


def _integer(obj: Mapping[str, Any], field: str) -> int:
    value = obj[field]
    if not _is_int(value):
        raise _violation("malformed", _NOT_INTEGER, type=obj["type"], field=field,
                         value=shown(value))
    return int(value)


def read_hello_reply(obj: object) -> Hello:
    """The program's reply to ``hello``, checked strictly; raise :class:`ProtocolViolation`.

    >>> read_hello_reply({"type": "hello", "protocol": 1, "name": "my-bot", "author": "Ann",
    ...                   "variants": ["standard", "logic"]}).variants
    (<Variant.STANDARD: 'standard'>, <Variant.LOGIC: 'logic'>)
    >>> read_hello_reply({"type": "error", "message": "protocol 2 only"})
    Traceback (most recent call last):
    ...
    take5rules.playing.protocol.ProtocolViolation: declined: the program declined: \
'protocol 2 only'
    """
    reply = _reply(obj, "hello", None)
    protocol = _integer(reply, "protocol")
    if protocol != PROTOCOL:
        raise _violation("malformed", _OTHER_PROTOCOL, got=protocol, expected=PROTOCOL)
    name, author, variants = reply["name"], reply["author"], reply["variants"]
    if not isinstance(name, str) or not 1 <= len(name) <= _NAME_LIMIT:
        raise _violation("malformed", _BAD_NAME, value=shown(name))
    if not isinstance(author, str) or len(author) > _NAME_LIMIT:
        raise _violation("malformed", _BAD_AUTHOR, value=shown(author))
    known = {variant.value: variant for variant in Variant}
    if (not isinstance(variants, list) or not variants
            or not all(isinstance(item, str) and item in known for item in variants)
            or len(set(variants)) != len(variants)):
        raise _violation("malformed", _BAD_VARIANTS, value=shown(variants))
    return Hello(protocol, name, author, tuple(known[item] for item in variants))


def read_card_reply(obj: object, id: int, hand: Iterable[Card]) -> Card:
    """The card of the program's reply to ``card`` request *id*; it must be in *hand*.

    >>> read_card_reply({"type": "card", "id": 7, "card": 57}, 7, (3, 57))
    57
    >>> read_card_reply({"type": "card", "id": 6, "card": 57}, 7, (3, 57))
    Traceback (most recent call last):
    ...
    take5rules.playing.protocol.ProtocolViolation: malformed: the 'card' reply has the id 6, \
not the request's id 7
    """
    card = _integer(_reply(obj, "card", id), "card")
    if card not in hand:
        raise _violation("illegal", _NOT_IN_HAND, card=shown(card), rule=_CARD_RULE)
    return card


def read_row_reply(obj: object, id: int) -> int:
    """The row (0 to 3) of the program's reply to ``row`` request *id*.

    >>> read_row_reply({"type": "row", "id": 8, "row": 4}, 8)
    Traceback (most recent call last):
    ...
    take5rules.playing.protocol.ProtocolViolation: illegal: the program answered row 4, but the \
rows are 0 to 3 [rule table.low-card]
    """
    row = _integer(_reply(obj, "row", id), "row")
    if not 0 <= row <= 3:  # the four rows
        raise _violation("illegal", _NOT_A_ROW, row=shown(row), rule=_ROW_RULE)
    return row


def read_draft_reply(obj: object, id: int, pool: Iterable[Card]) -> Card:
    """The card of the program's reply to ``draft`` request *id*; it must be in *pool*."""
    card = _integer(_reply(obj, "draft", id), "card")
    if card not in pool:
        raise _violation("illegal", _NOT_IN_POOL, card=shown(card), rule=_DRAFT_RULE)
    return card


# --- The program's side ---------------------------------------------------------------------


def hello_reply(name: str, author: str, variants: Iterable[Variant | str]) -> dict[str, Any]:
    """A program's reply to ``hello``.

    >>> hello_reply("take5rules cautious", "take5rules", [Variant.STANDARD])
    {'type': 'hello', 'protocol': 1, 'name': 'take5rules cautious', 'author': 'take5rules', \
'variants': ['standard']}
    """
    return {"type": "hello", "protocol": PROTOCOL, "name": name, "author": author,
            "variants": [Variant.parse(item).value if isinstance(item, str) else item.value
                         for item in variants]}


def card_reply(id: int, card: Card) -> dict[str, Any]:
    """A program's reply to ``card`` request *id*."""
    return {"type": "card", "id": id, "card": card}


def row_reply(id: int, row: int) -> dict[str, Any]:
    """A program's reply to ``row`` request *id*."""
    return {"type": "row", "id": id, "row": row}


def draft_reply(id: int, card: Card) -> dict[str, Any]:
    """A program's reply to ``draft`` request *id*."""
    return {"type": "draft", "id": id, "card": card}


def _bad(obj: Mapping[str, Any], field: str, expected: str) -> ProtocolViolation:
    return _violation("malformed", _BAD_FIELD, type=obj.get("type"), field=field,
                      value=shown(obj.get(field)), expected=Phrase(expected))


def _get_int(obj: Mapping[str, Any], field: str, *, optional: bool = False) -> int | None:
    value = obj.get(field)
    if value is None and optional:
        return None
    if type(value) is not int or value < 0:
        raise _bad(obj, field, _A_NUMBER)
    return value


def _must_int(obj: Mapping[str, Any], field: str) -> int:
    value = _get_int(obj, field)
    assert value is not None
    return value


def _is_card(value: object) -> bool:
    return type(value) is int and 1 <= value <= 104  # the deck


def _get_cards(obj: Mapping[str, Any], field: str) -> tuple[Card, ...]:
    value = obj.get(field)
    if not isinstance(value, list) or not all(map(_is_card, value)):
        raise _bad(obj, field, _CARDS)
    return tuple(value)


def _get_rows(obj: Mapping[str, Any], field: str) -> tuple[tuple[Card, ...], ...]:
    value = obj.get(field)
    if not isinstance(value, list) or not all(
            isinstance(row, list) and all(map(_is_card, row)) for row in value):
        raise _bad(obj, field, _ROWS)
    return tuple(tuple(row) for row in value)


def _plays_of(value: object) -> tuple[tuple[str, Card], ...] | None:
    if not isinstance(value, list):
        return None
    found = []
    for item in value:
        if not (isinstance(item, list) and len(item) == 2  # a pair
                and isinstance(item[0], str) and _is_card(item[1])):
            return None
        found.append((item[0], item[1]))
    return tuple(found)


def _get_plays(obj: Mapping[str, Any], field: str) -> tuple[tuple[str, Card], ...]:
    found = _plays_of(obj.get(field))
    if found is None:
        raise _bad(obj, field, _PLAYS)
    return found


def _get_turns(obj: Mapping[str, Any], field: str) -> tuple[tuple[tuple[str, Card], ...], ...]:
    value = obj.get(field)
    turns = [_plays_of(turn) for turn in value] if isinstance(value, list) else [None]
    if None in turns:
        raise _bad(obj, field, _TURNS)
    return tuple(turn for turn in turns if turn is not None)


def _get_totals(obj: Mapping[str, Any], field: str) -> dict[str, int]:
    value = obj.get(field)
    if not isinstance(value, dict) or not all(
            _is_int(total) and total >= 0 for total in value.values()):
        raise _bad(obj, field, _TOTALS)
    return value


def _get_taken(obj: Mapping[str, Any], field: str) -> dict[str, tuple[Card, ...]]:
    value = obj.get(field)
    if not isinstance(value, dict) or not all(
            isinstance(cards, list) and all(map(_is_card, cards)) for cards in value.values()):
        raise _bad(obj, field, _TAKEN)
    return {player: tuple(cards) for player, cards in value.items()}


def _view_error(obj: Mapping[str, Any], error: Take5Error) -> ProtocolViolation:
    return _violation("malformed", _BAD_VIEW, type=obj.get("type"),
                      reason=Phrase(error.template, **error.params))


def _table(obj: Mapping[str, Any]) -> Table:
    rows = _get_rows(obj, "rows")
    try:
        return Table.of(rows)
    except Take5Error as error:
        raise _view_error(obj, error) from None


def request_id(obj: Mapping[str, Any]) -> int:
    """The ``id`` of a request (a whole number), or raise :class:`ProtocolViolation`."""
    return _must_int(obj, "id")


def parse_hello(obj: Mapping[str, Any]) -> int:
    """The protocol version a table's ``hello`` names.

    >>> parse_hello(hello_message())
    1
    """
    return _must_int(obj, "protocol")


def parse_game(obj: Mapping[str, Any]) -> GameInfo:
    """A table's ``game`` message read (unknown fields ignored); raise :class:`ProtocolViolation`.

    >>> parse_game(game_message(2, "bob", ["ana", "bob"], Rules(Variant.LOGIC), None)).rules
    Rules(variant=<Variant.LOGIC: 'logic'>, threshold=66)
    """
    seat, players, rules = obj.get("seat"), obj.get("players"), obj.get("rules")
    if not isinstance(seat, str):
        raise _bad(obj, "seat", _A_TEXT)
    if not isinstance(players, list) or not all(isinstance(item, str) for item in players):
        raise _bad(obj, "players", _NAMES)
    try:
        if not isinstance(rules, dict) or not _is_int(rules.get("threshold", 66)):
            raise _bad(obj, "rules", _RULES)
        read = Rules(Variant.parse(rules.get("variant")), rules.get("threshold", 66))
    except Take5Error as error:
        raise _view_error(obj, error) from None
    seed, clock = obj.get("seed"), obj.get("clock")
    if seed is not None and not _is_int(seed):
        raise _bad(obj, "seed", _A_NUMBER)
    return GameInfo(_must_int(obj, "game"), seat, tuple(players), read, seed,
                    dict(clock) if isinstance(clock, dict) else None)


def parse_card_request(obj: Mapping[str, Any], player: str = "") -> CardView:
    """The :class:`~take5rules.playing.players.CardView` a ``card`` request shows *player*.

    Every field is checked (unknown ones ignored), and the view as a whole
    (:func:`~take5rules.playing.players.check_view`: no card in two places at once); raise
    :class:`ProtocolViolation` (``malformed``) naming the first field that is wrong.

    >>> from take5rules.table import Table
    >>> view = CardView(2, 1, Table.of([[12], [37], [43], [58]]), (14, 44), {"ana": 5}, "ana")
    >>> parse_card_request(card_request(3, view), "ana") == view
    True
    """
    view = CardView(
        _must_int(obj, "round"), _must_int(obj, "turn"), _table(obj), _get_cards(obj, "hand"),
        _get_totals(obj, "totals"), player, _get_turns(obj, "revealed"),
        _get_taken(obj, "taken"), _get_rows(obj, "start"), _get_plays(obj, "picks"))
    try:
        check_view(view)
    except Take5Error as error:
        raise _view_error(obj, error) from None
    return view


def parse_row_request(obj: Mapping[str, Any], player: str = "") -> RowChoice:
    """The row choice a ``row`` request shows *player*, checked.

    A :class:`~take5rules.playing.players.RowChoice`, the player's view of the low card.
    """
    card = obj.get("card")
    if type(card) is not int or not _is_card(card):
        raise _bad(obj, "card", _A_CARD)
    choice = RowChoice(
        player, card, _table(obj), _must_int(obj, "round"), _must_int(obj, "turn"),
        _get_cards(obj, "hand"), _get_totals(obj, "totals"), _get_turns(obj, "revealed"),
        _get_taken(obj, "taken"), _get_rows(obj, "start"), _get_plays(obj, "picks"))
    try:
        check_view(choice)
    except Take5Error as error:
        raise _view_error(obj, error) from None
    return choice


def parse_draft_request(obj: Mapping[str, Any], player: str = "") -> DraftView:
    """The :class:`~take5rules.playing.players.DraftView` a ``draft`` request shows *player*."""
    view = DraftView(_must_int(obj, "round"), _must_int(obj, "pick"), _get_cards(obj, "pool"),
                     _get_cards(obj, "hand"), player, _get_plays(obj, "picks"),
                     _get_totals(obj, "totals"))
    try:
        check_draft_view(view)
    except Take5Error as error:
        raise _view_error(obj, error) from None
    return view


class PlayerServer:
    """The program side of the protocol, one table message at a time (what :func:`serve` runs).

    Answers ``hello`` with *name*, *author* and *variants*; at each ``game`` makes a fresh
    player with ``make_player(seed)`` (the game's seed, or ``None``); answers each ``card``,
    ``row`` and ``draft`` request with that player's decision; ignores information.

    >>> from take5rules.playing.players import CautiousPlayer
    >>> server = PlayerServer(lambda seed: CautiousPlayer(), "take5rules cautious")
    >>> server.answer(game_message(1, "ana", ["ana", "bob"], Rules(), 3)) is None
    True
    >>> server.answer({"type": "draft", "id": 1, "round": 1, "pick": 1, "pool": [4, 55],
    ...                "hand": [], "picks": [], "totals": {}})
    {'type': 'draft', 'id': 1, 'card': 4}
    """

    __slots__ = ("author", "make", "name", "player", "seat", "variants")

    def __init__(self, make_player: Callable[[int | None], Player], name: str,
                 author: str = "", variants: Iterable[Variant] = tuple(Variant)) -> None:
        self.make = make_player
        self.name, self.author, self.variants = name, author, tuple(variants)
        self.player: Player | None = None
        self.seat = ""

    def answer(self, message: Mapping[str, Any]) -> dict[str, Any] | None:
        """The reply to one table *message* (as :func:`decode` reads it), or ``None``.

        ``None`` for information (``quit`` included: ending is the caller's); an ``error``
        message, with the request's id when it has one, for a message it cannot use or a
        decision its player could not make. Never raises.
        """
        number: int | None = None
        try:
            kind = message.get("type")
            if kind == "hello":
                protocol = parse_hello(message)
                if protocol != PROTOCOL:
                    return error_message(str(Phrase(_CANNOT_SPEAK, expected=PROTOCOL,
                                                    got=protocol)))
                return hello_reply(self.name, self.author, self.variants)
            if kind == "game":
                game = parse_game(message)
                self.player, self.seat = self.make(game.seed), game.seat
                return None
            if kind not in REQUESTS:
                return None  # information: round, turn, score, end, error, and types to come
            number = request_id(message)
            if self.player is None:
                raise _violation("malformed", _UNEXPECTED, type=kind)
            if kind == "card":
                return card_reply(number, self.player.choose_card(
                    parse_card_request(message, self.seat)))
            if kind == "row":
                return row_reply(number, self.player.choose_row(
                    parse_row_request(message, self.seat)))
            return draft_reply(number, self.player.choose_draft(
                parse_draft_request(message, self.seat)))
        except ProtocolViolation as violation:
            return error_message(str(violation.detail), number)
        except Exception as error:  # the player failed: decline, do not crash
            reason = error.message if isinstance(error, Take5Error) else repr(error)
            return error_message(str(Phrase(_NO_PLAYER, reason=shown(reason))), number)


def _read_line(source: IO[bytes]) -> bytes | None:
    """One line of *source* (``None`` at its end), never more than ``MAX_LINE + 1`` bytes of it.

    A longer line comes back as its first ``MAX_LINE + 1`` bytes (too long, so refused), the rest
    read and dropped up to its newline, a chunk at a time.
    """
    line = source.readline(MAX_LINE + 1)
    if not line:
        return None
    if len(line) > MAX_LINE and not line.endswith(b"\n"):
        while True:
            rest = source.readline(MAX_LINE)
            if not rest or rest.endswith(b"\n"):
                break
    return line


class _TextSource:
    """A text stream read as bytes (for :func:`serve` given a text stream with no buffer)."""

    __slots__ = ("stream",)

    def __init__(self, stream: IO[str]) -> None:
        self.stream = stream

    def readline(self, limit: int) -> bytes:
        return self.stream.readline(limit).encode("utf-8", "surrogatepass")


def serve(
    make_player: Callable[[int | None], Player],
    stdin: IO[str] | IO[bytes],
    stdout: IO[str] | IO[bytes],
    name: str,
    author: str = "",
    variants: Iterable[Variant] = tuple(Variant),
) -> int:
    r"""Play the program side of the protocol on *stdin* and *stdout*; return the exit status.

    A :class:`PlayerServer` answers each message: ``hello`` with *name*, *author* and
    *variants*; at each ``game`` a fresh player from ``make_player(seed)`` (the game's seed, or
    ``None``); each ``card``, ``row`` and ``draft`` request with that player's decision; the
    information messages (and every type it does not know) are read and ignored. A line it
    cannot use (not UTF-8, not JSON, not an object with a string ``type``, over
    :data:`MAX_LINE` bytes, a request of the wrong shape) is answered with an ``error``
    message, and serving goes on: stopping is the table's call. No more than
    ``MAX_LINE + 1`` bytes of a line are ever held. Ends with status 0 at ``quit`` or
    at the end of *stdin* (or when the table closed the pipe), 2 if *stdout* cannot be written.
    The streams may be text or binary (a text stream's ``buffer`` is used when it has one).

    >>> import io
    >>> from take5rules.playing.players import CautiousPlayer
    >>> lines = [hello_message("t"), game_message(1, "ana", ["ana", "bob"], Rules(), 5),
    ...          card_request(1, CardView(1, 1, Table.of([[12], [37], [43], [58]]), (14, 44),
    ...                                   {"ana": 0, "bob": 0})), QUIT]
    >>> out = io.BytesIO()
    >>> serve(lambda seed: CautiousPlayer(), io.BytesIO(b"".join(map(encode, lines))), out,
    ...       "take5rules cautious", "take5rules", [Variant.STANDARD])
    0
    >>> for line in out.getvalue().splitlines():
    ...     print(line.decode()[:60])
    {"type":"hello","protocol":1,"name":"take5rules cautious","a
    {"type":"card","id":1,"card":44}
    """
    raw_in = getattr(stdin, "buffer", stdin)
    source: Any = raw_in if _is_binary(raw_in) else _TextSource(stdin)  # type: ignore[arg-type]
    sink: Any = getattr(stdout, "buffer", stdout)
    binary_out = _is_binary(sink)
    if not binary_out:
        sink = stdout
    server = PlayerServer(make_player, name, author, variants)
    while True:
        try:
            line = _read_line(source)
        except (OSError, ValueError):  # the table closed its end, or a device failed
            return 0
        if line is None:
            return 0
        if not line.strip():
            continue  # a blank line is no message
        reply: dict[str, Any] | None
        try:
            message = decode(line)
        except ProtocolViolation as violation:
            reply = error_message(str(violation.detail))
        else:
            if message["type"] == "quit":
                return 0
            reply = server.answer(message)
        if reply is None:
            continue
        try:
            data = encode(reply)
            if binary_out:
                sink.write(data)
            else:
                sink.write(data.decode("utf-8"))
            sink.flush()
        except BrokenPipeError:
            return 0
        except (OSError, ValueError):
            return 2


def _is_binary(stream: object) -> bool:
    """Whether *stream* reads or writes bytes (a buffer or a ``BytesIO``), not text."""
    import io

    return isinstance(stream, io.BufferedIOBase | io.RawIOBase) or (
        not isinstance(stream, io.TextIOBase) and hasattr(stream, "readinto"))
