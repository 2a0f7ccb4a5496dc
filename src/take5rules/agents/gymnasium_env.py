"""Take 5 as a single-agent Gymnasium environment: one seat against fixed opponents.

:class:`Take5GymEnv` seats a learning agent (named ``"agent"``) with opponents that are
:class:`~take5rules.playing.players.Player` objects: the built-in players by name (``"random"``,
``"lowest"``, ``"cautious"``, ... and the learned ``"policy"``: the kinds of
:data:`~take5rules.agents.player_kinds.PLAYER_KINDS`), any player object, or a function that
makes one for each episode.
The opponents' seats are named as ``take5rules play`` names them: a kind alone, then
``kind#2``, ``kind#3`` ... (``"opponent"`` for a player object or a function).
After each action of the agent the opponents play, through what their seats may know
(:meth:`take5rules.Game.observe`), until the agent must decide again or the game is over.

The actions, observations and action mask are those of :mod:`take5rules.agents.encoding`, as
in :class:`take5rules.agents.pettingzoo_env.Take5Env`: 109 actions (a card, a row, pass), a dict
with ``"observation"`` and ``"action_mask"`` or a flat vector. ``step`` before ``reset`` is an
``argument`` error. The reward of a step is the bull heads the agent took during it, negated;
the episode ends with the game. An illegal action is penalized by default, as Pgx does: the
episode ends and the reward is minus the threshold (``illegal_action="raise"`` raises the rule's
error instead).
:meth:`Take5GymEnv.action_masks` gives the mask, as ``sb3-contrib``'s maskable algorithms ask.
The game is dealt from the seed given to :meth:`~Take5GymEnv.reset`, as Gymnasium seeds do.

It passes :func:`gymnasium.utils.env_checker.check_env`; ``gymnasium.make("take5rules/Take5-v0",
opponents=[...])`` builds it once this module is imported. Install it with
``pip install take5rules[env]``.

>>> env = Take5GymEnv(["cautious", "lowest"])
>>> observation, info = env.reset(seed=3)
>>> done = False
>>> while not done:
...     action = int(np.flatnonzero(observation["action_mask"])[0])
...     observation, reward, done, truncated, info = env.step(action)
>>> sorted(info["totals"]) == ["agent", "cautious", "lowest"]
True
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any

try:
    import gymnasium
    import numpy as np
    import numpy.typing as npt
    from gymnasium import spaces
except ModuleNotFoundError as absent:  # a plain install: say which extra
    from take5rules.text.extras import missing_extra

    raise missing_extra(__name__, absent, "env") from None

from take5rules._messages import N_
from take5rules.agents import arguments as _arguments
from take5rules.agents.arguments import ARGUMENT
from take5rules.agents.encoding import (
    ACTIONS,
    PASS,
    SIZE,
    act,
    checked_action,
    heads_taken,
    mask,
    observe,
)
from take5rules.agents.pettingzoo_env import LegalDiscrete
from take5rules.agents.player_kinds import PLAYER_KINDS, new_player
from take5rules.agents.seat_players import advance, seat_names
from take5rules.errors import MalformedInputError, Take5Error, Where
from take5rules.events import Event
from take5rules.playing.players import Player, RandomPlayer
from take5rules.playing.stepper import Game, Phase
from take5rules.setup import check_players
from take5rules.text import narrate, rows_text
from take5rules.variants import Rules

__all__ = ["AGENT", "ENV_ID", "Take5GymEnv"]

#: The learning agent's seat name.
AGENT = "agent"

#: An opponent: a built-in player's name, a player object, or a function making one.
Opponent = str | Player | Callable[[], Player]


class Take5GymEnv(gymnasium.Env[Any, np.int64]):
    """One seat of Take 5 for a single-agent learner, against fixed opponents.

    Args:
        opponents: the other seats, in order after the agent's (1 to 9 of them).
        rules: the variant and threshold; the standard game to 66 by default.
        seat: the agent's place at the table, 0 (first) by default.
        observation: ``"dict"`` (with ``action_mask``) or ``"flat"``.
        illegal_action: ``"penalize"`` (the default) or ``"raise"``.
        render_mode: ``"ansi"``, ``"human"`` or ``None``.
        language: the language of the narration.
    """

    metadata = {"render_modes": ["ansi", "human"], "render_fps": 4}  # noqa: RUF012

    def __init__(
        self,
        opponents: Sequence[Opponent] = ("cautious", "lowest", "random"),
        rules: Rules | None = None,
        *,
        seat: int = 0,
        observation: str = "dict",
        illegal_action: str = "penalize",
        render_mode: str | None = None,
        language: str = "en",
    ) -> None:
        if rules is not None and not isinstance(rules, Rules):
            raise MalformedInputError(
                ARGUMENT, N_("rules = {value}: the rules are a take5rules.variants.Rules, or "
                             "None for the standard game"), value=_arguments.shown(rules))
        self.rules = rules if rules is not None else Rules()
        if isinstance(opponents, str) or not isinstance(opponents, Sequence):
            raise MalformedInputError(
                ARGUMENT, N_("{name} = {value}: {name} must be a list of player kinds "
                             "({choices})"), name="opponents", value=_arguments.shown(opponents),
                choices=", ".join(PLAYER_KINDS))
        kinds = [self._kind(spec) for spec in opponents]
        names = seat_names(kinds, taken=(AGENT,))
        self._opponents = dict(zip(names, opponents, strict=True))
        place = _arguments.whole_number("seat", seat)
        if not 0 <= place <= len(names):
            raise MalformedInputError(
                ARGUMENT, N_("seat = {value}: the agent's seat is from 0 to {last}"),
                value=place, last=len(names))
        self.players = check_players([*names[:place], AGENT, *names[place:]], self.rules)
        self.observation_format = _arguments.choice("observation", observation, ("dict", "flat"))
        self.illegal_action = _arguments.choice("illegal_action", illegal_action,
                                                ("raise", "penalize"))
        if render_mode is not None and render_mode not in self.metadata["render_modes"]:
            raise MalformedInputError(
                ARGUMENT, N_("render mode {value}: the render modes are 'ansi' and 'human'"),
                value=_arguments.shown(render_mode))
        self.render_mode = render_mode
        self.language = _arguments.language("language", language)
        high = np.finfo(np.float32).max
        vector = spaces.Box(0, high, (SIZE,), np.float32)
        self.observation_space = (
            spaces.Dict({"observation": vector,
                         "action_mask": spaces.Box(0, 1, (ACTIONS,), np.int8)})
            if self.observation_format == "dict"
            else spaces.Box(0, high, (SIZE + ACTIONS,), np.float32))
        self.action_space = LegalDiscrete(ACTIONS, self.action_masks)
        self.game = Game(self.players, self.rules, 0)
        self.events: list[Event] = []
        self._told = 0
        self._ended = False
        self._started = False  # reset() deals the first game

    @staticmethod
    def _kind(spec: object) -> str:
        """The kind that names an opponent's seat: a built-in player's name, or "opponent"."""
        if isinstance(spec, str):
            return _arguments.choice("opponents", spec, tuple(PLAYER_KINDS))
        if not isinstance(spec, Player) and not callable(spec):
            raise MalformedInputError(
                ARGUMENT, N_("{name} = {value}: {name} must be a list of player kinds "
                             "({choices})"), name="opponents", value=_arguments.shown(spec),
                choices=", ".join(PLAYER_KINDS))
        return "opponent"

    def _seated(self, seed: int) -> dict[str, Player]:
        """The opponents of one episode: random players seeded from the episode's seed."""
        seated: dict[str, Player] = {}
        for index, (name, spec) in enumerate(self._opponents.items(), start=1):
            if spec == "random":
                seated[name] = RandomPlayer(seed + index)
            elif isinstance(spec, str):
                seated[name] = new_player(spec)
            elif isinstance(spec, Player) and not isinstance(spec, type):
                seated[name] = spec
            else:  # a class or a function that makes a player
                made = spec()
                if not isinstance(made, Player):
                    raise MalformedInputError(
                        ARGUMENT, N_("opponent {value}: a function given as an opponent must "
                                     "return a player (choose_card, choose_row, choose_draft)"),
                        value=_arguments.shown(made))
                seated[name] = made
        return seated

    def action_masks(self) -> npt.NDArray[np.int8]:
        """The agent's legal actions now (pass only, once the episode is over)."""
        if self._ended:
            legal = np.zeros(ACTIONS, dtype=np.int8)
            legal[PASS] = 1
            return legal
        return mask(self.game, AGENT)

    def _observation(self) -> Any:
        vector, legal = observe(self.game, AGENT), self.action_masks()
        if self.observation_format == "flat":
            return np.concatenate([vector, legal.astype(np.float32)])
        return {"observation": vector, "action_mask": legal}

    def _info(self, **extra: Any) -> dict[str, Any]:
        return {"phase": self.game.phase.value, "totals": dict(self.game.totals), **extra}

    def reset(self, *, seed: int | None = None,
              options: dict[str, Any] | None = None) -> tuple[Any, dict[str, Any]]:
        """A new game, dealt from *seed* (or from the generator the last seed started)."""
        super().reset(seed=_arguments.seed("seed", seed))
        #: The seed this episode's game was dealt with (as
        #: :func:`~take5rules.playing.engine.play_game`
        #: deals with it).
        self.game_seed = int(self.np_random.integers(2**63))
        self.game = Game(self.players, self.rules, self.game_seed)
        self._bots = self._seated(self.game_seed % 2**32)
        self.events = list(self.game.events)
        self._told = 0
        self._ended = False
        self._started = True
        self.events.extend(advance(self.game, self._bots))
        return self._observation(), self._info()

    def step(self, action: Any) -> tuple[Any, float, bool, bool, dict[str, Any]]:
        """The agent's action; then the opponents play until the agent must decide again."""
        if not self._started:
            raise MalformedInputError(
                ARGUMENT, N_("step() before reset(): call reset() to deal a game first"))
        if self._ended or self.game.phase is Phase.OVER:
            raise MalformedInputError(
                ARGUMENT, N_("the game is over and every agent has left it; call reset() to "
                             "start a new game"))
        checked = checked_action(action, Where(self.game.round, player=AGENT))
        try:
            events = list(act(self.game, AGENT, checked))
        except Take5Error:
            if self.illegal_action == "raise":
                raise
            self._ended = True
            return (self._observation(), -float(self.rules.threshold), True, False,
                    self._info(illegal_action=True))
        events.extend(advance(self.game, self._bots))
        self.events.extend(events)
        reward = -float(heads_taken(events).get(AGENT, 0))
        over = self.game.result is not None
        return self._observation(), reward, over, False, self._info(illegal_action=False)

    def render(self) -> str | None:
        """What happened since the last render, narrated, and the rows now."""
        if self.render_mode is None:
            return None
        events, self._told = self.events[self._told :], len(self.events)
        lines = [narrate(event, self.language) for event in events]
        if self.game.table is not None and self.game.phase is not Phase.OVER:
            lines.append(rows_text(self.game.table.rows, self.language))
        text = "\n".join(lines)
        if self.render_mode == "human":
            print(text)
            return None
        return text


#: The id under which :func:`gymnasium.make` builds the environment (registered on import).
ENV_ID = "take5rules/Take5-v0"
if ENV_ID not in gymnasium.registry:
    gymnasium.register(id=ENV_ID, entry_point="take5rules.agents.gymnasium_env:Take5GymEnv")
