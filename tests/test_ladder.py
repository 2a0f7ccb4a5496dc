"""Duplicate deals in the arena and the ladder's report: pairing, split wins, Bradley–Terry."""

from __future__ import annotations

import json
import math
from collections.abc import Callable

import pytest
from click.testing import CliRunner

from take5rules.agents.arena import ArenaResult, game_seed, run_arena
from take5rules.agents.ladder import report
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


def test_the_command_says_when_it_plays_more_games_than_asked() -> None:
    # Issue 27: `arena --games 20` with 3 seats played 21 games without a word.
    runner = CliRunner()
    done = runner.invoke(arena_command, ["cautious", "random", "greedy", "--games", "20",
                                         "--lang", "en"])
    assert done.exit_code == 0, done.output
    assert done.stderr.splitlines() == [
        "games played: 21 rather than 20; on duplicate deals each deal is played once in every "
        "rotation of the seats (3), and --independent plays 20"]
    assert done.stdout.startswith("21 games: ")
    for asked in (["--games", "21"], ["--games", "20", "--independent"]):
        exact = runner.invoke(arena_command, ["cautious", "random", "greedy", *asked])
        assert exact.exit_code == 0, exact.output
        assert exact.stderr == ""
        assert exact.stdout.startswith(f"{asked[1]} games: ")


def _blocks(output: str) -> list[list[list[str]]]:
    """The tables of the arena command's output: blocks of rows of cells (cells split on 2+
    spaces), each block's first row its header."""
    blocks = [block.splitlines() for block in output.strip().split("\n\n")]
    return [[[cell for cell in line.strip().split("  ") if cell.strip()] for line in block
             if not line.startswith("Against") and " games: " not in line] for block in blocks]


@pytest.mark.parametrize("columns", [60, 80, 100])
def test_the_tables_fit_the_columns_and_keep_every_figure(columns: int) -> None:
    # Issue 27: the ladder table was 150 columns wide whatever COLUMNS said.
    arguments = ["cautious", "random", "lowest", "greedy", "--games", "4", "--lang", "en"]
    wide = CliRunner().invoke(arena_command, arguments, env={"COLUMNS": "1000"})
    narrow = CliRunner().invoke(arena_command, arguments, env={"COLUMNS": str(columns)})
    assert wide.exit_code == narrow.exit_code == 0, narrow.output
    assert max(map(len, wide.stdout.splitlines())) > 100  # the ladder on one line is wider
    assert max(map(len, narrow.stdout.splitlines())) <= columns
    # the same cells, whatever the blocks: each player's row, its cells in the same order
    def cells(output: str) -> dict[str, list[str]]:
        found: dict[str, list[str]] = {}
        for block in _blocks(output)[1:]:  # the ladder's blocks
            for row in block:
                found.setdefault(row[0], []).extend(row[1:])
        return found

    assert cells(narrow.stdout) == cells(wide.stdout)
    assert len(cells(wide.stdout)["Player"]) == 7


@pytest.mark.parametrize(("players", "seed"), [(["cautious", "random", "greedy"], 5),
                                               (["greedy", "lowest", "cautious", "random"], 1)])
def test_the_standings_and_the_ladder_list_the_players_alike(players: list[str],
                                                             seed: int) -> None:
    # Issue 27: the standings sorted by mean penalty, the ladder by rating; with seed 5 the
    # three-seat run listed greedy first in one and second in the other.
    done = CliRunner().invoke(arena_command, [*players, "--games", "6", "--seed", str(seed),
                                              "--lang", "en"], env={"COLUMNS": "1000"})
    assert done.exit_code == 0, done.output
    standings, ladder = _blocks(done.stdout)
    assert [row[0] for row in standings[1:]] == [row[0] for row in ladder[1:]]
    means = [float(row[1]) for row in standings[1:]]
    assert means == sorted(means)
    result = run_arena(players, games=6, seed=seed)
    assert [rating.player for rating in result.report().ratings] == [
        standing.player for standing in result.standings]


def test_the_ratings_are_the_bradley_terry_fit_of_the_deals() -> None:
    # One deal set of three games (three seats): a 3, b 5, c 5; a 4, b 2, c 9; a 1, b 1, c 0.
    # Pair by pair, deal by deal (fewer wins, a tie half each): a-b 1.5-1.5, a-c 2-1, b-c
    # 1.5-1.5. The ratings are those of the likelihood's maximum on that table (scipy's, with
    # the half win each way of the prior), 400 log10 of each strength against c's.
    pytest.importorskip("scipy")
    from test_stats import _reference_strengths

    rounds = [[{"a": 3, "b": 5, "c": 5}], [{"a": 4, "b": 2, "c": 9}], [{"a": 1, "b": 1, "c": 0}]]
    ladder = report(_result(rounds, [("a",), ("b",), ("c",)]), "c")
    strengths = _reference_strengths([[0, 1.5, 2], [1.5, 0, 1.5], [1, 1.5, 0]])
    expected = {name: 400 * math.log10(value / strengths[2])
                for name, value in zip("abc", strengths, strict=True)}
    assert {rating.player: rating.elo for rating in ladder.ratings} == pytest.approx(
        expected, abs=1e-6)
    assert expected["a"] > expected["b"] > 0
