"""Take 5 as an OpenSpiel game: ``pyspiel.load_game("take5")`` (extra ``openspiel``).

Importing this module registers the game ``take5`` with :mod:`pyspiel`. Every rule is
:class:`take5rules.Game`'s: this module only turns its decisions into OpenSpiel's nodes.

- **Sequential, imperfect information.** The cards of a turn are laid one seat after another
  in seat order, and no seat sees another's card until the last is laid and all are revealed
  together; so the game is the simultaneous game, written as a sequential one that hides the
  other cards of the turn (what IS-MCTS and CFR handle). A low card's row is a decision of its
  player; the draft of the logic variant and of the tournament is a sequence of decisions.
- **The deal is chance.** Each hand is dealt as an ascending set of cards, seat by seat, then
  the four row cards one at a time uniformly from those left; the probabilities make every deal
  as likely as from a shuffled deck (rule ``setup.deal``). The drafted variants have no chance.
- **Actions.** Card *c* (a card laid or drafted, or a chance outcome) is action ``c - 1``; row
  *r* of a low card is action ``top + r``, *top* being the highest card in play.
- **Rewards** come when a round is scored: each seat's negative bull heads of the round;
  **returns** are the negative totals (``utility="margin"``: the others' mean bull heads minus
  the seat's own, a zero-sum utility).
- **Parameters:** ``players`` (2), ``variant`` (``"standard"``), ``threshold`` (66),
  ``rounds`` (0: until the rules end the game), ``utility`` (``"heads"``), and, for the
  *research configuration* (NOT an official variant: standard or tactics only, one round unless
  ``rounds`` says otherwise), ``deck`` (the lowest *deck* cards in play; 0: all) and ``hand``
  (cards a hand; 0: ten).

The information state (``information_state_string``/``tensor``) has perfect recall: the seat's
own cards, its own past actions and every public event; the observation is the table now. See
:mod:`take5rules.agents.openspiel_observer` for their layout, and the docs page "Agents",
"OpenSpiel".

>>> import pyspiel
>>> game = pyspiel.load_game("take5", {"players": 2})
>>> state = game.new_initial_state()
>>> state.is_chance_node(), len(state.chance_outcomes())
(True, 95)
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

try:
    import pyspiel
except ModuleNotFoundError as absent:  # a plain install: say which extra, in one line
    from take5rules.text.extras import missing_extra

    raise missing_extra(__name__, absent, "openspiel") from None

from take5rules._messages import N_
from take5rules.agents.arguments import shown as _shown
from take5rules.agents.openspiel_observer import Observer
from take5rules.agents.openspiel_state import Config, Core, checked_player
from take5rules.errors import MalformedInputError
from take5rules.setup import ROWS
from take5rules.variants import DEFAULT_THRESHOLD, PLAYER_RANGE

__all__ = ["GAME_TYPE", "Take5Game", "Take5State"]

_DEFAULTS: dict[str, Any] = {"players": 2, "variant": "standard", "threshold": DEFAULT_THRESHOLD,
                             "rounds": 0, "utility": "heads", "deck": 0, "hand": 0}

def _game_type(utility: Any) -> Any:
    """The game's type, with *utility* (zero-sum for ``utility="margin"``)."""
    return pyspiel.GameType(
        short_name="take5",
        long_name="Take 5 (6 nimmt!), rules of take5rules",
        dynamics=pyspiel.GameType.Dynamics.SEQUENTIAL,
        chance_mode=pyspiel.GameType.ChanceMode.EXPLICIT_STOCHASTIC,
        information=pyspiel.GameType.Information.IMPERFECT_INFORMATION,
        utility=utility,
        reward_model=pyspiel.GameType.RewardModel.REWARDS,
        max_num_players=max(most for _, most in PLAYER_RANGE.values()),
        min_num_players=min(least for least, _ in PLAYER_RANGE.values()),
        provides_information_state_string=True,
        provides_information_state_tensor=True,
        provides_observation_string=True,
        provides_observation_tensor=True,
        parameter_specification=_DEFAULTS,
    )


#: The registered type: general-sum (the negative bull heads; a game with ``utility="margin"``
#: says it is zero-sum).
GAME_TYPE = _game_type(pyspiel.GameType.Utility.GENERAL_SUM)


class Take5Game(pyspiel.Game):  # type: ignore[misc]
    """The OpenSpiel game ``take5`` for the given parameters (see the module)."""

    def __init__(self, params: dict[str, Any] | None = None) -> None:
        config = Config.parse({**_DEFAULTS, **(params or {})})
        bound = float(config.bound)
        info = pyspiel.GameInfo(
            num_distinct_actions=config.top + ROWS,
            max_chance_outcomes=config.top,
            num_players=len(config.seats),
            min_utility=-bound,
            max_utility=bound if config.margin else 0.0,
            utility_sum=0.0 if config.margin else None,
            max_game_length=config.most_rounds * config.round_length,
        )
        kind = _game_type(pyspiel.GameType.Utility.ZERO_SUM) if config.margin else GAME_TYPE
        super().__init__(kind, info, params or {})
        self.config = config

    def new_initial_state(self) -> Take5State:
        """The game's start: a chance node (the deal), or the first draft pick."""
        return Take5State(self)

    def make_py_observer(self, iig_obs_type: Any = None, params: Any = None) -> Observer:
        """The observer OpenSpiel asks for (information state or observation)."""
        kind = iig_obs_type or pyspiel.IIGObservationType(perfect_recall=False)
        return Observer(self.config, kind, params)


class Take5State(pyspiel.State):  # type: ignore[misc]
    """A state of ``take5``: a :class:`take5rules.Game` under way, or a deal under way."""

    def __init__(self, game: Take5Game) -> None:
        super().__init__(game)
        self._core = Core(game.config)

    @property
    def core(self) -> Core:
        """The state's data (:class:`~take5rules.agents.openspiel_state.Core`), for the observer.

        Read it, do not change it: every change goes through ``apply_action``.
        """
        return self._core

    def current_player(self) -> int:
        """The seat to act, ``CHANCE`` while dealing, ``TERMINAL`` at the end."""
        core = self._core
        if core.over:
            return int(pyspiel.PlayerId.TERMINAL)
        seat = core.current()
        return int(pyspiel.PlayerId.CHANCE) if seat < 0 else seat

    def _legal_actions(self, player: int) -> list[int]:
        return self._core.legal()

    def chance_outcomes(self) -> list[tuple[int, float]]:
        """The next card dealt, with its probability."""
        return self._core.chance_outcomes()

    def _apply_action(self, action: int) -> None:
        self._core.apply(action)

    def _action_to_string(self, player: int, action: int) -> str:
        top = self._core.config.top
        if player == pyspiel.PlayerId.CHANCE:
            return f"deal {action + 1}"
        return f"row {action - top}" if action >= top else f"card {action + 1}"

    def is_terminal(self) -> bool:
        """Whether the game is over."""
        return self._core.over

    def returns(self) -> list[float]:
        """Each seat's return so far: its negative bull heads (or its margin)."""
        core = self._core
        return list(core.payoff(core.now_totals()))

    def rewards(self) -> list[float]:
        """Each seat's reward for the last decision (non-zero when it ended a round)."""
        return list(self._core.rewards)

    def __str__(self) -> str:
        core = self._core
        parts = [f"round {core.round}", "totals " + "/".join(map(str, core.now_totals()))]
        game = core.game
        if game is not None:
            parts.append(f"{game.phase.value} turn {game.turn}")
            if game.table is not None:
                parts.append(" ".join(str(list(row)) for row in game.table.rows))
            for seat, name in enumerate(core.config.seats):
                parts.append(f"hand{seat}:" + ",".join(map(str, game.observe(name).hand)))
            parts += [f"laid{seat}:{value}" for seat, value in sorted(core.laid.items())]
        elif not core.over:
            parts.append("deal " + ",".join(map(str, core.dealt)))
        return "\n".join(parts)

    def resample_from_infostate(
        self, player_id: int, probability_sampler: Callable[[], float]
    ) -> Take5State:
        """A state *player_id* cannot tell from this one, drawn uniformly (for IS-MCTS).

        The other seats' unseen cards are drawn from those *player_id* has not seen (the cards
        in play less its own, the rows' and the revealed ones), and the card each laid face
        down this turn from its drawn hand; in the drafted variants the hands are public and
        only the cards laid this turn are drawn. The round is then played again from its
        start with the same public actions. *probability_sampler* returns floats in [0, 1).
        A seat that is not one of the game's, or a sampler that returns anything else, is an
        ``argument`` error.
        """
        player = checked_player(self._core.config, player_id)
        if not callable(probability_sampler):
            raise MalformedInputError(
                "argument", N_("the probability sampler is {value}: it must be a function "
                               "returning a number from 0 to 1"),
                value=_shown(probability_sampler))
        actions = _resampled(self._core, player, probability_sampler)
        state = self._round_start()
        for action in actions:
            state.apply_action(action)
        return state

    def _round_start(self) -> Take5State:
        """A fresh copy of this game's state when the current round began (kept once built)."""
        core = self._core
        if core.checkpoint is None:
            history = self.history()
            start = self.get_game().new_initial_state()
            for action in history[: len(history) - len(core.since)]:
                start.apply_action(action)
            core.checkpoint = start
        copy: Take5State = core.checkpoint.clone()
        return copy


def _resampled(core: Core, player: int, sampler: Callable[[], float]) -> list[int]:
    """The round's actions, with what *player* has not seen drawn anew (see above)."""
    config = core.config
    actions = list(core.since)

    def draw(cards: list[int]) -> int:
        value = sampler()
        if (isinstance(value, bool) or not isinstance(value, int | float)
                or not 0 <= value <= 1):  # NaN fails the comparison too
            raise MalformedInputError(
                "argument", N_("the probability sampler returned {value}: it must return a "
                               "number from 0 to 1"), value=_shown(value))
        return cards.pop(min(int(value * len(cards)), len(cards) - 1))

    shown: dict[int, list[int]] = {seat: [] for seat in range(len(config.seats))}
    for _, seat, value in core.plays:
        shown[seat].append(value)
    unseen: dict[int, list[int]] = {}
    if core.game is not None and config.rules.drafted:
        for seat in core.laid:
            unseen[seat] = [*core.game.observe(config.seats[seat]).hand, core.laid[seat]]
    else:
        dealt, hand = core.dealt, config.hand
        hands = [dealt[seat * hand:(seat + 1) * hand] for seat in range(len(config.seats))]
        known = {*hands[player], *dealt[len(config.seats) * hand:]}
        known.update(value for values in shown.values() for value in values)
        pool = [value for value in config.cards if value not in known]
        prefix: list[int] = []
        for seat, cards in enumerate(hands):
            if seat != player:
                unseen[seat] = [draw(pool) for _ in range(len(cards) - len(shown[seat]))]
                cards = [*shown[seat], *unseen[seat]]
            prefix += sorted(cards)
        prefix += dealt[len(prefix):]
        actions[: len(dealt)] = [value - 1 for value in prefix]
    first = len(actions) - len(core.laid)
    for index, seat in enumerate(core.laid):
        if seat != player:
            actions[first + index] = draw(unseen[seat]) - 1
    return actions


if "take5" not in pyspiel.registered_names():
    pyspiel.register_game(GAME_TYPE, Take5Game)
