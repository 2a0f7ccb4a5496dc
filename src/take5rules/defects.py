"""Defects: every way a take5-log can break the rules, as a mutation of a valid log.

Each :class:`Defect` takes a valid log and a *pick* function that chooses among the places the
defect can go (the first, for the shipped vectors; any, for property tests), and returns the
broken log with the rule ids its first violation may name. Other projects can use them to test
their own validators: a validator that accepts a defective log has a bug.

>>> from take5rules.vectors import game_log
>>> log = game_log((("ana", "cautious"), ("bob", "lowest")), seed=3)
>>> broken, expected = DEFECTS["card-played-twice"].apply(log, lambda options: options[0])
>>> sorted(expected)
['turn.reveal']

A facade over :mod:`take5rules.logs.defects`.
"""

from __future__ import annotations

from .logs.defects import (
    DEFECTS,
    Defect,
    Log,
    Pick,
)

__all__ = ["DEFECTS", "Defect", "Log", "Pick"]
