"""Properties of whole games, each stated in one line, and a stateful machine playing them."""

from __future__ import annotations

from collections.abc import Iterator
from itertools import pairwise

from hypothesis import given, settings
from hypothesis import strategies as st
from hypothesis.stateful import (
    RuleBasedStateMachine,
    initialize,
    invariant,
    precondition,
    rule,
)

from take5rules.engine import play_game
from take5rules.events import (
    CardPlaced,
    Event,
    GameOver,
    LowCardTaken,
    RoundScored,
    RoundStarted,
    SixthCardTaken,
)
from take5rules.game import add_penalties, game_over, winners
from take5rules.players import CautiousPlayer, LowestCardPlayer, RandomPlayer
from take5rules.round import RoundState, play_turn, round_over, round_penalties
from take5rules.setup import cards_in_play, deal
from take5rules.table import ROW_LIMIT, Table, least_difference_row
from take5rules.turn import RowChoice
from take5rules.variants import Rules, Variant, draft, next_drafter

Rows = tuple[tuple[int, ...], ...]


@st.composite
def games(draw: st.DrawFn) -> tuple[Rules, tuple[Event, ...]]:
    """A whole game between random built-in players, any variant, any legal player count."""
    variant = draw(st.sampled_from(list(Variant)))
    high = {Variant.LOGIC: 6, Variant.TOURNAMENT: 5}.get(variant, 10)
    count = draw(st.integers(2, high))
    kinds = [RandomPlayer, LowestCardPlayer, CautiousPlayer]
    seats = {}
    for seat in range(count):
        kind = draw(st.sampled_from(kinds))
        seats[f"p{seat}"] = kind(draw(st.integers(0, 999))) if kind is RandomPlayer else kind()
    rules = Rules(variant, draw(st.integers(1, 120)))
    return rules, tuple(play_game(seats, rules, draw(st.integers(0, 2**32))))


def placements(events: tuple[Event, ...]) -> Iterator[tuple[Rows, Event]]:
    """Each placement event with the rows it was placed on."""
    rows: Rows = ()
    for event in events:
        if isinstance(event, RoundStarted):
            rows = event.rows
        elif isinstance(event, CardPlaced | SixthCardTaken | LowCardTaken):
            yield rows, event
            rows = event.rows


def all_rows(events: tuple[Event, ...]) -> Iterator[tuple[int, ...]]:
    for before, event in placements(events):
        yield from before
        yield from event.rows  # type: ignore[union-attr]


def forced(before: Rows, event: Event) -> bool:
    """Whether *event* is the placement the rules force on *before*."""
    target = least_difference_row(Table(before), event.card)  # type: ignore[union-attr]
    if isinstance(event, LowCardTaken):
        return target is None and event.taken == before[event.row]
    full = target is not None and len(before[target]) == ROW_LIMIT
    if isinstance(event, SixthCardTaken):
        return full and event.row == target and event.taken == before[target]
    return not full and event.row == target  # type: ignore[union-attr]


def scores(events: tuple[Event, ...]) -> list[RoundScored]:
    return [event for event in events if isinstance(event, RoundScored)]


SETTINGS = settings(max_examples=40)


@SETTINGS
@given(games())
def test_rows_stay_ascending(game: tuple[Rules, tuple[Event, ...]]) -> None:
    assert all(list(row) == sorted(set(row)) for row in all_rows(game[1]))


@SETTINGS
@given(games())
def test_no_row_ever_holds_more_than_five_cards(game: tuple[Rules, tuple[Event, ...]]) -> None:
    assert all(1 <= len(row) <= ROW_LIMIT for row in all_rows(game[1]))


@SETTINGS
@given(games())
def test_every_placement_is_the_forced_one(game: tuple[Rules, tuple[Event, ...]]) -> None:
    assert all(forced(before, event) for before, event in placements(game[1]))


@SETTINGS
@given(games())
def test_totals_never_decrease(game: tuple[Rules, tuple[Event, ...]]) -> None:
    totals = [s.totals for s in scores(game[1])]
    assert all(a[p] <= b[p] for a, b in pairwise(totals) for p in a)


@SETTINGS
@given(games())
def test_game_ends_exactly_when_a_total_reaches_the_threshold(
    game: tuple[Rules, tuple[Event, ...]],
) -> None:
    rules, events = game
    reached = [game_over(s.totals, rules.threshold) for s in scores(events)]
    if rules.variant is not Variant.TOURNAMENT:
        assert reached == [False] * (len(reached) - 1) + [True]


@SETTINGS
@given(games())
def test_winners_hold_the_lowest_total(game: tuple[Rules, tuple[Event, ...]]) -> None:
    over = game[1][-1]
    assert isinstance(over, GameOver)
    lowest = min(over.totals.values())
    assert set(over.winners) == {p for p, t in over.totals.items() if t == lowest}


@SETTINGS
@given(games())
def test_cards_in_each_round_are_distinct_and_from_the_cards_in_play(
    game: tuple[Rules, tuple[Event, ...]],
) -> None:
    rules, events = game
    for start in (e for e in events if isinstance(e, RoundStarted)):
        dealt = [*(r[0] for r in start.rows), *(c for h in start.hands.values() for c in h)]
        pool = cards_in_play(rules, len(start.hands))
        assert len(set(dealt)) == len(dealt) == 10 * len(start.hands) + 4
        assert set(dealt) <= set(pool) and (rules.variant is Variant.STANDARD
                                            or set(dealt) == set(pool))


class GameMachine(RuleBasedStateMachine):
    """Plays whole games with random legal decisions; checks the invariants after every step."""

    def __init__(self) -> None:
        super().__init__()
        self.game_rules = Rules()
        self.pool: tuple[int, ...] = ()
        self.aside: tuple[int, ...] = ()
        self.state: RoundState | None = None
        self.totals: dict[str, int] = {}
        self.previous_totals: dict[str, int] = {}
        self.games = 0
        self.round = 0

    def _deal(self, data: st.DataObject) -> None:
        players = list(self.totals)
        self.round += 1
        if self.game_rules.drafted:  # random picks, in seat order, until four cards remain
            left = list(self.pool)
            picks = []
            for pick in range(10 * len(players)):
                chosen = data.draw(st.sampled_from(left))
                left.remove(chosen)
                picks.append((next_drafter(players, pick), chosen))
            drafted = draft(self.pool, players, picks)
            self.aside = ()
            self.state = RoundState.start(self.round, Table.start(drafted.rows), drafted.hands)
            return
        dealt = deal(data.draw(st.permutations(self.pool)), players)
        self.aside = dealt.aside
        self.state = RoundState.start(self.round, Table.start(dealt.rows), dealt.hands)

    @initialize(
        data=st.data(),
        variant=st.sampled_from([Variant.STANDARD, Variant.TACTICS, Variant.LOGIC]),
        threshold=st.integers(1, 80),
    )
    def start(self, data: st.DataObject, variant: Variant, threshold: int) -> None:
        count = data.draw(st.integers(2, 6 if variant is Variant.LOGIC else 10))
        self.game_rules = Rules(variant, threshold)
        self.totals = {f"p{n}": 0 for n in range(count)}
        self.previous_totals = dict(self.totals)
        self.pool = cards_in_play(self.game_rules, count)
        self._deal(data)

    @precondition(lambda self: self.state is not None and not round_over(self.state))
    @rule(data=st.data())
    def turn(self, data: st.DataObject) -> None:
        assert self.state is not None
        plays = {p: data.draw(st.sampled_from(hand)) for p, hand in self.state.hands.items()}

        def choose(choice: RowChoice) -> int:
            return data.draw(st.integers(0, 3))

        self.state, _ = play_turn(self.state, plays, choose)

    @precondition(lambda self: self.state is not None and round_over(self.state))
    @rule(data=st.data())
    def score(self, data: st.DataObject) -> None:
        assert self.state is not None
        self.previous_totals = dict(self.totals)
        self.totals = add_penalties(self.totals, round_penalties(self.state.piles))
        if game_over(self.totals, self.game_rules.threshold):
            assert set(winners(self.totals)) == {
                p for p, t in self.totals.items() if t == min(self.totals.values())
            }
            self.games += 1  # and a new game begins
            self.totals = dict.fromkeys(self.totals, 0)
            self.previous_totals = dict(self.totals)
        self._deal(data)

    @invariant()
    def rows_ascending_and_at_most_five(self) -> None:
        if self.state is not None:
            assert all(list(r) == sorted(set(r)) and 1 <= len(r) <= 5
                       for r in self.state.table.rows)

    @invariant()
    def all_cards_conserved(self) -> None:
        if self.state is not None:
            everything = [*self.state.table.cards(), *self.aside,
                          *(c for h in self.state.hands.values() for c in h),
                          *(c for pile in self.state.piles.values() for c in pile)]
            assert sorted(everything) == list(self.pool)

    @invariant()
    def totals_never_decrease(self) -> None:
        assert all(self.previous_totals[p] <= self.totals[p] for p in self.totals)


GameMachine.TestCase.settings = settings(max_examples=25, stateful_step_count=60)
TestGameMachine = GameMachine.TestCase
