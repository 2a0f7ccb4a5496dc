"""The checks of a game's answers, of its arguments and of a deal given from outside.

:class:`take5rules.playing.stepper.Game` checks each answer once, through these, whether it
comes from :meth:`~take5rules.playing.stepper.Game.play` or from a player object the engine
asks; the engine and the saved-game reader use the same checks.

>>> hand = [3, 17, 80]
>>> lay_card(hand, 17, 1, 1, "ana"), hand
(17, [3, 80])
>>> row_index(2, None), check_seed(7)
(2, 7)
>>> check_seed(-7)
Traceback (most recent call last):
...
take5rules.errors.MalformedInputError: seed = -7: a seed is a whole number, 0 or more \
[argument]
"""

from __future__ import annotations

import math
from collections.abc import Mapping

from take5rules import _kernel
from take5rules._messages import N_
from take5rules.cards import Card
from take5rules.errors import IllegalMoveError, MalformedInputError, RulesError, Where
from take5rules.game import add_penalties
from take5rules.setup import check_deal
from take5rules.table import Table, check_row_choice
from take5rules.variants import Rules

__all__ = [
    "LARGEST_SEED",
    "check_deal_given",
    "check_rules",
    "check_seat",
    "check_seed",
    "integral",
    "lay_card",
    "row_index",
    "shown",
]

#: The largest seed a game takes (in size): 2**256, enough for any generator.
LARGEST_SEED = 2**256

#: The rules of a game given none: the standard game to 66 (built once: a game is made often).
_STANDARD = Rules()

#: How many characters of a value an error message shows.
_SHOWN = 60

#: *value* as an ``int`` if it is an integer of any integral type (``numpy.int64``...); a
#: ``bool`` (numpy's too), a float or anything else gives ``None``.
integral = _kernel.integral


def shown(value: object) -> str:
    """*value* as an error message shows it: short, and never by recursing into it.

    A scalar is shown by its ``repr`` (cut at about 60 characters; a long number by its first
    and last ten digits); a container only by its type, so that a list nested 100,000 deep or
    holding a million items makes a short message and costs nothing.

    >>> shown(1.0), shown("x" * 100)[-3:], shown([[[[1]]]]), shown(10**200)
    ('1.0', 'xx…', 'a list', '1000000000…0000000000')
    """
    if isinstance(value, int) and not isinstance(value, bool) and value.bit_length() > 128:
        size = abs(value)
        digits = int(math.log10(size)) + 1
        digits += (size >= 10**digits) - (size < 10 ** (digits - 1))
        sign = "-" if value < 0 else ""
        return f"{sign}{size // 10 ** (digits - 10)}…{size % 10**10:010d}"
    if value is None or isinstance(value, bool | int | float | str | bytes):
        text = repr(value[: _SHOWN + 1] if isinstance(value, str | bytes) else value)
        return text if len(text) <= _SHOWN else text[: _SHOWN - 1] + "…"
    return f"a {type(value).__name__}"


def check_seed(seed: object) -> int:
    """*seed* as the ``int`` that fixes a game's deals: a whole number from 0 to 2**256.

    A numpy integer is the ``int`` it holds; a ``bool``, a float, a text or a negative number
    is refused (``random.Random`` deals the same cards for ``-7`` as for ``7``, so two seeds
    would name one game), with the id ``argument``.
    """
    number = seed if type(seed) is int else integral(seed)
    if number is None or number < 0:
        raise MalformedInputError(
            "argument", N_("{name} = {value}: a seed is a whole number, 0 or more"),
            name="seed", value=shown(seed),
        )
    if number > LARGEST_SEED:
        raise MalformedInputError(
            "argument", N_("{name} = {value}: {name} must be at most {limit} in size"),
            name="seed", value=shown(number), limit="2**256",
        )
    return number


def check_rules(rules: object) -> Rules:
    """*rules* if it is a :class:`~take5rules.variants.Rules`; ``None`` is the standard game."""
    if rules is None:
        return _STANDARD
    if type(rules) is not Rules and not isinstance(rules, Rules):
        raise RulesError(
            "argument", N_("rules is {value!r}: it must be a Rules value, such as Rules()"),
            value=shown(rules),
        )
    return rules


def check_seat(seat: object) -> str:
    """*seat* if it is a text (a seat's name); anything else is refused with ``argument``."""
    if not isinstance(seat, str):
        raise MalformedInputError(
            "argument", N_("{name} = {value}: {name} must be a text"), name="seat",
            value=shown(seat),
        )
    return seat


def _illegal_card(number: int, turn: int, player: str, value: object) -> IllegalMoveError:
    """An answer that is not a card of the player's hand (rule ``turn.reveal``)."""
    return IllegalMoveError(
        "turn.reveal",
        N_("card {value} is not in the hand of {player!r}"),
        where=Where(number, turn, player, value if type(value) is int else None),
        value=value if value is None or isinstance(value, int | float | str) else shown(value),
        player=player,
    )


def lay_card(hand: list[Card], value: object, number: int, turn: int, player: str) -> Card:
    """Take the card *value* out of *hand*; anything else is an illegal move (``turn.reveal``).

    *number*, *turn* and *player* say where, for the error. The card is returned as a plain
    ``int``.
    """
    checked = value if type(value) is int else integral(value)
    if checked is None:
        raise _illegal_card(number, turn, player, value)
    try:
        hand.remove(checked)
    except ValueError:
        raise _illegal_card(number, turn, player, value) from None
    return checked


def row_index(value: object, where: Where | None) -> int:
    """Check the row a low card takes: an index 0..3 of any integral type (``table.low-card``)."""
    checked = value if type(value) is int else integral(value)
    return check_row_choice(value if checked is None else checked, where)


def check_deal_given(
    players: tuple[str, ...],
    number: int,
    table: object,
    hands: Mapping[str, tuple[Card, ...]],
    totals: Mapping[str, int],
    rules: Rules,
) -> None:
    """Check a deal given from outside (:meth:`Game.from_deal`): ``setup.check_deal``.

    A :class:`~take5rules.table.Table` is asked for (not plain rows), every card must be in
    play for *rules*, and *totals* must name the seats, each below the threshold (a total that
    has reached it has ended the game: rule ``game.end``).
    """
    if not isinstance(table, Table):
        raise MalformedInputError(
            "setup.deal",
            N_("{value!r} is not a table; build one with Table.of(rows)"),
            value=shown(table),
        )
    _, checked = check_deal(table, hands, players, rules, round=number)  # rule setup.deal & co
    add_penalties(totals, dict.fromkeys(checked, 0))
    for player in players:
        if totals[player] >= rules.threshold:
            raise RulesError(
                "game.end",
                N_("{player!r} has a total of {total}, at the threshold {threshold} or over: "
                   "the game is already over"),
                where=Where(number, player=player),
                player=player, total=totals[player], threshold=rules.threshold,
            )
