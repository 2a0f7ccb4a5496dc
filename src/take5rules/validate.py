"""Checking game logs: replay a take5-log with the rule functions and report every violation.

A facade over :mod:`take5rules.logs`: :func:`validate` takes a parsed take5-log (see
:mod:`take5rules.log`), checks its shape (that of its JSON Schema), then replays it round by
round with the rule functions themselves: the seats (:func:`~take5rules.setup.check_players`),
the deal or the draft (:mod:`take5rules.logs.deal`), each turn
(:func:`~take5rules.round.play_turn`, which reveals and places the cards), the claims
(:mod:`take5rules.logs.claims`), the scores, the end (:func:`~take5rules.game.game_over`, or a
tournament's last game, :func:`~take5rules.variants.tournament_over`) and the winners. Every
claim the log makes is compared with what the rules give; absent claims are computed. Each
violation names the rule id it breaks (the rule that decides it:
:mod:`take5rules.attribution`), where (round, turn, player, card) and the JSON path in the log.

A round's replay stops at its first illegal play (the state is then unknown), but later rounds
are still checked on their own deal; claims and totals are checked wherever they can be.

Speed: the shape is checked once, where the log enters, by a hand-written check of the schema
(:func:`take5rules.log.check_format`; jsonschema is not used). Each round is then first replayed
by a small kernel on plain ints (:mod:`take5rules.logs.fast`) that only answers whether the
round breaks no rule, and what each player took; any round it does not vouch for is replayed
again by the rule functions (:mod:`take5rules.logs.replay`), which find and name every
violation. Tests pin the two to the same reports on valid logs, on logs broken by every defect
and on logs mutated at random in every field.

Memory: :func:`validate_file` and :func:`validate_stream` read the file incrementally (see
:class:`take5rules.logs.reader.LogStream`) and check each round as soon as it is parsed, so
memory is that of one round, not of the file; :func:`validate` takes a log already parsed.

>>> from take5rules.engine import play_game
>>> from take5rules.log import log_from_events
>>> from take5rules.players import CautiousPlayer, LowestCardPlayer
>>> log = log_from_events(play_game({"ana": CautiousPlayer(), "bob": LowestCardPlayer()}, seed=3))
>>> report = validate(log)
>>> report.valid, report.complete
(True, True)
>>> log["rounds"][0]["turns"][1]["plays"]["ana"] = log["rounds"][0]["turns"][0]["plays"]["ana"]
>>> first = validate(log).violations[0]
>>> first.rule, first.path
('turn.reveal', '$.rounds[0].turns[1].plays.ana')
"""

from __future__ import annotations

import sys
import types
from typing import Any

from .logs.format import load
from .logs.report import Report, Violation
from .logs.validator import validate, validate_file, validate_files, validate_stream

__all__ = [
    "Report",
    "Violation",
    "load",
    "validate",
    "validate_file",
    "validate_files",
    "validate_stream",
]


class _CallableModule(types.ModuleType):
    """This module, callable as its :func:`validate`.

    ``take5rules.validate`` is both the top-level function and this module's name; once the
    module is imported, Python sets the package's attribute to the module. Calling the module
    calls the function, so ``take5rules.validate(log)`` works whichever was imported first.
    """

    def __call__(self, *args: Any, **kwargs: Any) -> Report:
        return validate(*args, **kwargs)


sys.modules[__name__].__class__ = _CallableModule
