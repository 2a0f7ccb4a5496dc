from __future__ import annotations

import pytest

from take5rules.errors import IllegalMoveError
from take5rules.events import CardPlaced, CardsRevealed, LowCardTaken, SixthCardTaken
from take5rules.round import RoundState, play_turn, round_over, round_penalties
from take5rules.table import Table


def _state() -> RoundState:
    return RoundState.start(1, Table.of([[12], [51, 55, 61, 68, 73], [80], [96]]),
                            {"ana": (74, 2), "bob": (81, 90)})


def test_play_turn_emits_events_in_placement_order() -> None:
    state, events = play_turn(_state(), {"ana": 74, "bob": 81})
    assert [type(e) for e in events] == [CardsRevealed, SixthCardTaken, CardPlaced]
    assert state.piles["ana"] == (51, 55, 61, 68, 73)
    assert state.hands == {"ana": (2,), "bob": (90,)}
    assert state.turn == 1


def test_play_turn_low_card_event_records_the_chosen_row() -> None:
    _, events = play_turn(_state(), {"ana": 2, "bob": 81}, lambda choice: 3)
    low = events[1]
    assert isinstance(low, LowCardTaken)
    assert (low.player, low.row, low.taken) == ("ana", 3, (96,))


def test_play_turn_is_pure() -> None:
    state = _state()
    play_turn(state, {"ana": 74, "bob": 81})
    assert state.turn == 0
    assert state.piles["ana"] == ()


def test_round_over_after_every_card_is_played() -> None:
    state = _state()
    assert not round_over(state)
    state, _ = play_turn(state, {"ana": 74, "bob": 81})
    state, _ = play_turn(state, {"ana": 2, "bob": 90}, lambda choice: 0)
    assert round_over(state)
    with pytest.raises(IllegalMoveError) as caught:
        play_turn(state, {})
    assert caught.value.rule == "round.end"


def test_round_penalties_count_bull_heads_not_cards() -> None:
    pile = (51, 55, 61, 68, 73, 96, 20, 40)
    assert round_penalties({"ana": pile, "bob": ()}) == {"ana": 18, "bob": 0}
