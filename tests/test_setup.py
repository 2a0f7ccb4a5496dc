from __future__ import annotations

import pytest

from take5rules.errors import RulesError
from take5rules.setup import cards_in_play, check_players, deal
from take5rules.variants import Rules, Variant


def test_check_players_accepts_2_to_10() -> None:
    assert check_players(["a", "b"], Rules()) == ("a", "b")
    assert len(check_players([str(n) for n in range(10)], Rules())) == 10


@pytest.mark.parametrize(
    ("count", "variant"),
    [(1, Variant.STANDARD), (11, Variant.STANDARD), (11, Variant.TACTICS), (7, Variant.LOGIC),
     (6, Variant.TOURNAMENT), (0, Variant.LOGIC)],
)
def test_check_players_rejects_counts_the_variant_forbids(count: int, variant: Variant) -> None:
    with pytest.raises(RulesError) as caught:
        check_players([f"p{n}" for n in range(count)], Rules(variant))
    assert caught.value.rule == "setup.players"


@pytest.mark.parametrize("players", [["a", "a"], ["a", ""], ["a", 3], "ab", None])
def test_check_players_rejects_bad_names(players: object) -> None:
    with pytest.raises(RulesError):
        check_players(players, Rules())  # type: ignore[arg-type]


def test_cards_in_play_per_variant() -> None:
    assert len(cards_in_play(Rules(), 3)) == 104
    assert cards_in_play(Rules(Variant.TACTICS), 3)[-1] == 34


def test_deal_ten_each_four_rows_rest_aside() -> None:
    dealt = deal(list(range(1, 105)), ["a", "b", "c", "d"])
    assert [len(hand) for hand in dealt.hands.values()] == [10, 10, 10, 10]
    assert dealt.rows == (41, 42, 43, 44)
    assert len(dealt.aside) == 60
    assert sorted([*dealt.aside, *dealt.rows, *(c for h in dealt.hands.values() for c in h)]) == (
        list(range(1, 105))
    )


def test_deal_refuses_too_few_cards() -> None:
    with pytest.raises(RulesError) as caught:
        deal(list(range(1, 24)), ["a", "b"])
    assert caught.value.rule == "setup.deal"


def test_deal_refuses_a_duplicate_name() -> None:
    # Issue 9: deal(..., ["ana", "ana", "bob"]) dealt 30 cards and dropped one of ana's hands.
    with pytest.raises(RulesError) as caught:
        deal(list(range(1, 105)), ["ana", "ana", "bob"])
    assert caught.value.rule == "setup.players"
