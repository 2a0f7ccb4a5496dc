"""A saved game told again: ``take5rules replay`` narrates a log, ``take5rules show`` draws it."""

from __future__ import annotations

import json
import re
import xml.etree.ElementTree as ET
from pathlib import Path
from typing import Any

import pytest
from click.testing import CliRunner

from take5rules import CautiousPlayer, LowestCardPlayer, RandomPlayer, Rules, Variant, play_game
from take5rules.cli.main import main
from take5rules.errors import LogError
from take5rules.events import Event
from take5rules.logs.writer import log_from_events
from take5rules.playing.players import Player
from take5rules.playing.retelling import log_events, log_html
from take5rules.table import Table
from take5rules.text.pictures import to_svg


def _game(variant: Variant, seed: int) -> list[Event]:
    seats: dict[str, Player] = {"ana": CautiousPlayer(), "bob": RandomPlayer(seed),
                                "cyd": LowestCardPlayer()}
    return list(play_game(seats, Rules(variant), seed))


@pytest.mark.parametrize("variant", [Variant.STANDARD, Variant.TACTICS, Variant.LOGIC])
@pytest.mark.parametrize("seed", [1, 8])
def test_a_log_replays_to_the_events_of_the_game(variant: Variant, seed: int) -> None:
    events = _game(variant, seed)
    assert list(log_events(log_from_events(events))) == events


@pytest.mark.parametrize("language", ["en", "bg", "fr"])
@pytest.mark.parametrize("rows", ["--rows", "--no-rows"])
def test_replay_tells_what_play_told(tmp_path: Path, language: str, rows: str) -> None:
    runner = CliRunner()
    log = tmp_path / "game.json"
    played = runner.invoke(main, ["play", "--seed", "4", rows, "--log", str(log),
                                  "--lang", language])
    assert played.exit_code == 0, played.output
    replayed = runner.invoke(main, ["replay", str(log), rows, "--lang", language])
    assert replayed.exit_code == 0, replayed.output
    assert replayed.output == played.output


def test_replay_refuses_a_log_that_breaks_a_rule(tmp_path: Path) -> None:
    document = log_from_events(_game(Variant.STANDARD, 2))
    document["rounds"][0]["turns"][0]["rows_after"][0].append(200)
    bad = tmp_path / "bad.json"
    bad.write_text(json.dumps(document))
    result = CliRunner().invoke(main, ["replay", str(bad), "--lang", "en"])
    assert result.exit_code == 2
    assert result.output.startswith("this log breaks a rule (")
    with pytest.raises(LogError):
        list(log_events(document))


@pytest.mark.parametrize("content", ["", "{", "[]", "null", '{"format": "take5-log"}'])
def test_replay_and_show_refuse_what_is_not_a_log(tmp_path: Path, content: str) -> None:
    path = tmp_path / "x.json"
    path.write_text(content)
    for args in (["replay", str(path)], ["show", str(path), "--out", str(tmp_path / "x.html")]):
        result = CliRunner().invoke(main, [*args, "--lang", "en"])
        assert result.exit_code == 2, result.output
        assert "[log]" in result.output
        assert "Traceback" not in result.output
    assert not (tmp_path / "x.html").exists()


def test_show_draws_every_turn_with_the_docs_pictures(tmp_path: Path) -> None:
    events = _game(Variant.STANDARD, 3)
    document = log_from_events(events)
    page = log_html(document, "it")
    turns = sum(len(round_log["turns"]) for round_log in document["rounds"])
    assert page.count("<section ") == turns
    assert page.count("<svg") == sum(len(turn["plays"]) + 1 for round_log in document["rounds"]
                                     for turn in round_log["turns"])
    # the first picture is the first round's table, drawn as take5rules.text.pictures draws it
    first_rows = document["rounds"][0]["rows"]
    order = sorted(document["rounds"][0]["turns"][0]["plays"].values())
    assert to_svg(Table.of(first_rows), caption="▶ " + " · ".join(map(str, order)),
                  pending=order) in page
    assert "Manche 1, turno 1" in page
    html = page.replace("&nbsp;", " ")
    ET.fromstring(re.sub(r"<!DOCTYPE html>\n", "", html))  # well-formed
    out = tmp_path / "game.html"
    result = CliRunner().invoke(main, ["show", "-", "--out", str(out), "--lang", "it"],
                                input=json.dumps(document))
    assert result.exit_code == 0, result.output
    assert out.read_text(encoding="utf-8") == page


def test_show_to_an_unwritable_place_is_one_line(tmp_path: Path) -> None:
    document = log_from_events(_game(Variant.STANDARD, 3))
    path = tmp_path / "game.json"
    path.write_text(json.dumps(document))
    result = CliRunner().invoke(main, ["show", str(path), "--out", "/nonexistent/x.html",
                                       "--lang", "en"])
    assert result.exit_code == 2
    assert result.output == ("cannot write /nonexistent/x.html: no such file or directory "
                             "[log]\n")


VALID = Path(__file__).resolve().parent.parent / "vectors" / "games" / "valid"


def _turn_count(document: dict[str, object]) -> int:
    rounds = document["rounds"]
    assert isinstance(rounds, list)
    return sum(len(round_log["turns"]) for round_log in rounds)


@pytest.mark.parametrize("name", ["in-progress-mid-round", "in-progress-between-rounds",
                                  "not-started", "no-claims"])
def test_replay_and_show_stop_where_the_log_stops(tmp_path: Path, name: str) -> None:
    path = VALID / f"{name}.json"
    document = json.loads(path.read_text(encoding="utf-8"))
    turns = _turn_count(document)
    told = CliRunner().invoke(main, ["replay", str(path), "--lang", "en"])
    assert told.exit_code == 0, told.output
    # one "Turn N:" line per turn the log holds, and the rows after each of them
    assert len(re.findall(r"^Turn \d+: ", told.output, re.MULTILINE)) == turns
    assert len(re.findall(r"^  Rows: ", told.output, re.MULTILINE)) == turns
    out = tmp_path / "game.html"
    shown = CliRunner().invoke(main, ["show", str(path), "--out", str(out), "--lang", "en"])
    assert shown.exit_code == 0, shown.output
    assert out.read_text(encoding="utf-8").count("<section ") == turns


def test_a_mid_round_log_tells_its_last_turn_and_no_more() -> None:
    document = json.loads((VALID / "in-progress-mid-round.json").read_text(encoding="utf-8"))
    last_round = document["rounds"][-1]
    events = list(log_events(document))
    assert events[-1].kind in {"card-placed", "row-taken", "sixth-card-taken",
                               "low-card-taken"}
    last: Any = events[-1]
    assert (last.round, last.turn) == (len(document["rounds"]), len(last_round["turns"]))
    assert [list(row) for row in last.rows] == last_round["turns"][-1]["rows_after"]


def test_a_tournament_ends_with_its_own_line_in_play_and_replay(tmp_path: Path) -> None:
    log = tmp_path / "tournament.json"
    played = CliRunner().invoke(main, ["play", "--variant", "tournament", "--players",
                                       "ana=cautious,bob=lowest,cyd=random", "--log", str(log),
                                       "--lang", "en"])
    assert played.exit_code == 0, played.output
    # a tournament is as many games as players (rule variants.tournament-over): three here
    last = played.output.splitlines()[-1]
    assert last.startswith("The tournament is over after 3 games. "), last
    assert "The game is over" not in played.output
    replayed = CliRunner().invoke(main, ["replay", str(log), "--lang", "en"])
    assert replayed.output.splitlines()[-1] == last


def test_a_standard_game_ends_with_the_games_line() -> None:
    played = CliRunner().invoke(main, ["play", "--seed", "2", "--lang", "en"])
    assert played.exit_code == 0, played.output
    assert played.output.splitlines()[-1].startswith("The game is over after ")


def test_a_round_is_scored_in_bull_heads_as_the_placements_are_told() -> None:
    played = CliRunner().invoke(main, ["play", "--seed", "2", "--lang", "en", "--no-rows"])
    scored = [line for line in played.output.splitlines() if " this round, " in line]
    assert len(scored) >= 4
    assert all(re.fullmatch(r"\w+: (1 bull head|\d+ bull heads) this round, \d+ in all\.", line)
               for line in scored), scored
    assert " point" not in played.output
