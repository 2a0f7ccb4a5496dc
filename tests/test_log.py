"""The take5-log format: the writer, the JSON Schema, reading and writing files, ``play --log``."""

from __future__ import annotations

import io
import json
import os
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest
from click.testing import CliRunner
from hypothesis import given, settings
from hypothesis import strategies as st
from jsonschema import Draft202012Validator, validators

from take5rules.cli.main import main
from take5rules.events import CardsRevealed
from take5rules.logs.format import (
    FORMAT,
    VERSION,
    LogError,
    check_format,
    dumps,
    load,
    loads,
    schema,
    write_log,
)
from take5rules.logs.reader import LogStream
from take5rules.logs.validator import validate, validate_stream
from take5rules.logs.writer import LogWriter, log_from_events
from take5rules.playing.engine import play_game
from take5rules.playing.players import CautiousPlayer, LowestCardPlayer, Player, RandomPlayer
from take5rules.variants import Rules, Variant

SEATS = (("ana", "cautious"), ("bob", "lowest"), ("cyd", "random"))


def _seats(seed: int = 0) -> dict[str, Any]:
    return {"ana": CautiousPlayer(), "bob": LowestCardPlayer(), "cyd": RandomPlayer(seed)}


def _example() -> dict[str, Any]:
    """The issue's example, completed: one turn of a game in progress."""
    return {
        "format": "take5-log", "version": 1, "variant": "standard", "threshold": 66,
        "players": ["ana", "bob", "cyd"],
        "rounds": [{
            "rows": [[12], [37], [43], [58]],
            "hands": {
                "ana": [14, 20, 21, 22, 23, 24, 25, 26, 27, 28],
                "bob": [5, 30, 31, 32, 33, 34, 35, 36, 38, 39],
                "cyd": [61, 70, 71, 72, 73, 74, 75, 76, 77, 78],
            },
            "turns": [{
                "plays": {"ana": 14, "bob": 5, "cyd": 61},
                "takes": {"bob": 0},
                "rows_after": [[5, 14], [37], [43], [58, 61]],
                "taken": {"bob": [12]},
            }],
        }],
        "totals": {"ana": 0, "bob": 0, "cyd": 0},
    }


def test_the_issue_example_is_right_once_its_hands_are_filled_in() -> None:
    # bob's 5 is placed first and takes row 0 (the 12); ana's 14 then goes after the 5.
    report = validate(_example())
    assert report.valid, [v.message() for v in report.violations]
    assert report.incomplete
    seat_order = _example()  # 14 placed first, after the 12; then the 5 takes 12 and 14
    seat_order["rounds"][0]["turns"][0]["rows_after"] = [[5], [37], [43], [58, 61]]
    assert [v.rule for v in validate(seat_order).violations] == ["turn.order"]
    farther = _example()  # 61 after the 43 rather than the closer 58
    farther["rounds"][0]["turns"][0]["rows_after"] = [[5, 14], [37], [43, 61], [58]]
    [violation] = validate(farther).violations
    assert violation.rule == "table.least-difference"
    assert (violation.where.player, violation.where.card) == ("cyd", 61)


@pytest.mark.parametrize("variant", [Variant.STANDARD, Variant.TACTICS, Variant.LOGIC])
def test_a_written_log_round_trips_through_the_validator(variant: Variant) -> None:
    events = list(play_game(_seats(), Rules(variant), seed=11))
    log = log_from_events(events)
    assert (log["format"], log["version"], log["variant"]) == (FORMAT, VERSION, variant.value)
    assert ("draft" in log["rounds"][0]) == (variant is Variant.LOGIC)
    report = validate(loads(dumps(log)))
    assert report.valid, [v.message() for v in report.violations]
    assert report.complete
    assert log["totals"] == dict(events[-1].totals)  # type: ignore[union-attr]
    assert report.winners == events[-1].winners  # type: ignore[union-attr]


def test_a_log_without_claims_holds_only_what_the_rules_cannot_compute() -> None:
    log = log_from_events(play_game(_seats(), seed=2), claims=False)
    assert "totals" not in log and "winners" not in log
    assert all("penalties" not in entry for entry in log["rounds"])
    assert all(set(turn) == {"plays", "takes"} for entry in log["rounds"]
               for turn in entry["turns"])
    report = validate(log)
    assert report.valid and report.complete
    assert report.winners is not None


def test_a_log_taken_mid_turn_keeps_only_whole_turns() -> None:
    events = list(play_game(_seats(), seed=4))
    reveal = [i for i, e in enumerate(events) if isinstance(e, CardsRevealed)][12]
    writer = LogWriter()
    for event in events[: reveal + 2]:  # the reveal of round 2, turn 3, and one placement
        writer.add(event)
    log = writer.log()
    assert len(log["rounds"]) == 2 and len(log["rounds"][1]["turns"]) == 2
    assert "winners" not in log and "penalties" not in log["rounds"][1]
    report = validate(log)
    assert report.valid and report.incomplete


def test_a_tournament_logs_one_round_per_game_the_draft_once_the_hands_passed_on() -> None:
    events = list(play_game(_seats(), Rules(Variant.TOURNAMENT), seed=5))
    log = log_from_events(events)
    assert log["variant"] == "tournament"
    rounds = log["rounds"]
    assert len(rounds) == 3  # three players, three games
    assert ["draft" in entry for entry in rounds] == [True, False, False]
    assert len(rounds[0]["draft"]) == 30  # ten picks for each of three players
    # The rulebook: the sheets move to the left-hand neighbour (the next seat) after each game;
    # ana plays her own hand, then cyd's, then bob's; every game starts from the same rows.
    first = rounds[0]["hands"]
    assert rounds[1]["hands"] == {"ana": first["cyd"], "bob": first["ana"], "cyd": first["bob"]}
    assert rounds[2]["hands"] == {"ana": first["bob"], "bob": first["cyd"], "cyd": first["ana"]}
    assert rounds[1]["rows"] == rounds[2]["rows"] == rounds[0]["rows"]
    assert all(len(entry["turns"]) == 10 for entry in rounds)
    report = validate(log)
    assert report.valid and report.complete, [v.message() for v in report.violations]
    assert log["totals"] == {p: sum(e["penalties"][p] for e in rounds) for p in log["players"]}


def test_a_log_needs_a_game() -> None:
    with pytest.raises(LogError):
        LogWriter().log()


def test_dumps_keeps_cards_on_one_line_and_is_json() -> None:
    log = log_from_events(play_game(_seats(), seed=5))
    text = dumps(log)
    assert json.loads(text) == log
    assert '"plays": {"ana": ' in text
    assert dumps(log) == text


def test_load_and_write(tmp_path: Path) -> None:
    log = log_from_events(play_game(_seats(), seed=6))
    path = tmp_path / "game.json"
    write_log(log, path)
    assert load(path) == log
    with pytest.raises(LogError) as missing:
        load(tmp_path / "nope.json")
    assert missing.value.rule == "log"
    (tmp_path / "bad.json").write_text("{not json", encoding="utf-8")
    with pytest.raises(LogError, match="not JSON"):
        load(tmp_path / "bad.json")
    with pytest.raises(LogError, match="cannot write"):
        write_log(log, tmp_path / "no" / "such" / "dir.json")


def test_load_reads_stdin(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr("sys.stdin", io.TextIOWrapper(io.BytesIO(b'{"format": "take5-log"}')))
    assert load("-") == {"format": "take5-log"}


@pytest.mark.parametrize(
    ("document", "fragment"),
    [
        ([1, 2], "'format' is 'take5-log'"),
        ({"format": "pgn"}, "'format' is 'take5-log'"),
        ({"format": "take5-log", "version": 2}, "version 2 is not supported"),
        ({"format": "take5-log", "version": 1}, "at $: the member 'variant' is required"),
    ],
)
def test_check_format_names_what_is_wrong(document: object, fragment: str) -> None:
    with pytest.raises(LogError) as caught:
        check_format(document)
    assert fragment in caught.value.message


def test_schema_errors_name_the_json_path() -> None:
    log = _example()
    log["rounds"][0]["turns"][0]["plays"]["cyd"] = "61"
    with pytest.raises(LogError,
                       match=r"at \$\.rounds\[0\]\.turns\[0\]\.plays\.cyd: \"61\" is not a whole"):
        check_format(log)
    log = _example()
    log["rounds"][0]["turns"][0]["rows"] = []
    with pytest.raises(LogError,
                       match=r"at \$\.rounds\[0\]\.turns\[0\]: the member 'rows' is not part"):
        check_format(log)
    log = _example()
    log["rounds"][0]["draft"] = [["ana", 3, 4]]
    with pytest.raises(LogError, match=r"at \$\.rounds\[0\]\.draft\[0\]"):
        check_format(log)


def test_extension_members_are_allowed_at_the_top_only() -> None:
    log = {**_example(), "x-expected": {"anything": [1]}}
    assert check_format(log) is log
    log["rounds"][0]["x-note"] = "no"
    with pytest.raises(LogError):
        check_format(log)


def _properties(node: object, path: str = "$") -> list[tuple[str, dict[str, Any]]]:
    found: list[tuple[str, dict[str, Any]]] = []
    if isinstance(node, dict):
        for key in ("properties", "$defs", "patternProperties"):
            for name, sub in node.get(key, {}).items():
                found.append((f"{path}/{key}/{name}", sub))
        for key, value in node.items():
            found.extend(_properties(value, f"{path}/{key}"))
    elif isinstance(node, list):
        for index, value in enumerate(node):
            found.extend(_properties(value, f"{path}/{index}"))
    return found


def test_the_schema_is_draft_2020_12_with_a_description_on_every_property() -> None:
    document = schema()
    Draft202012Validator.check_schema(document)
    assert document["$schema"] == "https://json-schema.org/draft/2020-12/schema"
    properties = _properties(document)
    assert len(properties) > 20
    missing = [path for path, sub in properties if "description" not in sub]
    assert not missing


def test_play_log_writes_a_valid_log(tmp_path: Path) -> None:
    path = tmp_path / "out.json"
    result = CliRunner().invoke(main, ["play", "--lang", "en", "--variant", "logic",
                                       "--players", "ana=cautious,bob=random,cyd=lowest",
                                       "--log", str(path)])
    assert result.exit_code == 0, result.output
    report = validate(load(path))
    assert report.valid and report.complete
    check = CliRunner().invoke(main, ["validate", str(path)])
    assert check.exit_code == 0, check.output


def test_play_logs_a_tournament_that_validates(tmp_path: Path) -> None:
    path = tmp_path / "out.json"
    result = CliRunner().invoke(main, ["play", "--lang", "en", "--variant", "tournament",
                                       "--log", str(path)])
    assert result.exit_code == 0, result.output
    log = load(path)
    assert isinstance(log, dict) and log["variant"] == "tournament"
    assert len(log["rounds"]) == len(log["players"])
    report = validate(log)
    assert report.valid and report.complete
    check = CliRunner().invoke(main, ["validate", str(path)])
    assert check.exit_code == 0, check.output


@settings(max_examples=25)
@given(
    variant=st.sampled_from(list(Variant)),
    seed=st.integers(0, 10_000),
    threshold=st.sampled_from([66, 30, 10]),
)
def test_every_engine_game_logs_as_a_valid_finished_game(
    variant: Variant, seed: int, threshold: int
) -> None:
    events = list(play_game(_seats(seed), Rules(variant, threshold), seed=seed))
    report = validate(log_from_events(events))
    assert report.valid, [v.message() for v in report.violations]
    assert report.complete
    assert dict(report.totals or {}) == dict(events[-1].totals)  # type: ignore[union-attr]


# The hand-written structural check against the JSON Schema.


def _strict_schema() -> Any:
    """The shipped schema under jsonschema, with 'integer' meaning a JSON integer literal.

    JSON Schema's own 'integer' admits 3.0 (and the format says 3.0 is not a card): the one
    point where the format is stricter than its schema can say, as the schema's description
    states.
    """
    checker = Draft202012Validator.TYPE_CHECKER.redefine(
        "integer", lambda _checker, value: type(value) is int
    )
    strict = validators.extend(  # type: ignore[no-untyped-call]
        Draft202012Validator, type_checker=checker)
    return strict(schema())


_STRICT = _strict_schema()
_MEMBERS = ["format", "version", "variant", "threshold", "players", "rounds", "totals",
            "winners", "rows", "hands", "draft", "turns", "penalties", "plays", "takes",
            "rows_after", "taken", "ana", "bob", "x-note"]
_TEXT = st.text(st.characters(blacklist_categories=["Cs"]), max_size=4)
_JSON = st.recursive(
    st.none() | st.booleans() | st.integers(-3, 110) | st.floats(allow_nan=False) | _TEXT,
    lambda inner: st.lists(inner, max_size=3)
    | st.dictionaries(st.sampled_from(_MEMBERS) | _TEXT, inner, max_size=3),
    max_leaves=6,
)


def _places(node: object, path: tuple[Any, ...] = ()) -> list[tuple[Any, ...]]:
    found = [path]
    if isinstance(node, dict):
        for key, value in node.items():
            found += _places(value, (*path, key))
    elif isinstance(node, list):
        for index, value in enumerate(node):
            found += _places(value, (*path, index))
    return found


@st.composite
def _mutated_logs(draw: st.DrawFn) -> object:
    seats = draw(st.sampled_from([SEATS[:2], SEATS]))
    variant = draw(st.sampled_from([Variant.STANDARD, Variant.LOGIC]))
    rules = Rules(variant, draw(st.sampled_from([66, 12])))
    seed = draw(st.integers(0, 50))
    claims = draw(st.booleans())
    kinds: dict[str, Player] = {"cautious": CautiousPlayer(), "lowest": LowestCardPlayer(),
                                "random": RandomPlayer(seed)}
    players = {name: kinds[kind] for name, kind in seats}
    document: object = log_from_events(play_game(players, rules, seed=seed), claims=claims)
    for _ in range(draw(st.integers(0, 3))):
        path = draw(st.sampled_from(_places(document)))
        node: Any = document
        for step in path[:-1]:
            node = node[step]
        current = node[path[-1]] if path else document
        how = draw(st.sampled_from(["replace", "delete", "add", "number", "empty"]))
        if how == "number" and type(current) is int:
            new: object = draw(st.sampled_from([float(current), current == 1, str(current),
                                                 [current], None]))
        elif how == "empty":
            new = draw(st.sampled_from([[], {}, "", 0]))
        elif how == "add" and isinstance(current, dict):
            current[draw(st.sampled_from(_MEMBERS) | _TEXT)] = draw(_JSON)
            continue
        elif how == "add" and isinstance(current, list):
            current.append(draw(_JSON))
            continue
        elif how == "delete" and path and isinstance(node, dict | list):
            del node[path[-1]]
            continue
        else:
            new = draw(_JSON)
        if path:
            node[path[-1]] = new
        else:
            document = new
    return document


@settings(max_examples=int(os.environ.get("TAKE5_FUZZ_EXAMPLES", "150")), deadline=None)
@given(document=_mutated_logs())
def test_the_structural_check_agrees_with_the_json_schema(document: object) -> None:
    try:
        check_format(document)
        fast = True
    except LogError:
        fast = False
    assert fast == _STRICT.is_valid(document), next(iter(_STRICT.iter_errors(document)), None)


def test_the_structural_check_agrees_on_every_integer_made_a_float() -> None:
    log = _example()
    for path in _places(log):
        node: Any = log
        for step in path:
            node = node[step]
        if type(node) is not int:
            continue
        broken = json.loads(json.dumps(log))
        target: Any = broken
        for step in path[:-1]:
            target = target[step]
        target[path[-1]] = float(node)
        assert not _STRICT.is_valid(broken)
        with pytest.raises(LogError):
            check_format(broken)


def test_importing_the_library_does_not_import_jsonschema() -> None:
    code = ("import sys, take5rules.logs, take5rules.logs.validator; "
            "sys.exit('jsonschema' in sys.modules)")
    assert subprocess.run([sys.executable, "-c", code], check=False).returncode == 0
    blocked = ("import sys; sys.modules['jsonschema'] = None; "
               "from take5rules.logs.validator import validate; "
               "from take5rules.conformance.vectors import "
               "game_log; log = game_log((('ana', 'lowest'), ('bob', 'cautious')), seed=1); "
               "assert validate(log).valid; log['threshold'] = 66.0; "
               "from take5rules.errors import LogError\n"
               "try:\n    validate(log)\nexcept LogError as e:\n    print(e)")
    result = subprocess.run([sys.executable, "-c", blocked], capture_output=True, text=True,
                            check=False)
    assert result.returncode == 0, result.stderr
    assert "at $.threshold: 66.0 is not a whole number" in result.stdout


@pytest.mark.parametrize("chunk", [1, 5, 64, 1 << 16])
def test_the_stream_says_where_the_json_breaks_as_json_does(chunk: int) -> None:
    text = dumps(_example())
    for cut in (len(text) // 3, len(text) // 2, len(text) - 2):
        for broken in (text[:cut] + "?" + text[cut:], text[:cut]):
            with pytest.raises(json.JSONDecodeError) as expected:
                json.loads(broken)
            with pytest.raises(LogError) as caught:
                validate_stream(LogStream(io.BytesIO(broken.encode()).read, chunk=chunk))
            where = f"at line {expected.value.lineno} column {expected.value.colno}"
            assert caught.value.message.startswith("not JSON: "), caught.value.message
            assert where in caught.value.message, (caught.value.message, where)
