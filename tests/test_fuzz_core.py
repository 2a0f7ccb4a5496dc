"""Hostile input on the rule core's Python API (issue 17 §6): a clear error or a right answer.

Each case below was seen on 0.1: a set taken as a row (and quietly sorted), ``Table.replace``
with an index out of range or a ``bool``, player ids that are not names, a row nested 100,000
deep (a ``RecursionError``), ``numpy.int64(9)`` refused as "not in the hand". The Hypothesis
tests then throw arbitrary values at the same functions: every input gets a
:class:`~take5rules.errors.Take5Error` naming a rule or ``argument``, or a correct answer.
"""

from __future__ import annotations

import os
import pickle
from typing import Any

import numpy as np
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from take5rules.cards import card, cards
from take5rules.errors import IllegalMoveError, MalformedInputError, Take5Error, Where
from take5rules.round import RoundState, play_turn
from take5rules.setup import check_deal
from take5rules.table import Table, check_row_choice, low_card, place_card, sixth_card
from take5rules.turn import resolve_turn, reveal

EXAMPLES = int(os.environ.get("TAKE5_FUZZ_EXAMPLES", "60"))
FUZZ = settings(max_examples=EXAMPLES, deadline=None, database=None,
                suppress_health_check=list(HealthCheck))

START = Table.of([[12], [37], [43], [58]])


@pytest.mark.parametrize("row", [{12, 3}, frozenset({12}), {12: 1}, {12: 1}.keys()])
def test_table_of_refuses_a_set_or_a_dict_as_a_row(row: Any) -> None:
    with pytest.raises(MalformedInputError) as caught:
        Table.of([row, [24], [58], [96]])
    assert caught.value.rule == "setup.deal"


@pytest.mark.parametrize("rows", [{(3,), (24,), (58,), (96,)}, {0: [3], 1: [24], 2: [58], 3: [96]}])
def test_table_of_refuses_a_set_or_a_dict_of_rows(rows: Any) -> None:
    with pytest.raises(MalformedInputError) as caught:
        Table.of(rows)
    assert caught.value.rule == "setup.deal"


@pytest.mark.parametrize("index", [7, 4, -1, True, False, 1.0, "1", None])
def test_table_replace_refuses_an_index_that_is_not_a_row(index: Any) -> None:
    with pytest.raises(MalformedInputError) as caught:
        START.replace(index, (60,))
    assert caught.value.rule == "argument"
    assert caught.value.params["index"] == index


def test_errors_of_a_placement_say_where_it_was() -> None:
    here = Where(3, 4, "ana", 60)
    with pytest.raises(MalformedInputError) as bad_index:
        sixth_card(START, 60, 9, here)
    with pytest.raises(MalformedInputError) as bad_card:
        sixth_card(START, "60", 3, here)  # type: ignore[arg-type]
    with pytest.raises(MalformedInputError) as bad_rows:
        Table.of("rows", here)  # type: ignore[arg-type]
    with pytest.raises(MalformedInputError) as bad_row:
        Table.of([{3}, [24], [58], [96]], here)
    for caught in (bad_index, bad_card, bad_rows, bad_row):
        assert caught.value.where == here
    assert bad_rows.value.params["value"] == "rows"
    assert repr(bad_row.value.params["value"]) == "{3}"


def test_table_replace_replaces_the_row_it_is_given_and_checks_it() -> None:
    replaced = START.replace(np.int64(3), (58, 59))  # type: ignore[arg-type]
    assert replaced.rows == ((12,), (37,), (43,), (58, 59))
    with pytest.raises(MalformedInputError) as caught:
        START.replace(0, (37,))  # 37 is already on row 2
    assert caught.value.rule == "cards.deck"


@pytest.mark.parametrize("player", [1, None, "", b"ana", ("ana",)])
def test_resolve_turn_refuses_player_ids_that_are_not_names(player: Any) -> None:
    with pytest.raises(MalformedInputError) as caught:
        resolve_turn(START, {"bob": 14, player: 44}, where=Where(2, 5))
    assert caught.value.rule == "setup.players"
    assert caught.value.where == Where(2, 5)
    assert repr(caught.value.params["value"]) == repr(player)


def _deep(depth: int) -> list[Any]:
    nested: list[Any] = [5]
    for _ in range(depth):
        nested = [nested]
    return nested


@pytest.mark.parametrize("make", [
    lambda deep: Table.of([deep, [24], [58], [96]]),
    lambda deep: Table.of(deep),
    lambda deep: cards(deep),
    lambda deep: card(deep),
    lambda deep: resolve_turn(START, {"ana": deep}),
    lambda deep: place_card(START, deep),
    lambda deep: low_card(START, 2, deep),
    lambda deep: check_deal([[12], [37], [43], [58]], {"ana": deep, "bob": [1]}, ["ana", "bob"]),
    lambda deep: check_deal([[12], [37], [43], [58]], deep, ["ana", "bob"]),
])
def test_a_row_nested_100k_deep_is_a_clear_error(make: Any) -> None:
    with pytest.raises(Take5Error) as caught:
        make(_deep(100_000))
    assert len(str(caught.value)) < 400
    pickle.loads(pickle.dumps(caught.value))


def test_numpy_integers_are_cards_and_rows() -> None:
    # np.int64(9) is the card 9: integral types are taken as operator.index takes them.
    assert card(np.int64(9)) == 9 and type(card(np.int64(9))) is int
    assert reveal({"ana": (9, 20)}, {"ana": np.int64(9)}) == {"ana": 9}
    state = RoundState.start(1, START, {"ana": (9, 20), "bob": (44, 60)})
    state, _ = play_turn(state, {"ana": np.int64(9), "bob": np.uint8(44)},
                         lambda choice: np.int64(3))  # type: ignore[arg-type, return-value]
    assert state.table.rows == ((12,), (37,), (43, 44), (9,))
    assert state.hands == {"ana": (20,), "bob": (60,)}
    assert Table.of(np.array([[3], [24], [58], [96]])).rows == ((3,), (24,), (58,), (96,))
    assert sixth_card(START, np.int32(44), np.int64(2)).row == 2  # type: ignore[arg-type]
    assert check_row_choice(np.int16(1)) == 1


@pytest.mark.parametrize("value", [np.float64(9), np.bool_(True), 9.0, True, "9"])
def test_what_is_not_integral_is_no_card_saying_why(value: Any) -> None:
    with pytest.raises(MalformedInputError, match="is not a card: a card is a whole number"):
        card(value)


@pytest.mark.parametrize("choice", [np.float64(3), np.bool_(True), 3.0, True])
def test_what_is_not_integral_is_no_row_choice(choice: Any) -> None:
    with pytest.raises(IllegalMoveError) as caught:
        low_card(START, 2, choice)
    assert caught.value.rule == "table.low-card"


# --- arbitrary values ------------------------------------------------------------------------

_SCALARS = st.one_of(st.none(), st.booleans(), st.integers(-200, 300), st.floats(),
                     st.text(max_size=5), st.binary(max_size=5))
_VALUES = st.recursive(
    _SCALARS,
    lambda inner: st.one_of(st.lists(inner, max_size=6), st.tuples(inner, inner),
                            st.frozensets(st.integers(1, 104), max_size=4),
                            st.dictionaries(st.text(max_size=3), inner, max_size=3)),
    max_leaves=20,
)


@FUZZ
@given(rows=_VALUES)
def test_table_of_gives_a_table_or_a_take5_error(rows: Any) -> None:
    rules = {"setup.deal", "cards.deck", "table.ascending", "table.low-card", "table.sixth-card"}
    refused: str | None = None
    try:
        table = Table.of(rows)
    except Take5Error as error:
        refused = error.rule
    if refused is not None:
        assert refused in rules
        return
    # what was accepted is four lists of ascending cards, as given
    assert [list(row) for row in table.rows] == [list(row) for row in rows]


@FUZZ
@given(plays=st.dictionaries(_VALUES.filter(lambda v: isinstance(v, str | int | bytes)),
                             _VALUES, max_size=4),
       choice=_VALUES)
def test_resolve_turn_gives_a_turn_or_a_take5_error(plays: Any, choice: Any) -> None:
    try:
        result = resolve_turn(START, plays, lambda row_choice: choice)
    except Take5Error:
        return
    assert sorted(p.card for _, p in result.placements) == sorted(plays.values())
