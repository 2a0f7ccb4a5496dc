"""The arguments of the agent surfaces (the PettingZoo env, the MCP server), checked once.

Each check returns the value as the surface uses it, or raises a
:class:`~take5rules.errors.MalformedInputError` with the id ``argument`` that names the argument
and shows the value, shortened so that a 5,000-digit number or a 60 MB text makes a short
message. A ``bool`` or a float is never a whole number; numpy integers are (RL code passes
``np.int64`` seeds all the time).

>>> whole_number("seed", 7)
7
>>> whole_number("players", True)
Traceback (most recent call last):
...
take5rules.errors.MalformedInputError: players = True: players must be a whole number \
[argument]
>>> shown(10**5000)
'1000000000…0000000000'
"""

from __future__ import annotations

import math
import operator
from collections.abc import Sequence

from take5rules._messages import N_
from take5rules.errors import MalformedInputError, RulesError
from take5rules.text import available_languages, resolve_language

__all__ = [
    "ARGUMENT",
    "LARGEST",
    "MAX_ROUNDS",
    "MAX_THRESHOLD",
    "checked_threshold",
    "choice",
    "language",
    "row_index",
    "seed",
    "shown",
    "text",
    "whole_number",
]

#: The id of an error in an argument: no rule of the game is broken.
ARGUMENT = "argument"

#: The largest whole number an argument may be (in size): 2**256, enough for any seed.
LARGEST = 2**256

#: How many characters of a value an error message shows.
_SHOWN = 60


def shown(value: object) -> str:
    """*value* as an error message shows it: its ``repr``, at most about 60 characters.

    A number too long is shown by its first and last ten digits (its ``repr`` alone would fail
    beyond Python's digit limit).
    """
    if isinstance(value, int) and not isinstance(value, bool) and value.bit_length() > 128:
        size = abs(value)
        digits = int(math.log10(size)) + 1
        digits += (size >= 10**digits) - (size < 10 ** (digits - 1))
        sign = "-" if value < 0 else ""
        return f"{sign}{size // 10 ** (digits - 10)}…{size % 10**10:010d}"
    try:
        text_form = repr(value)
    except (ValueError, RecursionError):  # a value too large or nested too deeply to show
        return type(value).__name__
    return text_form if len(text_form) <= _SHOWN else text_form[: _SHOWN - 1] + "…"


def whole_number(name: str, value: object) -> int:
    """*value* as an ``int``: an ``int`` or a numpy integer, never a ``bool`` or a float.

    A number beyond :data:`LARGEST` is refused: no count, index, threshold or seed needs it,
    and beyond 4,300 digits Python cannot even write it in a message.
    """
    if not isinstance(value, bool):
        try:
            number = operator.index(value)  # type: ignore[arg-type]
        except TypeError:
            pass
        else:
            if abs(number) <= LARGEST:
                return number
            raise MalformedInputError(
                ARGUMENT, N_("{name} = {value}: {name} must be at most {limit} in size"),
                name=name, value=shown(number), limit="2**256",
            )
    raise MalformedInputError(
        ARGUMENT, N_("{name} = {value}: {name} must be a whole number"), name=name,
        value=shown(value),
    )


def seed(name: str, value: object) -> int | None:
    """A seed: ``None``, or a whole number 0 or more (as Gymnasium's seeds are).

    A negative seed is refused: Python's :class:`random.Random` deals the same cards for
    ``-7`` as for ``7``, so two seeds would name one game.
    """
    if value is None:
        return None
    number = whole_number(name, value)
    if number < 0:
        raise MalformedInputError(
            ARGUMENT, N_("{name} = {value}: a seed is a whole number, 0 or more"), name=name,
            value=shown(number),
        )
    return number


def text(name: str, value: object) -> str:
    """*value* if it is a text (``str``)."""
    if not isinstance(value, str):
        raise MalformedInputError(
            ARGUMENT, N_("{name} = {value}: {name} must be a text"), name=name,
            value=shown(value),
        )
    return value


def choice(name: str, value: object, choices: Sequence[str]) -> str:
    """*value* if it is one of the texts *choices*."""
    if not isinstance(value, str) or value not in choices:
        raise MalformedInputError(
            ARGUMENT, N_("{name} = {value}: choose one of {choices}"), name=name,
            value=shown(value), choices=", ".join(choices),
        )
    return value


def row_index(name: str, value: object) -> int:
    """*value* if it is a row index, 0 to 3 (a bad one is an ``argument`` error, not a rule's).

    >>> row_index("row", 4)
    Traceback (most recent call last):
    ...
    take5rules.errors.MalformedInputError: row = 4: a row index is 0, 1, 2 or 3 [argument]
    """
    from take5rules.table import ROW_COUNT

    number = whole_number(name, value)
    if not 0 <= number < ROW_COUNT:
        raise MalformedInputError(ARGUMENT, N_("{name} = {value}: a row index is 0, 1, 2 or 3"),
                                  name=name, value=shown(number))
    return number


def language(name: str, value: object) -> str:
    """The supported language a locale tag names (``fr``, ``fr_CA``, ``bg-BG`` ...)."""
    tag = text(name, value)
    resolved, notice = resolve_language(tag)
    if notice is not None or not tag:
        raise MalformedInputError(
            ARGUMENT, N_("{name} = {value}: not a supported language; choose one of {choices}"),
            name=name, value=shown(tag), choices=", ".join(available_languages()),
        )
    return resolved


#: The highest threshold the command line and the MCP server play to. Whatever the players do,
#: a round takes at least 10n - 16 cards off the table (10n are played onto four rows that hold
#: at most 20), each worth at least one bull head, so the highest total grows by at least two
#: bull heads a round: a game to 1,000 ends within 500 rounds, a second or two. Far higher
#: thresholds only make a game run for hours (and there is no rule to learn there).
MAX_THRESHOLD = 1000
#: The most rounds a game to :data:`MAX_THRESHOLD` can last (two bull heads a round at least).
MAX_ROUNDS = MAX_THRESHOLD // 2

_TOO_HIGH = N_("threshold {value}: take5rules plays to at most {limit} bull heads, so that "
               "every game ends within {rounds} rounds")


def checked_threshold(value: int) -> int:
    """*value* if the command line and the MCP server play to it: at most :data:`MAX_THRESHOLD`.

    (``Rules`` refuses a threshold below 1.)

    >>> checked_threshold(66)
    66
    >>> checked_threshold(10**30)
    Traceback (most recent call last):
    ...
    take5rules.errors.RulesError: threshold 1000000000000000000000000000000: take5rules plays \
to at most 1000 bull heads, so that every game ends within 500 rounds [rule variants.threshold]
    """
    if value > MAX_THRESHOLD:
        raise RulesError("variants.threshold", _TOO_HIGH, value=value, limit=MAX_THRESHOLD,
                         rounds=MAX_ROUNDS)
    return value
