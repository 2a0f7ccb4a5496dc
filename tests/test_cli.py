from __future__ import annotations

import json
from pathlib import Path

import pytest
from click.testing import CliRunner

from take5rules.cli.main import main
from take5rules.registry import RULE_ORDER


@pytest.fixture
def runner() -> CliRunner:
    return CliRunner()


def test_play_prints_a_whole_game(runner: CliRunner) -> None:
    result = runner.invoke(main, ["play", "--lang", "en", "--seed", "3"])
    assert result.exit_code == 0, result.output
    assert result.output.startswith("A game begins with ana, bob, cyd, and dan")
    assert "The game is over after" in result.output


@pytest.mark.parametrize("lang", ["fr", "bg", "it", "eo"])
def test_play_narrates_in_each_language(runner: CliRunner, lang: str) -> None:
    english = runner.invoke(main, ["play", "--lang", "en"]).output
    result = runner.invoke(main, ["play", "--lang", lang])
    assert result.exit_code == 0
    assert result.output != english
    assert len(result.output.splitlines()) == len(english.splitlines())


def test_play_json_lines(runner: CliRunner) -> None:
    result = runner.invoke(main, ["play", "--json", "--players", "a=lowest,b=random"])
    kinds = [json.loads(line)["kind"] for line in result.output.splitlines()]
    assert kinds[0] == "game-started"
    assert kinds[-1] == "game-over"


@pytest.mark.parametrize("variant", ["tactics", "logic", "tournament"])
def test_play_variants(runner: CliRunner, variant: str) -> None:
    result = runner.invoke(main, ["play", "--variant", variant, "--lang", "en"])
    assert result.exit_code == 0, result.output


def test_play_rejects_eleven_players_with_one_clear_line(runner: CliRunner) -> None:
    seats = ",".join(f"p{n}=random" for n in range(11))
    result = runner.invoke(main, ["play", "--players", seats, "--lang", "en"])
    assert result.exit_code == 1
    assert "[rule setup.players]" in result.output
    assert "Traceback" not in result.output


def test_play_rejects_seven_players_in_the_logic_draft(runner: CliRunner) -> None:
    seats = ",".join(f"p{n}=lowest" for n in range(7))
    result = runner.invoke(main, ["play", "--players", seats, "--variant", "logic",
                                  "--lang", "fr"])
    assert result.exit_code == 1
    assert "setup.players" in result.output


def test_play_rejects_a_bad_threshold(runner: CliRunner) -> None:
    result = runner.invoke(main, ["play", "--threshold", "0", "--lang", "en"])
    assert result.exit_code == 1
    assert "variants.threshold" in result.output


def test_play_rejects_an_unknown_player_kind(runner: CliRunner) -> None:
    result = runner.invoke(main, ["play", "--players", "a=genius,b=random"])
    assert result.exit_code == 2
    assert "unknown player kind" in result.output


def test_play_names_an_unknown_player_kind_in_the_language_asked(runner: CliRunner) -> None:
    result = runner.invoke(main, ["play", "--players", "a=genius,b=random", "--lang", "fr"])
    assert result.exit_code == 2
    assert "type de joueur inconnu 'genius'\u202f; choisissez parmi random" in result.output


def test_rules_prints_every_rule_in_order(runner: CliRunner) -> None:
    result = runner.invoke(main, ["rules", "--lang", "it"])
    assert result.exit_code == 0
    positions = [result.output.index(f"{rule_id} — ") for rule_id in RULE_ORDER]
    assert positions == sorted(positions)


def test_rules_json(runner: CliRunner) -> None:
    data = json.loads(runner.invoke(main, ["rules", "--json", "--lang", "bg"]).output)
    assert [item["id"] for item in data] == list(RULE_ORDER)
    assert all(item["language"] == "bg" for item in data)


def test_explain_in_bulgarian(runner: CliRunner) -> None:
    result = runner.invoke(main, ["explain", "table.sixth-card", "--lang", "bg"])
    assert result.exit_code == 0
    assert "table.sixth-card" in result.output
    assert "take5rules.table.sixth_card" in result.output


def test_explain_an_unknown_rule_is_one_line(runner: CliRunner) -> None:
    result = runner.invoke(main, ["explain", "no.such", "--lang", "en"])
    assert result.exit_code == 2
    assert "unknown rule id" in result.output
    assert "Traceback" not in result.output


def test_unknown_language_falls_back_to_english_with_a_notice(runner: CliRunner) -> None:
    result = runner.invoke(main, ["explain", "game.end", "--lang", "tlh"])
    assert result.exit_code == 0
    assert "unknown language 'tlh'; using English" in result.output
    assert "End of the game" in result.output


def test_default_language_follows_the_environment(runner: CliRunner) -> None:
    result = runner.invoke(main, ["explain", "game.end"], env={"LC_ALL": "", "LC_MESSAGES": "",
                                                               "LANG": "eo_XX.UTF-8"})
    assert result.exit_code == 0
    assert result.output.startswith("game.end — Fino de la ludo")


def test_ids_lists_the_rule_ids(runner: CliRunner) -> None:
    assert runner.invoke(main, ["ids"]).output.split() == list(RULE_ORDER)


def test_play_refuses_an_unwritable_log_before_playing(runner: CliRunner) -> None:
    result = runner.invoke(main, ["play", "--log", "/no/such/folder/game.json", "--lang", "en"])
    assert result.exit_code == 2
    assert "cannot write /no/such/folder/game.json" in result.output
    assert "Round 1" not in result.output


def test_play_log_round_trips_through_validate(runner: CliRunner, tmp_path: Path) -> None:
    path = tmp_path / "game.json"
    played = runner.invoke(main, ["play", "--log", str(path), "--variant", "logic", "--lang",
                                  "en", "--players", "a=random,b=cautious,c=lowest"])
    assert played.exit_code == 0, played.output
    checked = runner.invoke(main, ["validate", str(path), "--lang", "en"])
    assert checked.exit_code == 0, checked.output
    assert "valid" in checked.output


def test_discrepancies_lists_every_one_with_the_rule_followed(runner: CliRunner) -> None:
    result = runner.invoke(main, ["discrepancies", "--lang", "en"])
    assert result.exit_code == 0
    assert "end-threshold — Does the game end at 66 points or only above 66?" in result.output
    assert ("an Italian web page, machine-translated: a summary of the rules, section "
            "“TERMINARE IL GIOCO” (the source's own heading, machine-translated): more than 66 "
            "points") in result.output
    assert "[rule game.end]" in result.output
    data = json.loads(runner.invoke(main, ["discrepancies", "--json", "--lang", "eo"]).output)
    assert {item["rule"] for item in data} >= {"game.end", "variants.logic", "turn.order"}
