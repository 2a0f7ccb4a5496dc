"""Setting up a round: who may play, which cards are in play, and the deal.

>>> from take5rules.variants import Rules, Variant
>>> players = check_players(["ana", "bob", "cyd"], Rules())
>>> len(cards_in_play(Rules(Variant.TACTICS), len(players)))
34
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from types import MappingProxyType

from . import _kernel
from ._text import N_
from .cards import Card, cards, deck
from .errors import RulesError
from .registry import AMIGO, SEEDS, Source, rule
from .variants import PLAYER_RANGE, Rules, check_player_count, tactics_deck

__all__ = ["HAND_SIZE", "ROWS", "Deal", "cards_in_play", "check_players", "deal", "player_range"]

_FR, _BG, _FR2, _IT, _EO = SEEDS

#: Cards dealt to each player.
HAND_SIZE = _kernel.HAND_SIZE
#: Rows on the table.
ROWS = _kernel.ROWS

def player_range(rules: Rules) -> tuple[int, int]:
    """The least and the most players that *rules* allow.

    >>> player_range(Rules())
    (2, 10)
    """
    return PLAYER_RANGE[rules.variant]


@rule(
    "setup.players",
    title=N_("Number of players"),
    statement=N_(
        "The game is played by 2 to 10 players; the logic variant by 2 to 6, the tournament "
        "by 2 to 5."
    ),
    explanation=N_(
        "Ten players take 100 cards and the rows 4 more, so the 104 cards are just enough for "
        "ten. The face-up draft grows long with many players, and a tournament needs as many "
        "games as players, hence the lower limits of those variants. Each player needs a "
        "distinct name so that every card played can be traced back. Example: eleven friends "
        "cannot all play one game; they can play two tables."
    ),
    sources=(
        Source(_FR, "Composants"),
        Source(_FR, "Prise 5 avancée (6 Nimmt !)"),
        Source(_IT, "Sommario"),
        Source(AMIGO, "Variant 3: Tournament"),
    ),
)
def check_players(players: Sequence[str], rules: Rules) -> tuple[str, ...]:
    """Check the seats: distinct, non-empty names, as many as *rules* allow.

    >>> check_players(["ana"], Rules())
    Traceback (most recent call last):
    ...
    take5rules.errors.RulesError: the standard variant takes 2 to 10 players, not 1 \
[rule setup.players]
    """
    if isinstance(players, str | bytes) or not isinstance(players, Sequence):
        raise RulesError(
            "setup.players",
            N_("{value!r} is not a list of player names"),
            value=players,
        )
    check_player_count(len(players), rules.variant)
    for name in players:
        if not isinstance(name, str) or not name.strip():
            raise RulesError(
                "setup.players",
                N_("player name {value!r}: a player's name is a non-empty text"),
                value=name,
            )
    if len(set(players)) != len(players):
        duplicate = next(name for name in players if players.count(name) > 1)
        raise RulesError(
            "setup.players",
            N_("player name {value!r} is used twice; every player needs a distinct name"),
            value=duplicate,
        )
    return tuple(players)


def cards_in_play(rules: Rules, players: int) -> tuple[Card, ...]:
    """The cards used by *players* players under *rules*: the deck or the reduced deck.

    >>> from take5rules.variants import Variant
    >>> len(cards_in_play(Rules(), 5)), len(cards_in_play(Rules(Variant.LOGIC), 5))
    (104, 54)
    """
    return tactics_deck(players) if rules.reduced_deck else deck()


@dataclass(frozen=True, slots=True)
class Deal:
    """A dealt round: each player's hand, the four cards that start the rows, the cards aside."""

    hands: Mapping[str, tuple[Card, ...]]
    rows: tuple[Card, ...]
    aside: tuple[Card, ...]


@rule(
    "setup.deal",
    title=N_("The deal"),
    statement=N_(
        "Each round, the cards are shuffled, each player receives ten, four more are laid face "
        "up to start four rows, and the rest are set aside unseen."
    ),
    explanation=N_(
        "Each of the four face-up cards is the first card of a row. The cards set aside take "
        "no part in the round, and nobody looks at them; they are shuffled back in for the "
        "next round, when all 104 cards are dealt anew. Players keep their hands secret. "
        "Example: with four players, 40 cards are dealt, 4 start the rows and 60 stay aside."
    ),
    sources=(
        Source(_FR, "Mise en place de la prise 5 (6 Nimmt !)"),
        Source(_BG, "Настройка за Take 5 (6 Nimmt!)"),
        Source(_FR2, "Mise en place de la partie"),
        Source(_IT, "LE CARTE E L'ATTACCO"),
        Source(_EO, "Agordu por Prenu 5 (6 Nimmt!)"),
        Source(AMIGO, "Preparation"),
    ),
)
def deal(shuffled: Sequence[Card], players: Sequence[str]) -> Deal:
    """Deal a shuffled pile: ten cards a seat, four rows, the rest aside (rule ``setup.deal``).

    >>> d = deal(list(range(104, 0, -1)), ["ana", "bob"])
    >>> d.hands["ana"][:3], d.rows, len(d.aside)
    ((104, 103, 102), (84, 83, 82, 81), 80)
    """
    pile = cards(shuffled)
    if len(set(players)) != len(players):
        raise RulesError(
            "setup.players",
            N_("player name {value!r} is used twice; every player needs a distinct name"),
            value=next(name for name in players if players.count(name) > 1),
        )
    needed = HAND_SIZE * len(players) + ROWS
    if len(pile) < needed:
        raise RulesError(
            "setup.deal",
            N_("the deal for {players} players needs {needed} cards, not {count}"),
            count=len(pile),
            players=len(players),
            needed=needed,
        )
    hands, rows, aside = _kernel.deal(pile, players)
    return Deal(MappingProxyType(hands), rows, aside)
