"""The placement rules and every worked example of the sources, one test each."""

from __future__ import annotations

from typing import Any

import pytest

from take5rules.conformance.examples import example
from take5rules.errors import IllegalMoveError, MalformedInputError
from take5rules.table import (
    Table,
    ascending_rows,
    least_difference_row,
    low_card,
    place_card,
    sixth_card,
)
from take5rules.turn import TurnResult, resolve_turn


def test_ascending_rows_excludes_rows_ending_higher() -> None:
    table = Table.of([[12], [37], [43], [58]])
    assert ascending_rows(table, 44) == (0, 1, 2)
    assert ascending_rows(table, 11) == ()
    assert ascending_rows(table, 104) == (0, 1, 2, 3)


def test_least_difference_row_picks_the_closest_lower_last_card() -> None:
    # The Italian source's example: a 23 facing rows ending 12 and 20 goes after the 20.
    table = Table.of([[12], [20], [43], [58]])
    assert least_difference_row(table, 23) == 1
    assert least_difference_row(table, 11) is None


def test_sixth_card_takes_the_five_and_starts_the_row() -> None:
    table = Table.of([[12], [51, 55, 61, 68, 73], [80], [96]])
    placement = sixth_card(table, 74, 1)
    assert placement.rule == "table.sixth-card"
    assert placement.taken == (51, 55, 61, 68, 73)
    assert placement.bull_heads == 11
    assert placement.table.rows == ((12,), (74,), (80,), (96,))


def test_sixth_card_on_a_row_of_four_just_places() -> None:
    placement = sixth_card(Table.of([[12], [51, 55, 61, 68], [80], [96]]), 74, 1)
    assert placement.taken == ()
    assert placement.table.rows[1] == (51, 55, 61, 68, 74)


def test_low_card_takes_the_chosen_row() -> None:
    placement = low_card(Table.of([[3, 12], [24], [58, 61, 70], [96]]), 2, 3)
    assert placement.taken == (96,)
    assert placement.table.rows == ((3, 12), (24,), (58, 61, 70), (2,))


def test_low_card_refuses_a_card_that_fits() -> None:
    with pytest.raises(IllegalMoveError) as caught:
        low_card(Table.of([[3, 12], [24], [58, 61, 70], [96]]), 17, 0)
    assert caught.value.rule == "table.low-card"


@pytest.mark.parametrize("choice", [-1, 4, "1", None, True])
def test_low_card_refuses_a_row_out_of_range(choice: object) -> None:
    with pytest.raises(IllegalMoveError):
        low_card(Table.of([[3, 12], [24], [58, 61, 70], [96]]), 2, choice)  # type: ignore[arg-type]


def test_place_card_needs_a_choice_for_a_low_card() -> None:
    with pytest.raises(IllegalMoveError, match="must choose a row"):
        place_card(Table.of([[12], [37], [43], [58]]), 2)


def test_place_card_ignores_a_choice_when_not_needed() -> None:
    placement = place_card(Table.of([[12], [37], [43], [58]]), 44, choice=0)
    assert placement.row == 2
    assert placement.taken == ()


# --- the worked examples (inputs from take5rules.conformance.examples, outcomes stated here)
# -------------


def _turn(example_id: str) -> TurnResult:
    item = example(example_id)
    return resolve_turn(item.table, dict(item.plays), lambda choice: item.choices[choice.player])


def test_example_founding_texts_turn_4_17_90_93() -> None:
    """000 «Jouer sa carte»: 4 after the 3, 17 after the 4, 90 after the 58, 93 after the 90."""
    result = _turn("founding-4-17-90-93")
    assert [(placement.card, placement.row) for _, placement in result.placements] == [
        (4, 0), (17, 0), (90, 2), (93, 2)
    ]
    assert result.table.rows == ((3, 4, 17), (24,), (58, 90, 93), (96,))
    assert result.taken() == {}


def test_example_founding_texts_low_2_takes_the_row_of_96() -> None:
    """000 «Jouer une carte basse»: the 2 is lower than every row; its player takes the 96."""
    result = _turn("founding-low-2")
    assert result.taken() == {"bob": (96,)}
    assert result.table.rows == ((3, 12, 17), (24,), (58, 61, 70), (2,))


def test_example_founding_texts_74_would_be_sixth_after_73() -> None:
    """000 «Prendre 5»: the 74 belongs after the 73 in the second row, as its sixth card."""
    (_, placement), = _turn("founding-sixth-74").placements
    assert placement.rule == "table.sixth-card"
    assert placement.row == 1
    assert placement.taken == (51, 55, 61, 68, 73)
    assert placement.bull_heads == 11
    assert placement.table.rows[1] == (74,)


def test_example_italian_23_goes_after_the_20() -> None:
    """003 «AGGIUNTA DI SCHEDE AL LAYOUT»: 23 facing rows ending 12 and 20 goes after the 20."""
    assert _turn("italian-23").table.rows[1] == (20, 23)


def test_example_publisher_14_15_44_61() -> None:
    """The booklet: rows ending 12, 37, 43, 58; plays 14, 15, 44, 61."""
    result = _turn("publisher-14-15-44-61")
    assert result.table.rows == ((12, 14, 15), (37,), (43, 44), (58, 61))
    assert result.taken() == {}


def test_example_publisher_45_must_go_sixth_on_the_fourth_row() -> None:
    """The booklet's example 1: the 45 would rather go on row 3 but rule 2 sends it to row 4."""
    item = example("publisher-45-sixth")
    assert item.rows[2][-1] < 45  # the third row would take it by the ascending rule alone
    (_, placement), = _turn("publisher-45-sixth").placements
    assert placement.row == 3
    assert placement.rule == "table.sixth-card"
    assert placement.taken == (39, 40, 41, 42, 44)


def test_example_publisher_29_takes_row_1_so_62_goes_sixth() -> None:
    """The booklet's example 2: 29 takes row 1, so 62 is now sixth on the full fourth row."""
    item = example("publisher-29-62")
    alone = place_card(item.table, 62)
    assert (alone.row, alone.taken) == (0, ())  # the placement player 1 counted on
    result = _turn("publisher-29-62")
    assert result.taken() == {"bob": (60,), "ana": (50, 52, 54, 56, 58)}
    assert result.table.rows == ((29,), (33, 36), (40,), (62,))


# --- building tables ----------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("rows", "rule"),
    [
        ([[3], [24], [58]], "setup.deal"),
        ([[3], [24], [58], [96], [100]], "setup.deal"),
        ([[3], [24], [], [96]], "table.low-card"),
        ([[3, 2], [24], [58], [96]], "table.ascending"),
        ([[1, 2, 3, 4, 5, 6], [24], [58], [96]], "table.sixth-card"),
        ([[3], [3], [58], [96]], "cards.deck"),
        ([[0], [24], [58], [96]], "cards.deck"),
        ([[3], [24], [58], [105]], "cards.deck"),
        ("rows", "setup.deal"),
        ([[3], [24], [58], 96], "cards.deck"),
    ],
)
def test_table_of_rejects_bad_rows_naming_the_rule(rows: object, rule: str) -> None:
    with pytest.raises(MalformedInputError) as caught:
        Table.of(rows)  # type: ignore[arg-type]
    assert caught.value.rule == rule


@pytest.mark.parametrize(
    ("call", "rule"),
    [
        (lambda t: place_card(t, "x"), "cards.deck"),  # type: ignore[arg-type]
        (lambda t: place_card(t, 500), "cards.deck"),
        (lambda t: place_card("rows", 5), "argument"),  # type: ignore[arg-type]
        (lambda t: place_card(t, 43), "cards.deck"),
        (lambda t: ascending_rows(t, None), "cards.deck"),  # type: ignore[arg-type]
        (lambda t: least_difference_row(t, 0), "cards.deck"),
        (lambda t: sixth_card(t, 44, 9), "argument"),
        (lambda t: sixth_card(t, 44, "0"), "argument"),  # type: ignore[arg-type]
        (lambda t: low_card(t, 105, 0), "cards.deck"),
        (lambda t: resolve_turn(t, {"a": "x", "b": 5}), "cards.deck"),  # type: ignore[dict-item]
        (lambda t: resolve_turn(t, {"a": 5, "b": 5}), "cards.deck"),
        (lambda t: resolve_turn(t, [("a", 5)]), "turn.reveal"),  # type: ignore[arg-type]
    ],
)
def test_placement_functions_reject_bad_input_naming_the_rule(call: Any, rule: str) -> None:
    with pytest.raises(MalformedInputError) as caught:
        call(Table.of([[12], [37], [43], [58]]))
    assert caught.value.rule == rule


def test_sixth_card_refuses_a_card_lower_than_the_row() -> None:
    with pytest.raises(IllegalMoveError) as caught:
        sixth_card(Table.of([[12], [37], [43], [58]]), 44, 3)
    assert caught.value.rule == "table.ascending"


@pytest.mark.parametrize(
    ("rows", "rule"),
    [
        (((3, 12), (24,), (70, 61), (96,)), "table.ascending"),
        (((1, 2, 3, 4, 5, 6), (24,), (70,), (96,)), "table.sixth-card"),
        (((3,), (24,), (70,)), "setup.deal"),
        (((3,), (24,), (70,), (96,), (99,)), "setup.deal"),
        (((3,), (24,), (3,), (96,)), "cards.deck"),
        (((3,), (24,), (True,), (96,)), "cards.deck"),
        (((3,), (24,), (7.0,), (96,)), "cards.deck"),
        (((3,), (24,), (105,), (96,)), "cards.deck"),
        (((3,), (24,), (0,), (96,)), "cards.deck"),
        (((3,), (), (70,), (96,)), "table.low-card"),
    ],
)
def test_table_built_directly_is_checked_like_table_of(rows: Any, rule: str) -> None:
    # Issue 9: Table(...) skipped every check, and resolve_turn then played on the bad rows.
    with pytest.raises(MalformedInputError) as caught:
        Table(rows)
    assert caught.value.rule == rule


def test_table_built_directly_from_valid_rows_equals_table_of() -> None:
    assert Table(((3, 12), (24,), (58, 61, 70), (96,))) == Table.of(
        [[3, 12], [24], [58, 61, 70], [96]]
    )


def test_sixth_card_refuses_a_card_that_goes_on_another_row() -> None:
    # Issue 9: sixth_card put any card on any row. 74 follows the 73 of the full first row
    # (difference 1); the row ending 24 (difference 50) is not where it goes.
    table = Table.of([[51, 55, 61, 68, 73], [24], [80], [96]])
    with pytest.raises(IllegalMoveError) as caught:
        sixth_card(table, 74, 1)
    assert caught.value.rule == "table.least-difference"
    assert sixth_card(table, 74, 0).taken == (51, 55, 61, 68, 73)


def test_sixth_card_refuses_to_make_a_low_card_sixth() -> None:
    # 2 is lower than every row's last card: it is no row's next card, full or not.
    with pytest.raises(IllegalMoveError):
        sixth_card(Table.of([[51, 55, 61, 68, 73], [24], [80], [96]]), 2, 0)


def _plain(value: object) -> bool:
    """Whether *value* is a plain ``int`` (what ``json.dumps`` and every log can write)."""
    return type(value) is int


def test_a_numpy_card_is_stored_as_a_plain_int_wherever_it_enters_the_rows() -> None:
    # Issue 27: json.dumps(place_card(Table.of(rows), np.int64(17)).table.rows) was a TypeError.
    np = pytest.importorskip("numpy")
    import json

    rows = [[3], [24], [58], [96]]
    placed = place_card(Table.of(rows), np.int64(17))
    assert json.dumps(placed.table.rows) == "[[3, 17], [24], [58], [96]]"
    assert _plain(placed.card)
    low = place_card(Table.of(rows), np.int64(2), np.int64(3))
    assert json.dumps(low.table.rows) == "[[3], [24], [58], [2]]"
    assert _plain(low.card) and _plain(low.row)
    taken = low_card(Table.of(rows), np.int64(2), np.int64(0))
    assert json.dumps(taken.table.rows) == "[[2], [24], [58], [96]]"
    assert _plain(taken.card)
    sixth = sixth_card(Table.of([[51, 55, 61, 68, 73], [80], [90], [96]]), np.int64(74), 0)
    assert json.dumps(sixth.table.rows) == "[[74], [80], [90], [96]]"
    assert _plain(sixth.card)
    built = Table.of([[np.int64(3)], [np.int32(24)], [np.int16(58)], [np.uint8(96)]])
    assert json.dumps(built.rows) == "[[3], [24], [58], [96]]"
    direct = Table(((np.int64(3),), (24,), (58,), (96,)))
    assert json.dumps(direct.rows) == "[[3], [24], [58], [96]]"
    replaced = Table.of(rows).replace(np.int64(3), (np.int64(97),))
    assert json.dumps(replaced.rows) == "[[3], [24], [58], [97]]"


def test_a_bool_is_still_not_a_card_where_a_card_enters_the_rows() -> None:
    np = pytest.importorskip("numpy")
    rows = [[3], [24], [58], [96]]
    for value in (True, np.bool_(True)):
        with pytest.raises(MalformedInputError) as raised:
            place_card(Table.of(rows), value)
        assert raised.value.rule == "cards.deck"
        with pytest.raises(MalformedInputError):
            low_card(Table.of(rows), value, 0)
        with pytest.raises(MalformedInputError):
            Table.of([[value], [24], [58], [96]])
