from __future__ import annotations

from collections import Counter

import pytest

from take5rules.cards import bull_heads, card, cards, deck, total_bull_heads
from take5rules.errors import MalformedInputError


def test_deck_is_1_to_104_once_each() -> None:
    assert deck() == tuple(range(1, 105))


def test_bull_heads_distribution_matches_the_publisher() -> None:
    # 1 card of 7, 8 of 5, 10 of 3, 9 of 2, 76 of 1: 171 in all.
    assert Counter(bull_heads(c) for c in deck()) == {7: 1, 5: 8, 3: 10, 2: 9, 1: 76}
    assert total_bull_heads(deck()) == 171


@pytest.mark.parametrize(
    ("value", "heads"),
    [(55, 7), (11, 5), (99, 5), (10, 3), (100, 3), (5, 2), (95, 2), (1, 1), (104, 1), (73, 1)],
)
def test_bull_heads_of_each_class(value: int, heads: int) -> None:
    assert bull_heads(value) == heads


def test_bull_heads_of_the_sixth_card_example() -> None:
    assert total_bull_heads([51, 55, 61, 68, 73]) == 11


@pytest.mark.parametrize("bad", [0, 105, -1, "7", 7.0, True, None, [7]])
def test_card_rejects_non_cards_naming_the_deck_rule(bad: object) -> None:
    with pytest.raises(MalformedInputError) as caught:
        card(bad)
    assert caught.value.rule == "cards.deck"


def test_cards_rejects_duplicates() -> None:
    with pytest.raises(MalformedInputError, match="appears twice"):
        cards([5, 6, 5])


def test_cards_rejects_a_string() -> None:
    with pytest.raises(MalformedInputError):
        cards("123")


@pytest.mark.parametrize("bad", [0, 105, "55"])
def test_bull_heads_rejects_bad_input(bad: object) -> None:
    with pytest.raises(MalformedInputError):
        bull_heads(bad)  # type: ignore[arg-type]
