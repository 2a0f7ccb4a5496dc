"""A seat's view of a log: what one player saw, and nothing of the other hands before it is played.

The expectations are stated from the original log and the rulebook, never from the code under
test: the other seats' hands are read from the full log, a card of theirs counts as revealed
only once the draft (face up) or a turn's plays show it, and every card-holding member of the
view is walked by the test's own reading of the format.
"""

from __future__ import annotations

import copy
import json
import subprocess
import sys
from collections.abc import Iterator, Mapping
from pathlib import Path
from typing import Any

import jsonschema
import pytest
from click.testing import CliRunner

from _deadline import within
from take5rules import CautiousPlayer, LowestCardPlayer, RandomPlayer, Rules, Variant, play_game
from take5rules.cli.main import main
from take5rules.errors import LogError, MalformedInputError
from take5rules.events import Event, RoundScored, RoundStarted
from take5rules.logs.format import schema
from take5rules.logs.seat_view import (
    check_view,
    is_seat_view,
    seat_view,
    stand_in_log,
    view_schema,
)
from take5rules.logs.validator import validate, validate_file
from take5rules.logs.writer import log_from_events
from take5rules.playing.players import Player
from take5rules.playing.retelling import log_events, log_html, narrate_seen, seat_events

#: Seats allowed by the rulebook: 2 to 10, 2 to 6 in the logic variant, 2 to 5 in a tournament.
SEATS = {Variant.STANDARD: range(2, 11), Variant.TACTICS: range(2, 11),
         Variant.LOGIC: range(2, 7), Variant.TOURNAMENT: range(2, 6)}
NAMES = ("ana", "bob", "cyd", "dan", "eve", "fay", "gus", "hal", "ivy", "jon")
#: The round members that hold cards, and those that hold other numbers (scores, row indices).
ROUND_CARDS = {"rows", "hands", "draft", "turns"}
ROUND_OTHER = {"penalties"}
TURN_CARDS = {"plays", "rows_after", "taken"}
TURN_OTHER = {"takes"}
TOP_OTHER = {"format", "version", "seat", "variant", "threshold", "players", "totals", "winners"}


def _log(variant: Variant, seats: int, seed: int = 1, threshold: int = 66) -> dict[str, Any]:
    players: dict[str, Player] = {}
    for index, name in enumerate(NAMES[:seats]):
        kinds = (CautiousPlayer(), LowestCardPlayer(), RandomPlayer(seed + index))
        players[name] = kinds[index % 3]
    return log_from_events(play_game(players, Rules(variant, threshold), seed))


def _in_progress(log: Mapping[str, Any], turns: int) -> dict[str, Any]:
    """*log* cut after *turns* turns of its last round (its claims of the end left out)."""
    cut = copy.deepcopy(dict(log))
    cut.pop("totals", None)
    cut.pop("winners", None)
    last = cut["rounds"][-1]
    last["turns"] = last["turns"][:turns]
    last.pop("penalties", None)
    return cut


def _cards_by_turn(round_: Mapping[str, Any]) -> Iterator[tuple[int, int]]:
    """(turn index, card) for every card the round shows; -1 before the first turn.

    Walks the format as the test reads it, and fails on a member it does not know, so that a
    member added to the view later is looked at too.
    """
    for name, value in round_.items():
        assert name in ROUND_CARDS | ROUND_OTHER, name
        if name in ("rows",):
            yield from ((-1, card) for row in value for card in row)
        elif name == "hands":
            yield from ((-1, card) for hand in value.values() for card in hand)
        elif name == "draft":
            yield from ((-1, card) for _player, card in value)
    for index, turn in enumerate(round_["turns"]):
        for name, value in turn.items():
            assert name in TURN_CARDS | TURN_OTHER, name
            if name == "plays":
                yield from ((index, card) for card in value.values())
            elif name == "rows_after":
                yield from ((index, card) for row in value for card in row)
            elif name == "taken":
                yield from ((index, card) for cards in value.values() for card in cards)


def _assert_nothing_leaks(log: Mapping[str, Any], view: Mapping[str, Any], seat: str) -> None:
    """No card of another hand shows in *view* before the draft or a play reveals it."""
    assert set(view) <= TOP_OTHER | {"rounds"}
    assert view["seat"] == seat
    assert len(view["rounds"]) == len(log["rounds"])
    for original, seen in zip(log["rounds"], view["rounds"], strict=True):
        assert seen["hands"] == {seat: original["hands"][seat]}
        others = {card for player, hand in original["hands"].items() if player != seat
                  for card in hand}
        public = {card for _player, card in original.get("draft", ())}
        played_by = [set(turn["plays"].values()) for turn in original["turns"]]
        for turn, card in _cards_by_turn(seen):
            if card in others and card not in public:
                assert turn >= 0, (card, "shown before the first turn")
                assert any(card in played for played in played_by[:turn + 1]), (
                    card, "shown at turn", turn + 1, "before it is played")


def _variant_cases() -> Iterator[Any]:
    for variant, counts in SEATS.items():
        for count in counts:
            fast = count == 3
            marks = () if fast else (pytest.mark.slow,)
            yield pytest.param(variant, count, marks=marks, id=f"{variant.value}-{count}")


@pytest.mark.parametrize(("variant", "seats"), list(_variant_cases()))
def test_seat_view_shows_no_other_hand_before_it_is_revealed(variant: Variant,
                                                             seats: int) -> None:
    log = _log(variant, seats)
    cut = _in_progress(log, 4)
    for document in (log, cut):
        before = json.dumps(document)
        for seat in document["players"]:
            view = seat_view(document, seat)
            _assert_nothing_leaks(document, view, seat)
            # The view keeps every public member as the log says it.
            for original, seen in zip(document["rounds"], view["rounds"], strict=True):
                assert {k: v for k, v in seen.items() if k != "hands"} == {
                    k: v for k, v in original.items() if k != "hands"}
            for name in ("variant", "players", "threshold", "totals", "winners"):
                assert view.get(name) == document.get(name)
        assert json.dumps(document) == before  # the log is not changed


@pytest.mark.parametrize(("variant", "seats"), list(_variant_cases()))
def test_seat_events_are_the_game_but_the_other_hands(variant: Variant, seats: int) -> None:
    log = _log(variant, seats, seed=2)
    events = list(log_events(log))
    for seat in log["players"]:
        seen = list(seat_events(log, seat))
        assert len(seen) == len(events)
        for mine, theirs in zip(seen, events, strict=True):
            if isinstance(theirs, RoundStarted):
                assert isinstance(mine, RoundStarted)
                assert dict(mine.hands) == {seat: theirs.hands[seat]}
                assert mine.rows == theirs.rows
            else:
                assert mine == theirs


def test_a_view_in_progress_is_told_up_to_where_it_stops_without_stand_ins() -> None:
    log = _in_progress(_log(Variant.STANDARD, 4, seed=3), 3)
    view = seat_view(log, "bob")
    others = {card for round_ in log["rounds"] for player, hand in round_["hands"].items()
              if player != "bob" for card in hand}
    played = {card for round_ in log["rounds"] for turn in round_["turns"]
              for card in turn["plays"].values()}
    told = list(seat_events(view))
    assert told == list(seat_events(log, "bob"))
    kinds = [type(event).__name__ for event in told]
    assert kinds.count("CardsRevealed") == 10 * (len(log["rounds"]) - 1) + 3
    shown = {card for event in told for name in ("card",) if hasattr(event, name)
             for card in (getattr(event, name),)}
    for event in told:
        if isinstance(event, RoundStarted):
            assert list(event.hands) == ["bob"]
    assert shown & others <= played


def test_a_seat_view_is_a_valid_stand_in_for_its_log() -> None:
    log = _log(Variant.TACTICS, 5, seed=4)
    for seat in log["players"]:
        stand_in = stand_in_log(seat_view(log, seat))
        assert validate(stand_in).valid
        # The seat's own hands are its own; the others' whole rounds are the cards they played.
        for original, rebuilt in zip(log["rounds"], stand_in["rounds"], strict=True):
            assert rebuilt["hands"][seat] == original["hands"][seat]
            for player, hand in original["hands"].items():
                assert sorted(rebuilt["hands"][player]) == sorted(hand)


def test_the_tactics_stand_ins_are_the_unseen_cards_of_the_reduced_deck() -> None:
    # Three players: the cards 1 to 34 (10 x 3 + 4); the rows 1-4, ana holds 5-14, so bob
    # and cyd hold 15-34 between them, and 15 and 34 are revealed as theirs.
    view = {"format": "take5-seat-view", "version": 1, "seat": "ana", "variant": "tactics",
            "players": ["ana", "bob", "cyd"],
            "rounds": [{"rows": [[1], [2], [3], [4]],
                        "hands": {"ana": list(range(5, 15))},
                        "turns": [{"plays": {"ana": 14, "bob": 15, "cyd": 34}}]}]}
    hands = stand_in_log(view)["rounds"][0]["hands"]
    assert sorted(hands["bob"] + hands["cyd"]) == list(range(15, 35))
    assert 15 in hands["bob"] and 34 in hands["cyd"]
    assert len(hands["bob"]) == len(hands["cyd"]) == 10
    assert validate(stand_in_log(view)).valid


def test_replay_with_a_threshold_above_66_and_a_tournament_of_five() -> None:
    # The engine takes a round up by the threshold of 66; the log's own rules decide.
    for log in (_log(Variant.STANDARD, 3, seed=5, threshold=150),
                _log(Variant.TOURNAMENT, 5, seed=1)):
        events = list(log_events(log))
        scored = [event for event in events if isinstance(event, RoundScored)]
        assert len(scored) == len(log["rounds"])
        assert max(scored[-1].totals.values()) >= 66
        totals = dict.fromkeys(log["players"], 0)
        for round_, event in zip(log["rounds"], scored, strict=True):
            totals = {player: totals[player] + round_["penalties"][player] for player in totals}
            assert dict(event.totals) == totals
        assert list(seat_events(log, log["players"][-1]))[-1] == events[-1]


# The documents.


def test_a_seat_view_matches_its_schema_and_not_the_logs() -> None:
    log = _log(Variant.LOGIC, 3)
    view = seat_view(log, "cyd")
    jsonschema.Draft202012Validator.check_schema(view_schema())
    jsonschema.validate(view, view_schema())
    assert check_view(view) is view
    with pytest.raises(jsonschema.ValidationError):
        jsonschema.validate(view, schema())
    with pytest.raises(jsonschema.ValidationError):
        jsonschema.validate(log, view_schema())
    two_hands = copy.deepcopy(view)
    two_hands["rounds"][0]["hands"]["ana"] = log["rounds"][0]["hands"]["ana"]
    with pytest.raises(jsonschema.ValidationError):
        jsonschema.validate(two_hands, view_schema())
    with pytest.raises(LogError, match="holds the hand of its seat"):
        check_view(two_hands)


def test_validate_refuses_a_seat_view_saying_what_it_is(tmp_path: Path) -> None:
    view = seat_view(_log(Variant.STANDARD, 2), "ana")
    with pytest.raises(LogError, match="this is a seat view"):
        validate(view)
    path = tmp_path / "ana.json"
    path.write_text(json.dumps(view))
    with pytest.raises(LogError, match="this is a seat view"):
        validate_file(str(path))
    with pytest.raises(LogError, match="this is a seat view"):
        seat_view(view, "ana")  # a view is not cut again
    result = CliRunner().invoke(main, ["validate", str(path), "--lang", "en"])
    assert result.exit_code == 2
    assert "this is a seat view (format 'take5-seat-view')" in result.output
    assert "Traceback" not in result.output


# Hostile inputs.


@pytest.mark.parametrize("document", [None, 3, "take5-log", [], {}, {"format": "take5-log"},
                                      {"format": "take5-log", "version": 2}])
def test_seat_view_of_what_is_not_a_log_is_a_log_error(document: object) -> None:
    with within(10), pytest.raises(LogError):
        seat_view(document, "ana")


def test_seat_view_of_a_log_that_breaks_a_rule_is_refused() -> None:
    log = _log(Variant.STANDARD, 2)
    log["rounds"][0]["turns"][0]["plays"]["ana"] = 105
    with pytest.raises(LogError, match="breaks a rule"):
        seat_view(log, "ana")


@pytest.mark.parametrize("seat", ["cyd", "", "ANA", "ana ", "x" * 10_000, "\ud800"])
def test_an_unknown_seat_is_an_argument_error_listing_the_seats(seat: str) -> None:
    log = _log(Variant.STANDARD, 2)
    with pytest.raises(MalformedInputError) as caught:
        seat_view(log, seat)
    assert caught.value.rule == "argument"
    assert 'its seats are "ana", "bob"' in str(caught.value)
    assert len(str(caught.value)) < 200


@pytest.mark.parametrize("seat", [None, 1, True, ["ana"], {"ana": 1}, b"ana", 1.5])
def test_a_seat_that_is_not_a_name_is_an_argument_error(seat: object) -> None:
    log = _log(Variant.STANDARD, 2)
    with pytest.raises(MalformedInputError) as caught:
        seat_view(log, seat)
    assert caught.value.rule == "argument"
    assert "is not a name" in str(caught.value)


@pytest.mark.parametrize("change", ["format", "version", "seat", "hands", "member", "type"])
def test_check_view_refuses_what_is_not_a_seat_view(change: str) -> None:
    view = seat_view(_log(Variant.STANDARD, 2), "ana")
    if change == "format":
        view["format"] = "take5-log"
    elif change == "version":
        view["version"] = 2
    elif change == "seat":
        view["seat"] = "cyd"
    elif change == "hands":
        view["rounds"][0]["hands"] = {}
    elif change == "member":
        view["rounds"][0]["secret"] = [1]
    else:
        view["rounds"][0]["turns"][0]["plays"]["bob"] = "12"
    with pytest.raises(LogError):
        check_view(view)
    with pytest.raises(LogError):
        list(seat_events(view))


def test_a_tampered_view_breaks_a_rule() -> None:
    log = _log(Variant.STANDARD, 3, seed=6)
    view = seat_view(log, "ana")
    mine = view["rounds"][0]["hands"]["ana"]
    view["rounds"][0]["turns"][1]["plays"]["bob"] = mine[0]  # bob plays a card ana holds
    with pytest.raises(LogError, match="this seat view breaks a rule"):
        list(seat_events(view))
    with pytest.raises(MalformedInputError, match="cannot tell what"):
        list(seat_events(seat_view(log, "ana"), "bob"))


@pytest.mark.parametrize("variant", ["tournament", *(pytest.param(name, marks=pytest.mark.slow)
                                     for name in ("logic", "standard", "profi"))])
def test_a_huge_hostile_view_is_refused_in_bounded_time(variant: str) -> None:
    # 2001 seats (the rulebook allows 2 to 10) and 1000 rounds of 50 picks each: rebuilding
    # every hand of every round for every seat would take minutes; the view is refused at once.
    view = {"format": "take5-seat-view", "version": 1, "seat": "a", "variant": variant,
            "players": ["a"] + [f"p{i}" for i in range(2000)],
            "rounds": [{"rows": [[1], [2], [3], [4]], "hands": {"a": []},
                        "draft": [["a", 1]] * 50, "turns": []} for _ in range(1000)]}
    with within(10), pytest.raises(LogError, match="this seat view breaks a rule"):
        list(seat_events(view))
    view["players"] = ["a", "b", "c"]
    with within(10), pytest.raises(LogError, match="this seat view breaks a rule"):
        list(seat_events(view))


def test_is_seat_view_looks_at_the_format_only() -> None:
    assert is_seat_view({"format": "take5-seat-view"})
    assert not is_seat_view({"format": "take5-log"})
    assert not is_seat_view(["take5-seat-view"])


# Telling it.


def test_narrate_seen_says_the_other_hands_are_hidden() -> None:
    event = RoundStarted(1, ((3,), (24,), (58,), (96,)), {"bob": tuple(range(10, 20))})
    told = narrate_seen(event, "en", ["ana", "bob", "cyd"])
    assert told.splitlines()[1:] == [
        "bob holds 10, 11, 12, 13, 14, 15, 16, 17, 18, and 19.",
        "ana's 10 cards are hidden.",
        "cyd's 10 cards are hidden.",
    ]
    full: Event = RoundStarted(1, ((3,), (24,), (58,), (96,)), {"ana": (1,), "bob": (2,)})
    assert "hidden" not in narrate_seen(full, "en", ["ana", "bob"])


def _hand_lines(text: str) -> list[str]:
    return [line for line in text.splitlines() if " holds " in line]


@pytest.mark.parametrize("variant", [Variant.STANDARD, Variant.LOGIC])
def test_replay_seat_tells_only_the_seats_hand(tmp_path: Path, variant: Variant) -> None:
    log = _log(variant, 3, seed=7)
    path = tmp_path / "game.json"
    path.write_text(json.dumps(log))
    runner = CliRunner()
    full = runner.invoke(main, ["replay", str(path), "--lang", "en"])
    told = runner.invoke(main, ["replay", str(path), "--seat", "bob", "--lang", "en"])
    assert full.exit_code == 0 and told.exit_code == 0, told.output
    assert _hand_lines(told.output) == [line for line in _hand_lines(full.output)
                                        if line.startswith("bob holds ")]
    assert told.output.count("ana's 10 cards are hidden.") == len(log["rounds"])
    assert told.output.count("cyd's 10 cards are hidden.") == len(log["rounds"])
    # Everything else is told as the full replay tells it.
    rest = [line for line in told.output.splitlines() if "hidden" not in line]
    assert rest == [line for line in full.output.splitlines()
                    if not (" holds " in line and not line.startswith("bob holds "))]
    # The view written as a file is read back, and told the same.
    view = tmp_path / "bob.json"
    view.write_text(json.dumps(seat_view(log, "bob")))
    again = runner.invoke(main, ["replay", str(view), "--lang", "en"])
    assert again.exit_code == 0 and again.output == told.output


def test_replay_seat_translates_the_hidden_hands(tmp_path: Path) -> None:
    path = tmp_path / "game.json"
    path.write_text(json.dumps(_log(Variant.STANDARD, 2, seed=8)))
    told = CliRunner().invoke(main, ["replay", str(path), "--seat", "ana", "--lang", "fr"])
    assert told.exit_code == 0
    assert "bob" in told.output and "ana" in told.output


@pytest.mark.parametrize(("args", "message"), [
    (["--seat", "zed"], '"zed" is not a seat of this game; its seats are "ana", "bob"'),
    (["--seat", ""], '"" is not a seat of this game'),
])
def test_replay_and_show_refuse_an_unknown_seat(tmp_path: Path, args: list[str],
                                                message: str) -> None:
    path = tmp_path / "game.json"
    path.write_text(json.dumps(_log(Variant.STANDARD, 2)))
    runner = CliRunner()
    for command in (["replay", str(path)], ["show", str(path), "--out", "-"]):
        result = runner.invoke(main, [*command, *args, "--lang", "en"])
        assert result.exit_code == 2
        assert message in result.output
        assert "Traceback" not in result.output


def test_replay_of_a_view_with_another_seat_is_refused(tmp_path: Path) -> None:
    view = tmp_path / "ana.json"
    view.write_text(json.dumps(seat_view(_log(Variant.STANDARD, 2), "ana")))
    result = CliRunner().invoke(main, ["replay", str(view), "--seat", "bob", "--lang", "en"])
    assert result.exit_code == 2
    assert 'this is what "ana" saw of the game; it cannot tell what "bob" saw' in result.output


def test_show_seat_draws_no_other_hand(tmp_path: Path) -> None:
    log = _log(Variant.STANDARD, 3, seed=9)
    page = log_html(log, "en", "cyd")
    assert "<title>A game of Take 5, as cyd saw it</title>" in page
    assert "ana&#x27;s 10 cards are hidden." in page
    assert "ana holds" not in page and "bob holds" not in page and "cyd holds" in page
    assert page.count("<section ") == sum(len(r["turns"]) for r in log["rounds"])
    path = tmp_path / "game.json"
    path.write_text(json.dumps(log))
    out = tmp_path / "cyd.html"
    result = CliRunner().invoke(main, ["show", str(path), "--seat", "cyd", "--out", str(out),
                                       "--lang", "en"])
    assert result.exit_code == 0, result.output
    assert out.read_text(encoding="utf-8") == page


@pytest.mark.slow
def test_replay_seat_through_the_command(tmp_path: Path) -> None:
    path = tmp_path / "game.json"
    path.write_text(json.dumps(_log(Variant.TACTICS, 4, seed=10)))
    done = subprocess.run([sys.executable, "-m", "take5rules", "replay", str(path), "--seat",
                           "dan", "--no-rows", "--lang", "en"], capture_output=True, text=True,
                          timeout=120, check=False)
    assert done.returncode == 0, done.stderr
    assert "dan holds " in done.stdout and "ana holds " not in done.stdout
    assert "ana's 10 cards are hidden." in done.stdout
    bad = subprocess.run([sys.executable, "-m", "take5rules", "replay", str(path), "--seat",
                          "zed", "--lang", "en"], capture_output=True, text=True, timeout=120,
                         check=False)
    assert bad.returncode == 2
    assert bad.stderr.startswith('"zed" is not a seat of this game')
    assert "Traceback" not in bad.stderr


def _paths(value: object, path: tuple[Any, ...] = ()) -> Iterator[tuple[Any, ...]]:
    yield path
    if isinstance(value, dict):
        for key, item in value.items():
            yield from _paths(item, (*path, key))
    elif isinstance(value, list):
        for index, item in enumerate(value):
            yield from _paths(item, (*path, index))


@pytest.mark.slow
@pytest.mark.parametrize("variant", list(Variant))
def test_a_view_changed_anywhere_is_told_or_refused_with_a_clear_error(variant: Variant) -> None:
    import random

    from take5rules.errors import Take5Error

    view = seat_view(_in_progress(_log(variant, 3, seed=11), 5), "bob")
    paths = [path for path in _paths(view) if path]
    chooser = random.Random(variant.value)
    hostile: tuple[object, ...] = (None, "x", -1, 0, 105, 3.0, True, [], {}, 10**100, [[1]],
                                   {"bob": [1]}, "\ud800")
    for _ in range(150):
        changed = copy.deepcopy(view)
        path = chooser.choice(paths)
        holder: Any = changed
        for step in path[:-1]:
            holder = holder[step]
        holder[path[-1]] = chooser.choice(hostile)
        with within(10):
            try:
                list(seat_events(changed))
                log_html(changed)
            except Take5Error:
                pass
