"""A person at the table (issue 18, "play against the bots in the terminal"), over a plain pipe."""

from __future__ import annotations

import os
import re
import subprocess
import sys
from pathlib import Path

import pytest

from take5rules.cards import bull_heads
from take5rules.playing.human import EndOfInputError, TextPlayer
from take5rules.playing.players import CardView, DraftView
from take5rules.table import Table
from take5rules.turn import RowChoice

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
