"""The arena as a newcomer meets it (issue 18 section 2) and under load (issue 17 section 3).

Players from Python (classes, objects, factories) and from the command line (a module of the
current directory, a file path); a failing player stops the run with one line; processes
capped, work submitted a little at a time, signals cancelling cleanly, a time limit per move.
"""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import time
from collections.abc import Iterator
from concurrent.futures import Future
from pathlib import Path
from typing import Any

import pytest

from take5rules.agents import arena_pool as _arenapool
from take5rules.agents.arena import MAX_GAMES, ArenaPlayerError, run_arena
from take5rules.agents.arena_games import ArenaSetup
from take5rules.errors import RulesError
from take5rules.playing.players import (
    CardView,
    CautiousPlayer,
    DraftView,
    LowestCardPlayer,
    RowChoice,
)
from take5rules.variants import Rules
from test_arena import USER_STRATEGY

BOTS = USER_STRATEGY + """
import time


class MyBot(AlwaysHighest):
    pass


class Crash(MyBot):
    def choose_card(self, view):
        if view.turn == 3:
            raise ZeroDivisionError("division by zero")
        return max(view.hand)


class Cheat(MyBot):
    def choose_card(self, view):
        return 105


class Sleepy(MyBot):
    def choose_card(self, view):
        time.sleep(3600)


class Quit(MyBot):
    def choose_card(self, view):
        import os

        os._exit(3)


class Spin(MyBot):
    def choose_card(self, view):
        while True:
            try:
                pass
            except Exception:
                pass
"""


class Highest:
    """Plays its highest card (a class of this test module, picklable)."""

    def choose_card(self, view: CardView) -> int:
        return max(view.hand)

    def choose_row(self, choice: RowChoice) -> int:
        return 0

    def choose_draft(self, view: DraftView) -> int:
        return max(view.pool)


def _take5rules(*args: str, cwd: Path, **options: Any) -> subprocess.CompletedProcess[str]:
    return subprocess.run([sys.executable, "-m", "take5rules", *args], cwd=cwd,
                          capture_output=True, text=True, timeout=120, check=False,
                          env={**os.environ, "LC_ALL": "C.UTF-8"}, **options)


@pytest.fixture
def bots(tmp_path: Path) -> Path:
    (tmp_path / "my_bot.py").write_text(BOTS)
    (tmp_path / "bots").mkdir()
    (tmp_path / "bots" / "mine.py").write_text(BOTS)
    return tmp_path


def test_a_module_of_the_current_directory_is_a_player(bots: Path) -> None:
    done = _take5rules("arena", "cautious", "my_bot:MyBot", "--games", "2", cwd=bots)
    assert done.returncode == 0, done.stderr
    assert {line.split()[0] for line in done.stdout.splitlines()[2:4]} == {"cautious", "MyBot"}


def test_a_file_path_is_a_player(bots: Path) -> None:
    done = _take5rules("arena", "cautious", "bots/mine.py:MyBot", "--games", "2",
                       cwd=bots)
    assert done.returncode == 0, done.stderr
    assert "MyBot" in done.stdout


def test_run_arena_takes_classes_objects_factories_and_names() -> None:
    by_spec = run_arena(["take5rules.playing.players:LowestCardPlayer", "cautious"], games=3,
                        seed=2)
    by_class = run_arena([LowestCardPlayer, CautiousPlayer], games=3, seed=2)
    by_object = run_arena([LowestCardPlayer(), CautiousPlayer()], games=3, seed=2)
    by_factory = run_arena([lambda: LowestCardPlayer(), CautiousPlayer], games=3, seed=2)
    named = run_arena({"low": LowestCardPlayer, "safe": "cautious"}, games=3, seed=2)
    # the same players in the same seats: the same games, whatever the form they were given in
    for result in (by_class, by_object, by_factory, named):
        assert [list(totals.values()) for totals in result.totals] == [
            list(totals.values()) for totals in by_spec.totals]
    assert {s.player for s in by_class.standings} == {"LowestCardPlayer", "CautiousPlayer"}
    assert {s.player for s in named.standings} == {"low", "safe"}
    assert {s.player for s in by_factory.standings} == {"player", "CautiousPlayer"}


def test_objects_go_to_worker_processes_when_they_pickle() -> None:
    one = run_arena([Highest, CautiousPlayer()], games=4, seed=3)
    two = run_arena([Highest, CautiousPlayer()], games=4, seed=3, jobs=2)
    assert one.totals == two.totals
    with pytest.raises(RulesError) as error:
        run_arena([lambda: Highest(), "cautious"], games=4, jobs=2)
    assert error.value.rule == "argument"
    assert "picklable" in str(error.value)


@pytest.mark.parametrize("spec", [42, None, "x", b"cautious", object()])
def test_run_arena_refuses_what_is_no_player(spec: object) -> None:
    with pytest.raises(RulesError) as error:
        run_arena([spec, "cautious"], games=1)  # type: ignore[list-item]
    assert error.value.rule == "argument"


def test_a_player_that_raises_stops_the_run_with_one_line(bots: Path) -> None:
    done = _take5rules("arena", "cautious", "my_bot:Crash", "--games", "4", cwd=bots)
    assert done.returncode == 2
    assert done.stderr == ("game 1 (seed 0), seat 'Crash': ZeroDivisionError: division by "
                           "zero [player]\n")
    more = _take5rules("arena", "cautious", "my_bot:Crash", "--games", "4", "--traceback",
                       cwd=bots)
    assert more.stderr.splitlines()[0] == done.stderr.strip()
    assert "Traceback (most recent call last)" in more.stderr
    assert 'raise ZeroDivisionError("division by zero")' in more.stderr


def test_a_player_that_breaks_a_rule_is_exit_status_1_also_from_workers(bots: Path) -> None:
    for jobs in ("1", "2"):
        done = _take5rules("arena", "cautious", "my_bot:Cheat", "--games", "4", "--jobs", jobs,
                           cwd=bots)
        assert done.returncode == 1, done.stderr
        assert len(done.stderr.splitlines()) == 1, done.stderr
        assert "card 105 is not in the hand of 'Cheat' [rule turn.reveal]" in done.stderr
        assert "BrokenProcessPool" not in done.stderr


def test_the_error_of_a_failing_player_names_game_seed_and_seat() -> None:
    class Fails(Highest):
        def choose_card(self, view: CardView) -> int:
            raise RuntimeError("no idea")

    with pytest.raises(ArenaPlayerError) as error:
        run_arena(["cautious", Fails], games=3, seed=5)
    assert error.value.params["game"] == 1
    assert error.value.params["seed"] == 5 * 100003
    assert error.value.params["seat"] == "Fails"
    assert error.value.rule == "player"
    assert not error.value.rule_broken
    assert "RuntimeError: no idea" in error.value.details


@pytest.mark.parametrize("spec", ["sys:exit", "builtins:exit",
                                  "builtins:KeyboardInterrupt"])
def test_a_spec_that_exits_is_refused(spec: str, bots: Path) -> None:
    done = _take5rules("arena", "cautious", spec, "--games", "2", cwd=bots)
    assert done.returncode == 2, (done.stdout, done.stderr)
    assert done.stdout == ""
    assert "[argument]" in done.stderr


def test_workers_are_capped_by_the_games_and_the_processors() -> None:
    cpus = len(os.sched_getaffinity(0))
    assert _arenapool.worker_count(1000, 4) <= min(4, cpus)
    assert _arenapool.worker_count(1, 10**8) == 1
    assert _arenapool.worker_count(2, 1) == 1


class _InlinePool:
    """A pool that plays each chunk at once, counting what was submitted and is in flight."""

    submitted = 0

    def __init__(self, max_workers: int, **_: Any) -> None:
        self.workers = max_workers

    def submit(self, function: Any, *args: Any) -> Future[Any]:
        type(self).submitted += 1
        future: Future[Any] = Future()
        future.set_result(function(*args))
        return future

    def shutdown(self, wait: bool = True, cancel_futures: bool = False) -> None:
        pass


def test_work_is_submitted_a_little_at_a_time(monkeypatch: pytest.MonkeyPatch) -> None:
    # --games 10**8 once submitted every chunk up front (2.5 GB before the first result)
    monkeypatch.setattr(_arenapool, "ProcessPoolExecutor", _InlinePool)
    monkeypatch.setattr(_InlinePool, "submitted", 0)
    setup = ArenaSetup(("lowest", "lowest"), ("a", "b"), Rules(), 0, None)
    outcomes: Iterator[Any] = _arenapool.play_in_processes(setup, 10**8, 2, None)
    taken = [next(outcomes) for _ in range(100)]
    outcomes.close()  # type: ignore[attr-defined]
    # chunks of 25 games, two per worker in flight: the first 100 outcomes are of chunks among
    # the first few, and no more than those few were ever submitted
    assert len({outcome[0] for outcome in taken}) == 100
    assert max(outcome[0] for outcome in taken) < 25 * (4 + 2 * 2)
    assert _InlinePool.submitted <= 4 + 2 * 2


@pytest.mark.slow
def test_a_run_stopped_early_leaves_no_thread_of_its_pool_running() -> None:
    # Stopping early shut the pool down twice, never joining its manager thread (8 runs in 10
    # left it running); at interpreter exit it raced the exit hook for its wake-up pipe, and
    # once in a while the user saw "Exception ignored ... OSError: Bad file descriptor".
    import threading

    before = set(threading.enumerate())
    setup = ArenaSetup(("lowest", "lowest"), ("a", "b"), Rules(), 0, None)
    for _ in range(3):
        outcomes: Iterator[Any] = _arenapool.play_in_processes(setup, 10**6, 2, None)
        next(outcomes)
        outcomes.close()  # type: ignore[attr-defined]
        left = [thread for thread in threading.enumerate()
                if thread not in before and thread.is_alive()]
        assert left == []


def test_an_executor_is_given_a_window_of_chunks(monkeypatch: pytest.MonkeyPatch) -> None:
    # All the chunks of 10**7 games (400,000 futures) were once submitted up front.
    def chunk(setup: ArenaSetup, start: int, stop: int) -> list[Any]:
        return [(game, (0, 1), (0, 0), 3, ()) for game in range(start, stop)]

    monkeypatch.setattr(_arenapool, "_play_chunk", chunk)
    monkeypatch.setattr(_InlinePool, "submitted", 0)
    setup = ArenaSetup(("lowest", "lowest"), ("a", "b"), Rules(), 0, None)
    outcomes = _arenapool.play_on(_InlinePool(1), setup, 10**7, None)  # type: ignore[arg-type]
    taken = [next(outcomes) for _ in range(1000)]
    outcomes.close()  # type: ignore[attr-defined]
    assert all(isinstance(outcome, tuple) for outcome in taken)  # no game failed
    assert len({outcome[0] for outcome in taken if isinstance(outcome, tuple)}) == 1000
    # chunks of 25 games: 40 read, each replaced by one more, on top of the first window
    assert _InlinePool.submitted <= _arenapool.EXECUTOR_IN_FLIGHT + 1000 // 25 + 1


def _children(pid: int) -> list[int]:
    found = subprocess.run(["pgrep", "-P", str(pid)], capture_output=True, text=True,
                           check=False)
    return [int(line) for line in found.stdout.split()]


def _alive(pid: int) -> bool:
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    with open(f"/proc/{pid}/stat") as stat:
        return stat.read().split(") ", 1)[1].split()[0] != "Z"


def _wait_until(predicate: Any, limit: float = 60) -> bool:
    deadline = time.monotonic() + limit
    while time.monotonic() < deadline:
        if predicate():
            return True
        time.sleep(0.1)
    return False


def _start_long_arena(tmp_path: Path) -> tuple[subprocess.Popen[str], list[int]]:
    run = subprocess.Popen(
        [sys.executable, "-m", "take5rules", "arena", "cautious", "random", "--games",
         str(MAX_GAMES), "--jobs", "2", "--lang", "en"],
        cwd=tmp_path, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
        start_new_session=True)
    assert _wait_until(lambda: len(_children(run.pid)) >= 2), "no workers started"
    return run, _children(run.pid)


@pytest.mark.parametrize(("signum", "to_group"), [(signal.SIGINT, True),
                                                   (signal.SIGTERM, False)])
def test_a_signal_cancels_the_run_and_stops_every_worker(tmp_path: Path, signum: int,
                                                         to_group: bool) -> None:
    run, workers = _start_long_arena(tmp_path)
    if to_group:
        os.killpg(run.pid, signum)  # Ctrl-C reaches the whole group
    else:
        os.kill(run.pid, signum)
    _, stderr = run.communicate(timeout=60)
    assert run.returncode == 128 + signum
    name = signal.Signals(signum).name
    assert stderr == f"stopped by {name}: no standings; every worker has been stopped\n"
    assert _wait_until(lambda: not any(_alive(pid) for pid in workers), 30)


def test_workers_exit_when_their_parent_dies(tmp_path: Path) -> None:
    run, workers = _start_long_arena(tmp_path)
    os.kill(run.pid, signal.SIGKILL)
    run.communicate(timeout=60)
    assert _wait_until(lambda: not any(_alive(pid) for pid in workers), 30)


@pytest.mark.parametrize("jobs", ["1", "2"])
@pytest.mark.parametrize("bot", ["Sleepy", "Spin"])
def test_a_player_that_never_answers_is_stopped_by_the_move_timeout(bots: Path, jobs: str,
                                                                   bot: str) -> None:
    done = _take5rules("arena", "cautious", f"my_bot:{bot}", "--games", "4", "--jobs", jobs,
                       "--move-timeout", "0.2", cwd=bots)
    assert done.returncode == 2
    assert done.stderr.endswith(f"seat '{bot}': no decision within 0.2 s [player]\n")
    assert len(done.stderr.splitlines()) == 1


def test_the_move_timeout_leaves_a_quick_player_alone() -> None:
    plain = run_arena(["cautious", "lowest"], games=3, seed=1)
    timed = run_arena(["cautious", "lowest"], games=3, seed=1, move_timeout=30)
    assert plain.totals == timed.totals


@pytest.mark.parametrize("value", [0, -1, float("nan"), float("inf"), True, "1", 10**9])
def test_a_move_timeout_is_a_number_of_seconds(value: object) -> None:
    with pytest.raises(RulesError) as error:
        run_arena(["cautious", "lowest"], games=1, move_timeout=value)  # type: ignore[arg-type]
    assert error.value.rule == "argument"


def test_the_header_names_the_variant_and_the_locale_writes_the_numbers(bots: Path) -> None:
    done = _take5rules("arena", "cautious", "lowest", "--games", "3", "--independent",
                       "--variant", "logic",
                       "--lang", "fr", cwd=bots)
    assert done.returncode == 0, done.stderr
    header, _, *rows = done.stdout.splitlines()
    rows = rows[:2]  # the two standings; the ladder follows
    assert header == "3 parties\u00a0: la variante logique, seuil 66, graine 0"
    # a decimal comma, and a non-breaking space before % as French writes it
    assert all("," in row.split()[1] and "\u00a0%)" in row for row in rows)


def test_a_player_that_ends_its_worker_is_one_line(bots: Path) -> None:
    done = _take5rules("arena", "cautious", "my_bot:Quit", "--games", "4", "--jobs", "2",
                       cwd=bots)
    assert done.returncode == 2
    assert done.stderr.startswith("a worker process ended without its games' results")
    assert len(done.stderr.splitlines()) == 1


def test_the_random_player_class_is_seeded_like_the_kind() -> None:
    from take5rules.playing.players import RandomPlayer

    by_kind = run_arena(["random", "cautious"], games=3, seed=6)
    by_class = run_arena([RandomPlayer, "cautious"], games=3, seed=6)
    assert [list(t.values()) for t in by_kind.totals] == [list(t.values())
                                                         for t in by_class.totals]


@pytest.mark.parametrize("rules", ["x", 66, {"threshold": 66}, Rules])
def test_rules_that_are_not_rules_are_an_argument_error(rules: object) -> None:
    # Issue 27: run_arena(["random", "random"], 2, rules="x") gave an AttributeError.
    with pytest.raises(RulesError) as error:
        run_arena(["random", "random"], 2, rules=rules)  # type: ignore[arg-type]
    assert error.value.rule == "argument"
    assert "take5rules.variants.Rules" in str(error.value)
