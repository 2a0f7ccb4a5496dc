"""Rule ``table.low-card``'s question (``turn.LowCard``) and a player's view of it (``RowChoice``).

The rule hands its chooser the player, the low card, the rows and where, nothing more; a player
in a game is handed a ``RowChoice``, which is that question and what the seat knows besides.
"""

from __future__ import annotations

import copy
import dataclasses
from collections.abc import Mapping

import pytest

import take5rules
from take5rules import turn
from take5rules.cards import Card
from take5rules.errors import IllegalMoveError, Where
from take5rules.playing.engine import play_game
from take5rules.playing.players import CardView, DraftView, LowestCardPlayer, RowChoice
from take5rules.table import Table
from take5rules.turn import LowCard, no_row_choice, resolve_turn

QUESTION = ("player", "card", "table", "round", "turn")
VIEW = ("hand", "totals", "revealed", "taken", "start", "picks")
ROWS = Table.of([[3, 12], [24], [58, 61, 70], [96]])


def test_the_rule_hands_its_chooser_a_low_card_and_nothing_more() -> None:
    asked: list[object] = []

    def choose(low: LowCard) -> int:
        asked.append(low)
        return 3

    result = resolve_turn(ROWS, {"ana": 17, "bob": 2}, choose, Where(round=2, turn=5))
    (low,) = asked
    assert type(low) is LowCard
    assert tuple(field.name for field in dataclasses.fields(LowCard)) == QUESTION
    assert low == LowCard("bob", 2, ROWS, 2, 5)
    assert result.taken() == {"bob": (96,)}


def test_a_low_card_is_a_frozen_slotted_value() -> None:
    low = LowCard("bob", 2, ROWS)
    assert (low.round, low.turn) == (None, None)
    assert not hasattr(low, "__dict__")
    with pytest.raises(dataclasses.FrozenInstanceError):
        low.card = 3  # type: ignore[misc]


def test_a_row_choice_is_the_rule_question_and_the_seat_knowledge() -> None:
    assert issubclass(RowChoice, LowCard)
    assert tuple(field.name for field in dataclasses.fields(RowChoice)) == QUESTION + VIEW
    choice = RowChoice("bob", 2, ROWS, 1, 4, (40, 77), {"bob": 3, "ana": 0})
    assert (choice.player, choice.card, choice.table, choice.round, choice.turn) == (
        "bob", 2, ROWS, 1, 4)
    assert (choice.hand, dict(choice.totals)) == ((40, 77), {"bob": 3, "ana": 0})
    assert (choice.revealed, dict(choice.taken), choice.start, choice.picks) == ((), {}, (), ())
    assert not hasattr(choice, "__dict__")


def test_the_rule_default_refuses_a_player_view_as_it_refuses_its_own_question() -> None:
    with pytest.raises(IllegalMoveError) as caught:
        no_row_choice(RowChoice("bob", 2, ROWS, 1, 4, (40, 77)))
    assert caught.value.rule == "table.low-card"
    assert caught.value.where == Where(1, 4, "bob", 2)


def test_the_names_live_in_their_homes() -> None:
    assert take5rules.LowCard is LowCard
    assert "LowCard" in take5rules.__all__
    assert not hasattr(turn, "RowChoice")
    assert "RowChoice" not in turn.__all__


class _Recorder:
    """The lowest card every turn (low cards come often); keeps what each row choice showed."""

    def __init__(self) -> None:
        self.seen: list[tuple[bool, bool, type, Card, tuple[Card, ...], tuple[Card, ...]]] = []
        self.player = LowestCardPlayer()

    def choose_card(self, view: CardView) -> Card:
        return self.player.choose_card(view)

    def choose_row(self, choice: RowChoice) -> int:
        kept = copy.copy(choice)
        self.seen.append((isinstance(choice, RowChoice), isinstance(choice, LowCard), type(kept),
                          choice.card, choice.table.last_cards, tuple(choice.hand)))
        return self.player.choose_row(choice)

    def choose_draft(self, view: DraftView) -> Card:
        return self.player.choose_draft(view)


def test_the_engine_hands_a_player_a_row_choice() -> None:
    seats: Mapping[str, _Recorder] = {name: _Recorder() for name in ("ana", "bob", "cyd")}
    for _event in play_game(seats, seed=5):
        pass
    seen = [entry for recorder in seats.values() for entry in recorder.seen]
    assert seen, "no low card in the game: pick another seed"
    for is_view, is_question, kept, low, last_cards, hand in seen:
        assert (is_view, is_question, kept) == (True, True, RowChoice)
        assert low < min(last_cards)
        assert low not in hand
