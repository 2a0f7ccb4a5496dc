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
[rule argument]
>>> shown(10**5000)
'1000000000…0000000000'
"""

from __future__ import annotations

import math
import operator
from collections.abc import Sequence

from ._text import N_
from .errors import MalformedInputError
from .i18n import available_languages, resolve_language

__all__ = [
    "ARGUMENT",
    "LARGEST",
    "choice",
    "language",
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
