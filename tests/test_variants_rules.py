"""The variants' rules at their edges: the logic draft, the tournament, the agreed threshold.

A logic draft with n players lays out the cards 1 to 10n + 4, makes exactly 10n picks in seat
order, and leaves exactly 4 cards for the rows. A tournament of n players has the games 1 to n.
"""

from __future__ import annotations

import pytest

from take5rules.errors import IllegalMoveError, MalformedInputError, RulesError, Where
from take5rules.variants import (
    Rules,
    Variant,
    agreed_threshold,
    draft,
    next_drafter,
    tournament_hands,
)

HAND = 10
ROWS = 4


def _in_seat_order(players: list[str], cards: list[int]) -> list[tuple[str, int]]:
    return [(players[k % len(players)], card) for k, card in enumerate(cards)]


@pytest.mark.parametrize("count", [2, 3, 6])
def test_draft_of_10n_picks_leaves_the_four_highest_untaken(count: int) -> None:
    players = [f"p{n}" for n in range(count)]
    pool = list(range(1, HAND * count + ROWS + 1))
    result = draft(pool, players, _in_seat_order(players, pool[:-ROWS]))
    assert result.rows == tuple(pool[-ROWS:])
    for seat, player in enumerate(players):
        assert result.hands[player] == tuple(pool[seat:HAND * count:count])
    assert list(result.hands) == players


def test_draft_rows_are_whatever_four_cards_nobody_took() -> None:
    players = ["ana", "bob"]
    cards = list(range(24, 4, -1))  # the players take 24 down to 5; 1 to 4 stay
    result = draft(range(1, 25), players, _in_seat_order(players, cards))
    assert result.rows == (1, 2, 3, 4)
    assert result.hands["ana"] == tuple(range(24, 4, -2))


def test_draft_rejects_a_draft_of_the_whole_deck() -> None:
    """Twenty picks from the 104 cards leave 84, not the four that start the rows."""
    players = ["ana", "bob"]
    with pytest.raises(MalformedInputError) as caught:
        draft(range(1, 105), players, _in_seat_order(players, list(range(1, 21))))
    assert caught.value.rule == "variants.logic"


def test_draft_rejects_a_pool_one_card_too_big() -> None:
    players = ["ana", "bob"]
    with pytest.raises(MalformedInputError) as caught:
        draft(range(1, 26), players, _in_seat_order(players, list(range(1, 21))))
    assert caught.value.rule == "variants.logic"


def test_draft_rejects_a_pick_of_one_of_the_last_four_cards() -> None:
    players = ["ana", "bob"]
    with pytest.raises(IllegalMoveError) as caught:
        draft(range(1, 25), players, _in_seat_order(players, list(range(1, 22))))
    assert caught.value.rule == "variants.logic"
    assert caught.value.where.card == 21


def test_draft_rejects_one_pick_too_few() -> None:
    players = ["ana", "bob", "cyd"]
    with pytest.raises(MalformedInputError) as caught:
        draft(range(1, 35), players, _in_seat_order(players, list(range(1, 30))))
    assert caught.value.rule == "variants.logic"
    assert caught.value.params["count"] == 29
    assert caught.value.params["expected"] == 30


def test_draft_rejects_a_short_pool_even_with_ten_picks_each() -> None:
    """23 cards for two players: the 20th pick would leave three cards for four rows."""
    players = ["ana", "bob"]
    with pytest.raises(IllegalMoveError) as caught:
        draft(range(1, 24), players, _in_seat_order(players, list(range(1, 21))))
    assert caught.value.rule == "variants.logic"
    assert caught.value.where.card == 20


def test_draft_rejects_an_empty_draft() -> None:
    with pytest.raises(MalformedInputError):
        draft(range(1, 25), ["ana", "bob"], [])


@pytest.mark.parametrize("value", [0, 105, "7", None])
def test_draft_rejects_a_pick_that_is_not_a_card(value: object) -> None:
    with pytest.raises(MalformedInputError) as caught:
        draft(range(1, 25), ["ana", "bob"], [("ana", value)])  # type: ignore[list-item]
    assert caught.value.rule == "cards.deck"


def test_draft_names_the_pick_out_of_turn() -> None:
    players = ["ana", "bob", "cyd"]
    picks = _in_seat_order(players, list(range(1, 31)))
    picks[4] = ("ana", 5)  # pick 5 belongs to bob
    with pytest.raises(IllegalMoveError) as caught:
        draft(range(1, 35), players, picks)
    assert caught.value.params == {"number": 5, "expected": "bob", "player": "ana"}


def test_next_drafter_starts_with_the_first_seat_and_goes_round() -> None:
    seats = ["ana", "bob", "cyd", "dan"]
    assert [next_drafter(seats, k) for k in range(9)] == [*seats, *seats, "ana"]


@pytest.mark.parametrize("count", [2, 3, 5])
def test_tournament_hands_pass_to_the_left_each_game(count: int) -> None:
    players = [f"p{n}" for n in range(count)]
    sheets = {player: (seat + 1,) for seat, player in enumerate(players)}
    for game in range(1, count + 1):
        hands = tournament_hands(sheets, players, game)
        for seat, player in enumerate(players):
            # in game g the sheet of the seat g - 1 places to the right
            assert hands[player] == sheets[players[(seat - (game - 1)) % count]]
    # every player holds every sheet once
    for player in players:
        held = {tournament_hands(sheets, players, game)[player] for game in range(1, count + 1)}
        assert held == set(sheets.values())


@pytest.mark.parametrize(("count", "game"), [(2, 0), (2, 3), (5, 0), (5, 6), (3, -1)])
def test_tournament_hands_rejects_a_game_outside_1_to_n(count: int, game: int) -> None:
    players = [f"p{n}" for n in range(count)]
    sheets = {player: (seat + 1,) for seat, player in enumerate(players)}
    with pytest.raises(RulesError) as caught:
        tournament_hands(sheets, players, game)
    assert caught.value.rule == "variants.tournament"


@pytest.mark.parametrize("game", [True, "1", 1.0])
def test_tournament_hands_rejects_a_game_that_is_not_a_number(game: object) -> None:
    with pytest.raises(RulesError):
        tournament_hands({"a": (1,), "b": (2,)}, ["a", "b"], game)  # type: ignore[arg-type]


@pytest.mark.parametrize("value", [1, 2, 66, 1000])
def test_agreed_threshold_accepts_every_whole_number_from_1(value: int) -> None:
    assert agreed_threshold(value) == value
    assert Rules(threshold=value).threshold == value


@pytest.mark.parametrize("value", [0, -1, True, False, 1.0, "1", None])
def test_agreed_threshold_rejects_what_is_not_a_whole_number_from_1(value: object) -> None:
    with pytest.raises(RulesError) as caught:
        agreed_threshold(value)
    assert caught.value.rule == "variants.threshold"


@pytest.mark.parametrize(
    ("variant", "drafted", "reduced"),
    [
        (Variant.STANDARD, False, False),
        (Variant.TACTICS, False, True),
        (Variant.LOGIC, True, True),
        (Variant.TOURNAMENT, True, True),
    ],
)
def test_rules_say_how_hands_are_formed(variant: Variant, drafted: bool, reduced: bool) -> None:
    rules = Rules(variant)
    assert (rules.drafted, rules.reduced_deck) == (drafted, reduced)


@pytest.mark.parametrize("name", ["standard", "tactics", "logic", "tournament"])
def test_variant_parse_knows_every_variant_by_name(name: str) -> None:
    assert Variant.parse(name).value == name
    assert Rules(name).variant is Variant.parse(name)  # type: ignore[arg-type]


@pytest.mark.parametrize("name", ["Logic", "", "profi", None])
def test_variant_parse_rejects_other_names(name: object) -> None:
    with pytest.raises(RulesError) as caught:
        Variant.parse(name)
    assert caught.value.rule == "variant-name"


def test_draft_names_the_repeated_player_under_the_players_rule() -> None:
    with pytest.raises(RulesError) as caught:
        draft(range(1, 35), ["ana", "bob", "bob"], [])
    assert caught.value.rule == "setup.players"
    assert caught.value.params["value"] == "bob"


def test_draft_error_counts_the_picks_made() -> None:
    with pytest.raises(MalformedInputError) as caught:
        draft(range(1, 25), ["ana", "bob"], [])
    assert caught.value.params == {"count": 0, "players": 2, "expected": 20}


def test_variant_parse_error_lists_the_variants() -> None:
    with pytest.raises(RulesError) as caught:
        Variant.parse("profi")
    assert caught.value.params == {"value": "profi",
                                   "choices": "'standard', 'tactics', 'logic', 'tournament'"}


@pytest.mark.parametrize("taken", [1, 30])
def test_draft_rejects_a_card_not_face_up_naming_the_pick(taken: int) -> None:
    """1 is already taken by the first pick; 30 was never in the pool of 1 to 24."""
    players = ["ana", "bob"]
    picks = _in_seat_order(players, list(range(1, 21)))
    picks[2] = ("ana", taken)
    with pytest.raises(IllegalMoveError) as caught:
        draft(range(1, 25), players, picks)
    assert caught.value.rule == "variants.logic"
    assert caught.value.where == Where(round=1, player="ana", card=picks[2][1])


def test_draft_errors_happen_in_round_1() -> None:
    players = ["ana", "bob"]
    with pytest.raises(IllegalMoveError) as caught:
        draft(range(1, 25), players, [("bob", 3)])
    assert caught.value.where == Where(round=1, player="bob", card=3)
    with pytest.raises(MalformedInputError) as unfinished:
        draft(range(1, 25), players, [("ana", 3)])
    assert unfinished.value.where == Where(round=1)
