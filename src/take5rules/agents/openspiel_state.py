"""The state of the OpenSpiel game: a :class:`~take5rules.playing.stepper.Game` and its log.

Private. :class:`Config` reads the game's parameters; :class:`Core` holds one OpenSpiel state's
data: the chance outcomes of the round being dealt, then the :class:`Game` that plays the round
(every rule is the Game's), the log of what each seat saw, the rewards of the last step. It is
copied by :meth:`Core.__deepcopy__` (what OpenSpiel's ``clone`` calls) without copying what
never changes, and pickled (OpenSpiel's ``serialize``) with the Game as its JSON document.
"""

from __future__ import annotations

import math
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

import numpy as np

from take5rules import _kernel
from take5rules._messages import N_
from take5rules.agents.arguments import shown
from take5rules.cards import Card
from take5rules.errors import IllegalMoveError, MalformedInputError, Where
from take5rules.playing.stepper import Game, Phase
from take5rules.setup import HAND_SIZE, ROWS, cards_in_play, check_players
from take5rules.table import Table
from take5rules.variants import Rules, Variant

__all__ = ["PHASES", "Config", "Core", "checked_player"]

#: The phases a tensor tells apart, in its one-hot order; the deal (chance) is ``None``.
PHASES = (None, Phase.CARDS, Phase.ROW, Phase.DRAFT)
#: The rule whose decision each kind of node waits for (named when an action is not legal).
_AWAITED = {None: "setup.deal", Phase.CARDS: "turn.reveal", Phase.ROW: "table.low-card",
            Phase.DRAFT: "variants.logic", Phase.OVER: "game.end"}
_UTILITIES = ("heads", "margin")


def _whole(name: str, value: object, least: int) -> int:
    """The parameter *name*: a whole number, at least *least* (a ``bool`` is not one)."""
    if type(value) is not int or value < least:
        raise MalformedInputError(
            "argument",
            N_("parameter {name} of take5: {value!r} is not a whole number of at least {least}"),
            name=name, value=value, least=least,
        )
    return value


@dataclass(frozen=True, slots=True)
class Config:
    """The parameters of one OpenSpiel game of Take 5, checked.

    *cards* are the cards in play, *hand* the cards of a hand (the turns of a round), *rounds*
    the rounds after which the game stops (0: when the rules end it), *margin* whether returns
    are the zero-sum margin rather than the negative bull heads. *research* marks the research
    configuration (a smaller deck or hand): not an official variant.
    """

    seats: tuple[str, ...]
    rules: Rules
    cards: tuple[Card, ...]
    hand: int
    rounds: int
    margin: bool
    research: bool

    @classmethod
    def parse(cls, params: Mapping[str, Any]) -> Config:
        """Read and check the parameters OpenSpiel passes (each has its default)."""
        count = _whole("players", params["players"], 1)
        rules = Rules(Variant.parse(params["variant"]), params["threshold"])
        seats = check_players([f"p{seat}" for seat in range(count)], rules)
        full = cards_in_play(rules, count)
        deck = _whole("deck", params["deck"], 0) or len(full)
        hand = _whole("hand", params["hand"], 0) or HAND_SIZE
        rounds = _whole("rounds", params["rounds"], 0)
        research = (deck, hand) != (len(full), HAND_SIZE)
        if research and (rules.drafted or hand > HAND_SIZE
                         or not count * hand + ROWS <= deck <= len(full)):
            raise MalformedInputError(
                "argument",
                N_("the research configuration of take5 takes the standard or tactics variant, "
                   "a hand size from 1 to {most} and a deck size from {needed} to {size}, not "
                   "{variant}, hand {hand} and deck {deck}"),
                most=HAND_SIZE, needed=count * hand + ROWS, size=len(full),
                variant=rules.variant.value, hand=hand, deck=deck,
            )
        if params["utility"] not in _UTILITIES:
            raise MalformedInputError(
                "argument",
                N_("parameter utility of take5: {value!r}; choose one of {choices}"),
                value=params["utility"], choices=", ".join(map(repr, _UTILITIES)),
            )
        return cls(seats, rules, full[:deck], hand, rounds or (1 if research else 0),
                   params["utility"] == "margin", research)

    @property
    def top(self) -> int:
        """The highest card in play: cards are actions 0 to ``top - 1``, rows the next four."""
        return self.cards[-1]

    @property
    def picks(self) -> int:
        """The draft picks of a round (0 when hands are dealt)."""
        return len(self.cards) - ROWS if self.rules.drafted else 0

    @property
    def most_rounds(self) -> int:
        """A bound on the rounds of a game.

        A round of the full game takes at least one card from the table (its 10 x players
        cards cannot all fit into four rows of five), so the totals grow by one at least, and
        the game ends before every total reaches the threshold.
        """
        if self.rounds:
            return self.rounds
        if self.rules.variant is Variant.TOURNAMENT:
            return len(self.seats)
        return len(self.seats) * (self.rules.threshold - 1) + 1

    @property
    def bound(self) -> int:
        """The most bull heads a seat can have at the end of a game."""
        heads = _kernel.pile_heads(self.cards)
        if self.rounds or self.rules.variant is Variant.TOURNAMENT:
            return self.most_rounds * heads
        return self.rules.threshold - 1 + heads

    @property
    def round_length(self) -> int:
        """The most steps of a round: its deal or draft, the cards, a row for each card."""
        dealt = 0 if self.rules.drafted else len(self.seats) * self.hand + ROWS
        return dealt + self.picks + 2 * len(self.seats) * self.hand


def checked_player(config: Config, player: object) -> int:
    """*player* as a seat of *config*'s game (0 to seats - 1); else an ``argument`` error."""
    if isinstance(player, np.integer):
        player = int(player)
    count = len(config.seats)
    if type(player) is not int or not 0 <= player < count:
        raise MalformedInputError(
            "argument",
            N_("player {value}: the players of this game of take5 are 0 to {last}"),
            value=shown(player), last=count - 1,
        )
    return player


class Core:
    """One OpenSpiel state's data (see the module)."""

    __slots__ = ("checkpoint", "choices", "config", "dealt", "game", "laid", "log", "over",
                 "plays", "rewards", "round", "since", "totals")

    def __init__(self, config: Config) -> None:
        self.config = config
        self.round = 0
        self.totals: tuple[int, ...] = (0,) * len(config.seats)
        self.rewards: tuple[float, ...] = (0.0,) * len(config.seats)
        self.over = False
        #: ``(owner, what the owner saw, what the others saw)``; owner -1: everyone saw it.
        self.log: list[tuple[int, str, str]] = []
        self.game: Game | None = None
        if config.rules.drafted:
            self.game = Game(config.seats, config.rules, seed=0, events=False)
        self._new_round()

    def _new_round(self) -> None:
        self.round += 1
        self.dealt: list[Card] = []
        self.laid: dict[int, Card] = {}
        self.plays: list[tuple[int, int, Card]] = []   # (turn, seat, card), once revealed
        self.choices: list[tuple[int, int, int]] = []  # (turn, seat, row) of low cards
        self.since: list[int] = []                     # the round's actions so far
        self.checkpoint: Any = None                    # a state at the round's start
        self.log.append((-1, f"r{self.round}", ""))

    # --- Copies -------------------------------------------------------------------------------

    def __deepcopy__(self, memo: dict[int, object]) -> Core:
        twin = object.__new__(Core)
        for name in Core.__slots__:
            setattr(twin, name, getattr(self, name))
        twin.game = None if self.game is None else self.game.copy()
        for name in ("dealt", "plays", "choices", "since", "log"):
            setattr(twin, name, list(getattr(self, name)))
        twin.laid = dict(self.laid)
        return twin

    def __getstate__(self) -> dict[str, Any]:
        state = {name: getattr(self, name) for name in Core.__slots__}
        state["checkpoint"] = None
        state["game"] = None if self.game is None else self.game.to_json()
        return state

    def __setstate__(self, state: dict[str, Any]) -> None:
        for name, value in state.items():
            setattr(self, name, value)
        if state["game"] is not None:
            self.game = Game.from_json(state["game"], events=False)

    def key(self) -> tuple[object, ...]:
        """Everything that makes the state (for equality; not the checkpoint)."""
        return (self.config, self.round, self.totals, self.rewards, self.over, self.log,
                self.game, self.dealt, self.laid, self.plays, self.choices, self.since)

    # --- What is pending ----------------------------------------------------------------------

    @property
    def phase(self) -> Phase | None:
        """The game's phase; ``None`` while a round is dealt (chance), OVER at the end."""
        if self.over:
            return Phase.OVER
        return None if self.game is None else self.game.phase

    def current(self) -> int:
        """The seat to act (``-1`` while dealing; the caller checks the end first)."""
        if self.game is None:
            return -1
        return self.config.seats.index(self.game.to_move[0])

    def now_totals(self) -> tuple[int, ...]:
        """Each seat's bull heads so far."""
        if self.game is None:
            return self.totals
        totals = self.game.totals
        return tuple(totals[seat] for seat in self.config.seats)

    def payoff(self, heads: tuple[int, ...]) -> tuple[float, ...]:
        """Returns (or rewards) for *heads*: their negatives, or the zero-sum margin."""
        if not self.config.margin:
            return tuple(-float(value) for value in heads)
        others = len(heads) - 1
        total = sum(heads)
        return tuple((total - value) / others - value for value in heads)

    def chance_outcomes(self) -> list[tuple[int, float]]:
        """The next card dealt and its probability (actions are cards minus one).

        The deal is a sequence of sets: each hand, seat by seat, then the four row cards, each
        set dealt as its cards in ascending order. With the probabilities below, every deal
        (hands and rows as sets) has the chance it has when a shuffled deck is dealt (rule
        ``setup.deal``), and comes from one sequence of outcomes only. The rows are laid out
        lowest first: no rule depends on the order of the rows, only on their cards.
        """
        config, dealt = self.config, self.dealt
        hands = len(config.seats) * config.hand
        if len(dealt) < hands:
            held, size = len(dealt) % config.hand, config.hand
        else:
            held, size = len(dealt) - hands, ROWS
        still = size - held
        low = dealt[-1] if held else 0
        gone = set(dealt)
        above = [value for value in self.config.cards if value > low and value not in gone]
        ways = math.comb(len(above), still)
        # The lowest of `still` cards drawn from `above` is the i-th with C(g - i - 1, still - 1)
        # of the C(g, still) sets: the rest are drawn from the cards above it.
        return [(value - 1, math.comb(len(above) - index - 1, still - 1) / ways)
                for index, value in enumerate(above[: len(above) - still + 1])]

    def legal(self) -> list[int]:
        """The legal actions of the seat to act, sorted."""
        game = self.game
        if self.over:
            return []
        if game is None:
            return [action for action, _ in self.chance_outcomes()]
        seat = game.to_move[0]
        if game.phase is Phase.ROW:
            return [self.config.top + row for row in game.legal(seat)]
        return [value - 1 for value in game.legal(seat)]

    # --- Steps --------------------------------------------------------------------------------

    def apply(self, action: int) -> None:
        """Apply *action* (checked against the legal ones) for whoever is to act."""
        if action not in self.legal():
            raise IllegalMoveError(
                _AWAITED[self.phase],
                N_("action {action} is not legal here; the legal actions are {legal}"),
                where=Where(self.round), action=action,
                legal=", ".join(map(str, self.legal())) or "-",
            )
        before = self.now_totals()
        self.since.append(action)
        if self.game is None:
            self._deal(action + 1)  # the rewards stay those of the last decision (OpenSpiel's way)
            return
        game, config = self.game, self.config
        seat = self.current()
        name, phase, turn = config.seats[seat], game.phase, game.turn
        if phase is Phase.ROW:
            game.take_row(name, action - config.top)
            self.choices.append((turn, seat, action - config.top))
            self.log.append((-1, f"t{seat}:{action - config.top}", ""))
        elif phase is Phase.DRAFT:
            game.draft(name, action + 1)
            self.log.append((-1, f"p{seat}:{action + 1}", ""))
        else:
            game.play(name, action + 1)
            self.laid[seat] = action + 1
            self.log.append((seat, f"l{action + 1}", f"l?{seat}"))
            if len(self.laid) == len(config.seats):
                self.plays += [(turn, player, self.laid[player]) for player in sorted(self.laid)]
                self.log.append((-1, "v" + "/".join(str(self.laid[player])
                                                    for player in sorted(self.laid)), ""))
                self.laid = {}
        after = self.now_totals()
        self.rewards = self.payoff(tuple(a - b for a, b in zip(after, before, strict=True)))
        if game.phase is Phase.OVER or game.round != self.round:
            self._end_round(after)

    def _deal(self, value: Card) -> None:
        config, dealt = self.config, self.dealt
        dealt.append(value)
        hands = len(config.seats) * config.hand
        if len(dealt) <= hands:
            seat = (len(dealt) - 1) // config.hand
            self.log.append((seat, f"d{value}", f"d?{seat}"))
            return
        self.log.append((-1, f"s{value}", ""))
        if len(dealt) < hands + ROWS:
            return
        self.game = Game.from_deal(
            config.seats, Table.start(dealt[hands:]),
            {seat: dealt[index * config.hand:(index + 1) * config.hand]
             for index, seat in enumerate(config.seats)},
            round=self.round, totals=dict(zip(config.seats, self.totals, strict=True)),
            rules=config.rules, events=False,
        )

    def _end_round(self, totals: tuple[int, ...]) -> None:
        """The round is scored: the game ends, or the next round is drafted or dealt."""
        assert self.game is not None
        self.totals = totals
        self.log.append((-1, "=" + "/".join(map(str, totals)), ""))
        if self.game.phase is Phase.OVER or self.round == self.config.rounds:
            self.over, self.game = True, self.game if self.game.phase is Phase.OVER else None
            return
        if not self.config.rules.drafted:
            self.game = None  # the Game dealt the next round from its seed: the chance node does
        self._new_round()
