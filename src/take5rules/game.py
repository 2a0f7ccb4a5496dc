"""The game: totals across rounds, when the game ends, and who wins.

>>> totals = add_penalties({"ana": 60, "bob": 40}, {"ana": 6, "bob": 18})
>>> totals, game_over(totals, 66), winners(totals)
({'ana': 66, 'bob': 58}, True, ('bob',))
"""

from __future__ import annotations

from collections.abc import Mapping

from take5rules import _kernel
from take5rules._messages import N_
from take5rules.errors import MalformedInputError, Where
from take5rules.registry import AMIGO, SEEDS, Source, rule
from take5rules.variants import agreed_threshold

__all__ = ["add_penalties", "game_over", "winners"]

_FR, _BG, _FR2, _IT, _EO = SEEDS


def _check_totals(totals: object) -> None:
    if not isinstance(totals, Mapping):
        raise MalformedInputError(
            "game.totals", N_("{value!r} is not a mapping of players to totals"), value=totals
        )
    for player, total in totals.items():
        if isinstance(total, bool) or not isinstance(total, int) or total < 0:
            raise MalformedInputError(
                "game.totals",
                N_("total {value!r}: a total is a whole number of bull heads, zero or more"),
                where=Where(player=str(player)),
                value=total,
            )


@rule(
    "game.totals",
    title=N_("Running totals"),
    statement=N_(
        "Each player's round penalty is added to their total, which can only grow from round "
        "to round."
    ),
    explanation=N_(
        "Points are never subtracted: a good round simply adds nothing. The totals are "
        "written on a score sheet after each round and decide both the end and the winner. "
        "Example: Ana has 21 points after the first round and takes 11 bull heads in the "
        "second; her total becomes 32."
    ),
    sources=(
        Source(_FR, "Notation et fin du tour"),
        Source(_BG, "Оценяване и край на кръга"),
        Source(_FR2, "Quand la partie se termine-t-elle et qui l'emporte ?"),
        Source(_EO, "Poentado kaj Fino de Rondo"),
        Source(AMIGO, "End of a round"),
    ),
)
def add_penalties(totals: Mapping[str, int], penalties: Mapping[str, int]) -> dict[str, int]:
    """The totals after adding one round's *penalties* (rule ``game.totals``).

    >>> add_penalties({"ana": 21, "bob": 0}, {"ana": 11, "bob": 0})
    {'ana': 32, 'bob': 0}
    >>> add_penalties({"ana": 21}, {"ana": -3})
    Traceback (most recent call last):
    ...
    take5rules.errors.MalformedInputError: player 'ana': penalty -3: a round's penalty is \
a whole number of bull heads, zero or more [rule game.totals]
    >>> add_penalties({"ana": True}, {"ana": 3})
    Traceback (most recent call last):
    ...
    take5rules.errors.MalformedInputError: player 'ana': total True: a total is a whole number \
of bull heads, zero or more [rule game.totals]
    """
    _check_totals(totals)
    if set(totals) != set(penalties):
        raise MalformedInputError(
            "game.totals",
            N_("the penalties name players {penalties} but the totals name {totals}"),
            penalties=sorted(penalties),
            totals=sorted(totals),
        )
    for player, penalty in penalties.items():
        if isinstance(penalty, bool) or not isinstance(penalty, int) or penalty < 0:
            raise MalformedInputError(
                "game.totals",
                N_("penalty {value!r}: a round's penalty is a whole number of bull heads, "
                   "zero or more"),
                where=Where(player=player),
                value=penalty,
            )
    return _kernel.add(totals, penalties)


@rule(
    "game.end",
    title=N_("End of the game"),
    statement=N_(
        "The game ends after the round in which at least one player's total reaches 66 "
        "points or more."
    ),
    explanation=N_(
        "The round in progress is always played to its end; the game stops only when the "
        "round is scored. Exactly 66 is enough: the game does not need a total above 66, "
        "whatever some translations say. Players may agree on another threshold before they "
        "start. Example: after the third round the totals are 66, 40 and 52; the game ends "
        "there, although nobody went past 66."
    ),
    sources=(
        Source(_FR, "Prise gagnante 5 (6 Nimmt !)"),
        Source(_BG, "Печеливш дубъл 5 (6 Nimmt!)"),
        Source(_FR2, "Quand la partie se termine-t-elle et qui l'emporte ?"),
        Source(_IT, "TERMINARE IL GIOCO"),
        Source(_EO, "Gajni Prenu 5 (6 Nimmt!)"),
        Source(AMIGO, "End of the game"),
    ),
)
def game_over(totals: Mapping[str, int], threshold: int = _kernel.DEFAULT_THRESHOLD) -> bool:
    """Whether the game ends now that a round is scored: some total >= *threshold* (``game.end``).

    >>> game_over({"ana": 66, "bob": 40}), game_over({"ana": 65, "bob": 40})
    (True, False)
    """
    _check_totals(totals)
    agreed_threshold(threshold)
    return _kernel.ended(totals, threshold)


@rule(
    "game.winners",
    title=N_("Winning"),
    statement=N_(
        "When the game ends, the player with the fewest points wins; players tied on the "
        "fewest share the win."
    ),
    explanation=N_(
        "Only the lowest total matters; the player who reached the threshold has simply "
        "lost the most. The rules name no tie-breaker, so equal lowest totals share the "
        "victory. Example: final totals of 70, 31 and 31 make the two players on 31 joint "
        "winners."
    ),
    sources=(
        Source(_FR, "Prise gagnante 5 (6 Nimmt !)"),
        Source(_BG, "Печеливш дубъл 5 (6 Nimmt!)"),
        Source(_FR2, "Quand la partie se termine-t-elle et qui l'emporte ?"),
        Source(_IT, "VINCERE"),
        Source(_EO, "Gajni Prenu 5 (6 Nimmt!)"),
        Source(AMIGO, "End of the game"),
    ),
)
def winners(totals: Mapping[str, int]) -> tuple[str, ...]:
    """Every player holding the lowest total, in seat order (rule ``game.winners``).

    >>> winners({"ana": 70, "bob": 31, "cyd": 31})
    ('bob', 'cyd')
    """
    _check_totals(totals)
    if not totals:
        raise MalformedInputError("game.winners", N_("there are no totals to compare"))
    return _kernel.lowest(totals)
