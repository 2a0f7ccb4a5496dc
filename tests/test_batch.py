"""The batched simulator against the reference rule functions: same deals and decisions, same
rows, takes and scores.

The reference is :func:`take5rules.round.play_turn` (itself built on the placement rules of
:mod:`take5rules.table`) and :func:`take5rules.playing.engine.play_round` with the built-in players;
the
batch must agree with it placement by placement on thousands of random rounds, 2 to 10 players.
"""

from __future__ import annotations

from collections import Counter

import pytest

pytest.importorskip("numpy", reason="the batched simulator needs numpy (take5rules[batch])")

import numpy as np
from hypothesis import given, settings
from hypothesis import strategies as st
from numpy.typing import NDArray

from _engine_games import engine_games, run_seeds
from take5rules.agents import batch
from take5rules.agents.batch import placement as _kernel
from take5rules.cards import cards, total_bull_heads
from take5rules.errors import IllegalMoveError, MalformedInputError, RulesError
from take5rules.events import CardPlaced, GameOver, LowCardTaken, RoundScored, SixthCardTaken
from take5rules.playing.engine import play_game
from take5rules.playing.engine import play_round as engine_round
from take5rules.playing.players import CautiousPlayer, LowestCardPlayer, Player
from take5rules.round import RoundState, play_turn, round_penalties
from take5rules.setup import check_deal, deal
from take5rules.table import Table
from take5rules.turn import LowCard
from take5rules.variants import Rules, Variant

KERNELS = ["numpy", "compiled"] if _kernel.numba is not None else ["numpy"]


@pytest.fixture(autouse=True, params=KERNELS)
def kernel(request: pytest.FixtureRequest, monkeypatch: pytest.MonkeyPatch) -> str:
    """Every test here runs with the numpy kernel and, when numba is installed, the compiled one."""
    monkeypatch.setattr(_kernel, "AVAILABLE", request.param == "compiled")
    return str(request.param)


RULE_OF_EVENT = {
    "card-placed": "table.least-difference",
    "sixth-card-taken": "table.sixth-card",
    "low-card-taken": "table.low-card",
}
RULE_CODES = {
    "table.least-difference": batch.LEAST_DIFFERENCE,
    "table.sixth-card": batch.SIXTH_CARD,
    "table.low-card": batch.LOW_CARD,
}


def _decisions(
    seed: int, games: int, players: int
) -> tuple[NDArray[np.int64], NDArray[np.int64], NDArray[np.int64]]:
    """Shuffled piles, each seat's order of play (hand positions) and its low-card rows."""
    rng = np.random.default_rng(seed)
    piles = rng.permuted(np.broadcast_to(np.arange(1, 105), (games, 104)), axis=1)
    orders = rng.permuted(np.broadcast_to(np.arange(10), (games, players, 10)), axis=2)
    rows = rng.integers(0, 4, (games, players, 10))
    return piles, orders, rows


def _check_games(
    players: int, piles: NDArray[np.int64], orders: NDArray[np.int64], rows: NDArray[np.int64]
) -> Counter[str]:
    """Play every game both ways, compare after each turn; count the rules that placed cards."""
    games = piles.shape[0]
    names = [f"p{seat}" for seat in range(players)]
    dealt = [deal([int(c) for c in pile], names) for pile in piles]
    plays = np.array(
        [
            [[d.hands[name][k] for k in orders[g, seat]] for seat, name in enumerate(names)]
            for g, d in enumerate(dealt)
        ]
    )

    def batch_rows(view: batch.RowView, rng: np.random.Generator) -> NDArray[np.int64]:
        chosen: NDArray[np.int64] = rows[view.games, view.seats, view.turn]
        return chosen

    state = batch.start(piles, players)
    references = [
        RoundState.start(1, Table.start(d.rows), d.hands) for d in dealt
    ]
    seen: Counter[str] = Counter()
    rng = np.random.default_rng(0)
    for turn in range(10):
        outcome = batch.play_turn(state, plays[:, :, turn], batch_rows, rng)
        for g in range(games):

            def choose(choice: LowCard, g: int = g, turn: int = turn) -> int:
                return int(rows[g, names.index(choice.player), turn])

            turn_plays = {name: int(plays[g, seat, turn]) for seat, name in enumerate(names)}
            references[g], events = play_turn(references[g], turn_plays, choose)
            reference = references[g]
            assert state.table(g) == reference.table.rows, (g, turn)
            for event in events[1:]:
                assert isinstance(event, CardPlaced | SixthCardTaken | LowCardTaken)
                seat = names.index(event.player)
                seen[event.kind] += 1
                assert outcome.rows[g, seat] == event.row
                assert outcome.rule[g, seat] == RULE_CODES[RULE_OF_EVENT[event.kind]]
                taken = getattr(event, "taken", ())
                assert outcome.taken[g, seat] == total_bull_heads(taken)
            for seat, name in enumerate(names):
                assert state.pile(g, seat) == tuple(sorted(reference.piles[name]))
                assert sorted(int(c) for c in state.held[g, seat]) == sorted(reference.hands[name])
    for g, reference in enumerate(references):
        penalties = round_penalties(reference.piles)
        assert [int(p) for p in state.penalties[g]] == [penalties[name] for name in names]
    return seen


@pytest.mark.parametrize("players", range(2, 11))
def test_thousands_of_random_rounds_match_the_rule_functions(players: int) -> None:
    piles, orders, rows = _decisions(run_seeds(1, players)[0], 250, players)
    seen = _check_games(players, piles, orders, rows)
    # Every placement rule was exercised many times, low cards and sixth cards included.
    assert seen["low-card-taken"] > 50
    assert seen["sixth-card-taken"] > 50
    assert seen["card-placed"] > 1000


@settings(max_examples=60, deadline=None)
@given(players=st.integers(2, 10), seed=st.integers(0, 2**32 - 1))
def test_any_seeded_round_matches_the_rule_functions(players: int, seed: int) -> None:
    piles, orders, rows = _decisions(seed, 3, players)
    _check_games(players, piles, orders, rows)


def _engine_scores(seats: dict[str, Player], pile: list[int]) -> list[int]:
    dealt = deal(pile, list(seats))
    events = list(
        engine_round(seats, 1, Table.start(dealt.rows), dealt.hands, dict.fromkeys(seats, 0))
    )
    scored = events[-1]
    assert isinstance(scored, RoundScored)
    return [scored.penalties[name] for name in seats]


@pytest.mark.parametrize(
    ("policy", "player"),
    [(batch.lowest_card, LowestCardPlayer), (batch.cautious_card, CautiousPlayer)],
)
@pytest.mark.parametrize("players", [2, 4, 7, 10])
def test_builtin_policies_play_as_the_builtin_players(policy, player, players: int) -> None:  # type: ignore[no-untyped-def]
    rng = np.random.default_rng(players)
    state = batch.deal(rng, 150, players)
    piles = np.concatenate(
        [state.hands.reshape(150, -1), state.rows[:, :, 0]], axis=1
    )
    scores = batch.play_round(state, [policy] * players, batch.cheapest_row, rng)
    for g in range(150):
        seats: dict[str, Player] = {f"p{k}": player() for k in range(players)}
        assert [int(s) for s in scores[g]] == _engine_scores(seats, [int(c) for c in piles[g]])


def test_publishers_example_turn() -> None:
    # Rows 12, 37, 43, 58; the cards 14, 15, 44 and 61 (the publisher's example).
    hands = [[44], [14], [61], [15]]
    rest = iter(c for c in range(60, 105) if c != 61)
    pile = [c for hand in hands for c in hand + [next(rest) for _ in range(9)]]
    state = batch.start([[*pile, 12, 37, 43, 58]], players=4)
    rng = np.random.default_rng()
    outcome = batch.play_turn(state, [[44, 14, 61, 15]], batch.cheapest_row, rng)
    assert state.table(0) == ((12, 14, 15), (37,), (43, 44), (58, 61))
    assert outcome.rows.tolist() == [[2, 0, 3, 0]]
    assert outcome.taken.tolist() == [[0, 0, 0, 0]]


def test_founding_texts_low_card() -> None:
    # Rows ending 12, 24, 70 and 96; a 2 takes the row holding only 96 (1 bull head).
    pile = [2, *range(30, 39), 17, *range(40, 49), 12, 24, 70, 96]

    def take_last(view: batch.RowView, rng: np.random.Generator) -> NDArray[np.int64]:
        return np.full(len(view), 3)

    state = batch.start([pile], players=2)
    outcome = batch.play_turn(state, [[2, 17]], take_last, np.random.default_rng())
    assert state.table(0) == ((12, 17), (24,), (70,), (2,))
    assert outcome.rule.tolist() == [[batch.LOW_CARD, batch.LEAST_DIFFERENCE]]
    assert state.pile(0, 0) == (96,)
    assert state.penalties.tolist() == [[1, 0]]


def test_sixth_card_takes_eleven_heads() -> None:
    # 51, 55, 61, 68, 73 fill a row; 74 is its sixth card: 1 + 7 + 1 + 1 + 1 = 11 bull heads.
    hands = [[55, 61, 68, 73, 74, 1, 2, 3, 4, 5], [6, 7, 8, 9, 10, 11, 13, 14, 16, 17]]
    state = batch.start([[*hands[0], *hands[1], 51, 90, 95, 100]], players=2)
    rng = np.random.default_rng()
    for own, other in ((55, 6), (61, 7), (68, 8), (73, 9), (74, 10)):
        outcome = batch.play_turn(state, [[own, other]], batch.cheapest_row, rng)
    assert outcome.rule.tolist()[0][0] == batch.SIXTH_CARD
    assert state.penalties.tolist()[0][0] == 11
    assert state.table(0)[0] == (74,)


def test_play_games_reaches_the_threshold() -> None:
    totals, rounds, winners = batch.play_games(
        np.random.default_rng(3), 200, [batch.random_card] * 5, batch.random_row,
        Rules(threshold=30),
    )
    assert (totals.max(axis=1) >= 30).all()
    assert (rounds >= 1).all()
    assert (rounds > 1).any()
    assert (winners == (totals == totals.min(axis=1, keepdims=True))).all()


def test_tactics_deals_only_the_reduced_deck() -> None:
    state = batch.deal(np.random.default_rng(0), 50, 3, Rules(Variant.TACTICS))
    dealt = np.concatenate([state.hands.reshape(50, -1), state.rows[:, :, 0]], axis=1)
    assert (np.sort(dealt, axis=1) == np.arange(1, 35)).all()


def test_bad_input_names_the_rule() -> None:
    with pytest.raises(MalformedInputError) as error:
        batch.start([[0, *range(2, 30)]], players=2)
    assert error.value.rule == "cards.deck"
    with pytest.raises(MalformedInputError) as error:
        batch.start([[5, 5, *range(6, 30)]], players=2)
    assert error.value.rule == "cards.deck"
    with pytest.raises(RulesError) as error:
        batch.start([list(range(1, 105))], players=11)
    assert error.value.rule == "setup.players"
    with pytest.raises(RulesError) as error:
        batch.deal(np.random.default_rng(0), 1, 3, Rules(Variant.LOGIC))
    assert error.value.rule == "variants.logic"
    state = batch.start([list(range(1, 105))], players=2)
    with pytest.raises(IllegalMoveError) as illegal:
        batch.play_turn(state, [[1, 2]], batch.cheapest_row, np.random.default_rng())
    assert illegal.value.rule == "turn.reveal"
    assert illegal.value.where.card == 2
    with pytest.raises(MalformedInputError) as error:
        batch.play_turn(state, [[1, 2, 3]], batch.cheapest_row, np.random.default_rng())
    assert error.value.rule == "turn.reveal"
    assert error.value.params["expected"] == (1, 2)


def test_random_policies_play_legal_rounds() -> None:
    rng = np.random.default_rng(11)
    state = batch.deal(rng, 400, 6)
    start_cards = np.sort(
        np.concatenate([state.hands.reshape(400, -1), state.rows[:, :, 0]], axis=1), axis=1
    )
    scores = batch.play_round(state, [batch.random_card] * 6, batch.random_row, rng)
    # Every card dealt ends up on the table or in exactly one bull pile.
    table_cards = [sorted(c for row in state.table(g) for c in row) for g in range(400)]
    for g in range(400):
        piles = [c for seat in range(6) for c in state.pile(g, seat)]
        assert sorted(piles + table_cards[g]) == start_cards[g].tolist()
        assert [total_bull_heads(state.pile(g, s)) for s in range(6)] == scores[g].tolist()


def test_policies_are_checked_where_they_enter() -> None:
    rng = np.random.default_rng(0)
    state = batch.deal(rng, 10, 3)
    with pytest.raises(RulesError) as error:
        batch.play_round(state, [batch.random_card] * 2, batch.random_row, rng)
    assert error.value.rule == "setup.players"

    def out_of_hand(view: batch.SeatView, rng: np.random.Generator) -> NDArray[np.int64]:
        return np.full(len(view), 10 - view.turn)  # one past the last card held

    with pytest.raises(IllegalMoveError) as illegal:
        batch.play_round(state, [out_of_hand] * 3, batch.random_row, rng)
    assert illegal.value.rule == "turn.reveal"
    assert state.turn == 0  # nothing was played


def _seats(players: int) -> dict[str, Player]:
    return {f"p{k}": CautiousPlayer() if k % 2 else LowestCardPlayer() for k in range(players)}


def _policies(players: int) -> list[batch.CardPolicy]:
    return [batch.cautious_card if k % 2 else batch.lowest_card for k in range(players)]


def _check_against_engine(
    result: batch.GamesResult, expected: list[GameOver], players: int
) -> None:
    names = [f"p{k}" for k in range(players)]
    for g, over in enumerate(expected):
        assert result.totals[g].tolist() == [over.totals[name] for name in names], g
        assert int(result.rounds[g]) == over.rounds, g
        assert [names[k] for k in np.flatnonzero(result.winners[g])] == list(over.winners), g


@pytest.mark.parametrize(("players", "threshold"), [(2, 66), (4, 66), (5, 20), (7, 100), (10, 66)])
def test_whole_games_end_and_score_as_the_engine(players: int, threshold: int) -> None:
    # The same deals and the same decisions: every game lasts as many rounds as play_game's,
    # ends with the same totals and is won by the same players (rules game.end, game.winners).
    # A batch that played one round too many would ask the dealer for a deal the engine never
    # made (KeyError); one that stopped early would have other totals.
    rules = Rules(threshold=threshold)
    expected, dealer = engine_games(lambda: _seats(players), rules,
                                    run_seeds(24, players))

    result = batch.play_games(
        np.random.default_rng(0), len(expected), _policies(players), batch.cheapest_row, rules,
        dealer=dealer,
    )
    if threshold >= 66:  # games of several lengths, some ending after more rounds than others
        assert max(over.rounds for over in expected) > min(over.rounds for over in expected)
    _check_against_engine(result, expected, players)


@pytest.mark.parametrize("variant", [Variant.LOGIC, Variant.TOURNAMENT])
@pytest.mark.parametrize("players", [2, 3, 5])
def test_drafted_variants_play_as_the_engine(variant: Variant, players: int) -> None:
    # With deterministic players a logic game or a tournament is the same in every run: the
    # draft, the rows left, the rotated hands and the end all match play_game.
    rules = Rules(variant, threshold=66)
    over = list(play_game(_seats(players), rules, seed=0))[-1]
    assert isinstance(over, GameOver)
    drafts = [batch.cautious_pick if k % 2 else batch.lowest_pick for k in range(players)]
    result = batch.play_games(
        np.random.default_rng(0), 3, _policies(players), batch.cheapest_row, rules, drafts=drafts
    )
    _check_against_engine(result, [over] * 3, players)
    if variant is Variant.TOURNAMENT:
        assert result.rounds.tolist() == [players] * 3


def test_random_drafts_follow_the_draft_rule() -> None:
    rng = np.random.default_rng(5)
    drafts = [batch.random_pick] * 4
    result = batch.play_games(
        rng, 300, [batch.random_card] * 4, batch.random_row, Rules(Variant.LOGIC), drafts=drafts
    )
    assert (result.totals.max(axis=1) >= 66).all()
    tournament = batch.play_games(
        rng, 300, [batch.random_card] * 4, batch.random_row, Rules(Variant.TOURNAMENT),
        drafts=drafts,
    )
    assert (tournament.rounds == 4).all()


def test_deals_are_uniform() -> None:
    # Each card is equally likely in each place: 104 cards over 20,000 deals of the first
    # seat's first card; and every ordered pair of the first two places occurs.
    state = batch.deal(np.random.default_rng(9), 20_000, 2)
    first = np.bincount(state.hands[:, 0, 0], minlength=105)[1:]
    expected = 20_000 / 104
    chi2 = float(((first - expected) ** 2 / expected).sum())
    assert chi2 < 160  # 103 degrees of freedom: p < 0.0005 beyond 160
    dealt = np.concatenate([state.hands.reshape(20_000, -1), state.rows[:, :, 0]], axis=1)
    assert (np.sort(dealt, axis=1)[:, 1:] != np.sort(dealt, axis=1)[:, :-1]).all()


def test_start_refuses_what_check_deal_refuses() -> None:
    # batch.start screens the piles with numpy and lets setup.check_deal name the problem.
    rng = np.random.default_rng(3)
    names = ["seat 0", "seat 1"]
    for _ in range(200):
        pile = rng.permutation(np.arange(1, 105))[:30]
        if rng.random() < 0.5:
            pile[rng.integers(30)] = rng.choice([0, 105, int(pile[rng.integers(30)]), -3])
        hands = {n: [int(c) for c in pile[10 * k : 10 * k + 10]] for k, n in enumerate(names)}
        refused: MalformedInputError | None = None
        try:
            check_deal([[int(c)] for c in pile[20:24]], hands, names, fresh=True, round=1)
            cards([int(c) for c in pile])
        except MalformedInputError as problem:
            refused = problem
        if refused is None:
            batch.start([pile], 2)
            continue
        with pytest.raises(MalformedInputError) as error:
            batch.start([pile], 2)
        assert (error.value.rule, error.value.message) == (refused.rule, refused.message)


def test_a_batch_of_several_blocks_plays_each_game_as_alone() -> None:
    # More games than one pass of the kernel holds (batch.BLOCK): every game, in a full block
    # or in the last one (12,000 games, where 3 * 12,000 no longer fits in 16 bits), scores as
    # it does in a batch of its own games alone (deterministic decisions, the same deals).
    games = batch.BLOCK + 12_000
    rng = np.random.default_rng(4)
    piles = rng.permuted(np.broadcast_to(np.arange(1, 105), (games, 104)), axis=1)
    whole = batch.play_round(batch.start(piles, 4), [batch.lowest_card] * 4, batch.cheapest_row,
                             rng)
    for lo, hi in ((0, 200), (batch.BLOCK - 200, batch.BLOCK + 200), (games - 300, games)):
        alone = batch.play_round(batch.start(piles[lo:hi], 4), [batch.lowest_card] * 4,
                                 batch.cheapest_row, rng)
        assert (whole[lo:hi] == alone).all(), (lo, hi)


def test_play_games_is_bounded_as_play_is() -> None:
    # Issue 27: a threshold of 10**30 never ended. It is refused as ``take5rules play`` refuses
    # it (at most 1,000 bull heads, so every game ends within 500 rounds). The dealer stops a
    # batch that would play on (an AssertionError, not a hang).
    def dealer(games: NDArray[np.int64], number: int) -> NDArray[np.int64]:
        assert number <= 500, "a game played past 500 rounds"
        return np.random.default_rng(number).permuted(
            np.broadcast_to(np.arange(1, 105), (games.size, 104)), axis=1
        )

    policies = [batch.random_card] * 2
    with pytest.raises(RulesError) as error:
        batch.play_games(np.random.default_rng(0), 2, policies, batch.random_row,
                         Rules(threshold=10**30), dealer=dealer)
    assert error.value.rule == "variants.threshold"
    result = batch.play_games(np.random.default_rng(0), 2, policies, batch.random_row,
                              Rules(threshold=1000), dealer=dealer)
    assert (result.totals.max(axis=1) >= 1000).all()
