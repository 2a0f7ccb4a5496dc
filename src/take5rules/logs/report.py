"""The validator's report: each :class:`Violation` and the :class:`Report` of a whole log.

:class:`Findings` collects them as a check goes: the violations in the order found and the
rules the check exercised.
"""

from __future__ import annotations

import json
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from take5rules.errors import NOT_RULES, Take5Error, Where
from take5rules.registry import RULE_ORDER
from take5rules.text import error_message, explain, translator

__all__ = ["Findings", "Report", "Violation", "shown"]


@dataclass(frozen=True, slots=True)
class Violation:
    """One rule a log breaks: the error (rule id, where, message) and its JSON path in the log."""

    error: Take5Error
    path: str

    @property
    def rule(self) -> str:
        """The id of the rule broken."""
        return self.error.rule

    @property
    def where(self) -> Where:
        """Where in the game: round, turn, player and card, as far as they apply."""
        return self.error.where

    def message(self, language: str = "en") -> str:
        """The violation in *language*: where, what the log says against the rules, the rule id."""
        return error_message(self.error, language)

    def statement(self, language: str = "en") -> str:
        """The statement of the rule broken, in *language* (or what a non-rule id stands for)."""
        if self.rule in NOT_RULES:  # a variant that does not exist breaks no rule of the game
            return translator(language).gettext(NOT_RULES[self.rule])
        return explain(self.rule, language).statement

    def to_json(self, language: str = "en") -> dict[str, Any]:
        """A JSON-ready description of the violation."""
        return {
            "rule": self.rule,
            "where": self.where.parts(),
            "path": self.path,
            "message": self.message(language),
            "statement": self.statement(language),
        }


@dataclass(frozen=True, slots=True)
class Report:
    """The outcome of checking a log.

    ``violations`` in the order found; ``complete`` says whether the log records a finished
    game; ``rounds`` the rounds recorded; ``rules`` the rule ids the check exercised, in rulebook
    order; ``totals`` each player's total after the last whole round and ``winners`` the
    winners of a finished game, when the replay could compute them.
    """

    violations: tuple[Violation, ...]
    complete: bool
    rounds: int
    rules: tuple[str, ...]
    totals: Mapping[str, int] | None = None
    winners: tuple[str, ...] | None = None

    @property
    def valid(self) -> bool:
        """Whether the log breaks no rule."""
        return not self.violations

    @property
    def incomplete(self) -> bool:
        """Whether the log stops before the game is over (a game in progress)."""
        return not self.complete

    def to_json(self, language: str = "en") -> dict[str, Any]:
        """A JSON-ready description of the report."""
        return {
            "valid": self.valid,
            "complete": self.complete,
            "rounds": self.rounds,
            "totals": dict(self.totals) if self.totals is not None else None,
            "winners": list(self.winners) if self.winners is not None else None,
            "violations": [violation.to_json(language) for violation in self.violations],
            "rules": list(self.rules),
        }


class Findings:
    """What a check has found so far: the violations, in order, and the rules exercised."""

    def __init__(self) -> None:
        self.violations: list[Violation] = []
        self.used: set[str] = set()

    def use(self, *rules: str) -> None:
        """Note that the check exercised *rules*."""
        self.used.update(rules)

    def fail(self, error: Take5Error, path: str) -> None:
        """Note a violation of *error*'s rule at the JSON *path*."""
        self.used.add(error.rule)
        self.violations.append(Violation(error, path))

    def report(
        self,
        complete: bool,
        rounds: int,
        totals: Mapping[str, int] | None = None,
        won: tuple[str, ...] | None = None,
    ) -> Report:
        """The report: complete only if the log records a finished game and breaks no rule."""
        return Report(
            tuple(self.violations),
            complete and not self.violations,
            rounds,
            tuple(filter(self.used.__contains__, RULE_ORDER)),
            totals,
            won,
        )


def shown(value: object) -> str:
    """*value* as JSON text for a message, printable (a lone surrogate escaped)."""
    text = json.dumps(value, ensure_ascii=False)
    return text.encode("utf-8", "backslashreplace").decode("utf-8") if not text.isascii() \
        else text
