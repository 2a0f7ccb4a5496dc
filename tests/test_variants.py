from __future__ import annotations

import pytest

from take5rules.errors import IllegalMoveError, MalformedInputError, RulesError
from take5rules.variants import (
    Rules,
    Variant,
    agreed_threshold,
    draft,
    next_drafter,
    tactics_deck,
    tournament_hands,
    tournament_over,
)


def test_rules_default_to_the_standard_game_at_66() -> None:
    assert Rules() == Rules(Variant.STANDARD, 66)


def test_rules_are_immutable() -> None:
    with pytest.raises(AttributeError):
        Rules().threshold = 10  # type: ignore[misc]


def test_rules_parse_a_variant_name() -> None:
    assert Rules("logic").variant is Variant.LOGIC  # type: ignore[arg-type]
    with pytest.raises(RulesError):
        Rules("profi")  # type: ignore[arg-type]


@pytest.mark.parametrize("value", [1, 30, 66, 100])
def test_agreed_threshold_accepts_positive_integers(value: int) -> None:
    assert agreed_threshold(value) == value


@pytest.mark.parametrize("value", [0, -5, 66.0, "66", True, None])
def test_agreed_threshold_rejects_others(value: object) -> None:
    with pytest.raises(RulesError) as caught:
        agreed_threshold(value)
    assert caught.value.rule == "variants.threshold"


@pytest.mark.parametrize(("players", "highest"), [(2, 24), (3, 34), (4, 44), (10, 104)])
def test_tactics_deck_is_1_to_10n_plus_4(players: int, highest: int) -> None:
    assert tactics_deck(players) == tuple(range(1, highest + 1))


@pytest.mark.parametrize("players", [1, 11, 0, "3"])
def test_tactics_deck_rejects_impossible_player_counts(players: object) -> None:
    with pytest.raises(RulesError):
        tactics_deck(players)  # type: ignore[arg-type]


def _alternating(players: list[str], pool: range) -> list[tuple[str, int]]:
    return [(players[k % len(players)], card) for k, card in enumerate(pool)][: 10 * len(players)]


def test_draft_in_seat_order_leaves_four_cards_for_the_rows() -> None:
    result = draft(range(1, 35), ["ana", "bob", "cyd"], _alternating(["ana", "bob", "cyd"],
                                                                    range(1, 35)))
    assert result.rows == (31, 32, 33, 34)
    assert result.hands["bob"] == (2, 5, 8, 11, 14, 17, 20, 23, 26, 29)


def test_draft_rejects_a_pick_out_of_turn() -> None:
    picks = _alternating(["ana", "bob"], range(1, 25))
    picks[3] = ("ana", picks[3][1])
    with pytest.raises(IllegalMoveError) as caught:
        draft(range(1, 25), ["ana", "bob"], picks)
    assert caught.value.rule == "variants.logic"


def test_draft_rejects_a_card_taken_twice_or_not_face_up() -> None:
    picks = _alternating(["ana", "bob"], range(1, 25))
    picks[1] = ("bob", 1)
    with pytest.raises(IllegalMoveError):
        draft(range(1, 25), ["ana", "bob"], picks)
    picks = _alternating(["ana", "bob"], range(1, 25))
    picks[1] = ("bob", 99)
    with pytest.raises(IllegalMoveError):
        draft(range(1, 25), ["ana", "bob"], picks)


def test_draft_rejects_an_unfinished_draft() -> None:
    with pytest.raises(MalformedInputError, match="picks"):
        draft(range(1, 25), ["ana", "bob"], _alternating(["ana", "bob"], range(1, 25))[:-1])


def test_next_drafter_goes_round_the_table() -> None:
    assert [next_drafter(["a", "b", "c"], k) for k in range(7)] == list("abcabca")


def test_tournament_hands_pass_left_until_everyone_played_every_hand() -> None:
    players = ["ana", "bob", "cyd"]
    sheets = {"ana": (1,), "bob": (2,), "cyd": (3,)}
    games = [tournament_hands(sheets, players, game) for game in (1, 2, 3)]
    assert games[0] == sheets
    assert games[1]["bob"] == sheets["ana"]  # ana's sheet went to her left-hand neighbour
    for player in players:
        assert sorted(hand for game in games for hand in [game[player]]) == [(1,), (2,), (3,)]


@pytest.mark.parametrize("game", [0, 4])
def test_tournament_hands_rejects_a_game_out_of_range(game: int) -> None:
    with pytest.raises(RulesError):
        tournament_hands({"a": (1,), "b": (2,), "c": (3,)}, ["a", "b", "c"], game)


def test_draft_refuses_seven_players() -> None:
    # Issue 9: a logic draft of 7 players (74 cards, 70 picks) was accepted; logic takes 2 to 6.
    players = [f"p{n}" for n in range(7)]
    picks = [(players[k % 7], k + 1) for k in range(70)]
    with pytest.raises(RulesError) as caught:
        draft(range(1, 75), players, picks)
    assert caught.value.rule == "setup.players"


def test_draft_refuses_a_duplicate_name() -> None:
    with pytest.raises(RulesError):
        draft(range(1, 25), ["ana", "ana"], [("ana", k + 1) for k in range(20)])


@pytest.mark.parametrize("count", [6, 7])
def test_tournament_hands_refuses_more_than_five_players(count: int) -> None:
    # Issue 9: tournament_hands served 7 players; the tournament takes 2 to 5.
    players = [f"p{n}" for n in range(count)]
    sheets = {player: (seat + 1,) for seat, player in enumerate(players)}
    with pytest.raises(RulesError) as caught:
        tournament_hands(sheets, players, 1)
    assert caught.value.rule == "setup.players"


@pytest.mark.parametrize("count", [2, 3, 4, 5])
def test_tournament_over_after_as_many_games_as_players(count: int) -> None:
    # Amigo, Variant 3: every player plays every hand once, so n players play n games.
    assert [tournament_over(played, count) for played in range(count + 1)] == (
        [False] * count + [True])


@pytest.mark.parametrize(("played", "count", "rule"), [
    (4, 3, "variants.tournament-over"), (-1, 3, "variants.tournament-over"),
    (True, 3, "variants.tournament-over"), (1.0, 3, "variants.tournament-over"),
    (0, 6, "setup.players"), (0, 1, "setup.players"), (0, True, "setup.players"),
    (0, "3", "setup.players"),
])
def test_tournament_over_refuses_impossible_counts(played: object, count: object,
                                                   rule: str) -> None:
    with pytest.raises(RulesError) as caught:
        tournament_over(played, count)  # type: ignore[arg-type]
    assert caught.value.rule == rule
