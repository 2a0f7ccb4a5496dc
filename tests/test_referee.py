from __future__ import annotations

import errno
import io
import json
import os
import random
import shlex
import subprocess
import sys
from typing import Any

import pytest

from take5rules.conformance.random_turns import random_request
from take5rules.conformance.referee import answer, answer_line, resolve, serve

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


def test_serve_keeps_serving_after_an_error_and_answers_blank_lines() -> None:
    stdin = io.StringIO("garbage\n\n" + json.dumps(EXAMPLE) + "\n")
    stdout = io.StringIO()
    assert serve(stdin, stdout) == 0
    replies = [json.loads(line) for line in stdout.getvalue().splitlines()]
    assert len(replies) == 3  # one reply a line, the blank line's too
    assert "error" in replies[0]
    assert replies[1]["error"]["rule"] == "protocol"
    assert "blank" in replies[1]["error"]["message"]
    assert replies[2]["taken"] == {"bob": [96]}


def test_referee_command_answers_over_pipes() -> None:
    process = subprocess.run(
        [sys.executable, "-c", "from take5rules.cli.main import main; main()", "referee"],
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
        [sys.executable, "-c", "from take5rules.cli.main import main; main()", "referee", "--lang",
         "bg"],
        input="not json\n", capture_output=True, text=True, timeout=60, check=False,
    )
    assert process.returncode == 0
    reply = json.loads(process.stdout)
    assert reply["error"]["rule"] == "protocol"
    # in Bulgarian, and the id alone: a protocol error breaks no rule of the game
    assert reply["error"]["message"].startswith("заявката не е валиден JSON")
    assert reply["error"]["message"].endswith(" [protocol]")


# --- hostile lines: one reply each, and the referee keeps serving ---------------------------

TAKE5 = [sys.executable, "-m", "take5rules", "referee"]
VALID = json.dumps(EXAMPLE).encode()
#: What the referee answers to VALID: 17 after 12, bob's 2 takes the 96 row (index 3).
VALID_REPLY = {"rows": [[3, 12, 17], [24], [58, 61, 70], [2]], "taken": {"bob": [96]},
               "chosen": {"bob": 3}}

#: Hostile lines and the rule their error reply names.
HOSTILE = {
    "lone-surrogate-player": (
        b'{"rows": [[3], [24], [58], [96]], "plays": [["\\ud800", 5]]}', "protocol"),
    "deep-nesting": (b"[" * 100_000 + b"]" * 100_000, "protocol"),
    "deep-nesting-as-a-card": (b'{"rows": [[3], [24], [58], [96]], "plays": [["a", '
                               + b"[" * 900 + b"]" * 900 + b"]]}", "protocol"),
    "nesting-as-a-card": (b'{"rows": [[3], [24], [58], [96]], "plays": [["a", '
                          + b"[" * 90 + b"]" * 90 + b"]]}", "cards.deck"),
    "number-over-4300-digits": (b'{"rows": [[3], [24], [58], [96]], "plays": [["a", '
                                + b"9" * 5000 + b"]]}", "protocol"),
    "not-utf-8": (b'{"rows": [[3], [24], [58], [96]], "plays": [["\xff\xfe", 5]]}', "protocol"),
    "cesu-surrogate": (
        b'{"rows": [[3], [24], [58], [96]], "plays": [["\xed\xa0\x80", 5]]}', "protocol"),
    "over-long-line": (b'{"rows": [[3], [24], [58], [96]], "plays": [["' + b"a" * 70_000
                       + b'", 5]]}', "protocol"),
}


def _serve_bytes(
    lines: list[bytes], env: dict[str, str] | None = None
) -> tuple[int, list[Any], str]:
    done = subprocess.run(TAKE5, input=b"\n".join(lines) + b"\n", capture_output=True,
                          timeout=120, check=False, env=env)
    replies = [json.loads(line) for line in done.stdout.decode("utf-8").splitlines()]
    return done.returncode, replies, done.stderr.decode("utf-8", "replace")


@pytest.mark.parametrize("name", sorted(HOSTILE))
def test_a_hostile_line_gets_an_error_and_the_referee_goes_on(name: str) -> None:
    line, rule = HOSTILE[name]
    status, replies, stderr = _serve_bytes([VALID, line, VALID])
    assert (status, stderr) == (0, "")
    assert len(replies) == 3
    assert replies[0] == replies[2] == VALID_REPLY
    assert replies[1]["error"]["rule"] == rule
    assert replies[1]["error"]["message"]


def test_hostile_lines_under_a_strict_utf_8_locale() -> None:
    env = {**os.environ, "LC_ALL": "C.UTF-8", "PYTHONIOENCODING": "utf-8:strict"}
    status, replies, stderr = _serve_bytes([HOSTILE["not-utf-8"][0], VALID], env)
    assert (status, stderr) == (0, "")
    assert replies[0]["error"]["rule"] == "protocol"
    assert replies[1] == VALID_REPLY


def test_answer_line_takes_bytes_and_names_the_bad_byte() -> None:
    reply = json.loads(answer_line(b'["\xc3\x28"]'))
    assert reply["error"]["rule"] == "protocol"
    assert "byte 3" in reply["error"]["message"]  # 0xC3 opens a character 0x28 cannot end


def test_an_endless_line_keeps_memory_flat() -> None:
    # The line is made by the shell, so that only the referee could hold it in memory.
    child = shlex.join([sys.executable, "-c", (
        "import resource, sys; from take5rules.conformance.referee import serve; serve(sys.stdin, "
        "sys.stdout); print(resource.getrusage(resource.RUSAGE_SELF).ru_maxrss // 1024, "
        "file=sys.stderr)")])

    def peak_mb(size: int) -> tuple[int, list[Any]]:
        script = (f"{{ printf '{{\"rows\": \"'; head -c {size} /dev/zero | tr '\\0' x; "
                  f"printf '\"}}\\n%s\\n' \"$1\"; }} | {child}")
        done = subprocess.run(["bash", "-c", script, "-", VALID.decode()], capture_output=True,
                              timeout=120, check=True)
        return int(done.stderr), [json.loads(line) for line in done.stdout.splitlines()]

    quiet, _ = peak_mb(10)
    flood, replies = peak_mb(80_000_000)
    assert replies[1] == VALID_REPLY
    assert replies[0]["error"]["rule"] == "protocol"
    assert "longer than 65536 bytes" in replies[0]["error"]["message"]
    assert flood - quiet < 20, (quiet, flood)


def test_a_closed_pipe_ends_the_referee_quietly_with_status_0() -> None:
    many = (VALID + b"\n") * 20_000
    # pipefail: the pipeline's status is the referee's (head's own is 0)
    done = subprocess.run(["bash", "-c", f"set -o pipefail; {shlex.join(TAKE5)} 2>\"$1\" "
                           "| head -1", "-", "/dev/stderr"], input=many, capture_output=True,
                          timeout=120, check=False)
    assert json.loads(done.stdout) == VALID_REPLY
    assert done.stderr == b""
    assert done.returncode == 0


def test_a_full_disk_ends_the_referee_with_one_line() -> None:
    with open("/dev/full", "wb") as full:
        done = subprocess.run(TAKE5, input=(VALID + b"\n") * 100, stdout=full,
                              stderr=subprocess.PIPE, timeout=60, check=False)
    message = done.stderr.decode()
    assert done.returncode == 2
    assert "Traceback" not in message
    assert len(message.splitlines()) == 1
    assert "no space left on the device" in message


def test_closed_stdin_is_the_end_of_input() -> None:
    assert serve(None, io.StringIO()) == 0


class _FailingInput(io.RawIOBase):
    """A standard input whose device fails on the first read."""

    def readable(self) -> bool:
        return True

    def readinto(self, buffer: Any) -> int:
        raise OSError(errno.EIO, os.strerror(errno.EIO))


def test_a_failing_stdin_ends_the_referee_with_one_line(
        capsys: pytest.CaptureFixture[str]) -> None:
    stdin = io.TextIOWrapper(io.BufferedReader(_FailingInput()))
    assert serve(stdin, io.StringIO()) == 1
    message = capsys.readouterr().err
    assert message.splitlines() == [
        "take5rules referee: the requests could not be read: input/output error"]


def test_blank_lines_get_an_error_reply_in_text_and_in_bytes() -> None:
    blank = " \t\x0b\x0c\r"
    stdout = io.StringIO()
    assert serve(io.StringIO(f"{blank}\n\n{json.dumps(EXAMPLE)}\n"), stdout) == 0
    status, replies, _ = _serve_bytes([blank.encode(), b"", VALID])
    assert status == 0
    assert [json.loads(line) for line in stdout.getvalue().splitlines()] == replies
    assert len(replies) == 3
    for reply in replies[:2]:
        assert reply["error"]["rule"] == "protocol"
        assert reply["error"]["message"].startswith("the request line is blank")
    assert replies[2] == VALID_REPLY


def test_a_client_counting_one_reply_a_line_never_waits() -> None:
    lines = [b"", VALID, b"   ", b"not json", b"\r", VALID, b"{}"]
    done = subprocess.run(TAKE5, input=b"\n".join(lines) + b"\n", capture_output=True,
                          timeout=60, check=False)
    assert done.returncode == 0
    assert len(done.stdout.splitlines()) == len(lines)


def _variants(request: dict[str, Any], rng: random.Random) -> list[object]:
    """*request* as sent, and spoiled in the ways a careless client spoils one."""
    plays = request["plays"]
    rows = request["rows"]
    low = [player for player, value in plays if value < min(row[-1] for row in rows)]
    return [
        request,
        {**request, "choices": {}},  # a low card with no row chosen
        {**request, "plays": [*plays, [plays[0][0], 50]]},  # a player twice
        {**request, "plays": [[plays[0][0], rows[0][-1]], *plays[1:]]},  # a card on the table
        {**request, "plays": [*plays[:-1], [plays[-1][0], rng.choice([0, 105, 7.0, True])]]},
        {**request, "choices": {name: rng.choice([-1, 4, 1.0]) for name in low}},
        {**request, "rows": [*rows[:3], [*rows[3], *range(1, 4)]]},  # not ascending / too long
        {**request, "plays": plays * 6},  # too many plays
    ]


def test_answer_replies_as_resolve_turn_does() -> None:
    # The referee's kernel path (answer) against the documented rule function
    # (resolve -> turn.resolve_turn), on random requests valid and spoiled.
    rng = random.Random(20261201)
    compared = errors = 0
    for _ in range(1500):
        for request in _variants(random_request(rng, 1, 10), rng):
            reply = answer(request)
            assert reply == resolve(request)[0], request
            compared += 1
            errors += "error" in reply
    assert compared == 12_000
    assert 3_000 < errors < compared  # both outcomes are compared, many times
