"""The cards: 1 to 104, each once, and their bull heads read from the number printed on them."""

from __future__ import annotations

import pytest

from take5rules import _kernel
from take5rules.cards import bull_heads, card, cards, deck, total_bull_heads
from take5rules.errors import MalformedInputError, Where

DECK = range(1, 105)


def _heads_by_digits(value: int) -> int:
    """55: 7; another double (11 ... 99): 5; ends in 0: 3; ends in 5: 2; otherwise 1."""
    digits = str(value)
    double = len(digits) == 2 and digits[0] == digits[1]
    if double:
        return 7 if digits[0] == "5" else 5
    return {"0": 3, "5": 2}.get(digits[-1], 1)


def test_deck_is_every_card_from_1_to_104_once() -> None:
    assert deck() == tuple(DECK)


@pytest.mark.parametrize("value", list(DECK))
def test_bull_heads_of_every_card(value: int) -> None:
    assert bull_heads(value) == _heads_by_digits(value)


def test_the_kernels_bull_heads_are_the_rulebooks_on_every_card() -> None:
    """``_kernel.heads`` itself, not only the table of bull heads built from it at import.

    ``bull_heads`` reads ``_kernel.HEADS``, which ``_kernel`` fills from ``heads`` once, when it
    is imported: a mutant of ``heads`` installed after the import would never reach that table,
    so ``heads`` is checked directly, and the table against the same digits.
    """
    assert [_kernel.heads(value) for value in DECK] == [_heads_by_digits(v) for v in DECK]
    assert list(_kernel.HEADS) == [0, *(_heads_by_digits(value) for value in DECK)]


def test_bull_heads_of_the_deck_add_up_to_171() -> None:
    assert total_bull_heads(DECK) == 171
    assert total_bull_heads([]) == 0
    assert total_bull_heads([55, 55 - 44, 100, 5]) == 7 + 5 + 3 + 2


@pytest.mark.parametrize("value", [1, 2, 103, 104])
def test_card_accepts_1_to_104(value: int) -> None:
    assert card(value) == value


@pytest.mark.parametrize("value", [0, -1, 105, 1000])
def test_card_rejects_numbers_outside_1_to_104(value: int) -> None:
    with pytest.raises(MalformedInputError) as caught:
        card(value, Where(round=2, player="ana"))
    assert caught.value.rule == "cards.deck"
    assert caught.value.params["value"] == value
    assert (caught.value.where.round, caught.value.where.player) == (2, "ana")


@pytest.mark.parametrize("value", [True, False, 7.0, "7", None, [7]])
def test_card_rejects_what_is_not_a_whole_number(value: object) -> None:
    with pytest.raises(MalformedInputError) as caught:
        card(value, Where(turn=3))
    assert caught.value.rule == "cards.deck"
    assert caught.value.where.turn == 3


def test_cards_keeps_the_order_and_rejects_a_card_twice() -> None:
    assert cards([104, 1, 55]) == (104, 1, 55)
    assert cards(iter([3, 2])) == (3, 2)
    assert cards([]) == ()
    with pytest.raises(MalformedInputError) as caught:
        cards([4, 9, 4], Where(player="bob"))
    assert (caught.value.rule, caught.value.params["value"]) == ("cards.deck", 4)
    assert caught.value.where.player == "bob"


@pytest.mark.parametrize("values", ["12", b"12", 12, None])
def test_cards_rejects_what_is_not_a_collection_of_cards(values: object) -> None:
    with pytest.raises(MalformedInputError) as caught:
        cards(values, Where(round=1))  # type: ignore[arg-type]
    assert caught.value.rule == "cards.deck"
    assert caught.value.where.round == 1


def test_cards_rejects_a_bad_card_inside_naming_where() -> None:
    with pytest.raises(MalformedInputError) as caught:
        cards([3, 0], Where(player="cyd"))
    assert caught.value.where.player == "cyd"


@pytest.mark.parametrize("value", ["7", 7.0, None])
def test_card_error_shows_the_value_given(value: object) -> None:
    with pytest.raises(MalformedInputError) as caught:
        card(value)
    assert caught.value.params["value"] == value
    with pytest.raises(MalformedInputError) as caught:
        cards(value)  # type: ignore[arg-type]
    assert caught.value.params["value"] == value
