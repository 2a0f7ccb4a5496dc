"""The validator: every defect a log can have, found with its rule id; and the command line."""

from __future__ import annotations

import copy
import io
import json
import os
import subprocess
import sys
from pathlib import Path
from typing import Any
from unittest import mock

import pytest
from click.testing import CliRunner
from hypothesis import assume, given, settings
from hypothesis import strategies as st

from take5rules.cli.main import main
from take5rules.conformance.defects import DEFECTS
from take5rules.conformance.vectors import game_events, game_log
from take5rules.events import GameOver, RoundScored
from take5rules.logs.format import LOGGED_VARIANTS, LogError, dumps, write_log
from take5rules.logs.reader import MAX_LOG_BYTES, LogStream, read_capped
from take5rules.logs.report import Report
from take5rules.logs.round_check import Checker
from take5rules.logs.validator import validate, validate_files, validate_stream
from take5rules.logs.writer import LogWriter
from take5rules.registry import RULE_ORDER
from take5rules.text import explain
from take5rules.variants import PLAYER_RANGE, Variant

NAMES = ("ana", "bob", "cyd", "dan", "eve", "fay", "gus", "hal", "ivy", "jon")
KINDS = ("random", "lowest", "cautious")
FOUR = (("ana", "cautious"), ("bob", "lowest"), ("cyd", "random"), ("dan", "cautious"))

#: The rule each defect breaks, as the issue lists them (for the logic variant, a bad deal is a
#: hand the draft did not give: variants.logic).
EXPECTED = {
    "card-not-in-hand": "turn.reveal",
    "card-played-twice": "turn.reveal",
    "missing-play": "turn.reveal",
    "missing-take": "table.low-card",
    "needless-take": "table.low-card",
    "take-out-of-range": "table.low-card",
    "rows-after-least-difference": "table.least-difference",
    "rows-after-not-ascending": "table.ascending",
    "rows-after-sixth-card": "table.sixth-card",
    "rows-after-low-card": "table.low-card",
    "rows-after-seat-order": "turn.order",
    "taken-wrong": "table.least-difference",
    "taken-cards-left-out": "table.low-card",
    "wrong-penalties": "round.score",
    "wrong-totals": "game.totals",
    "wrong-winners": "game.winners",
    "winners-unfinished": "game.winners",
    "past-the-end": "game.end",
    "eleven-turns": "round.end",
    "short-round": "round.end",
    "card-out-of-range": "cards.deck",
    "card-dealt-twice": "cards.deck",
    "hand-of-nine": "setup.deal",
    "rows-at-start": "setup.deal",
    "outside-reduced-deck": "variants.tactics",
    "draft-out-of-turn": "variants.logic",
    "draft-card-twice": "variants.logic",
    "draft-missing": "variants.logic",
    "draft-not-logic": "variants.logic",
    "too-few-players": "setup.players",
    "too-many-players": "setup.players",
    "player-named-twice": "setup.players",
    "unknown-variant": "variant-name",
    "tournament-hands-not-passed": "variants.tournament",
    "tournament-draft-again": "variants.tournament",
    "threshold": "variants.threshold",
}


def first(options: Any) -> Any:
    return next(iter(options))


_BASES: dict[Variant, dict[str, Any]] = {}


def base(variant: Variant = Variant.STANDARD) -> dict[str, Any]:
    if variant not in _BASES:
        _BASES[variant] = game_log(FOUR[:3], variant, 30, seed=4)
    return copy.deepcopy(_BASES[variant])


def rules_of(report: Report) -> list[str]:
    return [violation.rule for violation in report.violations]


def test_every_defect_kind_is_listed() -> None:
    assert set(EXPECTED) == set(DEFECTS)


@pytest.mark.parametrize("name", sorted(EXPECTED))
def test_each_defect_is_found_with_its_rule(name: str) -> None:
    variant = Variant.STANDARD
    if name == "outside-reduced-deck":
        variant = Variant.TACTICS
    elif name.startswith("draft-") and name != "draft-not-logic":
        variant = Variant.LOGIC
    elif name.startswith("tournament-"):
        variant = Variant.TOURNAMENT
    log = base(variant)
    assert validate(log).valid
    outcome = DEFECTS[name].apply(log, first)
    assert outcome is not None
    broken, allowed = outcome
    assert log == base(variant), "a defect must not change the log it is given"
    report = validate(broken)
    assert not report.valid and not report.complete
    assert report.violations[0].rule == EXPECTED[name]
    assert EXPECTED[name] in allowed
    assert EXPECTED[name] in report.rules or EXPECTED[name] not in RULE_ORDER


@pytest.mark.parametrize("name", ["card-out-of-range", "card-dealt-twice", "hand-of-nine"])
def test_a_bad_deal_in_the_logic_variant_is_a_hand_the_draft_did_not_give(name: str) -> None:
    outcome = DEFECTS[name].apply(base(Variant.LOGIC), first)
    assert outcome is not None
    assert rules_of(validate(outcome[0]))[0] == "variants.logic"


def test_tactics_requires_every_card_in_play_to_be_dealt() -> None:
    log = base(Variant.TACTICS)
    hand = log["rounds"][0]["hands"]["ana"]
    hand[hand.index(max(hand))] = 105 - 1  # 104 is not in play with three players
    report = validate(log)
    assert rules_of(report) == ["variants.tactics"]
    assert report.violations[0].where.card == 104


def test_a_wrong_player_count_in_the_logic_variant() -> None:
    log = base(Variant.LOGIC)
    log["players"] = [*log["players"], "dan", "eve", "fay", "gus"]
    assert rules_of(validate(log)) == ["setup.players"]


def test_a_card_that_is_not_a_whole_number() -> None:
    log = base()
    log["rounds"][0]["hands"]["ana"][0] = 14.5
    with pytest.raises(LogError):  # the schema wants an integer
        validate(log)
    log["rounds"][0]["hands"]["ana"][0] = 14.0  # equal to 14, but a card is written 14
    with pytest.raises(LogError, match=r"hands\.ana\[0\]: 14\.0 is not a whole number"):
        validate(log)


def test_claims_are_all_checked_after_the_first_violation() -> None:
    log = base()
    log["rounds"][0]["penalties"]["ana"] += 1
    log["rounds"][1]["turns"][2]["taken"]["bob"] = [1]
    log["totals"]["cyd"] += 2
    log["winners"] = ["nobody"]
    report = validate(log)
    assert rules_of(report)[0] == "round.score"
    assert {"round.score", "game.totals", "game.winners"} <= set(rules_of(report))
    assert any(v.path == "$.rounds[1].turns[2].taken.bob" for v in report.violations)


def test_a_round_stops_at_its_first_illegal_play_but_later_rounds_are_checked() -> None:
    log = base()
    turns = log["rounds"][0]["turns"]
    turns[3]["plays"]["ana"] = turns[2]["plays"]["ana"]
    turns[5]["plays"]["bob"] = turns[4]["plays"]["bob"]  # not reached: the state is unknown
    log["rounds"][1]["turns"][1]["takes"]["ana"] = 2
    report = validate(log)
    assert [(v.rule, v.where.round, v.where.turn) for v in report.violations] == [
        ("turn.reveal", 1, 4), ("table.low-card", 2, 2)]
    assert report.totals is None and report.winners is None


def test_odd_names_in_claims_and_takes() -> None:
    log = base()
    turn = log["rounds"][0]["turns"][0]
    turn["takes"]["zed"] = 1
    turn["taken"]["zed"] = [4]
    log["rounds"][0]["penalties"]["zed"] = 0
    log["totals"]["zed"] = 0
    report = validate(log)
    assert rules_of(report) == ["table.low-card", "turn.reveal", "round.score", "game.totals"]
    assert report.violations[0].path == "$.rounds[0].turns[0].takes.zed"


def test_penalties_for_an_unfinished_round() -> None:
    log = base()
    last = log["rounds"][-1]
    del last["turns"][7:]
    del log["winners"], log["totals"]
    report = validate(log)
    assert rules_of(report) == ["round.score"]
    del last["penalties"]
    assert validate(log).valid and validate(log).incomplete


def test_a_violation_says_where_what_and_which_rule_in_each_language() -> None:
    outcome = DEFECTS["card-played-twice"].apply(base(), first)
    assert outcome is not None
    violation = validate(outcome[0]).violations[0]
    assert violation.where.parts().keys() == {"round", "turn", "player", "card"}
    assert violation.path.startswith("$.rounds[0].turns[")
    for language in ("en", "fr", "bg", "it", "eo"):
        assert "turn.reveal" in violation.message(language)
        assert violation.statement(language) == explain("turn.reveal", language).statement
    data = violation.to_json("fr")
    assert data["rule"] == "turn.reveal" and data["path"] == violation.path
    assert data["statement"] == explain("turn.reveal", "fr").statement


def test_report_json() -> None:
    data = validate(base()).to_json()
    assert data["valid"] and data["complete"] and data["violations"] == []
    assert set(data["rules"]) <= set(RULE_ORDER)
    assert data["winners"] == base()["winners"]


def test_not_a_take5_log_raises() -> None:
    with pytest.raises(LogError) as caught:
        validate({"format": "take5-log", "version": 1, "variant": "standard",
                  "players": ["a", "b"], "rounds": [{"rows": []}]})
    assert "$.rounds[0]" in caught.value.message


# Properties.


@st.composite
def games(draw: st.DrawFn) -> tuple[tuple[tuple[str, str], ...], Variant, int, int]:
    variant = draw(st.sampled_from(LOGGED_VARIANTS))
    count = draw(st.integers(*PLAYER_RANGE[variant]))
    kinds = draw(st.lists(st.sampled_from(KINDS), min_size=count, max_size=count))
    threshold = draw(st.sampled_from([66, 30, 12]))
    seed = draw(st.integers(0, 2**16))
    return tuple(zip(NAMES, kinds, strict=False)), variant, threshold, seed


@settings(max_examples=40)
@given(game=games(), claims=st.booleans(), data=st.data())
def test_a_valid_log_is_never_rejected(
    game: tuple[tuple[tuple[str, str], ...], Variant, int, int], claims: bool, data: st.DataObject
) -> None:
    players, variant, threshold, seed = game
    events = game_events(players, variant, threshold, seed)
    stop = data.draw(st.integers(1, len(events)), label="stop")
    writer = LogWriter(claims=claims)
    for event in events[:stop]:
        writer.add(event)
    report = validate(writer.log())
    assert report.valid, [v.message() for v in report.violations]
    # The game is finished once the last turn of the last round is in the log: its scores and
    # its end follow from the rules (round.score, game.end), logged or not.
    after_last_turn = 0
    while isinstance(events[len(events) - 1 - after_last_turn], RoundScored | GameOver):
        after_last_turn += 1
    assert report.complete == (stop >= len(events) - after_last_turn)


@settings(max_examples=80)
@given(game=games(), name=st.sampled_from(sorted(DEFECTS)), data=st.data())
def test_every_mutation_is_detected_with_its_rule(
    game: tuple[tuple[tuple[str, str], ...], Variant, int, int], name: str, data: st.DataObject
) -> None:
    players, variant, threshold, seed = game
    log = game_log(players, variant, threshold, seed)

    def pick(options: Any) -> Any:
        return data.draw(st.sampled_from(list(options)))

    outcome = DEFECTS[name].apply(log, pick)
    assume(outcome is not None)
    assert outcome is not None
    broken, allowed = outcome
    report = validate(broken)
    assert not report.valid
    assert report.violations[0].rule in allowed, (name, report.violations[0].message())


# The command line.


@pytest.fixture
def files(tmp_path: Path) -> dict[str, Path]:
    good = tmp_path / "good.json"
    write_log(base(), good)
    outcome = DEFECTS["wrong-totals"].apply(base(), first)
    assert outcome is not None
    bad = tmp_path / "bad.json"
    write_log(outcome[0], bad)
    junk = tmp_path / "junk.json"
    junk.write_text("[1, 2", encoding="utf-8")
    other = tmp_path / "other.json"
    other.write_text('{"format": "take5-log", "version": 1}', encoding="utf-8")
    return {"good": good, "bad": bad, "junk": junk, "other": other,
            "missing": tmp_path / "missing.json"}


def run(*args: str | Path, stdin: str | None = None) -> Any:
    return CliRunner().invoke(main, ["validate", "--lang", "en", *map(str, args)], input=stdin)


def test_cli_valid_files_exit_0(files: dict[str, Path], monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.delenv("FORCE_COLOR", raising=False)
    monkeypatch.delenv("TTY_COMPATIBLE", raising=False)
    result = run(files["good"], files["good"])
    assert result.exit_code == 0, result.output
    assert result.stdout.count("valid, a finished game") == 2
    assert result.stderr == ""  # no progress bar when not on a terminal


def test_cli_a_rule_violation_exits_1_and_explains_it(files: dict[str, Path]) -> None:
    result = run(files["good"], files["bad"])
    assert result.exit_code == 1
    assert "bad.json: 1 violation" in result.stdout
    assert "[rule game.totals]" in result.stdout
    assert "at $.totals." in result.stdout
    assert explain("game.totals", "en").statement in result.stdout
    assert "Traceback" not in result.output


@pytest.mark.parametrize("name", ["junk", "other", "missing"])
def test_cli_a_file_that_is_not_a_log_exits_2(files: dict[str, Path], name: str) -> None:
    result = run(files["bad"], files[name])
    assert result.exit_code == 2
    assert "[log]" in result.stderr
    assert "Traceback" not in result.output


def test_cli_reads_stdin(files: dict[str, Path]) -> None:
    result = run("-", stdin=files["bad"].read_text(encoding="utf-8"))
    assert result.exit_code == 1
    assert result.stdout.startswith("-: 1 violation")


def test_cli_json_report(files: dict[str, Path]) -> None:
    result = CliRunner().invoke(main, ["validate", "--json", str(files["good"]),
                                       str(files["bad"]), str(files["junk"])])
    assert result.exit_code == 2
    report = json.loads(result.stdout)
    assert report["status"] == 2
    good, bad, junk = report["files"]
    assert (good["status"], good["valid"], good["complete"]) == ("valid", True, True)
    assert bad["status"] == "invalid"
    [violation] = bad["violations"]
    assert violation["rule"] == "game.totals"
    assert violation["path"].startswith("$.totals.")
    assert violation["where"]["player"] in base()["players"]
    assert violation["statement"]
    assert junk["status"] == "error" and junk["error"]["rule"] == "log"


def test_cli_speaks_french(files: dict[str, Path]) -> None:
    result = CliRunner().invoke(main, ["validate", "--lang", "fr", str(files["bad"])])
    assert result.exit_code == 1
    assert explain("game.totals", "fr").statement in result.stdout


def test_cli_progress_bar_on_a_terminal(files: dict[str, Path],
                                        monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("TTY_COMPATIBLE", "1")  # rich's way to say "this is a terminal"
    result = run(*([files["good"]] * 3))
    assert result.exit_code == 0
    assert result.stdout.count("valid, a finished game") == 3
    assert result.stderr != ""


# The fast path and the stream agree with the rule functions.


def _outcome(report: Report) -> tuple[object, ...]:
    return (
        [(v.rule, v.path, str(v.error)) for v in report.violations],
        report.complete, report.rounds, report.rules,
        dict(report.totals) if report.totals is not None else None, report.winners,
    )


def _by_the_rule_functions(log: dict[str, Any]) -> Report:
    """The report with the fast path switched off: every round replayed by play_turn."""
    with mock.patch.object(Checker, "fast", False):
        return validate(log)


def _streamed(log: dict[str, Any], chunk: int = 1 << 16) -> Report:
    return validate_stream(LogStream(io.BytesIO(dumps(log).encode()).read, chunk=chunk))


@settings(max_examples=60, derandomize=False, print_blob=True)  # new examples each run
@given(game=games(), name=st.sampled_from([None, *sorted(DEFECTS)]), data=st.data())
def test_the_fast_path_and_the_stream_report_what_the_rule_functions_report(
    game: tuple[tuple[tuple[str, str], ...], Variant, int, int], name: str | None,
    data: st.DataObject,
) -> None:
    players, variant, threshold, seed = game
    log = game_log(players, variant, threshold, seed)
    if name is not None:
        outcome = DEFECTS[name].apply(log, lambda options: data.draw(st.sampled_from(
            list(options))))
        assume(outcome is not None)
        assert outcome is not None
        log = outcome[0]
    expected = _outcome(_by_the_rule_functions(log))
    assert (name is None) == (expected[0] == [])
    assert _outcome(validate(log)) == expected
    chunk = data.draw(st.sampled_from([1, 7, 250, 1 << 16]), label="chunk")
    assert _outcome(_streamed(log, chunk)) == expected


def test_the_stream_holds_one_round_at_a_time() -> None:
    log = game_log(FOUR, Variant.STANDARD, 600, seed=2)
    assert len(log["rounds"]) > 10
    text = dumps(log)
    ends = []
    for entry in log["rounds"]:
        piece = dumps(entry, 2)
        ends.append(text.index(piece) + len(piece))
    assert text.isascii()
    source = io.BytesIO(text.encode())
    stream = LogStream(source.read, chunk=512)
    assert stream.header()["players"] == [name for name, _ in FOUR]
    for index, entry in enumerate(stream.rounds()):
        assert entry == log["rounds"][index]
        # Handed over once read, with at most one more round and one chunk read ahead.
        ahead = ends[min(index + 1, len(ends) - 1)] + 512
        assert ends[index] <= source.tell() <= ahead
    assert stream.document["totals"] == log["totals"]
    assert source.tell() == len(text)


# Hostile input: nothing invalid accepted, exit 2 with one clear line.


def _numbers(node: object, path: tuple[object, ...] = ()) -> list[tuple[object, ...]]:
    """The paths of every integer in a log (cards, row indices, scores, threshold)."""
    found: list[tuple[object, ...]] = []
    if isinstance(node, dict):
        for key, value in node.items():
            found += _numbers(value, (*path, key))
    elif isinstance(node, list):
        for index, value in enumerate(node):
            found += _numbers(value, (*path, index))
    elif type(node) is int:
        found.append(path)
    return found


def _set(log: dict[str, Any], path: tuple[object, ...], value: object) -> None:
    node: Any = log
    for step in path[:-1]:
        node = node[step]
    node[path[-1]] = value


def _json_path(path: tuple[object, ...]) -> str:
    return "$" + "".join(f"[{step}]" if isinstance(step, int) else f".{step}" for step in path)


@pytest.mark.parametrize("variant", LOGGED_VARIANTS)
def test_floats_and_booleans_are_never_cards_counts_or_scores(variant: Variant) -> None:
    log = base(variant)
    paths = _numbers(log)
    members = {step for path in paths for step in path if isinstance(step, str)}
    assert {"hands", "rows", "plays", "takes", "rows_after", "taken", "penalties", "totals",
            "threshold", "version"} <= members
    if variant is Variant.LOGIC:
        assert "draft" in members
    shapes: dict[tuple[object, ...], int] = {}
    for path in paths:
        shape = tuple("*" if isinstance(step, int) else step for step in path)
        shapes[shape] = shapes.get(shape, 0) + 1
        if shapes[shape] > 3 and path[-1] != 0:
            continue  # three of each kind of place, and every first card of a list
        number: Any = log
        for step in path:
            number = number[step]
        for wrong in (float(number), number == 1):  # 17.0; true for 1, false otherwise
            broken = copy.deepcopy(log)
            _set(broken, path, wrong)
            with pytest.raises(LogError) as caught:
                validate(broken)
            message = caught.value.message
            if path == ("version",):
                assert "version" in message and "is not supported" in message
            else:
                assert f"at {_json_path(path)}: {json.dumps(wrong)} is not a whole number" \
                    in message, message
            with pytest.raises(LogError):
                _streamed(broken)


def test_a_logic_log_with_hands_and_rows_written_as_floats_is_not_valid() -> None:
    log = base(Variant.LOGIC)
    for entry in log["rounds"]:
        entry["hands"] = {p: [float(c) for c in hand] for p, hand in entry["hands"].items()}
        entry["rows"] = [[float(c) for c in row] for row in entry["rows"]]
    with pytest.raises(LogError, match=r"rounds\[0\]\.rows\[0\]\[0\]: \d+\.0 is not a whole"):
        validate(log)
    result = run_text(json.dumps(log))
    assert result.exit_code == 2
    assert "is not a whole number" in result.stderr


def test_claims_written_as_floats_are_not_accepted() -> None:
    for member in ("rows_after", "taken", "penalties", "totals"):
        log = base()
        if member == "rows_after":
            log["rounds"][0]["turns"][0]["rows_after"][0][0] += 0.0
        elif member == "taken":
            turn = next(t for t in log["rounds"][0]["turns"] if t["taken"])
            player = next(iter(turn["taken"]))
            turn["taken"][player][0] += 0.0
        elif member == "penalties":
            log["rounds"][0]["penalties"]["ana"] += 0.0
        else:
            log["totals"]["ana"] += 0.0
        with pytest.raises(LogError, match=f"{member}.*is not a whole number"):
            validate(log)


def test_an_empty_taken_list_means_took_nothing() -> None:
    log = base()
    for entry in log["rounds"]:
        for turn in entry["turns"]:
            for player in log["players"]:
                turn["taken"].setdefault(player, [])
    assert validate(log).valid
    assert _streamed(log).valid
    turn = log["rounds"][0]["turns"][0]
    turn["taken"]["ana"] = [*turn["taken"]["ana"], 104]  # and a card not taken is still caught
    assert not validate(log).valid


def run_text(text: str) -> Any:
    return run("-", stdin=text)


_HEAD = '{"format": "take5-log", "version": 1, "variant": "standard", "threshold": 66, '


@pytest.mark.parametrize(
    ("data", "fragment"),
    [
        (b"[" * 100_000, "nested too deeply"),
        (_HEAD.encode() + b'"players": [' + b"[" * 100_000, "nested too deeply"),
        (_HEAD.encode() + b'"players": ["ana", "bob"], "rounds": [], "x-n": ' + b"7" * 4301
         + b"}", "more than 4300 digits"),
        (_HEAD.encode() + b'"players": ["\\ud800", "bob"], "rounds": []}', "lone surrogate"),
        (_HEAD.encode() + b'"players": ["ana", "bob"], "rounds": [{"rows": [[1]], "hands": '
         b'{"\\udfff": []}, "turns": []}]}', "lone surrogate"),
        (_HEAD.encode() + b'"players": ["\xed\xa0\xbd\xed\xb8\x80", "bob"], "rounds": []}',
         "not valid UTF-8"),
        (_HEAD.encode() + b'"players": ["\xff"], "rounds": []}', "not valid UTF-8"),
        (b"\x00" * 1000, "not JSON"),
        (_HEAD.encode() + b'"players": ["ana", "bob"], "players": [], "rounds": []}',
         "appears twice"),
    ],
)
def test_hostile_bytes_exit_2_with_one_line(tmp_path: Path, data: bytes, fragment: str) -> None:
    path = tmp_path / "hostile.json"
    path.write_bytes(data)
    result = subprocess.run(
        [sys.executable, "-m", "take5rules", "validate", "--lang", "en", str(path)],
        capture_output=True, text=True, errors="replace", timeout=60, check=False,
    )
    assert result.returncode == 2, result.stderr
    assert "Traceback" not in result.stderr
    assert result.stderr.count("\n") == 1 and fragment in result.stderr, result.stderr
    assert result.stdout == ""


def test_closed_stdin_exits_2_with_one_line() -> None:
    result = subprocess.run(
        [sys.executable, "-m", "take5rules", "validate", "--lang", "en", "-"],
        stdin=subprocess.DEVNULL, capture_output=True, text=True, timeout=60, check=False,
        preexec_fn=lambda: os.close(0),
    )
    assert result.returncode == 2, result.stderr
    assert result.stderr.startswith("-: cannot read the file") and \
        result.stderr.count("\n") == 1, result.stderr


def test_an_endless_file_is_read_up_to_the_limit_only() -> None:
    zero = "/dev/zero"
    if not Path(zero).exists():
        pytest.skip("no /dev/zero")
    outcome = next(validate_files([zero]))[1]
    assert isinstance(outcome, LogError)
    spaces = io.BytesIO(b"{" + b" " * 5000)
    with pytest.raises(LogError, match="larger than 4096 bytes"):
        validate_stream(LogStream(spaces.read, 4096, chunk=100))
    with pytest.raises(LogError, match="larger than 4096 bytes"):
        read_capped(io.BytesIO(b" " * 5000).read, 4096)
    assert MAX_LOG_BYTES == 64 * 1024 * 1024


def test_a_needless_take_names_the_row_counted_from_one() -> None:
    log = base()
    turn = log["rounds"][0]["turns"][0]
    player, value = next((p, c) for p, c in turn["plays"].items() if p not in turn["takes"])
    row = next(i for i, cards in enumerate(turn["rows_after"]) if value in cards)
    turn["takes"][player] = 0
    violation = validate(log).violations[0]
    assert violation.rule == "table.low-card"
    assert f"it goes on row {row + 1};" in violation.message()
    assert f"va dans la rangée {row + 1}\u202f;" in violation.message("fr")
