"""Take 5 for learning agents: a PettingZoo environment, turn by turn (AEC) and simultaneous.

:class:`Take5Env` follows PettingZoo's agent-environment-cycle API, :class:`Take5ParallelEnv`
its parallel API (Take 5's cards are chosen simultaneously); :func:`env` and
:func:`parallel_env` build them, as PettingZoo's own environments do. Both step a
:class:`take5rules.Game`, the library's one game loop: every rule is the rule functions' own,
never a copy. Every variant and threshold of :class:`take5rules.variants.Rules` and 2 to 10
seats are supported; the same seed deals the same cards as
:func:`take5rules.playing.engine.play_game`.
A single-agent Gymnasium wrapper against fixed opponents is :mod:`take5rules.agents.gymnasium_env`.

Decisions and observations are those of :mod:`take5rules.agents.encoding`, the one encoding of
every agent front end (the Gymnasium environment, :mod:`take5rules.agents.batch.vector` and the
OpenSpiel observation use it too, so a policy trained on one runs on the others). One
:class:`gymnasium.spaces.Discrete` action space of 109 actions per agent:

* ``0`` to ``103``: the card ``action + 1``, to play (phase ``cards``) or to draft (phase
  ``draft``, logic and tournament variants);
* ``104`` to ``107``: the row ``action - 104`` (0-based) to take with a low card (phase ``row``).
  A low card's player chooses when its turn to be placed comes, seeing the rows as they are
  then: that is a second decision, asked of that agent alone, with its own mask;
* ``108``: pass, the only legal action of an agent that has no decision to make (parallel API).

Each agent's action space samples legal actions: ``env.action_space(agent).sample()`` without a
mask draws from the agent's legal actions now (with a mask, from the mask, as Gymnasium does).

Observations. With ``observation="dict"`` (the default), a dictionary: ``"observation"``, a
``float32`` vector laid out as :data:`OBSERVATION_LAYOUT` says, and ``"action_mask"``, an
``int8`` vector of 109 entries, 1 for each legal action. With ``observation="flat"``, one
``float32`` vector: the observation followed by the action mask. The vector holds what the seat
may know (from :meth:`take5rules.Game.observe`) and nothing else: its hand, the rows, the cards
revealed this round, the draft's picks, the bull heads taken this round and the totals.

Rewards are the bull heads taken, negated, given when the turn is placed.

Illegal actions. With ``illegal_action="raise"`` (the default) an action the mask forbids raises
its rule's :class:`~take5rules.errors.IllegalMoveError` and changes nothing. With
``illegal_action="penalize"``, as Pgx does, the acting agent loses: the game ends for every
agent, the acting agent gets a reward of minus the threshold (the bull heads that end a game),
the others 0, and its info says ``"illegal_action": True``. An action that is no action at all
(not a whole number from 0 to 108) always raises an ``argument`` error.

``max_cycles`` truncates an episode: in the AEC API once every agent has decided that many
times, in the parallel API after that many steps. ``render_mode="ansi"`` returns, and
``"human"`` prints, what happened since the last render with :func:`take5rules.text.narrate`,
in any of the languages of :mod:`take5rules.text`.

Install it with the extra: ``pip install take5rules[env]``.

>>> env = Take5Env(players=3, seed=4)
>>> env.reset(seed=4)
>>> while env.agents:
...     observation, reward, terminated, truncated, info = env.last()
...     if terminated:
...         env.step(None)
...     else:
...         env.step(int(np.flatnonzero(observation["action_mask"])[0]))
>>> sorted(env.final_totals) == ["player_0", "player_1", "player_2"]
True
"""

from __future__ import annotations

import random
from collections.abc import Callable, Mapping
from functools import partial
from typing import Any, ClassVar

try:
    import numpy as np
    import numpy.typing as npt
    from gymnasium import spaces
    from pettingzoo import AECEnv, ParallelEnv
except ModuleNotFoundError as absent:  # a plain install: say which extra, in one line
    from take5rules.text.extras import missing_extra

    raise missing_extra(__name__, absent, "env") from None

from take5rules._messages import N_
from take5rules.agents import arguments as _arguments
from take5rules.agents.arguments import ARGUMENT
from take5rules.agents.encoding import (
    ACTIONS,
    OBSERVATION_LAYOUT,
    PASS,
    ROW_ACTIONS,
    SIZE,
    act,
    checked_action,
    heads_taken,
    mask,
    observe,
)
from take5rules.errors import IllegalMoveError, MalformedInputError, Take5Error, Where
from take5rules.events import Event
from take5rules.playing.stepper import Game, Phase
from take5rules.setup import check_players
from take5rules.text import narrate, rows_text
from take5rules.variants import Rules, check_player_count

__all__ = [
    "ACTIONS",
    "OBSERVATION_LAYOUT",
    "PASS",
    "ROW_ACTIONS",
    "Take5Env",
    "Take5ParallelEnv",
    "env",
    "parallel_env",
]

_POLICIES = ("raise", "penalize")
_FORMATS = ("dict", "flat")
_RENDER_MODES = ("ansi", "human")

#: An observation: a dict of arrays (``observation="dict"``) or one array (``"flat"``).
Observed = Any


class LegalDiscrete(spaces.Discrete):
    """A :class:`gymnasium.spaces.Discrete` whose ``sample()`` without a mask is legal now.

    *legal* gives the agent's action mask at the time of sampling.
    """

    def __init__(self, n: int, legal: Callable[[], npt.NDArray[np.int8]]) -> None:
        super().__init__(n)
        self._legal = legal

    def sample(self, mask: Any = None, probability: Any = None) -> np.int64:
        """A legal action now (or one that *mask* or *probability* allows, as Gymnasium does)."""
        if mask is None and probability is None:
            mask = self._legal()
        return super().sample(mask, probability)


class _Spaces:
    """What both APIs share: the seats, the spaces, the rules, the game, rendering."""

    metadata: ClassVar[dict[str, Any]] = {
        "name": "take5_v1",
        "render_modes": list(_RENDER_MODES),
        "is_parallelizable": True,
    }
    agents: list[str]

    def _setup(self, players: object, rules: object, seed: object, render_mode: object,
               language: object, illegal_action: object, observation: object,
               max_cycles: object) -> None:
        if rules is not None and not isinstance(rules, Rules):
            raise MalformedInputError(
                ARGUMENT, N_("rules = {value}: the rules are a take5rules.variants.Rules, or "
                             "None for the standard game"), value=_arguments.shown(rules),
            )
        self.rules = rules if rules is not None else Rules()
        count = _arguments.whole_number("players", players)
        # The count is checked before any name is made: 10**8 seats are refused at once.
        check_player_count(count, self.rules.variant)
        self.possible_agents = list(
            check_players([f"player_{seat}" for seat in range(count)], self.rules)
        )
        if render_mode is not None and render_mode not in _RENDER_MODES:
            raise MalformedInputError(
                ARGUMENT,
                N_("render mode {value}: the render modes are 'ansi' and 'human'"),
                value=_arguments.shown(render_mode),
            )
        self.render_mode: str | None = render_mode
        self.language = _arguments.language("language", language)
        self.illegal_action = _arguments.choice("illegal_action", illegal_action, _POLICIES)
        self.observation_format = _arguments.choice("observation", observation, _FORMATS)
        self.max_cycles = None if max_cycles is None else _arguments.whole_number(
            "max_cycles", max_cycles)
        self.seed = _arguments.seed("seed", seed)
        # Seeds of the games after the first, drawn from the last seed given.
        self._episodes = random.Random(self.seed)
        self._fresh = True  # the first reset without a seed plays the constructor's game
        high = np.finfo(np.float32).max
        vector = spaces.Box(0, high, (SIZE,), np.float32)
        legal = spaces.Box(0, 1, (ACTIONS,), np.int8)
        self._observation_space: spaces.Space[Any] = (
            spaces.Dict({"observation": vector, "action_mask": legal})
            if self.observation_format == "dict"
            else spaces.Box(0, high, (SIZE + ACTIONS,), np.float32)
        )
        self.observation_spaces = dict.fromkeys(self.possible_agents, self._observation_space)
        self.action_spaces: dict[str, spaces.Space[Any]] = {
            agent: LegalDiscrete(ACTIONS, partial(self._mask, agent))
            for agent in self.possible_agents
        }
        self._begin()

    def _begin(self) -> None:
        self.game = Game(self.possible_agents, self.rules, self.seed)
        #: Every event of the game so far.
        self.events: list[Event] = list(self.game.events)
        self._told = 0
        self._ended = False  # by an illegal action, under illegal_action="penalize"

    def observation_space(self, agent: str) -> spaces.Space[Any]:
        """The same observation space for every agent (a Dict, or a Box when flat)."""
        return self._observation_space

    def action_space(self, agent: str) -> spaces.Space[Any]:
        """The agent's :class:`LegalDiscrete` space of 109 actions."""
        return self.action_spaces[agent]

    def _known(self, agent: object) -> str:
        if not isinstance(agent, str) or agent not in self.possible_agents:
            raise MalformedInputError(
                ARGUMENT, N_("agent {value}: no such agent in the game; the agents are "
                             "{agents}"), value=_arguments.shown(agent),
                agents=", ".join(self.possible_agents),
            )
        return agent

    def _mask(self, agent: str) -> npt.NDArray[np.int8]:
        if self._ended or agent not in self.agents:
            legal = np.zeros(ACTIONS, dtype=np.int8)
            legal[PASS] = 1
            return legal
        return mask(self.game, agent)

    def _observation(self, agent: str) -> Observed:
        self._known(agent)
        vector, legal = observe(self.game, agent), self._mask(agent)
        if self.observation_format == "flat":
            return np.concatenate([vector, legal.astype(np.float32)])
        return {"observation": vector, "action_mask": legal}

    def _legal(self, agent: str, action: int) -> bool:
        return bool(self._mask(agent)[action])

    def _info(self, agent: str) -> dict[str, Any]:
        return {"phase": self.game.phase.value}

    def _step(self, agent: str, action: int) -> tuple[Event, ...]:
        events = act(self.game, agent, action)
        self.events.extend(events)
        return events

    def _new_game(self, seed: object) -> None:
        """A new game: dealt as *seed* deals, or, without one, with the next seed in line."""
        checked = _arguments.seed("seed", seed)
        if checked is not None:
            self.seed = checked
            self._episodes = random.Random(checked)
        elif not self._fresh:
            self.seed = self._episodes.randrange(2**63)
        self._fresh = False
        self._begin()

    @property
    def final_totals(self) -> dict[str, int]:
        """The totals so far (final once the game is over)."""
        return dict(self.game.totals)

    def render(self) -> str | None:
        """What happened since the last render, narrated, and the rows now.

        ``ansi`` returns the text, ``human`` prints it and returns ``None``.
        """
        if self.render_mode is None:
            return None
        events = self.events[self._told :]
        self._told = len(self.events)
        lines = [narrate(event, self.language) for event in events]
        table = self.game.table
        if table is not None and self.game.phase is not Phase.OVER:
            lines.append(rows_text(table.rows, self.language))
        text = "\n".join(lines)
        if self.render_mode == "human":
            print(text)
            return None
        return text

    def close(self) -> None:
        """Nothing to release."""


class Take5Env(_Spaces, AECEnv[str, Observed, int]):  # type: ignore[misc]
    """Take 5 as a PettingZoo AEC environment: agents decide one at a time.

    In each turn every agent, in seat order, chooses a card without seeing the others' choices;
    after the last one the cards are placed lowest first, and the player of a low card is asked
    for the row when its card is placed. In the logic and tournament variants the hands are
    drafted first, one pick at a time in seat order.

    Args:
        players: the number of seats, 2 to 10 (fewer in some variants).
        rules: the variant and threshold; the standard game to 66 by default.
        seed: fixes the deals, as the seed of :func:`take5rules.playing.engine.play_game` does
            (a whole number 0 or more; numpy integers too); a ``reset`` without a seed starts
            the next game of a sequence drawn from it.
        render_mode: ``"ansi"``, ``"human"`` or ``None``.
        language: the language of the narration (``en``, ``fr``, ``bg``, ``it``, ``eo`` ...).
        illegal_action: ``"raise"`` or ``"penalize"`` (see the module's documentation).
        observation: ``"dict"`` (with ``action_mask``) or ``"flat"``.
        max_cycles: truncate once every agent has decided that many times (``None``: never).
    """

    def __init__(
        self,
        players: int = 4,
        rules: Rules | None = None,
        seed: int | None = None,
        render_mode: str | None = None,
        language: str = "en",
        *,
        illegal_action: str = "raise",
        observation: str = "dict",
        max_cycles: int | None = None,
    ) -> None:
        super().__init__()
        self.agents = []
        self._setup(players, rules, seed, render_mode, language, illegal_action, observation,
                    max_cycles)
        self._start()

    def _start(self) -> None:
        self.agents = list(self.possible_agents)
        self.rewards = dict.fromkeys(self.agents, 0.0)
        self._cumulative_rewards = dict.fromkeys(self.agents, 0.0)
        self.terminations = dict.fromkeys(self.agents, False)
        self.truncations = dict.fromkeys(self.agents, False)
        self.infos = {agent: self._info(agent) for agent in self.agents}
        self._decisions = dict.fromkeys(self.agents, 0)
        self.agent_selection = self.game.to_move[0]

    def reset(self, seed: int | None = None, options: dict[str, Any] | None = None) -> None:
        """Start a new game; with *seed*, deal as that seed does."""
        self._new_game(seed)
        self._start()

    def observe(self, agent: str) -> Observed:
        """The observation of *agent* (with its action mask)."""
        return self._observation(agent)

    def _check_agents(self) -> str:
        """The selected agent, or a clear error once every agent has left the game."""
        if not self.agents:
            raise MalformedInputError(
                ARGUMENT, N_("the game is over and every agent has left it; call reset() to "
                             "start a new game"),
            )
        return self.agent_selection

    def last(
        self, observe: bool = True
    ) -> tuple[Observed, float, bool, bool, dict[str, Any]]:
        """The selected agent's observation, reward, termination, truncation and info."""
        self._check_agents()
        result: tuple[Observed, float, bool, bool, dict[str, Any]]
        result = super().last(observe)
        return result

    def step(self, action: int | None) -> None:
        """Apply the selected agent's action and select the next agent to decide.

        A refused action raises its rule's error and changes nothing, not even the rewards
        still to be collected (or, under ``illegal_action="penalize"``, ends the game).
        """
        agent = self._check_agents()
        if self.terminations[agent] or self.truncations[agent]:
            if action is not None:
                raise MalformedInputError(
                    ARGUMENT, N_("action {value}: the game is over for {player!r}, whose only "
                                 "action is None"), value=_arguments.shown(action), player=agent,
                )
            self._was_dead_step(action)
            return
        checked = checked_action(action, Where(self.game.round, player=agent))
        try:
            heads = heads_taken(self._step(agent, checked))  # raises before anything changes
        except Take5Error:
            if self.illegal_action == "raise" or self._legal(agent, checked):
                raise
            self._penalize([agent])
            return
        self._cumulative_rewards[agent] = 0.0
        self._decisions[agent] += 1
        self.rewards = {player: -float(heads.get(player, 0)) for player in self.agents}
        if self.game.phase is Phase.OVER:
            self.terminations = dict.fromkeys(self.agents, True)
            self.agent_selection = self.agents[0]
        elif self.max_cycles is not None and min(self._decisions.values()) >= self.max_cycles:
            self.truncations = dict.fromkeys(self.agents, True)
            self.agent_selection = self.agents[0]
        else:
            self.agent_selection = self.game.to_move[0]
        self.infos = {player: self._info(player) for player in self.agents}
        self._accumulate_rewards()

    def _penalize(self, losers: list[str]) -> None:
        """End the game for every agent: *losers* (illegal actions) pay the threshold."""
        self._ended = True
        self._cumulative_rewards[losers[0]] = 0.0
        penalty = -float(self.rules.threshold)
        self.rewards = {player: penalty if player in losers else 0.0 for player in self.agents}
        self.terminations = dict.fromkeys(self.agents, True)
        self.infos = {player: {**self._info(player), "illegal_action": player in losers}
                      for player in self.agents}
        self.agent_selection = self.agents[0]
        self._accumulate_rewards()


class Take5ParallelEnv(_Spaces, ParallelEnv[str, Observed, int]):  # type: ignore[misc]
    """Take 5 with PettingZoo's parallel API: every agent acts in every step.

    A step where cards are chosen takes every agent's card at once, as the rules have it. When a
    low card's row must be chosen, or a card drafted, only that agent decides; every other agent
    passes (action :data:`PASS`, the only one its mask allows). Arguments as :class:`Take5Env`;
    ``max_cycles`` counts steps.
    """

    def __init__(
        self,
        players: int = 4,
        rules: Rules | None = None,
        seed: int | None = None,
        render_mode: str | None = None,
        language: str = "en",
        *,
        illegal_action: str = "raise",
        observation: str = "dict",
        max_cycles: int | None = None,
    ) -> None:
        self.agents = []
        self._setup(players, rules, seed, render_mode, language, illegal_action, observation,
                    max_cycles)
        self.agents = list(self.possible_agents)
        self._steps = 0

    def reset(
        self, seed: int | None = None, options: dict[str, Any] | None = None
    ) -> tuple[dict[str, Observed], dict[str, dict[str, Any]]]:
        """Start a new game; return every agent's observation and info."""
        self._new_game(seed)
        self.agents = list(self.possible_agents)
        self._steps = 0
        return (
            {agent: self._observation(agent) for agent in self.agents},
            {agent: self._info(agent) for agent in self.agents},
        )

    def step(self, actions: Mapping[str, int]) -> tuple[
        dict[str, Observed],
        dict[str, float],
        dict[str, bool],
        dict[str, bool],
        dict[str, dict[str, Any]],
    ]:
        """Apply every agent's action: the cards of a turn together, or one row or pick."""
        if not self.agents:
            return {}, {}, {}, {}, {}
        if not isinstance(actions, Mapping):
            raise MalformedInputError(
                ARGUMENT, N_("actions = {value}: the actions are a dict from each agent to its "
                             "action"), value=_arguments.shown(actions),
            )
        for name in actions:
            if name not in self.agents:
                self._known(name)  # names an unknown agent
                raise MalformedInputError(  # a known agent that has left the game
                    ARGUMENT, N_("agent {value}: no such agent in the game; the agents are "
                                 "{agents}"), value=_arguments.shown(name),
                    agents=", ".join(self.agents),
                )
        for agent in self.agents:
            if agent not in actions:
                raise IllegalMoveError(
                    "turn.reveal",
                    N_("{player!r} played no card; every player plays one card each turn"),
                    where=Where(self.game.round, player=agent),
                    player=agent,
                )
        checked = {agent: checked_action(actions[agent], Where(self.game.round, player=agent))
                   for agent in self.agents}
        # Check every action before applying any: an illegal one raises its rule's error.
        illegal = [agent for agent in self.agents if not self._legal(agent, checked[agent])]
        if illegal and self.illegal_action == "penalize":
            return self._penalized(illegal)
        for agent in illegal:
            act(self.game, agent, checked[agent])  # raises the rule's error
        heads: dict[str, int] = {}
        for agent in self.game.to_move:
            for player, count in heads_taken(self._step(agent, checked[agent])).items():
                heads[player] = heads.get(player, 0) + count
        self._steps += 1
        agents = list(self.agents)
        over = self.game.phase is Phase.OVER
        truncated = not over and self.max_cycles is not None and self._steps >= self.max_cycles
        observations = {agent: self._observation(agent) for agent in agents}
        rewards = {agent: -float(heads.get(agent, 0)) for agent in agents}
        terminations = dict.fromkeys(agents, over)
        truncations = dict.fromkeys(agents, truncated)
        infos = {agent: self._info(agent) for agent in agents}
        if over or truncated:
            self.agents = []
        return observations, rewards, terminations, truncations, infos

    def _penalized(self, losers: list[str]) -> tuple[
        dict[str, Observed], dict[str, float], dict[str, bool], dict[str, bool],
        dict[str, dict[str, Any]],
    ]:
        self._ended = True
        agents = list(self.agents)
        penalty = -float(self.rules.threshold)
        result = (
            {agent: self._observation(agent) for agent in agents},
            {agent: penalty if agent in losers else 0.0 for agent in agents},
            dict.fromkeys(agents, True),
            dict.fromkeys(agents, False),
            {agent: {**self._info(agent), "illegal_action": agent in losers} for agent in agents},
        )
        self.agents = []
        return result

    def state(self) -> npt.NDArray[np.float32]:
        """The first seat's observation vector."""
        return observe(self.game, self.possible_agents[0])


def env(**kwargs: Any) -> Take5Env:
    """A :class:`Take5Env` (PettingZoo's convention: ``take5rules.agents.pettingzoo_env.env()``)."""
    return Take5Env(**kwargs)


def parallel_env(**kwargs: Any) -> Take5ParallelEnv:
    """A :class:`Take5ParallelEnv` (PettingZoo's convention)."""
    return Take5ParallelEnv(**kwargs)
