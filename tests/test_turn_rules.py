"""A turn and a round: one card from each hand, placed lowest first, ten turns, then scoring.

The errors say where the rule was broken: round, turn, player and card.
"""

from __future__ import annotations

import pytest

from take5rules.errors import IllegalMoveError, MalformedInputError, Where
from take5rules.events import CardPlaced, CardsRevealed, LowCardTaken, SixthCardTaken
from take5rules.round import RoundState, play_turn, round_over, round_penalties
from take5rules.table import Table
from take5rules.turn import LowCard, placement_order, resolve_turn, reveal

HAND = 10
HERE = Where(round=3, turn=7)


def test_reveal_names_the_player_who_played_no_card() -> None:
    with pytest.raises(IllegalMoveError) as caught:
        reveal({"ana": (14,), "bob": (2,)}, {"ana": 14}, HERE)
    assert caught.value.rule == "turn.reveal"
    assert caught.value.where == Where(3, 7, "bob")


def test_reveal_names_the_stranger() -> None:
    with pytest.raises(MalformedInputError) as caught:
        reveal({"ana": (14,)}, {"ana": 14, "eve": 3}, HERE)
    assert caught.value.rule == "turn.reveal"
    assert caught.value.where == Where(3, 7, "eve")


def test_reveal_names_the_card_not_in_hand() -> None:
    with pytest.raises(IllegalMoveError) as caught:
        reveal({"ana": (14, 90), "bob": (2, 15)}, {"ana": 90, "bob": 14}, HERE)
    assert caught.value.where == Where(3, 7, "bob", 14)


def test_reveal_names_the_player_of_a_value_that_is_not_a_card() -> None:
    with pytest.raises(MalformedInputError) as caught:
        reveal({"ana": (14,), "bob": (2,)}, {"ana": 14, "bob": 0}, HERE)
    assert caught.value.rule == "cards.deck"
    assert caught.value.where == Where(3, 7, "bob")


def test_reveal_without_where_still_names_the_player() -> None:
    with pytest.raises(IllegalMoveError) as caught:
        reveal({"ana": (14,), "bob": (2,)}, {"ana": 14, "bob": 3})
    assert caught.value.where == Where(player="bob", card=3)


def test_reveal_rejects_plays_that_are_not_a_mapping_where_they_came() -> None:
    with pytest.raises(MalformedInputError) as caught:
        reveal({"ana": (14,)}, [("ana", 14)], HERE)  # type: ignore[arg-type]
    assert (caught.value.rule, caught.value.where) == ("turn.reveal", HERE)


def test_placement_order_sorts_by_card_only() -> None:
    plays = {"zed": 2, "amy": 99, "kim": 50, "bob": 3}
    assert placement_order(plays) == (("zed", 2), ("bob", 3), ("kim", 50), ("amy", 99))


def test_resolve_turn_places_lowest_first_so_a_lower_card_fills_the_row() -> None:
    # 44 alone would be the fifth card of row 0; 40 placed first makes 44 the sixth
    table = Table.of([[10, 20, 30, 35], [50], [60], [70]])
    result = resolve_turn(table, {"ana": 44, "bob": 40})
    assert [(player, p.card) for player, p in result.placements] == [("bob", 40), ("ana", 44)]
    assert result.taken() == {"ana": (10, 20, 30, 35, 40)}
    assert result.table.rows[0] == (44,)


def test_resolve_turn_asks_for_a_row_with_the_round_and_turn() -> None:
    seen: list[LowCard] = []

    def choose(choice: LowCard) -> int:
        seen.append(choice)
        return 2

    result = resolve_turn(Table.of([[12], [37], [43], [58]]), {"ana": 5, "bob": 38}, choose,
                          HERE)
    (choice,) = seen
    assert (choice.player, choice.card, choice.round, choice.turn) == ("ana", 5, 3, 7)
    assert result.taken() == {"ana": (43,)}
    assert result.table.rows == ((12,), (37, 38), (5,), (58,))


def test_resolve_turn_without_a_choice_names_the_low_card() -> None:
    with pytest.raises(IllegalMoveError) as caught:
        resolve_turn(Table.of([[12], [37], [43], [58]]), {"ana": 5, "bob": 38}, where=HERE)
    assert caught.value.rule == "table.low-card"
    assert caught.value.where == Where(3, 7, "ana", 5)
    assert caught.value.params["value"] == 5


@pytest.mark.parametrize("plays", [{"ana": 5, "bob": 5}, {"ana": 0}])
def test_resolve_turn_rejects_a_card_twice_or_out_of_range(plays: dict[str, int]) -> None:
    with pytest.raises(MalformedInputError) as caught:
        resolve_turn(Table.of([[12], [37], [43], [58]]), plays, lambda choice: 0, HERE)
    assert caught.value.rule == "cards.deck"
    assert (caught.value.where.round, caught.value.where.turn) == (3, 7)


def test_resolve_turn_rejects_a_card_already_on_the_table() -> None:
    with pytest.raises(MalformedInputError) as caught:
        resolve_turn(Table.of([[12], [37], [43], [58]]), {"ana": 44, "bob": 43},
                     lambda choice: 0, HERE)
    assert caught.value.rule == "cards.deck"
    assert caught.value.where == Where(3, 7, "bob", 43)
    assert caught.value.params["value"] == 43


def test_resolve_turn_rejects_what_is_not_a_table_saying_where() -> None:
    with pytest.raises(MalformedInputError) as caught:
        resolve_turn([[12], [37], [43], [58]], {"ana": 44}, lambda choice: 0, HERE)  # type: ignore[arg-type]
    assert caught.value.rule == "argument"
    assert (caught.value.where.round, caught.value.where.turn) == (3, 7)


def test_turn_result_taken_lists_only_the_players_who_took() -> None:
    table = Table.of([[1, 2, 3, 4, 5], [37], [43], [58]])
    result = resolve_turn(table, {"ana": 6, "bob": 38, "cyd": 99})
    assert result.taken() == {"ana": (1, 2, 3, 4, 5)}


# --- a round ------------------------------------------------------------------------------------


def _round(hands: dict[str, tuple[int, ...]]) -> RoundState:
    return RoundState.start(4, Table.of([[1], [30], [60], [104]]), hands)


def test_a_round_of_ten_turns_then_no_more() -> None:
    hands = {"ana": tuple(range(2, 12)), "bob": tuple(range(31, 41))}
    state = _round(hands)
    assert state.players == ("ana", "bob")
    for turn in range(1, HAND + 1):
        assert not round_over(state)
        state, events = play_turn(state, {"ana": 1 + turn, "bob": 30 + turn})
        assert state.turn == turn
        revealed = events[0]
        assert isinstance(revealed, CardsRevealed)
        assert (revealed.round, revealed.turn) == (4, turn)
        assert all(len(hand) == HAND - turn for hand in state.hands.values())
    assert round_over(state)
    with pytest.raises(IllegalMoveError) as caught:
        play_turn(state, {"ana": 2, "bob": 31})
    assert caught.value.rule == "round.end"
    assert caught.value.where == Where(4, HAND + 1)
    # ana took 1-5 with her 6 and 6-10 with her 11; bob 30-34 with 35, 35-39 with 40
    assert state.piles["ana"] == (1, 2, 3, 4, 5, 6, 7, 8, 9, 10)
    assert round_penalties(state.piles) == {"ana": 1 + 1 + 1 + 1 + 2 + 1 + 1 + 1 + 1 + 3,
                                            "bob": 3 + 1 + 1 + 5 + 1 + 2 + 1 + 1 + 1 + 1}


def test_play_turn_refuses_an_eleventh_turn_even_with_cards_left() -> None:
    state = _round({"ana": (2, 3), "bob": (31, 32)})
    over = RoundState(state.number, state.table, state.hands, state.piles, turn=HAND)
    with pytest.raises(IllegalMoveError) as caught:
        play_turn(over, {"ana": 2, "bob": 31})
    assert caught.value.rule == "round.end"


def test_play_turn_events_carry_rows_and_takes() -> None:
    state = RoundState.start(2, Table.of([[12], [51, 55, 61, 68, 73], [80], [96]]),
                             {"ana": (74, 2), "bob": (81, 90), "cyd": (3, 4)})
    state, events = play_turn(state, {"ana": 74, "bob": 90, "cyd": 3}, lambda choice: 0)
    low, sixth, placed = events[1:]
    assert isinstance(low, LowCardTaken)
    assert (low.round, low.turn, low.player, low.card, low.row, low.taken) == (
        2, 1, "cyd", 3, 0, (12,))
    assert isinstance(sixth, SixthCardTaken)
    assert (sixth.player, sixth.card, sixth.row, sixth.taken) == (
        "ana", 74, 1, (51, 55, 61, 68, 73))
    assert isinstance(placed, CardPlaced)
    assert (placed.round, placed.turn, placed.player, placed.card, placed.row) == (
        2, 1, "bob", 90, 2)
    assert placed.rows == state.table.rows == ((3,), (74,), (80, 90), (96,))
    assert state.piles == {"ana": (51, 55, 61, 68, 73), "bob": (), "cyd": (12,)}
    assert state.hands == {"ana": (2,), "bob": (81,), "cyd": (4,)}
    assert round_penalties(state.piles) == {"ana": 11, "bob": 0, "cyd": 1}


def test_play_turn_events_show_the_order_and_the_rows_after_each_take() -> None:
    state = RoundState.start(2, Table.of([[12], [51, 55, 61, 68, 73], [80], [96]]),
                             {"ana": (74, 2), "bob": (81, 90), "cyd": (3, 4)})
    _, events = play_turn(state, {"ana": 74, "bob": 90, "cyd": 3}, lambda choice: 0)
    revealed, low, sixth = events[:3]
    assert isinstance(revealed, CardsRevealed)
    assert revealed.plays == (("cyd", 3), ("ana", 74), ("bob", 90))
    assert isinstance(low, LowCardTaken)
    assert low.rows == ((3,), (51, 55, 61, 68, 73), (80,), (96,))
    assert isinstance(sixth, SixthCardTaken)
    assert sixth.rows == ((3,), (74,), (80,), (96,))


@pytest.mark.parametrize("count", [0, 11])
def test_resolve_turn_refuses_0_or_11_plays_saying_where_and_how_many(count: int) -> None:
    plays = {f"p{n}": 20 + n for n in range(count)}
    with pytest.raises(MalformedInputError) as caught:
        resolve_turn(Table.of([[12], [37], [43], [58]]), plays, lambda choice: 0, HERE)
    assert caught.value.rule == "setup.players"
    assert caught.value.where == HERE
    assert caught.value.params["count"] == count


def test_round_state_start_sorts_hands_and_empties_piles() -> None:
    state = RoundState.start(1, Table.of([[1], [30], [60], [104]]), {"ana": (9, 2, 5)})
    assert state.hands == {"ana": (2, 5, 9)}
    assert state.piles == {"ana": ()}
    assert (state.number, state.turn) == (1, 0)


def test_resolve_turn_names_the_low_card_whose_player_chose_no_row() -> None:
    with pytest.raises(IllegalMoveError) as caught:
        resolve_turn(Table.of([[12], [37], [43], [58]]), {"ana": 5}, lambda choice: 9, HERE)
    assert caught.value.rule == "table.low-card"
    assert caught.value.where == Where(3, 7, "ana", 5)


def test_resolve_turn_names_the_player_of_a_value_that_is_not_a_card() -> None:
    with pytest.raises(MalformedInputError) as caught:
        resolve_turn(Table.of([[12], [37], [43], [58]]), {"ana": 5, "bob": 105}, where=HERE)
    assert caught.value.where == Where(3, 7, "bob")
    with pytest.raises(MalformedInputError) as caught:
        resolve_turn(Table.of([[12], [37], [43], [58]]), [("ana", 5)], where=HERE)  # type: ignore[arg-type]
    assert (caught.value.rule, caught.value.where) == ("turn.reveal", HERE)
    assert caught.value.params["value"] == [("ana", 5)]


def test_play_turn_says_where_a_play_broke_a_rule() -> None:
    state = _round({"ana": (2, 3), "bob": (31, 32)})
    with pytest.raises(IllegalMoveError) as caught:
        play_turn(state, {"ana": 2, "bob": 99})
    assert (caught.value.rule, caught.value.where) == ("turn.reveal", Where(4, 1, "bob", 99))
    low = RoundState.start(5, Table.of([[10], [30], [60], [104]]), {"ana": (2,), "bob": (31,)})
    with pytest.raises(IllegalMoveError) as caught:
        play_turn(low, {"ana": 2, "bob": 31})
    assert (caught.value.rule, caught.value.where) == ("table.low-card", Where(5, 1, "ana", 2))
