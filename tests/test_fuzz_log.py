"""Fuzzing the log reader and the validator with hostile input.

Arbitrary JSON values, arbitrary bytes, deep nesting, odd numbers and corrupted logs go into
the whole-document API (:func:`take5rules.log.loads`, :func:`take5rules.validate.validate`),
the streamed reader (:func:`take5rules.validate.validate_stream`) and a few runs of
``take5rules validate``. Every answer must be a report or a :class:`LogError`, never another
exception; nothing that is not a take5-log is accepted; the command exits 0, 1 or 2 without a
traceback.

The examples per test are few enough for CI; set ``TAKE5_FUZZ_EXAMPLES`` (e.g. 5000) for a
longer run.
"""

from __future__ import annotations

import io
import json
import os
import re
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from jsonschema import Draft202012Validator, validators

from take5rules._logread import LogStream
from take5rules.errors import LogError
from take5rules.log import dumps, loads, schema
from take5rules.validate import Report, validate, validate_stream
from take5rules.variants import Variant
from take5rules.vectors import game_log

#: Examples per property (a multiple of it for the cheaper ones).
EXAMPLES = int(os.environ.get("TAKE5_FUZZ_EXAMPLES", "100"))
FUZZ = settings(max_examples=EXAMPLES, deadline=None,
                suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large])

_CHECKER = Draft202012Validator.TYPE_CHECKER.redefine(
    "integer", lambda _checker, value: type(value) is int)
STRICT = validators.extend(  # type: ignore[no-untyped-call]
    Draft202012Validator, type_checker=_CHECKER)(schema())

_LOGS: dict[tuple[Variant, bool], dict[str, Any]] = {}


def valid_log(variant: Variant = Variant.STANDARD, claims: bool = True) -> dict[str, Any]:
    key = (variant, claims)
    if key not in _LOGS:
        _LOGS[key] = game_log((("ana", "cautious"), ("bob", "lowest"), ("cyd", "random")),
                              variant, 30, seed=11, claims=claims)
    copied: dict[str, Any] = json.loads(json.dumps(_LOGS[key]))
    return copied


def outcome(document: object) -> Report | LogError:
    """What the whole-document API answers; any other exception fails the test."""
    try:
        return validate(document)
    except LogError as error:
        return error


def streamed(data: bytes, chunk: int = 1 << 16) -> Report | LogError:
    """What the streamed reader answers for *data*."""
    try:
        return validate_stream(LogStream(io.BytesIO(data).read, chunk=chunk))
    except LogError as error:
        return error


def parsed(data: bytes) -> Report | LogError:
    """What loading *data* whole and validating it answers."""
    try:
        document = loads(data)
    except LogError as error:
        return error
    return outcome(document)


def same(one: Report | LogError, other: Report | LogError) -> bool:
    if isinstance(one, LogError) or isinstance(other, LogError):
        return isinstance(one, LogError) and isinstance(other, LogError)
    return (one.to_json(), one.valid) == (other.to_json(), other.valid)


def accepted_only_if_a_log(document: object, answer: Report | LogError) -> None:
    """A document is reported on only if it has the shape of a log; valid only if it is one."""
    if isinstance(answer, Report):
        assert STRICT.is_valid(document)


JSON = st.recursive(
    st.none() | st.booleans() | st.integers() | st.floats() | st.text(max_size=6),
    lambda inner: st.lists(inner, max_size=4) | st.dictionaries(
        st.sampled_from(["format", "version", "variant", "players", "rounds", "rows",
                         "hands", "turns", "plays"]) | st.text(max_size=4), inner, max_size=4),
    max_leaves=12,
)


@FUZZ
@given(value=JSON)
def test_arbitrary_json_values(value: object) -> None:
    answer = outcome(value)
    assert isinstance(answer, LogError)  # no arbitrary value is a take5-log
    assert answer.rule == "log"
    data = json.dumps(value).encode()
    assert isinstance(streamed(data), LogError)


@FUZZ
@given(head=JSON, value=JSON, name=st.sampled_from(["players", "rounds", "totals", "winners",
                                                     "threshold", "variant", "x-any"]))
def test_arbitrary_values_in_a_log(head: object, value: object, name: str) -> None:
    log = valid_log()
    log[name] = value
    if isinstance(head, dict):
        for key, item in head.items():
            log.setdefault(key, item)
    answer = outcome(log)
    accepted_only_if_a_log(log, answer)
    assert same(streamed(dumps(log).encode()), answer)


@settings(FUZZ, max_examples=EXAMPLES * 3)
@given(data=st.binary(max_size=300))
def test_arbitrary_bytes(data: bytes) -> None:
    answer = streamed(data)
    assert isinstance(answer, LogError)
    assert isinstance(parsed(data), LogError)


@FUZZ
@given(depth=st.integers(1, 200_000), opener=st.sampled_from(["[", '{"a":', '{"format":'
                                                                   '"take5-log","rounds":[']),
       closed=st.booleans())
def test_nesting(depth: int, opener: str, closed: bool) -> None:
    closer = {"[": "]", '{"a":': "}"}.get(opener, "]}")
    text = opener * depth + "1" + (closer * depth if closed else "")
    data = text.encode()
    assert isinstance(streamed(data), LogError)
    assert isinstance(parsed(data), LogError)


NUMBERS = (st.integers() | st.floats()
           | st.sampled_from(["1e999", "-0", "0.0", "3e0", "1E2", "NaN", "Infinity",
                              "-Infinity", "9" * 4301, "1" + "0" * 5000]))


def _number_places(node: object, path: tuple[Any, ...] = ()) -> list[tuple[Any, ...]]:
    found: list[tuple[Any, ...]] = []
    if isinstance(node, dict):
        for key, value in node.items():
            found += _number_places(value, (*path, key))
    elif isinstance(node, list):
        for index, value in enumerate(node):
            found += _number_places(value, (*path, index))
    elif type(node) is int:
        found.append(path)
    return found


@FUZZ
@given(data=st.data(), variant=st.sampled_from(list(Variant)[:3]), number=NUMBERS)
def test_numbers_anywhere_a_number_goes(data: st.DataObject, variant: Variant,
                                        number: object) -> None:
    log = valid_log(variant)
    path = data.draw(st.sampled_from(_number_places(log)))
    text = dumps(log)
    node: Any = log
    for step in path[:-1]:
        node = node[step]
    marker = "\"@@number@@\""
    node[path[-1]] = "@@number@@"
    literal = number if isinstance(number, str) else json.dumps(number)
    raw = dumps(log).replace(marker, literal).encode()
    answer = streamed(raw)
    assert same(parsed(raw), answer)
    if not re.fullmatch(r"-?(0|[1-9][0-9]{0,4000})", literal):  # not an integer literal
        assert isinstance(answer, LogError), (path, literal)
    assert text  # the log itself was valid
    assert outcome(valid_log(variant)).valid  # type: ignore[union-attr]


@FUZZ
@given(data=st.data(), claims=st.booleans(), chunk=st.sampled_from([3, 64, 1 << 16]))
def test_corrupted_logs(data: st.DataObject, claims: bool, chunk: int) -> None:
    raw = bytearray(dumps(valid_log(Variant.STANDARD, claims)).encode())
    for _ in range(data.draw(st.integers(1, 4))):
        at = data.draw(st.integers(0, len(raw) - 1))
        how = data.draw(st.sampled_from(["flip", "insert", "delete", "digit"]))
        if how == "flip":
            raw[at] = data.draw(st.integers(0, 255))
        elif how == "insert":
            raw[at:at] = data.draw(st.binary(min_size=1, max_size=4))
        elif how == "delete":
            del raw[at: at + data.draw(st.integers(1, 8))]
        else:
            raw[at:at] = data.draw(st.sampled_from([b".0", b"e0", b"9" * 10, b"-", b"true"]))
    answer = streamed(bytes(raw), chunk)
    whole = parsed(bytes(raw))
    if isinstance(answer, Report):
        assert same(whole, answer)
        accepted_only_if_a_log(loads(bytes(raw)), answer)
    if isinstance(whole, LogError):
        assert isinstance(answer, LogError)


# The command line: a few subprocess runs.


HOSTILE_FILES: list[bytes] = [
    b"[" * 100_000,
    b'{"format": "take5-log", "version": 1, "variant": "standard", "players": ["\\ud800", '
    b'"bob"], "rounds": []}',
    b'{"format": "take5-log", "version": 1, "threshold": ' + b"9" * 5000 + b"}",
    b'{"format": "take5-log", "version": 1, "variant": "standard", "players": ["\xed\xa0\x80"]}',
    b"\xff\xfe{}",
    b"",
    dumps(valid_log()).replace('"version": 1', '"version": 1.0').encode(),
    dumps(valid_log(Variant.LOGIC)).replace("[[", "[[1.0, ").encode(),
]


@pytest.mark.parametrize("index", range(len(HOSTILE_FILES)))
def test_the_command_exits_0_1_or_2_without_a_traceback(tmp_path: Path, index: int) -> None:
    path = tmp_path / "hostile.json"
    path.write_bytes(HOSTILE_FILES[index])
    for args in ([str(path)], ["--json", str(path)]):
        result = subprocess.run(
            [sys.executable, "-m", "take5rules", "validate", "--lang", "fr", *args],
            capture_output=True, timeout=60, check=False,
        )
        assert result.returncode == 2, result.stderr
        assert b"Traceback" not in result.stderr + result.stdout
        if args[0] == "--json":
            assert json.loads(result.stdout)["files"][0]["status"] == "error"
        else:
            assert result.stderr.count(b"\n") == 1


@settings(FUZZ, max_examples=min(EXAMPLES, 10))
@given(data=st.binary(max_size=200) | JSON.map(lambda value: json.dumps(value).encode()))
def test_the_command_on_random_input(data: bytes) -> None:
    result = subprocess.run(
        [sys.executable, "-m", "take5rules", "validate", "-"],
        input=data, capture_output=True, timeout=60, check=False,
    )
    assert result.returncode == 2
    assert b"Traceback" not in result.stderr
