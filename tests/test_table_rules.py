"""The placement rules on rows of several cards: a new card is compared with a row's LAST card.

Every table here has rows whose first, second-to-last and last cards tell different stories, so
a rule that looks at the wrong card, picks the farthest row, or miscounts the five cards of a
row gives another answer than the one stated. Expectations are written out by hand from the
rulebook: 4 rows, at most 5 cards a row, the sixth card takes the five.
"""

from __future__ import annotations

from typing import Any

import pytest

from take5rules.errors import IllegalMoveError, MalformedInputError, Take5Error, Where
from take5rules.table import (
    Table,
    ascending_rows,
    least_difference_row,
    low_card,
    place_card,
    sixth_card,
)

# Row 0 starts low and ends at 40; row 1 starts high and ends lower, at 35; the second-to-last
# cards are 20 and 33. A 45 must go after the 40 (5 apart), not after the 35 (10 apart), although
# both the first cards (10 against 30) and the second-to-last (20 against 33) favour row 1.
CROSSED = Table.of([[10, 20, 40], [30, 33, 35], [50, 60, 70, 80, 90], [95, 96, 97, 98]])


def test_ascending_rows_compares_with_the_last_card_of_each_row() -> None:
    # 75 is above the first card of row 2 (50) but below its last card (90)
    assert ascending_rows(CROSSED, 75) == (0, 1)
    assert ascending_rows(CROSSED, 91) == (0, 1, 2)
    assert ascending_rows(CROSSED, 99) == (0, 1, 2, 3)
    # 36 is above 35, the last card of row 1, and below the last cards of the others
    assert ascending_rows(CROSSED, 36) == (1,)
    # 25 is above the first cards of rows 0 and 1 but below all their last cards
    assert ascending_rows(CROSSED, 25) == ()


def test_least_difference_row_measures_from_the_last_card() -> None:
    assert least_difference_row(CROSSED, 45) == 0
    assert least_difference_row(CROSSED, 41) == 0
    assert least_difference_row(CROSSED, 36) == 1
    assert least_difference_row(CROSSED, 91) == 2
    assert least_difference_row(CROSSED, 99) == 3
    assert least_difference_row(CROSSED, 25) is None


def test_least_difference_row_picks_the_nearest_not_the_farthest() -> None:
    table = Table.of([[2, 5], [11, 12, 14], [3, 7, 9], [60, 61]])
    # 15 could follow 5, 14 or 9: 14 is the nearest (1 apart), 5 the farthest (10 apart)
    assert least_difference_row(table, 15) == 1
    # 10 could follow 5 or 9: 9 is the nearest
    assert least_difference_row(table, 10) == 2
    # 62 could follow any row: 61 is the nearest
    assert least_difference_row(table, 62) == 3


def test_place_card_goes_after_the_nearest_last_card_of_a_long_row() -> None:
    placement = place_card(CROSSED, 45)
    assert (placement.row, placement.taken, placement.rule) == (0, (), "table.least-difference")
    assert placement.table.rows == (
        (10, 20, 40, 45), (30, 33, 35), (50, 60, 70, 80, 90), (95, 96, 97, 98),
    )


def test_place_card_takes_a_full_row_of_five_with_the_sixth_card() -> None:
    placement = place_card(CROSSED, 91)
    assert placement.rule == "table.sixth-card"
    assert (placement.row, placement.taken) == (2, (50, 60, 70, 80, 90))
    # 50, 60, 70, 80 and 90 end in 0: 3 bull heads each
    assert placement.bull_heads == 5 * 3
    assert placement.table.rows == ((10, 20, 40), (30, 33, 35), (91,), (95, 96, 97, 98))


def test_place_card_fills_a_row_of_four_to_five_without_taking() -> None:
    placement = place_card(CROSSED, 99)
    assert (placement.row, placement.taken, placement.rule) == (3, (), "table.least-difference")
    assert placement.table.rows[3] == (95, 96, 97, 98, 99)
    # and the next card on that row is its sixth
    after = place_card(placement.table, 100)
    assert (after.row, after.taken) == (3, (95, 96, 97, 98, 99))
    assert after.table.rows[3] == (100,)


def test_place_card_needs_a_choice_for_a_card_below_every_last_card() -> None:
    # 25 is above 10, the first card of row 0, but below the last card of every row
    with pytest.raises(IllegalMoveError) as caught:
        place_card(CROSSED, 25)
    assert caught.value.rule == "table.low-card"
    placement = place_card(CROSSED, 25, choice=1)
    assert (placement.row, placement.taken, placement.rule) == (1, (30, 33, 35), "table.low-card")
    assert placement.table.rows[1] == (25,)


def test_low_card_takes_the_chosen_long_row() -> None:
    for choice in range(4):
        placement = low_card(CROSSED, 25, choice)
        assert placement.taken == CROSSED.rows[choice]
        assert placement.row == choice
        assert placement.table.rows[choice] == (25,)
        assert all(placement.table.rows[i] == CROSSED.rows[i] for i in range(4) if i != choice)


def test_low_card_refuses_a_card_above_the_last_card_of_a_long_row() -> None:
    # 36 is below the first cards of rows 2 and 3 but above 35, the last card of row 1
    with pytest.raises(IllegalMoveError) as caught:
        low_card(CROSSED, 36, 2)
    assert caught.value.rule == "table.low-card"


@pytest.mark.parametrize("choice", [0, 3])
def test_low_card_accepts_the_first_and_the_last_row(choice: int) -> None:
    assert low_card(CROSSED, 1, choice).row == choice


@pytest.mark.parametrize("choice", [-1, 4, True, False, "0", 1.0, None])
def test_low_card_refuses_a_choice_that_is_not_a_row_index(choice: object) -> None:
    with pytest.raises(IllegalMoveError) as caught:
        low_card(CROSSED, 1, choice)  # type: ignore[arg-type]
    assert caught.value.rule == "table.low-card"


# --- sixth_card: the last step of every placement, and its own input checks ----------------------


def test_sixth_card_adds_to_rows_of_one_to_four_and_takes_a_row_of_five() -> None:
    table = Table.of([[1], [10, 11], [20, 21, 22, 23], [30, 31, 32, 33, 34]])
    assert sixth_card(table, 5, 0).table.rows[0] == (1, 5)
    assert sixth_card(table, 12, 1).table.rows[1] == (10, 11, 12)
    four = sixth_card(table, 24, 2)
    assert (four.taken, four.table.rows[2], four.rule) == ((), (20, 21, 22, 23, 24),
                                                          "table.least-difference")
    five = sixth_card(table, 35, 3)
    assert (five.taken, five.table.rows[3], five.rule) == ((30, 31, 32, 33, 34), (35,),
                                                          "table.sixth-card")
    assert five.bull_heads == 3 + 1 + 1 + 5 + 1  # 30 ends in 0, 33 is a double
    assert five.table.rows[:3] == table.rows[:3]


@pytest.mark.parametrize(("index", "value"), [(0, 41), (1, 36), (2, 91), (3, 100)])
def test_sixth_card_accepts_every_row_index(index: int, value: int) -> None:
    # each card goes on the row whose last card is the highest below it (brute force by hand:
    # the last cards are 40, 35, 90, 98)
    placement = sixth_card(CROSSED, value, index)
    assert placement.row == index
    assert placement.table.rows[index][-1] == value


@pytest.mark.parametrize("index", [0, 1, 2])
def test_sixth_card_refuses_a_row_the_card_does_not_go_on(index: int) -> None:
    # 100 goes on row 4 (index 3, last card 98), closer than 40, 35 or 90
    with pytest.raises(IllegalMoveError) as caught:
        sixth_card(CROSSED, 100, index)
    assert caught.value.rule == "table.least-difference"


@pytest.mark.parametrize("index", [-1, 4, 9, True, False, "0", 0.0, None])
def test_sixth_card_refuses_an_index_that_is_not_a_row(index: object) -> None:
    # A bad index breaks no rule of the game: the id is "argument", not setup.deal (issue 16).
    with pytest.raises(MalformedInputError) as caught:
        sixth_card(CROSSED, 100, index)  # type: ignore[arg-type]
    assert caught.value.rule == "argument"


@pytest.mark.parametrize("value", [0, 105, -3, "99", 99.0, True, None])
def test_sixth_card_refuses_what_is_not_a_card(value: object) -> None:
    with pytest.raises(MalformedInputError) as caught:
        sixth_card(CROSSED, value, 3)  # type: ignore[arg-type]
    assert caught.value.rule == "cards.deck"


@pytest.mark.parametrize("value", [10, 20, 40, 33, 60, 98])
def test_sixth_card_refuses_a_card_already_on_the_table(value: int) -> None:
    """Any card of any row, not only the last ones."""
    with pytest.raises(MalformedInputError) as caught:
        sixth_card(CROSSED, value, 3)
    assert caught.value.rule == "cards.deck"


def test_sixth_card_refuses_a_table_that_is_not_a_table() -> None:
    with pytest.raises(MalformedInputError) as caught:
        sixth_card([[1], [2], [3], [4]], 5, 0)  # type: ignore[arg-type]
    assert caught.value.rule == "argument"


@pytest.mark.parametrize(("index", "value"), [(0, 39), (0, 11), (1, 31), (2, 89), (3, 94)])
def test_sixth_card_refuses_a_card_below_the_last_card_of_the_row(index: int, value: int) -> None:
    # each card is below the last card of its row; all but 94 are above the row's first card
    with pytest.raises(IllegalMoveError) as caught:
        sixth_card(CROSSED, value, index)
    assert caught.value.rule == "table.ascending"


# --- every placement function says which rule its input broke ------------------------------------


@pytest.mark.parametrize(
    ("call", "rule"),
    [
        (lambda: ascending_rows("rows", 5), "argument"),  # type: ignore[arg-type]
        (lambda: ascending_rows(CROSSED, 40), "cards.deck"),
        (lambda: ascending_rows(CROSSED, 20), "cards.deck"),
        (lambda: ascending_rows(CROSSED, True), "cards.deck"),
        (lambda: least_difference_row(CROSSED, 33), "cards.deck"),
        (lambda: least_difference_row(CROSSED, 105), "cards.deck"),
        (lambda: low_card(CROSSED, 30, 0), "cards.deck"),
        (lambda: low_card(CROSSED, 0, 0), "cards.deck"),
        (lambda: place_card(CROSSED, 97), "cards.deck"),
    ],
)
def test_placement_functions_name_the_rule_a_bad_input_broke(call: Any, rule: str) -> None:
    with pytest.raises(Take5Error) as caught:
        call()
    assert caught.value.rule == rule


# --- building a table says which row broke which rule ----------------------------------------


@pytest.mark.parametrize(
    ("rows", "rule", "params"),
    [
        ([[3], [24], [58]], "setup.deal", {"count": 3}),
        ([[3], [24], [], [96]], "table.low-card", {"row": 3}),
        ([[3], [24, 30, 29], [58], [96]], "table.ascending", {"row": 2, "after": 29,
                                                              "before": 30}),
        ([[3], [24], [58], [60, 61, 62, 63, 64, 65]], "table.sixth-card", {"row": 4,
                                                                           "count": 6}),
        ([[3], [24], [58], [96, 3]], "cards.deck", {"value": 3}),
        ([[3], [24], [105], [96]], "cards.deck", {"value": 105}),
        ([[3], [24, 24], [58], [96]], "cards.deck", {"value": 24}),
    ],
)
def test_table_of_names_the_row_and_the_rule(rows: Any, rule: str, params: dict[str, Any]) -> None:
    where = Where(round=2)
    with pytest.raises(MalformedInputError) as caught:
        Table.of(rows, where)
    assert caught.value.rule == rule
    assert caught.value.where == where
    assert {key: caught.value.params[key] for key in params} == params


def test_table_of_accepts_rows_of_one_to_five_and_lists_them() -> None:
    table = Table.of([[1], [2, 3], [4, 5, 6, 7], [8, 9, 10, 11, 12]])
    assert table.to_json() == [[1], [2, 3], [4, 5, 6, 7], [8, 9, 10, 11, 12]]
    assert table.cards() == tuple(range(1, 13))
    assert table.last_cards == (1, 3, 7, 12)


def test_place_card_says_where_a_low_card_came_without_a_choice() -> None:
    with pytest.raises(IllegalMoveError) as caught:
        place_card(CROSSED, 25, where=Where(1, 2, "ana", 25))
    assert caught.value.where == Where(1, 2, "ana", 25)
    assert caught.value.params["value"] == 25


def test_the_checks_show_the_value_given() -> None:
    with pytest.raises(MalformedInputError) as caught:
        place_card("rows", 5)  # type: ignore[arg-type]
    assert caught.value.params["value"] == "rows"
    with pytest.raises(MalformedInputError) as caught:
        place_card(CROSSED, 33)
    assert caught.value.params["value"] == 33


# --- what the errors and placements report ---------------------------------------------------


@pytest.mark.parametrize(("index", "chosen"), [(0, 1), (1, 2), (2, 3)])
def test_sixth_card_error_names_the_row_of_the_card_and_the_row_chosen(index: int,
                                                                      chosen: int) -> None:
    # 100 goes on row 4 (last card 98); rows are counted from 1 for people
    with pytest.raises(IllegalMoveError) as caught:
        sixth_card(CROSSED, 100, index)
    assert (caught.value.params["row"], caught.value.params["chosen"]) == (4, chosen)


def test_low_card_error_names_the_row_the_card_goes_on() -> None:
    # 36 follows 35 on row 2; 99 follows 98 on row 4
    with pytest.raises(IllegalMoveError) as caught:
        low_card(CROSSED, 36, 2)
    assert caught.value.params["row"] == 2
    with pytest.raises(IllegalMoveError) as caught:
        low_card(CROSSED, 99, 0)
    assert caught.value.params["row"] == 4


@pytest.mark.parametrize("choice", [-1, 4, "0"])
def test_a_bad_choice_is_shown_with_where_it_came(choice: object) -> None:
    where = Where(1, 2, "ana", 25)
    with pytest.raises(IllegalMoveError) as low:
        low_card(CROSSED, 25, choice, where)  # type: ignore[arg-type]
    with pytest.raises(IllegalMoveError) as placed:
        place_card(CROSSED, 25, choice, where)  # type: ignore[arg-type]
    for caught in (low, placed):
        assert caught.value.rule == "table.low-card"
        assert caught.value.where == where
        assert caught.value.params["choice"] == choice


def test_every_placement_names_the_card_placed() -> None:
    assert place_card(CROSSED, 45).card == 45  # least difference
    assert place_card(CROSSED, 91).card == 91  # sixth card
    assert place_card(CROSSED, 25, 1).card == 25  # low card
    assert low_card(CROSSED, 25, 3).card == 25
    assert sixth_card(CROSSED, 99, 3).card == 99


def test_table_replace_swaps_one_row_and_checks_the_new_table() -> None:
    assert CROSSED.replace(1, (30, 33, 35, 36)).rows == (
        (10, 20, 40), (30, 33, 35, 36), (50, 60, 70, 80, 90), (95, 96, 97, 98),
    )
    assert CROSSED.replace(0, (1,)).rows[0] == (1,)
    assert CROSSED.replace(3, (99,)).rows == (
        (10, 20, 40), (30, 33, 35), (50, 60, 70, 80, 90), (99,),
    )
    with pytest.raises(MalformedInputError) as caught:
        CROSSED.replace(2, (50, 49))
    assert (caught.value.rule, caught.value.params["row"]) == ("table.ascending", 3)
    with pytest.raises(MalformedInputError) as caught:
        CROSSED.replace(0, (33,))  # 33 is on row 2 already
    assert caught.value.rule == "cards.deck"
