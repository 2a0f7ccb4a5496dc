from __future__ import annotations

import pytest

from take5rules.errors import MalformedInputError, RulesError, Where
from take5rules.setup import Deal, cards_in_play, check_deal, check_players, deal
from take5rules.table import Table
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


ROWS4 = [[50], [60], [70], [80]]


def test_check_deal_returns_the_checked_table_and_hands_in_seat_order() -> None:
    table, hands = check_deal(ROWS4, {"bob": [3, 4], "ana": (2, 1)}, ["ana", "bob"])
    assert table == Table.of(ROWS4)
    assert list(hands.items()) == [("ana", (2, 1)), ("bob", (3, 4))]


def test_check_deal_takes_a_table_and_hands_of_one_card() -> None:
    # a round taken up at its last turn: one card a hand, the rows as they are
    table = Table.of([[50, 51], [60], [70], [80]])
    assert check_deal(table, {"ana": [1], "bob": [2]}, ["ana", "bob"]) == (
        table, {"ana": (1,), "bob": (2,)})


def test_check_deal_checks_the_seats_for_the_variant() -> None:
    # seven players may play the standard game but not the logic variant (2 to 6)
    seats = [f"p{n}" for n in range(7)]
    hands = {seat: [n + 1] for n, seat in enumerate(seats)}
    check_deal(ROWS4, hands, seats)
    with pytest.raises(RulesError) as caught:
        check_deal(ROWS4, hands, seats, Rules(Variant.LOGIC))
    assert caught.value.rule == "setup.players"


def test_check_deal_errors_say_what_is_wrong() -> None:
    def params(*args: object, **kwargs: object) -> dict[str, object]:
        with pytest.raises(MalformedInputError) as caught:
            check_deal(*args, **kwargs)  # type: ignore[arg-type]
        return dict(caught.value.params)

    assert params([[50], [60, 61], [70], [80]], {"ana": [1], "bob": [2]}, ["ana", "bob"],
                  fresh=True) == {"row": 2, "count": 2}
    assert params(ROWS4, "hands", ["ana", "bob"]) == {"value": "hands"}
    assert params(ROWS4, {"ana": [1], "bob": [2], 7: [3]}, ["ana", "bob"]) == {"player": 7}
    assert params(ROWS4, {"ana": [1]}, ["ana", "bob"]) == {"player": "bob"}
    assert params(ROWS4, {"ana": [1], "bob": [1]}, ["ana", "bob"]) == {"value": 1}
    assert params(ROWS4, {"ana": [1], "bob": [2]}, ["ana", "bob"], fresh=True) == {
        "player": "ana", "count": 1}
    assert params(ROWS4, {"ana": [1, 3], "bob": [2]}, ["ana", "bob"]) == {"sizes": "2, 1"}
    assert params(ROWS4, {"ana": [1], "bob": [2]}, ["ana", "bob"], Rules(Variant.TACTICS)) == {
        "value": 50, "count": 2, "variant": "tactics", "highest": 24}
    with pytest.raises(MalformedInputError) as stranger:
        check_deal(ROWS4, {"ana": [1], "bob": [2], 7: [3]}, ["ana", "bob"], round=4)  # type: ignore[dict-item]
    assert stranger.value.where == Where(4)


def test_check_deal_accepts_a_fresh_deal_of_the_tactics_deck() -> None:
    # Two players: the cards 1 to 24, ten each and four rows, every one dealt.
    hands = {"ana": list(range(1, 11)), "bob": list(range(11, 21))}
    table, _ = check_deal([[21], [22], [23], [24]], hands, ["ana", "bob"],
                          Rules(Variant.TACTICS), fresh=True, round=1)
    assert table.last_cards == (21, 22, 23, 24)


@pytest.mark.parametrize(
    ("rows", "hands", "rules", "fresh", "rule", "player", "card"),
    [
        # a card twice: on the table and in a hand, or in two hands
        (ROWS4, {"ana": [50], "bob": [2]}, None, False, "cards.deck", "ana", 50),
        (ROWS4, {"ana": [2], "bob": [2]}, None, False, "cards.deck", "bob", 2),
        # not a card
        (ROWS4, {"ana": [0], "bob": [2]}, None, False, "cards.deck", "ana", None),
        (ROWS4, {"ana": [True], "bob": [2]}, None, False, "cards.deck", "ana", None),
        # three rows, a row not ascending
        (ROWS4[:3], {"ana": [1], "bob": [2]}, None, False, "setup.deal", None, None),
        ([[60, 50], [61], [70], [80]], {"ana": [1], "bob": [2]}, None, False,
         "table.ascending", None, None),
        # a fresh round: one card a row, ten a hand
        ([[50, 51], [60], [70], [80]], {"ana": [1], "bob": [2]}, None, True, "setup.deal",
         None, None),
        (ROWS4, {"ana": [1], "bob": [2]}, None, True, "setup.deal", "ana", None),
        # hands of different sizes, or empty
        (ROWS4, {"ana": [1, 3], "bob": [2]}, None, False, "setup.deal", None, None),
        (ROWS4, {"ana": [], "bob": []}, None, False, "setup.deal", None, None),
        (ROWS4, {"ana": list(range(1, 12)), "bob": list(range(12, 23))}, None, False,
         "setup.deal", None, None),
        # players: a stranger, a seat without a hand
        (ROWS4, {"ana": [1], "bob": [2], "cyd": [3]}, None, False, "setup.players", "cyd",
         None),
        (ROWS4, {"ana": [1]}, None, False, "setup.deal", "bob", None),
        # the reduced deck of two players is 1 to 24: 50 on the table, 30 in a hand
        (ROWS4, {"ana": [1], "bob": [2]}, Rules(Variant.TACTICS), False, "variants.tactics",
         None, 50),
        ([[21], [22], [23], [24]], {"ana": [1], "bob": [30]}, Rules(Variant.LOGIC), False,
         "variants.tactics", "bob", 30),
    ],
)
def test_check_deal_refuses_what_the_rules_forbid(
    rows: list[list[int]], hands: dict[str, list[int]], rules: Rules | None, fresh: bool,
    rule: str, player: str | None, card: int | None,
) -> None:
    with pytest.raises(MalformedInputError) as caught:
        check_deal(rows, hands, ["ana", "bob"], rules, fresh=fresh, round=3)
    assert caught.value.rule == rule
    assert caught.value.where.round == 3
    assert caught.value.where.player == player
    assert caught.value.where.card == card


@pytest.mark.parametrize("players", [["ana"], ["ana", "ana"], "ab", ["ana", ""]])
def test_check_deal_checks_the_seats(players: object) -> None:
    with pytest.raises(RulesError) as caught:
        check_deal(ROWS4, {"ana": [1]}, players)  # type: ignore[arg-type]
    assert caught.value.rule == "setup.players"


@pytest.mark.parametrize("hands", [[("ana", [1])], None, "ana"])
def test_check_deal_refuses_hands_that_are_not_a_mapping(hands: object) -> None:
    with pytest.raises(MalformedInputError) as caught:
        check_deal(ROWS4, hands, ["ana", "bob"])  # type: ignore[arg-type]
    assert caught.value.rule == "setup.deal"


def test_deal_and_draft_are_one_type() -> None:
    from take5rules.variants import Draft, draft

    drafted = draft(range(1, 25), ["ana", "bob"],
                    [("ana" if k % 2 == 0 else "bob", k + 1) for k in range(20)])
    assert Draft is Deal
    assert isinstance(drafted, Deal)
    assert drafted.aside == ()
