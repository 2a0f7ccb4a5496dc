"""Player programs at the arena (issue 28): example bots, hostile programs, failures, signals.

Each program is seated through ``take5rules arena cautious "cmd:..."`` in a child process. A
program that fails stops its game with one line naming the game, its seed, the seat and the
kind of failure (``[player-protocol KIND]``), exit status 2; the arena goes on with the other
games and leaves the failed ones (and, on duplicate deals, the rest of their deals) out of the
standings. No program is ever left running: each test looks for its programs by their command
line (every one holds the test's own temporary folder) after the arena has ended.

The tests that start processes are slow; those that fake a failure in process are not.
"""

from __future__ import annotations

import json
import os
import shlex
import shutil
import signal
import subprocess
import sys
import time
from pathlib import Path
from typing import Any

import pytest

from take5rules.agents import arena as _arena
from take5rules.agents import arena_games
from take5rules.agents.arena import GIVE_UP, ArenaPlayerError, run_arena
from take5rules.agents.arena_games import ArenaSetup, GameFailure, play_one
from take5rules.variants import Rules

ROOT = Path(__file__).resolve().parent.parent
HOSTILE = ROOT / "tests" / "programs" / "hostile.py"
BOTS = ROOT / "examples" / "bots"


def _arena_run(*args: str, cwd: Path, timeout: float = 240) -> subprocess.CompletedProcess[str]:
    return subprocess.run([sys.executable, "-m", "take5rules", "arena", *args, "--lang", "en"],
                          cwd=cwd, capture_output=True, text=True, timeout=timeout, check=False,
                          env={**os.environ, "COLUMNS": "200"})


def _hostile(kind: str, tmp_path: Path) -> str:
    """The ``cmd:`` spec of a hostile program writing its pids into *tmp_path*."""
    return "cmd:" + shlex.join([sys.executable, str(HOSTILE), kind, str(tmp_path / "pids")])


def _pids(tmp_path: Path) -> list[int]:
    path = tmp_path / "pids"
    return [int(line) for line in path.read_text().split()] if path.exists() else []


def _alive(pid: int) -> bool:
    try:
        with open(f"/proc/{pid}/stat") as stat:
            return stat.read().split(") ", 1)[1].split()[0] != "Z"
    except (FileNotFoundError, ProcessLookupError):
        return False


def _running_with(marker: str) -> list[int]:
    """The live processes whose command line holds *marker* (other than this one)."""
    found = []
    for entry in Path("/proc").iterdir():
        if not entry.name.isdigit() or int(entry.name) == os.getpid():
            continue
        try:
            command = (entry / "cmdline").read_bytes().replace(b"\0", b" ")
        except OSError:
            continue
        if marker.encode() in command and _alive(int(entry.name)):
            found.append(int(entry.name))
    return found


def _command_line(pid: int) -> bytes:
    try:
        return Path(f"/proc/{pid}/cmdline").read_bytes()[:200]
    except OSError:
        return b"(gone)"


def _nothing_left(tmp_path: Path, limit: float = 10) -> None:
    """No program of this test runs any more (waiting a little for the last to be reaped)."""
    deadline = time.monotonic() + limit
    while time.monotonic() < deadline:
        if not _running_with(str(tmp_path)) and not any(map(_alive, _pids(tmp_path))):
            return
        time.sleep(0.1)
    left = {pid: _command_line(pid) for pid in _running_with(str(tmp_path))}
    raise AssertionError(f"left running: {left}; programs alive: "
                         f"{[pid for pid in _pids(tmp_path) if _alive(pid)]}")


def _standings(document: dict[str, Any]) -> list[tuple[str, float, int, list[float]]]:
    return [(standing["player"], standing["mean_penalty"], standing["wins"],
             standing["interval_95"]) for standing in document["standings"]]


# --- the example bots and our own served players ---------------------------------------------


def test_each_example_bot_is_a_program_of_its_own_under_80_lines() -> None:
    python, node = (BOTS / "python_bot.py").read_text(), (BOTS / "node_bot.js").read_text()
    for text in (python, node):
        assert len(text.splitlines()) < 80
    imported = {line.split()[1].split(".")[0] for line in python.splitlines()
                if line.startswith(("import ", "from "))}
    assert imported <= {"__future__", "json", "sys", "typing"}  # the standard library only
    required = [line.split("require(")[1].split(")")[0] for line in node.splitlines()
                if "require(" in line]
    assert required and all(name.startswith('"node:') for name in required)  # built-ins only


@pytest.mark.slow
@pytest.mark.parametrize("bot", ["python_bot.py", "node_bot.js"])
def test_an_example_bot_plays_a_whole_arena_against_cautious(bot: str, tmp_path: Path) -> None:
    runner = sys.executable if bot.endswith(".py") else shutil.which("node")
    if runner is None:
        pytest.skip("node is not installed: the JavaScript bot cannot run here")
    shutil.copy(BOTS / bot, tmp_path / bot)  # run from the test's folder: found by its path
    spec = "cmd:" + shlex.join([runner, str(tmp_path / bot)])
    done = _arena_run("cautious", spec, "--games", "4", "--seed", "7", "--json", cwd=tmp_path)
    assert done.returncode == 0, done.stderr
    assert done.stderr == ""
    document = json.loads(done.stdout)
    assert document["games"] == 4 and document["unfinished"] == []
    for standing in document["standings"]:
        assert standing["games"] == 4
    # a whole game to 66 bull heads: someone reached the threshold in each game
    assert max(standing["mean_penalty"] for standing in document["standings"]) >= 66 / 2
    _nothing_left(tmp_path)


@pytest.mark.slow
def test_a_program_is_started_once_per_seat_and_process(tmp_path: Path) -> None:
    # a shell that writes down its pid, then becomes the bot: one pid a start
    script = f"echo $$ >> {shlex.quote(str(tmp_path / 'pids'))}; exec " + shlex.join(
        [sys.executable, str(BOTS / "python_bot.py")])
    spec = "cmd:" + shlex.join(["sh", "-c", script])
    one = _arena_run(spec, "cautious", "lowest", "--games", "12", "--json", cwd=tmp_path)
    assert one.returncode == 0, one.stderr
    assert len(_pids(tmp_path)) == 1
    (tmp_path / "pids").unlink()
    two = _arena_run(spec, "cautious", "lowest", "--games", "12", "--jobs", "2", "--json",
                     cwd=tmp_path)
    assert two.returncode == 0, two.stderr
    assert 1 <= len(_pids(tmp_path)) <= 2  # once in each worker
    assert json.loads(two.stdout) == json.loads(one.stdout)
    _nothing_left(tmp_path)


@pytest.mark.slow
def test_our_best_player_served_as_a_program_plays_as_the_built_in_one(tmp_path: Path) -> None:
    served = "cmd:" + shlex.join([sys.executable, "-m", "take5rules", "player", "best"])
    through = _arena_run("cautious", served, "--games", "2", "--seed", "11", "--json",
                         cwd=tmp_path)
    inside = _arena_run("cautious", "best", "--games", "2", "--seed", "11", "--json",
                        cwd=tmp_path)
    assert through.returncode == inside.returncode == 0, through.stderr + inside.stderr
    program, built_in = json.loads(through.stdout), json.loads(inside.stdout)
    name = served.removeprefix("cmd:")

    def renamed(document: dict[str, Any]) -> str:  # the seat's name and its spec
        return json.dumps(document).replace(json.dumps(served), json.dumps("best")).replace(
            json.dumps(name), json.dumps("best"))

    assert program["standings"][0]["player"] in (name, "cautious")
    assert renamed(program["standings"]) == json.dumps(built_in["standings"])
    assert renamed(program["report"]) == json.dumps(built_in["report"])


# --- hostile programs --------------------------------------------------------------------------

HOSTILE_KINDS = [
    ("dies", "exited", "exited with status 3"),
    ("echo", "malformed", "unknown field"),
    ("silent", "time", "did not answer within its 2000 ms"),
    ("illegal", "illegal", "card 105"),
    ("huge", "oversize", "longer than 65536 bytes"),
]


@pytest.mark.slow
@pytest.mark.parametrize(("kind", "violation", "words"), HOSTILE_KINDS)
def test_a_hostile_program_is_one_line_status_2_and_nothing_left(
        kind: str, violation: str, words: str, tmp_path: Path) -> None:
    spec = _hostile(kind, tmp_path)
    seat = spec.removeprefix("cmd:")
    done = _arena_run("cautious", spec, "--games", "1", "--independent", "--move-ms", "2000",
                      cwd=tmp_path)
    assert done.returncode == 2, done.stderr
    assert done.stdout == ""
    lines = done.stderr.splitlines()
    assert len(lines) == 1, done.stderr
    assert lines[0].startswith(f"game 1 (seed 0), seat {seat!r}: "), lines[0]
    assert words in lines[0]
    assert lines[0].endswith(f"[player-protocol {violation}]"), lines[0]
    assert _pids(tmp_path), "the program never started"
    _nothing_left(tmp_path)


@pytest.mark.slow
def test_the_arena_goes_on_without_the_games_a_program_stopped(tmp_path: Path) -> None:
    # 'flaky' plays as 'lowest' and dies in the fifth game of each of its runs: game 5 of 9
    # (its fifth), then never again (started afresh it counts from 1: games 6 to 9 are its 1-4)
    spec = _hostile("flaky", tmp_path)
    done = _arena_run("cautious", "lowest", spec, "--games", "9", "--json", cwd=tmp_path)
    assert done.returncode == 2
    seat = spec.removeprefix("cmd:")
    assert done.stderr.splitlines() == [
        f"game 5 (seed 1), seat {seat!r}: the program exited with status 4 "
        "[player-protocol exited]; the arena goes on without game 5"]
    document = json.loads(done.stdout)
    # deal 2 (games 4 to 6) lost game 5: its other games are left out, deals 1 and 3 kept
    assert (document["unfinished"], document["left_out"], document["games"]) == ([5], 2, 6)
    setup = ArenaSetup(("cautious", "lowest", "lowest"), ("a", "b", "c"), Rules(), 0, None, True)
    kept = [play_one(setup, game)[2] for game in (0, 1, 2, 6, 7, 8)]
    means = {name: sum(totals[seat] for totals in kept) / 6
             for seat, name in enumerate(("cautious", "lowest", seat))}
    assert {standing["player"]: standing["mean_penalty"]
            for standing in document["standings"]} == pytest.approx(means)
    _nothing_left(tmp_path)
    text = _arena_run("cautious", "lowest", spec, "--games", "9", cwd=tmp_path)
    assert text.stdout.splitlines()[:3] == [
        "6 games: the standard game, threshold 66, seed 0",
        "1 game did not finish (5): the standings leave it out",
        "2 more games, of the same deals, are left out too, so that every deal kept is played "
        "in every rotation of the seats"]
    _nothing_left(tmp_path)


@pytest.mark.slow
def test_a_program_that_fails_every_game_stops_the_arena_after_three(tmp_path: Path) -> None:
    done = _arena_run("cautious", _hostile("dies", tmp_path), "--games", "50", "--independent",
                      cwd=tmp_path)
    assert done.returncode == 2
    lines = done.stderr.splitlines()
    assert [line.split(",")[0] for line in lines[:GIVE_UP]] == [
        f"game {game} (seed {game - 1})" for game in range(1, GIVE_UP + 1)]
    assert all(line.endswith(f"the arena goes on without game {number}")
               for number, line in enumerate(lines[:GIVE_UP], 1))
    assert lines[GIVE_UP:] == [
        f"the arena stops: its first {GIVE_UP} games to end did not finish [player-protocol]"]
    assert len(_pids(tmp_path)) == GIVE_UP  # started afresh for each game, then not again
    _nothing_left(tmp_path)


# --- signals -------------------------------------------------------------------------------------


def _start_silent_arena(tmp_path: Path, jobs: int) -> subprocess.Popen[str]:
    """An arena of silent programs (they ignore SIGTERM), once every worker has started one."""
    run = subprocess.Popen(
        [sys.executable, "-m", "take5rules", "arena", "cautious", _hostile("silent", tmp_path),
         "--games", "40", "--jobs", str(jobs), "--lang", "en"],
        cwd=tmp_path, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
        start_new_session=True)
    deadline = time.monotonic() + 60
    while len(_pids(tmp_path)) < jobs and time.monotonic() < deadline:
        time.sleep(0.1)
    time.sleep(0.5)  # each is now waiting for its program's card
    assert len(_pids(tmp_path)) >= jobs, "the programs did not start"
    return run


@pytest.mark.slow
@pytest.mark.parametrize(("jobs", "signum", "to_group"), [
    (2, signal.SIGTERM, False), (1, signal.SIGTERM, False), (1, signal.SIGINT, True),
    (2, signal.SIGINT, True)])
def test_a_signal_to_the_arena_leaves_no_program_running(tmp_path: Path, jobs: int,
                                                         signum: int, to_group: bool) -> None:
    run = _start_silent_arena(tmp_path, jobs)
    if to_group:
        os.killpg(run.pid, signum)  # Ctrl-C reaches the arena's whole group
    else:
        os.kill(run.pid, signum)
    _, stderr = run.communicate(timeout=60)
    assert run.returncode == 128 + signum, stderr
    name = signal.Signals(signum).name
    assert stderr == f"stopped by {name}: no standings; every worker has been stopped\n", stderr
    _nothing_left(tmp_path)


# --- the failures' bookkeeping, in process ------------------------------------------------------


def _failing(monkeypatch: pytest.MonkeyPatch, failing: set[int]) -> None:
    """Make the arena's games of *failing* (from 0) end as a program's failure would."""
    real = arena_games.play_or_fail

    def play(setup: ArenaSetup, game: int, programs: Any = None) -> Any:
        if game in failing:
            return GameFailure(game, ArenaPlayerError(
                "player-protocol", "game {game} (seed {seed}), seat {seat!r}: {reason}",
                game=game + 1, seed=0, seat="x", reason="gone", kind="exited"))
        return real(setup, game, programs)

    monkeypatch.setattr(_arena, "play_or_fail", play)


def test_a_failed_game_is_reported_and_left_out_with_its_deal(
        monkeypatch: pytest.MonkeyPatch) -> None:
    _failing(monkeypatch, {4})
    told: list[tuple[int, bool]] = []
    result = run_arena(["cautious", "lowest", "random"], games=9, seed=3,
                       on_failure=lambda error, going_on: told.append(
                           (error.params["game"], going_on)))
    assert told == [(5, True)]
    assert (result.unfinished, result.left_out, result.games) == ((5,), 2, 6)
    setup = ArenaSetup(("cautious", "lowest", "random"), ("cautious", "lowest", "random"),
                       Rules(), 3, None, True)
    kept = [play_one(setup, game) for game in (0, 1, 2, 6, 7, 8)]
    assert list(result.outcomes.totals) == [total for outcome in kept for total in outcome[2]]
    assert [result.outcomes.game_rounds(game) for game in range(6)] == [
        tuple(dict(zip([("cautious", "lowest", "random")[seat] for seat in outcome[1]],
                       [outcome[4][i * 3 + seat] for seat in outcome[1]], strict=True))
              for i in range(len(outcome[4]) // 3)) for outcome in kept]
    assert result.report().sets == 2
    assert result.to_json()["unfinished"] == [5]


def test_on_independent_deals_only_the_failed_game_is_left_out(
        monkeypatch: pytest.MonkeyPatch) -> None:
    _failing(monkeypatch, {1, 3})
    result = run_arena(["cautious", "lowest"], games=5, seed=1, duplicate=False)
    assert (result.unfinished, result.left_out, result.games) == ((2, 4), 0, 3)
    for standing in result.standings:
        assert standing.games == 3


def test_when_no_game_finishes_the_first_failure_is_raised(
        monkeypatch: pytest.MonkeyPatch) -> None:
    _failing(monkeypatch, {0, 1})
    with pytest.raises(ArenaPlayerError) as raised:
        run_arena(["cautious", "lowest"], games=2)
    assert raised.value.params["game"] == 1


def test_when_every_deal_lost_a_game_there_are_no_standings(
        monkeypatch: pytest.MonkeyPatch) -> None:
    _failing(monkeypatch, {1, 2})
    with pytest.raises(ArenaPlayerError, match="no deal was played in every rotation"):
        run_arena(["cautious", "lowest"], games=4)


def test_the_first_games_all_failing_stop_the_run(monkeypatch: pytest.MonkeyPatch) -> None:
    _failing(monkeypatch, set(range(100)))
    told: list[bool] = []
    with pytest.raises(ArenaPlayerError, match=f"its first {GIVE_UP} games"):
        run_arena(["cautious", "lowest"], games=100, duplicate=False,
                  on_failure=lambda error, going_on: told.append(going_on))
    assert told == [True] * GIVE_UP
