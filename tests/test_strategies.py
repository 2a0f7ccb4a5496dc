"""The public Hypothesis strategies: legal values, and the hard cases frequent."""

from __future__ import annotations

from collections import Counter
from typing import Any

import pytest
from hypothesis import HealthCheck, Phase, given, seed, settings
from hypothesis import strategies as st

from take5rules.conformance.referee import answer, parse_request
from take5rules.conformance.strategies import PLAYER_NAMES, choices, plays, requests, tables
from take5rules.errors import MalformedInputError
from take5rules.table import Table
from take5rules.turn import resolve_turn

QUICK = settings(database=None, max_examples=150, deadline=None,
                 suppress_health_check=[HealthCheck.too_slow])


@QUICK
@given(tables())
def test_tables_are_legal(table: Table) -> None:
    assert len(table.rows) == 4
    assert all(1 <= len(row) <= 5 for row in table.rows)
    assert all(list(row) == sorted(set(row)) for row in table.rows)
    assert Table.of(table.rows) == table  # distinct across rows, checked again


@QUICK
@given(requests())
def test_requests_are_valid_turns(request: dict[str, Any]) -> None:
    table, turn, chosen = parse_request(request)  # raises if invalid
    assert 2 <= len(turn) <= 10
    assert list(turn) == list(PLAYER_NAMES[: len(turn)])
    assert not set(turn.values()) & set(table.cards())
    assert set(chosen) == set(turn)
    assert "error" not in answer(request)


@QUICK
@given(requests())
def test_only_the_lowest_card_can_be_low(request: dict[str, Any]) -> None:
    table, turn, chosen = parse_request(request)
    result = resolve_turn(table, turn, lambda choice: chosen[choice.player])
    low = [index for index, (_, placement) in enumerate(result.placements)
           if placement.rule == "table.low-card"]
    assert low in ([], [0])


@QUICK
@given(st.data())
def test_plays_avoid_the_table(data: st.DataObject) -> None:
    table = data.draw(tables())
    turn = data.draw(plays(table, min_size=1, max_size=3))
    assert 1 <= len(turn) <= 3
    assert len({value for _, value in turn}) == len(turn)
    assert not {value for _, value in turn} & set(table.cards())


@QUICK
@given(choices(["ana", "bob", "cyd"]))
def test_choices_cover_every_player(chosen: dict[str, int]) -> None:
    assert set(chosen) == {"ana", "bob", "cyd"}
    assert all(0 <= row <= 3 for row in chosen.values())


@pytest.mark.parametrize(("low", "high"), [(0, 3), (3, 2), (2, 11), (True, 3), (1, 2.0)])
def test_plays_sizes_are_checked(low: int, high: int) -> None:
    with pytest.raises(MalformedInputError) as caught:
        plays(Table.of([[1], [2], [3], [4]]), low, high)
    assert caught.value.rule == "argument"


@pytest.mark.parametrize(("low", "high"), [(0, 3), (3, 2), (2, 11), (None, 3)])
def test_random_request_plays_are_checked(low: int, high: int) -> None:
    import random

    from take5rules.conformance.random_turns import random_request

    with pytest.raises(MalformedInputError) as caught:
        random_request(random.Random(1), low, high)
    assert caught.value.rule == "argument"


def test_hard_cases_are_frequent() -> None:
    seen: Counter[str] = Counter()

    @seed(0)
    @settings(QUICK, max_examples=300, phases=[Phase.generate])
    @given(requests())
    def sample(request: dict[str, Any]) -> None:
        table, turn, chosen = parse_request(request)
        result = resolve_turn(table, turn, lambda choice: chosen[choice.player])
        seen["turns"] += 1
        seen.update({placement.rule for _, placement in result.placements})
        values = [value for _, value in request["plays"]]
        if values != sorted(values):
            seen["unsorted"] += 1

    sample()
    assert seen["turns"] == 300
    assert seen["table.low-card"] >= 60
    assert seen["table.sixth-card"] >= 60
    assert seen["unsorted"] >= 150
