"""The Pgx-style batched environment against the engine: whole games, every variant.

Driven by the lowest-card strategy read from its observations and masks alone, the environment
must play exactly :func:`take5rules.playing.engine.play_game` with :class:`LowestCardPlayer` seats:
the
same drafts, placements, rounds, totals and winners.
"""

from __future__ import annotations

import pytest

pytest.importorskip("numpy", reason="the batched environment needs numpy (take5rules[batch])")

import dataclasses

import numpy as np
from numpy.typing import NDArray

from _engine_games import engine_games, run_seeds
from take5rules.agents.batch import placement as _kernel
from take5rules.agents.batch import vector
from take5rules.agents.encoding import OBSERVATION_LAYOUT as LAYOUT
from take5rules.errors import IllegalMoveError, MalformedInputError, RulesError
from take5rules.events import GameOver
from take5rules.playing.engine import play_game
from take5rules.playing.players import LowestCardPlayer
from take5rules.variants import Rules, Variant

KERNELS = ["numpy", "compiled"] if _kernel.numba is not None else ["numpy"]


@pytest.fixture(autouse=True, params=KERNELS)
def kernel(request: pytest.FixtureRequest, monkeypatch: pytest.MonkeyPatch) -> str:
    """The environment places its cards with the batch's kernel: numpy, and compiled too."""
    monkeypatch.setattr(_kernel, "AVAILABLE", request.param == "compiled")
    return str(request.param)


def _lowest(state: vector.State) -> NDArray[np.int64]:
    """The lowest legal card (or pick), the cheapest row (fewest heads, then cards, then first)."""
    actions: NDArray[np.int64] = state.legal_action_mask.argmax(axis=1)
    rowing = state.phase == vector.ROW
    seen = state.observation[rowing]
    key = seen[:, LAYOUT["row_heads"]] * 8 + seen[:, LAYOUT["row_lengths"]]
    actions[rowing] = vector.ROW_ACTIONS + key.argmin(axis=1)
    return actions


def _play(state: vector.State) -> vector.State:
    for _ in range(100_000):
        if state.terminated.all():
            return state
        state = vector.step(state, _lowest(state))
    raise AssertionError("the games did not end")


def _expect(players: int, rules: Rules, seed: int) -> GameOver:
    seats = {f"p{k}": LowestCardPlayer() for k in range(players)}
    over = list(play_game(seats, rules, seed=seed))[-1]
    assert isinstance(over, GameOver)
    return over


def _compare(state: vector.State, expected: list[GameOver], players: int) -> None:
    names = [f"p{k}" for k in range(players)]
    for g, over in enumerate(expected):
        assert state.totals[g].tolist() == [over.totals[name] for name in names], g
        assert int(state.rounds[g]) == over.rounds, g
        best = state.totals[g].min()
        assert [names[k] for k in range(players) if state.totals[g, k] == best] == list(
            over.winners
        )
    assert (-state.returns == state.totals).all()


@pytest.mark.parametrize("variant", [Variant.LOGIC, Variant.TOURNAMENT])
@pytest.mark.parametrize("players", [2, 3, 5])
def test_drafted_games_play_as_the_engine(variant: Variant, players: int) -> None:
    rules = Rules(variant)
    state = _play(vector.init(0, 2, players, rules))
    _compare(state, [_expect(players, rules, 0)] * 2, players)


@pytest.mark.parametrize(("players", "threshold"), [(2, 66), (4, 40), (10, 66)])
def test_dealt_games_play_as_the_engine(players: int, threshold: int) -> None:
    rules = Rules(threshold=threshold)
    expected, dealer = engine_games(
        lambda: {f"p{k}": LowestCardPlayer() for k in range(players)}, rules, run_seeds(8, players)
    )
    state = _play(vector.init(0, len(expected), players, rules, dealer=dealer))
    _compare(state, expected, players)


def test_random_legal_actions_end_every_game_and_step_is_functional() -> None:
    seed = run_seeds(1)[0]
    rng = np.random.default_rng(seed)
    state = vector.init(seed, 64, 4)
    for _ in range(100_000):
        if state.terminated.all():
            break
        keys = np.where(state.legal_action_mask, rng.random(state.legal_action_mask.shape), -1)
        before = state.observation.copy(), state.totals.copy()
        new = vector.step(state, keys.argmax(axis=1))
        assert (state.observation == before[0]).all() and (state.totals == before[1]).all()
        assert not new.observation.flags.writeable
        state = new
    assert state.terminated.all()
    assert (state.totals.max(axis=1) >= 66).all()
    assert (-state.returns == state.totals).all()
    assert state.legal_action_mask[:, vector.PASS].all()


def test_a_seat_sees_its_own_hand_and_nothing_hidden() -> None:
    state = vector.init(2, 5, 3)
    for seat in range(3):
        seen = vector.observe(state, seat)
        hand = seen[:, :104]
        assert (hand.sum(axis=1) == 10).all()
        assert (hand.astype(bool) == state._held[:, seat, 1:]).all()
    assert (state.observation == vector.observe(state, 0)).all()


def test_illegal_actions_raise_or_lose() -> None:
    state = vector.init(0, 3, 2)
    illegal = np.full(3, vector.ROW_ACTIONS)  # a row when a card is due
    with pytest.raises(IllegalMoveError) as error:
        vector.step(state, illegal)
    assert error.value.rule == "turn.reveal"
    assert error.value.params["game"] == 0
    with pytest.raises(IllegalMoveError):
        vector.step(state, np.full(3, 109))
    with pytest.raises(IllegalMoveError):
        vector.step(state, np.full(3, 1.5))
    penalized = vector.init(0, 3, 2, illegal_action="penalize")
    actions = _lowest(penalized)
    actions[1] = vector.ROW_ACTIONS
    after = vector.step(penalized, actions)
    assert after.terminated.tolist() == [False, True, False]
    assert after.rewards[1].tolist() == [-66.0, 0.0]
    with pytest.raises(MalformedInputError):
        vector.init(0, 3, 2, illegal_action="ignore")
    with pytest.raises(MalformedInputError):
        vector.init(0, 0, 2)
    with pytest.raises(MalformedInputError):
        vector.step("state", actions)  # type: ignore[arg-type]


def test_a_forged_mask_plays_no_card_outside_the_hand() -> None:
    # Issue 27: the mask is the caller's to read, not the rules. With every action marked
    # legal, a card the acting seat does not hold, or a row when a card is due, is refused.
    state = vector.init(0, 3, 2)
    forged = dataclasses.replace(state, legal_action_mask=np.ones_like(state.legal_action_mask))
    foreign = np.array([np.flatnonzero(~state.legal_action_mask[g, :104])[0] for g in range(3)])
    with pytest.raises(IllegalMoveError) as error:
        vector.step(forged, foreign)
    assert error.value.rule == "turn.reveal"
    assert error.value.params["game"] == 0
    with pytest.raises(IllegalMoveError):
        vector.step(forged, np.full(3, vector.ROW_ACTIONS))
    penalized = vector.init(0, 3, 2, illegal_action="penalize")
    forged = dataclasses.replace(
        penalized, legal_action_mask=np.ones_like(penalized.legal_action_mask)
    )
    actions = _lowest(penalized)
    actions[1] = foreign[1]
    after = vector.step(forged, actions)
    assert after.terminated.tolist() == [False, True, False]
    assert after.rewards[1].tolist() == [-66.0, 0.0]
    assert not after._held[1, 0, foreign[1] + 1]  # the foreign card was not played in
    assert after._held[1, 0].sum() == 10  # seat 0 of game 1 still holds its ten cards


def test_a_threshold_play_refuses_is_refused() -> None:
    # Issue 27: as ``take5rules play``, at most 1,000 bull heads, so that every game ends.
    with pytest.raises(RulesError) as error:
        vector.init(0, 2, 2, Rules(threshold=10**30))
    assert error.value.rule == "variants.threshold"
    assert vector.init(0, 2, 2, Rules(threshold=1000)).totals.tolist() == [[0, 0], [0, 0]]
