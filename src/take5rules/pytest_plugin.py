"""pytest plugin: the ``take5_conformance`` fixture checks a referee program against take5rules.

Installed with take5rules (entry point ``pytest11``), so any project that has take5rules
installed can write, in a test file::

    def test_my_engine(take5_conformance):
        take5_conformance(["./my-engine", "--referee"], cases=200)

A facade over :mod:`take5rules.conformance.plugin`, which defines the fixture; see there.
"""

from __future__ import annotations

from .conformance.plugin import ConformanceCheck, take5_conformance

__all__ = ["ConformanceCheck", "take5_conformance"]
