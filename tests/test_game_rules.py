"""Totals, the end of the game and the winners, at their edges (66, ties, bad totals)."""

from __future__ import annotations

import pytest

from take5rules.errors import MalformedInputError, RulesError
from take5rules.game import add_penalties, game_over, winners

THRESHOLD = 66


def test_add_penalties_adds_each_players_penalty_to_their_own_total() -> None:
    assert add_penalties({"ana": 0, "bob": 10, "cyd": 65}, {"ana": 0, "bob": 5, "cyd": 1}) == {
        "ana": 0, "bob": 15, "cyd": 66
    }


def test_add_penalties_accepts_a_penalty_of_zero_and_keeps_the_seat_order() -> None:
    totals = add_penalties({"cyd": 4, "ana": 7}, {"ana": 0, "cyd": 0})
    assert totals == {"cyd": 4, "ana": 7}
    assert list(totals) == ["cyd", "ana"]


def test_add_penalties_names_the_player_of_a_bad_penalty() -> None:
    with pytest.raises(MalformedInputError) as caught:
        add_penalties({"ana": 3, "bob": 4}, {"ana": 1, "bob": -2})
    assert caught.value.rule == "game.totals"
    assert caught.value.where.player == "bob"
    assert caught.value.params["value"] == -2


@pytest.mark.parametrize(
    ("totals", "penalties"),
    [({"ana": 0}, {"ana": 1, "bob": 1}), ({"ana": 0, "bob": 0}, {"ana": 1}), ({"ana": 0}, {})],
)
def test_add_penalties_needs_the_same_players(totals: dict[str, int],
                                              penalties: dict[str, int]) -> None:
    with pytest.raises(MalformedInputError) as caught:
        add_penalties(totals, penalties)
    assert caught.value.rule == "game.totals"


@pytest.mark.parametrize(("highest", "over"), [(0, False), (65, False), (66, True), (67, True)])
def test_game_over_when_a_total_reaches_66(highest: int, over: bool) -> None:
    assert game_over({"ana": 12, "bob": highest, "cyd": 40}) is over
    assert game_over({"ana": 12, "bob": highest, "cyd": 40}, THRESHOLD) is over


@pytest.mark.parametrize(("threshold", "over"), [(1, True), (40, True), (41, False), (200, False)])
def test_game_over_with_an_agreed_threshold(threshold: int, over: bool) -> None:
    assert game_over({"ana": 40, "bob": 3}, threshold) is over


@pytest.mark.parametrize("threshold", [0, -66, True, 66.0, "66"])
def test_game_over_rejects_a_threshold_that_is_not_a_whole_number_from_1(threshold: object) -> None:
    with pytest.raises(RulesError) as caught:
        game_over({"ana": 3}, threshold)  # type: ignore[arg-type]
    assert caught.value.rule == "variants.threshold"


@pytest.mark.parametrize("total", [-1, True, 1.0, "1", None])
def test_game_over_and_winners_name_the_player_of_a_bad_total(total: object) -> None:
    for check in (game_over, winners):
        with pytest.raises(MalformedInputError) as caught:
            check({"ana": 0, "bob": total})  # type: ignore[dict-item]
        assert caught.value.rule == "game.totals"
        assert caught.value.where.player == "bob"


def test_totals_of_zero_are_fine() -> None:
    assert not game_over({"ana": 0, "bob": 0})
    assert winners({"ana": 0, "bob": 0}) == ("ana", "bob")


def test_winners_are_every_player_on_the_lowest_total_in_seat_order() -> None:
    assert winners({"dan": 31, "ana": 70, "bob": 31, "cyd": 32}) == ("dan", "bob")
    assert winners({"ana": 66, "bob": 67}) == ("ana",)
    assert winners({"ana": 5}) == ("ana",)


def test_winners_of_no_totals_is_an_error_of_the_winners_rule() -> None:
    with pytest.raises(MalformedInputError) as caught:
        winners({})
    assert caught.value.rule == "game.winners"


def test_a_bad_total_is_shown_in_the_error() -> None:
    with pytest.raises(MalformedInputError) as caught:
        winners({"ana": -4})
    assert caught.value.params["value"] == -4
