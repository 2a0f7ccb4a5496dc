"""Hostile input to the batched simulator: every input gets a correct answer or a clear error.

Each case of the issue "Hostile input on the newest surfaces" (batch section) is a test here,
and Hypothesis throws arbitrary answers, arguments and hand-built states at the batch. The rule:
a :class:`~take5rules.errors.Take5Error` naming the rule or the argument (and, for a policy's
answer, the game and the seat), or a correct result; never a numpy, attribute or index error,
and never a change to another game. A turn refused part-way leaves every game as it was.
"""

from __future__ import annotations

import contextlib
from collections.abc import Callable
from typing import Any

import pytest

pytest.importorskip("numpy", reason="the batched simulator needs numpy (take5rules[batch])")

import numpy as np
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from numpy.typing import NDArray

from take5rules.agents import batch
from take5rules.agents.batch import placement as _kernel
from take5rules.errors import IllegalMoveError, MalformedInputError, Take5Error
from take5rules.variants import Rules, Variant

KERNELS = ["numpy", "compiled"] if _kernel.numba is not None else ["numpy"]


@pytest.fixture(autouse=True, params=KERNELS)
def kernel(request: pytest.FixtureRequest, monkeypatch: pytest.MonkeyPatch) -> str:
    monkeypatch.setattr(_kernel, "AVAILABLE", request.param == "compiled")
    return str(request.param)


def _two_games() -> batch.BatchState:
    # Game 0 deals 1..104 in order, game 1 in reverse: rows 21-24 and 84-81.
    return batch.start([list(range(1, 105)), list(range(104, 0, -1))], players=2)


def _snapshot(state: batch.BatchState) -> tuple[Any, ...]:
    return (
        [state.table(g) for g in range(state.games)], state.hands.tolist(),
        state.penalties.tolist(), state.turn, None if state.piles is None else state.piles.sum(),
    )


def _answering(value: object) -> batch.RowPolicy:
    def policy(view: batch.RowView, rng: np.random.Generator) -> Any:
        if callable(value):
            return value(len(view))
        return value

    return policy


ROW_ANSWERS: list[object] = [
    lambda n: np.full(n, -1), lambda n: np.full(n, -4), lambda n: np.full(n, 1.7),
    lambda n: np.full(n, True), lambda n: np.full(n, "1"), lambda n: np.full(n, 4),
    lambda n: np.full(n, 7), lambda n: np.full(n, -5), lambda n: np.full(n, np.nan),
    lambda n: np.full(n, 10**6), lambda n: [1.0] * n, lambda n: [True] * n, lambda n: ["1"] * n,
    None, 1, 2.5, "0", lambda n: [0] * (n + 1), lambda n: [[0]] * n, lambda n: [0, [1]],
    lambda n: np.full(n, 2**63, dtype=np.uint64), lambda n: np.full(n, 1 + 0j),
    lambda n: np.full(n, -1, dtype=np.int8), lambda n: np.full(n, -1, dtype=np.int16),
    lambda n: np.full(n, 4, dtype=np.uint8),
    lambda n: np.array([object()] * n),
]


@pytest.mark.parametrize("answer", ROW_ANSWERS)
def test_a_bad_row_answer_is_refused_and_corrupts_no_game(answer: object) -> None:
    # The case: both cards of game 0 are low, game 1 has none; a row of -1 used to
    # break game 0's row order and overwrite game 1's row of 81 with game 0's card 1.
    state = _two_games()
    before = _snapshot(state)
    with pytest.raises(IllegalMoveError) as error:
        batch.play_turn(state, [[1, 11], [95, 85]], _answering(answer), np.random.default_rng())
    assert error.value.rule == "table.low-card"
    assert error.value.where.player == "seat 0"
    assert error.value.where.turn == 1
    if "game" in error.value.params:
        assert error.value.params["game"] == 0
    assert _snapshot(state) == before
    # The state is still good: the same turn with a legal answer plays as the rules say.
    batch.play_turn(state, [[1, 11], [95, 85]], _answering(lambda n: np.zeros(n, int)),
                    np.random.default_rng())
    assert state.table(1) == ((84, 85, 95), (83,), (82,), (81,))
    # 1 takes row 1 (21), then 11 follows it there.
    assert state.table(0) == ((1, 11), (22,), (23,), (24,))
    assert state.pile(0, 0) == (21,)


def test_a_refused_row_names_the_game_in_the_batch() -> None:
    # Only game 1 of three has a low card: the error names game 1, seat 0 and the value.
    piles = [list(range(104, 0, -1)), list(range(1, 105)), list(range(104, 0, -1))]
    state = batch.start(piles, players=2)
    with pytest.raises(IllegalMoveError) as error:
        batch.play_turn(state, [[95, 85], [1, 12], [95, 85]], _answering(lambda n: np.full(n, 9)),
                        np.random.default_rng())
    assert error.value.params["game"] == 1
    assert error.value.where.player == "seat 0"
    assert error.value.params["value"] == 9
    assert "game 1 of the batch" in str(error.value)


PLAYS: list[object] = [
    [[1.0, 11.0], [95.0, 85.0]], [[1 + 0j, 11], [95, 85]], [[1], [95, 85]],
    [[1, None], [95, 85]], [[np.nan, 11], [95, 85]], [[np.inf, 11], [95, 85]],
    [[True, 11], [95, 85]], [["1", "11"], ["95", "85"]], None, 5, "plays", [[1, 11]],
    [[[1], [11]], [[95], [85]]], [[2**70, 11], [95, 85]], object(),
]


@pytest.mark.parametrize("plays", PLAYS, ids=range(len(PLAYS)))
def test_plays_that_are_not_cards_of_the_hands_are_refused(plays: object) -> None:
    state = _two_games()
    before = _snapshot(state)
    with pytest.raises(MalformedInputError) as error:
        batch.play_turn(state, plays, batch.cheapest_row, np.random.default_rng())  # type: ignore[arg-type]
    assert error.value.rule == "turn.reveal"
    assert _snapshot(state) == before


def test_a_card_not_held_names_its_game_and_seat() -> None:
    state = _two_games()
    with pytest.raises(IllegalMoveError) as error:
        batch.play_turn(state, [[1, 11], [95, 1]], batch.cheapest_row, np.random.default_rng())
    assert (error.value.params["game"], error.value.where.player, error.value.where.card) == (
        1, "seat 1", 1,
    )


CARD_ANSWERS: list[object] = [
    None, 0, 3.0, "0", [], lambda n: [0] * (n - 1), lambda n: [0] * (n + 1),
    lambda n: np.zeros(n), lambda n: np.zeros(n, bool), lambda n: np.full(n, np.nan),
    lambda n: np.full(n, np.inf), lambda n: np.zeros(n, complex), lambda n: np.full(n, 10),
    lambda n: np.full(n, -1), lambda n: [[0]] * n, lambda n: [0, [1]] + [0] * (n - 2),
    lambda n: np.array([None] * n), lambda n: np.zeros((n, 1), int),
]


@pytest.mark.parametrize("answer", CARD_ANSWERS, ids=range(len(CARD_ANSWERS)))
def test_a_bad_card_answer_is_refused_before_anything_is_played(answer: object) -> None:
    rng = np.random.default_rng(0)
    state = batch.deal(rng, 5, 3)
    before = _snapshot(state)

    def policy(view: batch.SeatView, rng: np.random.Generator) -> Any:
        return answer(len(view)) if callable(answer) else answer

    with pytest.raises(IllegalMoveError) as error:
        batch.play_round(state, [batch.random_card, policy, batch.random_card],
                         batch.random_row, rng)
    assert error.value.rule == "turn.reveal"
    assert error.value.where.player == "seat 1"
    assert _snapshot(state) == before


@pytest.mark.parametrize(
    "games", [-1, 0, 2.5, None, True, np.bool_(True), "3", 1e3, 10**7 + 1, 2**70]
)
def test_games_must_be_a_whole_number(games: object) -> None:
    with pytest.raises(MalformedInputError) as error:
        batch.deal(np.random.default_rng(), games, 4)  # type: ignore[arg-type]
    assert error.value.rule == "argument"
    assert error.value.params["name"] == "games"
    with pytest.raises(MalformedInputError) as error:
        batch.play_games(np.random.default_rng(), games, [batch.random_card] * 2,  # type: ignore[arg-type]
                         batch.random_row)
    assert error.value.rule == "argument"


@pytest.mark.parametrize("rng", [None, 5, "seed", np.random.RandomState(1), object()])
def test_rng_must_be_a_generator(rng: object) -> None:
    for call in (
        lambda: batch.deal(rng, 2, 4),  # type: ignore[arg-type]
        lambda: batch.play_round(batch.deal(np.random.default_rng(), 2, 2),
                                 [batch.random_card] * 2, batch.random_row, rng),  # type: ignore[arg-type]
        lambda: batch.play_games(rng, 2, [batch.random_card] * 2, batch.random_row),  # type: ignore[arg-type]
        lambda: batch.play_turn(_two_games(), [[1, 11], [95, 85]], batch.random_row, rng),  # type: ignore[arg-type]
    ):
        with pytest.raises(MalformedInputError) as error:
            call()
        assert error.value.rule == "argument"


@pytest.mark.parametrize("players", [np.int64(4), np.int8(4), np.uint32(4)])
def test_numpy_integers_are_player_counts(players: Any) -> None:
    state = batch.deal(np.random.default_rng(1), 3, players)
    assert state.players == 4
    assert batch.start([list(range(1, 105))], players).players == 4
    assert batch.deal(np.random.default_rng(1), np.int64(3), 2).games == 3  # type: ignore[arg-type]


@pytest.mark.parametrize("players", [True, 4.0, None, "4", 1, 11, np.float64(4)])
def test_other_player_counts_are_refused(players: object) -> None:
    with pytest.raises(MalformedInputError) as error:
        batch.deal(np.random.default_rng(1), 3, players)  # type: ignore[arg-type]
    assert error.value.rule == "setup.players"


def test_a_policy_sees_only_what_its_seat_may_know() -> None:
    # The case: a policy read every hand, zeroed its own penalties and swapped cards
    # with another seat. Views hold read-only copies of the seat's own hand and the table.
    seen: list[batch.SeatView] = []

    def cheat(view: batch.SeatView, rng: np.random.Generator) -> NDArray[np.int64]:
        seen.append(view)
        slots: NDArray[np.int64] = view.hand.argmin(axis=1)
        assert not hasattr(view, "hands")
        assert view.hand.shape == (len(view), 10 - view.turn)
        for array in (view.hand, view.penalties, view.rows, view.lengths, view.row_heads,
                      view.totals, view.last_cards, view.games):
            assert not array.flags.writeable
            with pytest.raises(ValueError, match="read-only"):
                array[...] = 0
            array.setflags(write=True)  # a copy of its own: writing it changes nothing
            array[...] = 0
        return slots

    def honest(view: batch.SeatView, rng: np.random.Generator) -> NDArray[np.int64]:
        slots: NDArray[np.int64] = view.hand.argmin(axis=1)
        return slots

    rounds = {}
    for name, policy in (("cheat", cheat), ("honest", honest)):
        result = batch.play_games(
            np.random.default_rng(4), 50, [policy, batch.lowest_card, batch.lowest_card],
            batch.cheapest_row,
        )
        rounds[name] = (result.totals.tolist(), result.rounds.tolist())
    assert rounds["cheat"] == rounds["honest"]
    assert seen


def test_the_state_hands_out_copies() -> None:
    state = batch.deal(np.random.default_rng(2), 4, 3)
    for name in ("rows", "lengths", "row_heads", "hands", "penalties", "held", "last_cards",
                 "totals", "piles"):
        array = getattr(state, name)
        assert not array.flags.writeable
        array.setflags(write=True)
        array[...] = 0
    assert state.hands.any()
    assert (state.lengths == 1).all()


def test_a_row_view_is_read_only() -> None:
    def sneaky(view: batch.RowView, rng: np.random.Generator) -> NDArray[np.int64]:
        for array in (view.rows, view.row_heads, view.lengths, view.penalties, view.cards,
                      view.games, view.seats):
            assert not array.flags.writeable
        return np.zeros(len(view), dtype=np.int64)

    state = _two_games()
    batch.play_turn(state, [[1, 11], [95, 85]], sneaky, np.random.default_rng())
    assert state.table(0) == ((1, 11), (22,), (23,), (24,))


HAND_BUILT: list[dict[str, object]] = [
    {"rows": [[[21, 0, 0, 0, 0], [22, 0, 0, 0, 0], [23, 0, 0, 0, 0], [24, 0, 0, 0, 0]]],
     "hands": [[list(range(1, 11)), list(range(11, 21))]]},
]


def test_a_hand_built_state_that_is_a_deal_plays() -> None:
    state = batch.BatchState(**HAND_BUILT[0])  # type: ignore[arg-type]
    batch.play_round(state, [batch.lowest_card] * 2, batch.cheapest_row, np.random.default_rng())
    assert state.turn == 10


BAD_STATES: list[dict[str, object]] = [
    {"rows": [[[21, 0, 0, 0, 0]] * 4], "hands": [[list(range(1, 11)), list(range(11, 21))]]},
    {"rows": [[[21, 0, 0, 0, 0], [22, 0, 0, 0, 0], [23, 0, 0, 0, 0], [24, 0, 0, 0, 0]]],
     "hands": [[list(range(1, 11)), list(range(1, 11))]]},
    {"rows": [[[21, 0, 0, 0, 0], [22, 0, 0, 0, 0], [23, 0, 0, 0, 0], [24, 0, 0, 0, 0]]],
     "hands": [[list(range(1, 11)), list(range(11, 21))]], "turn": 11},
    {"rows": [[[21, 0, 0, 0, 0], [22, 0, 0, 0, 0], [23, 0, 0, 0, 0], [24, 0, 0, 0, 0]]],
     "hands": [[list(range(1, 11)), list(range(11, 21))]], "turn": True},
    {"rows": [[[30, 25, 0, 0, 0], [22, 0, 0, 0, 0], [23, 0, 0, 0, 0], [24, 0, 0, 0, 0]]],
     "hands": [[list(range(1, 11)), list(range(11, 21))]]},
    {"rows": [[[21, 0, 0, 0, 0], [22, 0, 0, 0, 0], [23, 0, 0, 0, 0], [24, 0, 0, 0, 0]]],
     "hands": [[list(range(1, 11)), list(range(11, 21))]], "penalties": [[-1, 0]]},
    {"rows": [[[21, 0, 0, 0, 0], [22, 0, 0, 0, 0], [23, 0, 0, 0, 0], [24, 0, 0, 0, 0]]],
     "hands": [[list(range(1, 11)), list(range(11, 21))]], "piles": [[1, 2]]},
    {"rows": [[[21, 0, 0, 0, 0], [22, 0, 0, 0, 0], [23, 0, 0, 0, 0], [24, 0, 0, 0, 0]]],
     "hands": [[list(range(1, 11))]]},
    {"rows": [[[21, 0, 22, 0, 0], [0, 0, 0, 0, 0], [23, 0, 0, 0, 0], [24, 0, 0, 0, 0]]],
     "hands": [[list(range(1, 11)), list(range(11, 21))]]},
    {"rows": "rows", "hands": None},
    {"rows": [[[21.5, 0, 0, 0, 0]] * 4], "hands": [[list(range(1, 11))] * 2]},
    {"rows": [], "hands": []},
    {"rows": [[[21, 0, 0, 0, 0], [22, 0, 0, 0, 0], [23, 0, 0, 0, 0], [24, 0, 0, 0, 0]]],
     "hands": [[list(range(1, 11)), [*range(11, 20), 105]]]},
]


@pytest.mark.parametrize("fields", BAD_STATES, ids=range(len(BAD_STATES)))
def test_a_hand_built_state_is_checked(fields: dict[str, object]) -> None:
    with pytest.raises(MalformedInputError):
        batch.BatchState(**fields)  # type: ignore[arg-type]


@pytest.mark.parametrize("state", [None, 3, "state", object()])
def test_a_state_that_is_not_one_is_refused(state: object) -> None:
    with pytest.raises(MalformedInputError) as error:
        batch.play_round(state, [batch.random_card] * 2, batch.random_row,  # type: ignore[arg-type]
                         np.random.default_rng())
    assert error.value.rule == "argument"


@pytest.mark.parametrize("policies", [None, 3, "ab", [None, None], [batch.random_card]])
def test_policies_that_are_not_policies_are_refused(policies: object) -> None:
    with pytest.raises(MalformedInputError):
        batch.play_round(batch.deal(np.random.default_rng(), 2, 2), policies,  # type: ignore[arg-type]
                         batch.random_row, np.random.default_rng())


def test_drafted_variants_need_draft_policies_and_check_them() -> None:
    rng = np.random.default_rng(0)
    with pytest.raises(MalformedInputError):
        batch.play_games(rng, 2, [batch.random_card] * 2, batch.random_row, Rules(Variant.LOGIC))
    with pytest.raises(MalformedInputError) as error:
        batch.play_games(rng, 2, [batch.random_card] * 7, batch.random_row, Rules(Variant.LOGIC),
                         drafts=[batch.random_pick] * 7)
    assert error.value.rule == "setup.players"

    def twice(view: batch.DraftView, rng: np.random.Generator) -> NDArray[np.int64]:
        return np.ones(len(view), dtype=np.int64)  # card 1, gone after the first pick

    with pytest.raises(IllegalMoveError) as illegal:
        batch.play_games(rng, 3, [batch.random_card] * 2, batch.random_row, Rules(Variant.LOGIC),
                         drafts=[twice, twice])
    assert illegal.value.rule == "variants.logic"
    assert illegal.value.where.player == "seat 1"
    assert illegal.value.params["game"] == 0


def test_a_dealer_is_checked_like_any_deal() -> None:
    with pytest.raises(MalformedInputError) as error:
        batch.play_games(np.random.default_rng(), 2, [batch.random_card] * 2, batch.random_row,
                         dealer=lambda games, number: [[1] * 104] * len(games))
    assert error.value.rule == "cards.deck"
    with pytest.raises(MalformedInputError):
        batch.play_games(np.random.default_rng(), 2, [batch.random_card] * 2, batch.random_row,
                         dealer=lambda games, number: [list(range(1, 105))])


anything = st.recursive(
    st.none() | st.booleans() | st.integers(-(2**70), 2**70) | st.floats() | st.text(max_size=3)
    | st.complex_numbers(),
    lambda inner: st.lists(inner, max_size=6),
    max_leaves=20,
)


def _array_answers(n: int) -> st.SearchStrategy[object]:
    dtypes = st.sampled_from([np.int8, np.int64, np.uint8, np.uint64, np.float32, np.bool_])
    return st.builds(
        lambda values, dtype: np.asarray(values).astype(dtype),
        st.lists(st.integers(-300, 300), min_size=n, max_size=n), dtypes,
    )


@settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(data=st.data())
def test_any_answer_of_any_policy_is_played_or_refused(data: st.DataObject) -> None:
    rng = np.random.default_rng(data.draw(st.integers(0, 2**32 - 1)))
    state = batch.deal(rng, 6, 3)
    seat = data.draw(st.integers(0, 2))
    kind = data.draw(st.sampled_from(["card", "row"]))
    answers = st.one_of(anything, _array_answers(6), _array_answers(data.draw(st.integers(0, 8))))

    def wild(view: Any, rng: np.random.Generator) -> object:
        return data.draw(answers)

    def wild_rows(view: batch.RowView, rng: np.random.Generator) -> object:
        return data.draw(st.one_of(anything, _array_answers(len(view))))

    policies: list[Callable[[batch.SeatView, np.random.Generator], Any]] = [batch.random_card] * 3
    if kind == "card":
        policies[seat] = wild
    rows: Any = wild_rows if kind == "row" else batch.random_row
    turn_start: list[tuple[Any, ...]] = []

    def first(view: batch.SeatView, rng: np.random.Generator) -> Any:
        turn_start[:] = [_snapshot(state)]  # asked first, before any card of the turn is placed
        return policies[0](view, rng)

    while state.turn < 10:
        refused: Take5Error | None = None
        try:
            batch.play_round(state, [first, *policies[1:]], rows, rng)
        except Take5Error as error:
            refused = error
        if refused is None:
            break
        assert refused.rule in {"turn.reveal", "table.low-card"}
        assert refused.where.player is not None
        # The refused turn changed nothing; the round goes on from there.
        assert _snapshot(state) == turn_start[0]
        policies[seat], rows = batch.random_card, batch.random_row
    # Every card dealt is still on the table, in a hand or in exactly one pile.
    for g in range(6):
        held = [int(c) for c in state.held[g].reshape(-1)]
        table = [c for row in state.table(g) for c in row]
        piles = [c for s in range(3) for c in state.pile(g, s)]
        assert len(held + table + piles) == len(set(held + table + piles)) == 34


def _not_slow(value: object) -> bool:
    """Counts above 1,000 are valid and only slow (up to MOST_GAMES) or refused (beyond)."""
    return not (isinstance(value, int) and 1_000 < value <= batch.MOST_GAMES)


@settings(max_examples=150, deadline=None)
@given(games=anything.filter(_not_slow), players=anything,
       rng=st.none() | st.integers() | st.just("rng"))
def test_any_argument_is_played_or_refused(games: object, players: object, rng: object) -> None:
    for call in (
        lambda: batch.deal(rng, games, players),  # type: ignore[arg-type]
        lambda: batch.deal(np.random.default_rng(), games, 2),  # type: ignore[arg-type]
        lambda: batch.start(games, players),  # type: ignore[arg-type]
        lambda: batch.start(games, 2),  # type: ignore[arg-type]
        lambda: batch.play_games(np.random.default_rng(), games, [batch.random_card] * 2,  # type: ignore[arg-type]
                                 batch.random_row),
    ):
        with contextlib.suppress(Take5Error):
            call()


@settings(max_examples=60, deadline=None)
@given(rows=anything, hands=anything, turn=anything)
def test_any_hand_built_state_is_checked_or_plays(
    rows: object, hands: object, turn: object
) -> None:
    try:
        state = batch.BatchState(rows, hands, turn=turn)  # type: ignore[arg-type]
    except Take5Error:
        return
    batch.play_round(state, [batch.lowest_card] * state.players, batch.cheapest_row,
                     np.random.default_rng())
