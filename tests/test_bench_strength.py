"""benchmarks/bench_strength.py: the win rate of whole games, the checkpoints, the plots.

The benchmark is a script, not a module of the package: it is loaded from its file. The
expected shares are worked out by hand from the winners written here.
"""

from __future__ import annotations

import importlib.util
from dataclasses import dataclass
from pathlib import Path
from types import ModuleType

import pytest

pytest.importorskip("numpy")
pytest.importorskip("babel")

from take5rules.agents.arena_store import Outcomes
from take5rules.playing.players import CautiousPlayer

SCRIPT = Path(__file__).resolve().parent.parent / "benchmarks" / "bench_strength.py"
LANGUAGES = ("en", "fr", "bg", "it", "eo")


def _bench() -> ModuleType:
    spec = importlib.util.spec_from_file_location("bench_strength", SCRIPT)
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


bench = _bench()


@dataclass
class _Played:
    outcomes: Outcomes
    duplicate: bool


def _played(winners: list[tuple[str, ...]], duplicate: bool = True) -> _Played:
    seats = ("ana", "bob", "cyd", "dan")
    totals = [dict.fromkeys(seats, 70) for _ in winners]
    return _Played(Outcomes.of(seats, totals, winners, []), duplicate)


#: Two deal sets of four games: ana wins one alone and shares one with bob (1 + 1/2 of 4 games),
#: then shares one four ways (1/4 of 4 games).
WINNERS = [("ana",), ("ana", "bob"), ("cyd",), ("dan",),
           ("ana", "bob", "cyd", "dan"), ("bob",), ("bob",), ("bob",)]


def test_win_shares_split_a_tie_and_count_by_deal_set() -> None:
    played = _played(WINNERS)
    assert bench.win_shares(played, "ana") == [1.5 / 4, 0.25 / 4]
    assert bench.win_shares(played, "bob") == [0.5 / 4, 3.25 / 4]
    assert bench.win_shares(played, "cyd") == [1 / 4, 0.25 / 4]
    # without duplicate deals a game is its own unit
    assert bench.win_shares(_played(WINNERS, duplicate=False), "ana") == [
        1, 0.5, 0, 0, 0.25, 0, 0, 0]


def test_wins_is_the_mean_share_within_its_interval() -> None:
    mean, low, high = bench.wins(_played(WINNERS), "ana")
    assert mean == pytest.approx((1.5 / 4 + 0.25 / 4) / 2)
    assert 0.25 / 4 <= low <= mean <= high <= 1.5 / 4
    assert bench.wins(_played(WINNERS[:4]), "cyd") == [0.25, 0.25, 0.25]


def test_timed_passes_the_events_on_to_a_player_that_listens() -> None:
    from take5rules.agents.policy import PolicyPlayer

    assert callable(bench.Timed(PolicyPlayer()).see)
    assert not hasattr(bench.Timed(CautiousPlayer()), "see")  # not a listener for the engine


def test_the_policy_is_on_the_ladder_between_lowest_and_best() -> None:
    assert {"policy", "best", "random", "greedy"} <= set(bench.LADDER)
    assert type(bench.LADDER["policy"]()).__name__ == "PolicyPlayer"


def test_checkpoints_are_the_epoch_files_by_epoch_number(tmp_path: Path) -> None:
    for name in ("epoch-10.npz", "epoch-2.npz", "epoch-1.npz", "best.npz", "epoch-3.txt"):
        (tmp_path / name).write_bytes(b"")
    assert [path.name for path in bench.checkpoints(tmp_path)] == [
        "epoch-1.npz", "epoch-2.npz", "epoch-10.npz"]


def _entry(difference: float, ms: float = 1.0) -> dict[str, object]:
    return {"mean_ms": ms, "median_ms": ms, "difference": [difference, difference - 1,
                                                           difference + 1]}


def test_the_training_plot_says_so_when_the_run_had_no_checkpoint() -> None:
    figures = {"ladder": {"best": _entry(-3.0, 25), "policy": _entry(-1.0, 0.2)},
               "think": [], "training": []}
    for language in LANGUAGES:
        drawn = bench.plot_training(figures, language)
        assert bench.LABELS[language]["none"] in drawn
        assert "<circle" not in drawn
        assert drawn.count('stroke-dasharray="6 4"') == 2  # best's and policy's levels
        assert bench.LABELS[language]["none"] not in bench.plot(figures, language)


def test_the_curves_draw_one_point_each() -> None:
    think = [{"iterations": count, **_entry(-count / 100, count / 10)} for count in (25, 700)]
    training = [{"epoch": epoch, "stage": stage, **_entry(1.0 - epoch)}
                for epoch, stage in ((1, "cautious"), (2, "cautious"), (3, "best"))]
    figures = {"ladder": {"best": _entry(-3.0, 25)}, "think": think, "training": training}
    drawn = bench.plot_think(figures, "en")
    assert drawn.count("<circle") == 2 and "<polyline" in drawn
    assert ">700</text>" in drawn
    drawn = bench.plot_training(figures, "fr")
    assert drawn.count("<circle") == 3
    assert drawn.count('fill="#1f5fa8"') == 2  # the two epochs of the first stage
