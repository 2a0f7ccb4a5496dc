"""Exceptions: one base class, each error naming the rule it enforces and where it was broken.

Every check in the library raises a subclass of :class:`Take5Error`. An error carries

* ``rule``: the stable id of the rule that was broken (see :mod:`take5rules.registry`), or
  ``"protocol"`` for a malformed line-protocol request;
* ``where``: a :class:`Where` (round, turn, player, card), each part optional;
* ``template`` and ``params``: the English message with its placeholders, so that
  :func:`take5rules.i18n.error_message` can say the same thing in any supported language.

>>> from take5rules.cards import bull_heads
>>> try:
...     bull_heads(105)
... except MalformedInputError as error:
...     print(error.rule, "|", error)
cards.deck | card 105: a card is a whole number from 1 to 104 [rule cards.deck]
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

__all__ = [
    "IllegalMoveError",
    "LogError",
    "MalformedInputError",
    "ProtocolError",
    "RulesError",
    "Take5Error",
    "Where",
]


@dataclass(frozen=True, slots=True)
class Where:
    """Where a rule was broken: any of round, turn, player and card (1-based round and turn).

    >>> str(Where(round=2, turn=3, player="bob", card=74))
    "round 2, turn 3, player 'bob', card 74"
    """

    round: int | None = None
    turn: int | None = None
    player: str | None = None
    card: int | None = None

    def parts(self) -> dict[str, Any]:
        """The fields that are set, in order."""
        return {
            key: value
            for key, value in (
                ("round", self.round),
                ("turn", self.turn),
                ("player", self.player),
                ("card", self.card),
            )
            if value is not None
        }

    def __str__(self) -> str:
        return ", ".join(
            f"{key} {value!r}" if key == "player" else f"{key} {value}"
            for key, value in self.parts().items()
        )


class Take5Error(Exception):
    """Base class of every error raised by take5rules."""

    rule: str
    where: Where
    template: str
    params: Mapping[str, Any]

    def __init__(
        self, rule: str, template: str, /, *, where: Where | None = None, **params: Any
    ) -> None:
        self.rule = rule
        self.where = where if where is not None else Where()
        self.template = template
        self.params = dict(params)
        super().__init__(str(self))

    @property
    def message(self) -> str:
        """The English message, without location or rule id."""
        return self.template.format(**self.params)

    def __str__(self) -> str:
        location = str(self.where)
        prefix = f"{location}: " if location else ""
        return f"{prefix}{self.message} [rule {self.rule}]"

    def to_json(self) -> dict[str, Any]:
        """A JSON-ready description: rule, message, and where."""
        return {"rule": self.rule, "message": self.message, "where": self.where.parts()}


class MalformedInputError(Take5Error, ValueError):
    """Input that is not a valid value at all: a card out of range, a duplicate, a wrong type."""


class RulesError(MalformedInputError):
    """A rules configuration (variant, threshold, player count) that the rules do not allow."""


class ProtocolError(MalformedInputError):
    """A line-protocol request that is not of the documented shape (rule id ``protocol``)."""

    def __init__(self, template: str, /, *, where: Where | None = None, **params: Any) -> None:
        super().__init__("protocol", template, where=where, **params)


class LogError(MalformedInputError):
    """A file that cannot be read or written as a take5-log, or a document that is not one.

    Its rule id is ``log``, like ``protocol`` for the referee protocol: the error is about the
    file format, not about a rule of the game.
    """

    def __init__(self, template: str, /, *, where: Where | None = None, **params: Any) -> None:
        super().__init__("log", template, where=where, **params)


class IllegalMoveError(Take5Error):
    """A well-formed move that the rules forbid: a card not in hand, a row that may not be taken."""
