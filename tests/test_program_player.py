"""A player that is a program (``ProgramPlayer``), and the engine's listening hook it relies on.

The hook's tests run in the fast loop (no process); the program's tests start a small Python
bot written here and are marked slow.
"""

from __future__ import annotations

import json
import os
import pickle
import shlex
import sys
import time
from pathlib import Path
from typing import Any

import pytest
from click.testing import CliRunner

from take5rules.cli.main import main
from take5rules.cli.play_cmd import parse_players
from take5rules.errors import MalformedInputError, RulesError
from take5rules.events import CardsRevealed, Event, GameOver, RoundStarted
from take5rules.playing.engine import play_game, play_round, play_silently
from take5rules.playing.players import CardView, CautiousPlayer, LowestCardPlayer, RandomPlayer
from take5rules.playing.program_player import PlayerProgramError, ProgramPlayer
from take5rules.table import Table
from take5rules.variants import Rules, Variant


class Listening(CautiousPlayer):
    """A cautious player that writes down what it is told and when it is asked."""

    def __init__(self) -> None:
        self.told: list[tuple[str, Event]] = []
        self.asked: list[tuple[int, int, int]] = []  # (round, turn, events told by then)

    def see(self, seat: str, event: Event) -> None:
        self.told.append((seat, event))

    def choose_card(self, view: CardView) -> int:
        self.asked.append((view.round, view.turn, len(self.told)))
        return super().choose_card(view)


def _seats(listener: Listening) -> dict[str, Any]:
    return {"ana": CautiousPlayer(), "bob": listener, "cyd": RandomPlayer(3),
            "dee": LowestCardPlayer()}


@pytest.mark.parametrize("variant", [Variant.STANDARD, Variant.LOGIC])
def test_play_game_tells_a_listening_seat_every_event_with_only_its_own_hand(
        variant: Variant) -> None:
    listener = Listening()
    events = list(play_game(_seats(listener), Rules(variant), seed=11))
    assert [seat for seat, _ in listener.told] == ["bob"] * len(events)
    for (_, seen), event in zip(listener.told, events, strict=True):
        if isinstance(event, RoundStarted):
            assert isinstance(seen, RoundStarted)
            assert dict(seen.hands) == {"bob": event.hands["bob"]}
            assert (seen.round, seen.rows) == (event.round, event.rows)
        else:
            assert seen == event
    assert isinstance(listener.told[-1][1], GameOver)


def test_a_listening_seat_has_been_told_everything_before_each_decision() -> None:
    listener = Listening()
    events = list(play_game(_seats(listener), seed=5))
    for round_number, turn, told in listener.asked:
        # every card revealed before this turn of this round, and no card of this turn
        before = [event for _, event in listener.told[:told]]
        reveals = [event.turn for event in before
                   if isinstance(event, CardsRevealed) and event.round == round_number]
        assert reveals == list(range(1, turn))
        assert any(isinstance(event, RoundStarted) and event.round == round_number
                   for event in before)
    assert len(listener.asked) == sum(isinstance(event, CardsRevealed) for event in events)


def test_play_silently_tells_a_listener_and_ends_as_play_game() -> None:
    listener = Listening()
    over = play_silently(_seats(listener), seed=8)
    assert isinstance(listener.told[-1][1], GameOver)
    assert listener.told[-1][1] == over
    assert over == list(play_game(_seats(Listening()), seed=8))[-1]


def test_play_round_tells_a_listener() -> None:
    listener = Listening()
    table = Table.of([[12], [37], [43], [58]])
    hands = {"ana": tuple(range(1, 11)), "bob": tuple(range(60, 70))}
    generator = play_round({"ana": CautiousPlayer(), "bob": listener}, 1, table, hands,
                           {"ana": 0, "bob": 0})
    events = list(generator)
    assert [event for _, event in listener.told][1:] == events[1:]
    first = listener.told[0][1]
    assert isinstance(first, RoundStarted)
    assert dict(first.hands) == {"bob": tuple(range(60, 70))}


def test_a_see_that_is_not_callable_is_no_listener() -> None:
    player = CautiousPlayer()
    seats: dict[str, Any] = {"ana": player, "bob": LowestCardPlayer()}
    odd = type("Odd", (LowestCardPlayer,), {"see": 3})()
    seats["bob"] = odd
    assert play_silently(seats, seed=2) == list(play_game(
        {"ana": CautiousPlayer(), "bob": LowestCardPlayer()}, seed=2))[-1]


# --- A player that is a program -------------------------------------------------------------

#: A small bot, stdlib only: the lowest card, the cheapest row (fewest bull heads, then fewest
#: cards, then the first), the lowest face-up card: LowestCardPlayer's choices, worked out from
#: the cards' printed digits. argv: a log file (each message it gets, and its pid), a mode that
#: makes it break the protocol one way, a marker file (break only while it does not exist).
BOT = r'''
import json, os, sys, time

log, mode, marker = sys.argv[1], sys.argv[2], sys.argv[3]
if os.path.exists(marker):
    mode = "normal"


def heads(card):
    if card == 55:
        return 7
    if card % 11 == 0:
        return 5
    if card % 10 == 0:
        return 3
    if card % 5 == 0:
        return 2
    return 1


def write(obj):
    sys.stdout.write(json.dumps(obj) + "\n")
    sys.stdout.flush()


def broken(message):
    open(marker, "w").close()
    if mode == "die":
        sys.exit(3)
    if mode == "echo":
        return message
    if mode == "slow":
        time.sleep(30)
    if mode == "huge":
        sys.stdout.write("x" * 70_000 + "\n")
        sys.stdout.flush()
        time.sleep(30)
    if mode == "decline":
        return {"type": "error", "message": "no idea", "id": message["id"]}
    if mode == "illegal":
        return {"type": "card", "id": message["id"], "card": 105}
    return None


with open(log, "a", encoding="utf-8") as out:
    out.write(json.dumps({"pid": os.getpid()}) + "\n")
    for line in sys.stdin:
        message = json.loads(line)
        out.write(line)
        out.flush()
        kind = message["type"]
        if kind == "hello":
            if mode == "mute":
                time.sleep(30)
            variants = ["standard"] if mode == "standard-only" else [
                "standard", "tactics", "logic", "tournament"]
            write({"type": "hello", "protocol": 1, "name": "lowest-bot", "author": "tests",
                   "variants": variants})
        elif kind == "round" and mode == "chatty":
            open(marker, "w").close()
            write({"type": "card", "id": 1, "card": message["hand"][0]})
        elif kind == "card":
            if mode == "sleepy":
                time.sleep(0.02)
            reply = broken(message) if mode not in ("normal", "chatty", "sleepy") else None
            write(reply or {"type": "card", "id": message["id"], "card": min(message["hand"])})
        elif kind == "row":
            rows = message["rows"]
            best = min(range(4), key=lambda i: (sum(map(heads, rows[i])), len(rows[i]), i))
            write({"type": "row", "id": message["id"], "row": best})
        elif kind == "draft":
            write({"type": "draft", "id": message["id"], "card": min(message["pool"])})
        elif kind == "quit":
            break
'''


def _bot(tmp_path: Path, mode: str = "normal", **options: Any) -> ProgramPlayer:
    script = tmp_path / "bot.py"
    script.write_text(BOT, encoding="utf-8")
    return ProgramPlayer([sys.executable, str(script), str(tmp_path / "log.jsonl"), mode,
                          str(tmp_path / "broken")], **options)


def _log(tmp_path: Path) -> list[dict[str, Any]]:
    lines = (tmp_path / "log.jsonl").read_text(encoding="utf-8").splitlines()
    return [json.loads(line) for line in lines]


def _pids(tmp_path: Path) -> list[int]:
    return [entry["pid"] for entry in _log(tmp_path) if "pid" in entry]


def _gone(pid: int, within: float = 5.0) -> bool:
    """Whether process *pid* has ended (a zombie counts), waiting *within* seconds at most."""
    deadline = time.monotonic() + within
    while time.monotonic() < deadline:
        try:
            os.kill(pid, 0)
            with open(f"/proc/{pid}/stat", encoding="ascii") as stat:
                if stat.read().rsplit(")", 1)[1].split()[0] == "Z":
                    return True
        except (ProcessLookupError, FileNotFoundError):
            return True
        time.sleep(0.05)
    return False


def _others() -> dict[str, Any]:
    return {"ana": CautiousPlayer(), "cid": RandomPlayer(3)}


@pytest.mark.slow
@pytest.mark.parametrize("variant", list(Variant))
def test_a_program_plays_the_same_games_as_the_player_it_mirrors(
        tmp_path: Path, variant: Variant) -> None:
    rules = Rules(variant)
    with _bot(tmp_path) as bot:
        for seed in (1, 2):
            bot.seed = 100 + seed
            played = list(play_game({"bot": bot, **_others()}, rules, seed))
            expected = list(play_game({"bot": LowestCardPlayer(), **_others()}, rules, seed))
            assert played == expected
        pid = bot.pid
    assert pid is not None
    assert _gone(pid)
    log = _log(tmp_path)
    assert _pids(tmp_path) == [pid]  # one process for both games
    games = [entry for entry in log if entry.get("type") == "game"]
    assert [(g["game"], g["seat"], g["seed"]) for g in games] == [(1, "bot", 101),
                                                                  (2, "bot", 102)]
    assert games[0]["players"] == ["bot", "ana", "cid"]
    assert games[0]["rules"] == {"variant": variant.value, "threshold": 66}
    assert games[0]["clock"] == {"move_ms": 10_000, "game_ms": None}
    kinds = [entry.get("type") for entry in log]
    assert kinds[1] == "hello" and kinds[-1] == "quit"
    assert kinds.count("end") == 2
    rounds = [entry for entry in log if entry.get("type") == "round"]
    assert rounds and all(len(entry["hand"]) == 10 for entry in rounds)
    # every seat's total, from the first round on (not only the program's own seat)
    assert all(sorted(entry["totals"]) == ["ana", "bot", "cid"] for entry in rounds)
    assert rounds[0]["totals"] == {"bot": 0, "ana": 0, "cid": 0}
    if variant in (Variant.LOGIC, Variant.TOURNAMENT):
        assert "draft" in kinds
    # ids count the session's requests from 1
    ids = [entry["id"] for entry in log if entry.get("type") in ("card", "row", "draft")]
    assert ids == list(range(1, len(ids) + 1))


@pytest.mark.slow
def test_play_silently_with_a_program_ends_as_play_game(tmp_path: Path) -> None:
    with _bot(tmp_path) as bot:
        over = play_silently({"bot": bot, **_others()}, seed=4)
    assert over == list(play_game({"bot": LowestCardPlayer(), **_others()}, seed=4))[-1]


@pytest.mark.slow
@pytest.mark.parametrize(("mode", "kind", "words"), [
    ("die", "exited", "status 3"),
    ("echo", "malformed", "unknown field"),
    ("illegal", "illegal", "turn.reveal"),
    ("slow", "time", "300 ms"),
    ("huge", "oversize", "65536"),
    ("decline", "declined", "no idea"),
    ("chatty", "malformed", "nobody asked"),
    ("mute", "start", "hello"),
])
def test_each_violation_stops_the_program_and_names_its_kind(
        tmp_path: Path, mode: str, kind: str, words: str) -> None:
    bot = _bot(tmp_path, mode, move_ms=300, start_ms=500)
    with pytest.raises(PlayerProgramError) as caught:
        play_silently({"bot": bot, **_others()}, seed=6)
    error = caught.value
    assert (error.kind, error.rule) == (kind, "player-protocol")
    if mode == "chatty" and words not in str(error):
        # a line written unasked is told as such when the table sees it before its next
        # request; written just as a request goes out, it is read as that request's reply,
        # which then answers the wrong request: malformed either way (a race the program made)
        words = "message to the"
    assert words in str(error)
    assert "\n" not in str(error)
    assert str(error).endswith(f"[player-protocol {kind}]")
    assert bot.pid is None
    pids = _pids(tmp_path)
    assert len(pids) == 1
    assert _gone(pids[0])
    if mode in ("echo", "illegal", "decline", "chatty"):  # it still reads: it is told
        told = _log(tmp_path)[-2:]
        assert [entry.get("type") for entry in told] == ["error", "quit"]
        assert words in told[0]["message"]
    # a program stopped is started afresh for the seat's next game, which it now plays through
    if mode != "mute":
        assert error.seat == "bot"
        over = play_silently({"bot": bot, **_others()}, seed=6)
        assert over == list(play_game({"bot": LowestCardPlayer(), **_others()}, seed=6))[-1]
        assert len(_pids(tmp_path)) == 2
        bot.close()
        assert _gone(_pids(tmp_path)[1])


@pytest.mark.slow
def test_a_program_that_cannot_start(tmp_path: Path) -> None:
    with pytest.raises(PlayerProgramError) as caught:
        play_silently({"bot": ProgramPlayer([str(tmp_path / "nothing")]), **_others()})
    assert caught.value.kind == "start"


@pytest.mark.slow
def test_a_variant_the_program_does_not_play_is_refused_before_the_game(tmp_path: Path) -> None:
    bot = _bot(tmp_path, "standard-only")
    listener = Listening()
    with pytest.raises(PlayerProgramError) as caught:
        list(play_game({"bot": bot, "ana": listener}, Rules(Variant.LOGIC), seed=1))
    assert caught.value.kind == "start"
    assert "standard only, not the variant logic" in str(caught.value)
    assert not listener.asked
    bot.close()


@pytest.mark.slow
def test_the_game_time_is_the_sum_of_the_moves(tmp_path: Path) -> None:
    # 20 ms a card, well within a move's 1,000 ms; ten of them are over the game's 150 ms
    bot = _bot(tmp_path, "sleepy", move_ms=1_000, game_ms=150)
    with pytest.raises(PlayerProgramError) as caught:
        play_silently({"bot": bot, **_others()}, seed=3)
    assert caught.value.kind == "time"
    assert "150 ms for the game" in str(caught.value)
    assert caught.value.where.round == 1
    cards = [entry for entry in _log(tmp_path) if entry.get("type") == "card"]
    assert 6 <= len(cards) <= 10
    assert cards[0]["clock"] == {"move_ms": 1_000, "game_ms_left": 150}
    assert 0 < cards[-1]["clock"]["game_ms_left"] < 60


def test_program_player_arguments_are_checked() -> None:
    with pytest.raises(MalformedInputError, match="move_ms"):
        ProgramPlayer("bot", move_ms=0)
    with pytest.raises(MalformedInputError, match="game_ms"):
        ProgramPlayer("bot", game_ms=True)
    with pytest.raises(MalformedInputError, match="empty"):
        ProgramPlayer("")
    with pytest.raises(MalformedInputError, match="outside a game"):
        ProgramPlayer("bot").choose_card(CardView(1, 1, Table.of([[1], [2], [3], [4]]), (5,),
                                                  {"me": 0}))


def test_a_player_program_error_is_one_line_and_pickles() -> None:
    error = PlayerProgramError("illegal", "the program answered card 105\nwhich is not",
                               seat="bot", stderr=["boom"])
    assert str(error) == ("player 'bot': the program answered card 105 which is not "
                          "[player-protocol illegal]")
    again = pickle.loads(pickle.dumps(error))
    assert (again.kind, again.seat, again.stderr, str(again)) == (
        "illegal", "bot", ("boom",), str(error))


def _command(tmp_path: Path, mode: str = "normal") -> str:
    bot = _bot(tmp_path, mode)
    return shlex.join(bot.words)


@pytest.mark.slow
def test_play_seats_a_program_with_cmd(tmp_path: Path) -> None:
    players = f"ana=cautious,bot=cmd:{_command(tmp_path)},cyd=random"
    result = CliRunner().invoke(main, ["play", "--players", players, "--seed", "3", "--json",
                                       "--move-ms", "5000", "--game-ms", "60000"])
    assert result.exit_code == 0, result.output
    expected = CliRunner().invoke(main, ["play", "--players", "ana=cautious,bot=lowest,cyd=random",
                                         "--seed", "3", "--json"])
    assert result.output == expected.output
    games = [entry for entry in _log(tmp_path) if entry.get("type") == "game"]
    assert [(g["seat"], g["seed"], g["clock"]) for g in games] == [
        ("bot", 1, {"move_ms": 5000, "game_ms": 60000})]
    assert _log(tmp_path)[-1] == {"type": "quit"}
    assert _gone(_pids(tmp_path)[0])


@pytest.mark.slow
def test_play_says_in_one_line_how_a_program_failed(tmp_path: Path) -> None:
    players = f"ana=cautious,cmd:{_command(tmp_path, 'illegal')}"
    result = CliRunner().invoke(main, ["play", "--players", players, "--seed", "3"])
    assert result.exit_code == 2
    last = result.output.splitlines()[-1]
    assert last.startswith("round 1, turn 1, player '")
    assert last.endswith("the program answered card 105, which is not in its hand "
                         "[rule turn.reveal] [player-protocol illegal]")
    assert _gone(_pids(tmp_path)[0])


def test_play_parses_cmd_seats() -> None:
    assert parse_players("cmd:node bot.js --x=1,b=cmd:./b,cmd:node  bot.js --x=1") == [
        ("node bot.js --x=1", "cmd:node bot.js --x=1"), ("b", "cmd:./b"),
        ("node bot.js --x=1#2", "cmd:node  bot.js --x=1")]
    with pytest.raises(RulesError, match="cmd:COMMAND"):
        parse_players("ana=cmd: ")


@pytest.mark.slow
def test_one_program_player_at_two_seats_of_a_game_is_refused(tmp_path: Path) -> None:
    with _bot(tmp_path) as bot, pytest.raises(MalformedInputError, match="seated twice"):
        play_silently({"bot": bot, "bob": bot}, seed=1)
