"""The tournament runner: seeded games as documented, statistics, player specs, the command."""

from __future__ import annotations

import json
from collections.abc import Callable
from pathlib import Path

import pytest
from click.testing import CliRunner

from take5rules.agents.arena import game_seed, load_player, run_arena, standings
from take5rules.agents.stats import mean_interval
from take5rules.cli.arena_cmd import arena_command
from take5rules.cli.main import main
from take5rules.errors import RulesError
from take5rules.events import GameOver
from take5rules.playing.engine import play_game
from take5rules.playing.players import CautiousPlayer, LowestCardPlayer, Player, RandomPlayer
from take5rules.variants import Rules, Variant

USER_STRATEGY = """
class AlwaysHighest:
    def choose_card(self, view):
        return max(view.hand)

    def choose_row(self, choice):
        return 0

    def choose_draft(self, view):
        return max(view.pool)
"""


def test_the_bootstrap_agrees_with_the_normal_interval_on_many_games() -> None:
    # 400 values, 0..19 twenty times: mean 9.5, sample deviation 5.7735 (n - 1), so the mean's
    # 95% interval is close to 9.5 +- 1.96 * 5.7735 / 20 = 9.5 +- 0.566.
    values = [float(v % 20) for v in range(400)]
    low, high = mean_interval(values)
    assert low == pytest.approx(9.5 - 0.566, abs=0.08)
    assert high == pytest.approx(9.5 + 0.566, abs=0.08)


def test_games_are_the_documented_seeded_games() -> None:
    result = run_arena(["cautious", "lowest", "random"], games=5, seed=2, duplicate=False)
    for game in range(5):
        # Game k: seed 2 * 100003 + k, seats rotated k places, random seeded by seat.
        seed = 2 * 100003 + game
        assert game_seed(2, game) == seed
        makers: dict[str, Callable[[int], Player]] = {
            "cautious": lambda _: CautiousPlayer(),
            "lowest": lambda _: LowestCardPlayer(),
            "random": RandomPlayer,
        }
        names = ["cautious", "lowest", "random"]
        order = names[game % 3 :] + names[: game % 3]
        seats: dict[str, Player] = {
            name: makers[name](seed + position) for position, name in enumerate(order)
        }
        events = list(play_game(seats, Rules(), seed))
        assert isinstance(events[-1], GameOver)
        assert result.totals[game] == dict(events[-1].totals)
        assert result.winners[game] == events[-1].winners
    by_name = {standing.player: standing for standing in result.standings}
    for name in ("cautious", "lowest", "random"):
        values = [totals[name] for totals in result.totals]
        assert by_name[name].mean_penalty == pytest.approx(sum(values) / 5)
        assert by_name[name].wins == sum(name in won for won in result.winners)
    means = [standing.mean_penalty for standing in result.standings]
    assert means == sorted(means)


def test_processes_give_the_same_results() -> None:
    one = run_arena(["cautious", "random", "random"], games=12, seed=4)
    two = run_arena(["cautious", "random", "random"], games=12, seed=4, jobs=2)
    assert one.totals == two.totals
    assert one.standings == two.standings
    assert [s.player for s in one.standings if s.spec == "random"] in (
        ["random", "random#2"], ["random#2", "random"],
    )


def test_user_classes_and_bad_specs(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    (tmp_path / "my_strategy.py").write_text(USER_STRATEGY)
    monkeypatch.syspath_prepend(str(tmp_path))
    result = run_arena(["my_strategy:AlwaysHighest", "cautious"], games=3, seed=1,
                       rules=Rules(Variant.TACTICS, threshold=30))
    assert {s.player for s in result.standings} == {"AlwaysHighest", "cautious"}
    with pytest.raises(RulesError) as error:
        load_player("genius")
    assert error.value.rule == "argument"
    with pytest.raises(RulesError) as error:
        load_player("no_such_module_here:Player")
    assert "ModuleNotFoundError" in str(error.value)
    with pytest.raises(RulesError) as error:
        load_player("take5rules.table:ROW_LIMIT")
    assert error.value.rule == "argument"
    with pytest.raises(RulesError):
        run_arena(["cautious"], games=2)
    with pytest.raises(RulesError):
        run_arena(["cautious", "lowest"], games=0)


def test_arena_command_prints_standings() -> None:
    runner = CliRunner()
    result = runner.invoke(arena_command, ["cautious", "random", "--games", "6", "--seed", "3",
                                           "--lang", "fr"])
    assert result.exit_code == 0, result.output
    lines = result.output.splitlines()
    assert lines[0].startswith("6 parties")
    assert lines[1].split()[0] == "Joueur"
    assert lines[2].split()[0] in ("cautious", "random")
    as_json = runner.invoke(arena_command, ["cautious", "random", "--games", "6", "--seed", "3",
                                            "--json"])
    data = json.loads(as_json.output)
    direct = run_arena(["cautious", "random"], games=6, seed=3).to_json()
    assert data == json.loads(json.dumps(direct))
    bad = runner.invoke(arena_command, ["cautious", "genius", "--lang", "en"])
    assert bad.exit_code == 2  # a wrong command line, not a rule of the game
    assert "[argument]" in bad.output


def test_arena_command_refuses_a_threshold_no_game_reaches_soon() -> None:
    # A game to 10**30 bull heads would never end: the same bound as `take5rules play`.
    result = CliRunner().invoke(main, ["arena", "cautious", "random", "--threshold",
                                       str(10**30), "--lang", "en"])
    assert result.exit_code == 1
    assert "[rule variants.threshold]" in result.output


def test_a_shared_win_counts_for_each_winner() -> None:
    # Two games: ana wins the first alone; the second ends 50-50-80, ana and bob share it.
    table = standings(
        ["ana", "bob", "cyd"], ["cautious", "lowest", "random"],
        [{"ana": 30, "bob": 66, "cyd": 40}, {"ana": 50, "bob": 50, "cyd": 80}],
        [("ana",), ("ana", "bob")],
    )
    assert [(s.player, s.wins, s.win_rate) for s in table] == [
        ("ana", 2, 1.0), ("bob", 1, 0.5), ("cyd", 0, 0.0),
    ]
    assert [s.mean_penalty for s in table] == [40.0, 58.0, 60.0]
