"""The engine: plays whole games and tournaments with pluggable players, reproducibly.

The engine owns nothing but the loop: every decision comes from a :class:`~take5rules.players.
Player`, every rule from the rule functions, and everything that happens comes out as
:mod:`~take5rules.events`. The same seed gives the same game.

>>> from take5rules.players import CautiousPlayer, LowestCardPlayer, RandomPlayer
>>> seats = {"ana": CautiousPlayer(), "bob": LowestCardPlayer(), "cyd": RandomPlayer(7)}
>>> events = list(play_game(seats, seed=1))
>>> events[-1].kind, events[-1] == list(play_game(
...     {"ana": CautiousPlayer(), "bob": LowestCardPlayer(), "cyd": RandomPlayer(7)}, seed=1))[-1]
('game-over', True)
"""

from __future__ import annotations

import random
from collections.abc import Generator, Iterator, Mapping, Sequence
from types import MappingProxyType
from typing import TypeVar

from . import _kernel
from ._kernel import LEAST_DIFFERENCE, SIXTH_CARD
from ._text import N_
from .cards import Card, cards
from .errors import IllegalMoveError, MalformedInputError, RulesError, Where
from .events import (
    CardDrafted,
    Event,
    GameOver,
    GameStarted,
    RoundScored,
    RoundStarted,
    _card_placed,
    _cards_revealed,
    _fast_constructor,
    _low_card_taken,
    _sixth_card_taken,
)
from .game import add_penalties
from .players import DraftView, Player, _card_view
from .setup import HAND_SIZE, ROWS, cards_in_play, check_players
from .table import Row, Table, _checked_choice, _table
from .turn import RowChoice
from .variants import Draft, Rules, Variant, draft, next_drafter, tournament_hands

__all__ = ["play_game", "play_round", "play_silently", "run_draft"]

#: ``RowChoice(...)`` for the engine's hot loop, every field given: the same value, built faster.
_row_choice = _fast_constructor(RowChoice)


def _seats(seats: Mapping[str, Player], rules: Rules) -> tuple[str, ...]:
    players = check_players(list(seats), rules)
    for name, player in seats.items():
        # issubclass is cached per class and answers for every class that defines the three
        # methods; isinstance (slow for a protocol) decides the rest, as it always did.
        if not (issubclass(type(player), Player) or isinstance(player, Player)):
            raise RulesError(
                "setup.players",
                N_("the object seated as {player!r} is not a player: it lacks choose_card, "
                   "choose_row or choose_draft"),
                player=name,
            )
    return players


def run_draft(
    seats: Mapping[str, Player], pool: Sequence[Card], round_number: int
) -> Generator[CardDrafted, None, Draft]:
    """Run a logic draft: yield each pick as an event; return the checked :class:`Draft`."""
    players = tuple(seats)
    left = sorted(pool)
    hands: dict[str, list[Card]] = {player: [] for player in players}
    picks: list[tuple[str, Card]] = []
    while len(left) > 4:
        player = next_drafter(players, len(picks))
        choice = seats[player].choose_draft(
            DraftView(round_number, len(picks) + 1, tuple(left), tuple(hands[player]))
        )
        if type(choice) is not int or choice not in left:
            raise IllegalMoveError(
                "variants.logic",
                N_("card {value} is not among the face-up cards left to draft"),
                where=Where(round_number, player=player, card=choice),
                value=choice,
            )
        left.remove(choice)
        hands[player].append(choice)
        picks.append((player, choice))
        yield CardDrafted(round_number, len(picks), player, choice)
    return draft(pool, players, picks)


def play_round(
    seats: Mapping[str, Player],
    number: int,
    table: Table,
    hands: Mapping[str, tuple[Card, ...]],
    totals: Mapping[str, int],
) -> Generator[Event, None, dict[str, int]]:
    """Play one round from its deal; yield its events; return the new totals.

    The deal is checked first: *table* a :class:`~take5rules.table.Table`, each hand distinct
    cards that are neither on the table nor in another hand, every hand the same size (ten
    cards, or fewer for a round taken up part-way), each player seated, and *totals* naming the
    same players. The last event is the round's :class:`~take5rules.events.RoundScored`.
    """
    _check_deal(seats, number, table, hands, totals)
    return _round(seats, number, table.rows, hands, totals, True)


def _check_deal(
    seats: Mapping[str, Player],
    number: int,
    table: object,
    hands: Mapping[str, tuple[Card, ...]],
    totals: Mapping[str, int],
) -> None:
    """Check the deal :func:`play_round` is given (the engine's own deals need no check)."""
    if not isinstance(table, Table):
        raise MalformedInputError(
            "setup.deal",
            N_("{value!r} is not a table; build one with Table.of(rows)"),
            value=table,
        )
    checked = {player: cards(hand, Where(number, player=player)) for player, hand in hands.items()}
    cards([*table.cards(), *(value for hand in checked.values() for value in hand)],
          Where(number))
    for player in checked:
        if player not in seats:
            raise MalformedInputError(
                "setup.players",
                N_("{player!r} is not a player of this game"),
                where=Where(number, player=player),
                player=player,
            )
    if len({len(hand) for hand in checked.values()}) > 1 or any(
        not 1 <= len(hand) <= HAND_SIZE for hand in checked.values()
    ):
        raise MalformedInputError(
            "setup.deal",
            N_("the hands of a round hold the same number of cards, one to ten, not {sizes}"),
            where=Where(number),
            sizes=", ".join(str(len(hand)) for hand in checked.values()),
        )
    add_penalties(totals, dict.fromkeys(checked, 0))


def _illegal_card(number: int, turn: int, player: str, value: object) -> IllegalMoveError:
    """A player's answer that is not a card of their hand (rule ``turn.reveal``)."""
    return IllegalMoveError(
        "turn.reveal",
        N_("card {value} is not in the hand of {player!r}"),
        where=Where(number, turn, player, value if type(value) is int else None),
        value=value,
        player=player,
    )


def _round(
    seats: Mapping[str, Player],
    number: int,
    rows: tuple[Row, ...],
    hands: Mapping[str, tuple[Card, ...]],
    totals: Mapping[str, int],
    emit: bool,
) -> Generator[Event, None, dict[str, int]]:
    """One round through the kernel: check each answer of a player, then apply the rules.

    With *emit* false nothing is yielded and no event is built; the totals are the same.
    """
    held = {player: sorted(hand) for player, hand in hands.items()}
    if emit:
        yield RoundStarted(
            number, rows, MappingProxyType({player: tuple(hand) for player, hand in held.items()})
        )
    frozen_totals = MappingProxyType(dict(totals))
    pick_card = [(player, seats[player].choose_card, held[player]) for player in held]
    piles: dict[str, list[Card]] = {player: [] for player in held}
    table_rows = list(rows)
    turn = 0

    def choose(player: str, value: Card, now: list[Row]) -> int:
        view = _row_choice(player, value, _table(tuple(now)), number, turn)
        choice = seats[player].choose_row(view)
        if type(choice) is int and 0 <= choice < ROWS:
            return choice
        return _checked_choice(choice, Where(number, turn, player, value))

    turns = len(next(iter(held.values())))
    while turn < turns:
        turn += 1
        table = _table(tuple(table_rows))
        plays: list[tuple[str, Card]] = []
        for player, choose_card, hand in pick_card:
            value = choose_card(_card_view(number, turn, table, tuple(hand), frozen_totals))
            if type(value) is not int:
                raise _illegal_card(number, turn, player, value)
            try:
                hand.remove(value)
            except ValueError:
                raise _illegal_card(number, turn, player, value) from None
            plays.append((player, value))
        ordered = _kernel.order(plays)
        if emit:
            yield _cards_revealed(number, turn, tuple(ordered))
        # Each card is placed when the previous one's event has been taken, so a player asked
        # for a row has seen every placement before theirs.
        for player, value, index, taken, rule in _kernel.placements(table_rows, ordered, choose):
            if rule == LEAST_DIFFERENCE:
                if emit:
                    yield _card_placed(number, turn, player, value, index, tuple(table_rows))
                continue
            piles[player] += taken
            if emit:
                taken_by = _sixth_card_taken if rule == SIXTH_CARD else _low_card_taken
                yield taken_by(number, turn, player, value, index, taken, tuple(table_rows))
    penalties = {player: _kernel.pile_heads(pile) for player, pile in piles.items()}
    new_totals = _kernel.add(totals, penalties)
    if emit:
        yield RoundScored(number, MappingProxyType(penalties), MappingProxyType(dict(new_totals)))
    return new_totals


def _deal_or_draft(
    seats: Mapping[str, Player], rules: Rules, number: int, rng: random.Random
) -> Generator[CardDrafted, None, tuple[tuple[Row, ...], Mapping[str, tuple[Card, ...]]]]:
    """Form the hands and rows of a round: drafted (logic, tournament) or dealt."""
    pool = cards_in_play(rules, len(seats))
    if rules.drafted:
        drafted = yield from run_draft(seats, pool, number)
        return tuple((value,) for value in drafted.rows), drafted.hands
    # The pool is a checked deck and the seats are checked: the kernel deals it as it is, shuffled
    # as rng.sample(pool, len(pool)) would shuffle it.
    hands, starters, _aside = _kernel.deal(_kernel.shuffled(pool, rng.getrandbits), tuple(seats))
    return tuple((value,) for value in starters), hands


def _game(
    seats: Mapping[str, Player], rules: Rules | None, seed: int | None, emit: bool
) -> Iterator[Event]:
    """A whole game; with *emit* false, only its :class:`GameOver` is built and yielded."""
    rules = rules if rules is not None else Rules()
    players = _seats(seats, rules)
    rng = random.Random(seed)
    if emit:
        yield GameStarted(rules, players)
    totals = dict.fromkeys(players, 0)
    if rules.variant is Variant.TOURNAMENT:
        # One draft; then as many games as players, the hands passed left after each.
        rows, sheets = yield from _quiet(_deal_or_draft(seats, rules, 1, rng), emit)
        for game in range(1, len(players) + 1):
            hands = tournament_hands(sheets, players, game)
            totals = yield from _round(seats, game, rows, hands, totals, emit)
        yield GameOver(len(players), MappingProxyType(totals), _kernel.lowest(totals))
        return
    number = 0
    while not _kernel.ended(totals, rules.threshold):
        number += 1
        rows, dealt = yield from _quiet(_deal_or_draft(seats, rules, number, rng), emit)
        totals = yield from _round(seats, number, rows, dealt, totals, emit)
    yield GameOver(number, MappingProxyType(totals), _kernel.lowest(totals))


_Result = TypeVar("_Result")


def _quiet(
    events: Generator[CardDrafted, None, _Result], emit: bool
) -> Generator[CardDrafted, None, _Result]:
    """Pass *events* on when *emit*; otherwise run them silently; either way return the result."""
    if emit:
        return (yield from events)
    while True:
        try:
            next(events)
        except StopIteration as stop:
            return stop.value  # type: ignore[no-any-return]


def play_game(
    seats: Mapping[str, Player], rules: Rules | None = None, seed: int | None = 0
) -> Iterator[Event]:
    """Play a whole game (or, with ``Variant.TOURNAMENT``, a tournament) and yield its events.

    *seats* maps each player's name to the object that decides for them, in seat order; *seed*
    fixes the shuffles. Every answer of a player is checked: a card that is not in their hand
    (105, a card already played, anything that is not a card) raises
    :class:`~take5rules.errors.IllegalMoveError` (rule ``turn.reveal``), and so does a row
    outside 0..3 for a low card (rule ``table.low-card``).
    """
    return _game(seats, rules, seed, True)


def play_silently(
    seats: Mapping[str, Player], rules: Rules | None = None, seed: int | None = 0
) -> GameOver:
    """Play the same game as :func:`play_game` without building its events; return its end.

    For simulations that only need the result: the players decide and are checked exactly as
    in :func:`play_game`, and the :class:`~take5rules.events.GameOver` returned equals the last
    event :func:`play_game` yields with the same arguments.

    >>> from take5rules.players import RandomPlayer
    >>> over = play_silently({"ana": RandomPlayer(1), "bob": RandomPlayer(2)}, seed=4)
    >>> over == list(play_game({"ana": RandomPlayer(1), "bob": RandomPlayer(2)}, seed=4))[-1]
    True
    """
    last: Event | None = None
    for last in _game(seats, rules, seed, False):  # noqa: B007 -- only the last one is kept
        pass
    assert isinstance(last, GameOver)
    return last
