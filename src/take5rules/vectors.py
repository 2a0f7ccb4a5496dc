"""Conformance vectors: a language-neutral test suite, generated from our referee and validator.

``take5rules vectors --out DIR`` writes

* ``turns.jsonl``: one referee-protocol case per line, ``{"request", "expected", "rules",
  "description"}``; the expected reply is :func:`take5rules.referee.answer_line`'s;
* ``games/valid/*.json`` and ``games/invalid/*.json``: whole-game take5-logs (see
  :mod:`take5rules.log`), each carrying what :func:`take5rules.validate.validate` says of it in
  its top-level ``x-expected`` member (an extension member the schema allows and validators
  ignore): ``valid``, ``complete``, and for an invalid log the ``rule`` its first violation
  breaks, with ``where`` and ``path``;
* ``README.md``: how to run the suite from any language.

Every expected result comes from our code; nothing is typed by hand but the requests, the
games' seeds and the defects. The suite is deterministic: the same version writes the same
bytes. Together the vectors exercise every rule id of the registry.

The invalid games are valid games broken by the defects of :mod:`take5rules.defects`.

>>> log = game_log((("ana", "cautious"), ("bob", "lowest")), seed=3)
>>> from take5rules.validate import validate
>>> validate(log).valid
True

A facade over :mod:`take5rules.logs.vectors`.
"""

from __future__ import annotations

from .logs.vectors import (
    GAMES,
    TURN_CASES,
    GameSpec,
    TurnCase,
    game_events,
    game_log,
    suite,
    turn_vectors,
    write_suite,
)

__all__ = [
    "GAMES",
    "TURN_CASES",
    "GameSpec",
    "TurnCase",
    "game_events",
    "game_log",
    "suite",
    "turn_vectors",
    "write_suite",
]
