"""A turn: every player chooses a card, all are revealed together, then placed lowest first.

:func:`resolve_turn` applies the placement rules of :mod:`take5rules.table` to each revealed
card in the order of :func:`placement_order`, asking the player of a low card which row they
take at the moment that card is placed.

The publisher's example: rows ending 12, 37, 43 and 58; the cards 14, 15, 44 and 61.

>>> from take5rules.table import Table
>>> result = resolve_turn(Table.of([[12], [37], [43], [58]]),
...                       {"ana": 44, "bob": 14, "cyd": 61, "dan": 15})
>>> result.table.rows
((12, 14, 15), (37,), (43, 44), (58, 61))
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass

from take5rules import _kernel
from take5rules._messages import N_, shown
from take5rules.cards import Card, card, cards
from take5rules.errors import IllegalMoveError, MalformedInputError, Where
from take5rules.registry import AMIGO, SEEDS, Source, rule
from take5rules.table import Placement, Row, Table, check_play, check_row_choice, trusted_table

#: The most cards one turn places: one for each of at most ten players (rule ``setup.players``).
MOST_PLAYS = _kernel.MOST_PLAYERS

__all__ = [
    "MOST_PLAYS",
    "ChooseRow",
    "LowCard",
    "TurnResult",
    "no_row_choice",
    "placement_order",
    "resolve_turn",
    "reveal",
]

_FR, _BG, _FR2, _IT, _EO = SEEDS


@rule(
    "turn.reveal",
    title=N_("Simultaneous reveal"),
    statement=N_(
        "At the start of each turn every player chooses one card from their hand and lays it "
        "face down; then all the chosen cards are revealed together."
    ),
    explanation=N_(
        "Nobody may change their card after seeing another's, and nobody places a card before "
        "all are revealed: the surprise of who plays what is the heart of the game. Each "
        "player plays exactly one card per turn, and it must come from their own hand. "
        "Example: Ana lays 62 face down thinking the first row is safe; only when Bob's 29 is "
        "revealed beside it does she learn that it is not."
    ),
    sources=(
        Source(_FR, "Choix de la carte"),
        Source(_BG, "Избор на карта"),
        Source(_FR2, "Déroulement d'un tour de jeu"),
        Source(_IT, "IL GIOCO"),
        Source(_EO, "Elektante Vian Karton"),
        Source(AMIGO, "Part I: Playing cards"),
    ),
)
def reveal(
    hands: Mapping[str, tuple[Card, ...]],
    plays: Mapping[str, object],
    where: Where | None = None,
) -> dict[str, Card]:
    """Check one turn's plays: one card from each player's own hand, nobody missing or extra.

    >>> reveal({"ana": (14, 90), "bob": (2, 15)}, {"bob": 15, "ana": 14})
    {'ana': 14, 'bob': 15}
    >>> reveal({"ana": (14, 90), "bob": (2, 15)}, {"ana": 14, "bob": 16})
    Traceback (most recent call last):
    ...
    take5rules.errors.IllegalMoveError: player 'bob', card 16: card 16 is not in the hand \
of 'bob' [rule turn.reveal]
    """
    base = where if where is not None else Where()
    if not isinstance(plays, Mapping):
        raise MalformedInputError(
            "turn.reveal", N_("{value!r} is not a mapping of players to cards"), where=base,
            value=plays,
        )
    for player in plays:
        if player not in hands:
            raise MalformedInputError(
                "turn.reveal",
                N_("{player!r} is not a player of this game"),
                where=Where(base.round, base.turn, str(player)),
                player=player,
            )
    revealed: dict[str, Card] = {}
    for player, hand in hands.items():
        here = Where(base.round, base.turn, player)
        if player not in plays:
            raise IllegalMoveError(
                "turn.reveal",
                N_("{player!r} played no card; every player plays one card each turn"),
                where=here,
                player=player,
            )
        value = card(plays[player], here)
        if value not in hand:
            raise IllegalMoveError(
                "turn.reveal",
                N_("card {value} is not in the hand of {player!r}"),
                where=Where(base.round, base.turn, player, value),
                value=value,
                player=player,
            )
        revealed[player] = value
    return revealed


@rule(
    "turn.order",
    title=N_("Placement order"),
    statement=N_(
        "The revealed cards are placed one at a time, from the lowest to the highest."
    ),
    explanation=N_(
        "The player of the lowest card places it first, then the player of the next higher "
        "card, and so on, always upwards, even after someone has taken a row. Each placement "
        "changes the rows the next card faces, which is why a safe-looking card can still "
        "end up sixth. A common mistake is to place the cards in seat order. Example: when 4, "
        "17, 90 and 93 are revealed, 4 is placed first, then 17, then 90, and 93 last."
    ),
    sources=(
        Source(_FR, "Jouer sa carte"),
        Source(_BG, "Играеща карта"),
        Source(_FR2, "Déroulement d'un tour de jeu"),
        Source(_FR2, "Erreurs fréquentes"),
        Source(_IT, "AGGIUNTA DI SCHEDE AL LAYOUT"),
        Source(_EO, "Ludante vian karton"),
        Source(AMIGO, "Part I: Playing cards"),
    ),
)
def placement_order(plays: Mapping[str, Card]) -> tuple[tuple[str, Card], ...]:
    """The plays in the order they are placed: ascending card value (rule ``turn.order``).

    >>> placement_order({"ana": 93, "bob": 4, "cyd": 90, "dan": 17})
    (('bob', 4), ('dan', 17), ('cyd', 90), ('ana', 93))
    """
    return tuple(_kernel.order(plays.items()))


@dataclass(frozen=True, slots=True)
class LowCard:
    """The question rule ``table.low-card`` asks: which row does this low card take?

    What the rule hands whoever chooses for the player of a low card, and no more: the player
    (*player*), the low card (*card*), the rows it meets, as they are when it is placed
    (*table*), and where that is (*round*, *turn*; ``None`` when :func:`resolve_turn` is not
    told). The answer is the index, 0 to 3, of the row the player takes. A player in a game is
    shown more (its hand, the totals, the round's history):
    :class:`take5rules.playing.players.RowChoice`, a ``LowCard`` too.

    The founding texts' low card: a 2 facing rows that end in 12, 24, 70 and 96.

    >>> from take5rules.table import Table
    >>> asked = []
    >>> def choose(low: LowCard) -> int:
    ...     asked.append(low)
    ...     return 3
    >>> result = resolve_turn(Table.of([[3, 12], [24], [58, 61, 70], [96]]),
    ...                       {"ana": 17, "bob": 2}, choose, Where(round=1, turn=4))
    >>> low, = asked
    >>> low.player, low.card, low.round, low.turn
    ('bob', 2, 1, 4)
    >>> low.table.rows  # the 2 is placed first: the rows as the turn found them
    ((3, 12), (24,), (58, 61, 70), (96,))
    """

    player: str
    card: Card
    table: Table
    round: int | None = None
    turn: int | None = None


#: A function that answers a :class:`LowCard` with a row index from 0 to 3.
ChooseRow = Callable[[LowCard], int]


@dataclass(frozen=True, slots=True)
class TurnResult:
    """The table after a turn and every placement, in the order they happened."""

    table: Table
    placements: tuple[tuple[str, Placement], ...]

    def taken(self) -> dict[str, tuple[Card, ...]]:
        """The cards each player took this turn; only players who took."""
        result: dict[str, tuple[Card, ...]] = {}
        for player, placement in self.placements:
            if placement.taken:
                result[player] = result.get(player, ()) + placement.taken
        return result


def no_row_choice(choice: LowCard) -> int:
    """The default *choose_row*: no row is chosen, so a low card is refused (``table.low-card``).

    For a caller who knows no card is low, or wants to be told when one is.
    """
    raise IllegalMoveError(
        "table.low-card",
        N_("card {value} is lower than the last card of every row; its player must choose a "
           "row to take"),
        where=Where(choice.round, choice.turn, choice.player, choice.card),
        value=choice.card,
    )


def resolve_turn(
    table: Table,
    plays: Mapping[str, Card],
    choose_row: ChooseRow = no_row_choice,
    where: Where | None = None,
) -> TurnResult:
    """Place every revealed card, lowest first; *choose_row* answers for low cards.

    *plays* holds one card for each of 1 to 10 players (a game has at most ten; a single play
    is a turn's placement seen alone, as the referee protocol asks for it), each a card that is
    not on *table*.

    The founding texts' low card: a 2 facing rows that end in 12, 24, 70 and 96; its player
    takes the row holding only 96.

    >>> result = resolve_turn(Table.of([[3, 12], [24], [58, 61, 70], [96]]),
    ...                       {"ana": 17, "bob": 2}, lambda choice: 3)
    >>> result.table.rows, result.taken()
    (((3, 12, 17), (24,), (58, 61, 70), (2,)), {'bob': (96,)})
    """
    base = where if where is not None else Where()
    if not isinstance(plays, Mapping):
        raise MalformedInputError(
            "turn.reveal", N_("{value!r} is not a mapping of players to cards"), where=base,
            value=plays,
        )
    if not 1 <= len(plays) <= MOST_PLAYS:
        raise MalformedInputError(
            "setup.players",
            N_("a turn places one card for each of 1 to 10 players, not {count} cards"),
            where=base,
            count=len(plays),
        )
    for player in plays:
        if not isinstance(player, str) or not player:
            raise MalformedInputError(
                "setup.players",
                N_("player name {value!r}: a player's name is a non-empty text"),
                where=base,
                value=shown(player),
            )
    checked = {
        player: card(value, Where(base.round, base.turn, player))
        for player, value in plays.items()
    }
    cards(checked.values(), base)
    for player, value in checked.items():
        check_play(table, value, Where(base.round, base.turn, player, value))

    def choose(player: str, value: Card, rows: list[Row]) -> int:
        choice = choose_row(
            LowCard(player, value, trusted_table(tuple(rows)), base.round, base.turn))
        return check_row_choice(choice, Where(base.round, base.turn, player, value))

    rows = list(table.rows)
    records = _kernel.resolve(rows, checked.items(), choose)
    placements = tuple(
        (player, Placement(value, index, taken, rule, trusted_table(after)))
        for player, value, index, taken, rule, after in records
    )
    return TurnResult(trusted_table(tuple(rows)), placements)
