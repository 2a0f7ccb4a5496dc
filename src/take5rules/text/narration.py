"""Narration: the events of a game told in a language, one line each (several for a deal).

>>> from take5rules.events import CardPlaced
>>> print(narrate(CardPlaced(1, 1, "bob", 4, 0, ((3, 4), (24,), (58,), (96,))), "fr"))
Le 4 joué par bob va au bout de la rangée 1.
"""

from __future__ import annotations

from collections.abc import Iterable

from take5rules._messages import N_, Nn_, shown
from take5rules.cards import total_bull_heads
from take5rules.errors import MalformedInputError
from take5rules.events import (
    CardDrafted,
    CardPlaced,
    CardsRevealed,
    Event,
    GameOver,
    GameStarted,
    LowCardTaken,
    RoundScored,
    RoundStarted,
    SixthCardTaken,
)
from take5rules.text.negotiation import translator
from take5rules.text.rulebook import variant_name
from take5rules.variants import Rules, Variant

__all__ = ["narrate", "narrate_all"]

def _row(index: int) -> int:
    return index + 1


def narrate(event: Event, language: str = "en", *, strict: bool = False,
            rules: Rules | None = None) -> str:
    """One event told in *language*: one line, or several for a deal or a score.

    *rules* are the game's (as its :class:`~take5rules.events.GameStarted` gives them): the end
    of a tournament is told as a tournament's, after its games; without them, as a game's.
    Penalties are told in bull heads, the word the placements use.

    >>> from take5rules.events import SixthCardTaken
    >>> event = SixthCardTaken(1, 4, "Bob", 74, 1, (51, 55, 61, 68, 73),
    ...                        ((12,), (74,), (80,), (96,)))
    >>> print(narrate(event, "en"))
    Bob's 74 would be the sixth card in row 2: Bob takes 51, 55, 61, 68, and 73, 11 bull heads.
    """
    tr = translator(language, strict)
    g = tr.gettext
    n = tr.number
    if isinstance(event, GameStarted):
        if event.rules.variant is Variant.TOURNAMENT:
            return g(
                N_("A tournament begins with {players}: {rounds} games of one round each, one "
                   "per player, the drafted hands passing to the left after each game.")
            ).format(players=tr.list(event.players), rounds=n(len(event.players)))
        return g(
            N_("A game begins with {players}: {variant}, ending when a total reaches "
               "{threshold}.")
        ).format(
            players=tr.list(event.players),
            variant=variant_name(event.rules.variant, tr.language, strict=strict),
            threshold=n(event.rules.threshold),
        )
    if isinstance(event, CardDrafted):
        return g(N_("Pick {pick}: {player} takes {card}.")).format(
            pick=n(event.pick), player=event.player, card=n(event.card)
        )
    if isinstance(event, RoundStarted):
        lines = [
            g(N_("Round {round}. The four rows start with {cards}.")).format(
                round=n(event.round), cards=tr.cards(row[0] for row in event.rows)
            )
        ]
        lines.extend(
            g(N_("{player} holds {cards}.")).format(player=player, cards=tr.cards(hand))
            for player, hand in event.hands.items()
        )
        return "\n".join(lines)
    if isinstance(event, CardsRevealed):
        plays = [
            g(N_("{player} {card}")).format(player=player, card=n(card))
            for player, card in event.plays
        ]
        return g(N_("Turn {turn}: the cards are revealed: {plays}.")).format(
            turn=n(event.turn), plays=tr.list(plays)
        )
    if isinstance(event, CardPlaced):
        return g(N_("{player}'s {card} goes at the end of row {row}.")).format(
            player=event.player, card=n(event.card), row=n(_row(event.row))
        )
    if isinstance(event, SixthCardTaken):
        heads = total_bull_heads(event.taken)
        return tr.ngettext(
            Nn_(
                "{player}'s {card} would be the sixth card in row {row}: {player} takes "
                "{cards}, {count} bull head.",
                "{player}'s {card} would be the sixth card in row {row}: {player} takes "
                "{cards}, {count} bull heads.",
            ),
            heads,
        ).format(
            player=event.player, card=n(event.card), row=n(_row(event.row)),
            cards=tr.cards(event.taken), count=n(heads),
        )
    if isinstance(event, LowCardTaken):
        heads = total_bull_heads(event.taken)
        return tr.ngettext(
            Nn_(
                "{player}'s {card} is lower than the last card of every row: {player} takes "
                "row {row} ({cards}, {count} bull head), and {card} starts it anew.",
                "{player}'s {card} is lower than the last card of every row: {player} takes "
                "row {row} ({cards}, {count} bull heads), and {card} starts it anew.",
            ),
            heads,
        ).format(
            player=event.player, card=n(event.card), row=n(_row(event.row)),
            cards=tr.cards(event.taken), count=n(heads),
        )
    if isinstance(event, RoundScored):
        lines = [g(N_("End of round {round}.")).format(round=n(event.round))]
        lines.extend(
            tr.ngettext(
                Nn_(
                    "{player}: {count} bull head this round, {total} in all.",
                    "{player}: {count} bull heads this round, {total} in all.",
                ),
                penalty,
            ).format(player=player, count=n(penalty), total=n(event.totals[player]))
            for player, penalty in event.penalties.items()
        )
        return "\n".join(lines)
    if isinstance(event, GameOver):
        best = event.totals[event.winners[0]]
        over = tr.ngettext(
            Nn_("The tournament is over after {count} game.",
                "The tournament is over after {count} games.")
            if rules is not None and rules.variant is Variant.TOURNAMENT else
            Nn_("The game is over after {count} round.", "The game is over after {count} rounds."),
            event.rounds,
        ).format(count=n(event.rounds))
        won = tr.ngettext(
            Nn_("The winner, with a total of {total}: {players}.",
                "The winners, with a total of {total} each: {players}."),
            len(event.winners),
        ).format(total=n(best), players=tr.list(event.winners))
        return f"{over} {won}"
    raise MalformedInputError(
        "argument", N_("{value!r} is not an event of take5rules.events"), value=shown(event))


def narrate_all(events: Iterable[Event], language: str = "en", *, strict: bool = False) -> str:
    """A whole game told in *language*, one event per paragraph line.

    The rules of its :class:`~take5rules.events.GameStarted` tell how its end is told.
    """
    lines = []
    rules: Rules | None = None
    for event in events:
        if isinstance(event, GameStarted):
            rules = event.rules
        lines.append(narrate(event, language, strict=strict, rules=rules))
    return "\n".join(lines)


