"""Fuzzing the log reader and the validator with hostile input.

Arbitrary JSON values, arbitrary bytes, deep nesting, odd numbers and corrupted logs go into
the whole-document API (:func:`take5rules.logs.format.loads`,
:func:`take5rules.logs.validator.validate`),
the streamed reader (:func:`take5rules.logs.validator.validate_stream`) and a few runs of
``take5rules validate``. Every answer must be a report or a :class:`LogError`, never another
exception; nothing that is not a take5-log is accepted; the command exits 0, 1 or 2 without a
traceback.

The examples per test are few enough for CI; set ``TAKE5_FUZZ_EXAMPLES`` (e.g. 5000) for a
longer run.
"""

from __future__ import annotations

import copy
import io
import json
import os
import random
import re
import subprocess
import sys
from pathlib import Path
from typing import Any
from unittest import mock

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from jsonschema import Draft202012Validator, validators

from take5rules.conformance.vectors import game_log
from take5rules.errors import LogError
from take5rules.logs.format import dumps, loads, schema
from take5rules.logs.reader import LogStream
from take5rules.logs.report import Report
from take5rules.logs.round_check import Checker
from take5rules.logs.validator import validate, validate_stream
from take5rules.variants import PLAYER_RANGE, Variant

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
@given(data=st.data(), variant=st.sampled_from(list(Variant)), number=NUMBERS)
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


# The fast path pinned to the full replay on logs mutated at random in every field.

#: A valid log of every variant: (variant, player count, threshold, seed, claims, cut).
GAMES = st.sampled_from(list(Variant)).flatmap(lambda variant: st.tuples(
    st.just(variant), st.integers(*PLAYER_RANGE[variant]), st.sampled_from([66, 30, 12]),
    st.integers(0, 2**16), st.booleans(), st.sampled_from([None, 1, 2, 3])))

_NAMES = ("ana", "bob", "cyd", "dan", "eve", "fay", "gus", "hal", "ivy", "jon")
_KINDS = ("cautious", "lowest", "random")


def _game(variant: Variant, count: int, threshold: int, seed: int, claims: bool,
          cut: int | None) -> dict[str, Any]:
    players = tuple((name, _KINDS[(seed + index) % 3]) for index, name in
                    enumerate(_NAMES[:count]))
    log = game_log(players, variant, threshold, seed, claims=claims)
    if cut is not None and len(log["rounds"]) > cut:  # a game in progress: fewer rounds
        del log["rounds"][cut:]
        log.pop("winners", None)
        log.pop("totals", None)
    return log


#: The members of a log, of a round and of a turn.
_FIELDS = frozenset({"variant", "threshold", "players", "rounds", "totals", "winners", "rows",
                     "hands", "draft", "turns", "plays", "takes", "rows_after", "taken",
                     "penalties"})


def _places(value: object, path: tuple[object, ...] = ()) -> list[tuple[object, ...]]:
    """The path of every value inside *value* (header members, rounds, rows, cards, names...)."""
    places: list[tuple[object, ...]] = [path] if path else []
    if isinstance(value, dict):
        for key, item in value.items():
            places.extend(_places(item, (*path, key)))
    elif isinstance(value, list):
        for index, item in enumerate(value):
            places.extend(_places(item, (*path, index)))
    return places


def _ints(value: object) -> list[int]:
    if isinstance(value, dict):
        return [n for item in value.values() for n in _ints(item)]
    if isinstance(value, list):
        return [n for item in value for n in _ints(item)]
    return [value] if type(value) is int else []


def mutate(log: dict[str, Any], rng: random.Random) -> str:
    """Change one field of *log* at random, in place; say what was done.

    Every kind of field is as likely: one of the member names the log holds is drawn first
    (variant, threshold, players, totals, winners, rows, hands, draft, turns, plays, takes,
    rows_after, taken, penalties), then the member itself or a value inside it.
    """
    places = _places(log)
    fields = sorted({str(step) for place in places for step in place if isinstance(step, str)
                     and step in _FIELDS})
    field = rng.choice(fields)
    chosen = [place for place in places if field in place]
    tops = [place for place in chosen if place[-1] == field]
    path = rng.choice(tops if rng.random() < 0.5 else chosen)
    parent: Any = log
    for step in path[:-1]:
        parent = parent[step]
    key = path[-1]
    value = parent[key]
    names = [name for name in log["players"] if isinstance(name, str)] or ["ana"]
    if type(value) is int:
        pool = _ints(log)
        parent[key] = rng.choice([value + 1, value - 1, rng.randint(-2, 110), rng.choice(pool),
                                  0, 104, 4])
    elif isinstance(value, str):
        parent[key] = rng.choice([*names, value + "x", "", "zed"])
    elif isinstance(value, list):
        how = rng.choice(["delete", "duplicate", "swap", "append", "reverse", "clear"])
        if value and how == "delete":
            del value[rng.randrange(len(value))]
        elif value and how == "duplicate":
            value.insert(rng.randrange(len(value) + 1), copy.deepcopy(rng.choice(value)))
        elif len(value) > 1 and how == "swap":
            i, j = rng.sample(range(len(value)), 2)
            value[i], value[j] = value[j], value[i]
        elif how == "append":
            value.append(copy.deepcopy(rng.choice(value)) if value else rng.randint(1, 104))
        elif how == "reverse":
            value.reverse()
        else:
            value.clear()
        path = (*path, how)
    elif isinstance(value, dict):
        how = rng.choice(["delete", "rename", "add"])
        keys = [name for name, item in value.items() if item != []] or list(value)
        if keys and how == "delete":
            del value[rng.choice(keys)]
        elif keys and how == "rename":
            old = rng.choice(keys)
            value[rng.choice([*names, "zed"])] = value.pop(old)
        elif keys:
            value[rng.choice([*names, "zed"])] = copy.deepcopy(value[rng.choice(keys)])
        path = (*path, how)
    return "/".join(map(str, path))


def full_replay(document: object) -> Report | LogError:
    """What the validator answers with its fast path switched off."""
    with mock.patch.object(Checker, "fast", False):
        return outcome(document)


def verdict(answer: Report | LogError) -> tuple[object, ...]:
    if isinstance(answer, LogError):
        return ("log", str(answer))
    return (answer.valid, answer.complete, [v.rule for v in answer.violations],
            [v.path for v in answer.violations], answer.rules,
            dict(answer.totals) if answer.totals is not None else None, answer.winners)


@settings(FUZZ, max_examples=EXAMPLES * 3, derandomize=False, print_blob=True)
@given(game=GAMES, seed=st.integers(0, 2**32 - 1), count=st.integers(1, 3))
def test_the_fast_path_agrees_with_the_full_replay_on_logs_mutated_anywhere(
    game: tuple[Variant, int, int, int, bool, int | None], seed: int, count: int,
) -> None:
    """A log of any variant, any field changed (numbers, names, rows, takes, claims, header):
    the fast path and the full replay give the same verdict and the same violations.

    The examples are new on each run; a failure prints the game and the mutation's seed.
    """
    log = _game(*game)
    rng = random.Random(seed)
    done = [mutate(log, rng) for _ in range(count)]
    fast, full = outcome(log), full_replay(log)
    assert verdict(fast) == verdict(full), (game, seed, done)


def test_the_fast_path_does_not_vouch_for_a_taker_left_out() -> None:
    """The taken cards left out: the fast path must send such a round to the full replay."""
    log = _game(Variant.STANDARD, 3, 66, 5, True, 1)
    turn = next(turn for turn in log["rounds"][0]["turns"] if turn["taken"])
    taker = next(iter(turn["taken"]))
    del turn["taken"][taker]
    fast, full = outcome(log), full_replay(log)
    assert isinstance(fast, Report) and not fast.valid
    assert verdict(fast) == verdict(full)
    assert fast.violations[0].path.endswith(f".taken.{taker}")


def test_the_fast_path_does_not_vouch_for_one_of_two_takers_left_out() -> None:
    """Two players take in one turn and the claim lists only one: the other's cards are missed."""
    log = _game(Variant.STANDARD, 5, 66, 0, True, None)
    turn = next(turn for entry in log["rounds"] for turn in entry["turns"]
                if len(turn["taken"]) >= 2)
    left_out = sorted(turn["taken"])[0]
    del turn["taken"][left_out]
    fast, full = outcome(log), full_replay(log)
    assert isinstance(fast, Report) and not fast.valid
    assert verdict(fast) == verdict(full)
    assert fast.violations[0].path.endswith(f".taken.{left_out}")


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
