"""PettingZoo's whole test set, Gymnasium's env checker, and what the observations may hold.

Issue 19: ``api_test`` and ``parallel_api_test`` (in ``test_env.py``), ``seed_test``,
``parallel_seed_test``, ``max_cycles_test``, ``render_test`` and ``performance_benchmark``
here; the illegal-action policies, the flat observation, the single-agent Gymnasium wrapper
(``check_env``), and a no-leak test: an observation is the same whatever the cards it must not
show.
"""

from __future__ import annotations

import warnings
from types import SimpleNamespace
from typing import Any

import pytest

pytest.importorskip("pettingzoo", reason="the environment needs pettingzoo (take5rules[env])")

import gymnasium
import numpy as np
from gymnasium.utils.env_checker import check_env
from pettingzoo.test import (
    max_cycles_test,
    parallel_seed_test,
    performance_benchmark,
    render_test,
    seed_test,
)

from take5rules.agents import pettingzoo_env as env_module
from take5rules.agents.encoding import observe
from take5rules.agents.gymnasium_env import ENV_ID, Take5GymEnv
from take5rules.agents.pettingzoo_env import (
    ACTIONS,
    OBSERVATION_LAYOUT,
    PASS,
    ROW_ACTIONS,
    Take5Env,
    Take5ParallelEnv,
)
from take5rules.errors import IllegalMoveError, MalformedInputError
from take5rules.events import GameOver
from take5rules.playing.engine import play_game
from take5rules.playing.players import (
    CautiousPlayer,
    LowestCardPlayer,
    Player,
    RandomPlayer,
    cheapest_row,
)
from take5rules.playing.stepper import Game
from take5rules.table import Table
from take5rules.variants import Rules, Variant

CONFIGS = [
    pytest.param(4, Rules(), id="4-standard"),
    pytest.param(10, Rules(threshold=20), id="10-threshold-20"),
    pytest.param(3, Rules(Variant.LOGIC, threshold=25), id="3-logic"),
    pytest.param(3, Rules(Variant.TOURNAMENT), id="3-tournament"),
]


@pytest.mark.parametrize(("players", "rules"), CONFIGS)
def test_pettingzoo_seed_test(players: int, rules: Rules) -> None:
    seed_test(lambda: Take5Env(players, rules), num_cycles=200)


@pytest.mark.parametrize(("players", "rules"), CONFIGS)
def test_pettingzoo_parallel_seed_test(players: int, rules: Rules) -> None:
    # It samples actions without masks: each agent's space samples its legal actions.
    parallel_seed_test(lambda: Take5ParallelEnv(players, rules), num_cycles=200)


def test_pettingzoo_max_cycles_test() -> None:
    # PettingZoo's test counts on each agent deciding once a cycle. The logic variant's draft,
    # which opens every game of it, is such a phase: one pick each, in seat order (in the
    # card phase a low card's row is a second decision of one agent in the same cycle).
    module = SimpleNamespace(
        env=lambda max_cycles: env_module.env(rules=Rules(Variant.LOGIC), max_cycles=max_cycles),
        parallel_env=lambda max_cycles: env_module.parallel_env(rules=Rules(Variant.LOGIC),
                                                                max_cycles=max_cycles))
    max_cycles_test(module)


def test_max_cycles_truncates_after_every_agent_decided_that_often() -> None:
    env = Take5Env(3, seed=2, max_cycles=3)
    decided = dict.fromkeys(env.possible_agents, 0)
    while env.agents:
        agent = env.agent_selection
        observation, _, terminated, truncated, _ = env.last()
        if terminated or truncated:
            env.step(None)
            continue
        decided[agent] += 1
        env.step(int(np.flatnonzero(observation["action_mask"])[0]))
    assert min(decided.values()) == 3  # three turns of cards, each agent once a turn


def test_pettingzoo_render_test(capsys: pytest.CaptureFixture[str]) -> None:
    render_test(lambda render_mode: Take5Env(render_mode=render_mode, seed=1))
    assert "Round 1" in capsys.readouterr().out  # "human" prints the narration


def test_pettingzoo_performance_benchmark(capsys: pytest.CaptureFixture[str]) -> None:
    performance_benchmark(Take5Env(seed=1))
    assert "turns per second" in capsys.readouterr().out


def test_sampled_actions_are_legal_in_both_apis() -> None:
    env = Take5ParallelEnv(4, seed=5)
    observations, _ = env.reset(seed=5)
    for agent in env.agents:
        env.action_space(agent).seed(1)
    steps = 0
    while env.agents:
        actions = {agent: env.action_space(agent).sample() for agent in env.agents}
        for agent, action in actions.items():
            assert observations[agent]["action_mask"][action] == 1
        observations, *_ = env.step(actions)
        steps += 1
    assert steps > 40


# --- Illegal actions ----------------------------------------------------------------------------


def test_penalize_ends_the_game_with_the_threshold_as_the_penalty() -> None:
    env = Take5Env(3, Rules(threshold=40), seed=1, illegal_action="penalize")
    agent = env.agent_selection
    absent = next(a for a in range(104) if not env.observe(agent)["action_mask"][a])
    env.step(absent)
    assert all(env.terminations.values())
    assert env.rewards == {a: (-40.0 if a == agent else 0.0) for a in env.possible_agents}
    assert env.infos[agent]["illegal_action"] is True
    assert env.observe(agent)["action_mask"].tolist() == [0] * PASS + [1]
    leaving = 0
    while env.agents:
        env.step(None)
        leaving += 1
    assert leaving == 3
    parallel = Take5ParallelEnv(2, seed=1, illegal_action="penalize")
    observations, _ = parallel.reset(seed=1)
    legal = int(np.flatnonzero(observations["player_0"]["action_mask"])[0])
    _, rewards, terminations, _, infos = parallel.step({"player_0": legal, "player_1": PASS})
    assert rewards == {"player_0": 0.0, "player_1": -66.0} and all(terminations.values())
    assert infos["player_1"]["illegal_action"] and not parallel.agents


def test_raise_is_the_default_and_refuses_without_change() -> None:
    env = Take5Env(2, seed=1)
    before = env.observe("player_0")["observation"].tolist()
    with pytest.raises(IllegalMoveError):
        env.step(ROW_ACTIONS)
    assert env.observe("player_0")["observation"].tolist() == before


# --- Observations -------------------------------------------------------------------------------


def test_the_flat_observation_is_the_vector_then_the_mask() -> None:
    flat = Take5Env(3, seed=6, observation="flat")
    as_dict = Take5Env(3, seed=6)
    vector = flat.observe("player_1")
    parts = as_dict.observe("player_1")
    assert flat.observation_space("player_1").contains(vector)
    assert vector.tolist() == parts["observation"].tolist() + parts["action_mask"].tolist()
    assert len(vector) == 489 + ACTIONS


def _cards(vector: Any, part: str) -> list[int]:
    return [int(v) for v in vector[OBSERVATION_LAYOUT[part]]]


def test_the_cards_seen_are_the_rounds_own() -> None:
    # Three seats, lowest cards: after two turns, the seen part holds the six cards revealed;
    # once the next round is dealt it is empty again.
    env = Take5Env(3, seed=8)
    plays: list[int] = []
    for _ in (1, 2):
        for _ in range(3):
            agent = env.agent_selection
            mask = env.observe(agent)["action_mask"]
            action = int(np.flatnonzero(mask)[0])
            plays.append(action + 1)
            env.step(action)
        while env.observe(env.agent_selection)["action_mask"][ROW_ACTIONS]:
            env.step(ROW_ACTIONS)
    for agent in env.possible_agents:
        vector = env.observe(agent)["observation"]
        assert [c + 1 for c, bit in enumerate(_cards(vector, "seen")) if bit] == sorted(plays)
        assert not any(_cards(vector, "picked_by"))  # the standard game has no draft
    while _cards(env.observe(env.agent_selection)["observation"], "round") == [1]:
        env.step(int(np.flatnonzero(env.observe(env.agent_selection)["action_mask"])[0]))
    assert not any(_cards(env.observe("player_1")["observation"], "seen"))


def test_an_observation_shows_nothing_hidden() -> None:
    # Two deals that differ only in the other seats' hands (and in the cards set aside): every
    # observation of player_0 is the same in both, turn after turn, while the others' cards
    # stay hidden. The others play the same cards in the first turn in both deals.
    table = Table.of([[10], [40], [70], [100]])
    mine = [*range(1, 10), 99]
    one = {"ana": mine, "bob": [11, *range(41, 50)], "cyd": [12, *range(71, 80)]}
    two = {"ana": mine, "bob": [11, *range(50, 59)], "cyd": [12, *range(80, 89)]}
    games = [Game.from_deal(["ana", "bob", "cyd"], table, hands) for hands in (one, two)]
    views = []
    for game in games:
        views.append(observe(game, "ana").tolist())
        for seat, card in (("ana", 99), ("bob", 11), ("cyd", 12)):
            game.play(seat, card)
        views.append(observe(game, "ana").tolist())
    assert views[0] == views[2] and views[1] == views[3]
    assert views[0] != views[1]  # the turn's cards, once revealed, are seen


def test_an_agent_that_changes_its_observation_changes_nothing() -> None:
    env = Take5Env(2, seed=3)
    observation = env.observe("player_0")
    observation["observation"][:] = 7
    observation["action_mask"][:] = 1
    assert env.observe("player_0")["observation"].tolist() != [7] * 489
    with pytest.raises(IllegalMoveError):
        env.step(int(np.flatnonzero(env.observe("player_0")["action_mask"] == 0)[0]))


# --- Gymnasium ----------------------------------------------------------------------------------


@pytest.mark.parametrize("observation", ["dict", "flat"])
def test_the_gymnasium_wrapper_passes_check_env(observation: str) -> None:
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", UserWarning)  # "no spec": checked through make below
        check_env(Take5GymEnv(["cautious", "random"], observation=observation))
        made = gymnasium.make(ENV_ID, opponents=["lowest"], render_mode="ansi")
        check_env(made.unwrapped)


class _Counting:
    """A player object of the caller's own: lowest cards, and it counts its decisions."""

    def __init__(self) -> None:
        self.decisions = 0
        self.inner = LowestCardPlayer()

    def choose_card(self, view: Any) -> int:
        self.decisions += 1
        return self.inner.choose_card(view)

    def choose_row(self, choice: Any) -> int:
        self.decisions += 1
        return self.inner.choose_row(choice)

    def choose_draft(self, view: Any) -> int:
        self.decisions += 1
        return self.inner.choose_draft(view)


def test_the_gymnasium_game_is_the_engines_game_against_any_player() -> None:
    counting = _Counting()
    env = Take5GymEnv(["cautious", counting, CautiousPlayer], Rules(threshold=30), seat=1)
    observation, _ = env.reset(seed=4)
    me = LowestCardPlayer()
    total = 0.0
    done = False
    while not done:
        vector = observation["observation"]
        mask = observation["action_mask"]
        hand = [int(c) + 1 for c in np.flatnonzero(vector[OBSERVATION_LAYOUT["hand"]])]
        if mask[ROW_ACTIONS]:  # the agent plays as LowestCardPlayer: the cheapest row
            cells = [int(c) for c in vector[OBSERVATION_LAYOUT["rows"]]]
            rows = [[c for c in cells[5 * r: 5 * r + 5] if c] for r in range(4)]
            action = ROW_ACTIONS + cheapest_row(Table.of(rows))
        else:  # and its lowest card
            action = min(hand) - 1
        observation, reward, done, _, info = env.step(action)
        total += reward
    assert counting.decisions > 0
    seats: dict[str, Player] = {"cautious": CautiousPlayer(), "agent": me,
                                "opponent": LowestCardPlayer(), "opponent#2": CautiousPlayer()}
    over = list(play_game(seats, Rules(threshold=30), seed=env.game_seed))[-1]
    assert isinstance(over, GameOver)
    assert info["totals"] == dict(over.totals)
    assert -total == over.totals["agent"]


def test_the_gymnasium_wrapper_penalizes_and_reseeds() -> None:
    env = Take5GymEnv(["random", "random"])
    first, _ = env.reset(seed=11)
    again, _ = env.reset(seed=11)
    assert first["observation"].tolist() == again["observation"].tolist()
    absent = int(np.flatnonzero(first["action_mask"] == 0)[0])
    _, reward, done, _, info = env.step(absent)
    assert (reward, done, info["illegal_action"]) == (-66.0, True, True)
    strict = Take5GymEnv([RandomPlayer(1)], illegal_action="raise")
    strict.reset(seed=1)
    with pytest.raises(IllegalMoveError):
        strict.step(PASS)


def test_the_gymnasium_step_before_reset_is_an_argument_error() -> None:
    env = Take5GymEnv(["lowest"])
    legal = int(np.flatnonzero(env.action_masks())[0])
    with pytest.raises(MalformedInputError) as error:
        env.step(legal)
    assert error.value.rule == "argument" and "reset" in str(error.value)
    env.reset(seed=1)
    env.step(int(np.flatnonzero(env.action_masks())[0]))  # after reset() it plays
    with pytest.raises(MalformedInputError) as error:
        env.step(200)  # no action at all: an argument, not a rule of the game
    assert error.value.rule == "argument"


def test_the_gymnasium_seats_are_named_as_the_command_line_names_them() -> None:
    env = Take5GymEnv(["cautious", "lowest", "cautious", LowestCardPlayer(), CautiousPlayer])
    # The command line's form: a kind alone, then kind#2, kind#3 ... (take5rules play).
    assert list(env.players) == ["agent", "cautious", "lowest", "cautious#2", "opponent",
                                 "opponent#2"]
