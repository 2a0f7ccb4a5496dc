"""Duplicate deals in the arena and the ladder's report: pairing, split wins, Bradley–Terry."""

from __future__ import annotations

import json
import math
from collections.abc import Callable

import pytest
from click.testing import CliRunner

from take5rules.agents.arena import ArenaResult, game_seed, run_arena
from take5rules.agents.ladder import bradley_terry, report
from take5rules.cli.arena_cmd import arena_command
from take5rules.errors import RulesError
from take5rules.events import GameOver, RoundStarted
from take5rules.playing.engine import play_game
from take5rules.playing.players import CautiousPlayer, LowestCardPlayer, Player, RandomPlayer
from take5rules.variants import Rules


def test_duplicate_deals_play_each_deal_once_for_every_seat_rotation() -> None:
    names = ["cautious", "lowest", "random"]
    result = run_arena(names, games=6, seed=2)
    assert result.duplicate and len(result.totals) == 6
    first_hands: dict[int, dict[int, tuple[int, ...]]] = {}
    for game in range(6):
        deal, rotation = game // 3, game % 3
        order = names[rotation:] + names[:rotation]
        seed = game_seed(2, deal)
        makers: dict[str, Callable[[int], Player]] = {
            "cautious": lambda _: CautiousPlayer(), "lowest": lambda _: LowestCardPlayer(),
            "random": RandomPlayer}
        seats = {name: makers[name](seed + position) for position, name in enumerate(order)}
        events = list(play_game(seats, Rules(), seed))
        assert isinstance(events[-1], GameOver)
        assert result.totals[game] == dict(events[-1].totals)
        started = next(event for event in events if isinstance(event, RoundStarted))
        # the hand of each seat position: the same in every rotation of a deal
        first_hands.setdefault(deal, {})
        for position, name in enumerate(order):
            hand = tuple(started.hands[name])
            assert first_hands[deal].setdefault(position, hand) == hand
    # so every player held the hand of every seat position of each deal once


def test_duplicate_games_come_in_whole_deal_sets() -> None:
    assert len(run_arena(["cautious", "lowest", "random"], games=4).totals) == 6
    assert len(run_arena(["cautious", "lowest", "random"], games=4, duplicate=False).totals) == 4


def _result(rounds: list[list[dict[str, int]]], winners: list[tuple[str, ...]]) -> ArenaResult:
    totals = tuple({seat: sum(r[seat] for r in game) for seat in game[0]} for game in rounds)
    return ArenaResult(Rules(), 0, totals, tuple(winners), (), tuple(map(tuple, rounds)), True)


def test_the_report_pairs_by_deal_set_and_splits_ties() -> None:
    # One deal set of two games: a takes 3 and b 5 in the first, 4 each in the second.
    result = _result([[{"a": 3, "b": 5}], [{"a": 4, "b": 4}]], [("a",), ("a", "b")])
    ladder = report(result, "b")
    by = {rating.player: rating for rating in ladder.ratings}
    assert (ladder.sets, ladder.deals) == (1, 2)
    assert by["a"].per_deal == 3.5 and by["b"].per_deal == 4.5
    assert by["a"].deal_difference == (-1.0, -1.0, -1.0)
    assert by["a"].deal_wins == 1.5 and by["b"].deal_wins == 0.5  # the tie split
    assert by["a"].game_wins == 1.5 and by["b"].game_wins == 0.5
    assert by["b"].elo == 0.0 and by["a"].elo > 0


def test_the_paired_interval_excludes_zero_for_a_steady_difference() -> None:
    games = [[{"a": 2 + k % 3, "b": 5 + k % 3}] for k in range(40)]
    ladder = report(_result(games, [("a",)] * 40), "b")
    mean, low, high = {r.player: r for r in ladder.ratings}["a"].deal_difference
    assert (mean, low, high) == (-3.0, -3.0, -3.0)
    noisy = [[{"a": k % 7, "b": (3 * k) % 7}] for k in range(40)]
    mean, low, high = {r.player: r for r in report(_result(noisy, [("a",)] * 40),
                                                   "b").ratings}["a"].deal_difference
    assert low < mean < high


def test_bradley_terry_of_two_players_is_their_ratio_of_wins() -> None:
    # With two players the Bradley–Terry likelihood is maximal where p1 / p2 = w12 / w21, here
    # (3 + 0.5) / (1 + 0.5) with the prior's half win each way.
    first, second = bradley_terry([[0, 3], [1, 0]])
    assert first / second == pytest.approx(3.5 / 1.5, rel=1e-6)
    assert 400 * math.log10(first / second) == pytest.approx(147.19, abs=0.01)


def test_the_baseline_must_be_a_seat() -> None:
    with pytest.raises(RulesError) as error:
        run_arena(["cautious", "lowest"], games=2).report("nobody")
    assert error.value.rule == "argument"


def test_the_arena_command_prints_the_ladder_and_its_json() -> None:
    runner = CliRunner()
    done = runner.invoke(arena_command, ["greedy", "cautious", "--games", "4", "--lang", "en",
                                         "--baseline", "cautious"])
    assert done.exit_code == 0, done.output
    assert "Against cautious (deals: " in done.output
    as_json = runner.invoke(arena_command, ["greedy", "cautious", "--games", "4", "--json"])
    data = json.loads(as_json.output)
    assert data["duplicate"] is True
    assert {rating["player"] for rating in data["report"]["ratings"]} == {"greedy", "cautious"}
