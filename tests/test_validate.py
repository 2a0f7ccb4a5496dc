"""The validator: every defect a log can have, found with its rule id; and the command line."""

from __future__ import annotations

import copy
import json
from pathlib import Path
from typing import Any

import pytest
from click.testing import CliRunner
from hypothesis import assume, given, settings
from hypothesis import strategies as st

from take5rules.cli import main
from take5rules.defects import DEFECTS
from take5rules.i18n import explain
from take5rules.log import LOGGED_VARIANTS, LogError, LogWriter, write_log
from take5rules.registry import RULE_ORDER
from take5rules.validate import Report, validate
from take5rules.variants import Variant
from take5rules.vectors import game_events, game_log

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
    "unknown-variant": "variants.tactics",
    "tournament": "variants.tournament",
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
    assert EXPECTED[name] in report.rules


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
    log["rounds"][0]["hands"]["ana"][0] = 14.0  # a JSON integer, but not a card
    assert rules_of(validate(log))[0] == "cards.deck"


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
    count = draw(st.integers(2, 6 if variant is Variant.LOGIC else 10))
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
    assert report.complete == (stop >= len(events) - 1)


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
    assert "[rule log]" in result.stderr
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
