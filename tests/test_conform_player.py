"""`take5rules conform --player`: our players follow the protocol; planted bugs are caught, shrunk.

The planted bugs are those of ``tests/programs/buggy_player.py`` (one ``--bug`` switch each). The
expectations are written from the protocol's text and the bug, not from the checker: which check
meets the bug first (the checks run hello, standard/2..10, tactics/2..10, logic/2..6,
tournament/2..5, clock, then the hostile tables), the kind of violation, and the session it
shrinks to (hello, the game's announcement, and the message that shows the bug).
"""

from __future__ import annotations

import json
import shlex
import shutil
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest
from click.testing import CliRunner

from take5rules.cli.main import main
from take5rules.conformance.player_check import (
    DEFAULT_MOVE_MS,
    EXIT_BROKEN,
    EXIT_FOLLOWS,
    EXIT_ILLEGAL,
    Exchange,
    PlayerCheckResult,
    PlayerViolation,
    check_plan,
    check_player,
    format_player_result,
    player_result_json,
)
from take5rules.errors import MalformedInputError

ROOT = Path(__file__).resolve().parent.parent
BUGGY = [sys.executable, str(Path(__file__).parent / "programs" / "buggy_player.py")]
PYTHON_BOT = [sys.executable, str(ROOT / "examples" / "bots" / "python_bot.py")]

#: A move time short enough for the tests of the time violations, long enough for a loaded CI.
MOVE_MS = 1_500

#: The checks, written out: 9 + 9 + 5 + 4 games of the seat sweep, the clock, 5 hostile tables.
ALL_CHECKS = (
    "hello",
    *(f"standard/{count}" for count in range(2, 11)),
    *(f"tactics/{count}" for count in range(2, 11)),
    *(f"logic/{count}" for count in range(2, 7)),
    *(f"tournament/{count}" for count in range(2, 6)),
    "clock",
    "hostile/unknown-types", "hostile/unknown-fields", "hostile/long-lines", "hostile/error",
    "hostile/order",
)


def served(kind: str) -> list[str]:
    """Our built-in player *kind*, served through the protocol by ``take5rules player``."""
    return [sys.executable, "-m", "take5rules", "player", kind]


# --- without a program -------------------------------------------------------------------------


def test_check_plan_covers_every_variant_and_seat_count() -> None:
    assert check_plan() == ALL_CHECKS
    assert len(check_plan()) == 1 + 27 + 1 + 5
    # A program that plays only the logic variant: its seat counts, and the hostile tables.
    assert check_plan(["logic"]) == (
        "hello", "logic/2", "logic/3", "logic/4", "logic/5", "logic/6",
        *ALL_CHECKS[-5:])


@pytest.mark.parametrize(
    ("arguments", "name"),
    [
        ({"command": ""}, "command"),
        ({"command": "bot 'unclosed"}, "command"),
        ({"command": "bot", "move_ms": 0}, "move_ms"),
        ({"command": "bot", "move_ms": True}, "move_ms"),
        ({"command": "bot", "start_ms": 3_600_001}, "start_ms"),
        ({"command": "bot", "seed": -1}, "seed"),
        ({"command": "bot", "shrink_most": -1}, "shrink_most"),
    ],
)
def test_check_player_refuses_bad_arguments(arguments: dict[str, Any], name: str) -> None:
    command = arguments.pop("command")
    with pytest.raises(MalformedInputError) as caught:
        check_player(command, **arguments)
    assert caught.value.rule == "argument"
    if name != "command":
        assert name in str(caught.value)


def _violation(kind: str) -> PlayerViolation:
    hello = {"type": "hello", "protocol": 1, "table": "t"}
    row = {"type": "row", "id": 1, "card": 1}
    return PlayerViolation(
        "standard/2", kind,  # type: ignore[arg-type]
        "the program answered row {row}, but the rows are 0 to 3 [rule {rule}]",
        {"row": 4, "rule": "table.low-card"}, row, '{"type":"row","id":1,"row":4}',
        (Exchange(hello, '{"type":"hello"}'), Exchange(row, '{"type":"row","id":1,"row":4}')),
        40, True, ("last words",))


def test_exit_status_and_report_of_a_violation() -> None:
    command = ("bot", "--fast")
    illegal = PlayerCheckResult(command, 3, "bot", "ann", ("standard",), ("hello",), 1, 4,
                                ("tactics", "logic", "tournament"), _violation("illegal"))
    assert (illegal.status, illegal.exit_code, illegal.ok) == ("illegal", EXIT_ILLEGAL, False)
    text = format_player_result(illegal)
    assert text.splitlines()[0] == (
        "bot --fast breaks the take5-player protocol in check standard/2: the program answered "
        "row 4, but the rows are 0 to 3 [rule table.low-card] [player-protocol illegal].")
    assert "(2 messages, shrunk from 40)" in text
    assert '  < {"type":"row","id":1,"row":4}' in text
    assert "  | last words" in text
    assert "Not checked: the variants it does not play (tactics, logic, tournament)." in text
    for kind in ("malformed", "time", "exited", "declined", "oversize", "start"):
        broken = PlayerCheckResult(command, 3, violation=_violation(kind))
        assert (broken.status, broken.exit_code) == ("broken", EXIT_BROKEN)
    data = player_result_json(illegal)
    assert (data["status"], data["exit_code"]) == ("illegal", 1)
    assert data["violation"]["kind"] == "illegal"
    assert data["violation"]["session"][1]["reply"] == '{"type":"row","id":1,"row":4}'
    assert data["violation"]["message"].startswith("the program answered row 4")
    json.dumps(data)


def test_report_of_a_program_that_follows() -> None:
    result = PlayerCheckResult(("bot",), 0, "bot", "", ("standard",), ("hello", "standard/2"),
                               1, 12)
    assert (result.status, result.exit_code) == ("follows", EXIT_FOLLOWS)
    assert format_player_result(result).splitlines()[0] == (
        "bot follows the take5-player protocol 1 in every check (seed 0). Checks passed: 2; "
        "games played: 1; requests answered legally: 12, of them a low card's row: 0, a draft "
        "pick: 0.")


@pytest.mark.parametrize("arguments", [[], ["--cmd", "x", "--player", "y"]])
def test_cli_wants_one_program(arguments: list[str]) -> None:
    outcome = CliRunner().invoke(main, ["conform", *arguments])
    assert outcome.exit_code == 2
    assert "--player" in outcome.output
    assert "Traceback" not in outcome.output


def test_cli_refuses_a_command_that_cannot_be_split() -> None:
    outcome = CliRunner().invoke(main, ["conform", "--player", "bot 'unclosed"])
    assert outcome.exit_code == 2
    assert "No closing quotation" in outcome.output


# --- our players follow the protocol -----------------------------------------------------------


@pytest.mark.slow
@pytest.mark.parametrize("kind", ["cautious", "random"])
def test_our_served_players_follow_the_protocol(kind: str) -> None:
    result = check_player(served(kind), seed=1)
    assert result.ok, format_player_result(result)
    assert result.checks == ALL_CHECKS
    assert result.variants == ("standard", "tactics", "logic", "tournament")
    assert result.skipped == ()
    # A game a check; the error check starts a second one, the order check announces its game
    # twice.
    assert result.games == (len(ALL_CHECKS) - 1) + 1 + 1
    assert result.requests > 27 * 10
    # Every rigged game (standard and tactics, 2 to 10 seats, the clock's and 5 hostile games)
    # asks a low card's row; every logic and tournament game asks 10 picks a round at least.
    assert result.rows >= 9 + 9 + 1 + 5
    assert result.drafts >= 10 * (5 + 4)


@pytest.mark.slow
def test_the_best_player_follows_the_protocol() -> None:
    result = check_player(served("best"))
    assert result.ok, format_player_result(result)
    assert result.checks == ALL_CHECKS


@pytest.mark.slow
def test_the_python_example_bot_follows_the_protocol() -> None:
    result = check_player(PYTHON_BOT)
    assert result.ok, format_player_result(result)
    assert result.name == "python-bot"
    assert result.checks == ALL_CHECKS


@pytest.mark.slow
@pytest.mark.skipif(shutil.which("node") is None, reason="node is not installed")
def test_the_node_example_bot_follows_the_protocol() -> None:
    node = shutil.which("node")
    assert node is not None
    result = check_player([node, str(ROOT / "examples" / "bots" / "node_bot.js")])
    assert result.ok, format_player_result(result)
    assert result.checks == ALL_CHECKS


@pytest.mark.slow
def test_the_same_seed_sends_the_same_session() -> None:
    first = check_player([*BUGGY, "--bug", "turn-10"], seed=5, shrink_most=0)
    again = check_player([*BUGGY, "--bug", "turn-10"], seed=5, shrink_most=0)
    other = check_player([*BUGGY, "--bug", "turn-10"], seed=6, shrink_most=0)
    assert first.violation is not None and again.violation is not None
    assert other.violation is not None
    assert first.violation.session == again.violation.session
    assert first.violation.session != other.violation.session
    assert not first.violation.shrunk


# --- planted bugs are caught and shrunk --------------------------------------------------------


#: Each bug: the check that meets it first, the kind, the type of the message that shows it,
#: and the length of the shrunk session.
BUGS = [
    ("wrong-id", "standard/2", "malformed", "card", 3),
    ("row-4", "standard/2", "illegal", "row", 3),
    ("turn-10", "standard/2", "illegal", "card", 3),
    ("extra-field", "standard/2", "malformed", "card", 3),
    ("echo", "standard/2", "malformed", "card", 4),
    ("ten-seats", "standard/10", "exited", "card", 3),
    ("slow-tactics", "tactics/2", "time", "card", 3),
    ("no-draft", "logic/2", "time", "draft", 3),
    ("unknown-info", "hostile/unknown-types", "exited", "card", 4),
    ("long-line", "hostile/long-lines", "exited", "card", 3),
    ("needs-round", "hostile/order", "exited", "card", 3),
    ("huge-reply", "tactics/2", "oversize", "card", 3),
    ("decline-row", "standard/2", "declined", "row", 3),
]


def _replayed(command: list[str], session: tuple[Exchange, ...]) -> list[str]:
    """The lines *command* writes when sent *session*'s messages, all at once, then quit."""
    lines = "".join(json.dumps(exchange.sent) + "\n" for exchange in session)
    done = subprocess.run(command, input=lines, capture_output=True, text=True, timeout=60,
                          check=False)
    return done.stdout.splitlines()


@pytest.mark.slow
@pytest.mark.parametrize(("bug", "check", "kind", "shows", "length"), BUGS)
def test_a_planted_bug_is_caught_and_shrunk(bug: str, check: str, kind: str, shows: str,
                                           length: int) -> None:
    command = [*BUGGY, "--bug", bug]
    # The default move time but for the bugs of time, so that a loaded machine cannot make a
    # slow answer the first violation.
    result = check_player(command, move_ms=MOVE_MS if kind == "time" else DEFAULT_MOVE_MS)
    violation = result.violation
    assert violation is not None, format_player_result(result)
    assert (violation.check, violation.kind) == (check, kind), format_player_result(result)
    assert result.exit_code == (EXIT_ILLEGAL if kind == "illegal" else EXIT_BROKEN)
    assert result.checks == ALL_CHECKS[:ALL_CHECKS.index(check)]
    # Shrunk: hello, the game it happens in, (the message that breaks it,) the failing request.
    session = violation.session
    assert violation.shrunk and len(session) == length < violation.length
    assert session[0].sent["type"] == "hello"
    assert session[1].sent["type"] == "game" and session[1].sent["game"] == 1
    assert violation.sent == session[-1].sent
    assert violation.sent["type"] == shows and violation.sent["id"] == 1
    assert [exchange.sent.get("id") for exchange in session if exchange.sent["type"] in (
        "card", "row", "draft")] == [1]
    report = format_player_result(result)
    assert f"in check {check}:" in report and f"[player-protocol {kind}]" in report
    assert "Traceback (most recent call last)" not in report.split("stderr:")[0]
    if kind in ("illegal", "malformed", "declined"):
        # The session really shows it: sent again to the program, it writes the same line.
        assert violation.reply in _replayed(command, session)
    else:
        assert violation.reply is None


@pytest.mark.slow
def test_the_shrunk_sessions_show_each_bug() -> None:
    # Spot checks of what each shrunk session holds (the message that shows the bug).
    found = {}
    for bug in ("turn-10", "ten-seats", "slow-tactics", "extra-field", "long-line"):
        result = check_player([*BUGGY, "--bug", bug],
                              move_ms=MOVE_MS if bug == "slow-tactics" else DEFAULT_MOVE_MS)
        assert result.violation is not None
        found[bug] = result.violation
    assert found["turn-10"].sent is not None and found["turn-10"].sent["turn"] == 10
    assert len(found["ten-seats"].session[1].sent["players"]) == 10
    assert found["slow-tactics"].session[1].sent["rules"]["variant"] == "tactics"
    assert found["extra-field"].sent is not None and found["extra-field"].sent["round"] == 2
    game = found["long-line"].session[1].sent
    assert len(json.dumps(game, ensure_ascii=False, separators=(",", ":")).encode()) + 1 == 65_536


@pytest.mark.slow
def test_a_program_that_ignores_the_game_clock_is_caught() -> None:
    # 80% of a 300 ms move on each card: within each move, over the game's 20 moves' time.
    result = check_player([*BUGGY, "--bug", "slow-game"], move_ms=300, shrink_most=0)
    violation = result.violation
    assert violation is not None, format_player_result(result)
    assert (violation.check, violation.kind, result.exit_code) == ("clock", "time", 2)
    assert violation.message == "it used up the 6000 ms of its game clock"
    game = [exchange.sent for exchange in violation.session if exchange.sent["type"] == "game"]
    assert game[-1]["clock"] == {"move_ms": 300, "game_ms": 6000}
    # Its requests showed what was left: less at each card request of the game.
    left = [exchange.sent["clock"]["game_ms_left"] for exchange in violation.session[
        len(violation.session) - 40:] if exchange.sent["type"] == "card"
        and exchange.sent["clock"]["game_ms_left"] is not None]
    assert left == sorted(left, reverse=True) and left[-1] < 300


@pytest.mark.slow
def test_cli_reports_a_planted_bug_with_exit_status_1() -> None:
    outcome = CliRunner().invoke(main, ["conform", "--player", shlex.join([*BUGGY, "--bug",
                                                                          "row-4"])])
    assert outcome.exit_code == 1
    lines = outcome.output.splitlines()
    assert "breaks the take5-player protocol in check standard/2" in lines[0]
    assert lines[1] == "The shortest session that shows it (3 messages, shrunk from 5):"
    assert '  < {"type": "row", "id": 1, "row": 4}' in lines


@pytest.mark.slow
def test_cli_json_of_a_broken_program() -> None:
    outcome = CliRunner().invoke(main, ["conform", "--player", shlex.join([*BUGGY, "--bug",
                                                                          "wrong-id"]),
                                        "--json", "--seed", "2"])
    assert outcome.exit_code == 2
    data = json.loads(outcome.output)
    assert (data["status"], data["seed"], data["name"]) == ("broken", 2, "buggy-wrong-id")
    assert data["violation"]["kind"] == "malformed"
    assert json.loads(data["violation"]["reply"])["id"] == 2


@pytest.mark.slow
def test_a_program_that_cannot_start() -> None:
    result = check_player(["/nonexistent/bot"])
    assert result.violation is not None
    assert (result.violation.kind, result.violation.check, result.exit_code) == (
        "start", "hello", 2)
    assert result.checks == ()
    assert "could not be started" in format_player_result(result)
