"""Fuzzing the PettingZoo environments: hostile arguments, actions and call orders.

The rule, as in the other fuzz files: every input gets a clear
:class:`~take5rules.errors.Take5Error` naming the rule or the argument, or a correct answer;
never a bare ``TypeError``, ``KeyError`` or ``ValueError``, a hang, or a change to the game. A
refused action changes nothing: not the observations, not the rewards still to be collected.
An action is accepted exactly when the action mask allows it (the mask is checked against the
rules by ``test_env.py``, which plays the engine's games through it).

The issue-17 cases (section 4) are the first tests; then Hypothesis runs ``TAKE5_FUZZ_EXAMPLES``
random sequences (default 60) of hostile and legal actions through both APIs.
"""

from __future__ import annotations

import os
import subprocess
import sys
import textwrap
from typing import Any

import pytest

pytest.importorskip("pettingzoo", reason="the environment needs pettingzoo (take5rules[env])")

import numpy as np
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from take5rules.agents.pettingzoo_env import (
    ACTIONS,
    OBSERVATION_LAYOUT,
    PASS,
    ROW_ACTIONS,
    Take5Env,
    Take5ParallelEnv,
)
from take5rules.errors import IllegalMoveError, MalformedInputError, Take5Error
from take5rules.variants import Rules, Variant

EXAMPLES = int(os.environ.get("TAKE5_FUZZ_EXAMPLES", "60"))
FUZZ = settings(max_examples=EXAMPLES, deadline=None, database=None,
                suppress_health_check=list(HealthCheck))

#: Values that are no action at all (each is refused whatever the phase).
NOT_ACTIONS: list[Any] = [
    None, True, False, 1.0, 2.5, float("nan"), float("inf"), "3", b"3", [3], (3,), {3: 3},
    -1, -104, ACTIONS, 10**6, 10**30, 10**5000, -(10**5000), np.float64(3.0), np.bool_(True),
    1 + 0j, object(),
]

#: Values that are no number of seats.
NOT_COUNTS: list[Any] = ["4", 4.0, True, None, [4], b"4", 10**5000, np.float32(4)]
#: Values that are no rules.
NOT_RULES: list[Any] = ["standard", 66, {}, Variant.LOGIC, [Rules()], True]
#: Values that are no language.
NOT_LANGUAGES: list[Any] = [5, None, b"fr", ["fr"], "", "xx", "klingon", "\ud800", "fr" * 10**4]
#: Values that are no seed.
NOT_SEEDS: list[Any] = ["7", 7.0, True, [7], b"7", -1, -7, np.float64(7.0), -(10**30)]


def _id(value: Any) -> str:
    """A test id: the value's type and a short form (a 5,000-digit number has no repr)."""
    if isinstance(value, int) and value.bit_length() > 64:
        return f"int-{value.bit_length()}-bits"
    return repr(value)[:20]


def _hand(env: Take5Env | Take5ParallelEnv, agent: str) -> list[int]:
    return [int(c) + 1 for c in np.flatnonzero(env._observation(agent)["observation"][:104])]


def _last(env: Take5Env) -> tuple[dict[str, Any], float, bool, bool, dict[str, Any]]:
    observation, reward, terminated, truncated, info = env.last()
    assert observation is not None
    return observation, reward, terminated, truncated, info


def _refusal(call: Any, *args: Any) -> Take5Error | None:
    """The error *call* raises with *args*, or None if it accepts them."""
    try:
        call(*args)
    except Take5Error as error:
        return error
    return None


def _snapshot(env: Take5Env) -> Any:
    observations = {agent: {k: v.tolist() for k, v in env.observe(agent).items()}
                    for agent in env.possible_agents}
    return (observations, dict(env.rewards), dict(env._cumulative_rewards), env.agent_selection,
            list(env.agents), len(env.game.events))


# --- Issue 17, section 4: each case as it was seen -----------------------------------------


def test_a_huge_seat_count_is_refused_before_anything_is_built() -> None:
    # In a child process held to 1 GB of memory: building 10**8 names first (6.9 GB) fails
    # there with a MemoryError instead of the rule's error.
    code = textwrap.dedent("""
        import resource
        resource.setrlimit(resource.RLIMIT_AS, (2**30, 2**30))
        from take5rules.agents.pettingzoo_env import Take5Env
        from take5rules.errors import RulesError
        try:
            Take5Env(players=10**8)
        except RulesError as error:
            print(error.rule, error)
    """)
    result = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                            timeout=120, check=False)
    assert result.stdout.startswith("setup.players "), result.stderr[-2000:]
    assert "2 to 10 players, not 100000000" in result.stdout


def test_a_refused_aec_step_keeps_the_pending_reward() -> None:
    env = Take5Env(3, seed=4)
    refusals = 0
    while env.agents:
        observation, reward, terminated, _, _ = _last(env)
        if terminated:
            env.step(None)
            continue
        if reward:
            before = _snapshot(env)
            absent = next(c for c in range(104) if not observation["action_mask"][c])
            with pytest.raises(Take5Error):
                env.step(absent)
            assert _snapshot(env) == before
            assert env.last()[1] == reward
            refusals += 1
        env.step(int(np.flatnonzero(observation["action_mask"])[-1]))
    assert refusals > 5


@pytest.mark.parametrize("players", NOT_COUNTS, ids=_id)
def test_a_seat_count_of_the_wrong_type_names_the_argument(players: Any) -> None:
    with pytest.raises(MalformedInputError) as error:
        Take5Env(players=players)
    assert error.value.rule == "argument" and "players" in str(error.value)
    with pytest.raises(MalformedInputError):
        Take5ParallelEnv(players=players)


@pytest.mark.parametrize("rules", NOT_RULES, ids=_id)
def test_rules_of_the_wrong_type_name_the_argument(rules: Any) -> None:
    with pytest.raises(MalformedInputError) as error:
        Take5Env(3, rules=rules)
    assert error.value.rule == "argument" and "rules" in str(error.value)


@pytest.mark.parametrize("language", NOT_LANGUAGES, ids=_id)
def test_a_language_that_is_none_names_the_argument(language: Any) -> None:
    with pytest.raises(MalformedInputError) as error:
        Take5Env(3, language=language)
    assert error.value.rule == "argument" and "language" in str(error.value)
    assert len(str(error.value)) < 300


@pytest.mark.parametrize("seed", [np.int64(5), np.uint32(5), np.int8(5), np.uint64(5)],
                         ids=_id)
def test_numpy_seeds_deal_as_the_same_int(seed: Any) -> None:
    expected = _hand(Take5Env(3, seed=5), "player_0")
    assert _hand(Take5Env(3, seed=seed), "player_0") == expected
    env = Take5ParallelEnv(3)
    env.reset(seed=seed)
    assert _hand(env, "player_0") == expected
    assert Take5Env(np.int64(3), seed=5).possible_agents == ["player_0", "player_1", "player_2"]  # type: ignore[arg-type]


@pytest.mark.parametrize("seed", NOT_SEEDS, ids=_id)
def test_a_seed_that_is_none_names_the_argument(seed: Any) -> None:
    with pytest.raises(MalformedInputError) as error:
        Take5Env(3, seed=seed)
    assert error.value.rule == "argument" and "seed" in str(error.value)
    env = Take5Env(3, seed=1)
    with pytest.raises(MalformedInputError):
        env.reset(seed=seed)


def test_seeds_minus_7_and_7_do_not_deal_the_same_cards() -> None:
    seven = _hand(Take5Env(4, seed=7), "player_0")
    refused = _refusal(Take5Env, 4, None, -7)
    if refused is None:
        assert _hand(Take5Env(4, seed=-7), "player_0") != seven
    else:
        assert refused.rule == "argument" and "seed" in str(refused)


def test_step_none_for_a_live_agent_and_calls_after_the_end_are_clear_errors() -> None:
    env = Take5Env(2, Rules(threshold=1), seed=3)
    with pytest.raises(MalformedInputError) as error:
        env.step(None)
    assert error.value.rule == "argument"  # None is no action: an argument, not a rule
    while env.agents:
        observation, _, terminated, _, _ = _last(env)
        if terminated:
            with pytest.raises(MalformedInputError):  # PettingZoo: a dead agent's action is None
                env.step(0)
            env.step(None)
        else:
            env.step(int(np.flatnonzero(observation["action_mask"])[0]))
    for call in (env.last, lambda: env.step(None), lambda: env.step(3)):
        with pytest.raises(MalformedInputError) as error:
            call()
        assert error.value.rule == "argument" and "reset()" in str(error.value)
    env.reset(seed=3)
    assert env.agents and env.last()[2] is False


def _to_row_phase(env: Take5Env) -> str:
    while env.agents:
        observation = env.observe(env.agent_selection)
        if observation["action_mask"][ROW_ACTIONS]:
            return env.agent_selection
        env.step(int(np.flatnonzero(observation["action_mask"])[0]))
    raise AssertionError("no low card")


@pytest.mark.parametrize("action", [0, 5, 103, PASS])
def test_in_the_row_phase_a_card_action_is_not_a_negative_row(action: int) -> None:
    env = Take5Env(4, seed=2)
    _to_row_phase(env)
    with pytest.raises(IllegalMoveError) as error:
        env.step(action)
    assert error.value.rule == "table.low-card"
    assert "-" not in str(error.value).split("[rule")[0]
    assert "104" in str(error.value) and "107" in str(error.value)


def test_an_unknown_agent_is_named() -> None:
    env = Take5Env(2, seed=1)
    for agent in ("player_9", 0, None, ["player_0"]):
        with pytest.raises(MalformedInputError) as error:
            env.observe(agent)  # type: ignore[arg-type]
        assert error.value.rule == "argument"
    parallel = Take5ParallelEnv(2, seed=1)
    observations, _ = parallel.reset()
    legal = {a: int(np.flatnonzero(o["action_mask"])[0]) for a, o in observations.items()}
    hostile: list[Any] = [None, [0, 1], 5, "ab", {**legal, "player_7": 0}, {**legal, 3: 0}]
    for actions in hostile:
        with pytest.raises(MalformedInputError):
            parallel.step(actions)
    after, *_ = parallel.step(legal)  # nothing was applied before
    assert sum(after["player_0"]["observation"][OBSERVATION_LAYOUT["seen"]]) == 2


# --- Hypothesis: random hostile sequences ---------------------------------------------------

CONFIGS = [(2, Rules()), (4, Rules(threshold=20)), (3, Rules(Variant.LOGIC, threshold=15)),
           (3, Rules(Variant.TOURNAMENT)), (5, Rules(Variant.TACTICS, threshold=10))]

actions = st.one_of(
    st.sampled_from(NOT_ACTIONS),
    st.integers(-3, ACTIONS + 3),
    st.integers(-(10**40), 10**40),
    st.just("legal"), st.just("legal"), st.just("legal"),
)


@FUZZ
@given(st.sampled_from(CONFIGS), st.integers(0, 2**32),
       st.lists(actions, min_size=30, max_size=300))
def test_aec_accepts_exactly_the_masked_actions_and_refusals_change_nothing(
    config: tuple[int, Rules], seed: int, moves: list[Any]
) -> None:
    players, rules = config
    env = Take5Env(players, rules, seed=seed)
    for move in moves:
        if not env.agents:
            with pytest.raises(MalformedInputError):
                env.step(move if move != "legal" else None)
            return
        observation, _, terminated, _, _ = _last(env)
        mask = observation["action_mask"]
        if move == "legal":
            move = None if terminated else int(np.flatnonzero(mask)[0])
        legal = (move is None) if terminated else (
            isinstance(move, int | np.integer) and not isinstance(move, bool | np.bool_)
            and 0 <= move < ACTIONS and bool(mask[move]))
        before = _snapshot(env)
        error = _refusal(env.step, move)
        assert (error is None) == legal, (move, error)
        if error is not None:
            assert error.rule in {"argument", "turn.reveal", "table.low-card", "variants.logic"}
            assert _snapshot(env) == before


@FUZZ
@given(st.sampled_from(CONFIGS), st.integers(0, 2**32),
       st.lists(st.dictionaries(st.integers(0, 4), actions, max_size=5), min_size=20, max_size=200))
def test_parallel_accepts_exactly_the_masked_actions_and_refusals_change_nothing(
    config: tuple[int, Rules], seed: int, steps: list[dict[int, Any]]
) -> None:
    players, rules = config
    env = Take5ParallelEnv(players, rules, seed=seed)
    observations, _ = env.reset(seed=seed)
    for choice in steps:
        if not env.agents:
            assert env.step({}) == ({}, {}, {}, {}, {})
            return
        actions: dict[str, Any] = {}
        for agent in env.agents:
            mask = observations[agent]["action_mask"]
            move = choice.get(env.agents.index(agent), "legal")
            actions[agent] = int(np.flatnonzero(mask)[0]) if move == "legal" else move
        legal = all(
            isinstance(move, int | np.integer) and not isinstance(move, bool | np.bool_)
            and 0 <= move < ACTIONS and bool(observations[agent]["action_mask"][move])
            for agent, move in actions.items())
        told = len(env.game.events)
        before = {agent: env._observation(agent)["observation"].tolist() for agent in env.agents}
        try:
            observations, *_ = env.step(actions)
        except Take5Error as error:
            refused: Take5Error | None = error
        else:
            refused = None
        assert (refused is None) == legal, (actions, refused)
        if refused is not None:
            assert len(env.game.events) == told
            assert before == {a: env._observation(a)["observation"].tolist() for a in env.agents}



def test_a_plain_install_is_told_which_extra_to_install() -> None:
    # Issue 18, section 5: without pettingzoo, importing the environment names the extra.
    code = "import sys; sys.modules['pettingzoo'] = None; import take5rules.agents.pettingzoo_env"
    result = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                            timeout=120, check=False, env={**os.environ, "LANG": "C"})
    assert result.returncode == 1
    assert "pip install 'take5rules[env]'" in result.stderr.splitlines()[-1]
