r"""The referee line protocol: us as an oracle, one JSON turn per line.

Any program, in any language, can ask this library how a turn resolves, or answer the same
requests itself and be compared with us (:mod:`take5rules.conform`).

A facade over :mod:`take5rules.conformance.referee`.

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
and the referee keeps serving; end of input ends it. That holds for any line at all: one that
is not UTF-8, not JSON, nested deeper than :data:`MAX_DEPTH`, holding a number too long to
read, a player id that is not Unicode text (a lone surrogate such as ``"\ud800"``), or longer
than :data:`MAX_LINE_BYTES` bytes (the rest of such a line is skipped unread, so memory stays
flat). Every non-blank line gets exactly one reply line, in order.

If the replies cannot be written (the reader has gone, as in ``| head -1``, or the disk is
full), :func:`serve` stops without a traceback: quietly with status 1 when the reader simply
went away, with one line on stderr and status 2 when the output cannot be written.

>>> answer({"rows": [[3, 12], [24], [58, 61, 70], [96]],
...         "plays": [["ana", 17], ["bob", 2]], "choices": {"bob": 3}})
{'rows': [[3, 12, 17], [24], [58, 61, 70], [2]], 'taken': {'bob': [96]}, 'chosen': {'bob': 3}}
>>> answer({"rows": [[3, 12], [24], [58, 61, 70], [96]], "plays": [["bob", 2]]})["error"]["rule"]
'table.low-card'
"""

from __future__ import annotations

from .conformance.referee import (
    MAX_DEPTH,
    MAX_LINE_BYTES,
    answer,
    answer_line,
    parse_request,
    resolve,
    serve,
)

__all__ = [
    "MAX_DEPTH",
    "MAX_LINE_BYTES",
    "answer",
    "answer_line",
    "parse_request",
    "resolve",
    "serve",
]
