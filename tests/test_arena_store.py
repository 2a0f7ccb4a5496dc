"""The arena's compact outcomes: a few tens of bytes a game, the games' dicts built on demand.

The values pinned here are those of :func:`take5rules.playing.engine.play_silently` and
:func:`take5rules.playing.engine.play_game` on the documented seeds (game *k* of a duplicate arena
of
three players seeded 11: deal 0, ``11 * 100003``, the seats rotated *k* places, ``random``
seeded with the game's seed + its seat), not values the arena computed.
"""

from __future__ import annotations

import random
import sys
from array import array
from collections.abc import Callable

import pytest

from take5rules.agents.arena import ArenaResult, run_arena, standings
from take5rules.agents.arena_store import Outcomes
from take5rules.errors import RulesError
from take5rules.events import RoundScored
from take5rules.playing.engine import play_game, play_silently
from take5rules.playing.players import CautiousPlayer, LowestCardPlayer, Player, RandomPlayer
from take5rules.variants import Rules

NAMES = ["cautious", "lowest", "random"]
#: play_silently's totals (in the game's seat order) and winners, and play_game's rounds.
PINNED = [
    ([("cautious", 22), ("lowest", 75), ("random", 82)], ("cautious",),
     [(11, 21, 5), (3, 7, 31), (4, 12, 12), (0, 18, 11), (4, 17, 23)]),
    ([("lowest", 81), ("random", 68), ("cautious", 33)], ("cautious",),
     [(10, 20, 1), (17, 11, 4), (18, 9, 2), (17, 24, 11), (19, 4, 15)]),
    ([("random", 73), ("cautious", 27), ("lowest", 38)], ("cautious",),
     [(25, 1, 6), (21, 9, 19), (16, 13, 2), (11, 4, 11)]),
]


def _seats(game: int) -> dict[str, Player]:
    seed = 11 * 100003
    order = NAMES[game:] + NAMES[:game]
    makers: dict[str, Callable[[int], Player]] = {
        "cautious": lambda _: CautiousPlayer(), "lowest": lambda _: LowestCardPlayer(),
        "random": RandomPlayer}
    return {name: makers[name](seed + position) for position, name in enumerate(order)}


def test_the_pinned_games_are_the_engines() -> None:
    for game, (totals, winners, rounds) in enumerate(PINNED):
        over = play_silently(_seats(game), Rules(), 11 * 100003)
        assert list(over.totals.items()) == totals and over.winners == winners
        scored = [tuple(event.penalties.values())
                  for event in play_game(_seats(game), Rules(), 11 * 100003)
                  if isinstance(event, RoundScored)]
        assert scored == rounds


@pytest.mark.parametrize("jobs", [1, 2])
def test_totals_winners_and_rounds_are_built_as_the_games_gave_them(jobs: int) -> None:
    result = run_arena(NAMES, games=3, seed=11, jobs=jobs)
    assert result.games == 3
    for game, (totals, winners, rounds) in enumerate(PINNED):
        # the seat order of each game kept: the totals' keys, the winners, each round's keys
        assert list(result.totals[game].items()) == totals
        assert result.winners[game] == winners
        order = [name for name, _ in totals]
        assert [list(penalties.items()) for penalties in result.rounds[game]] == [
            list(zip(order, row, strict=True)) for row in rounds]


def _columns(outcomes: Outcomes) -> list[array[int]]:
    return [outcomes.totals, outcomes.orders, outcomes.winners, outcomes.counts,
            outcomes.starts, outcomes.penalties]


def _size(outcomes: Outcomes) -> int:
    return sum(sys.getsizeof(column) for column in _columns(outcomes))


def test_a_game_takes_a_few_tens_of_bytes_not_a_kilobyte() -> None:
    # Four random seats: about four rounds a game. Held as dicts and tuples, a game took
    # about 1,350 bytes; as columns 12 + 5 * 4 + 2 * 4 * rounds bytes, about 64 bytes.
    few = run_arena(["random"] * 4, games=40, seed=3).outcomes
    many = run_arena(["random"] * 4, games=400, seed=3).outcomes
    assert all(isinstance(column, array) for column in _columns(many))
    rounds = len(many.penalties) // 4 - len(few.penalties) // 4
    grown = _size(many) - _size(few)
    assert grown <= 360 * (12 + 5 * 4) + rounds * 2 * 4 * 1.25 + 1024
    assert grown / 360 < 150


def test_outcomes_arriving_out_of_order_land_at_their_game() -> None:
    rng = random.Random(5)
    outcomes = [(game, (game % 2, 1 - game % 2), (game, 2 * game), 1 + game % 3,
                 tuple(range(game, game + 2 * (1 + game % 4)))) for game in range(50)]
    in_order, shuffled = Outcomes(("a", "b"), 50), Outcomes(("a", "b"), 50)
    for outcome in outcomes:
        in_order.record(outcome)
    for outcome in rng.sample(outcomes, len(outcomes)):
        shuffled.record(outcome)
    assert shuffled == in_order and shuffled.penalties != in_order.penalties
    for game in range(50):
        assert shuffled.game_rounds(game) == in_order.game_rounds(game)
        assert shuffled.game_totals(game) == in_order.game_totals(game)
        assert list(shuffled.game_totals(game)) == (["b", "a"] if game % 2 else ["a", "b"])
    # game 3: seated b first; rounds (a, b) = (3, 4), (5, 6), (7, 8), (9, 10)
    assert shuffled.game_rounds(3) == ({"b": 4, "a": 3}, {"b": 6, "a": 5},
                                      {"b": 8, "a": 7}, {"b": 10, "a": 9})


def test_a_result_built_from_dicts_reads_back_the_same() -> None:
    # the second game seats bob, cyd, ana: its winners come in that order (bob before ana)
    totals = ({"ana": 30, "bob": 30, "cyd": 80}, {"bob": 10, "cyd": 70, "ana": 10})
    winners = (("ana", "bob"), ("bob", "ana"))
    rounds = (({"ana": 30, "bob": 30, "cyd": 80},),
              ({"bob": 10, "cyd": 64, "ana": 10}, {"bob": 0, "cyd": 6, "ana": 0}))
    table = standings(["ana", "bob", "cyd"], ["x", "y", "z"], totals, winners)
    result = ArenaResult(Rules(), 0, totals, winners, table, rounds, False)
    assert result.totals == totals and result.winners == winners and result.rounds == rounds
    assert [list(game) for game in result.totals] == [["ana", "bob", "cyd"],
                                                      ["bob", "cyd", "ana"]]
    assert ArenaResult(Rules(), 0, totals, winners, table).rounds == ()
    with pytest.raises(RulesError) as error:
        ArenaResult(Rules(), 0, totals, winners, table).report()
    assert error.value.rule == "argument"
    # a value too large for 16 bits widens its column instead of failing
    big = ArenaResult(Rules(), 0, ({"a": 10**12, "b": 0},), (("b",),), (),
                      (({"a": 70000, "b": -1},),))
    assert big.totals == ({"a": 10**12, "b": 0},) and big.rounds[0][0] == {"a": 70000, "b": -1}
