"""``take5rules play`` with a person at the table, the command-line side: input that is not
text, input that ends mid-game (the log keeps what was played), the rows shown once a turn,
and the logic draft's pool shown with its bull heads."""

from __future__ import annotations

import json
import os
import re
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest
from click.testing import CliRunner

from rulebook import heads
from take5rules.cli.main import main
from take5rules.logs.validator import validate


def _every_number_once() -> str:
    """1 to 104 once: each card question ends on the lowest legal answer left, and the input
    ends part-way through the game (the hand's cards rise, the numbers run out)."""
    return "\n".join(str(number) for number in range(1, 105)) + "\n"


@pytest.mark.slow
def test_input_that_is_not_text_is_one_line_and_exit_status_2(tmp_path: Path) -> None:
    log = tmp_path / "game.json"
    done = subprocess.run(
        [sys.executable, "-m", "take5rules", "play", "--players", "me=human,bob=lowest",
         "--log", str(log), "--lang", "en"],
        input=b"\xff\n", capture_output=True, timeout=120, check=False,
        env={**os.environ, "PYTHONIOENCODING": "utf-8:strict", "LC_ALL": "C.UTF-8"})
    assert done.returncode == 2
    stderr = done.stderr.decode()
    assert "Traceback" not in stderr
    assert stderr.count("\n") == 1
    assert stderr.startswith("the input is not utf-8 text, so the game stops here [")
    # the game had started: its log is kept, a game in progress
    report = validate(json.loads(log.read_text(encoding="utf-8")))
    assert report.valid


def test_input_ending_mid_game_keeps_the_log_of_what_was_played(tmp_path: Path) -> None:
    log = tmp_path / "game.json"
    result = CliRunner().invoke(main, ["play", "--players", "me=human,bob=lowest,cyd=cautious",
                                       "--log", str(log), "--lang", "en"],
                                input=_every_number_once())
    assert result.exit_code == 2, result.output
    assert "end of input: me had a card or a row to choose" in result.output
    document = json.loads(log.read_text(encoding="utf-8"))
    assert validate(document).valid
    told = len(re.findall(r"^Turn \d+: ", result.output, re.MULTILINE))
    assert told >= 1
    logged = [turn for round_log in document["rounds"] for turn in round_log["turns"]]
    assert len(logged) == told
    # each card the person answered is in the log, in the order it was played
    answered = [int(line.rsplit("? ", 1)[1]) for line in result.output.splitlines()
                if line.startswith("Your card, me? ") and line.rsplit("? ", 1)[1].isdigit()]
    played = [turn["plays"]["me"] for turn in logged]
    assert played == [card for card in answered if card in played]


def test_the_rows_are_shown_once_after_a_turn_with_a_person_at_the_table() -> None:
    result = CliRunner().invoke(main, ["play", "--players", "me=human,bob=lowest", "--lang",
                                       "en"], input=_every_number_once())
    assert result.exit_code == 2, result.output
    lines = result.output.splitlines()
    questions = [i for i, line in enumerate(lines) if line.startswith("me, your hand: ")]
    turns = [i for i, line in enumerate(lines) if re.match(r"Turn \d+: ", line)]
    assert len(turns) >= 2
    # between a turn (not a round's last, the tenth) and the next question, the rows once:
    # the question's four, with their bull heads
    checked = 0
    for start, end in zip(turns, questions[1:], strict=False):
        if lines[start].startswith("Turn 10: "):
            continue
        checked += 1
        between = lines[start:end]
        assert sum(line.startswith("row ") for line in between) == 4, between
        assert not any(line.strip().startswith("Rows: ") for line in between), between
    assert checked >= 2


def test_the_rows_after_a_rounds_last_turn_are_shown_with_a_person_at_the_table() -> None:
    # no question follows the last turn of a round: the narrator shows the rows then
    answers = "\n".join(str(n) for _ in range(12) for n in range(1, 105)) + "\n"
    result = CliRunner().invoke(main, ["play", "--players", "me=human,bob=lowest", "--lang",
                                       "en", "--threshold", "1"], input=answers)
    assert result.exit_code == 0, result.output
    lines = result.output.splitlines()
    last_turn = max(i for i, line in enumerate(lines) if line.startswith("Turn 10: "))
    assert any(line.startswith("  Rows: ") for line in lines[last_turn:])


def test_the_logic_draft_shows_the_pool_with_its_bull_heads() -> None:
    result = CliRunner().invoke(main, ["play", "--players", "me=human,bob=lowest",
                                       "--variant", "logic", "--lang", "en"], input="")
    assert result.exit_code == 2, result.output
    question = next(line for line in result.output.splitlines()
                    if line.startswith("me, take a card from the pool: "))
    shown = re.findall(r"(\d+) \((\d+) bull heads?\)", question)
    assert len(shown) >= 2
    assert all(int(printed) == heads(int(card)) for card, printed in shown)


@pytest.mark.slow
def test_ctrl_c_mid_game_keeps_the_log_of_what_was_played(tmp_path: Path) -> None:
    import signal
    import time

    log = tmp_path / "game.json"
    command = [sys.executable, "-m", "take5rules", "play", "--players", "me=human,bot=cautious",
               "--log", str(log), "--lang", "en", "--seed", "5"]
    # SIGINT at its default in the child, even when the suite runs with it ignored (a
    # background job of a shell without job control).
    child = subprocess.Popen(command, stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                             stderr=subprocess.PIPE, text=True,
                             preexec_fn=lambda: signal.signal(signal.SIGINT, signal.SIG_DFL))
    assert child.stdin is not None and child.stdout is not None
    # two turns answered with the lowest card of the hand shown, then Ctrl-C at the third
    for _ in range(2):
        hand = _hand_shown(child.stdout)
        child.stdin.write(f"{min(hand)}\n")
        child.stdin.flush()
    _hand_shown(child.stdout)
    time.sleep(0.2)
    child.send_signal(signal.SIGINT)
    child.communicate(timeout=30)
    assert child.returncode == 130
    document = json.loads(log.read_text(encoding="utf-8"))
    assert validate(document).valid
    logged = [turn for round_log in document["rounds"] for turn in round_log["turns"]]
    assert len(logged) == 2  # the two whole turns, and no winners: a game in progress
    assert "winners" not in document


def _hand_shown(stdout: Any) -> list[int]:
    """Read the narration up to the next question; the cards of the hand it shows."""
    seen = ""
    while True:
        line = stdout.readline()
        assert line, f"the game ended before asking: {seen[-300:]!r}"
        seen += line
        found = re.search(r"[Yy]our hand[^:]*:\s*(.+)", line)
        if found:
            return [int(value) for value in re.findall(r"\b(\d{1,3})\b", found.group(1))]

