"""Setting up a round: who may play, which cards are in play, and the deal.

>>> from take5rules.variants import Rules, Variant
>>> players = check_players(["ana", "bob", "cyd"], Rules())
>>> len(cards_in_play(Rules(Variant.TACTICS), len(players)))
34
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from types import MappingProxyType
from typing import Any

from take5rules import _kernel
from take5rules._kernel import Deal
from take5rules._messages import N_, shown
from take5rules.cards import Card, cards, deck
from take5rules.errors import MalformedInputError, RulesError, Where
from take5rules.registry import AMIGO, SEEDS, Source, rule
from take5rules.table import Table, trusted_table
from take5rules.variants import PLAYER_RANGE, Rules, check_player_count, tactics_deck

__all__ = [
    "HAND_SIZE",
    "ROWS",
    "Deal",
    "cards_in_play",
    "check_deal",
    "check_players",
    "deal",
    "player_range",
]

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


def cards_in_play(rules: Rules, player_count: int) -> tuple[Card, ...]:
    """The cards used by *player_count* players under *rules*: the deck or the reduced deck.

    >>> from take5rules.variants import Variant
    >>> len(cards_in_play(Rules(), 5)), len(cards_in_play(Rules(Variant.LOGIC), 5))
    (104, 54)
    """
    return tactics_deck(player_count) if rules.reduced_deck else deck()


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


def check_deal(
    rows: Table | Iterable[Iterable[Card]],
    hands: Mapping[str, Iterable[Card]],
    players: Sequence[str],
    rules: Rules | None = None,
    *,
    fresh: bool = False,
    round: int | None = None,
) -> tuple[Table, dict[str, tuple[Card, ...]]]:
    """Check a deal (rules ``setup.deal``, ``cards.deck``, ``setup.players``, ``variants.tactics``).

    The one check of a deal given from outside, shared by the engine (a round taken up from a
    table and hands), the validator (a logged deal) and the batch (a dealt pile):

    * *rows* is a :class:`~take5rules.table.Table` or four ascending rows (checked as
      :meth:`Table.of <take5rules.table.Table.of>` checks them);
    * *hands* maps every player of *players* (the seats, in order) and nobody else to a hand;
    * every card is a card, and distinct from every other card on the table or in a hand;
    * with *rules*, every card is in play for the variant (``variants.tactics``: 1 to 10n + 4);
    * the hands hold the same number of cards, one to ten; with *fresh* (a round as it is
      dealt) every hand holds ten and every row one card.

    The first problem found raises its error, located by *round*, the player and the card;
    the checked table and hands (tuples of ``int``, in seat order) are returned.

    >>> table, hands = check_deal([[5], [6], [7], [8]], {"ana": [1, 2], "bob": [3, 4]},
    ...                           ["ana", "bob"])
    >>> table.rows, hands
    (((5,), (6,), (7,), (8,)), {'ana': (1, 2), 'bob': (3, 4)})
    >>> check_deal([[5], [6], [7], [8]], {"ana": [1, 2], "bob": [3, 5]}, ["ana", "bob"], round=2)
    Traceback (most recent call last):
    ...
    take5rules.errors.MalformedInputError: round 2, player 'bob', card 5: card 5 appears twice; \
each card exists once in the deck [rule cards.deck]
    """
    seats = check_players(players, rules if rules is not None else Rules())
    reduced = rules if rules is not None and rules.reduced_deck else None
    in_play = _DECK if reduced is None else frozenset(cards_in_play(reduced, len(seats)))
    plain = _plain_deal(rows, hands, seats, in_play, fresh)
    if plain is not None:
        return plain
    where = Where(round)
    table = rows if isinstance(rows, Table) else Table.of(rows, where)
    if fresh:
        for number, row in enumerate(table.rows, start=1):
            if len(row) != 1:
                raise MalformedInputError(
                    "setup.deal",
                    N_("row {row} starts the round with {count} cards; each row starts with one "
                       "card"),
                    where=where, row=number, count=len(row),
                )
    if not isinstance(hands, Mapping):
        raise MalformedInputError(
            "setup.deal", N_("{value!r} is not a mapping of players to hands"), where=where,
            value=shown(hands),
        )
    for player in hands:
        if player not in seats:
            raise MalformedInputError(
                "setup.players",
                N_("{player!r} is not a player of this game"),
                where=Where(round, player=player if isinstance(player, str) else None),
                player=player,
            )
    seen = set(table.cards())
    if reduced is not None:
        _check_in_play(table.cards(), reduced, len(seats), where)
    checked: dict[str, tuple[Card, ...]] = {}
    for player in seats:
        here = Where(round, player=player)
        if player not in hands:
            raise MalformedInputError(
                "setup.deal",
                N_("{player!r} holds no hand; the deal gives a hand to each player"),
                where=here, player=player,
            )
        hand = cards(hands[player], here)
        for value in hand:
            if value in seen:
                raise MalformedInputError(
                    "cards.deck",
                    N_("card {value} appears twice; each card exists once in the deck"),
                    where=Where(round, player=player, card=value), value=value,
                )
            seen.add(value)
        if reduced is not None:
            _check_in_play(hand, reduced, len(seats), here)
        if fresh and len(hand) != HAND_SIZE:
            raise MalformedInputError(
                "setup.deal",
                N_("the deal gives each player ten cards, but the hand of {player!r} holds "
                   "{count}"),
                where=here, player=player, count=len(hand),
            )
        checked[player] = hand
    sizes = {len(hand) for hand in checked.values()}
    if len(sizes) > 1 or not sizes <= set(range(1, HAND_SIZE + 1)):
        raise MalformedInputError(
            "setup.deal",
            N_("the hands of a round hold the same number of cards, one to ten, not {sizes}"),
            where=where,
            sizes=", ".join(str(len(hand)) for hand in checked.values()),
        )
    return table, checked


#: The plain containers of a row or a hand that :func:`_plain_deal` takes as they are.
_PLAIN = (list, tuple)
#: The cards of the whole deck, as a set.
_DECK = frozenset(deck())
#: The type of every card of a plain deal.
_INT = frozenset({int})


def _plain_deal(
    rows: Table | Iterable[Iterable[Card]], hands: Mapping[str, Iterable[Card]],
    seats: tuple[str, ...], in_play: frozenset[Card], fresh: bool,
) -> tuple[Table, dict[str, tuple[Card, ...]]] | None:
    """The checked deal when it is plain and breaks no rule, else ``None`` (the fast path).

    :func:`check_deal`'s checks for the common case, rows and hands that are lists (or tuples)
    of plain ``int`` cards, the hands in a ``dict``: one pass collecting the cards, then set
    tests on them all at once (distinct, and all among *in_play*, the cards in play). It
    answers only for a deal that passes every check, with the table and hands
    :func:`check_deal` returns; for anything else (another type, or a problem) it answers
    ``None``, and the general checks find and name the problem.
    """
    if type(hands) is not dict or len(hands) != len(seats):
        return None
    laid: Any = rows.rows if isinstance(rows, Table) else rows
    if type(laid) not in _PLAIN or len(laid) != ROWS:
        return None
    longest = 1 if fresh else _kernel.ROW_LIMIT
    dealt: list[Any] = []
    for row in laid:
        if type(row) not in _PLAIN or not 0 < len(row) <= longest:
            return None
        dealt += row
    checked: dict[str, tuple[Card, ...]] = {}
    sizes = set()
    for player in seats:
        hand: Any = hands.get(player)
        if type(hand) not in _PLAIN:
            return None
        sizes.add(len(hand))
        dealt += hand
        checked[player] = tuple(hand)
    if len(sizes) != 1:
        return None
    (size,) = sizes
    if not (size == HAND_SIZE if fresh else 0 < size <= HAND_SIZE):
        return None
    if {*map(type, dealt)} != _INT:
        return None
    distinct = set(dealt)
    if len(distinct) != len(dealt) or not distinct <= in_play:
        return None
    if not isinstance(rows, Table):
        if not fresh:  # a row of one card is ascending
            for row in laid:
                if list(row) != sorted(row):
                    return None
        rows = trusted_table(tuple(map(tuple, laid)))
    return rows, checked


def _check_in_play(values: Iterable[Card], rules: Rules, count: int, where: Where) -> None:
    """Refuse a card beyond the reduced deck for *count* players (``variants.tactics``)."""
    highest = cards_in_play(rules, count)[-1]
    for value in values:
        if value > highest:
            raise MalformedInputError(
                "variants.tactics",
                N_("card {value} is not in play: with {count} players the {variant} variant "
                   "uses only the cards 1 to {highest}"),
                where=Where(where.round, player=where.player, card=value),
                value=value, count=count, variant=rules.variant.value, highest=highest,
            )
