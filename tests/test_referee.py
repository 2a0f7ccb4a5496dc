from __future__ import annotations

import io
import json
import subprocess
import sys

import pytest

from take5rules.referee import answer, answer_line, serve

EXAMPLE = {"rows": [[3, 12], [24], [58, 61, 70], [96]],
           "plays": [["ana", 17], ["bob", 2]], "choices": {"bob": 3}}


def test_answer_the_issue_example() -> None:
    assert answer(EXAMPLE) == {"rows": [[3, 12, 17], [24], [58, 61, 70], [2]],
                               "taken": {"bob": [96]}, "chosen": {"bob": 3}}


def test_answer_publisher_example() -> None:
    reply = answer({"rows": [[12], [37], [43], [58]],
                    "plays": [["a", 61], ["b", 44], ["c", 15], ["d", 14]]})
    assert reply == {"rows": [[12, 14, 15], [37], [43, 44], [58, 61]], "taken": {}, "chosen": {}}


def test_answer_a_choice_not_needed_is_not_reported_as_chosen() -> None:
    reply = answer({**EXAMPLE, "choices": {"bob": 3, "ana": 0}})
    assert reply["chosen"] == {"bob": 3}


@pytest.mark.parametrize(
    ("request_", "rule"),
    [
        ([1, 2], "protocol"),
        ({"rows": [[3], [24], [58], [96]]}, "protocol"),
        ({"rows": [[3], [24], [58], [96]], "plays": [["a", 3]]}, "cards.deck"),
        ({"rows": [[3], [24], [58], [96]], "plays": [["a", 0]]}, "cards.deck"),
        ({"rows": [[3], [24], [58], [96]], "plays": [["a", 105]]}, "cards.deck"),
        ({"rows": [[3], [24], [58], [96]], "plays": [["a", 5], ["a", 6]]}, "protocol"),
        ({"rows": [[24, 3], [25], [58], [96]], "plays": [["a", 5]]}, "table.ascending"),
        ({"rows": [[1, 2, 3, 4, 5, 6], [24], [58], [96]], "plays": [["a", 7]]},
         "table.sixth-card"),
        ({"rows": [[3], [24], [58], [96]], "plays": [["a", 2]]}, "table.low-card"),
        ({"rows": [[3], [24], [58], [96]], "plays": [["a", 2]], "choices": {"a": 4}}, "protocol"),
        ({"rows": [[3], [24], [58], [96]], "plays": [["a", 2]], "choices": {"z": 1}}, "protocol"),
        ({"rows": [[3], [24], [58], [96]], "plays": []}, "protocol"),
        ({"rows": [[3], [24], [58], [96]], "plays": [["a", 5]], "extra": 1}, "protocol"),
        ({"rows": [[3], [24], [58]], "plays": [["a", 5]]}, "setup.deal"),
        ({"rows": "x", "plays": [["a", 5]]}, "protocol"),
        ({"rows": [[3], [24], [58], [96]], "plays": [[5, "a"]]}, "protocol"),
    ],
)
def test_answer_invalid_requests_name_the_rule(request_: object, rule: str) -> None:
    reply = answer(request_)
    assert reply["error"]["rule"] == rule
    assert reply["error"]["message"]


def test_answer_line_rejects_non_json() -> None:
    assert json.loads(answer_line("{oops"))["error"]["rule"] == "protocol"


def test_serve_keeps_serving_after_an_error_and_skips_blank_lines() -> None:
    stdin = io.StringIO("garbage\n\n" + json.dumps(EXAMPLE) + "\n")
    stdout = io.StringIO()
    assert serve(stdin, stdout) == 0
    replies = [json.loads(line) for line in stdout.getvalue().splitlines()]
    assert "error" in replies[0]
    assert replies[1]["taken"] == {"bob": [96]}


def test_referee_command_answers_over_pipes() -> None:
    process = subprocess.run(
        [sys.executable, "-c", "from take5rules.cli import main; main()", "referee"],
        input=json.dumps(EXAMPLE) + "\nnot json\n", capture_output=True, text=True, timeout=60,
        check=False,
    )
    assert process.returncode == 0, process.stderr
    lines = process.stdout.splitlines()
    assert json.loads(lines[0])["rows"][3] == [2]
    assert json.loads(lines[1])["error"]["rule"] == "protocol"
    assert "Traceback" not in process.stderr


def test_answer_words_errors_in_the_language_asked() -> None:
    request = {"rows": [[3], [24], [58], [96]], "plays": [["a", 2]]}
    english = answer(request)["error"]
    french = answer(request, "fr")["error"]
    assert english["rule"] == french["rule"] == "table.low-card"
    assert french["message"] != english["message"]
    assert "[règle table.low-card]" in french["message"]


def test_referee_command_takes_lang() -> None:
    process = subprocess.run(
        [sys.executable, "-c", "from take5rules.cli import main; main()", "referee", "--lang",
         "bg"],
        input="not json\n", capture_output=True, text=True, timeout=60, check=False,
    )
    assert process.returncode == 0
    reply = json.loads(process.stdout)
    assert reply["error"]["rule"] == "protocol"
    assert "правило" in reply["error"]["message"]
