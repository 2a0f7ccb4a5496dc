"""Take 5 for learning agents: a PettingZoo environment, turn by turn (AEC) and simultaneous.

:class:`Take5Env` follows PettingZoo's agent-environment-cycle API, :class:`Take5ParallelEnv`
its parallel API (Take 5's cards are chosen simultaneously). Both run the explicit state
machine of :mod:`take5rules._machine` over the public rule functions, never a copy of them: the
deal is :func:`take5rules.setup.deal`, the logic draft :func:`take5rules.variants.draft`, each
turn :func:`take5rules.round.play_turn` (which places the cards with :mod:`take5rules.table`),
the score :func:`take5rules.round.round_penalties`, :func:`take5rules.game.add_penalties` and
:func:`take5rules.game.game_over`. Every variant and threshold of
:class:`take5rules.variants.Rules` and 2 to 10 seats are supported; the same seed deals the same
cards as :func:`take5rules.engine.play_game`.

Decisions. One :class:`gymnasium.spaces.Discrete` action space of 109 actions per agent:

* ``0`` to ``103``: the card ``action + 1``, to play (phase ``card``) or to draft (phase
  ``draft``, logic and tournament variants);
* ``104`` to ``107``: the row ``action - 104`` (0-based) to take with a low card (phase ``row``).
  A low card's player chooses when its turn to be placed comes, seeing the rows as they are
  then: that is a second decision, asked of that agent alone, with its own mask;
* ``108``: pass, the only legal action of an agent that has no decision to make (parallel API).

Observations are dictionaries: ``"observation"``, an ``int32`` vector laid out as
:data:`OBSERVATION_LAYOUT` says, and ``"action_mask"``, an ``int8`` vector of 109 entries, 1 for
each legal action. Rewards are the bull heads taken, negated, given when the turn is placed.
``render_mode="ansi"`` tells what happened since the last render with
:func:`take5rules.i18n.narrate`, in any of the languages of :mod:`take5rules.i18n`.

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
from collections.abc import Mapping
from typing import Any, ClassVar

try:
    import numpy as np
    import numpy.typing as npt
    from gymnasium import spaces
    from pettingzoo import AECEnv, ParallelEnv
except ModuleNotFoundError as missing:  # a plain install: say which extra, in one line
    from ._extras import missing_extra

    raise missing_extra(__name__, missing, "env") from None

from ._machine import CARD, DRAFT, OVER, PHASES, ROW, Machine
from ._text import N_
from .cards import HIGHEST
from .errors import IllegalMoveError, MalformedInputError, Where
from .i18n import narrate, rows_text
from .setup import ROWS, check_players
from .table import ROW_LIMIT
from .variants import Rules

__all__ = [
    "ACTIONS",
    "OBSERVATION_LAYOUT",
    "PASS",
    "ROW_ACTIONS",
    "Take5Env",
    "Take5ParallelEnv",
]

#: The number of actions: 104 cards, 4 rows, and pass.
ACTIONS = HIGHEST + ROWS + 1
#: The first row action: ``ROW_ACTIONS + r`` takes row *r* (0-based).
ROW_ACTIONS = HIGHEST
#: The pass action, for an agent with no decision to make.
PASS = HIGHEST + ROWS


OBSERVATION_LAYOUT: Mapping[str, slice] = {
    "hand": slice(0, 104),  # 1 for each card held (or drafted so far)
    "rows": slice(104, 124),  # the four rows, five places each, oldest first, 0 if empty
    "pool": slice(124, 228),  # 1 for each face-up card left to draft
    "seen": slice(228, 332),  # 1 for each card played so far this round, by anyone
    "phase": slice(332, 333),  # 0 card, 1 row, 2 draft, 3 over
    "low_card": slice(333, 334),  # the low card whose row this agent must choose, else 0
    "round": slice(334, 335),  # the round (or tournament game) number
    "penalties": slice(335, 345),  # bull heads taken this round, observer first
    "totals": slice(345, 355),  # totals before this round, observer first
}
"""Where each part of the ``"observation"`` vector lies.

* ``hand``: 1 for each card held (while drafting: drafted so far), card *c* at index *c - 1*;
* ``rows``: the four rows, five places each, oldest card first, 0 for an empty place;
* ``pool``: 1 for each face-up card left to draft (logic and tournament variants);
* ``seen``: 1 for each card revealed so far this round, by anyone;
* ``phase``: 0 a card to play, 1 a row to take, 2 a card to draft, 3 the game over;
* ``low_card``: the low card whose row this agent must choose now, else 0;
* ``round``: the round (in a tournament, the game) number;
* ``penalties`` and ``totals``: bull heads taken this round and totals before it, the
  observing agent first, then the others in seat order after it; unused seats are 0.
"""
_SIZE = 355


def _observe(machine: Machine, agent: str) -> npt.NDArray[np.int32]:
    """The observation vector of *agent* (:data:`OBSERVATION_LAYOUT`)."""
    vector = np.zeros(_SIZE, dtype=np.int32)
    vector[[OBSERVATION_LAYOUT["hand"].start + c - 1 for c in machine.hand(agent)]] = 1
    table = machine.table
    if table is not None:
        for index, row in enumerate(table.rows):
            start = OBSERVATION_LAYOUT["rows"].start + index * ROW_LIMIT
            vector[start : start + len(row)] = row
    if machine.phase == DRAFT:
        vector[[OBSERVATION_LAYOUT["pool"].start + c - 1 for c in machine.pool]] = 1
    vector[[OBSERVATION_LAYOUT["seen"].start + c - 1 for c in machine.seen]] = 1
    vector[OBSERVATION_LAYOUT["phase"].start] = PHASES.index(machine.phase)
    pending = machine.pending
    if pending is not None and pending.player == agent:
        vector[OBSERVATION_LAYOUT["low_card"].start] = pending.card
    vector[OBSERVATION_LAYOUT["round"].start] = machine.number
    seat = machine.players.index(agent)
    order = machine.players[seat:] + machine.players[:seat]
    for offset, player in enumerate(order):
        vector[OBSERVATION_LAYOUT["penalties"].start + offset] = machine.taken[player]
        vector[OBSERVATION_LAYOUT["totals"].start + offset] = machine.totals[player]
    return vector


def _mask(machine: Machine, agent: str) -> npt.NDArray[np.int8]:
    """The legal actions of *agent* now."""
    mask = np.zeros(ACTIONS, dtype=np.int8)
    if agent not in machine.deciders():
        mask[PASS] = 1
    elif machine.phase == CARD:
        mask[[c - 1 for c in machine.hand(agent)]] = 1
    elif machine.phase == ROW:
        mask[ROW_ACTIONS : ROW_ACTIONS + ROWS] = 1
    else:
        mask[[c - 1 for c in machine.pool]] = 1
    return mask


def _legal(machine: Machine, agent: str, action: object) -> bool:
    """Whether *action* is legal for *agent* now."""
    if isinstance(action, bool) or not isinstance(action, int | np.integer):
        return False
    return bool(0 <= action < ACTIONS and _mask(machine, agent)[action])


def _act(machine: Machine, agent: str, action: object) -> dict[str, int]:
    """Apply *agent*'s *action*; return the bull heads each player took as a result."""
    if isinstance(action, np.integer):
        action = int(action)
    if isinstance(action, bool) or not isinstance(action, int) or not 0 <= action < ACTIONS:
        raise MalformedInputError(
            "turn.reveal",
            N_("action {value!r}: an action is a whole number from 0 to {last}"),
            where=Where(machine.number, player=agent),
            value=action,
            last=ACTIONS - 1,
        )
    if agent not in machine.deciders():
        if action == PASS:
            return {}
        raise IllegalMoveError(
            "turn.reveal",
            N_("{player!r} has no decision to make now; the only action is {action} "
               "(pass)"),
            where=machine.where(agent),
            player=agent,
            action=PASS,
        )
    if machine.phase == ROW:
        return machine.choose_row(agent, action - ROW_ACTIONS)
    if machine.phase == DRAFT:
        return machine.pick(agent, action + 1)
    if action >= HIGHEST:
        raise IllegalMoveError(
            "turn.reveal",
            N_("action {value!r}: {player!r} must play a card now, an action from 0 "
               "to 103"),
            where=machine.where(agent),
            value=action,
            player=agent,
        )
    return machine.play(agent, action + 1)


class _Spaces:
    """What both APIs share: the seats, the spaces, the rules, rendering."""

    metadata: ClassVar[dict[str, Any]] = {
        "name": "take5_v0",
        "render_modes": ["ansi"],
        "is_parallelizable": True,
    }

    def _setup(
        self,
        players: int,
        rules: Rules | None,
        seed: int | None,
        render_mode: str | None,
        language: str,
    ) -> None:
        self.rules = rules if rules is not None else Rules()
        self.possible_agents = list(
            check_players([f"player_{seat}" for seat in range(players)], self.rules)
        )
        if render_mode not in (None, "ansi"):
            raise MalformedInputError(
                "protocol",
                N_("render mode {value!r}: the only render mode is 'ansi'"),
                value=render_mode,
            )
        self.render_mode = render_mode
        self.language = language
        self.seed = seed
        # Seeds of the games after the first, drawn from the last seed given.
        self._episodes = random.Random(seed)
        self._fresh = True  # the first reset without a seed plays the constructor's game
        self._observation_space = spaces.Dict(
            {
                "observation": spaces.Box(0, np.iinfo(np.int32).max, (_SIZE,), np.int32),
                "action_mask": spaces.Box(0, 1, (ACTIONS,), np.int8),
            }
        )
        self._action_space = spaces.Discrete(ACTIONS)
        self.observation_spaces = dict.fromkeys(self.possible_agents, self._observation_space)
        self.action_spaces = dict.fromkeys(self.possible_agents, self._action_space)
        self.game = Machine(tuple(self.possible_agents), self.rules, seed)
        self._told = 0

    def observation_space(self, agent: str) -> spaces.Space[Any]:
        """The same :class:`gymnasium.spaces.Dict` for every agent."""
        return self._observation_space

    def action_space(self, agent: str) -> spaces.Space[Any]:
        """The same :class:`gymnasium.spaces.Discrete` of 109 actions for every agent."""
        return self._action_space

    def _observation(self, agent: str) -> dict[str, npt.NDArray[Any]]:
        return {"observation": _observe(self.game, agent), "action_mask": _mask(self.game, agent)}

    def _info(self, agent: str) -> dict[str, Any]:
        return {"phase": self.game.phase}

    def _new_game(self, seed: int | None) -> None:
        """A new game: dealt as *seed* deals, or, without one, with the next seed in line."""
        if seed is not None:
            self.seed = seed
            self._episodes = random.Random(seed)
        elif not self._fresh:
            self.seed = self._episodes.randrange(2**63)
        self._fresh = False
        self.game = Machine(tuple(self.possible_agents), self.rules, self.seed)
        self._told = 0

    @property
    def final_totals(self) -> dict[str, int]:
        """The totals so far (final once the game is over)."""
        return dict(self.game.totals)

    def render(self) -> str | None:
        """What happened since the last render, narrated, and the rows now (``ansi`` mode)."""
        if self.render_mode is None:
            return None
        events = self.game.events[self._told :]
        self._told = len(self.game.events)
        lines = [narrate(event, self.language) for event in events]
        table = self.game.table
        if table is not None and self.game.phase != OVER:
            lines.append(rows_text(table.rows, self.language))
        return "\n".join(lines)

    def close(self) -> None:
        """Nothing to release."""


class Take5Env(_Spaces, AECEnv[str, dict[str, npt.NDArray[Any]], int]):  # type: ignore[misc]
    """Take 5 as a PettingZoo AEC environment: agents decide one at a time.

    In each turn every agent, in seat order, chooses a card without seeing the others' choices;
    after the last one the cards are placed lowest first, and the player of a low card is asked
    for the row when its card is placed. In the logic and tournament variants the hands are
    drafted first, one pick at a time in seat order.

    Args:
        players: the number of seats, 2 to 10 (fewer in some variants).
        rules: the variant and threshold; the standard game to 66 by default.
        seed: fixes the deals, as the seed of :func:`take5rules.engine.play_game` does; a
            ``reset`` without a seed starts the next game of a sequence drawn from it.
        render_mode: ``"ansi"`` or ``None``.
        language: the language of the narration (``en``, ``fr``, ``bg``, ``it``, ``eo`` ...).
    """

    def __init__(
        self,
        players: int = 4,
        rules: Rules | None = None,
        seed: int | None = None,
        render_mode: str | None = None,
        language: str = "en",
    ) -> None:
        super().__init__()
        self._setup(players, rules, seed, render_mode, language)
        self._start()

    def _start(self) -> None:
        self.agents = list(self.possible_agents)
        self.rewards = dict.fromkeys(self.agents, 0.0)
        self._cumulative_rewards = dict.fromkeys(self.agents, 0.0)
        self.terminations = dict.fromkeys(self.agents, False)
        self.truncations = dict.fromkeys(self.agents, False)
        self.infos = {agent: self._info(agent) for agent in self.agents}
        self.agent_selection = self.game.deciders()[0]

    def reset(self, seed: int | None = None, options: dict[str, Any] | None = None) -> None:
        """Start a new game; with *seed*, deal as that seed does."""
        self._new_game(seed)
        self._start()

    def observe(self, agent: str) -> dict[str, npt.NDArray[Any]]:
        """The observation and action mask of *agent*."""
        return self._observation(agent)

    def step(self, action: int | None) -> None:
        """Apply the selected agent's action and select the next agent to decide."""
        agent = self.agent_selection
        if self.terminations[agent] or self.truncations[agent]:
            self._was_dead_step(action)
            return
        self._cumulative_rewards[agent] = 0.0
        heads = _act(self.game, agent, action)
        self.rewards = {player: -float(heads.get(player, 0)) for player in self.agents}
        if self.game.phase == OVER:
            self.terminations = dict.fromkeys(self.agents, True)
            self.agent_selection = self.agents[0]
        else:
            self.agent_selection = self.game.deciders()[0]
        self.infos = {player: self._info(player) for player in self.agents}
        self._accumulate_rewards()


class Take5ParallelEnv(
    _Spaces, ParallelEnv[str, dict[str, npt.NDArray[Any]], int]  # type: ignore[misc]
):
    """Take 5 with PettingZoo's parallel API: every agent acts in every step.

    A step where cards are chosen takes every agent's card at once, as the rules have it. When a
    low card's row must be chosen, or a card drafted, only that agent decides; every other agent
    passes (action :data:`PASS`, the only one its mask allows). Arguments as :class:`Take5Env`.
    """

    def __init__(
        self,
        players: int = 4,
        rules: Rules | None = None,
        seed: int | None = None,
        render_mode: str | None = None,
        language: str = "en",
    ) -> None:
        self._setup(players, rules, seed, render_mode, language)
        self.agents = list(self.possible_agents)

    def reset(
        self, seed: int | None = None, options: dict[str, Any] | None = None
    ) -> tuple[dict[str, dict[str, npt.NDArray[Any]]], dict[str, dict[str, Any]]]:
        """Start a new game; return every agent's observation and info."""
        self._new_game(seed)
        self.agents = list(self.possible_agents)
        return (
            {agent: self._observation(agent) for agent in self.agents},
            {agent: self._info(agent) for agent in self.agents},
        )

    def step(self, actions: Mapping[str, int]) -> tuple[
        dict[str, dict[str, npt.NDArray[Any]]],
        dict[str, float],
        dict[str, bool],
        dict[str, bool],
        dict[str, dict[str, Any]],
    ]:
        """Apply every agent's action: the cards of a turn together, or one row or pick."""
        if not self.agents:
            return {}, {}, {}, {}, {}
        for agent in self.agents:
            if agent not in actions:
                raise IllegalMoveError(
                    "turn.reveal",
                    N_("{player!r} played no card; every player plays one card each turn"),
                    where=Where(self.game.number, player=agent),
                    player=agent,
                )
        deciders = self.game.deciders()
        heads: dict[str, int] = {}
        # Check every action before applying any: an illegal one raises its rule's error.
        for agent in self.agents:
            if not _legal(self.game, agent, actions[agent]):
                _act(self.game, agent, actions[agent])
        for agent in deciders:
            for player, count in _act(self.game, agent, actions[agent]).items():
                heads[player] = heads.get(player, 0) + count
        agents = list(self.agents)
        over = self.game.phase == OVER
        observations = {agent: self._observation(agent) for agent in agents}
        rewards = {agent: -float(heads.get(agent, 0)) for agent in agents}
        terminations = dict.fromkeys(agents, over)
        truncations = dict.fromkeys(agents, False)
        infos = {agent: self._info(agent) for agent in agents}
        if over:
            self.agents = []
        return observations, rewards, terminations, truncations, infos

    def state(self) -> npt.NDArray[np.int32]:
        """The first seat's observation vector."""
        return _observe(self.game, self.possible_agents[0])

