"""A person at the table (issue 18, "play against the bots in the terminal"), over a plain pipe."""

from __future__ import annotations

import io
import os
import re
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest

from take5rules.cards import bull_heads
from take5rules.errors import Take5Error
from take5rules.playing.human import MAX_ANSWER_CHARS, EndOfInputError, TextPlayer, read_answer
from take5rules.playing.players import CardView, DraftView, RowChoice
from take5rules.table import Table

SEATS = "me=human,bob=cautious,cyd=random"


def _play(stdin: str, *args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run([sys.executable, "-m", "take5rules", "play", *args], input=stdin,
                          capture_output=True, text=True, timeout=120, check=False,
                          env={**os.environ, "LC_ALL": "C.UTF-8"})


def _hands(transcript: str, name: str, language: str = "en") -> list[list[int]]:
    """Each hand shown to *name*, in order, as the prompts printed it."""
    prefix = {"en": f"{name}, your hand: ", "fr": f"{name}, votre main\u00a0: "}[language]
    return [[int(card) for card in line[len(prefix):].split()]
            for line in transcript.splitlines() if line.startswith(prefix)]


def _answers_lowest_first() -> str:
    """Every number from 1 to 104, again and again: each question ends on a legal answer."""
    return "\n".join(str(number) for _ in range(40) for number in range(1, 105)) + "\n"


def test_a_whole_game_played_through_a_pipe_in_french() -> None:
    done = _play(_answers_lowest_first(), "--players", SEATS, "--lang", "fr", "--seed", "2")
    assert done.returncode == 0, done.stderr
    out = done.stdout
    hands = _hands(out, "me", "fr")
    assert hands and all(len(hand) <= 10 for hand in hands)
    # the rows with their bull heads, the totals, the question, in French
    assert "rangée 1\u00a0: " in out and "tête" in out
    assert "Totaux\u00a0: me 0, bob 0 et cyd 0" in out
    assert "Votre carte, me\u202f? " in out
    # a wrong answer is refused with the hand, and the question asked again
    assert "la carte 1 n'est pas dans votre main\u202f; jouez-en une parmi" in out
    # what the others played is told after each choice; the game reaches its end
    assert "les cartes révélées sont" in out
    assert out.rstrip().splitlines()[-1].startswith("La partie s'achève")
    # the others' hands are never shown to the person at the table
    assert "bob a en main" not in out and "cyd a en main" not in out


def test_each_card_played_by_the_person_is_the_first_legal_answer() -> None:
    done = _play(_answers_lowest_first(), "--players", SEATS, "--lang", "en", "--seed", "5")
    assert done.returncode == 0, done.stderr
    hands = _hands(done.stdout, "me")
    revealed = re.findall(r"^Turn \d+: the cards are revealed: (.*)\.$", done.stdout, re.M)
    # answering 1, 2, 3... the first card accepted is the lowest of the hand
    mine = [int(m.group(1)) for line in revealed if (m := re.search(r"\bme (\d+)", line))]
    assert len(mine) >= 10
    assert mine == [min(hand) for hand in hands]


def test_a_turn_with_a_row_question_is_told_once() -> None:
    # the person sees the turn's cards before the question; the narration does not repeat them
    done = _play(_answers_lowest_first(), "--players", SEATS, "--lang", "en", "--seed", "5")
    assert done.returncode == 0, done.stderr
    assert "which row do you take" in done.stdout  # this game has a low card of the person's
    revealed = re.findall(r"^Turn (\d+): the cards are revealed", done.stdout, re.M)
    assert len(revealed) == len(_hands(done.stdout, "me"))  # one reveal a turn, one hand a turn


def test_the_row_is_asked_when_the_card_is_low() -> None:
    answers = iter(["x", "0", "5", "2"])
    shown: list[str] = []
    me = TextPlayer("me", "en", lambda: next(answers, None), shown.append)
    table = Table.of([[10], [20, 55], [30], [40]])
    assert me.choose_row(RowChoice("me", 4, table, 1, 3)) == 1  # row 2, index 1
    assert shown[:4] == [f"row {n}: {cards} ({heads})" for n, cards, heads in [
        (1, "10", "3 bull heads"), (2, "20 55", f"{bull_heads(20) + 7} bull heads"),
        (3, "30", "3 bull heads"), (4, "40", "3 bull heads")]]
    question = ("Your 4 is lower than the last card of every row: which row do you take, "
                "me (1 to 4)? ")
    assert shown.count(question) == 4
    assert "'x' is not a row; answer 1 to 4" in shown
    assert "'0' is not a row; answer 1 to 4" in shown
    assert "'5' is not a row; answer 1 to 4" in shown


def test_the_row_question_comes_after_the_turns_cards() -> None:
    # a person asked for a row has seen what everyone played this turn, as at the table
    shown: list[str] = []
    me = TextPlayer("me", "en", lambda: "1", shown.append)
    plays = (("me", 4), ("bob", 33), ("cyd", 61))
    table = Table.of([[10], [20], [30], [40]])
    me.choose_row(RowChoice("me", 4, table, 2, 5, revealed=(((("me", 9),)), plays)))
    assert shown[0].startswith("Turn 5: ") and all(str(card) in shown[0] for _, card in plays)
    assert shown[1] == "row 1: 10 (3 bull heads)"
    done = _play(_answers_lowest_first(), "--players", SEATS, "--lang", "en", "--seed", "11")
    lines = done.stdout.splitlines()
    asked = [number for number, line in enumerate(lines) if "which row do you take" in line
             and "is not a row" not in lines[number - 1]]  # a first asking, not an asking again
    assert asked
    for number in asked:
        before = [line for line in lines[max(0, number - 6):number]
                  if line.startswith("Turn ")]
        assert before and "me " in before[-1]


def test_the_draft_asks_for_a_card_of_the_pool() -> None:
    answers = iter(["200", "7"])
    shown: list[str] = []
    me = TextPlayer("me", "en", lambda: next(answers, None), shown.append)
    assert me.choose_draft(DraftView(1, 1, (3, 7, 9, 11, 12), ())) == 7
    assert "card 200 is not in the pool; take one of 3, 7, 9, 11, and 12" in shown


@pytest.mark.parametrize("answer", ["", "  ", "abc", "-3", "1.5", "٣", "10**2", "99999"])
def test_a_wrong_card_answer_is_refused_and_asked_again(answer: str) -> None:
    answers = iter([answer, "12"])
    shown: list[str] = []
    me = TextPlayer("me", "en", lambda: next(answers, None), shown.append)
    view = CardView(1, 1, Table.of([[3], [24], [58], [96]]), (12, 40), {"me": 0, "bob": 0})
    assert me.choose_card(view) == 12
    assert shown.count("Your card, me? ") == 2
    assert shown[-2] != "Your card, me? "  # something was said between the two questions


def test_end_of_input_is_one_line_and_exit_status_2() -> None:
    done = _play("", "--players", SEATS, "--lang", "en")
    assert done.returncode == 2
    assert done.stderr == ("round 1, turn 1, player 'me': end of input: me had a card or a row "
                           "to choose, so the game stops here [input]\n")
    with pytest.raises(EndOfInputError):
        TextPlayer("me", "en", lambda: None, lambda _: None).choose_card(
            CardView(1, 1, Table.of([[3], [24], [58], [96]]), (12,), {}))


def test_a_human_seat_is_refused_with_json() -> None:
    done = _play("", "--players", SEATS, "--json", "--lang", "en")
    assert done.returncode == 2
    assert "cannot play with --json" in done.stderr
    assert done.stdout == ""


def test_a_human_game_can_be_logged_and_the_log_is_valid(tmp_path: Path) -> None:
    log = tmp_path / "game.json"
    done = _play(_answers_lowest_first(), "--players", SEATS, "--log", str(log), "--lang", "en")
    assert done.returncode == 0, done.stderr
    checked = subprocess.run([sys.executable, "-m", "take5rules", "validate", str(log)],
                             capture_output=True, text=True, check=False, timeout=120)
    assert checked.returncode == 0, checked.stdout


# --- What a person sees this round, and answers of any length (issue 27) ----------------------


def test_the_card_question_shows_what_each_player_took_this_round() -> None:
    # 55 has 7 bull heads, 10 has 3 and 11 has 5 (the rulebook's marks): 15 for bob, whose
    # total stays 0 until the round is scored.
    shown: list[str] = []
    me = TextPlayer("me", "en", lambda: "57", shown.append)
    view = CardView(1, 4, Table.of([[3], [24], [58], [96]]), (2, 57), {"me": 0, "bob": 0},
                    "me", taken={"me": (), "bob": (10, 11, 55)})
    assert me.choose_card(view) == 57
    assert "Totals: me 0 and bob 0" in shown
    assert "Taken this round (bull heads): me 0 and bob 15 (10 11 55)" in shown


def test_a_person_at_the_table_sees_the_cards_taken_before_the_round_ends() -> None:
    done = _play(_answers_lowest_first(), "--players", SEATS, "--lang", "en", "--seed", "5")
    assert done.returncode == 0, done.stderr
    taken = re.findall(r"^Taken this round \(bull heads\): (.*)$", done.stdout, re.M)
    assert len(taken) == len(_hands(done.stdout, "me"))  # one line at each card question
    assert any(re.search(r"\(\d", line) for line in taken)  # somebody's cards, mid-round


class _Pieces:
    """A text stream that records the size each ``readline`` call asks for."""

    def __init__(self, text: str) -> None:
        self._stream = io.StringIO(text)
        self.sizes: list[int] = []

    def readline(self, size: int = -1) -> str:
        self.sizes.append(size)
        return self._stream.readline(size)


def test_an_answer_line_is_read_in_pieces_of_at_most_64_kib() -> None:
    stream = _Pieces("9" * 300_000 + "\n57\n")
    first = read_answer(stream)  # type: ignore[arg-type]
    assert first == "9" * 65_536 + "\n" and MAX_ANSWER_CHARS == 65_536
    assert read_answer(stream) == "57\n"  # type: ignore[arg-type]
    assert read_answer(stream) == ""  # type: ignore[arg-type]
    assert stream.sizes and all(0 < size <= 65_536 for size in stream.sizes)


def test_a_long_wrong_answer_is_told_cut_short() -> None:
    answers = iter(["9" * 65_536, "57"])
    shown: list[str] = []
    me = TextPlayer("me", "en", lambda: next(answers, None), shown.append)
    assert me.choose_card(CardView(1, 1, Table.of([[3], [24], [58], [96]]), (2, 57),
                                   {"me": 0})) == 57
    wrong = [line for line in shown if "is not a number" in line]
    assert len(wrong) == 1 and len(wrong[0]) < 300


@pytest.mark.slow
@pytest.mark.skipif(not Path("/proc/self/status").exists(), reason="reads /proc/self/status")
def test_a_100_mb_answer_line_takes_no_100_mb(tmp_path: Path) -> None:
    # 0.4.0 peaked at 408 MB for this line; read in 64 KiB pieces it takes no more than the
    # interpreter does. The peak is the process's own (VmHWM, reset by exec), not ru_maxrss,
    # which keeps the peak of the forked test process.
    program = ("import re, runpy, sys\n"
               "sys.argv = ['take5rules', 'play', '--players', 'me=human,bob=lowest', "
               "'--lang', 'en']\n"
               "try:\n    runpy.run_module('take5rules', run_name='__main__')\n"
               "except SystemExit:\n    pass\n"
               "status = open('/proc/self/status').read()\n"
               "print(re.search(r'VmHWM:\\s*(\\d+)', status)[1], file=sys.stderr)\n")
    answer = tmp_path / "answer.txt"
    with answer.open("wb") as out:
        for _ in range(100):
            out.write(b"7" * 1_000_000)
        out.write(b"\n")
    with answer.open("rb") as stdin:
        done = subprocess.run([sys.executable, "-c", program], stdin=stdin, capture_output=True,
                              timeout=300, check=False, env={**os.environ, "LC_ALL": "C.UTF-8"})
    peak_kib = int(done.stderr.decode().strip().splitlines()[-1])
    assert b"is not a number" in done.stdout
    assert peak_kib < 100_000, peak_kib


@pytest.mark.parametrize("make", [
    lambda me: me.choose_card(CardView(1, 10, Table.of([[3], [24], [58], [96]]), (),
                                       {"me": 0})),
    lambda me: me.choose_draft(DraftView(1, 1, (), ())),
    lambda me: me.choose_row(RowChoice("me", 1, None, 1, 1)),  # type: ignore[arg-type]
    lambda me: me.choose_row(RowChoice("me", 200, Table.of([[3], [24], [58], [96]]), 1, 1)),
], ids=["empty-hand", "empty-pool", "no-table", "card-200"])
def test_the_person_is_not_asked_what_cannot_be_answered(make: Any) -> None:
    answers = iter(["1", "2"])  # then the end of input (id "input"), never a hang
    me = TextPlayer("me", "en", lambda: next(answers, None), lambda _: None)
    with pytest.raises(Take5Error) as error:
        make(me)
    assert error.value.rule == "argument"
