"""`take5rules conform`: our own referee agrees; wrong referees are caught, shrunk and named."""

from __future__ import annotations

import json
import os
import shlex
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest
from click.testing import CliRunner

from take5rules.cli import main
from take5rules.conform import (
    EXIT_AGREE,
    EXIT_BROKEN,
    EXIT_DISAGREE,
    INVALID_REQUESTS,
    WORKED_EXAMPLES,
    deciding_rule,
    format_result,
    result_json,
    run_conformance,
)
from take5rules.i18n import explain
from take5rules.pytest_plugin import ConformanceCheck
from take5rules.referee import answer

REFEREE = [sys.executable, "-m", "take5rules", "referee"]
WRONG = Path(__file__).parent / "wrong_referees"


def script(name: str, *args: str) -> list[str]:
    return [sys.executable, str(WRONG / f"{name}.py"), *args]


#: The wrong referee whose bug is the largest difference instead of the least.
LARGEST = script("buggy_referee", "--bug", "largest-difference")


def conform(*args: str) -> Any:
    return CliRunner().invoke(main, ["conform", *args])


# --- our own referee agrees ------------------------------------------------------------------


def test_our_referee_agrees() -> None:
    result = run_conformance(REFEREE, cases=120, seed=3)
    assert result.ok, format_result(result)
    assert (result.status, result.exit_code, result.agreed) == ("agree", EXIT_AGREE, 120)
    assert dict(result.examples) == {example.id: True for example in WORKED_EXAMPLES}
    assert [check.same_rule for check in result.invalid] == [True] * len(INVALID_REQUESTS)
    assert result.rules["turn.order"] == 120 + len(WORKED_EXAMPLES)
    for rule in ("table.least-difference", "table.sixth-card", "table.low-card"):
        assert result.rules[rule] >= 10


def test_the_seed_decides_the_turns() -> None:
    first = run_conformance(REFEREE, cases=15, seed=7)
    assert run_conformance(REFEREE, cases=15, seed=7).rules == first.rules
    assert run_conformance(REFEREE, cases=15, seed=8).rules != first.rules


def test_noise_on_stdout_and_stderr_is_tolerated() -> None:
    result = run_conformance(script("noisy_referee"), cases=20)
    assert result.ok, format_result(result)


def test_worked_examples_are_the_rule_texts() -> None:
    replies = {example.id: answer(example.request) for example in WORKED_EXAMPLES}
    assert replies["publisher-14-15-44-61"]["rows"] == [[12, 14, 15], [37], [43, 44], [58, 61]]
    assert replies["founding-4-17-90-93"]["rows"] == [[3, 4, 17], [24], [58, 90, 93], [96]]
    assert replies["founding-low-2"]["taken"] == {"bob": [96]}
    assert replies["founding-sixth-74"]["taken"] == {"ana": [51, 55, 61, 68, 73]}
    assert replies["publisher-29-62"]["taken"] == {"bob": [60], "ana": [50, 52, 54, 56, 58]}
    assert [answer(example.request)["error"]["rule"] for example in INVALID_REQUESTS] == [
        "cards.deck", "table.sixth-card", "table.low-card"]


# --- wrong referees are caught with a small turn and the right rule --------------------------


@pytest.mark.parametrize(
    ("bug", "rule"),
    [
        ("low-card", "table.low-card"),
        ("fifth-card", "table.sixth-card"),
        ("largest-difference", "table.least-difference"),
    ],
)
def test_wrong_referee_is_caught(bug: str, rule: str) -> None:
    referee = script("buggy_referee", "--bug", bug)
    result = run_conformance(referee, cases=300)
    assert (result.status, result.exit_code) == ("disagree", EXIT_DISAGREE)
    mismatch = result.mismatch
    assert mismatch is not None
    assert mismatch.shrunk
    assert mismatch.source == "generated"
    assert mismatch.rule == rule
    assert len(mismatch.request["plays"]) <= 3
    assert sum(len(row) for row in mismatch.request["rows"]) <= 8
    assert mismatch.ours == answer(mismatch.request)
    assert mismatch.theirs != mismatch.ours
    # The shrunk turn really is one the wrong referee gets wrong.
    replay = subprocess.run(referee, input=json.dumps(mismatch.request) + "\n",
                            capture_output=True, text=True, check=True)
    assert json.loads(replay.stdout) == mismatch.theirs
    report = format_result(result)
    assert "shrunk" in report
    assert explain(rule).statement in report
    assert json.dumps(mismatch.request) in report


def test_cli_reports_a_disagreement_with_exit_1() -> None:
    outcome = conform("--cmd", shlex.join(LARGEST), "--cases", "100")
    assert outcome.exit_code == EXIT_DISAGREE
    assert "table.least-difference" in outcome.output
    assert "request:" in outcome.output
    assert "Traceback" not in outcome.output


def test_cli_json_and_lang() -> None:
    outcome = conform("--cmd", shlex.join(LARGEST), "--cases", "50",
                      "--json", "--lang", "fr")
    assert outcome.exit_code == EXIT_DISAGREE
    data = json.loads(outcome.output)
    assert data["status"] == "disagree"
    assert data["exit_code"] == EXIT_DISAGREE
    assert data["mismatch"]["rule"] == "table.least-difference"
    assert data["mismatch"]["title"] == explain("table.least-difference", "fr").title
    assert data["mismatch"]["title"] != explain("table.least-difference", "en").title
    assert data["mismatch"]["ours"] == answer(data["mismatch"]["request"])


def test_deciding_rule_recognises_another_placement_order() -> None:
    request = {"rows": [[12], [37], [43], [58]],
               "plays": [["d", 61], ["c", 44], ["b", 15], ["a", 14]],
               "choices": {"a": 0, "b": 0, "c": 0, "d": 0}}
    in_seat_order = {"rows": [[14], [37], [43, 44], [58, 61]], "taken": {"a": [12, 15]},
                     "chosen": {"a": 0}}
    assert deciding_rule(request, in_seat_order) == "turn.order"


@pytest.mark.parametrize(
    ("theirs", "rule"),
    [
        ({"rows": [[3, 12, 17], [24], [2], [96]], "taken": {"bob": [58, 61, 70]},
          "chosen": {"bob": 2}}, "table.low-card"),
        ({"rows": [[3, 12], [24, 17], [58, 61, 70], [2]], "taken": {"bob": [96]},
          "chosen": {"bob": 3}}, "table.least-difference"),
        ({"rows": [[17], [24], [58, 61, 70], [2]], "taken": {"bob": [96], "ana": [3, 12]},
          "chosen": {"bob": 3}}, "table.sixth-card"),
        ({"error": {"rule": "protocol", "message": "no"}}, "table.low-card"),
    ],
)
def test_deciding_rule(theirs: dict[str, Any], rule: str) -> None:
    request = {"rows": [[3, 12], [24], [58, 61, 70], [96]],
               "plays": [["ana", 17], ["bob", 2]], "choices": {"bob": 3, "ana": 0}}
    assert deciding_rule(request, theirs) == rule


# --- broken programs: exit 2, what happened, their stderr, no traceback of ours ---------------


@pytest.mark.parametrize(
    ("cmd", "kind", "number", "words"),
    [
        (script("wrong_crash"), "crash", 3, ["exited with status 70", "out of cheese"]),
        (script("wrong_hang"), "timeout", 2, ["did not answer within 0.5 seconds",
                                              "thinking very hard"]),
        (script("wrong_garbage"), "garbage", 1, ["not JSON", "OK, placed the cards"]),
        (script("wrong_garbage", "--shape"), "garbage", 1, ["'rows'", "all of them"]),
        (["/nonexistent/take5-engine"], "start", None, ["could not be started"]),
    ],
)
def test_broken_program(cmd: list[str], kind: str, number: int | None,
                        words: list[str]) -> None:
    result = run_conformance(cmd, cases=50, timeout=0.5)
    assert (result.status, result.exit_code) == ("broken", EXIT_BROKEN)
    assert result.failure is not None
    assert (result.failure.kind, result.failure.number) == (kind, number)
    outcome = conform("--cmd", shlex.join(cmd), "--cases", "50", "--timeout", "0.5")
    assert outcome.exit_code == EXIT_BROKEN
    assert outcome.exception is None or isinstance(outcome.exception, SystemExit)
    assert "Traceback" not in outcome.output
    for word in words:
        assert word in outcome.output
    data = result_json(result)
    assert data["failure"]["kind"] == kind


@pytest.mark.parametrize(
    "args",
    [["--cmd", ""], ["--cmd", "'unbalanced"], ["--cmd", "x", "--cases", "-1"],
     ["--cmd", "x", "--timeout", "0"], []],
)
def test_usage_errors_exit_2(args: list[str]) -> None:
    outcome = conform(*args)
    assert outcome.exit_code == 2
    assert "Traceback" not in outcome.output


def test_run_conformance_checks_its_arguments() -> None:
    with pytest.raises(ValueError, match="non-empty"):
        run_conformance([])
    with pytest.raises(ValueError, match="non-empty"):
        run_conformance("take5rules referee")
    with pytest.raises(ValueError, match="timeout"):
        run_conformance(REFEREE, timeout=0)


# --- the real command: python -m take5rules, quiet when piped, nothing left in the cwd ---------


def test_python_m_take5rules_conform(tmp_path: Path) -> None:
    env = {**os.environ, "LC_ALL": "C"}
    env.pop("HYPOTHESIS_STORAGE_DIRECTORY", None)
    done = subprocess.run(
        [sys.executable, "-m", "take5rules", "conform", "--cmd", shlex.join(REFEREE),
         "--cases", "15", "--json"],
        cwd=tmp_path, env=env, capture_output=True, text=True, timeout=60, check=False,
    )
    assert done.returncode == 0, done.stdout + done.stderr
    assert json.loads(done.stdout)["agreed"] == 15
    assert done.stderr == ""  # no progress bar when stderr is not a terminal
    assert list(tmp_path.iterdir()) == []  # no .hypothesis directory


# --- the pytest plugin ------------------------------------------------------------------------


def test_fixture_passes(take5_conformance: ConformanceCheck) -> None:
    result = take5_conformance(shlex.join(REFEREE), cases=10)
    assert result.agreed == 10


def test_fixture_fails_with_the_shrunk_turn(take5_conformance: ConformanceCheck) -> None:
    with pytest.raises(pytest.fail.Exception) as failure:
        take5_conformance(LARGEST, cases=100)
    assert "table.least-difference" in str(failure.value)
    assert '"plays": [["ana", 5], ["bob", 6]]' in str(failure.value)


def test_plugin_is_cheap_to_load() -> None:
    code = ("import sys, take5rules.pytest_plugin; "
            "print(sorted(m for m in ('hypothesis', 'rich', 'click', 'babel', "
            "'take5rules.conform') if m in sys.modules))")
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                          check=True)
    assert done.stdout.strip() == "[]"
