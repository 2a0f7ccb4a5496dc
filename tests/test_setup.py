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


# --- check_deal's fast path: plain deals (lists of ints) checked in one pass -------------------

#: Valid plain deals, each with the table and hands check_deal must return (written out here).
PLAIN_DEALS = [
    # a fresh deal of four players holding both ends of the deck, 1 and 104
    ([[101], [102], [103], [104]],
     {"ana": list(range(1, 11)), "bob": list(range(11, 21)), "cyd": list(range(21, 31)),
      "dan": list(range(31, 41))}, ["ana", "bob", "cyd", "dan"], None, True,
     ((101,), (102,), (103,), (104,))),
    # the tactics deck of two players is 1 to 24, and 24 is in play
    ((21, 22, 23, 24), None, ["ana", "bob"], Rules(Variant.TACTICS), True,
     ((21,), (22,), (23,), (24,))),
    # mid-round: rows of five and of one, hands of one card (as tuples)
    ([[50, 51, 52, 53, 54], [60], [70, 71], [80]], {"bob": (2,), "ana": (1,)}, ["ana", "bob"],
     None, False, ((50, 51, 52, 53, 54), (60,), (70, 71), (80,))),
    # mid-round, hands of ten (not fresh: the rows have grown)
    ([[95, 96], [97], [98], [99]],
     {"ana": list(range(1, 11)), "bob": list(range(11, 21))}, ["ana", "bob"], None, False,
     ((95, 96), (97,), (98,), (99,))),
]


def _plain_case(
    case: tuple[object, ...],
) -> tuple[list[list[int]], dict[str, list[int]], list[str], Rules | None, bool, tuple[object]]:
    rows, hands, seats, rules, fresh, expected = case
    if hands is None:  # the tactics deal: ten each from 1 to 20
        hands = {"ana": list(range(1, 11)), "bob": list(range(11, 21))}
    if type(rows) is tuple:
        rows = [[value] for value in rows]
    return rows, hands, seats, rules, fresh, expected  # type: ignore[return-value]


@pytest.mark.parametrize("case", range(len(PLAIN_DEALS)))
def test_check_deal_takes_a_plain_deal_without_the_general_checks(
    case: int, monkeypatch: pytest.MonkeyPatch,
) -> None:
    # A plain valid deal is answered by the fast path: the general card and row checks (which
    # name problems) are not needed, so they are made to fail here.
    import take5rules.setup as setup_module

    def refuse(*args: object, **kwargs: object) -> None:
        raise AssertionError("a plain valid deal went through the general checks")

    rows, hands, seats, rules, fresh, expected = _plain_case(PLAIN_DEALS[case])
    monkeypatch.setattr(setup_module, "cards", refuse)
    monkeypatch.setattr(Table, "of", refuse)
    table, checked = check_deal(rows, hands, seats, rules, fresh=fresh, round=1)
    assert type(table) is Table and table.rows == expected
    assert list(checked.items()) == [(seat, tuple(hands[seat])) for seat in seats]
    again, _ = check_deal(table, hands, seats, rules, fresh=fresh, round=1)
    assert again is table


def _outcome(*args: object, **kwargs: object) -> object:
    try:
        table, hands = check_deal(*args, **kwargs)  # type: ignore[arg-type]
    except (MalformedInputError, RulesError) as error:
        return type(error), error.rule, str(error), error.where, dict(error.params)
    return table.rows, list(hands.items())


def _mutants(rows: list[list[int]], hands: dict[str, list[int]]) -> list[tuple[object, object]]:
    """The deal broken (or kept valid) one way at a time: each card replaced, moved, retyped."""
    broken: list[tuple[object, object]] = []
    slots = [(row, i) for row in rows for i in range(len(row))]
    slots += [(hand, i) for hand in hands.values() for i in range(len(hand))]
    for place, (holder, index) in enumerate(slots):
        for value in (0, 1, 24, 25, 104, 105, -3, 10**30, True, 7.0, "7", None,
                      holder[index] + 1, slots[(place + 1) % len(slots)][0][0]):
            old = holder[index]
            holder[index] = value  # type: ignore[assignment]
            broken.append(([list(row) for row in rows], {p: list(h) for p, h in hands.items()}))
            holder[index] = old
    for row in range(len(rows)):
        grown = [list(r) for r in rows]
        grown[row] = grown[row] + [grown[row][-1] + 1]
        broken.append((grown, hands))
        broken.append(([list(r) for r in rows[:row] + rows[row + 1:]], hands))
        broken.append(([*rows[:row], [], *rows[row + 1:]], hands))
        broken.append(([*rows[:row], set(rows[row]), *rows[row + 1:]], hands))
        broken.append(([*rows[:row], [rows[row][0], rows[row][0] - 1], *rows[row + 1:]], hands))
    for player in hands:
        broken.append((rows, {p: h[:-1] if p == player else h for p, h in hands.items()}))
        broken.append((rows, {p: [*h, 100] if p == player else h for p, h in hands.items()}))
        broken.append((rows, {p: h for p, h in hands.items() if p != player}))
        broken.append((rows, {p: set(h) if p == player else h for p, h in hands.items()}))
        broken.append((rows, {p: "abc" if p == player else h for p, h in hands.items()}))
    broken.append((rows, {**hands, "zed": [100]}))
    broken.append((rows, list(hands.items())))
    broken.append((tuple(map(tuple, rows)), hands))
    broken.append((rows, {p: tuple(h) for p, h in hands.items()}))
    return broken


@pytest.mark.parametrize("fresh", [True, False])
@pytest.mark.parametrize("variant", [Variant.STANDARD, Variant.TACTICS])
def test_check_deal_fast_path_answers_as_the_general_checks(
    fresh: bool, variant: Variant, monkeypatch: pytest.MonkeyPatch,
) -> None:
    # Every deal, valid or broken, gets the same answer (the same table and hands, or the same
    # error, rule, message, place and parameters) with the fast path as without it.
    import take5rules.setup as setup_module

    seats = ["ana", "bob"]
    rows = [[21], [22], [23], [24]]
    hands = {"ana": list(range(1, 11)), "bob": list(range(11, 21))}
    rules = Rules(variant)
    deals = [(rows, hands), *_mutants(rows, hands)]
    fast = [_outcome(r, h, seats, rules, fresh=fresh, round=2) for r, h in deals]
    monkeypatch.setattr(setup_module, "_plain_deal", lambda *args: None)
    slow = [_outcome(r, h, seats, rules, fresh=fresh, round=2) for r, h in deals]
    assert fast == slow
    assert sum(isinstance(answer, tuple) and type(answer[0]) is tuple
               for answer in slow) >= 2  # some deals are valid


@pytest.mark.parametrize(
    ("rows", "hands", "rule", "card"),
    [
        (ROWS4, {"ana": [105], "bob": [2]}, "cards.deck", None),
        ([[50, 51, 52, 53, 54, 55], [60], [70], [80]], {"ana": [1], "bob": [2]},
         "table.sixth-card", None),
        ([[50], [], [70], [80]], {"ana": [1], "bob": [2]}, "table.low-card", None),
        ([[50], [50], [70], [80]], {"ana": [1], "bob": [2]}, "cards.deck", None),
        (ROWS4, {"ana": [1, 1], "bob": [2, 3]}, "cards.deck", None),
        ([[21], [22], [23], [24]], {"ana": [1], "bob": [25]}, "variants.tactics", 25),
    ],
)
def test_check_deal_refuses_plain_deals_at_each_limit(
    rows: list[list[int]], hands: dict[str, list[int]], rule: str, card: int | None,
) -> None:
    with pytest.raises(MalformedInputError) as caught:
        check_deal(rows, hands, ["ana", "bob"], Rules(Variant.TACTICS) if card else None)
    assert caught.value.rule == rule
    assert caught.value.where.card == card


@pytest.mark.parametrize("size", [1, 10])
def test_check_deal_takes_a_deal_that_is_not_plain(size: int) -> None:
    # Other containers (a read-only mapping, ranges, iterators) go through the general checks,
    # which accept hands of one to ten cards as the fast path does.
    from types import MappingProxyType

    hands = MappingProxyType({"ana": range(1, size + 1), "bob": range(11, size + 11)})
    table, checked = check_deal(iter([iter([50]), (60,), [70], [80]]), hands, ["ana", "bob"])
    assert table.rows == ((50,), (60,), (70,), (80,))
    assert checked == {"ana": tuple(range(1, size + 1)), "bob": tuple(range(11, size + 11))}
