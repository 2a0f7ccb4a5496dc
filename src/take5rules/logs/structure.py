r"""The structural check of a take5-log: its JSON Schema written by hand, in one pass.

The structural check (:func:`check_top`, :func:`check_round`) is the JSON Schema of the format
(``logs/schemas/take5-log-1.schema.json``) written by hand, with two points the schema cannot say:

* an integer is a JSON number written without a fraction or exponent: ``3``, never ``3.0``,
  ``3e0`` or ``true`` (JSON numbers do not tell 3 from 3.0 apart, and Python's ``True == 1``);
  cards, row indices, penalties, totals, the threshold and the version are all integers;
* every string (names, the variant) is Unicode text: a lone surrogate escape such as
  ``"\ud800"`` is not a name.

It checks types and members only, in one pass without recursion; the rules of the game are
:mod:`take5rules.logs.validator`'s business. The tests pin it to the JSON Schema (via jsonschema,
which
the library itself never imports). The reader (:mod:`take5rules.logs.reader`) calls it on each
member and each round as it parses them.
"""

from __future__ import annotations

import json
import re
from collections.abc import Callable, Collection, Mapping
from itertools import chain
from typing import Any

from take5rules._messages import N_
from take5rules.errors import LogError, Where

__all__ = [
    "FORMAT",
    "HEADER",
    "TURN_MEMBERS",
    "VERSION",
    "brief",
    "check_document",
    "check_identity",
    "check_required",
    "check_round",
    "check_top",
    "check_turns",
    "int_lists",
    "member_path",
]

#: The members of a log and of a round, as the schema lists them.
_TOP = frozenset({"format", "version", "variant", "threshold", "players", "rounds", "totals",
                  "winners"})
_TOP_REQUIRED = ("format", "version", "variant", "players", "rounds")
_ROUND = frozenset({"rows", "hands", "draft", "turns", "penalties"})
_ROUND_REQUIRED = ("rows", "hands", "turns")
#: The members a turn may have.
TURN_MEMBERS = frozenset({"plays", "takes", "rows_after", "taken"})
_TURN = TURN_MEMBERS
#: The members a log must give before its rounds for them to be checked as they are read.
HEADER = ("format", "version", "variant", "threshold", "players")
_SURROGATE = re.compile("[\ud800-\udfff]")
#: The type of a whole number (a card, an index); of a list; the items of lists, in turn.
_INT = frozenset({int})
_LIST = frozenset({list})
_STR = frozenset({str})
#: The members of a log that are whole numbers; those that are text.
_INTEGERS = frozenset({"version", "threshold"})
_TEXTS = frozenset({"format", "variant"})
_flat = chain.from_iterable

_NOT_INTEGER = N_("not a take5-log: at {path}: {value} is not a whole number written without "
                  "a decimal point or exponent")
_NOT_STRING = N_("not a take5-log: at {path}: {value} is not a string")
_NOT_LIST = N_("not a take5-log: at {path}: {value} is not a list")
_NOT_OBJECT = N_("not a take5-log: at {path}: {value} is not an object")
_REQUIRED = N_("not a take5-log: at {path}: the member {name!r} is required")
_UNKNOWN = N_("not a take5-log: at {path}: the member {name!r} is not part of the format")
_PICK = N_("not a take5-log: at {path}: a pick is a list of two items, the player and the card")
_SURROGATE_TEXT = N_("not a take5-log: at {path}: the text {value} is not valid Unicode (it "
                     "holds a lone surrogate)")
_NOT_A_LOG = N_("not a take5-log: a take5-log is a JSON object whose 'format' is 'take5-log'")
_VERSION = N_("take5-log version {version!r} is not supported; this validator reads version "
              "{supported}")
_SEAT_VIEW = N_("not a take5-log: this is a seat view (format 'take5-seat-view'), what one "
                "player saw of a game without the other hands, so the rules cannot check it; "
                "`take5rules replay` and `take5rules show` tell it")

#: The value of a log's ``format`` member.
FORMAT = "take5-log"
#: The version of the format this module writes and reads.
VERSION = 1


def brief(value: object) -> str:
    """A short, printable JSON-like rendering of *value* for a message (never recursive).

    >>> brief(3.0), brief(True), brief("x" * 50), brief([[1]]), brief({"a": 1})
    ('3.0', 'true', '"xxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxx…"', '[…]', '{…}')
    """
    if isinstance(value, list):
        return "[…]" if value else "[]"
    if isinstance(value, dict):
        return "{…}" if value else "{}"
    if isinstance(value, str):
        cut = value[:40] + ("…" if len(value) > 40 else "")
        return json.dumps(cut, ensure_ascii=False).encode("utf-8", "backslashreplace").decode()
    if isinstance(value, int) and not isinstance(value, bool):
        text = str(value)
        return text if len(text) <= 40 else text[:20] + "…"
    return json.dumps(value)


def member_path(name: str) -> str:
    """The JSON path step to the member *name*: ``.name`` or ``['name']``, printable."""
    if name.isidentifier():
        return f".{name}"
    escaped = name.replace("\\", "\\\\").replace("'", "\\'")
    escaped = escaped.encode("utf-8", "backslashreplace").decode()
    return f"['{escaped}']"


def _fail(template: str, path: str, where: Where | None = None, **params: Any) -> LogError:
    return LogError(template, where=where, path=path, **params)


def _clean(text: str, path: str, where: Where | None = None) -> None:
    if not text.isascii() and _SURROGATE.search(text):
        raise _fail(_SURROGATE_TEXT, path, where, value=brief(text))


def _integer(value: object, path: str, where: Where | None = None) -> None:
    if type(value) is not int:
        raise _fail(_NOT_INTEGER, path, where, value=brief(value))


def _cards(value: object, path: str, where: Where | None = None) -> None:
    """A list of integers."""
    if type(value) is not list:
        raise _fail(_NOT_LIST, path, where, value=brief(value))
    for index, item in enumerate(value):
        if type(item) is not int:
            raise _fail(_NOT_INTEGER, f"{path}[{index}]", where, value=brief(item))


def _rows(value: object, path: str, where: Where | None = None) -> None:
    """A list of lists of integers."""
    if type(value) is not list:
        raise _fail(_NOT_LIST, path, where, value=brief(value))
    for index, row in enumerate(value):
        if type(row) is not list:
            raise _fail(_NOT_LIST, f"{path}[{index}]", where, value=brief(row))
        for position, item in enumerate(row):
            if type(item) is not int:
                raise _fail(_NOT_INTEGER, f"{path}[{index}][{position}]", where,
                            value=brief(item))


def _object(value: object, path: str, where: Where | None = None) -> dict[str, Any]:
    if type(value) is not dict:
        raise _fail(_NOT_OBJECT, path, where, value=brief(value))
    return value


def _names(
    value: dict[str, Any], names: Collection[str], path: str, where: Where | None
) -> None:
    """Every key is Unicode text (keys that are known names are)."""
    for name in value:
        if name not in names and not name.isascii():  # ASCII text holds no surrogate
            _clean(name, f"{path}{member_path(name)}", _at(where, name))


def _at(where: Where | None, player: str) -> Where:
    base = where if where is not None else Where()
    return Where(base.round, base.turn, player)


def _by_name(
    value: object, names: Collection[str], path: str, where: Where | None,
    check: Callable[[object, str, Where | None], None],
) -> None:
    """An object whose every value passes *check* (an integer, or a list of integers)."""
    mapping = _object(value, path, where)
    if mapping.keys() != names:
        _names(mapping, names, path, where)
    cards = check is _cards
    for name, item in mapping.items():
        if cards:
            if type(item) is list:
                for card in item:
                    if type(card) is not int:
                        break
                else:
                    continue
        elif type(item) is int:
            continue
        check(item, f"{path}{member_path(name)}", _at(where, name))


def _strings(value: object, path: str) -> list[str]:
    if type(value) is list and _STR.issuperset(map(type, value)) \
            and all(map(str.isascii, value)):  # ASCII text holds no surrogate
        return value
    if type(value) is not list:
        raise _fail(_NOT_LIST, path, value=brief(value))
    for index, item in enumerate(value):
        if type(item) is not str:
            raise _fail(_NOT_STRING, f"{path}[{index}]", value=brief(item))
        _clean(item, f"{path}[{index}]")
    return value


def check_top(name: str, value: object) -> None:
    """Check one member of a log other than ``rounds``, by the schema.

    >>> check_top("threshold", 66.0)
    Traceback (most recent call last):
    ...
    take5rules.errors.LogError: not a take5-log: at $.threshold: 66.0 is not a whole number \
written without a decimal point or exponent [log]
    """
    if (type(value) is int and name in _INTEGERS) \
            or (type(value) is str and value.isascii() and name in _TEXTS):
        return  # the common case, without words (ASCII text holds no surrogate)
    path = f"$.{name}"
    if name in ("format", "variant"):
        if type(value) is not str:
            if name == "format":
                return  # said by check_format, with the format's own message
            raise _fail(_NOT_STRING, path, value=brief(value))
        _clean(value, path)
    elif name in ("version", "threshold"):
        _integer(value, path)
    elif name in ("players", "winners"):
        _strings(value, path)
    elif name == "totals":
        _by_name(value, frozenset(), path, None, _integer)
    elif name == "rounds":
        if type(value) is not list:
            raise _fail(_NOT_LIST, path, value=brief(value))
    elif not name.startswith("x-"):
        _clean(name, f"${member_path(name)}")
        raise _fail(_UNKNOWN, "$", name=name)


def check_identity(document: object, *, partial: bool = False) -> dict[str, Any]:
    """Check that *document* is an object whose format is take5-log and version 1.

    With *partial*, members not read yet are not missing.
    """
    if not isinstance(document, dict):
        raise LogError(_NOT_A_LOG)
    if ("format" in document or not partial) and document.get("format") != FORMAT:
        raise LogError(_SEAT_VIEW if document.get("format") == "take5-seat-view" else _NOT_A_LOG)
    if "version" in document or not partial:
        version = document.get("version")
        if type(version) is not int or version != VERSION:
            raise LogError(_VERSION, version=_shown(version), supported=VERSION)
    return document


def _shown(value: object) -> object:
    """*value* itself if its repr is short and safe, else a brief rendering of it."""
    if value is None or isinstance(value, bool | float) or (
        isinstance(value, int) and abs(value) < 10**40
    ):
        return value
    if isinstance(value, str) and len(value) <= 40 and not _SURROGATE.search(value):
        return value
    return brief(value)


def check_document(document: object, *, rounds: bool = True) -> dict[str, Any]:
    """Check the shape of a whole log (parsed JSON) by the format's schema; return it.

    With *rounds* false, the rounds are left to :func:`check_round` (the validator checks each
    as it comes to it); that ``rounds`` is a list is checked all the same.
    """
    checked = check_identity(document)
    for name, value in checked.items():
        if name != "rounds":
            check_top(name, value)
    check_required(checked)
    listed = checked["rounds"]
    check_top("rounds", listed)
    if rounds:
        names = frozenset(checked["players"])
        for index, entry in enumerate(listed):
            check_round(entry, index, names)
    return checked


def check_required(document: dict[str, Any]) -> None:
    """Check that *document* has every required member of a log."""
    for name in _TOP_REQUIRED:
        if name not in document:
            raise _fail(_REQUIRED, "$", name=name)


def check_round(
    entry: object, index: int, names: Collection[str] = frozenset(), *, turns: bool = True
) -> dict[str, Any]:
    """Check the shape of round *index* (0-based) of a log; *names* are known clean names.

    With *turns* false, the shape of each turn is left to :func:`check_turns` (the validator's
    fast path checks it as it replays the turns, and calls :func:`check_turns` for a round it
    does not vouch for); that ``turns`` is a list is checked all the same.

    >>> check_round({"rows": [[1]], "hands": {}, "turns": [{"plays": {"ana": 3.0}}]}, 0)
    Traceback (most recent call last):
    ...
    take5rules.errors.LogError: round 1, turn 1, player 'ana': not a take5-log: at \
$.rounds[0].turns[0].plays.ana: 3.0 is not a whole number written without a decimal point or \
exponent [log]
    >>> check_round({"rows": [[1]], "hands": {}, "turns": [{"plays": {"ana": 3.0}}]}, 0,
    ...             turns=False)["turns"]
    [{'plays': {'ana': 3.0}}]
    """
    known = names if type(names) is frozenset else frozenset(names)
    if _round_ok(entry, known):  # the fast test; the checks below say what is wrong
        round_: dict[str, Any] = entry  # type: ignore[assignment]
        if turns:
            check_turns(round_, index, known)
        return round_
    path = f"$.rounds[{index}]"
    where = Where(index + 1)
    round_ = _object(entry, path, where)
    for member in round_:
        if member not in _ROUND:
            _clean(member, f"{path}{member_path(member)}", where)
            raise _fail(_UNKNOWN, path, where, name=member)
    for member in _ROUND_REQUIRED:
        if member not in round_:
            raise _fail(_REQUIRED, path, where, name=member)
    _rows(round_["rows"], f"{path}.rows", where)
    _by_name(round_["hands"], names, f"{path}.hands", where, _cards)
    if "draft" in round_:
        picks = round_["draft"]
        if type(picks) is not list:
            raise _fail(_NOT_LIST, f"{path}.draft", where, value=brief(picks))
        for number, pick in enumerate(picks):
            here = f"{path}.draft[{number}]"
            if type(pick) is not list:
                raise _fail(_NOT_LIST, here, where, value=brief(pick))
            if len(pick) != 2:
                raise _fail(_PICK, here, where)
            player, value = pick
            if type(player) is not str:
                raise _fail(_NOT_STRING, f"{here}[0]", where, value=brief(player))
            if player not in names:
                _clean(player, f"{here}[0]", where)
            _integer(value, f"{here}[1]", _at(where, player))
    if "penalties" in round_:
        _by_name(round_["penalties"], names, f"{path}.penalties", where, _integer)
    listed = round_["turns"]
    if type(listed) is not list:
        raise _fail(_NOT_LIST, f"{path}.turns", where, value=brief(listed))
    if turns:
        check_turns(round_, index, known)
    return round_


def check_turns(entry: Mapping[str, Any], index: int, names: frozenset[str]) -> None:
    """Check the shape of each turn of round *index* (0-based), whose ``turns`` is a list.

    *names* are known clean names (the players'). The first problem raises its
    :class:`LogError`, naming the turn and the JSON path.

    >>> check_turns({"turns": [{"plays": {"ana": 3}}, {"plays": {"ana": 4}, "take": {}}]}, 1,
    ...             frozenset({"ana"}))
    Traceback (most recent call last):
    ...
    take5rules.errors.LogError: round 2, turn 2: not a take5-log: at $.rounds[1].turns[1]: the \
member 'take' is not part of the format [log]
    """
    for number, turn in enumerate(entry["turns"]):
        if not _turn_ok(turn, names):  # the fast test; the check below says what is wrong
            _check_turn(turn, f"$.rounds[{index}].turns[{number}]",
                        Where(index + 1, number + 1), names)


def _round_ok(entry: object, names: frozenset[str]) -> bool:
    """Whether *entry* has the shape of a round, turns aside: what :func:`check_round` checks.

    Without words, for the common case of a well-formed round; whenever it says no, the
    checks of :func:`check_round` find the first problem and name it.
    """
    if type(entry) is not dict or not entry.keys() <= _ROUND or "draft" in entry:
        return False
    rows = entry.get("rows")
    hands = entry.get("hands")
    if type(rows) is not list or type(hands) is not dict \
            or type(entry.get("turns")) is not list:
        return False
    if not hands.keys() <= names and not _names_ok(hands, names):
        return False
    listed = hands.values()  # the rows and the hands: lists of whole numbers
    if not _LIST.issuperset(map(type, chain(rows, listed))) \
            or not _INT.issuperset(map(type, chain(_flat(rows), _flat(listed)))):
        return False
    if "penalties" in entry:
        penalties = entry["penalties"]
        if type(penalties) is not dict or (not penalties.keys() <= names
                                           and not _names_ok(penalties, names)):
            return False
        if not _INT.issuperset(map(type, penalties.values())):
            return False
    return True


def _names_ok(value: dict[str, Any], names: Collection[str]) -> bool:
    """Whether every key of *value* is a known name or text without a lone surrogate."""
    for name in value:
        if name not in names and not name.isascii() and _SURROGATE.search(name):
            return False
    return True


def int_lists(value: object) -> bool:
    """Whether *value* is a list of lists of whole numbers (``int``): the shape of rows.

    >>> int_lists([[3, 12], [24]]), int_lists([[3, 12.0]]), int_lists([(3,)]), int_lists([])
    (True, False, False, True)
    """
    return type(value) is list and _LIST.issuperset(map(type, value)) \
        and _INT.issuperset(map(type, _flat(value)))


def _turn_ok(turn: object, names: frozenset[str]) -> bool:
    """Whether *turn* has the shape of a turn: what :func:`_check_turn` checks, without words.

    Allocation-free, for the common case of a well-formed turn; whenever it says no,
    :func:`_check_turn` finds the first problem and names it.
    """
    if type(turn) is not dict or "plays" not in turn or not turn.keys() <= _TURN:
        return False
    for member, value in turn.items():
        if member == "plays" or member == "takes":
            # A key among the known (clean) names needs no look at its text.
            if type(value) is not dict or (not value.keys() <= names
                                           and not _names_ok(value, names)):
                return False
            for item in value.values():
                if type(item) is not int:
                    return False
        elif member == "rows_after":
            if not int_lists(value):
                return False
        else:  # taken, the only other member of _TURN
            if type(value) is not dict or (not value.keys() <= names
                                           and not _names_ok(value, names)):
                return False
            for cards in value.values():
                if type(cards) is not list:
                    return False
                for item in cards:
                    if type(item) is not int:
                        return False
    return True


def _check_turn(turn: object, path: str, where: Where, names: Collection[str]) -> None:
    if type(turn) is not dict:
        raise _fail(_NOT_OBJECT, path, where, value=brief(turn))
    if "plays" not in turn:
        raise _fail(_REQUIRED, path, where, name="plays")
    for member, value in turn.items():
        here = f"{path}.{member}"
        if member == "plays" or member == "takes":
            if type(value) is not dict:
                raise _fail(_NOT_OBJECT, here, where, value=brief(value))
            if value.keys() != names:
                _names(value, names, here, where)
            for name, item in value.items():
                if type(item) is not int:
                    raise _fail(_NOT_INTEGER, f"{here}{member_path(name)}", _at(where, name),
                                value=brief(item))
        elif member == "rows_after":
            _rows(value, here, where)
        elif member == "taken":
            _by_name(value, names, here, where, _cards)
        else:
            _clean(member, f"{path}{member_path(member)}", where)
            raise _fail(_UNKNOWN, path, where, name=member)
