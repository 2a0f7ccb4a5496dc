"""The game stepper, take5rules.Game: pending decisions, answers checked once, copies, JSON.

Each test names what it guards. Expectations come from the rulebook's numbers (ten cards a
hand, four rows, five cards a row, 104 cards) or from the engine as it was before the stepper
(a digest of its events for fixed seeds), never from the stepper itself.
"""

from __future__ import annotations

import contextlib
import copy
import dataclasses
import hashlib
import json
import random
from collections.abc import Iterator
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from hypothesis.stateful import RuleBasedStateMachine, invariant, precondition, rule

from take5rules import Game, Phase
from take5rules.errors import IllegalMoveError, MalformedInputError, Take5Error
from take5rules.events import CardsRevealed, GameOver, RoundStarted, RowTaken
from take5rules.playing.engine import play_game, play_silently
from take5rules.playing.players import (
    CardView,
    CautiousPlayer,
    LowestCardPlayer,
    RandomPlayer,
    RowChoice,
)
from take5rules.table import Table
from take5rules.variants import Rules, Variant

_LIMITS = {Variant.STANDARD: 10, Variant.TACTICS: 10, Variant.LOGIC: 6, Variant.TOURNAMENT: 5}
_settings = settings(max_examples=25, deadline=None, derandomize=True,
                     suppress_health_check=[HealthCheck.too_slow])

try:  # numpy's scalars are answers too; a [test]-only install has no numpy and skips them
    import numpy as np

    NOT_CARDS_NUMPY: list[object] = [np.float64(1.0), np.bool_(True)]
except ImportError:
    NOT_CARDS_NUMPY = []


def _names(count: int) -> list[str]:
    return [f"p{seat}" for seat in range(count)]


def random_steps(game: Game, rng: random.Random) -> Iterator[tuple[str, int]]:
    """Play *game* to its end with random legal answers; yield each answer given."""
    while game.phase is not Phase.OVER:
        seat = rng.choice(game.to_move)
        answer = rng.choice(game.legal(seat))
        game.act(seat, answer)
        yield seat, answer


# --- the same game as the engine --------------------------------------------------------------


def test_play_game_events_are_those_of_the_engine_before_the_stepper() -> None:
    # The digest of every event's repr for these games, written by take5rules 0.1.0's engine
    # (before play_game drove a Game): the stepper deals, drafts and plays exactly as it did.
    lines = []
    for variant in Variant:
        for seed in range(8):
            count = 4 if variant is not Variant.TOURNAMENT else 3
            seats = {f"p{i}": [RandomPlayer(seed + i), CautiousPlayer(), LowestCardPlayer()][i % 3]
                     for i in range(count)}
            rules = Rules(variant, threshold=40 if seed % 2 else 66)
            lines += [repr(event) for event in play_game(seats, rules, seed=seed)]  # type: ignore[arg-type]
    digest = hashlib.sha256(("\n".join(lines) + "\n").encode()).hexdigest()
    assert digest == "738094f40652f906db827b31273a15174656a161c772ef502f39c67f1b72b6a9"


@pytest.mark.parametrize("variant", list(Variant))
def test_stepping_a_game_gives_the_events_play_game_gives(variant: Variant) -> None:
    # The same decisions, answered through play/take_row/draft, give play_game's events.
    seats = {name: LowestCardPlayer() for name in _names(3)}
    expected = list(play_game(seats, Rules(variant), seed=5))
    game = Game(_names(3), Rules(variant), seed=5)
    got = list(game.events)
    while game.phase is not Phase.OVER:
        seat = game.to_move[0]
        view = game.observe(seat)
        if game.phase is Phase.DRAFT:
            got += game.draft(seat, min(view.pool))
        elif game.phase is Phase.ROW:
            assert view.table is not None
            got += game.take_row(seat, LowestCardPlayer().choose_row(_row_view(game, seat)))
        else:
            got += game.play(seat, min(view.hand))
    assert got == expected
    assert game.result == expected[-1]


def _row_view(game: Game, seat: str) -> Any:
    from take5rules.playing.players import RowChoice

    observed = game.observe(seat)
    assert observed.pending is not None and observed.table is not None
    return RowChoice(seat, observed.pending[1], observed.table)


def test_play_silently_returns_the_game_over_of_the_same_game() -> None:
    seats = {name: RandomPlayer(seat) for seat, name in enumerate(_names(4))}
    over = play_silently(seats)
    again = {name: RandomPlayer(seat) for seat, name in enumerate(_names(4))}
    assert over == list(play_game(again))[-1]


# --- what is pending ----------------------------------------------------------------------------


def test_a_new_game_waits_for_every_seat_card_from_a_sorted_hand_of_ten() -> None:
    game = Game(["ana", "bob", "cyd"], seed=3)
    assert game.phase is Phase.CARDS and game.to_move == ("ana", "bob", "cyd")
    for seat in game.players:
        hand = game.legal(seat)
        assert len(hand) == 10 and list(hand) == sorted(hand)
    assert game.table is not None and all(len(row) == 1 for row in game.table.rows)
    assert (game.round, game.turn, game.result) == (1, 1, None)
    assert [event.kind for event in game.events] == ["game-started", "round-started"]


def test_a_seat_that_laid_its_card_waits_for_the_others() -> None:
    game = Game(["ana", "bob"], seed=3)
    assert game.play("bob", game.legal("bob")[0]) == ()
    assert game.to_move == ("ana",) and game.legal("bob") == ()
    with pytest.raises(IllegalMoveError) as caught:
        game.play("bob", game.legal("ana")[0])
    assert caught.value.rule == "turn.reveal" and caught.value.where.player == "bob"


def test_a_low_card_waits_for_its_player_to_take_a_row() -> None:
    # Ana's 1 is lower than every row: she alone must answer, with a row 0 to 3.
    game = Game.from_deal(["ana", "bob"], Table.of([[10], [20], [30], [40]]),
                          {"ana": (1, 2), "bob": (41, 42)})
    game.play("ana", 1)
    events = game.play("bob", 41)
    assert [event.kind for event in events] == ["cards-revealed"]
    assert game.phase is Phase.ROW and game.to_move == ("ana",)
    assert game.legal("ana") == (0, 1, 2, 3) and game.legal("bob") == ()
    with pytest.raises(IllegalMoveError) as caught:
        game.play("bob", 42)
    assert caught.value.rule == "table.low-card"  # the decision awaited, not turn.reveal
    with pytest.raises(IllegalMoveError) as caught:
        game.take_row("ana", 4)
    assert caught.value.rule == "table.low-card"
    events = game.take_row("ana", 2)
    assert isinstance(events[0], RowTaken) and events[0].taken == (30,)
    assert list(game.to_move) == ["ana", "bob"] and game.turn == 2
    assert game.table is not None and game.table.rows == ((10,), (20,), (1,), (40, 41))


def test_a_draft_waits_for_the_seats_in_turn_and_refuses_a_card_out_of_turn() -> None:
    game = Game(["ana", "bob"], Rules(Variant.LOGIC))
    assert game.phase is Phase.DRAFT and game.to_move == ("ana",)
    assert game.legal("ana") == tuple(range(1, 25))  # 10 x 2 + 4 face-up cards
    with pytest.raises(IllegalMoveError) as caught:
        game.play("ana", 1)
    assert caught.value.rule == "variants.logic"
    assert "turn.reveal" not in str(caught.value)
    with pytest.raises(IllegalMoveError) as caught:
        game.draft("bob", 1)
    assert caught.value.rule == "variants.logic"
    game.draft("ana", 1)
    with pytest.raises(IllegalMoveError):
        game.draft("bob", 1)  # taken already


def test_after_the_end_every_answer_is_refused_as_the_game_being_over() -> None:
    game = Game(["ana", "bob"], Rules(threshold=1), seed=2)
    list(random_steps(game, random.Random(1)))
    assert game.phase is Phase.OVER and game.to_move == ()
    assert isinstance(game.result, GameOver) and max(game.totals.values()) >= 1
    for answer in (game.play, game.take_row, game.draft, game.act):
        with pytest.raises(IllegalMoveError) as caught:
            answer("ana", 1)
        assert caught.value.rule == "game.end"


@pytest.mark.parametrize("answer", [True, 1.0, "1", None, 105, *NOT_CARDS_NUMPY])
def test_a_bool_a_float_or_a_non_card_is_never_a_card_or_a_row(answer: object) -> None:
    game = Game.from_deal(["ana", "bob"], Table.of([[10], [20], [30], [40]]),
                          {"ana": (1, 2), "bob": (41, 42)})
    with pytest.raises(IllegalMoveError):
        game.play("ana", answer)
    game.play("ana", 1)
    game.play("bob", 41)
    with pytest.raises(IllegalMoveError):
        game.take_row("ana", answer if answer != 105 else 4)


def test_numpy_integers_are_accepted_as_cards_and_rows_and_stored_as_int() -> None:
    np = pytest.importorskip("numpy", reason="numpy's integers as answers (take5rules[batch])")
    game = Game.from_deal(["ana", "bob"], Table.of([[10], [20], [30], [40]]),
                          {"ana": (1, 2), "bob": (41, 42)})
    game.act("ana", np.int16(1))
    game.act("bob", np.uint8(41))
    game.act("ana", np.int64(0))
    assert game.table is not None
    assert all(type(card) is int for row in game.table.rows for card in row)


def test_an_unknown_seat_is_not_a_player_of_the_game() -> None:
    game = Game(["ana", "bob"])
    for call in (lambda: game.play("eve", 1), lambda: game.legal("eve"),
                 lambda: game.observe("eve")):
        with pytest.raises(MalformedInputError) as caught:
            call()
        assert caught.value.rule == "setup.players"


def test_from_deal_checks_the_deal_it_is_given() -> None:
    with pytest.raises(MalformedInputError) as caught:
        Game.from_deal(["ana", "bob"], Table.of([[10], [20], [30], [40]]),
                       {"ana": (10,), "bob": (12,)})
    assert caught.value.rule == "cards.deck"
    with pytest.raises(Take5Error) as refused:
        Game.from_deal(["ana", "bob"], Table.of([[10], [20], [30], [40]]),
                       {"ana": (11,), "bob": (12,)}, rules=Rules(Variant.TOURNAMENT))
    assert refused.value.rule == "variants.tournament"


# --- conservation over whole games --------------------------------------------------------------


@_settings
@given(st.sampled_from(list(Variant)), st.integers(0, 2**32), st.data())
def test_random_games_keep_every_card_and_end_by_the_rules(
    variant: Variant, seed: int, data: st.DataObject
) -> None:
    count = data.draw(st.integers(2, _LIMITS[variant]))
    threshold = data.draw(st.sampled_from([1, 20, 66]))
    game = Game(_names(count), Rules(variant, threshold), seed=seed)
    in_play = 104 if variant is Variant.STANDARD else 10 * count + 4
    rounds = 0
    for _ in random_steps(game, random.Random(seed)):
        if game.phase in (Phase.CARDS, Phase.ROW):
            assert game.table is not None
            on_table = [card for row in game.table.rows for card in row]
            held = [card for seat in game.players for card in game._hands[seat]]
            taken = [card for seat in game.players for card in game._piles[seat]]
            laid = list(game._laid.values())  # face down, or revealed and waiting to be placed
            laid += [card for _, card in game._ordered[game._cursor:]]
            # Ten a seat and four rows at the start; nothing appears or vanishes since.
            assert len(on_table) + len(held) + len(taken) + len(laid) == 10 * count + 4
            assert len(set(on_table + held + taken + laid)) == 10 * count + 4
            assert max(on_table + held + taken + laid) <= in_play
            assert all(1 <= len(row) <= 5 and list(row) == sorted(row)
                       for row in game.table.rows)
        rounds = game.round
    over = game.result
    assert over is not None and over.rounds == rounds
    if variant is Variant.TOURNAMENT:
        assert rounds == count
    else:
        assert max(over.totals.values()) >= threshold
    least = min(over.totals.values())
    assert over.winners == tuple(p for p in game.players if over.totals[p] == least)


# --- copies and JSON ----------------------------------------------------------------------------


@_settings
@given(st.sampled_from(list(Variant)), st.integers(0, 2**32), st.integers(0, 400))
def test_a_game_saved_to_json_at_any_point_reads_back_equal_and_plays_on_alike(
    variant: Variant, seed: int, steps: int
) -> None:
    rng = random.Random(seed)
    game = Game(_names(rng.randint(2, _LIMITS[variant])), Rules(variant, 30), seed=seed)
    for count, _ in enumerate(random_steps(game, rng)):
        if count == steps:
            break
    document = json.loads(json.dumps(game.to_json()))
    copy, read = game.copy(), Game.from_json(document)
    assert copy == game and read == game
    # Both play on alike, the random generator included: the next deals are the same.
    for twin in (copy, read):
        assert list(random_steps(twin, random.Random(seed))) == list(
            random_steps(game.copy(), random.Random(seed))
        )
        assert twin.result == twin.result


def test_a_copy_is_independent_of_its_original() -> None:
    game = Game(["ana", "bob"], seed=4)
    twin = game.copy()
    twin.play("ana", twin.legal("ana")[0])
    assert game.to_move == ("ana", "bob") and twin.to_move == ("bob",)
    assert game != twin


def _saved(steps: int = 3, rules: Rules | None = None) -> dict[str, Any]:
    game = Game(["ana", "bob"], rules, seed=8)
    rng = random.Random(2)
    for count, _ in enumerate(random_steps(game, rng)):
        if count == steps:
            break
    return json.loads(json.dumps(game.to_json()))  # type: ignore[no-any-return]


def _dealt(**changes: Any) -> dict[str, Any]:
    """A game taken up at round 2 from a deal (totals 10 and 20), saved before any move."""
    game = Game.from_deal(["ana", "bob"], Table.of([[10], [20], [30], [40]]),
                          {"ana": (1, 2), "bob": (41, 42)}, round=2,
                          totals={"ana": 10, "bob": 20})
    document: dict[str, Any] = json.loads(json.dumps(game.to_json()))
    document.update(changes)
    return document


def _edits() -> list[tuple[str, Any, str]]:
    def card_of_the_other_hand(doc: dict[str, Any]) -> None:
        game = Game(["ana", "bob"], seed=8)
        doc["moves"][0][1] = game.legal("bob")[0]  # ana lays a card of bob's hand

    def card_laid_twice(doc: dict[str, Any]) -> None:
        # Seed 1 starts the rows with 35, 30, 76 and 14 and deals ana 98 and bob 97, which
        # both go on a row: turn 2 then asks for cards again, and ana lays 98 a second time.
        doc.update(seed=1, moves=[["ana", 98], ["bob", 97], ["ana", 98]])

    def seat_out_of_turn(doc: dict[str, Any]) -> None:
        doc["moves"].append(list(doc["moves"][-1]))  # a second card from the same seat

    def negative_total(doc: dict[str, Any]) -> None:
        doc.update(_dealt())
        doc["totals_before"]["ana"] = -1

    def total_at_the_threshold(doc: dict[str, Any]) -> None:
        doc.update(_dealt())
        doc["totals_before"]["ana"] = 66

    def card_not_in_play(doc: dict[str, Any]) -> None:
        doc.update(_dealt())
        doc["rules"]["variant"] = "tactics"
        doc["deals"][0]["hands"]["bob"] = [41, 99]

    def unknown_key(doc: dict[str, Any]) -> None:
        doc["extra"] = 1

    def missing_key(doc: dict[str, Any]) -> None:
        del doc["seed"]

    def bool_round(doc: dict[str, Any]) -> None:
        doc["first_round"] = True

    def two_players_named_alike(doc: dict[str, Any]) -> None:
        doc["players"] = ["ana", "ana"]

    return [
        ("a card of another hand", card_of_the_other_hand, "turn.reveal"),
        ("a card laid twice", card_laid_twice, "turn.reveal"),
        ("a card from a seat that has laid its card", seat_out_of_turn, "turn.reveal"),
        ("a negative total", negative_total, "game.totals"),
        ("a total at the threshold before a round", total_at_the_threshold, "game.end"),
        ("cards beyond the tactics deck", card_not_in_play, "variants.tactics"),
        ("an unknown key", unknown_key, "state"),
        ("a missing key", missing_key, "state"),
        ("a round that is a bool", bool_round, "state"),
        ("a name used twice", two_players_named_alike, "setup.players"),
    ]


@pytest.mark.parametrize(("what", "edit", "rule"), _edits(), ids=[e[0] for e in _edits()])
def test_from_json_refuses_a_hand_edited_document_naming_the_rule(
    what: str, edit: Any, rule: str
) -> None:
    document = _saved(steps=3)
    edit(document)
    with pytest.raises(Take5Error) as caught:
        Game.from_json(document)
    assert caught.value.rule == rule, what


def test_from_json_refuses_a_row_outside_0_to_3_for_a_low_card() -> None:
    game = Game(["ana", "bob"], seed=1)
    game.play("ana", 9)
    game.play("bob", 1)  # lower than every row: bob must take one
    game.take_row("bob", 0)
    document = json.loads(json.dumps(game.to_json()))
    assert document["moves"][-1] == ["bob", 0]
    document["moves"][-1][1] = 5
    with pytest.raises(IllegalMoveError) as caught:
        Game.from_json(document)
    assert caught.value.rule == "table.low-card"


def test_from_json_refuses_a_draft_pick_out_of_turn() -> None:
    document = _saved(steps=3, rules=Rules(Variant.LOGIC))
    document["moves"][0][0], document["moves"][1][0] = "bob", "ana"
    with pytest.raises(IllegalMoveError) as caught:
        Game.from_json(document)
    assert caught.value.rule == "variants.logic"


def test_from_json_refuses_what_is_not_a_document() -> None:
    values: list[object] = [None, [], "game", {"format": "take5rules-game"}]
    for value in values:
        with pytest.raises(MalformedInputError) as caught:
            Game.from_json(value)
        assert caught.value.rule == "state"


def test_events_of_a_step_are_the_cards_revealed_then_their_placements() -> None:
    game = Game(["ana", "bob"], seed=1)
    game.play("ana", game.legal("ana")[-1])
    events = game.play("bob", game.legal("bob")[-1])
    assert isinstance(events[0], CardsRevealed) and len(events) == 3
    assert game.events == events
    assert isinstance(Game(["ana", "bob"]).events[1], RoundStarted)


# --- what a seat may know -----------------------------------------------------------------------


def _cards_shown(view: Any) -> set[int]:
    """Every card a view or observation shows, from each of its card-holding fields."""
    shown: set[int] = set()
    table = getattr(view, "table", None)
    if table is not None:
        shown.update(card for row in table.rows for card in row)
    shown.update(getattr(view, "hand", ()))
    shown.update(getattr(view, "pool", ()))
    shown.update(card for turn in getattr(view, "revealed", ()) for _, card in turn)
    shown.update(card for pile in getattr(view, "taken", {}).values() for card in pile)
    shown.update(card for row in getattr(view, "start", ()) for card in row)
    shown.update(card for _, card in getattr(view, "picks", ()))
    for name in ("card", "laid"):
        if isinstance(getattr(view, name, None), int):
            shown.add(getattr(view, name))
    pending = getattr(view, "pending", None)
    if pending is not None:
        shown.add(pending[1])
    return shown


_PLAIN = (int, str, type(None))


def _only_plain_values(value: object, depth: int = 0) -> None:
    """Nothing but ints, texts, tuples, read-only mappings, tables and phases: no generator."""
    assert depth < 6
    if isinstance(value, (*_PLAIN, Phase)):
        return
    if isinstance(value, tuple):
        for item in value:
            _only_plain_values(item, depth + 1)
    elif type(value).__name__ == "mappingproxy":
        for key, item in value.items():  # type: ignore[attr-defined]
            _only_plain_values(key, depth + 1)
            _only_plain_values(item, depth + 1)
    elif isinstance(value, Table):
        _only_plain_values(value.rows, depth + 1)
    else:
        fields = getattr(type(value), "__dataclass_fields__", None)
        assert fields is not None, f"{type(value).__name__} in a view"
        for name in fields:
            _only_plain_values(getattr(value, name), depth + 1)


class _Spy:
    """A random player that writes down every view it is handed, as it is at the call.

    A view describes the moment of the call (the engine's views are read from the game when
    read); ``copy.copy`` keeps that moment.
    """

    def __init__(self, name: str, seed: int, log: list[tuple[str, Any]]) -> None:
        self.name, self.player, self.log = name, RandomPlayer(seed), log

    def choose_card(self, view: Any) -> int:
        self.log.append((self.name, copy.copy(view)))
        card = self.player.choose_card(view)
        self.log.append((self.name, ("laid", card)))
        return card

    def choose_row(self, choice: Any) -> int:
        self.log.append((self.name, copy.copy(choice)))
        return self.player.choose_row(choice)

    def choose_draft(self, view: Any) -> int:
        self.log.append((self.name, copy.copy(view)))
        return self.player.choose_draft(view)


class _Shown:
    """What each seat has been shown so far, worked out from the events alone."""

    def __init__(self, variant: Variant, count: int) -> None:
        self.public: set[int] = set()
        self.own: dict[str, set[int]] = {}
        self.face_up = set(range(1, 10 * count + 5)) if variant is not Variant.STANDARD else set()
        self.checked = 0

    def see(self, event: Any) -> None:
        if isinstance(event, RoundStarted):
            self.public.update(card for row in event.rows for card in row)
            self.own = {name: set(hand) for name, hand in event.hands.items()}
        elif isinstance(event, CardsRevealed):
            self.public.update(card for _, card in event.plays)
        elif event.kind == "card-drafted":
            self.public.add(event.card)

    def check(self, log: list[tuple[str, Any]]) -> None:
        """Every view handed since the last check shows only cards its seat was shown."""
        turn_cards: set[int] = set()
        for name, view in log[self.checked:]:
            if isinstance(view, tuple):
                turn_cards.add(view[1])
                continue
            _only_plain_values(view)
            assert view.player == name
            allowed = self.public | self.own.get(name, set())
            if type(view).__name__ == "RowChoice":
                allowed |= turn_cards  # this turn's cards are revealed now
            if type(view).__name__ == "DraftView":
                allowed |= self.face_up
            assert _cards_shown(view) <= allowed, (name, view)
        self.checked = len(log)


@pytest.mark.parametrize("variant", list(Variant))
def test_no_view_shows_a_card_its_seat_was_not_shown(variant: Variant) -> None:
    # A seat is shown: the rows laid out, the cards revealed, the draft's picks and face-up
    # cards, and its own hand. Never another hand, a card face down, a card set aside, or the
    # random generator. The events carry everything; what the seats were shown is worked out
    # here from them, independently of how the views are built.
    for seed in range(3):
        log: list[tuple[str, Any]] = []
        seats = {name: _Spy(name, seed * 7 + seat, log) for seat, name in enumerate(_names(3))}
        shown = _Shown(variant, 3)
        for event in play_game(seats, Rules(variant), seed=seed):
            shown.check(log)
            shown.see(event)
        shown.check(log)
        assert shown.checked > 30


def test_an_observation_shows_only_what_its_seat_was_shown() -> None:
    for variant in Variant:
        game = Game(_names(3), Rules(variant), seed=4)
        shown = _Shown(variant, 3)
        rng = random.Random(4)
        events = list(game.events)
        while True:
            for event in events:
                shown.see(event)
            for seat in game.players:
                seen = game.observe(seat)
                _only_plain_values(seen)
                allowed = shown.public | shown.own.get(seat, set()) | set(seen.pool)
                assert _cards_shown(seen) <= allowed
                assert set(seen.pool) <= shown.face_up
            if game.phase is Phase.OVER:
                break
            seat = rng.choice(game.to_move)
            events = list(game.act(seat, rng.choice(game.legal(seat))))


def test_a_view_holds_the_round_history_with_perfect_recall() -> None:
    log: list[tuple[str, Any]] = []
    seats = {name: _Spy(name, seat, log) for seat, name in enumerate(["ana", "bob"])}
    events = list(play_game(seats, seed=6))
    start = next(event for event in events if isinstance(event, RoundStarted))
    revealed = [event.plays for event in events if isinstance(event, CardsRevealed)
                and event.round == 1]
    views = [view for name, view in log if name == "bob" and type(view).__name__ == "CardView"]
    tenth = views[9]
    assert (tenth.round, tenth.turn, tenth.player) == (1, 10, "bob")
    assert tenth.start == start.rows
    assert list(tenth.revealed) == revealed[:9]  # nine turns revealed before the tenth
    taken = {name: [] for name in ("ana", "bob")}  # type: dict[str, list[int]]
    for event in events:
        if isinstance(event, RowTaken) and event.round == 1 and event.turn < 10:
            taken[event.player] += event.taken
    assert {name: list(pile) for name, pile in tenth.taken.items()} == taken
    assert tenth.picks == ()


def _rewrite(target: object, name: str, value: object) -> None:
    """Try to rewrite *target*'s *name*, with plain assignment and with object.__setattr__."""
    with pytest.raises(dataclasses.FrozenInstanceError):
        setattr(target, name, value)
    with contextlib.suppress(AttributeError):  # a field read from the game has no slot
        object.__setattr__(target, name, value)


def test_a_player_that_changes_its_view_changes_nothing_else() -> None:
    # Ana's player rewrites everything it is handed, through object.__setattr__ too; Bob's
    # views, the events and the result are those of the same game with an honest Ana.
    class Vandal:
        def __init__(self) -> None:
            self.player = RandomPlayer(1)

        def choose_card(self, view: Any) -> int:
            card = self.player.choose_card(view)
            _rewrite(view.table, "rows", ((1,), (2,), (3,), (4,)))
            for name, value in (("hand", (99,)), ("revealed", ()), ("player", "bob"),
                                ("taken", {"bob": (55,)}), ("turn", 9)):
                _rewrite(view, name, value)
            return card

        def choose_row(self, choice: Any) -> int:
            row = self.player.choose_row(choice)
            _rewrite(choice.table, "rows", ((1,), (2,), (3,), (4,)))
            for name, value in (("hand", (99,)), ("card", 1), ("player", "bob")):
                _rewrite(choice, name, value)
            return row

        def choose_draft(self, view: Any) -> int:
            return self.player.choose_draft(view)

    honest_log: list[tuple[str, Any]] = []
    vandal_log: list[tuple[str, Any]] = []
    honest = {"ana": RandomPlayer(1), "bob": _Spy("bob", 2, honest_log)}
    vandal = {"ana": Vandal(), "bob": _Spy("bob", 2, vandal_log)}
    assert list(play_game(vandal, seed=3)) == list(play_game(honest, seed=3))  # type: ignore[arg-type]
    assert vandal_log == honest_log
    # And the other way round: Bob's table is rewritten after he read it; Ana is not fooled.
    ana_log: list[tuple[str, Any]] = []
    honest = {"bob": RandomPlayer(1), "ana": _Spy("ana", 2, ana_log)}
    vandal = {"bob": Vandal(), "ana": _Spy("ana", 2, vandal_log)}
    vandal_log.clear()
    assert list(play_game(vandal, seed=5)) == list(play_game(honest, seed=5))  # type: ignore[arg-type]
    assert vandal_log == ana_log
    game = Game(["ana", "bob"], seed=3)
    seen = game.observe("ana")
    assert seen.table is not None
    object.__setattr__(seen.table, "rows", ((1,), (2,), (3,), (4,)))
    assert game.observe("bob").table == game.table != seen.table


def test_a_view_describes_the_moment_of_the_call_and_a_copy_keeps_it() -> None:
    # The engine hands each seat one view for the game, read when read: a view kept after the
    # call shows the game as it is later; copy.copy and dataclasses.replace keep the moment,
    # as a plain frozen CardView or RowChoice.
    kept: list[tuple[Any, Any, tuple[int, ...], int]] = []

    class Keeper(RandomPlayer):
        def choose_card(self, view: Any) -> int:
            kept.append((view, copy.copy(view), tuple(view.hand), view.turn))
            return super().choose_card(view)

        def choose_row(self, choice: Any) -> int:
            kept.append((choice, dataclasses.replace(choice), choice.hand, choice.card))
            return super().choose_row(choice)

    for _ in play_game({"ana": Keeper(1), "bob": RandomPlayer(2)}, seed=2):
        pass
    views = [entry for entry in kept if type(entry[1]) is CardView]
    rows = [entry for entry in kept if type(entry[1]) is RowChoice]
    assert len(views) >= 20 and rows
    for view, moment, hand, turn in views:
        assert (moment.hand, moment.turn, moment.player) == (hand, turn, "ana")
        assert view.player == "ana" and isinstance(view, CardView)
    assert len({moment.turn for _, moment, _, _ in views[:10]}) == 10  # one moment a turn
    assert views[0][0].turn != views[0][1].turn  # the view itself has moved on
    for _, moment, hand, card in rows:
        assert (moment.hand, moment.card) == (hand, card) and moment.table.rows
    live = views[0][0]
    assert copy.copy(live) == dataclasses.replace(live) == CardView(
        live.round, live.turn, live.table, live.hand, live.totals, live.player, live.revealed,
        live.taken, live.start, live.picks)


# --- a stateful machine: random legal and illegal answers -------------------------------------



class GameMachine(RuleBasedStateMachine):
    """Drives a Game with random answers, legal or not, and checks what must always hold."""

    def __init__(self) -> None:
        super().__init__()
        self.game: Game | None = None
        self.totals: dict[str, int] = {}

    @precondition(lambda self: self.game is None)
    @rule(variant=st.sampled_from(list(Variant)), seed=st.integers(0, 2**16),
          count=st.integers(2, 5), threshold=st.sampled_from([5, 30, 66]))
    def start(self, variant: Variant, seed: int, count: int, threshold: int) -> None:
        self.game = Game(_names(count), Rules(variant, threshold), seed=seed)
        self.totals = dict(self.game.totals)

    @precondition(lambda self: self.game is not None and self.game.phase is not Phase.OVER)
    @rule(data=st.data())
    def answer_legally(self, data: st.DataObject) -> None:
        assert self.game is not None
        seat = data.draw(st.sampled_from(self.game.to_move))
        self.game.act(seat, data.draw(st.sampled_from(self.game.legal(seat))))

    @precondition(lambda self: self.game is not None)
    @rule(seat=st.sampled_from([*_names(5), "eve"]),
          answer=st.one_of(st.integers(-3, 110), st.booleans(), st.floats(0, 9), st.none()))
    def answer_anything(self, seat: str, answer: object) -> None:
        assert self.game is not None
        before = self.game.copy()
        legal = seat in self.game.players and answer in self.game.legal(seat) and type(
            answer) is int
        try:
            self.game.act(seat, answer)
        except Take5Error:
            assert not legal
            assert self.game == before  # a refused answer changes nothing
        else:
            assert legal

    @precondition(lambda self: self.game is not None)
    @rule()
    def save_and_read_back(self) -> None:
        assert self.game is not None
        document = json.loads(json.dumps(self.game.to_json()))
        assert Game.from_json(document) == self.game
        assert self.game.copy() == self.game

    @invariant()
    def cards_are_kept_rows_ascend_totals_grow(self) -> None:
        game = self.game
        if game is None or game.phase is Phase.DRAFT:
            return
        assert game.table is not None
        rows = game.table.rows
        assert len(rows) == 4 and all(1 <= len(row) <= 5 and list(row) == sorted(row)
                                      and len(set(row)) == len(row) for row in rows)
        seen = [card for row in rows for card in row]
        seen += [card for seat in game.players for card in game._hands[seat]]
        seen += [card for seat in game.players for card in game._piles[seat]]
        seen += list(game._laid.values()) + [card for _, card in game._ordered[game._cursor:]]
        count = len(game.players)
        if game.phase is not Phase.OVER:
            assert sorted(seen) == sorted(set(seen)) and len(seen) == 10 * count + 4
        assert all(game.totals[seat] >= self.totals[seat] for seat in game.players)
        self.totals = dict(game.totals)


TestGameMachine = GameMachine.TestCase
TestGameMachine.settings = settings(max_examples=30, stateful_step_count=60, deadline=None,
                                    derandomize=True,
                                    suppress_health_check=[HealthCheck.too_slow])


# --- events as JSON -----------------------------------------------------------------------------


@pytest.mark.parametrize("variant", list(Variant))
def test_every_event_serializes_to_json_with_its_kind_and_fields(variant: Variant) -> None:
    seats = {name: LowestCardPlayer() for name in _names(3)}
    kinds = set()
    for event in play_game(seats, Rules(variant), seed=2):
        document = event.to_json()
        assert json.loads(json.dumps(document)) == document  # JSON-ready as it is
        assert document["kind"] == event.kind
        kinds.add(event.kind)
        if isinstance(event, RowTaken):
            assert document["taken"] == list(event.taken)
            assert document["rows"] == [list(row) for row in event.rows]
        if isinstance(event, GameOver):
            assert document["totals"] == dict(event.totals)
            assert document["winners"] == list(event.winners)
        if event.kind == "game-started":
            assert document["rules"] == {"variant": variant.value, "threshold": 66}
    assert {"game-started", "round-started", "cards-revealed", "card-placed",
            "round-scored", "game-over"} <= kinds


def test_play_game_yields_each_turn_before_asking_the_next() -> None:
    # A human at the table sees turn t told before choosing a card for turn t + 1.
    seen: list[Any] = []

    class Watcher(LowestCardPlayer):
        def choose_card(self, view: Any) -> int:
            told = [event for event in seen if isinstance(event, CardsRevealed)
                    and event.round == view.round]
            assert len(told) == view.turn - 1
            return super().choose_card(view)

    for event in play_game({"ana": Watcher(), "bob": Watcher()}, Rules(threshold=10), seed=1):
        seen.append(event)
    assert isinstance(seen[-1], GameOver)
