"""playing.belief: the unseen cards, the constraints on them, uniform determinizations."""

from __future__ import annotations

import itertools
import math
import random
from collections import Counter
from collections.abc import Callable
from typing import Any

import pytest

from _deadline import within
from take5rules.errors import Take5Error
from take5rules.playing.belief import MOST_DRAWS, belief
from take5rules.playing.players import CardView, CautiousPlayer, RowChoice
from take5rules.playing.stepper import Game, Phase
from take5rules.table import Table
from take5rules.variants import Rules, Variant

# Critical values of the chi-square distribution at p = 0.001 (upper tail), from the standard
# tables (NIST/SEMATECH e-Handbook, 1.3.6.7.4; scipy.stats.chi2.ppf(0.999, k) agrees): the
# sampler is refused only if a uniform sampler would give so large a statistic once in a
# thousand runs; the draws are seeded, so the test is deterministic.
CHI2_999 = {5: 20.515, 80: 124.839}


def _view(game: Game, seat: str) -> CardView:
    seen = game.observe(seat)
    assert seen.table is not None
    return CardView(seen.round, seen.turn, seen.table, seen.hand, seen.totals, seat,
                    seen.revealed, seen.taken, seen.start, seen.picks)


def _play_to(game: Game, turn: int, round_: int = 1) -> None:
    """Play *game* with cautious players until *turn* of round *round_* waits for cards."""
    cautious = CautiousPlayer()
    while game.phase is not Phase.OVER and (
            game.phase is not Phase.CARDS or (game.round, game.turn) < (round_, turn)):
        for seat in game.to_move:
            if game.phase is Phase.ROW:
                game.act(seat, 0)
            elif game.phase is Phase.DRAFT:
                game.draft(seat, min(game.legal(seat)))
            else:
                game.act(seat, cautious.choose_card(_view(game, seat)))


def test_the_unseen_cards_of_a_standard_deal_are_the_deck_less_the_hand_and_rows() -> None:
    game = Game(["ana", "bob", "cyd", "dan"], seed=2)
    known = belief(_view(game, "ana"))
    # 104 cards, ten in ana's hand, four starting the rows: 90 unseen; each opponent holds ten
    # of them and the other 60 are set aside (rule setup.deal).
    assert len(known.unseen) == 90
    assert dict(known.hand_sizes) == {"bob": 10, "cyd": 10, "dan": 10}
    assert known.aside == 60
    assert set(known.unseen).isdisjoint(game.observe("ana").hand)


def test_the_tactics_deck_leaves_nothing_aside() -> None:
    game = Game(["ana", "bob", "cyd"], Rules(Variant.TACTICS), seed=2)
    _play_to(game, 4)
    known = belief(_view(game, "ana"))
    # 34 cards in play; after three turns: 4 + 9 revealed... each holds seven; 14 unseen.
    assert len(known.unseen) == 14 and known.aside == 0
    assert dict(known.hand_sizes) == {"bob": 7, "cyd": 7}
    hidden = sorted(card for seat in ("bob", "cyd") for card in game.observe(seat).hand)
    assert list(known.unseen) == hidden


@pytest.mark.parametrize("variant", [Variant.LOGIC, Variant.TOURNAMENT])
def test_the_drafted_hands_are_known_exactly(variant: Variant) -> None:
    game = Game(["ana", "bob", "cyd"], Rules(variant, threshold=500), seed=4)
    for round_, turn in ((1, 1), (1, 4), (2, 3)):  # a tournament's sheets move in round 2
        _play_to(game, turn, round_)
        assert (game.round, game.turn) == (round_, turn)
        known = belief(_view(game, "ana"))
        assert known.unseen == ()
        assert {seat: set(cards) for seat, cards in known.known.items()} == {
            seat: set(game.observe(seat).hand) for seat in ("bob", "cyd")}


def test_determinizations_are_uniform_over_the_consistent_deals_small() -> None:
    # Tactics, three players, turn 9: each holds two cards; 34 - 4 - 24 revealed - 2 in ana's
    # hand = 4 unseen cards, split two and two between bob and cyd: C(4, 2) = 6 deals.
    game = Game(["ana", "bob", "cyd"], Rules(Variant.TACTICS), seed=6)
    _play_to(game, 9)
    known = belief(_view(game, "ana"))
    assert len(known.unseen) == 4
    deals = {tuple(sorted(pair)) for pair in itertools.combinations(known.unseen, 2)}
    rng = random.Random(1)
    draws = 6000
    counts = Counter(known.sample(rng)["bob"] for _ in range(draws))
    assert set(counts) == deals
    expected = draws / len(deals)
    statistic = sum((counts[deal] - expected) ** 2 / expected for deal in deals)
    assert statistic < CHI2_999[len(deals) - 1]


def test_determinizations_are_uniform_over_the_consistent_deals_large() -> None:
    # Standard, two players, turn 10: bob holds one card among 104 - 4 - 18 - 1 = 81 unseen.
    game = Game(["ana", "bob"], seed=8)
    _play_to(game, 10)
    known = belief(_view(game, "ana"))
    assert len(known.unseen) == 81 and known.aside == 80
    rng = random.Random(2)
    draws = 8100
    counts = Counter(known.sample(rng)["bob"] for _ in range(draws))
    expected = draws / 81
    statistic = sum((counts[(card,)] - expected) ** 2 / expected for card in known.unseen)
    assert statistic < CHI2_999[80]


def test_a_weighted_sample_follows_the_opponent_model() -> None:
    game = Game(["ana", "bob", "cyd"], Rules(Variant.TACTICS), seed=6)
    _play_to(game, 9)
    known = belief(_view(game, "ana"))
    highest = max(known.unseen)
    rng = random.Random(3)
    # A model in which bob surely holds the highest unseen card.
    draws = [known.sample_weighted(rng, lambda deal: highest in deal["bob"], draws=32)
             for _ in range(200)]
    assert all(highest in deal["bob"] for deal in draws)


# --- Views no game shows, and bad arguments (issue 27): refused with the id "argument" --------

#: Turn 2 of a two-seat standard round, as a game shows it: the rows started 12, 37, 43, 58;
#: at turn 1 "me" played 44 (onto 43) and "you" 90 (onto 58).
_SEEN: dict[str, Any] = {
    "round": 1, "turn": 2, "table": Table.of([[12], [37], [43, 44], [58, 90]]),
    "hand": (5, 20, 30, 60, 61, 62, 63, 64, 65), "totals": {"me": 0, "you": 0},
    "player": "me", "revealed": ((("me", 44), ("you", 90)),), "taken": {},
    "start": ((12,), (37,), (43,), (58,)), "picks": (),
}
_HAND = _SEEN["hand"][1:]
_IMPOSSIBLE: dict[str, dict[str, Any]] = {
    # a card in two places at once
    "hand-repeats-a-row-card": {"hand": (37, *_HAND)},
    "hand-holds-a-revealed-card": {"hand": (5, *_HAND),
                                   "revealed": ((("me", 5), ("you", 90)),)},
    "hand-holds-a-start-card": {"start": ((5,), (37,), (43,), (58,))},
    "hand-holds-a-taken-card": {"taken": {"you": (5,)}},
    "hand-holds-a-card-twice": {"hand": (20, *_HAND)},
    "a-card-revealed-twice": {"revealed": ((("me", 44), ("you", 44)),)},
    "a-start-card-revealed": {"revealed": ((("me", 12), ("you", 90)),)},
    "a-taken-card-on-the-table": {"taken": {"you": (37,)}},
    # parts that are not of their kind
    "card-200-in-hand": {"hand": (200, *_HAND)},
    "card-0-in-hand": {"hand": (0, *_HAND)},
    "a-bool-in-hand": {"hand": (True, *_HAND)},
    "hand-none": {"hand": None},
    "table-none": {"table": None},
    "table-of-lists": {"table": [[12], [37], [43, 44], [58, 90]]},
    "totals-none": {"totals": None},
    "player-none": {"player": None},
    "revealed-card-105": {"revealed": ((("me", 105), ("you", 90)),)},
    "revealed-none": {"revealed": None},
    "taken-card-200": {"taken": {"you": (200,)}},
    "start-none": {"start": None},
}




def _card_view(**changes: Any) -> CardView:
    return CardView(**{**_SEEN, **changes})


def _row_choice(**changes: Any) -> RowChoice:
    fields = {**_SEEN, **changes}
    del fields["round"], fields["turn"]
    return RowChoice(card=1, round=1, turn=2, **fields)


def test_the_view_the_impossible_ones_are_made_from_is_possible() -> None:
    assert belief(_card_view()).hand_sizes == {"you": 9}
    assert belief(_row_choice()).hand_sizes == {"you": 9}


@pytest.mark.parametrize("make", [_card_view, _row_choice], ids=["CardView", "RowChoice"])
@pytest.mark.parametrize("case", sorted(_IMPOSSIBLE))
def test_belief_refuses_a_view_no_game_shows(case: str, make: Any) -> None:
    with pytest.raises(Take5Error) as error:
        belief(make(**_IMPOSSIBLE[case]))
    assert error.value.rule == "argument"


@pytest.mark.parametrize("case", ["hand-repeats-a-row-card", "hand-holds-a-revealed-card"])
def test_a_search_refuses_a_view_whose_hand_is_elsewhere_too(case: str) -> None:
    from take5rules.playing.kinds import BUILTIN_PLAYERS

    view = _card_view(**_IMPOSSIBLE[case])
    for kind in ("montecarlo", "ismcts"):
        with pytest.raises(Take5Error) as error:
            BUILTIN_PLAYERS[kind](1).choose_card(view)
        assert error.value.rule == "argument"


def test_belief_refuses_rules_that_are_no_rules() -> None:
    with pytest.raises(Take5Error) as error:
        belief(_card_view(), "logic")  # type: ignore[arg-type]
    assert error.value.rule == "argument"


@pytest.mark.parametrize("rng", [None, 7, "seed", random])
def test_a_sample_needs_a_random_generator(rng: Any) -> None:
    known = belief(_card_view())
    draws: tuple[Callable[[], object], ...] = (
        lambda: known.sample(rng), lambda: known.sample_weighted(rng, lambda _: 1.0))
    for draw in draws:
        with pytest.raises(Take5Error) as error:
            draw()
        assert error.value.rule == "argument"


@pytest.mark.parametrize("draws", [2.5, 0, -3, "4", None, True, MOST_DRAWS + 1, 10**12])
def test_a_weighted_sample_refuses_a_number_of_draws_out_of_its_bound(draws: Any) -> None:
    with within(10), pytest.raises(Take5Error) as error:
        belief(_card_view()).sample_weighted(random.Random(1), lambda _: 1.0, draws=draws)
    assert error.value.rule == "argument"


@pytest.mark.parametrize("weight", [None, 3, lambda _: math.nan, lambda _: math.inf,
                                    lambda _: "1", lambda _: None])
def test_a_weighted_sample_refuses_a_weight_that_is_no_finite_number(weight: Any) -> None:
    with pytest.raises(Take5Error) as error:
        belief(_card_view()).sample_weighted(random.Random(1), weight, draws=4)
    assert error.value.rule == "argument"
