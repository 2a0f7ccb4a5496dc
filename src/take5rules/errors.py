"""Exceptions: one base class, each error naming the rule it enforces and where it was broken.

Every check in the library raises a subclass of :class:`Take5Error`. An error carries

* ``rule``: the stable id of the rule that was broken (see :mod:`take5rules.registry`), or,
  for a failure that breaks no rule of the game, one of the ids of :data:`NOT_RULES`
  (``argument``, ``variant-name``, ``protocol``, ``log``, ``registry``, ``i18n``, ``input``,
  ``player``, ``player-protocol``, ``state``, ``extra``), which
  :func:`take5rules.text.error_message` shows as ``[argument]``, not as a rule;
* ``where``: a :class:`Where` (round, turn, player, card), each part optional;
* ``template`` and ``params``: the English message with its placeholders, so that
  :func:`take5rules.text.error_message` can say the same thing in any supported language.

>>> from take5rules.cards import bull_heads
>>> try:
...     bull_heads(105)
... except MalformedInputError as error:
...     print(error.rule, "|", error)
cards.deck | card 105: a card is a whole number from 1 to 104 [rule cards.deck]

Every error survives pickling (so a rule error raised in a worker process reaches its parent
whole); :class:`IllegalMoveError` and :class:`MalformedInputError` are also
:class:`ValueError` too, as python-chess's errors are.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from take5rules._messages import N_

__all__ = [
    "NOT_RULES",
    "IllegalMoveError",
    "LogError",
    "MalformedInputError",
    "ProtocolError",
    "RulesError",
    "Take5Error",
    "Where",
]

#: The ids an error names when it breaks no rule of the game, each with what it stands for
#: (msgids; ``take5rules explain`` and the docs show them beside the rules).
NOT_RULES: Mapping[str, str] = {
    "argument": N_("An argument of a function that is not of the documented kind: a row index "
                   "outside 0 to 3, a value of the wrong type. No rule of the game is broken."),
    "variant-name": N_("A variant name that is not one of the four: 'standard', 'tactics', "
                       "'logic' and 'tournament'."),
    "protocol": N_("A request of the referee's line protocol that is not of the documented "
                   "shape."),
    "log": N_("A file that cannot be read or written as a take5-log, or a document that is "
              "not one."),
    "registry": N_("A rule id that names no rule of the registry."),
    "i18n": N_("A language without a compiled catalog, or a message without a translation."),
    "input": N_("A person's input that cannot be used: it ended before the game did, or it is "
                "not text. No rule of the game is broken."),
    "player": N_("A player program that failed: it raised an error, or gave no decision in "
                 "time. No rule of the game is broken."),
    "player-protocol": N_("A player program that broke the take5-player protocol: it could "
                          "not start, exited, wrote what is not a reply, answered illegally or "
                          "too late, or declined. No rule of the game is broken."),
    "state": N_("A saved game that does not hold what a saved game holds. No rule of the game "
                "is broken."),
    "extra": N_("An optional package that is not installed; the message names the extra that "
                "installs it."),
}


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
        if self.rule in NOT_RULES:  # no rule of the game is broken: the id alone, as the CLI
            return f"{prefix}{self.message} [{self.rule}]"
        return f"{prefix}{self.message} [rule {self.rule}]"

    def to_json(self) -> dict[str, Any]:
        """A JSON-ready description: rule, message, and where."""
        return {"rule": self.rule, "message": self.message, "where": self.where.parts()}

    def __reduce__(self) -> tuple[Any, ...]:
        """Pickle by the fields, whatever the subclass's constructor takes."""
        return (_restore, (type(self), self.rule, self.template, self.where, self.params),
                self.__dict__)


def _restore(
    cls: type[Take5Error], rule: str, template: str, where: Where, params: Mapping[str, Any]
) -> Take5Error:
    """An error of class *cls* rebuilt from its fields (the other half of ``__reduce__``)."""
    error = cls.__new__(cls)
    Take5Error.__init__(error, rule, template, where=where, **params)
    return error


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


class IllegalMoveError(Take5Error, ValueError):
    """A well-formed move that the rules forbid: a card not in hand, a row that may not be taken.

    Like python-chess's ``IllegalMoveError``, it is also a :class:`ValueError`.
    """
