"""Steps per CPU-second of the PettingZoo environments, and PettingZoo's performance_benchmark.

Run: ``.venv/bin/python benchmarks/bench_env.py [--steps 20000] [--repeats 5] [--quick]``.

Three jobs, each timed against peers in the same run (interleaved repetitions, medians; see
``_harness.py``):

* the AEC env (:class:`take5rules.agents.pettingzoo_env.Take5Env`, four players, random legal
actions from the
  mask, dict observations) against the stepper alone (:class:`take5rules.Game` with the same
  random legal answers, no observation built: the env's own overhead) and PettingZoo's own test
  environment with a mask in its observations (``generated_agents_env_action_mask_obs_v0``);
* the parallel env (:class:`take5rules.agents.pettingzoo_env.Take5ParallelEnv`), counted in
decisions (a step of
  the cards' phase is four decisions), against the stepper alone and PettingZoo's parallel test
  environment (``generated_agents_parallel_v0``), counted in agent actions;
* the flat observation (``observation="flat"``) against the dict one.

Then PettingZoo's :func:`~pettingzoo.test.performance_benchmark` runs on the AEC env (five
seconds of wall time; skipped with ``--quick``) and its own lines are printed.
"""

from __future__ import annotations

import argparse
import random
import warnings
from collections.abc import Callable
from typing import Any

import numpy as np
from _harness import Row, cpu_rate, interleaved, print_rows
from pettingzoo.test import performance_benchmark
from pettingzoo.test.example_envs import (
    generated_agents_env_action_mask_obs_v0,
    generated_agents_parallel_v0,
)
from pettingzoo.utils.env_logger import EnvLogger

from take5rules import Game
from take5rules.agents.pettingzoo_env import Take5Env, Take5ParallelEnv


def aec_steps(make: Callable[[], Any], steps: int) -> int:
    """*steps* AEC steps of a fresh env from *make*, random legal actions; reset at the end."""
    env = make()
    env.reset(seed=1)
    chooser = random.Random(1)
    done = 0
    while done < steps:
        if not env.agents:
            env.reset()
            continue
        observation, _, terminated, truncated, _ = env.last()
        if terminated or truncated:
            env.step(None)
        else:
            legal = np.flatnonzero(observation["action_mask"])
            env.step(int(legal[chooser.randrange(len(legal))]))
        done += 1
    return done


def parallel_decisions(make: Callable[[], Any], steps: int) -> int:
    """Decisions made in *steps* parallel steps (an agent's pass is not a decision)."""
    env = make()
    observations, _ = env.reset(seed=1)
    chooser = random.Random(1)
    decisions = 0
    for _ in range(steps):
        if not env.agents:
            observations, _ = env.reset()
        actions = {}
        for agent in env.agents:
            legal = np.flatnonzero(observations[agent]["action_mask"])
            actions[agent] = int(legal[chooser.randrange(len(legal))])
            decisions += len(legal) > 1 or actions[agent] != 108
        observations, *_ = env.step(actions)
    return decisions


def game_decisions(decisions: int) -> int:
    """*decisions* answers given to :class:`Game` directly: random legal cards, rows, picks."""
    chooser = random.Random(1)
    players = [f"player_{seat}" for seat in range(4)]
    game = Game(players, seed=1)
    done = 0
    while done < decisions:
        if game.result is not None:
            game = Game(players, seed=chooser.randrange(2**63))
        seat = game.to_move[0]
        legal = game.legal(seat)
        game.act(seat, legal[chooser.randrange(len(legal))])
        done += 1
    return done


def peer_aec_steps(steps: int) -> int:
    """*steps* AEC steps of PettingZoo's masked test environment, random legal actions."""
    env = generated_agents_env_action_mask_obs_v0.env()
    env.reset(seed=1)
    done = 0
    while done < steps:
        if not env.agents:
            env.reset()
            continue
        observation, _, terminated, truncated, _ = env.last()
        agent = env.agent_selection
        action = None if terminated or truncated else env.action_space(agent).sample(
            observation["action_mask"])
        env.step(action)
        done += 1
    return done


def peer_parallel_actions(steps: int) -> int:
    """Agent actions in *steps* steps of PettingZoo's parallel test environment."""
    env = generated_agents_parallel_v0.parallel_env()
    env.reset(seed=1)
    actions_taken = 0
    for _ in range(steps):
        if not env.agents:
            env.reset()
        actions = {agent: env.action_space(agent).sample() for agent in env.agents}
        actions_taken += len(actions)
        env.step(actions)
    return actions_taken


def main() -> None:
    """Measure and print the rows."""
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--steps", type=int, default=20_000)
    parser.add_argument("--repeats", type=int, default=5)
    parser.add_argument("--quick", action="store_true", help="fewer steps, no 5 s benchmark")
    options = parser.parse_args()
    steps = options.steps // 10 if options.quick else options.steps
    repeats = 3 if options.quick else options.repeats
    warnings.simplefilter("ignore")  # the PettingZoo test environments warn as they go
    EnvLogger.suppress_output()  # and log each illegal move they make themselves
    rows = []
    aec = interleaved({
        "ours": lambda: cpu_rate(lambda: aec_steps(lambda: Take5Env(4), steps)),
        "Game alone": lambda: cpu_rate(lambda: game_decisions(steps)),
        "PettingZoo masked test env": lambda: cpu_rate(lambda: peer_aec_steps(steps)),
    }, repeats)
    rows.append(Row("AEC env, 4 players, random legal actions", "steps/CPU-s", aec.pop("ours"),
                    aec))
    parallel = interleaved({
        "ours": lambda: cpu_rate(lambda: parallel_decisions(lambda: Take5ParallelEnv(4),
                                                            steps // 4)),
        "Game alone": lambda: cpu_rate(lambda: game_decisions(steps)),
        "PettingZoo parallel test env": lambda: cpu_rate(
            lambda: peer_parallel_actions(steps // 4)),
    }, repeats)
    rows.append(Row("parallel env, 4 players (per decision)", "decisions/CPU-s",
                    parallel.pop("ours"), parallel))
    flat = interleaved({
        "ours": lambda: cpu_rate(lambda: aec_steps(
            lambda: _FlatAdapter(Take5Env(4, observation="flat")), steps)),
        "dict observations": lambda: cpu_rate(lambda: aec_steps(lambda: Take5Env(4), steps)),
    }, repeats)
    rows.append(Row("AEC env, flat observations", "steps/CPU-s", flat.pop("ours"), flat))
    print_rows(rows)
    if not options.quick:
        performance_benchmark(Take5Env(4, seed=1))


class _FlatAdapter:
    """A flat-observation env seen through the dict interface the loops above use."""

    def __init__(self, env: Take5Env) -> None:
        self.env = env

    def __getattr__(self, name: str) -> Any:
        return getattr(self.env, name)

    def last(self) -> tuple[Any, ...]:
        vector, *rest = self.env.last()
        return ({"action_mask": vector[-109:]}, *rest)


if __name__ == "__main__":
    main()
