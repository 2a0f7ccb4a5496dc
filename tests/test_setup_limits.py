"""Who may play, which cards are in play, and the deal: every limit from both sides.

The rulebook's limits: the standard game and the tactics variant take 2 to 10 players, the logic
variant 2 to 6, the tournament 2 to 5. Each limit is tested at the bound and one past it, and
through every door a player count comes in: check_players, the engine, and the reduced deck.
"""

from __future__ import annotations

import random

import pytest

from take5rules import _kernel
from take5rules.errors import RulesError
from take5rules.playing.engine import play_game
from take5rules.playing.players import LowestCardPlayer
from take5rules.setup import cards_in_play, check_players, deal, player_range
from take5rules.variants import Rules, Variant, tactics_deck

HAND = 10
ROWS = 4
LIMITS = {
    Variant.STANDARD: (2, 10),
    Variant.TACTICS: (2, 10),
    Variant.LOGIC: (2, 6),
    Variant.TOURNAMENT: (2, 5),
}
ALLOWED = [(variant, count) for variant, (low, high) in LIMITS.items() for count in (low, high)]
FORBIDDEN = [
    (variant, count) for variant, (low, high) in LIMITS.items() for count in (low - 1, high + 1)
]


def _names(count: int) -> list[str]:
    return [f"p{n}" for n in range(count)]


@pytest.mark.parametrize(("variant", "count"), ALLOWED)
def test_check_players_accepts_each_variant_at_both_bounds(variant: Variant, count: int) -> None:
    assert check_players(_names(count), Rules(variant)) == tuple(_names(count))


@pytest.mark.parametrize(("variant", "count"), FORBIDDEN)
def test_check_players_rejects_one_past_each_bound(variant: Variant, count: int) -> None:
    with pytest.raises(RulesError) as caught:
        check_players(_names(count), Rules(variant))
    assert caught.value.rule == "setup.players"
    low, high = LIMITS[variant]
    assert caught.value.params["low"] == low
    assert caught.value.params["high"] == high
    assert caught.value.params["count"] == count
    assert caught.value.params["variant"] == variant.value


@pytest.mark.parametrize("variant", list(Variant))
def test_player_range_is_the_rulebooks(variant: Variant) -> None:
    assert player_range(Rules(variant)) == LIMITS[variant]


@pytest.mark.parametrize(("variant", "count"), FORBIDDEN)
def test_play_game_refuses_a_player_count_the_variant_forbids(variant: Variant,
                                                             count: int) -> None:
    seats = {name: LowestCardPlayer() for name in _names(count)}
    with pytest.raises(RulesError) as caught:
        next(iter(play_game(seats, Rules(variant))))
    assert caught.value.rule == "setup.players"


@pytest.mark.parametrize(("variant", "count"), ALLOWED)
def test_play_game_plays_each_variant_at_both_bounds(variant: Variant, count: int) -> None:
    seats = {name: LowestCardPlayer() for name in _names(count)}
    events = list(play_game(seats, Rules(variant), seed=count))
    assert events[-1].kind == "game-over"


@pytest.mark.parametrize("players", [2, 3, 9, 10])
def test_tactics_deck_is_1_to_ten_times_the_players_plus_four(players: int) -> None:
    assert tactics_deck(players) == tuple(range(1, HAND * players + ROWS + 1))


@pytest.mark.parametrize("players", [1, 11, 0, -2, True, "3", 3.0, None])
def test_tactics_deck_rejects_counts_outside_2_to_10(players: object) -> None:
    with pytest.raises(RulesError) as caught:
        tactics_deck(players)  # type: ignore[arg-type]
    assert caught.value.rule == "setup.players"


@pytest.mark.parametrize(("variant", "count"), ALLOWED)
def test_cards_in_play_per_variant_and_count(variant: Variant, count: int) -> None:
    expected = range(1, 105) if variant is Variant.STANDARD else range(1, HAND * count + ROWS + 1)
    assert cards_in_play(Rules(variant), count) == tuple(expected)


@pytest.mark.parametrize("count", [2, 5, 10])
def test_deal_gives_ten_each_four_rows_and_the_rest_aside(count: int) -> None:
    pile = list(range(104, 0, -1))
    dealt = deal(pile, _names(count))
    for seat, name in enumerate(_names(count)):
        assert dealt.hands[name] == tuple(pile[seat * HAND:(seat + 1) * HAND])
    assert dealt.rows == tuple(pile[HAND * count:HAND * count + ROWS])
    assert dealt.aside == tuple(pile[HAND * count + ROWS:])


@pytest.mark.parametrize("count", [2, 6, 10])
def test_deal_needs_exactly_ten_a_player_and_four(count: int) -> None:
    needed = HAND * count + ROWS
    dealt = deal(list(range(1, needed + 1)), _names(count))
    assert dealt.aside == ()
    assert dealt.rows == tuple(range(needed - 3, needed + 1))
    with pytest.raises(RulesError) as caught:
        deal(list(range(1, needed)), _names(count))
    assert caught.value.rule == "setup.deal"


@pytest.mark.parametrize(
    ("players", "value"),
    [(["ana", "bob", "ana"], "ana"), (["ana", "bob", "cyd", "bob"], "bob"), (["ana", ""], ""),
     (["ana", "  "], "  "), (["ana", 7], 7)],
)
def test_check_players_names_the_bad_or_repeated_name(players: list[object], value: object) -> None:
    with pytest.raises(RulesError) as caught:
        check_players(players, Rules())  # type: ignore[arg-type]
    assert caught.value.rule == "setup.players"
    assert caught.value.params["value"] == value


@pytest.mark.parametrize("players", ["anabob", b"ab", None, 3])
def test_check_players_rejects_what_is_not_a_list_of_names(players: object) -> None:
    with pytest.raises(RulesError) as caught:
        check_players(players, Rules())  # type: ignore[arg-type]
    assert caught.value.rule == "setup.players"


def test_deal_names_the_repeated_player() -> None:
    with pytest.raises(RulesError) as caught:
        deal(list(range(1, 105)), ["ana", "bob", "cyd", "bob"])
    assert caught.value.rule == "setup.players"
    assert caught.value.params["value"] == "bob"


@pytest.mark.parametrize("seed", [0, 5, 66, 2026])
def test_the_shuffle_is_every_card_once_drawn_as_random_sample_draws(seed: int) -> None:
    """The engine's shuffle: the 104 cards, each once, in the order ``random.sample`` gives."""
    generator = random.Random(seed)
    pile = _kernel.shuffled(range(1, 105), generator.getrandbits)
    assert sorted(pile) == list(range(1, 105))
    reference = random.Random(seed)
    assert pile == reference.sample(range(1, 105), 104)
    assert generator.getstate() == reference.getstate()


def test_deal_error_says_how_many_cards_it_needs() -> None:
    with pytest.raises(RulesError) as caught:
        deal(list(range(1, 30)), _names(3))
    assert caught.value.params == {"count": 29, "players": 3, "needed": 34}
