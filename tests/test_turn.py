from __future__ import annotations

import pytest

from take5rules.errors import IllegalMoveError, MalformedInputError
from take5rules.table import Table
from take5rules.turn import LowCard, placement_order, resolve_turn, reveal


def test_reveal_accepts_one_card_from_each_hand() -> None:
    assert reveal({"ana": (14, 90), "bob": (2, 15)}, {"bob": 2, "ana": 90}) == {
        "ana": 90, "bob": 2
    }


def test_reveal_rejects_a_card_not_in_hand() -> None:
    with pytest.raises(IllegalMoveError) as caught:
        reveal({"ana": (14, 90), "bob": (2, 15)}, {"ana": 14, "bob": 16})
    assert caught.value.rule == "turn.reveal"
    assert caught.value.where.player == "bob"
    assert caught.value.where.card == 16


def test_reveal_rejects_a_missing_player() -> None:
    with pytest.raises(IllegalMoveError, match="played no card"):
        reveal({"ana": (14,), "bob": (2,)}, {"ana": 14})


def test_reveal_rejects_a_stranger() -> None:
    with pytest.raises(MalformedInputError, match="not a player"):
        reveal({"ana": (14,)}, {"ana": 14, "eve": 3})


@pytest.mark.parametrize("bad", [0, "14", None])
def test_reveal_rejects_a_non_card(bad: object) -> None:
    with pytest.raises(MalformedInputError):
        reveal({"ana": (14,)}, {"ana": bad})


def test_reveal_rejects_plays_that_are_not_a_mapping() -> None:
    with pytest.raises(MalformedInputError):
        reveal({"ana": (14,)}, [("ana", 14)])  # type: ignore[arg-type]


def test_placement_order_is_ascending_whatever_the_seats() -> None:
    assert [card for _, card in placement_order({"a": 93, "b": 4, "c": 90, "d": 17})] == [
        4, 17, 90, 93
    ]


def test_placement_order_stays_ascending_after_a_take() -> None:
    # The Italian page's "next lower card" would place 10 before 6; the rules place 6 first.
    result = resolve_turn(Table.of([[1, 2, 3, 4, 5], [37], [43], [58]]), {"ana": 10, "bob": 6})
    assert result.taken() == {"bob": (1, 2, 3, 4, 5)}
    assert result.table.rows[0] == (6, 10)


def test_resolve_turn_asks_the_low_card_player_with_the_table_of_that_moment() -> None:
    seen: list[LowCard] = []

    def choose(choice: LowCard) -> int:
        seen.append(choice)
        return 1

    resolve_turn(Table.of([[12], [37], [43], [58]]), {"ana": 5, "bob": 50}, choose)
    assert [(c.player, c.card, c.table.last_cards) for c in seen] == [
        ("ana", 5, (12, 37, 43, 58))
    ]


def test_resolve_turn_has_at_most_one_low_card() -> None:
    # Once the lowest card starts a row, every higher card fits somewhere.
    asked: list[str] = []

    def choose(choice: LowCard) -> int:
        asked.append(choice.player)
        return 2

    resolve_turn(Table.of([[20, 30], [40, 41, 42], [50], [60]]), {"ana": 3, "bob": 7}, choose)
    assert asked == ["ana"]


@pytest.mark.parametrize("count", [0, 11, 40])
def test_resolve_turn_refuses_more_plays_than_ten_players_or_none(count: int) -> None:
    # Issue 9: resolve_turn accepted 0, 11 or 40 plays; a turn has one card per player and the
    # game takes at most ten players (rule setup.players).
    table = Table.of([[1], [2], [3], [4]])
    plays = {f"p{n}": 10 + n for n in range(count)}
    with pytest.raises(MalformedInputError) as caught:
        resolve_turn(table, plays)
    assert caught.value.rule == "setup.players"


def test_resolve_turn_accepts_one_to_ten_plays() -> None:
    table = Table.of([[1], [2], [3], [4]])
    for count in (1, 10):
        result = resolve_turn(table, {f"p{n}": 10 + n for n in range(count)})
        assert len(result.placements) == count


def test_resolve_turn_refuses_a_table_built_with_bad_rows() -> None:
    with pytest.raises(MalformedInputError):
        resolve_turn(Table(((1, 2, 3, 4, 5, 6), (20,), (30,), (40,))), {"ana": 7})
