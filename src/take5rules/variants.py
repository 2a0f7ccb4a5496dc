"""The official variants and the agreed threshold, as one validated, immutable :class:`Rules`.

Variants are configuration, not forks of the engine: ``Rules(Variant.LOGIC)`` changes which cards
are in play and how hands are formed; the turn, placement, scoring and end rules are shared.

>>> Rules()
Rules(variant=<Variant.STANDARD: 'standard'>, threshold=66)
>>> Rules(Variant.TACTICS, threshold=50).threshold
50
"""

from __future__ import annotations

import enum
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
from types import MappingProxyType

from take5rules import _kernel
from take5rules._kernel import Deal
from take5rules._messages import N_
from take5rules.cards import Card, card
from take5rules.errors import IllegalMoveError, MalformedInputError, RulesError, Where
from take5rules.registry import AMIGO, SEEDS, Source, rule

__all__ = [
    "DEFAULT_THRESHOLD",
    "PLAYER_RANGE",
    "Draft",
    "Rules",
    "Variant",
    "agreed_threshold",
    "check_player_count",
    "draft",
    "next_drafter",
    "tactics_deck",
    "tournament_hands",
    "tournament_over",
]

_FR, _BG, _FR2, _IT, _EO = SEEDS

#: The threshold of the standard game.
DEFAULT_THRESHOLD = _kernel.DEFAULT_THRESHOLD

#: The outcome of a logic draft: a :class:`~take5rules.setup.Deal` with nothing aside (the
#: same type; the name is kept for the callers of 0.1).
Draft = Deal


class Variant(enum.Enum):
    """The ways to play: the standard game and the publisher's three variants."""

    STANDARD = "standard"
    TACTICS = "tactics"
    LOGIC = "logic"
    TOURNAMENT = "tournament"

    @classmethod
    def parse(cls, value: object) -> Variant:
        """The variant named *value* (its lower-case name).

        >>> Variant.parse("logic")
        <Variant.LOGIC: 'logic'>
        >>> Variant.parse("profi")
        Traceback (most recent call last):
        ...
        take5rules.errors.RulesError: unknown variant 'profi'; choose one of 'standard', \
'tactics', 'logic', 'tournament' [variant-name]
        """
        for variant in cls:
            if variant.value == value:
                return variant
        raise RulesError(
            "variant-name",
            N_("unknown variant {value!r}; choose one of {choices}"),
            value=value,
            choices=", ".join(repr(v.value) for v in cls),
        )


#: The least and the most players of each variant (rule ``setup.players``).
PLAYER_RANGE: Mapping[Variant, tuple[int, int]] = MappingProxyType({
    Variant.STANDARD: (_kernel.FEWEST_PLAYERS, _kernel.MOST_PLAYERS),
    Variant.TACTICS: (_kernel.FEWEST_PLAYERS, _kernel.MOST_PLAYERS),
    Variant.LOGIC: (_kernel.FEWEST_PLAYERS, 6),
    Variant.TOURNAMENT: (_kernel.FEWEST_PLAYERS, 5),
})


def check_player_count(count: int, variant: Variant) -> None:
    """Check that *count* players may play *variant* (rule ``setup.players``).

    >>> check_player_count(7, Variant.LOGIC)
    Traceback (most recent call last):
    ...
    take5rules.errors.RulesError: the logic variant takes 2 to 6 players, not 7 \
[rule setup.players]
    """
    low, high = PLAYER_RANGE[variant]
    if not low <= count <= high:
        raise RulesError(
            "setup.players",
            N_("the {variant} variant takes {low} to {high} players, not {count}"),
            count=count,
            variant=variant.value,
            low=low,
            high=high,
        )


@rule(
    "variants.threshold",
    title=N_("An agreed threshold"),
    statement=N_(
        "Before the game, the players may agree on another end threshold than 66, higher for "
        "a longer game or lower for a shorter one."
    ),
    explanation=N_(
        "The threshold only says when the game stops; every other rule stays the same, and "
        "the game still ends after the round in which some total reaches it. It must be agreed "
        "before the first card is dealt and is a positive whole number of bull heads. Example: "
        "with a threshold of 30, a game with three players often ends after two rounds instead "
        "of four or five."
    ),
    sources=(
        Source(_FR, "Prise gagnante 5 (6 Nimmt !)"),
        Source(_BG, "Печеливш дубъл 5 (6 Nimmt!)"),
        Source(_EO, "Gajni Prenu 5 (6 Nimmt!)"),
    ),
)
def agreed_threshold(value: object) -> int:
    """Check an agreed end threshold: a whole number of bull heads, at least 1.

    >>> agreed_threshold(100)
    100
    >>> agreed_threshold(0)
    Traceback (most recent call last):
    ...
    take5rules.errors.RulesError: threshold 0: the agreed threshold is a whole number of \
bull heads, at least 1 [rule variants.threshold]
    """
    if isinstance(value, bool) or not isinstance(value, int) or value < 1:
        raise RulesError(
            "variants.threshold",
            N_("threshold {value!r}: the agreed threshold is a whole number of bull heads, "
               "at least 1"),
            value=value,
        )
    return value


@dataclass(frozen=True, slots=True)
class Rules:
    """A validated rules configuration: the variant and the end threshold.

    >>> Rules(threshold=-1)
    Traceback (most recent call last):
    ...
    take5rules.errors.RulesError: threshold -1: the agreed threshold is a whole number of \
bull heads, at least 1 [rule variants.threshold]
    """

    variant: Variant = Variant.STANDARD
    threshold: int = DEFAULT_THRESHOLD

    def __post_init__(self) -> None:
        if not isinstance(self.variant, Variant):
            object.__setattr__(self, "variant", Variant.parse(self.variant))
        agreed_threshold(self.threshold)

    @property
    def drafted(self) -> bool:
        """Whether hands are drafted face up (logic and tournament) rather than dealt."""
        return self.variant in (Variant.LOGIC, Variant.TOURNAMENT)

    @property
    def reduced_deck(self) -> bool:
        """Whether only the cards 1 to 10 x players + 4 are in play."""
        return self.variant is not Variant.STANDARD


@rule(
    "variants.tactics",
    title=N_("Tactics variant"),
    statement=N_(
        "Only the cards from 1 to ten times the number of players plus four are used, so "
        "everyone knows which cards are in play."
    ),
    explanation=N_(
        "With the whole deck, nobody knows which cards were set aside; with the reduced deck "
        "every card in play is known, and a player can work out which numbers are still in "
        "the other hands. The rest of the game is unchanged. A common mistake is to remove "
        "cards at random instead of the highest ones. Example: with three players, the cards "
        "1 to 34 are used; with four, 1 to 44."
    ),
    sources=(
        Source(_FR, "Prise 5 avancée (6 Nimmt !)"),
        Source(_BG, "Усъвършенстван дубъл 5 (6 Nimmt!)"),
        Source(_FR2, "Variantes et astuces"),
        Source(_EO, "Altnivela Preno 5 (6 Nimmt!)"),
        Source(AMIGO, "Variant 1: Tactics"),
    ),
)
def tactics_deck(player_count: int) -> tuple[Card, ...]:
    """The cards in play with *player_count* players: 1 to 10n + 4 (rule ``variants.tactics``).

    >>> tactics_deck(3)[-1], len(tactics_deck(4)), len(tactics_deck(2))
    (34, 44, 24)
    """
    if (isinstance(player_count, bool) or not isinstance(player_count, int)
            or not _kernel.FEWEST_PLAYERS <= player_count <= _kernel.MOST_PLAYERS):
        raise RulesError(
            "setup.players",
            N_("the game takes 2 to 10 players, not {value!r}"),
            value=player_count,
        )
    return tuple(range(1, _kernel.HAND_SIZE * player_count + _kernel.ROWS + 1))


def next_drafter(players: Sequence[str], pick: int) -> str:
    """Who makes pick number *pick* (0-based) of a logic draft: seats in turn, first seat first.

    >>> [next_drafter(["ana", "bob", "cyd"], k) for k in range(4)]
    ['ana', 'bob', 'cyd', 'ana']
    """
    return players[pick % len(players)]


@rule(
    "variants.logic",
    title=N_("Logic variant"),
    statement=N_(
        "The cards from 1 to ten times the number of players plus four are laid face up and "
        "the players take them one at a time, in seat order, until each holds ten; the four "
        "cards left start the rows."
    ),
    explanation=N_(
        "Nothing is left to the deal: every player builds a hand knowing all the cards, and "
        "the four cards nobody took become the four rows. The variant is played by two to six "
        "players; with two players the cards 1 to 24 are used. The founding texts let the "
        "youngest player pick first; this library lets the first seat pick first and goes on "
        "clockwise, so seat the youngest player first. Example: with two players, Ana and Bob "
        "take turns among the cards 1 to 24 until each holds ten; the last four start the rows."
    ),
    sources=(
        Source(_FR, "Prise 5 avancée (6 Nimmt !)"),
        Source(_BG, "Усъвършенстван дубъл 5 (6 Nimmt!)"),
        Source(_EO, "Altnivela Preno 5 (6 Nimmt!)"),
        Source(AMIGO, "Variant 2: Logic"),
    ),
)
def draft(
    pool: Iterable[Card], players: Sequence[str], picks: Iterable[tuple[str, Card]]
) -> Draft:
    """Check a whole logic draft; return the hands and the four row cards (``variants.logic``).

    *pool* is the face-up cards (1 to 10n + 4), *players* the seats, *picks* every pick in
    order as ``(player, card)``.

    >>> result = draft(range(1, 25), ["ana", "bob"],
    ...                [("ana" if k % 2 == 0 else "bob", k + 1) for k in range(20)])
    >>> result.hands["ana"][:3], result.rows
    ((1, 3, 5), (21, 22, 23, 24))
    >>> draft(range(1, 25), ["ana", "bob"], [("bob", 1)])
    Traceback (most recent call last):
    ...
    take5rules.errors.IllegalMoveError: round 1, player 'bob', card 1: pick 1 belongs to \
'ana', not to 'bob' [rule variants.logic]
    """
    check_player_count(len(players), Variant.LOGIC)
    if len(set(players)) != len(players):
        raise RulesError(
            "setup.players",
            N_("player name {value!r} is used twice; every player needs a distinct name"),
            value=next(name for name in players if players.count(name) > 1),
        )
    remaining = set(pool)
    hands: dict[str, list[Card]] = {player: [] for player in players}
    count = 0
    for count, (player, value) in enumerate(picks, start=1):
        where = Where(round=1, player=player, card=value)
        card(value, where)
        expected = next_drafter(players, count - 1)
        if player != expected:
            raise IllegalMoveError(
                "variants.logic",
                N_("pick {number} belongs to {expected!r}, not to {player!r}"),
                where=where,
                number=count,
                expected=expected,
                player=player,
            )
        if value not in remaining:
            raise IllegalMoveError(
                "variants.logic",
                N_("card {value} is not among the face-up cards left to draft"),
                where=where,
                value=value,
            )
        if len(remaining) == _kernel.ROWS:
            raise IllegalMoveError(
                "variants.logic",
                N_("the draft is over: the last four cards start the rows"),
                where=where,
            )
        remaining.discard(value)
        hands[player].append(value)
    expected_picks = _kernel.HAND_SIZE * len(players)
    if count != expected_picks or len(remaining) != _kernel.ROWS:
        raise MalformedInputError(
            "variants.logic",
            N_("a draft for {players} players makes {expected} picks and leaves four cards; "
               "this one makes {count}"),
            where=Where(round=1),
            count=count,
            players=len(players),
            expected=expected_picks,
        )
    return Deal(
        MappingProxyType({player: tuple(hand) for player, hand in hands.items()}),
        tuple(sorted(remaining)),
        (),
    )


@rule(
    "variants.tournament",
    title=N_("Tournament variant"),
    statement=N_(
        "With at most five players, the hands drafted in the first game are written down and "
        "passed to the left after each game, until every player has played every hand; the "
        "totals over all games decide."
    ),
    explanation=N_(
        "The tournament evens out the draft: each hand, easy or hard, is played once by every "
        "player, from the same four starting cards, and the player who copes best with all of "
        "them wins. There are as many games as players, each one round of ten turns; the "
        "threshold plays no part. Example: with three players, Ana plays her own hand in the "
        "first game, Cyd's in the second and Bob's in the third."
    ),
    sources=(Source(AMIGO, "Variant 3: Tournament"),),
)
def tournament_hands(
    sheets: Mapping[str, tuple[Card, ...]], players: Sequence[str], game: int
) -> dict[str, tuple[Card, ...]]:
    """The hand each player holds in tournament game *game* (rule ``variants.tournament``).

    *sheets* maps each player to the hand drafted in game 1. After each game every sheet moves
    to the left-hand neighbour, the next seat.

    >>> sheets = {"ana": (1,), "bob": (2,), "cyd": (3,)}
    >>> tournament_hands(sheets, ["ana", "bob", "cyd"], 2)
    {'ana': (3,), 'bob': (1,), 'cyd': (2,)}
    """
    count = len(players)
    check_player_count(count, Variant.TOURNAMENT)
    if isinstance(game, bool) or not isinstance(game, int) or not 1 <= game <= count:
        raise RulesError(
            "variants.tournament",
            N_("game {game}: a tournament of {count} players has games 1 to {count}"),
            game=game,
            count=count,
        )
    return {
        player: sheets[players[(seat - (game - 1)) % count]]
        for seat, player in enumerate(players)
    }


@rule(
    "variants.tournament-over",
    title=N_("End of a tournament"),
    statement=N_(
        "A tournament ends after as many games as there are players, each game one round; "
        "the lowest total over all the games wins."
    ),
    explanation=N_(
        "Each game of a tournament is a single round of ten turns, played with the drafted "
        "hands passed on by one seat, so after as many games as players every player has "
        "played every hand once, and the tournament stops there, whatever the totals; the "
        "threshold of 66 plays no part. Example: three players play three games; after the "
        "third, the player with the lowest total of the three wins."
    ),
    sources=(Source(AMIGO, "Variant 3: Tournament"),),
)
def tournament_over(games_played: int, player_count: int) -> bool:
    """Whether a tournament of *player_count* players is over after *games_played* games.

    A tournament plays one game (a round) for each player (rule ``variants.tournament-over``).

    >>> tournament_over(2, 3), tournament_over(3, 3)
    (False, True)
    >>> tournament_over(4, 3)
    Traceback (most recent call last):
    ...
    take5rules.errors.RulesError: games played 4: a tournament of 3 players plays 0 to 3 \
games, one for each player [rule variants.tournament-over]
    """
    if isinstance(player_count, bool) or not isinstance(player_count, int):
        raise RulesError(
            "setup.players",
            N_("the game takes 2 to 10 players, not {value!r}"),
            value=player_count,
        )
    check_player_count(player_count, Variant.TOURNAMENT)
    if (isinstance(games_played, bool) or not isinstance(games_played, int)
            or not 0 <= games_played <= player_count):
        raise RulesError(
            "variants.tournament-over",
            N_("games played {value!r}: a tournament of {count} players plays 0 to {count} "
               "games, one for each player"),
            value=games_played,
            count=player_count,
        )
    return games_played == player_count
