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

from ._text import N_
from .cards import Card
from .errors import IllegalMoveError, RulesError, Where
from .events import CardDrafted, Event, GameOver, GameStarted, RoundScored, RoundStarted
from .game import add_penalties, game_over, winners
from .players import CardView, DraftView, Player
from .round import RoundState, play_turn, round_over, round_penalties
from .setup import cards_in_play, check_players, deal
from .table import Table
from .turn import RowChoice
from .variants import Draft, Rules, Variant, draft, next_drafter, tournament_hands

__all__ = ["play_game", "play_round", "run_draft"]


def _seats(seats: Mapping[str, Player], rules: Rules) -> tuple[str, ...]:
    players = check_players(list(seats), rules)
    for name, player in seats.items():
        if not isinstance(player, Player):
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
        if choice not in left:
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

    The last event is the round's :class:`~take5rules.events.RoundScored`.
    """
    state = RoundState.start(number, table, hands)
    yield RoundStarted(number, state.table.rows, state.hands)
    frozen_totals = MappingProxyType(dict(totals))

    def choose_row(choice: RowChoice) -> int:
        return seats[choice.player].choose_row(choice)

    while not round_over(state):
        plays = {
            player: seats[player].choose_card(
                CardView(number, state.turn + 1, state.table, state.hands[player], frozen_totals)
            )
            for player in state.players
        }
        state, events = play_turn(state, plays, choose_row)
        yield from events
    penalties = round_penalties(state.piles)
    new_totals = add_penalties(totals, penalties)
    yield RoundScored(number, MappingProxyType(penalties), MappingProxyType(dict(new_totals)))
    return new_totals


def _deal_or_draft(
    seats: Mapping[str, Player], rules: Rules, number: int, rng: random.Random
) -> Generator[CardDrafted, None, tuple[Table, Mapping[str, tuple[Card, ...]]]]:
    """Form the hands and rows of a round: drafted (logic, tournament) or dealt."""
    pool = cards_in_play(rules, len(seats))
    if rules.drafted:
        drafted = yield from run_draft(seats, pool, number)
        return Table.start(drafted.rows), drafted.hands
    dealt = deal(rng.sample(pool, len(pool)), tuple(seats))
    return Table.start(dealt.rows), dealt.hands


def play_game(
    seats: Mapping[str, Player], rules: Rules | None = None, seed: int | None = 0
) -> Iterator[Event]:
    """Play a whole game (or, with ``Variant.TOURNAMENT``, a tournament) and yield its events.

    *seats* maps each player's name to the object that decides for them, in seat order; *seed*
    fixes the shuffles.
    """
    rules = rules if rules is not None else Rules()
    players = _seats(seats, rules)
    rng = random.Random(seed)
    yield GameStarted(rules, players)
    totals = dict.fromkeys(players, 0)
    if rules.variant is Variant.TOURNAMENT:
        # One draft; then as many games as players, the hands passed left after each.
        table, sheets = yield from _deal_or_draft(seats, rules, 1, rng)
        for game in range(1, len(players) + 1):
            hands = tournament_hands(sheets, players, game)
            totals = yield from play_round(seats, game, table, hands, totals)
        yield GameOver(len(players), MappingProxyType(totals), winners(totals))
        return
    number = 0
    while not game_over(totals, rules.threshold):
        number += 1
        table, dealt = yield from _deal_or_draft(seats, rules, number, rng)
        totals = yield from play_round(seats, number, table, dealt, totals)
    yield GameOver(number, MappingProxyType(totals), winners(totals))
