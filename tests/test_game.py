from __future__ import annotations

import pytest

from take5rules.errors import MalformedInputError, RulesError
from take5rules.game import add_penalties, game_over, winners


def test_add_penalties_accumulates() -> None:
    assert add_penalties({"ana": 21, "bob": 3}, {"ana": 11, "bob": 0}) == {"ana": 32, "bob": 3}


@pytest.mark.parametrize("bad", [-1, 1.5, "3", True])
def test_add_penalties_refuses_a_negative_or_non_integer_penalty(bad: object) -> None:
    with pytest.raises(MalformedInputError) as caught:
        add_penalties({"ana": 0}, {"ana": bad})  # type: ignore[dict-item]
    assert caught.value.rule == "game.totals"


def test_add_penalties_refuses_other_players() -> None:
    with pytest.raises(MalformedInputError):
        add_penalties({"ana": 0}, {"bob": 1})


def test_game_over_at_66_or_more_not_only_above() -> None:
    assert game_over({"ana": 66, "bob": 0})
    assert game_over({"ana": 90, "bob": 0})
    assert not game_over({"ana": 65, "bob": 65})


def test_game_over_with_an_agreed_threshold() -> None:
    assert game_over({"ana": 30}, 30)
    assert not game_over({"ana": 66}, 100)


def test_winners_share_the_lowest_total() -> None:
    assert winners({"ana": 70, "bob": 31, "cyd": 31}) == ("bob", "cyd")
    assert winners({"ana": 70, "bob": 12, "cyd": 31}) == ("bob",)


def test_winners_of_nobody_is_an_error() -> None:
    with pytest.raises(MalformedInputError):
        winners({})


@pytest.mark.parametrize("totals", [None, {"a": "x"}, {"a": -1}, {"a": True}, [("a", 1)]])
def test_game_over_and_winners_reject_bad_totals(totals: object) -> None:
    with pytest.raises(MalformedInputError):
        game_over(totals)  # type: ignore[arg-type]
    with pytest.raises(MalformedInputError):
        winners(totals)  # type: ignore[arg-type]


def test_game_over_rejects_a_bad_threshold() -> None:
    with pytest.raises(RulesError):
        game_over({"a": 3}, 0)


@pytest.mark.parametrize("bad", [-50, True, 2.0])
def test_add_penalties_refuses_a_negative_or_non_integer_total(bad: object) -> None:
    # Issue 9: add_penalties({"ana": -50}, ...) and {"ana": True} were added up.
    with pytest.raises(MalformedInputError) as caught:
        add_penalties({"ana": bad, "bob": 0}, {"ana": 3, "bob": 0})  # type: ignore[dict-item]
    assert caught.value.rule == "game.totals"
    assert caught.value.where.player == "ana"
