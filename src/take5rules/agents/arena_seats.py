"""The seats of an arena game: the class a spec names, who is deciding, a time per decision.

Kept out of :mod:`take5rules.agents.arena` (which plays the games and keeps their outcomes) so that
each stays a short module.
"""

from __future__ import annotations

import importlib
import importlib.util
import os
import signal
import sys
from collections.abc import Callable
from pathlib import Path
from typing import Any

from take5rules.playing.players import Player

__all__: list[str] = []


def _import_target(spec: str) -> object:
    """The object ``module:Attribute`` or ``file.py:Attribute`` names."""
    module_name, _, attribute = spec.rpartition(":")
    if module_name.endswith(".py") or os.sep in module_name or "/" in module_name:
        path = Path(module_name).resolve()
        name = f"take5rules_arena_{path.stem}_{abs(hash(str(path))):x}"
        module = sys.modules.get(name)
        if module is None:
            found = importlib.util.spec_from_file_location(name, path)
            if found is None or found.loader is None:
                raise ImportError(f"not a Python file: {module_name}")
            module = importlib.util.module_from_spec(found)
            sys.modules[name] = module
            try:
                found.loader.exec_module(module)
            except BaseException:
                del sys.modules[name]
                raise
    else:
        module = importlib.import_module(module_name)
    target: object = module
    for part in attribute.split("."):
        target = getattr(target, part)
    return target


class _Timed:
    """A player whose every decision must come within *seconds* (SIGALRM, main thread only)."""

    def __init__(self, player: Player, seconds: float) -> None:
        self.player, self.seconds = player, seconds

    def _ask(self, decide: Callable[[Any], int], view: Any) -> int:
        previous = signal.signal(signal.SIGALRM, _alarm)
        signal.setitimer(signal.ITIMER_REAL, self.seconds)
        try:
            return decide(view)
        finally:
            signal.setitimer(signal.ITIMER_REAL, 0)
            signal.signal(signal.SIGALRM, previous)

    def choose_card(self, view: Any) -> int:
        return self._ask(self.player.choose_card, view)

    def choose_row(self, view: Any) -> int:
        return self._ask(self.player.choose_row, view)

    def choose_draft(self, view: Any) -> int:
        return self._ask(self.player.choose_draft, view)


class _TooSlow(BaseException):
    """Raised in a player that has not decided in time.

    Not an ``Exception``: the player's own ``except Exception`` must not catch it.
    """


def _alarm(_signal: int, _frame: object) -> None:
    raise _TooSlow


class _Seat:
    """Which player is deciding now, so that a failure names its seat."""

    def __init__(self, name: str, player: Player, current: list[str]) -> None:
        self.name, self.player, self.current = name, player, current

    def choose_card(self, view: Any) -> int:
        self.current[0] = self.name
        return self.player.choose_card(view)

    def choose_row(self, view: Any) -> int:
        self.current[0] = self.name
        return self.player.choose_row(view)

    def choose_draft(self, view: Any) -> int:
        self.current[0] = self.name
        return self.player.choose_draft(view)
