"""Conformance: run another referee program, send it turns, and compare its answers with ours.

``take5rules conform --cmd "PROGRAM ARGS"`` starts PROGRAM (split like a shell would, but run
without one), which must speak the referee line protocol of :mod:`take5rules.referee`: one JSON
request per line on stdin, one JSON reply per line on stdout. The program is kept running for
the whole check and is killed at the end. It is sent, in this order:

1. the worked examples of the publisher's booklet and the founding texts
   (:data:`WORKED_EXAMPLES`);
2. three invalid requests (:data:`INVALID_REQUESTS`: a duplicate card, a row of six cards, a
   low card without a row choice), for which only an error reply is required; a different rule
   id is reported but is not a failure;
3. ``--cases`` random turns (:func:`take5rules.random_turns.random_request`, drawn from
   ``random.Random(--seed)``): any four legal rows, 2 to 10 plays in seat order, frequent low
   cards and sixth cards, and a row choice for every player (at most one low card can occur in
   a turn, so only the lowest card's player ever needs theirs). The same ``--seed`` sends the
   same turns.

Each reply is compared with :func:`take5rules.referee.answer` (rows, taken and chosen; an
empty list in ``taken`` means "took nothing", like no entry). At the first disagreement,
Hypothesis (the extra ``take5rules[conform]``) searches its own turns
(:func:`take5rules.strategies.requests`) for one the program gets wrong and shrinks it to the
smallest on which the program still disagrees (then two steps Hypothesis cannot take: the
lowest card is moved onto the table while that keeps the disagreement, and row cards that are
not the last of their row are dropped); no Hypothesis database is used and nothing is written
to the current directory. Without Hypothesis, or if it finds no smaller turn, the first
disagreeing turn is reported as it was sent, and the report says so. The report shows the
request, both replies, and the rule that decides the difference (see :func:`deciding_rule`)
with its statement in ``--lang``. Blank lines on stdout and anything on stderr are tolerated;
a reply line longer than :data:`MAX_REPLY_BYTES` makes the program broken, and so does a
reply that cannot be read as JSON (nested too deeply, a number too long).

Exit status:

* ``0``: every turn agrees; the summary lists how often each rule was exercised;
* ``1``: the program disagrees on some turn (or answers an invalid request with a turn);
* ``2``: the program is broken (it cannot start, exits, does not answer within ``--timeout``
  seconds, or answers something that is not a protocol reply; the tail of its stderr is shown),
  or the command line is wrong.

``--json`` prints the result as one JSON object; on a terminal a progress bar is drawn on
stderr.

From Python, :func:`run_conformance` returns a :class:`ConformanceResult`:

>>> import sys
>>> result = run_conformance([sys.executable, "-m", "take5rules", "referee"], cases=20)
>>> result.status, result.exit_code, result.agreed
('agree', 0, 20)

With pytest, the ``take5_conformance`` fixture of :mod:`take5rules.pytest_plugin` (installed
with take5rules) fails the test with the disagreeing turn as its message::

    def test_my_engine(take5_conformance):
        take5_conformance(["./my-engine", "--referee"], cases=200)

This module is a facade over :mod:`take5rules.conformance`: the process driver
(:mod:`~take5rules.conformance.program`), the requests sent first
(:mod:`~take5rules.conformance.cases`), the run (:mod:`~take5rules.conformance.run`), the
shrinking (:mod:`~take5rules.conformance.shrink`) and the report
(:mod:`~take5rules.conformance.report`); the rule that decides a disagreement is
:func:`take5rules.attribution.deciding_rule`.
"""

from __future__ import annotations

from .attribution import deciding_rule
from .conformance.cases import INVALID_REQUESTS, WORKED_EXAMPLES, RequestCase
from .conformance.program import MAX_REPLY_BYTES
from .conformance.report import (
    EXIT_AGREE,
    EXIT_BROKEN,
    EXIT_DISAGREE,
    ConformanceResult,
    Failure,
    InvalidCheck,
    Mismatch,
    format_result,
    result_json,
)
from .conformance.run import MAX_TIMEOUT, Progress, run_conformance

__all__ = [
    "EXIT_AGREE",
    "EXIT_BROKEN",
    "EXIT_DISAGREE",
    "INVALID_REQUESTS",
    "MAX_REPLY_BYTES",
    "MAX_TIMEOUT",
    "WORKED_EXAMPLES",
    "ConformanceResult",
    "Failure",
    "InvalidCheck",
    "Mismatch",
    "Progress",
    "RequestCase",
    "deciding_rule",
    "format_result",
    "result_json",
    "run_conformance",
]
