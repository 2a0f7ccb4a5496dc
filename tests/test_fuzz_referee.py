"""Fuzzing the referee: hostile lines through one long-lived ``take5rules referee`` and in-process.

Every line must get exactly one reply line, valid JSON: an error naming a rule, or a turn; the
referee must accept exactly the valid requests (:func:`is_valid`, written here independently of
take5rules), never write a traceback, and keep serving to the end. The same lines go through
:func:`take5rules.conformance.referee.answer_line` in this process, which must reply the same.

The inputs: arbitrary JSON values, valid requests with one part replaced by an arbitrary JSON
value, arbitrary bytes, nesting up to 200,000 deep, and numbers of up to 10,000 digits. Each
test tries ``TAKE5_FUZZ_EXAMPLES`` inputs (default 60, fast enough for CI; set it higher for a
longer run, e.g. ``TAKE5_FUZZ_EXAMPLES=5000``).
"""

from __future__ import annotations

import itertools
import json
import os
import queue
import subprocess
import sys
import threading
from collections.abc import Iterator
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from take5rules.conformance.referee import MAX_DEPTH, MAX_LINE_BYTES, answer_line
from take5rules.conformance.strategies import requests

EXAMPLES = int(os.environ.get("TAKE5_FUZZ_EXAMPLES", "60"))
FUZZ = settings(max_examples=EXAMPLES, deadline=None, database=None,
                suppress_health_check=list(HealthCheck))

#: A valid request and the reply it must get once all the fuzzing is done.
CHECK = b'{"rows": [[3, 12], [24], [58, 61, 70], [96]], "plays": [["ana", 17], ["bob", 2]], ' \
        b'"choices": {"bob": 3}}'
CHECK_REPLY = {"rows": [[3, 12, 17], [24], [58, 61, 70], [2]], "taken": {"bob": [96]},
               "chosen": {"bob": 3}}

RULES = {"protocol", "cards.deck", "setup.deal", "table.ascending", "table.sixth-card",
         "table.low-card", "table.least-difference", "turn.reveal", "setup.players"}


class Referee:
    """One ``take5rules referee`` process for the whole module: a line in, a line out."""

    def __init__(self) -> None:
        self.process = subprocess.Popen(
            [sys.executable, "-m", "take5rules", "referee"],
            stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=subprocess.PIPE)
        self.replies: queue.Queue[bytes] = queue.Queue()
        self.stderr: list[bytes] = []
        self.sent = 0
        threading.Thread(target=self._read, daemon=True).start()
        threading.Thread(target=self._read_stderr, daemon=True).start()

    def _read(self) -> None:
        assert self.process.stdout is not None
        for line in self.process.stdout:
            self.replies.put(line)

    def _read_stderr(self) -> None:
        assert self.process.stderr is not None
        self.stderr.extend(self.process.stderr)

    def ask(self, line: bytes) -> Any:
        """Send one line; return its one reply, parsed, after checking no other came."""
        assert self.process.stdin is not None
        self.process.stdin.write(line + b"\n")
        self.process.stdin.flush()
        self.sent += 1
        reply = self.replies.get(timeout=30)
        assert reply.endswith(b"\n")
        return json.loads(reply)

    def close(self) -> tuple[int, bytes]:
        assert self.process.stdin is not None
        self.process.stdin.close()
        status = self.process.wait(timeout=30)
        return status, b"".join(self.stderr)


@pytest.fixture(scope="module")
def referee() -> Iterator[Referee]:
    program = Referee()
    yield program
    # After every hostile line: still serving, still right, nothing extra, no traceback.
    assert program.ask(CHECK) == CHECK_REPLY
    assert program.replies.empty()
    status, stderr = program.close()
    assert (status, stderr) == (0, b"")
    sys.stderr.write(f"\ntest_fuzz_referee: {program.sent - 1} hostile lines tried\n")


def is_valid(request: object) -> bool:
    """Whether *request* is a valid referee request: an independent statement of the protocol."""
    if type(request) is not dict or not {"rows", "plays"} <= request.keys() <= {
            "rows", "plays", "choices"}:
        return False
    rows, plays = request["rows"], request["plays"]
    if type(rows) is not list or len(rows) != 4:
        return False
    seen: list[int] = []
    for row in rows:
        if type(row) is not list or not 1 <= len(row) <= 5:
            return False
        if any(type(value) is not int or not 1 <= value <= 104 for value in row):
            return False
        if any(later <= earlier for earlier, later in itertools.pairwise(row)):
            return False
        seen += row
    if type(plays) is not list or not 1 <= len(plays) <= 10:
        return False
    players: list[str] = []
    for pair in plays:
        if type(pair) is not list or len(pair) != 2 or type(pair[0]) is not str:
            return False
        if type(pair[1]) is not int or not 1 <= pair[1] <= 104:
            return False
        if any(0xD800 <= ord(char) <= 0xDFFF for char in pair[0]):
            return False
        players.append(pair[0])
        seen.append(pair[1])
    if len(set(players)) != len(players) or len(set(seen)) != len(seen):
        return False
    choices = request.get("choices", {})
    if type(choices) is not dict or any(
            player not in players or type(row) is not int or not 0 <= row <= 3
            for player, row in choices.items()):
        return False
    # Only the lowest card can be lower than every row's last card; then it needs a choice.
    player, lowest = min(plays, key=lambda pair: pair[1])
    return lowest > min(row[-1] for row in rows) or player in choices


def check(referee: Referee, line: bytes, request: object = None, parsed: bool = False) -> None:
    """Send *line* both ways; check the one reply against :func:`is_valid` of *request*."""
    reply = referee.ask(line)
    if not line.strip():  # a blank line gets a protocol error, by the protocol: one reply a line
        assert reply["error"]["rule"] == "protocol", reply
        return
    assert reply == json.loads(answer_line(line))
    assert type(reply) is dict
    if "error" in reply:
        assert reply.keys() == {"error"}
        assert reply["error"]["rule"] in RULES
        assert isinstance(reply["error"]["message"], str)
        assert reply["error"]["message"]
        if parsed:
            assert not is_valid(request), reply
        return
    assert parsed
    assert is_valid(request), request
    assert reply.keys() == {"rows", "taken", "chosen"}
    assert len(reply["rows"]) == 4


def dumps(value: object) -> bytes:
    """*value* as one line of JSON (ASCII: a lone surrogate is written as its escape)."""
    return json.dumps(value).encode()


JSON = st.recursive(
    st.none() | st.booleans() | st.integers() | st.floats() | st.text(),
    lambda children: st.lists(children, max_size=6)
    | st.dictionaries(st.text(max_size=8), children, max_size=6),
    max_leaves=30,
)


@FUZZ
@given(JSON)
def test_any_json_value(referee: Referee, value: object) -> None:
    check(referee, dumps(value), value, parsed=True)


def _nodes(value: object) -> int:
    if isinstance(value, list):
        return 1 + sum(_nodes(item) for item in value)
    if isinstance(value, dict):
        return 1 + sum(_nodes(item) for item in value.values())
    return 1


def _replaced(value: object, index: int, new: object) -> tuple[object, int]:
    """*value* with its node number *index* (depth first) replaced by *new*; and nodes left."""
    if index == 0:
        return new, -1
    index -= 1
    if isinstance(value, list):
        items = []
        for item in value:
            if index >= 0:
                item, index = _replaced(item, index, new)
            items.append(item)
        return items, index
    if isinstance(value, dict):
        entries = {}
        for key, item in value.items():
            if index >= 0:
                item, index = _replaced(item, index, new)
            entries[key] = item
        return entries, index
    return value, index


@FUZZ
@given(requests(min_plays=1), st.integers(min_value=0), JSON | st.sampled_from(
    [0, 105, -1, True, 3.0, "12", [], {}, None, 2**64, "\ud800", [[1]] * 5]))
def test_a_valid_request_with_one_part_replaced(referee: Referee, request: dict[str, Any],
                                                position: int, new: object) -> None:
    mutated, _ = _replaced(request, position % _nodes(request), new)
    check(referee, dumps(mutated), mutated, parsed=True)


@FUZZ
@given(requests(min_plays=1))
def test_valid_requests_are_accepted(referee: Referee, request: dict[str, Any]) -> None:
    check(referee, dumps(request), request, parsed=True)


@FUZZ
@given(st.binary(max_size=300))
def test_any_bytes(referee: Referee, data: bytes) -> None:
    line = data.replace(b"\n", b" ")
    try:
        value = json.loads(line.decode("utf-8"))
    except (UnicodeDecodeError, ValueError, RecursionError):
        check(referee, line)  # not JSON: an error, whatever it is
        return
    check(referee, line, value, parsed=True)


@FUZZ
@given(st.integers(min_value=1, max_value=200_000), st.sampled_from(["[", '{"rows": ', '[["a", ']),
       st.sampled_from(["rows", "plays", "card"]))
def test_deep_nesting(referee: Referee, depth: int, opener: str, where: str) -> None:
    closer = {"[": "]", '{"rows": ': "}", '[["a", ': "]]"}[opener]
    nested = opener * depth + "1" + closer * depth
    line = {
        "rows": f'{{"rows": {nested}, "plays": [["a", 5]]}}',
        "plays": f'{{"rows": [[3], [24], [58], [96]], "plays": {nested}}}',
        "card": f'{{"rows": [[3], [24], [58], [96]], "plays": [["a", {nested}]]}}',
    }[where].encode()
    reply = referee.ask(line)
    assert reply == json.loads(answer_line(line))
    assert reply["error"]["rule"] in RULES
    levels = 1 + depth * (opener.count("[") + opener.count("{"))  # at least this deep
    if len(line) > MAX_LINE_BYTES or levels > MAX_DEPTH:
        assert reply["error"]["rule"] == "protocol"


@FUZZ
@given(st.integers(min_value=1, max_value=10_000), st.sampled_from(["", "-"]),
       st.sampled_from(["card", "row", "choice", "plays"]))
def test_long_numbers(referee: Referee, digits: int, sign: str, where: str) -> None:
    number = sign + "9" * digits
    line = {
        "card": f'{{"rows": [[3], [24], [58], [96]], "plays": [["a", {number}]]}}',
        "row": f'{{"rows": [[{number}], [24], [58], [96]], "plays": [["a", 5]]}}',
        "choice": f'{{"rows": [[3], [24], [58], [96]], "plays": [["a", 2]], '
                  f'"choices": {{"a": {number}}}}}',
        "plays": f'{{"rows": [[3], [24], [58], [96]], "plays": {number}}}',
    }[where].encode()
    reply = referee.ask(line)
    assert reply == json.loads(answer_line(line))
    assert "error" in reply or (where == "card" and sign == "" and int(number) <= 104)
