"""The reference players of playing.bots: greedy's rule, Monte Carlo's seed, no peeking."""

from __future__ import annotations

import gc
import math
import random
from collections.abc import Callable

import pytest

from _deadline import within
from take5rules.agents.arena import load_player
from take5rules.errors import RulesError, Take5Error
from take5rules.playing.bots import (
    MOST_WORLDS,
    ROLLOUTS,
    GreedyPlayer,
    MonteCarloPlayer,
    greedy_card,
)
from take5rules.playing.engine import play_silently
from take5rules.playing.ismcts import MOST_ITERATIONS, ISMCTSPlayer
from take5rules.playing.kinds import BUILTIN_PLAYERS
from take5rules.playing.players import CardView, CautiousPlayer, DraftView, Player, RowChoice
from take5rules.playing.rollouts import cautious_card
from take5rules.playing.stepper import Game, Phase
from take5rules.table import Table
from take5rules.variants import Rules, Variant


def test_greedy_plays_the_card_of_least_immediate_cost() -> None:
    rows = [(12,), (37,), (43, 44, 45, 46, 47), (58,)]
    # 5 is low: the cheapest row costs 1 head; 48 is the sixth card of 43..47: 1+5+2+1+1 = 10
    # heads; 60 goes on 58 and costs nothing.
    assert greedy_card(rows, [5, 48, 60]) == 60
    # 48 alone besides the low card: 10 heads against 1.
    assert greedy_card(rows, [5, 48]) == 5


def test_greedy_breaks_ties_by_the_smallest_gap_then_the_lowest_card() -> None:
    rows = [(12,), (37,), (43,), (58,)]
    assert greedy_card(rows, [14, 38]) == 38  # gaps 2 and 1
    assert greedy_card(rows, [13, 38, 60]) == 13  # gaps 1, 1 and 2: the lowest of the two


def _heads(card: int) -> int:
    # The rulebook's bull heads: 55 has 7, multiples of 11 have 5, of 10 have 3, of 5 have 2.
    return 7 if card == 55 else 5 if card % 11 == 0 else 3 if card % 10 == 0 else (
        2 if card % 5 == 0 else 1)


def _greedy_by_the_rules(rows: list[tuple[int, ...]], hand: list[int]) -> int:
    def key(card: int) -> tuple[int, int, int]:
        below = [row for row in rows if row[-1] < card]
        if not below:  # a low card takes the cheapest row
            return min(sum(map(_heads, row)) for row in rows), 256, card
        row = max(below, key=lambda row: row[-1])
        return (sum(map(_heads, row)) if len(row) == 5 else 0), card - row[-1], card

    return min(hand, key=key)


def _cautious_by_the_rules(rows: list[tuple[int, ...]], hand: list[int]) -> int:
    # The cautious player's risk, written out: a sixth card costs its row's heads + 1, a low
    # card the cheapest row's heads + 0.5, any other card its row's length times its gap / 400
    # (always below 1.1); ties to the lower card.
    def risk(card: int) -> tuple[float, int]:
        below = [row for row in rows if row[-1] < card]
        if not below:
            return min(sum(map(_heads, row)) for row in rows) + 0.5, card
        row = max(below, key=lambda row: row[-1])
        if len(row) == 5:
            return sum(map(_heads, row)) + 1.0, card
        return len(row) * (card - row[-1]) / 400, card

    return min(hand, key=risk)


def test_cautious_card_prefers_a_short_row_then_the_cheaper_of_low_and_sixth() -> None:
    rows = [(12, 13), (37,), (43, 44, 45, 46, 47), (58,)]
    # 16 goes on a row of 2 (gap 3: risk 6/400), 40 on a row of 1 (gap 3: 3/400).
    assert cautious_card(rows, [16, 40]) == 40
    # greedy, blind to the rows' lengths, takes the lower of the two equal gaps.
    assert greedy_card(rows, [16, 40]) == 16
    # 5 is low (the cheapest row, 12 13 or 37 or 58: 1 head, + 0.5); 48 is sixth (10 + 1).
    assert cautious_card(rows, [5, 48]) == 5
    # A card on a short row, however far, before a low card: 103 on 58 (gap 45: 45/400).
    assert cautious_card(rows, [5, 103]) == 103


def test_cautious_card_is_the_cautious_players_card() -> None:
    rng = random.Random(8)
    for _ in range(400):
        deck = rng.sample(range(1, 105), 30)
        rows = [tuple(sorted(deck[5 * k:5 * k + rng.randint(1, 5)])) for k in range(4)]
        hand = sorted(deck[20:20 + rng.randint(1, 10)])
        view = CardView(1, 1, Table.of([list(row) for row in rows]), tuple(hand), {"me": 0},
                        player="me")
        assert cautious_card(rows, hand) == CautiousPlayer().choose_card(view)
        assert cautious_card(rows, hand) == _cautious_by_the_rules(rows, hand)


@pytest.mark.parametrize(("name", "seed"), [("greedy", 4), ("cautious", 5)])
def test_the_rollout_plays_its_rule_s_card_at_every_seat(name: str, seed: int) -> None:
    from take5rules.playing.rollouts import play_out

    by_the_rules = {"greedy": _greedy_by_the_rules, "cautious": _cautious_by_the_rules}[name]
    rng = random.Random(seed)
    for _ in range(30):
        deck = rng.sample(range(1, 105), 34)
        rows: list[tuple[int, ...]] = [(card,) for card in deck[:4]]
        hands = {seat: sorted(deck[4 + 10 * k:14 + 10 * k]) for k, seat in enumerate("abc")}
        first = hands["a"][rng.randrange(10)]
        fast_rows, fast_hands = list(rows), {seat: list(hand) for seat, hand in hands.items()}
        slow_rows, slow_hands = list(rows), {seat: list(hand) for seat, hand in hands.items()}
        fast = play_out(fast_rows, fast_hands, "abc", "a", first, rng, ROLLOUTS[name])
        slow = play_out(slow_rows, slow_hands, "abc", "a", first, rng,
                         lambda now, _rng: lambda held: by_the_rules(now, held))
        assert (fast, fast_rows) == (slow, slow_rows)


def test_the_kinds_are_named_on_the_command_line() -> None:
    for kind in ("greedy", "montecarlo", "best"):
        assert kind in BUILTIN_PLAYERS
        assert isinstance(load_player(kind, 3), Player)


def test_best_is_the_ismcts_search_with_its_defaults() -> None:
    # docs/<lang>/strength.md and benchmarks/bench_best.py: ``best`` is ISMCTS, 350 iterations,
    # exploration 20, greedy rollouts, of the seed it is given.
    player = load_player("best", 3)
    assert isinstance(player, ISMCTSPlayer)
    assert (player.iterations, player.exploration, player.rollout, player.seed, player.paired) == (
        350, 20.0, "greedy", 3, True)


def test_montecarlo_is_reproducible_from_its_seed() -> None:
    def game(seed: int) -> dict[str, int]:
        seats: dict[str, Player] = {
            "mc": MonteCarloPlayer(worlds=3, seed=seed), "greedy": GreedyPlayer(),
                 "cautious": CautiousPlayer()}
        return dict(play_silently(seats, Rules(threshold=20), seed=9).totals)

    assert game(4) == game(4)


@pytest.mark.parametrize("variant", list(Variant))
def test_the_players_play_every_variant(variant: Variant) -> None:
    seats: dict[str, Player] = {
        "mc": MonteCarloPlayer(worlds=2, seed=1), "greedy": GreedyPlayer(),
             "random": MonteCarloPlayer(worlds=2, rollout="random", seed=2)}
    over = play_silently(seats, Rules(variant, threshold=15), seed=5)
    assert set(over.totals) == set(seats)


@pytest.mark.parametrize("worlds", [0, -1, True, 2.0])
def test_montecarlo_refuses_a_number_of_worlds_that_is_no_count(worlds: object) -> None:
    with pytest.raises(RulesError) as error:
        MonteCarloPlayer(worlds=worlds)  # type: ignore[arg-type]
    assert error.value.rule == "argument"


def test_montecarlo_refuses_an_unknown_rollout() -> None:
    with pytest.raises(RulesError):
        MonteCarloPlayer(rollout="clever")


@pytest.mark.parametrize("make", [
    lambda: MonteCarloPlayer(worlds=4, seed=7),
    lambda: ISMCTSPlayer(iterations=20, seed=7),
], ids=["montecarlo", "ismcts"])
def test_a_row_choice_whose_turn_lacks_the_seats_card_gets_the_cheapest_row(
        make: Callable[[], Player]) -> None:
    # The last turn shown holds 2 and 90, not the low card 1 the seat is said to play: there is
    # no turn to play out, so the search takes the cheapest row instead of failing: the last,
    # 70 alone (3 bull heads, against 11, 4 and 5).
    rows = Table.of([[20, 21, 22, 23, 24], [50, 51], [60, 61, 62], [70]])
    choice = RowChoice("me", 1, rows, 1, 9, (25,), {"me": 0, "you": 0},
                       ((("me", 2), ("you", 90)),))
    assert make().choose_row(choice) == 3


# --- no peeking ---------------------------------------------------------------------------------


class _Peeker:
    """A cheater: finds the Game in memory and plays the card its opponent cannot beat."""

    def choose_card(self, view: CardView) -> int:
        games = [item for item in gc.get_objects() if isinstance(item, Game)]
        hidden = sum(sum(game._hands.get("ana", ())) for game in games)
        return view.hand[hidden % len(view.hand)]

    def choose_row(self, choice: RowChoice) -> int:
        return 0

    def choose_draft(self, view: object) -> int:
        raise NotImplementedError


def _card_view(game: Game, seat: str) -> CardView:
    seen = game.observe(seat)
    assert seen.table is not None
    return CardView(seen.round, seen.turn, seen.table, seen.hand, seen.totals, seat,
                    seen.revealed, seen.taken, seen.start, seen.picks)


def _lie(game: Game, seat: str, rng: random.Random) -> None:
    """Deal the hidden cards of *game* anew among *seat*'s opponents: the table now lies."""
    others = [player for player in game.players if player != seat]
    pile = [card for player in others for card in game._hands[player]]
    rng.shuffle(pile)
    for player in others:
        size = len(game._hands[player])
        game._hands[player], pile = sorted(pile[:size]), pile[size:]


def _ask(player: Player, game: Game) -> int:
    """*player*'s decision as seat "me" of *game*, from the view *game* gives that seat."""
    seen = game.observe("me")
    assert seen.table is not None
    if game.phase is Phase.ROW:
        assert seen.pending is not None
        return player.choose_row(RowChoice(
            "me", seen.pending[1], seen.table, seen.round, seen.turn, seen.hand, seen.totals,
            seen.revealed, seen.taken, seen.start, seen.picks))
    return player.choose_card(_card_view(game, "me"))


def _pairs(make: Callable[[], Player], seed: int,
           games: list[Game] | None = None) -> list[tuple[int, int]]:
    """Each decision of seat "me" over a game, asked of two fresh *make()*: one at the true
    table, one after the opponents' hidden hands were dealt anew (the game goes on lied).

    The game is appended to *games* when given (for a player that peeks at it on purpose).
    """
    game = Game(["me", "ana", "bob"], Rules(threshold=30), seed=seed)
    if games is not None:
        games.append(game)
    rng = random.Random(seed)
    cautious = CautiousPlayer()
    pairs = []
    while game.phase is not Phase.OVER:
        for seat in game.to_move:
            if seat == "me":
                truthful = _ask(make(), game)
                _lie(game, "me", rng)
                pairs.append((truthful, _ask(make(), game)))
                answer = truthful
            elif game.phase is Phase.ROW:
                answer = 0
            else:
                answer = cautious.choose_card(_card_view(game, seat))
            game.act(seat, answer)
    return pairs


@pytest.mark.parametrize("make", [
    GreedyPlayer,
    lambda: MonteCarloPlayer(worlds=4, seed=7),
    lambda: MonteCarloPlayer(worlds=4, rollout="random", seed=7),
    lambda: MonteCarloPlayer(worlds=8, seed=7, halving=True),
], ids=["greedy", "montecarlo", "montecarlo-random", "halving"])
def test_players_decide_the_same_at_a_table_that_lies_about_the_hidden_cards(
        make: Callable[[], Player]) -> None:
    pairs = _pairs(make, seed=3)
    assert len(pairs) >= 10  # every card of a round at least, and any row asked
    assert all(truthful == lied for truthful, lied in pairs)


def test_the_lying_table_catches_a_player_that_peeks() -> None:
    pairs = _pairs(_Peeker, seed=3)
    assert any(truthful != lied for truthful, lied in pairs)


# --- Hostile views and knobs (issue 27): an argument error, never a raw error or a hang ------

_ROWS_12 = Table.of([[12], [37], [43], [58]])
_KINDS = sorted(BUILTIN_PLAYERS)




def _refused(call: Callable[[], object]) -> Take5Error:
    with within(10), pytest.raises(Take5Error) as error:
        call()
    assert error.value.rule == "argument"
    return error.value


@pytest.mark.parametrize("kind", _KINDS)
def test_every_built_in_player_refuses_a_card_from_an_empty_hand(kind: str) -> None:
    # RandomPlayer drew getrandbits(0) == 0 >= 0 forever; the others raised min()'s ValueError.
    view = CardView(1, 10, _ROWS_12, (), {"me": 0, "you": 0}, "me")
    _refused(lambda: BUILTIN_PLAYERS[kind]().choose_card(view))


@pytest.mark.parametrize("kind", _KINDS)
def test_every_built_in_player_refuses_a_pick_from_an_empty_pool(kind: str) -> None:
    view = DraftView(1, 1, (), (), "me", (), {"me": 0, "you": 0})
    _refused(lambda: BUILTIN_PLAYERS[kind]().choose_draft(view))


@pytest.mark.parametrize("kind", [kind for kind in _KINDS if kind != "random"])
def test_every_player_that_reads_the_rows_refuses_a_row_choice_without_a_table(kind: str) -> None:
    # (random draws its row without reading the choice)
    choice = RowChoice("me", 1, None, 1, 1, (5, 9), {"me": 0, "you": 0})  # type: ignore[arg-type]
    _refused(lambda: BUILTIN_PLAYERS[kind]().choose_row(choice))


@pytest.mark.parametrize("kind", ["montecarlo", "ismcts", "best"])
@pytest.mark.parametrize(("hand", "card"), [((200, 9), 1), ((5, 9), 200), ((5, 9), 0),
                                            ((12, 9), 1), ((5, 9), 37), ((5, 5), 1)],
                         ids=["hand-200", "card-200", "card-0", "hand-on-table",
                              "card-on-table", "hand-twice"])
def test_the_searches_refuse_a_row_choice_no_game_shows(kind: str, hand: tuple[int, ...],
                                                         card: int) -> None:
    # Card 200 reached the kernel's HEADS[200] (IndexError) in a rollout.
    choice = RowChoice("me", card, _ROWS_12, 1, 9, hand, {"me": 0, "you": 0},
                       ((("me", card), ("you", 90)),))
    _refused(lambda: BUILTIN_PLAYERS[kind](1).choose_row(choice))


@pytest.mark.parametrize(("make", "name"), [
    (lambda: MonteCarloPlayer(budget=-1), "budget"),
    (lambda: MonteCarloPlayer(budget=0), "budget"),
    (lambda: MonteCarloPlayer(budget=math.nan), "budget"),
    (lambda: MonteCarloPlayer(budget=10**9), "budget"),
    (lambda: MonteCarloPlayer(worlds=MOST_WORLDS + 1), "worlds"),
    (lambda: MonteCarloPlayer(worlds=10**12), "worlds"),
    (lambda: MonteCarloPlayer(worlds=2.0), "worlds"),  # type: ignore[arg-type]
    (lambda: MonteCarloPlayer(seed="x"), "seed"),  # type: ignore[arg-type]
    (lambda: MonteCarloPlayer(seed=1.5), "seed"),  # type: ignore[arg-type]
    (lambda: MonteCarloPlayer(rollout=None), "rollout"),  # type: ignore[arg-type]
    (lambda: MonteCarloPlayer(halving="yes"), "halving"),  # type: ignore[arg-type]
    (lambda: GreedyPlayer(seed="x"), "seed"),  # type: ignore[arg-type]
    (lambda: ISMCTSPlayer(seed="x"), "seed"),  # type: ignore[arg-type]
    (lambda: ISMCTSPlayer(iterations=10**12), "iterations"),
    (lambda: ISMCTSPlayer(iterations=MOST_ITERATIONS + 1), "iterations"),
    (lambda: ISMCTSPlayer(budget=4e6), "budget"),
    (lambda: ISMCTSPlayer(paired=None), "paired"),  # type: ignore[arg-type]
], ids=lambda item: item if isinstance(item, str) else "")
def test_a_search_knob_out_of_its_bound_is_refused(make: Callable[[], object],
                                                    name: str) -> None:
    error = _refused(make)
    assert name in str(error) or name == "rollout"


def test_the_bounds_of_the_search_knobs_are_themselves_accepted() -> None:
    assert MonteCarloPlayer(worlds=MOST_WORLDS, budget=3_600_000).worlds == MOST_WORLDS
    assert ISMCTSPlayer(iterations=MOST_ITERATIONS).iterations == MOST_ITERATIONS


def test_a_rollout_places_a_turn_as_the_rules_do() -> None:
    # turn.resolve_turn (the rules, each low card taking the cheapest row) against the rollout's
    # placement, on random tables and turns: the same rows after, the same heads for "me".
    from take5rules.playing.players import cheapest_row
    from take5rules.playing.rollouts import place
    from take5rules.turn import resolve_turn

    rng = random.Random(8)
    for _ in range(300):
        deck = rng.sample(range(1, 105), 5 * 4 + 5)
        table = Table.of([sorted(deck[5 * k:5 * k + 5])[: rng.randint(1, 5)] for k in range(4)])
        plays = dict(zip(["me", "b", "c", "d", "e"], deck[20:], strict=True))
        ruled = resolve_turn(table, plays, lambda choice: cheapest_row(choice.table))
        mine = sum(_heads(card) for card in ruled.taken().get("me", ()))
        now = list(table.rows)
        ordered = sorted(plays.items(), key=lambda play: play[1])
        assert place(now, ordered, "me") == mine
        assert tuple(now) == ruled.table.rows
