"""playing.belief: the unseen cards, the constraints on them, uniform determinizations."""

from __future__ import annotations

import itertools
import random
from collections import Counter

import pytest

from take5rules.playing.belief import belief
from take5rules.playing.players import CardView, CautiousPlayer
from take5rules.playing.stepper import Game, Phase
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
