"""``take5rules player KIND``: a built-in player served over the take5-player protocol.

Each test starts ``python -m take5rules player KIND`` and speaks the protocol to it through
pipes, one line at a time, as a table in another language would.
"""

from __future__ import annotations

import json
import subprocess
import sys
from collections.abc import Iterator
from typing import IO, Any

import pytest

from take5rules.agents.player_kinds import guided_best
from take5rules.events import CardDrafted, CardsRevealed, GameOver
from take5rules.playing.engine import play_game
from take5rules.playing.players import CardView, DraftView, RandomPlayer, RowChoice
from take5rules.playing.protocol import (
    QUIT,
    card_request,
    draft_request,
    game_message,
    hello_message,
    read_card_reply,
    read_draft_reply,
    read_row_reply,
    row_request,
)
from take5rules.table import Table
from take5rules.variants import Rules, Variant

pytestmark = pytest.mark.slow  # every test starts another Python process

ROWS = [[12], [37], [43], [58]]
ENGLISH = {"LC_ALL": "C.UTF-8", "LANG": "C.UTF-8", "PATH": "/usr/bin:/bin"}


class Program:
    """``take5rules player KIND`` in a child process: a line in, a line out."""

    def __init__(self, *args: str) -> None:
        self.process = subprocess.Popen(
            [sys.executable, "-m", "take5rules", "player", *args], stdin=subprocess.PIPE,
            stdout=subprocess.PIPE, stderr=subprocess.PIPE, env=ENGLISH)

    @property
    def stdin(self) -> IO[bytes]:
        assert self.process.stdin is not None
        return self.process.stdin

    def tell(self, message: dict[str, Any] | bytes) -> None:
        data = message if isinstance(message, bytes) else json.dumps(message).encode() + b"\n"
        self.stdin.write(data)
        self.stdin.flush()

    def ask(self, message: dict[str, Any] | bytes) -> dict[str, Any]:
        self.tell(message)
        assert self.process.stdout is not None
        reply: dict[str, Any] = json.loads(self.process.stdout.readline())
        return reply

    def finish(self) -> tuple[int, bytes, bytes]:
        """Close the program's input, wait for its end: its status, the rest of its output."""
        if not self.stdin.closed:
            self.stdin.close()
        assert self.process.stdout is not None and self.process.stderr is not None
        status = self.process.wait(timeout=30)
        return status, self.process.stdout.read(), self.process.stderr.read()


@pytest.fixture
def cautious() -> Iterator[Program]:
    program = Program("cautious")
    yield program
    if program.process.poll() is None:
        program.process.kill()
        program.process.wait()


def test_a_whole_session_hello_game_round_card_row_draft_quit(cautious: Program) -> None:
    assert cautious.ask(hello_message("tests")) == {
        "type": "hello", "protocol": 1, "name": "take5rules cautious", "author": "take5rules",
        "variants": ["standard", "tactics", "logic", "tournament"]}
    cautious.tell(game_message(1, "ana", ["ana", "bob"], Rules(Variant.LOGIC), 3, None))
    cautious.tell({"type": "round", "round": 1, "rows": ROWS, "hand": [14, 44, 90],
                   "totals": {"ana": 0, "bob": 0}})
    # the draft: the card of fewest bull heads, the lowest of them (4, 8 and 16 have one)
    assert cautious.ask(draft_request(1, DraftView(1, 1, (4, 8, 15, 16), (), "ana"))) == {
        "type": "draft", "id": 1, "card": 4}
    # the card of least risk (a row's length times the gap): 44 after 43, a gap of 1
    view = CardView(1, 1, Table.of(ROWS), (14, 44, 90), {"ana": 0, "bob": 0}, "ana")
    assert cautious.ask(card_request(2, view)) == {"type": "card", "id": 2, "card": 44}
    cautious.tell({"type": "turn", "round": 1, "turn": 1, "plays": [["bob", 40], ["ana", 44]],
                   "rows": [[12], [37, 40], [43, 44], [58]], "taken": {}})
    cautious.tell({"type": "something-new", "of": "a later version"})
    # the cheapest row for a low card: 55 holds 7 bull heads, the rows of one card 1
    choice = RowChoice("ana", 2, Table.of([[55], [37], [43], [58]]), 1, 2, (90,))
    assert cautious.ask(row_request(3, choice)) == {"type": "row", "id": 3, "row": 1}
    cautious.tell({"type": "score", "round": 1, "penalties": {"ana": 0, "bob": 0},
                   "totals": {"ana": 0, "bob": 0}})
    cautious.tell({"type": "end", "totals": {"ana": 0, "bob": 0}, "winners": ["ana", "bob"]})
    cautious.tell(QUIT)
    status, out, err = cautious.finish()
    assert (status, out, err) == (0, b"", b"")


def test_a_bad_line_gets_an_error_and_the_program_goes_on(cautious: Program) -> None:
    cautious.ask(hello_message())
    cautious.tell(game_message(1, "ana", ["ana", "bob"], Rules(), None, None))
    for bad in (b"not json\n", b"\xff\xfe\n", b"[]\n", b"x" * 70_000 + b"\n"):
        reply = cautious.ask(bad)
        assert reply["type"] == "error" and reply["message"], bad[:10]
    view = CardView(1, 1, Table.of(ROWS), (14, 44, 90), {"ana": 0, "bob": 0}, "ana")
    assert cautious.ask(card_request(1, view))["card"] == 44
    cautious.stdin.close()  # the end of input ends it too
    status, _, err = cautious.finish()
    assert status == 0 and b"Traceback" not in err


def test_best_is_seeded_by_the_game_seed_and_else_by_its_own_seed_option() -> None:
    view = CardView(1, 1, Table.of([[12, 13, 14], [37], [43, 50], [58, 60, 61, 62]]),
                    (5, 15, 44, 51, 59, 63, 70, 88, 90, 101), {"ana": 0, "bob": 0, "cyd": 0},
                    "ana")
    program = Program("best", "--seed", "9")
    try:
        program.ask(hello_message())
        answers = []
        for game, seed in ((1, 7), (2, None)):
            program.tell(game_message(game, "ana", ["ana", "bob", "cyd"], Rules(), seed, None))
            answers.append(read_card_reply(program.ask(card_request(game, view)), game,
                                           view.hand))
        program.tell(QUIT)
        assert program.finish()[0] == 0
    finally:
        if program.process.poll() is None:
            program.process.kill()
            program.process.wait()
    # on this view the search's choice depends on its seed (0: 101, 7: 63, 9: 51)
    assert answers == [guided_best(7).choose_card(view), guided_best(9).choose_card(view)]
    assert len({*answers, guided_best(0).choose_card(view)}) == 3


def test_a_game_with_served_random_players_is_the_game_in_process() -> None:
    programs = {name: Program("random") for name in ("ana", "bob")}

    class Seat:
        def __init__(self, program: Program) -> None:
            self.program, self.number = program, 0

        def choose_card(self, view: CardView) -> int:
            self.number += 1
            reply = self.program.ask(card_request(self.number, view))
            return read_card_reply(reply, self.number, view.hand)

        def choose_row(self, choice: RowChoice) -> int:
            self.number += 1
            return read_row_reply(self.program.ask(row_request(self.number, choice)),
                                  self.number)

        def choose_draft(self, view: DraftView) -> int:
            self.number += 1
            reply = self.program.ask(draft_request(self.number, view))
            return read_draft_reply(reply, self.number, view.pool)

    try:
        for index, (name, program) in enumerate(programs.items()):
            program.ask(hello_message())
            program.tell(game_message(1, name, list(programs), Rules(Variant.LOGIC), 50 + index,
                                      None))
        events = list(play_game({name: Seat(program) for name, program in programs.items()},
                                Rules(Variant.LOGIC), seed=2))
        for program in programs.values():
            program.tell(QUIT)
            assert program.finish()[0] == 0
    finally:
        for program in programs.values():
            if program.process.poll() is None:
                program.process.kill()
                program.process.wait()
    assert events == list(play_game({"ana": RandomPlayer(50), "bob": RandomPlayer(51)},
                                    Rules(Variant.LOGIC), seed=2))


class Served:
    """A seat of an in-process game whose every decision a served player program makes."""

    def __init__(self, program: Program) -> None:
        self.program, self.number = program, 0
        self.asked = {"card": 0, "row": 0, "draft": 0}

    def choose_card(self, view: CardView) -> int:
        self.number += 1
        self.asked["card"] += 1
        return read_card_reply(self.program.ask(card_request(self.number, view)), self.number,
                               view.hand)

    def choose_row(self, choice: RowChoice) -> int:
        self.number += 1
        self.asked["row"] += 1
        return read_row_reply(self.program.ask(row_request(self.number, choice)), self.number)

    def choose_draft(self, view: DraftView) -> int:
        self.number += 1
        self.asked["draft"] += 1
        return read_draft_reply(self.program.ask(draft_request(self.number, view)),
                                self.number, view.pool)


def test_player_policy_answers_a_whole_protocol_game() -> None:
    pytest.importorskip("numpy", reason="the policy needs numpy (take5rules[batch])")
    program = Program("policy")
    try:
        assert program.ask(hello_message())["name"] == "take5rules policy"
        seats = ["pol", "ran", "cau"]
        program.tell(game_message(1, "pol", seats, Rules(Variant.LOGIC, 30), 4, None))
        served = Served(program)
        events = list(play_game({"pol": served, "ran": RandomPlayer(1), "cau": RandomPlayer(2)},
                                Rules(Variant.LOGIC, 30), seed=4))
        program.tell(QUIT)
        status, out, err = program.finish()
    finally:
        if program.process.poll() is None:
            program.process.kill()
            program.process.wait()
    assert (status, out, err) == (0, b"", b"")
    assert isinstance(events[-1], GameOver)  # every answer was legal: the engine checks each
    # one card a turn, and in the logic variant one draft pick per card of the hand
    assert served.asked["card"] == sum(isinstance(event, CardsRevealed) for event in events)
    assert served.asked["draft"] == sum(isinstance(event, CardDrafted) and event.player == "pol"
                                        for event in events) > 0


def test_an_unknown_kind_is_one_line_and_status_2() -> None:
    done = subprocess.run([sys.executable, "-m", "take5rules", "player", "clever"],
                          capture_output=True, text=True, timeout=60, check=False, env=ENGLISH)
    assert done.returncode == 2
    assert done.stderr.splitlines() == [
        "unknown player kind 'clever'; choose one of random, lowest, cautious, greedy, "
        "montecarlo, ismcts, best, policy [argument]"]
