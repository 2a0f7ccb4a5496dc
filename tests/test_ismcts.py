"""The ISMCTS player of playing.ismcts: its search, its seed, every variant, no peeking."""

from __future__ import annotations

import math

import pytest

from take5rules.agents.arena import load_player
from take5rules.errors import RulesError
from take5rules.playing.engine import play_game, play_silently
from take5rules.playing.ismcts import MOST_ITERATIONS, ISMCTSPlayer
from take5rules.playing.kinds import BUILTIN_PLAYERS, SEEDED_PLAYERS
from take5rules.playing.players import (
    CardView,
    CautiousPlayer,
    Player,
    RowChoice,
)
from take5rules.table import Table
from take5rules.variants import PLAYER_RANGE, Rules, Variant
from test_bots import _pairs

# The row 20 21 22 23 24 holds 3 + 1 + 5 + 1 + 1 = 11 bull heads (a multiple of 10 has 3, of 11
# has 5, any other card here 1); 50, 60 and 70 hold 3 each.
ROWS = [[20, 21, 22, 23, 24], [50], [60], [70]]


def _low_card_choice() -> RowChoice:
    """At the ninth turn "me" played 1, below every row, and "you" 90; "me" keeps 25."""
    return RowChoice("me", 1, Table.of(ROWS), 1, 9, (25,), {"me": 0, "you": 0},
                     ((("me", 1), ("you", 90)),), start=((20,), (50,), (60,), (70,)))


def test_ismcts_takes_the_row_that_its_next_card_would_end() -> None:
    # Taking a row of 3 now leaves 25 to be the sixth card of 20..24 next turn: 3 + 11 = 14
    # heads. Taking 20..24 now costs 11, and 25 then goes safely on the 1. No card of "you" can
    # come between 24 and 25, so the first row is best whatever "you" holds.
    assert ISMCTSPlayer(iterations=40, seed=3).choose_row(_low_card_choice()) == 0


def test_ismcts_keeps_the_root_s_visits_and_means_of_its_last_search() -> None:
    player = ISMCTSPlayer(iterations=40, seed=3)
    assert player.last_search == {}
    row = player.choose_row(_low_card_choice())
    visits = {action: count for action, (count, _) in player.last_search.items()}
    assert set(visits) == {0, 1, 2, 3} and sum(visits.values()) == 40
    assert visits[row] == max(visits.values())
    # Row 0 costs its 11 heads and 25 then goes on the 1 safely: 11 in every world.
    assert player.last_search[0][1] == 11
    hand = (5, 14, 38, 44, 59, 60, 71, 88, 95, 104)
    view = CardView(1, 1, Table.of([[12], [37], [43], [58]]), hand,
                    {"me": 0, "ana": 0, "bob": 0}, player="me")
    card = player.choose_card(view)
    assert set(player.last_search) == set(hand)
    assert sum(count for count, _ in player.last_search.values()) == 40
    assert player.last_search[card][0] == max(c for c, _ in player.last_search.values())
    forced = CardView(10, 1, Table.of([[12], [37], [43], [58]]), (60,),
                      {"me": 0, "ana": 0, "bob": 0}, player="me")
    assert player.choose_card(forced) == 60 and player.last_search == {}  # no search


def test_ismcts_is_reproducible_from_its_seed() -> None:
    def decisions(seed: int) -> list[int]:
        views = [CardView(1, 1, Table.of([[12], [37], [43], [58]]), hand,
                          {"me": 0, "ana": 0, "bob": 0}, player="me")
                 for hand in ((5, 14, 38, 44, 59, 60, 71, 88, 95, 104),
                              (3, 13, 22, 36, 48, 57, 66, 77, 90, 101))]
        player = ISMCTSPlayer(iterations=30, seed=seed)
        return [player.choose_card(view) for view in views * 3]

    assert decisions(4) == decisions(4)
    assert len({tuple(decisions(seed)) for seed in range(6)}) > 1  # the seed matters


def test_ismcts_plays_whole_games_the_same_from_the_same_seed() -> None:
    def game(seed: int) -> dict[str, int]:
        seats: dict[str, Player] = {"ismcts": ISMCTSPlayer(iterations=6, seed=seed),
                                    "cautious": CautiousPlayer(), "other": CautiousPlayer()}
        return dict(play_silently(seats, Rules(threshold=20), seed=9).totals)

    assert game(4) == game(4)


@pytest.mark.parametrize(("variant", "count"), [
    (variant, count) for variant in Variant
    for count in range(PLAYER_RANGE[variant][0], PLAYER_RANGE[variant][1] + 1)])
def test_ismcts_plays_every_variant_with_every_number_of_players(variant: Variant,
                                                                count: int) -> None:
    seats: dict[str, Player] = {f"s{k}": ISMCTSPlayer(iterations=3, seed=k) for k in range(count)}
    seats["s1"] = ISMCTSPlayer(iterations=3, rollout="random", seed=1)
    seats["s0"] = ISMCTSPlayer(iterations=4, seed=0, paired=False)
    over = play_silently(seats, Rules(variant, threshold=12), seed=count)
    assert set(over.totals) == set(seats)


@pytest.mark.parametrize("paired", [True, False])
def test_ismcts_decides_the_same_at_a_table_that_lies_about_the_hidden_cards(
        paired: bool) -> None:
    pairs = _pairs(lambda: ISMCTSPlayer(iterations=40, seed=7, paired=paired), seed=3)
    assert len(pairs) >= 10
    assert all(truthful == lied for truthful, lied in pairs)


def test_ismcts_is_the_kind_ismcts_seeded_by_its_seat() -> None:
    assert "ismcts" in BUILTIN_PLAYERS and "ismcts" in SEEDED_PLAYERS
    player = load_player("ismcts", 3)
    assert isinstance(player, ISMCTSPlayer) and player.seed == 3


def test_a_budget_stops_the_search_after_every_root_child_was_tried() -> None:
    view = CardView(1, 1, Table.of([[12], [37], [43], [58]]),
                    (5, 14, 38, 44, 59, 60, 71, 88, 95, 104), {"me": 0, "ana": 0}, player="me")
    # A millionth of a millisecond is up at once: the search still tries each of the 10 cards,
    # then stops, as a search of 10 iterations does.
    for seed in range(8):
        assert (ISMCTSPlayer(iterations=MOST_ITERATIONS, budget=1e-6, seed=seed).choose_card(view)
                == ISMCTSPlayer(iterations=10, seed=seed).choose_card(view))


@pytest.mark.parametrize("iterations", [0, -1, True, 2.0, "8"])
def test_ismcts_refuses_a_number_of_iterations_that_is_no_count(iterations: object) -> None:
    with pytest.raises(RulesError) as error:
        ISMCTSPlayer(iterations=iterations)  # type: ignore[arg-type]
    assert error.value.rule == "argument"


@pytest.mark.parametrize(("name", "value"), [
    ("exploration", -0.5), ("exploration", math.nan), ("exploration", math.inf),
    ("exploration", True), ("exploration", "1"), ("budget", 0), ("budget", -5.0),
    ("budget", math.nan), ("budget", math.inf), ("budget", False), ("budget", "10"),
])
def test_ismcts_refuses_an_exploration_or_budget_that_is_no_number(name: str,
                                                                    value: object) -> None:
    with pytest.raises(RulesError) as error:
        ISMCTSPlayer(**{name: value})  # type: ignore[arg-type]
    assert error.value.rule == "argument" and name in str(error.value)


def test_ismcts_refuses_an_unknown_rollout() -> None:
    with pytest.raises(RulesError) as error:
        ISMCTSPlayer(rollout="clever")
    assert error.value.rule == "argument"


@pytest.mark.parametrize("kind", ["montecarlo", "ismcts", "best"])
def test_a_search_made_by_its_kind_name_alone_plays_the_same_game_every_time(kind: str) -> None:
    # take5rules play makes its seats with no seed: a game of a given seed must not change
    # from one run to the next (a search seeded with None drew its own seed).
    def game() -> list[object]:
        seats: dict[str, Player] = {"s": BUILTIN_PLAYERS[kind](), "c": CautiousPlayer()}
        return list(play_game(seats, Rules(threshold=12), 4))

    assert game() == game()
