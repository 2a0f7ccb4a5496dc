"""Properties of whole games, each rule stated from first principles with the rulebook's numbers.

Nothing here asks the library what the rules are: the numbers are the rulebook's (5 cards to a
row, 4 rows, cards 1 to 104 holding 171 bull heads, 10 cards to a hand, 66 points, the reduced
deck of 10 x players + 4 cards) and every expectation is worked out by an independent, plainly
correct formulation (the bull heads from the digits printed on the card, the row a card goes on
by looking at every row). A placement rule that picks the farthest row, a score that counts
cards instead of bull heads, or a row limit of six fails one of these properties.
"""

from __future__ import annotations

from collections.abc import Iterator, Mapping, Sequence
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

from take5rules.events import (
    CardPlaced,
    CardsRevealed,
    Event,
    GameOver,
    LowCardTaken,
    RoundScored,
    RoundStarted,
    SixthCardTaken,
)
from take5rules.game import add_penalties, game_over, winners
from take5rules.playing.engine import play_game
from take5rules.playing.players import CautiousPlayer, LowestCardPlayer, RandomPlayer
from take5rules.round import RoundState, play_turn, round_over, round_penalties
from take5rules.setup import deal
from take5rules.table import Table
from take5rules.turn import LowCard
from take5rules.variants import Rules, Variant, draft

# --- the rulebook's numbers ---------------------------------------------------------------------

ROW_MOST = 5  # a sixth card takes the five
ROWS = 4
DECK = range(1, 105)  # cards 1 to 104
DECK_BULL_HEADS = 171
HAND = 10
THRESHOLD = 66
MOST_PLAYERS = {Variant.STANDARD: 10, Variant.TACTICS: 10, Variant.LOGIC: 6,
                Variant.TOURNAMENT: 5}

Rows = tuple[tuple[int, ...], ...]
Game = tuple[Rules, tuple[Event, ...]]


def heads(card: int) -> int:
    """The bull heads printed on *card*, read from its digits as the rulebook describes them.

    55 (a double that ends in 5) has 7; another double (11, 22 ... 99) has 5; a card ending in 0
    has 3; a card ending in 5 has 2; every other card has 1.
    """
    digits = str(card)
    double = len(digits) == 2 and digits[0] == digits[1]
    if double and digits[1] == "5":
        return 7
    if double:
        return 5
    return {"0": 3, "5": 2}.get(digits[-1], 1)


def test_heads_matches_the_rulebook_count_of_the_deck() -> None:
    """The helper above is right: 171 heads in all; one 7, eight 5s, ten 3s, nine 2s, 76 ones."""
    assert sum(heads(card) for card in DECK) == DECK_BULL_HEADS
    counts = {value: sum(1 for card in DECK if heads(card) == value) for value in (7, 5, 3, 2, 1)}
    assert counts == {7: 1, 5: 8, 3: 10, 2: 9, 1: 76}


def reduced_deck(players: int) -> range:
    """The cards of the tactics, logic and tournament games: 1 to 10 x players + 4."""
    return range(1, HAND * players + ROWS + 1)


def expected_row(rows: Rows, card: int) -> int | None:
    """The row *card* must go on, found by looking at every row, or ``None`` for a low card.

    A card goes on a row whose last card is lower; of those, on the one whose last card is
    nearest below it: no other row's last card lies between that last card and the card.
    """
    below = [index for index in range(ROWS) if rows[index][-1] < card]
    for index in below:
        if not any(rows[index][-1] < rows[other][-1] < card for other in below):
            return index
    return None


# --- whole games --------------------------------------------------------------------------------


@st.composite
def games(draw: st.DrawFn) -> Game:
    """A whole game between random built-in players, any variant, any legal player count."""
    variant = draw(st.sampled_from(list(Variant)))
    count = draw(st.integers(2, MOST_PLAYERS[variant]))
    kinds = [RandomPlayer, LowestCardPlayer, CautiousPlayer]
    seats = {}
    for seat in range(count):
        kind = draw(st.sampled_from(kinds))
        seats[f"p{seat}"] = kind(draw(st.integers(0, 999))) if kind is RandomPlayer else kind()
    rules = Rules(variant, draw(st.sampled_from([THRESHOLD, *range(1, 121)])))
    return rules, tuple(play_game(seats, rules, draw(st.integers(0, 2**32))))


Placed = CardPlaced | SixthCardTaken | LowCardTaken


def placements(events: Sequence[Event]) -> Iterator[tuple[Rows, Placed]]:
    """Each placement event with the rows it was placed on."""
    rows: Rows = ()
    for event in events:
        if isinstance(event, RoundStarted):
            rows = event.rows
        elif isinstance(event, Placed):
            yield rows, event
            rows = event.rows


def rounds(events: Sequence[Event]) -> Iterator[list[Event]]:
    """The events of each round, from its RoundStarted to its RoundScored."""
    current: list[Event] = []
    for event in events:
        if isinstance(event, RoundStarted):
            current = []
        current.append(event)
        if isinstance(event, RoundScored):
            yield current


def scores(events: Sequence[Event]) -> list[RoundScored]:
    return [event for event in events if isinstance(event, RoundScored)]


SETTINGS = settings(max_examples=40)


@SETTINGS
@given(games())
def test_rows_stay_ascending_and_hold_one_to_five_cards(game: Game) -> None:
    for before, event in placements(game[1]):
        for row in (*before, *event.rows):
            assert 1 <= len(row) <= ROW_MOST
            assert all(a < b for a, b in pairwise(row))
        assert len(event.rows) == ROWS


@SETTINGS
@given(games())
def test_every_placement_is_the_one_the_rules_force(game: Game) -> None:
    """Where each card goes, what its player takes, and the rows afterwards."""
    for before, event in placements(game[1]):
        target = expected_row(before, event.card)
        if target is None:  # a low card: its player takes the row of their choice
            assert isinstance(event, LowCardTaken)
            taken_row = event.row
        elif len(before[target]) == ROW_MOST:  # it would be the sixth card: it takes the five
            assert isinstance(event, SixthCardTaken)
            taken_row = target
        else:
            assert isinstance(event, CardPlaced)
            assert event.row == target
            after = [*before]
            after[target] = (*before[target], event.card)
            assert event.rows == tuple(after)
            continue
        assert event.taken == before[taken_row]
        after = [*before]
        after[taken_row] = (event.card,)
        assert event.rows == tuple(after)


@SETTINGS
@given(games())
def test_cards_are_placed_lowest_first(game: Game) -> None:
    revealed: list[int] = []
    placed: list[int] = []
    for event in game[1]:
        if isinstance(event, CardsRevealed):
            assert placed == sorted(revealed)
            revealed = [card for _, card in event.plays]
            placed = []
        elif isinstance(event, Placed):
            placed.append(event.card)
    assert placed == sorted(revealed)


@SETTINGS
@given(games())
def test_every_card_in_play_is_conserved(game: Game) -> None:
    """Every card is in one place at a time: rows, a hand or a bull pile; none comes or goes.

    In the reduced-deck variants the round holds exactly the cards 1 to 10 x players + 4; in
    the standard game 10 x players + 4 distinct cards of 1 to 104 (the rest is set aside).
    """
    rules, events = game
    for events_of_round in rounds(events):
        start = events_of_round[0]
        assert isinstance(start, RoundStarted)
        players = len(start.hands)
        assert all(len(hand) == HAND for hand in start.hands.values())
        assert all(len(row) == 1 for row in start.rows)
        dealt = sorted([*(row[0] for row in start.rows),
                        *(card for hand in start.hands.values() for card in hand)])
        if rules.variant is Variant.STANDARD:
            assert len(set(dealt)) == len(dealt) == HAND * players + ROWS
            assert set(dealt) <= set(DECK)
        else:
            assert dealt == list(reduced_deck(players))
        hands = {player: list(hand) for player, hand in start.hands.items()}
        piles: list[int] = []
        pending: list[int] = []  # revealed, not yet placed
        for event in events_of_round:
            if isinstance(event, CardsRevealed):
                for player, card in event.plays:
                    hands[player].remove(card)
                    pending.append(card)
            elif isinstance(event, Placed):
                pending.remove(event.card)
                if isinstance(event, SixthCardTaken | LowCardTaken):
                    piles += event.taken
                everything = [*(c for row in event.rows for c in row), *piles, *pending,
                              *(c for hand in hands.values() for c in hand)]
                assert sorted(everything) == dealt
        assert all(not hand for hand in hands.values())


@SETTINGS
@given(games())
def test_a_round_has_ten_turns(game: Game) -> None:
    for events_of_round in rounds(game[1]):
        assert sum(isinstance(event, CardsRevealed) for event in events_of_round) == HAND


@SETTINGS
@given(games())
def test_a_round_scores_the_bull_heads_taken(game: Game) -> None:
    """Each player's penalty is the bull heads on the cards they took, not the card count."""
    for events_of_round in rounds(game[1]):
        taken: dict[str, int] = {}
        for event in events_of_round:
            if isinstance(event, SixthCardTaken | LowCardTaken):
                taken[event.player] = taken.get(event.player, 0) + sum(map(heads, event.taken))
        scored = events_of_round[-1]
        assert isinstance(scored, RoundScored)
        assert dict(scored.penalties) == {p: taken.get(p, 0) for p in scored.penalties}


@SETTINGS
@given(games())
def test_totals_add_the_penalties_and_never_decrease(game: Game) -> None:
    previous: Mapping[str, int] | None = None
    for scored in scores(game[1]):
        start = previous if previous is not None else dict.fromkeys(scored.totals, 0)
        assert dict(scored.totals) == {p: start[p] + scored.penalties[p] for p in start}
        assert all(start[p] <= scored.totals[p] for p in start)
        previous = scored.totals


@SETTINGS
@given(games())
def test_the_game_ends_after_the_round_where_a_total_reaches_the_threshold(game: Game) -> None:
    """A tournament instead plays one game per player, whatever the totals."""
    rules, events = game
    totals = [dict(s.totals) for s in scores(events)]
    over = events[-1]
    assert isinstance(over, GameOver)
    if rules.variant is Variant.TOURNAMENT:
        assert len(totals) == len(totals[0])
    else:
        assert all(max(t.values()) < rules.threshold for t in totals[:-1])
        assert max(totals[-1].values()) >= rules.threshold
    assert dict(over.totals) == totals[-1]


@SETTINGS
@given(games())
def test_the_winners_hold_the_lowest_total(game: Game) -> None:
    over = game[1][-1]
    assert isinstance(over, GameOver)
    assert set(over.winners) == {
        p for p, t in over.totals.items() if all(t <= other for other in over.totals.values())
    }


# --- a stateful machine: every variant, tournaments included, with the cards set aside ----------


class GameMachine(RuleBasedStateMachine):
    """Plays games and tournaments with random legal decisions; checks the rules at each step.

    It forms the hands itself (shuffle and deal, or a random draft in seat order), passes the
    tournament hands to the left itself, and keeps the cards set aside, so that conservation is
    checked against the whole deck 1..104 (or the reduced deck), not against the library's idea
    of it.
    """

    def __init__(self) -> None:
        super().__init__()
        self.variant = Variant.STANDARD
        self.threshold = THRESHOLD
        self.players: list[str] = []
        self.deck: list[int] = []
        self.aside: tuple[int, ...] = ()
        self.sheets: dict[str, tuple[int, ...]] = {}
        self.starters: tuple[int, ...] = ()
        self.state: RoundState | None = None
        self.totals: dict[str, int] = {}
        self.previous: dict[str, int] = {}
        self.round = 0

    def _form_hands(self, data: st.DataObject) -> None:
        self.round += 1
        if self.variant is Variant.TOURNAMENT and self.round > 1:
            # game g: seat s plays the sheet drafted by seat s - (g - 1), passed to the left
            count = len(self.players)
            hands = {player: self.sheets[self.players[(seat - self.round + 1) % count]]
                     for seat, player in enumerate(self.players)}
            self.state = RoundState.start(self.round, Table.start(self.starters), hands)
            return
        if self.variant in (Variant.LOGIC, Variant.TOURNAMENT):
            left = list(self.deck)
            picks = []
            for pick in range(HAND * len(self.players)):
                chosen = data.draw(st.sampled_from(left))
                left.remove(chosen)
                picks.append((self.players[pick % len(self.players)], chosen))
            drafted = draft(self.deck, self.players, picks)
            assert sorted(drafted.rows) == sorted(left)
            self.sheets = dict(drafted.hands)
            self.starters = drafted.rows
            self.aside = ()
            self.state = RoundState.start(self.round, Table.start(drafted.rows), drafted.hands)
            return
        dealt = deal(data.draw(st.permutations(self.deck)), self.players)
        self.aside = dealt.aside
        self.state = RoundState.start(self.round, Table.start(dealt.rows), dealt.hands)

    @initialize(data=st.data(), variant=st.sampled_from(list(Variant)),
                threshold=st.sampled_from([THRESHOLD, *range(1, 81)]))
    def start(self, data: st.DataObject, variant: Variant, threshold: int) -> None:
        count = data.draw(st.integers(2, MOST_PLAYERS[variant]))
        self.variant = variant
        self.threshold = threshold
        self.players = [f"p{n}" for n in range(count)]
        self.totals = dict.fromkeys(self.players, 0)
        self.previous = dict(self.totals)
        self.deck = list(DECK if variant is Variant.STANDARD else reduced_deck(count))
        self._form_hands(data)

    @precondition(lambda self: self.state is not None and not round_over(self.state))
    @rule(data=st.data())
    def turn(self, data: st.DataObject) -> None:
        assert self.state is not None
        plays = {p: data.draw(st.sampled_from(hand)) for p, hand in self.state.hands.items()}

        def choose(choice: LowCard) -> int:
            return data.draw(st.integers(0, ROWS - 1))

        self.state, _ = play_turn(self.state, plays, choose)

    @precondition(lambda self: self.state is not None and round_over(self.state))
    @rule(data=st.data())
    def score(self, data: st.DataObject) -> None:
        assert self.state is not None
        assert self.state.turn == HAND
        penalties = round_penalties(self.state.piles)
        assert penalties == {p: sum(map(heads, pile)) for p, pile in self.state.piles.items()}
        self.previous = dict(self.totals)
        self.totals = add_penalties(self.totals, penalties)
        if self.variant is Variant.TOURNAMENT:
            finished = self.round == len(self.players)
        else:
            finished = any(total >= self.threshold for total in self.totals.values())
            assert game_over(self.totals, self.threshold) is finished
        if finished:
            lowest = min(self.totals.values())
            assert set(winners(self.totals)) == {p for p, t in self.totals.items() if t == lowest}
            self.round = 0  # a new game (or tournament) begins
            self.totals = dict.fromkeys(self.totals, 0)
            self.previous = dict(self.totals)
        self._form_hands(data)

    @invariant()
    def rows_ascending_and_at_most_five(self) -> None:
        if self.state is not None:
            assert len(self.state.table.rows) == ROWS
            assert all(1 <= len(row) <= ROW_MOST and all(a < b for a, b in pairwise(row))
                       for row in self.state.table.rows)

    @invariant()
    def all_cards_conserved(self) -> None:
        """Rows, hands, bull piles and the cards aside hold the whole deck, each card once."""
        if self.state is not None:
            everything = [*self.state.table.cards(), *self.aside,
                          *(c for h in self.state.hands.values() for c in h),
                          *(c for pile in self.state.piles.values() for c in pile)]
            whole = DECK if self.variant is Variant.STANDARD else reduced_deck(len(self.players))
            assert sorted(everything) == list(whole)

    @invariant()
    def hands_shrink_by_one_card_a_turn(self) -> None:
        if self.state is not None:
            assert all(len(hand) == HAND - self.state.turn for hand in self.state.hands.values())

    @invariant()
    def totals_never_decrease(self) -> None:
        assert all(self.previous[p] <= self.totals[p] for p in self.totals)


GameMachine.TestCase.settings = settings(max_examples=25, stateful_step_count=60)
TestGameMachine = GameMachine.TestCase
