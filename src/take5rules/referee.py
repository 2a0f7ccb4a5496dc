"""The referee line protocol: us as an oracle, one JSON turn per line.

Any program, in any language, can ask this library how a turn resolves, or answer the same
requests itself and be compared with us (:mod:`take5rules.conform`).

Request (one JSON object on one line)::

    {"rows": [[3, 12], [24], [58, 61, 70], [96]],
     "plays": [["ana", 17], ["bob", 2]],
     "choices": {"bob": 3}}

* ``rows``: the four rows, oldest card first;
* ``plays``: each player's id and card, in any order;
* ``choices`` (optional): for each player, the row index 0..3 they take if their card turns out
  to be a low card. Players without an entry must not need one.

Reply (one JSON object on one line)::

    {"rows": [[3, 12, 17], [24], [58, 61, 70], [2]], "taken": {"bob": [96]}, "chosen": {"bob": 3}}

* ``rows``: the four rows after the turn; ``taken``: the cards each player took this turn
  (only players who took, in the order taken); ``chosen``: the row each low-card player took.

An invalid request gets ``{"error": {"rule": "<rule id or 'protocol'>", "message": "..."}}``
and the referee keeps serving; end of input ends it.

>>> answer({"rows": [[3, 12], [24], [58, 61, 70], [96]],
...         "plays": [["ana", 17], ["bob", 2]], "choices": {"bob": 3}})
{'rows': [[3, 12, 17], [24], [58, 61, 70], [2]], 'taken': {'bob': [96]}, 'chosen': {'bob': 3}}
>>> answer({"rows": [[3, 12], [24], [58, 61, 70], [96]], "plays": [["bob", 2]]})["error"]["rule"]
'table.low-card'
"""

from __future__ import annotations

import json
from collections.abc import Mapping
from typing import Any, TextIO

from ._text import N_, json_reason
from .cards import card, cards
from .errors import MalformedInputError, ProtocolError, Take5Error, Where
from .table import ROW_COUNT, Table
from .turn import RowChoice, resolve_turn

__all__ = ["answer", "answer_line", "parse_request", "serve"]

#: The most players a turn can have.
_MAX_PLAYS = 10


def parse_request(request: object) -> tuple[Table, dict[str, int], dict[str, int]]:
    """Check a request's shape and values; return the table, the plays and the choices."""
    if not isinstance(request, Mapping):
        raise ProtocolError(N_("a request is a JSON object with rows, plays and choices"))
    unknown = sorted(set(request) - {"rows", "plays", "choices"})
    if unknown:
        raise ProtocolError(N_("unknown request field {field!r}"), field=unknown[0])
    if "rows" not in request or "plays" not in request:
        raise ProtocolError(N_("a request needs both 'rows' and 'plays'"))
    rows = request["rows"]
    if not isinstance(rows, list) or not all(isinstance(row, list) for row in rows):
        raise ProtocolError(N_("'rows' is a list of four lists of cards"))
    table = Table.of(rows)
    plays_field = request["plays"]
    if not isinstance(plays_field, list) or not 1 <= len(plays_field) <= _MAX_PLAYS:
        raise ProtocolError(N_("'plays' is a list of 1 to 10 [player, card] pairs"))
    plays: dict[str, int] = {}
    for pair in plays_field:
        if not (isinstance(pair, list) and len(pair) == 2 and isinstance(pair[0], str)):
            raise ProtocolError(N_("each play is a pair [player, card], not {value!r}"),
                                value=pair)
        player, value = pair
        if player in plays:
            raise ProtocolError(N_("player {player!r} plays twice in one turn"), player=player)
        plays[player] = card(value, Where(player=player))
    cards([*table.cards(), *plays.values()])
    choices_field = request.get("choices", {})
    if not isinstance(choices_field, Mapping):
        raise ProtocolError(N_("'choices' is an object mapping players to row indices"))
    choices: dict[str, int] = {}
    for player, index in choices_field.items():
        if player not in plays:
            raise ProtocolError(N_("'choices' names {player!r}, who plays no card"),
                                player=player)
        if isinstance(index, bool) or not isinstance(index, int) or not 0 <= index < ROW_COUNT:
            raise ProtocolError(
                N_("the choice of {player!r} is {value!r}; a row index is 0, 1, 2 or 3"),
                player=player,
                value=index,
            )
        choices[player] = index
    return table, plays, choices


def answer(request: object, language: str = "en") -> dict[str, Any]:
    """The reply to one request (already parsed from JSON): the turn resolved, or an error.

    Error messages are in *language*; the rule id is the same in every language.
    """
    try:
        table, plays, choices = parse_request(request)
        chosen: dict[str, int] = {}

        def choose(choice: RowChoice) -> int:
            if choice.player not in choices:
                raise MalformedInputError(
                    "table.low-card",
                    N_("card {value} of {player!r} is lower than every row's last card, and "
                       "'choices' has no row for {player!r}"),
                    where=Where(player=choice.player, card=choice.card),
                    value=choice.card,
                    player=choice.player,
                )
            chosen[choice.player] = choices[choice.player]
            return choices[choice.player]

        result = resolve_turn(table, plays, choose)
    except Take5Error as error:
        return {"error": {"rule": error.rule, "message": _message(error, language)}}
    return {
        "rows": result.table.to_json(),
        "taken": {player: list(taken) for player, taken in result.taken().items()},
        "chosen": chosen,
    }


def _message(error: Take5Error, language: str) -> str:
    if language == "en":
        return str(error)
    from .i18n import error_message  # only when asked: the referee itself needs no catalog

    return error_message(error, language)


def answer_line(line: str, language: str = "en") -> str:
    """The JSON reply line to one JSON request line.

    >>> answer_line("not json")
    '{"error": {"rule": "protocol", "message": "the request is not valid JSON: Expecting value \
at line 1 column 1 [rule protocol]"}}'
    """
    try:
        request = json.loads(line)
    except json.JSONDecodeError as error:
        failure = ProtocolError(N_("the request is not valid JSON: {reason}"),
                                reason=json_reason(error))
        return json.dumps({"error": {"rule": failure.rule,
                                     "message": _message(failure, language)}},
                          ensure_ascii=False)
    return json.dumps(answer(request, language), ensure_ascii=False)


def serve(stdin: TextIO, stdout: TextIO, language: str = "en") -> int:
    """Answer every non-blank line of *stdin* on *stdout*, flushing each reply; return 0."""
    for line in stdin:
        if not line.strip():
            continue
        stdout.write(answer_line(line, language) + "\n")
        stdout.flush()
    return 0
