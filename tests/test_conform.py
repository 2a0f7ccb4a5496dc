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
from hypothesis import given, settings
from hypothesis import strategies as st

from take5rules.cli.main import main
from take5rules.conformance.cases import INVALID_REQUESTS, WORKED_EXAMPLES
from take5rules.conformance.outcome import (
    EXIT_AGREE,
    EXIT_BROKEN,
    EXIT_DISAGREE,
    format_result,
    result_json,
)
from take5rules.conformance.plugin import ConformanceCheck
from take5rules.conformance.referee import answer
from take5rules.conformance.run import run_conformance
from take5rules.conformance.strategies import requests
from take5rules.conformance.verdict import deciding_rule
from take5rules.errors import MalformedInputError
from take5rules.registry import RULE_ORDER
from take5rules.text import explain

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


#: The founding texts' low-card turn: 17 goes after 12; 2 is low, and bob takes the 96 row.
TURN = {"rows": [[3, 12], [24], [58, 61, 70], [96]],
        "plays": [["ana", 17], ["bob", 2]], "choices": {"bob": 3, "ana": 0}}
#: 17 may follow 12 (difference 5) or 5 (difference 12); row 3 is full, so 75 is a sixth card.
FULL = {"rows": [[3, 12], [5], [40], [60, 61, 62, 63, 64]],
        "plays": [["ana", 17], ["bob", 75]], "choices": {}}


@pytest.mark.parametrize(
    ("request_", "theirs", "rule"),
    [
        # bob's low card takes row 2 instead of the row he chose (3)
        (TURN, {"rows": [[3, 12, 17], [24], [2], [96]], "taken": {"bob": [58, 61, 70]},
                "chosen": {"bob": 2}}, "table.low-card"),
        # 17 put after 24: after a higher card
        (TURN, {"rows": [[3, 12], [24, 17], [58, 61, 70], [2]], "taken": {"bob": [96]},
                "chosen": {"bob": 3}}, "table.ascending"),
        # 17 put after 5 (difference 12) instead of after 12 (difference 5)
        (FULL, {"rows": [[3, 12], [5, 17], [40], [75]],
                "taken": {"bob": [60, 61, 62, 63, 64]}, "chosen": {}}, "table.least-difference"),
        # 75 becomes the sixth card of its row instead of taking the five
        (FULL, {"rows": [[3, 12, 17], [5], [40], [60, 61, 62, 63, 64, 75]], "taken": {},
                "chosen": {}}, "table.sixth-card"),
        # 17 takes a row of two cards, which no sixth card reached
        (TURN, {"rows": [[17], [24], [58, 61, 70], [2]], "taken": {"bob": [96], "ana": [3, 12]},
                "chosen": {"bob": 3}}, "table.sixth-card"),
        # 17 fits after 12, yet ana is made to choose a row as if it were low
        (TURN, {"rows": [[3, 12], [17], [58, 61, 70], [2]], "taken": {"bob": [96], "ana": [24]},
                "chosen": {"bob": 3, "ana": 1}}, "table.low-card"),
        # 17 is placed right, but a choice is reported for her anyway
        (FULL, {"rows": [[3, 12, 17], [5], [40], [75]], "taken": {"bob": [60, 61, 62, 63, 64]},
                "chosen": {"ana": 0}}, "table.low-card"),
        # every card placed right, but the 40 no card touched is lost
        (FULL, {"rows": [[3, 12, 17], [5], [], [75]], "taken": {"bob": [60, 61, 62, 63, 64]},
                "chosen": {}}, "cards.deck"),
        # 75 vanishes: the rule that places it decides
        (FULL, {"rows": [[3, 12, 17], [5], [40], []], "taken": {"bob": [60, 61, 62, 63, 64]},
                "chosen": {}}, "table.sixth-card"),
        # an error naming a rule of the game blames that rule; "protocol" the low card
        (FULL, {"error": {"rule": "table.sixth-card", "message": "no"}}, "table.sixth-card"),
        (TURN, {"error": {"rule": "protocol", "message": "no"}}, "table.low-card"),
    ],
)
def test_deciding_rule(request_: dict[str, Any], theirs: dict[str, Any], rule: str) -> None:
    assert answer(request_) != theirs
    assert deciding_rule(request_, theirs) == rule


def test_a_turn_without_a_sixth_card_never_blames_the_sixth_card() -> None:
    # The placements are right; ana's stray [] and a lost table card must not be blamed on
    # table.sixth-card, which no card of this turn reaches.
    request = {"rows": [[3, 12], [24], [58, 61, 70], [96]], "plays": [["ana", 17], ["bob", 25]]}
    theirs = {"rows": [[3, 12, 17], [24, 25], [58, 61], [96]], "taken": {"ana": []},
              "chosen": {}}
    assert deciding_rule(request, theirs) == "cards.deck"


def test_an_empty_taken_list_means_took_nothing() -> None:
    result = run_conformance(script("wrong_hostile", "--mode", "empty-taken"), cases=60)
    assert result.ok, format_result(result)
    assert result.agreed == 60


def test_the_report_names_the_invalid_request_answered_with_a_turn() -> None:
    result = run_conformance(script("wrong_hostile", "--mode", "accept-duplicate"), cases=5)
    assert [check.errored for check in result.invalid] == [False, True, True]
    report = format_result(result)
    assert "answered with an error: 2 of 3" in report
    unanswered = [line for line in report.splitlines() if "not an error" in line]
    assert len(unanswered) == 1
    assert "a card played that is already on the table" in unanswered[0]
    assert "cards.deck" in unanswered[0]


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
        (script("wrong_hostile", "--mode", "digits"), "garbage", 1, ["number too long"]),
        (script("wrong_hostile", "--mode", "nesting"), "garbage", 1, ["nested too deeply"]),
        (script("wrong_hostile", "--mode", "endless"), "garbage", 1, ["longer than 65536"]),
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


def test_an_endless_reply_line_does_not_fill_our_memory() -> None:
    code = ("import resource, sys; from take5rules.conformance.run import run_conformance; "
            "before = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss; "
            f"result = run_conformance({script('wrong_hostile', '--mode', 'endless')!r}, "
            "cases=5, timeout=3); "
            "after = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss; "
            "print(result.exit_code, result.failure.kind, (after - before) // 1024)")
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                          timeout=120, check=True)
    status, kind, grown_mb = done.stdout.split()
    assert (int(status), kind) == (EXIT_BROKEN, "garbage")
    assert int(grown_mb) < 20, done.stdout


@pytest.mark.parametrize("timeout", [float("nan"), float("inf"), -1.0, 0.0, 3600.5])
def test_a_timeout_that_is_not_a_number_of_seconds_is_refused(timeout: float) -> None:
    with pytest.raises(ValueError, match="timeout must be a number of seconds"):
        run_conformance(REFEREE, cases=1, timeout=timeout)


def test_run_conformance_checks_its_arguments() -> None:
    with pytest.raises(ValueError, match="non-empty"):
        run_conformance([])
    with pytest.raises(ValueError, match="non-empty"):
        run_conformance("take5rules referee")
    with pytest.raises(ValueError, match="timeout"):
        run_conformance(REFEREE, timeout=0)


@pytest.mark.parametrize("cmd", [None, 3, [sys.executable, 3], [sys.executable, None],
                                 (sys.executable, b"-m"), {"a": 1}, iter(REFEREE), []])
def test_a_command_that_is_not_a_list_of_strings_is_a_clear_error(cmd: Any) -> None:
    with pytest.raises(MalformedInputError) as caught:
        run_conformance(cmd, cases=1)
    assert caught.value.rule == "argument"
    assert "cmd must be a non-empty list of strings" in str(caught.value)


@pytest.mark.parametrize("cases", [-1, True, 2.5, "3", None])
def test_cases_that_are_not_a_count_are_a_clear_error(cases: Any) -> None:
    with pytest.raises(MalformedInputError) as caught:
        run_conformance(REFEREE, cases=cases)
    assert caught.value.rule == "argument" and "cases" in str(caught.value)


@pytest.mark.parametrize("timeout", ["5", None, True])
def test_a_timeout_of_another_type_is_a_clear_error(timeout: Any) -> None:
    with pytest.raises(MalformedInputError) as caught:
        run_conformance(REFEREE, cases=1, timeout=timeout)
    assert caught.value.rule == "argument" and "timeout" in str(caught.value)


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


@pytest.mark.parametrize("cmd", [None, [sys.executable, 3], 5, "'unclosed"])
def test_fixture_names_the_argument_it_cannot_run(take5_conformance: ConformanceCheck,
                                                  cmd: Any) -> None:
    with pytest.raises(MalformedInputError) as caught:
        take5_conformance(cmd, cases=1)
    assert caught.value.rule == "argument"
    assert str(caught.value).startswith("cmd ")


def test_plugin_is_cheap_to_load() -> None:
    code = ("import sys, take5rules.conformance.plugin; "
            "print(sorted(m for m in ('hypothesis', 'rich', 'click', 'babel', "
            "'take5rules.conformance.run') if m in sys.modules))")
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                          check=True)
    assert done.stdout.strip() == "[]"


# --- Hypothesis is optional: only shrinking needs it ---------------------------------------


def test_importing_conform_referee_or_the_plugin_does_not_import_hypothesis() -> None:
    code = ("import sys, take5rules.conformance.run, take5rules.conformance.referee, "
            "take5rules.conformance.plugin, "
            "take5rules.conformance.random_turns; print('hypothesis' in sys.modules)")
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                          check=True)
    assert done.stdout.strip() == "False"


def test_without_hypothesis_a_disagreement_is_reported_unshrunk() -> None:
    code = (
        "import sys; sys.modules['hypothesis'] = None\n"  # makes `import hypothesis` fail
        "from take5rules.conformance.run import run_conformance\n"
        "from take5rules.conformance.outcome import format_result\n"
        f"result = run_conformance({LARGEST!r}, cases=200)\n"
        "print(result.exit_code, result.mismatch.shrunk, result.mismatch.hypothesis, "
        "result.mismatch.rule)\n"
        "print(format_result(result))\n"
        "print('hypothesis' in sys.modules and sys.modules['hypothesis'] is not None)\n"
    )
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                          timeout=120, check=True)
    first, *report, last = done.stdout.splitlines()
    assert first == f"{EXIT_DISAGREE} False False table.least-difference"
    assert "not shrunk" in "\n".join(report)
    assert "take5rules[conform]" in "\n".join(report)
    assert last == "False"


def test_a_generated_disagreement_is_shrunk_by_hypothesis() -> None:
    result = run_conformance(LARGEST, cases=200, seed=5)
    assert result.mismatch is not None
    assert (result.mismatch.shrunk, result.mismatch.hypothesis) == (True, True)
    assert len(result.mismatch.request["plays"]) == 2


# --- any reply of the protocol's shape is blamed on a rule, never on a traceback -------------

_CARDS = st.integers(min_value=-3, max_value=110)


@settings(max_examples=150, deadline=None, database=None)
@given(requests(min_plays=1),
       st.lists(st.lists(_CARDS, max_size=7), min_size=4, max_size=4),
       st.dictionaries(st.sampled_from(["ana", "bob", "cyd", "zed"]), st.lists(_CARDS, max_size=7)),
       st.dictionaries(st.sampled_from(["ana", "bob", "cyd", "zed"]), st.integers(-1, 5)))
def test_any_disagreeing_reply_is_blamed_on_a_rule(request_: dict[str, Any],
                                                    rows: list[list[int]],
                                                    taken: dict[str, list[int]],
                                                    chosen: dict[str, int]) -> None:
    theirs = {"rows": rows, "taken": taken, "chosen": chosen}
    assert deciding_rule(request_, theirs) in RULE_ORDER


def test_a_timeout_is_reported_with_all_the_program_wrote_on_stderr() -> None:
    # The report must hold the program's last words (issue 10: wrong_hang's were missing once,
    # when a thread read stderr late under load): the channel reads stderr to its end after
    # the program is stopped, before the report is made.
    result = run_conformance(script("wrong_hang"), cases=5, timeout=0.2)
    assert result.failure is not None
    assert result.failure.kind == "timeout"
    assert "thinking very hard" in result.failure.stderr_tail
