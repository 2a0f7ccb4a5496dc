"""A whole game as an explicit state machine: whose decision is next, one decision at a time.

The engine (:func:`take5rules.engine.play_game`) asks its players through callbacks; an
environment for learning agents, or a server playing a seat for a remote client, must instead
stop whenever a decision is needed and resume when it comes. :class:`Machine` does that over the
public rule functions, and deals and drafts exactly as the engine does with the same seed, so
the same decisions give the engine's events.

A low card's row is chosen when its card is placed: the turn is replayed with
:func:`take5rules.round.play_turn` from the same state once the row is known (each replay gives
the same placements up to the next low card), so no placement rule is restated here.

>>> from take5rules.variants import Rules
>>> machine = Machine(("ana", "bob"), Rules(), seed=1)
>>> machine.phase, machine.deciders()
('card', ('ana', 'bob'))
"""

from __future__ import annotations

import random
from collections.abc import Mapping

from ._text import N_
from .cards import Card
from .errors import IllegalMoveError, Where
from .events import CardDrafted, Event, GameOver, GameStarted, RoundScored, RoundStarted, RowTaken
from .game import add_penalties, game_over, winners
from .round import RoundState, play_turn, round_over, round_penalties
from .setup import ROWS, cards_in_play, check_players, deal
from .table import Table, low_card
from .turn import RowChoice, reveal
from .variants import Rules, Variant, draft, next_drafter, tournament_hands

__all__ = ["CARD", "DRAFT", "OVER", "PHASES", "ROW", "Machine"]

#: The phases: a card to play, a row to take, a card to draft, the game over.
CARD, ROW, DRAFT, OVER = "card", "row", "draft", "over"
PHASES = (CARD, ROW, DRAFT, OVER)


class _RowPendingError(Exception):
    """Raised from inside :func:`take5rules.round.play_turn` when a low card waits for its row."""

    def __init__(self, choice: RowChoice) -> None:
        super().__init__(choice.player)
        self.choice = choice


class Machine:
    """A game in progress, advanced one decision at a time.

    Args:
        players: the seats, in order (checked by rule ``setup.players``).
        rules: the variant and threshold.
        seed: fixes the deals as the seed of :func:`take5rules.engine.play_game` does.
    """

    def __init__(self, players: tuple[str, ...], rules: Rules, seed: int | None) -> None:
        self.players = check_players(list(players), rules)
        self.rules = rules
        self.rng = random.Random(seed)
        self.events: list[Event] = [GameStarted(rules, self.players)]
        self.totals: dict[str, int] = dict.fromkeys(self.players, 0)
        self.number = 0
        self.phase = CARD
        self.state: RoundState | None = None
        self.plays: dict[str, Card] = {}
        self.rows_chosen: dict[str, int] = {}
        self.pending: RowChoice | None = None
        self.pool: list[Card] = []
        self.full_pool: tuple[Card, ...] = ()
        self.picks: list[tuple[str, Card]] = []
        self.sheets: Mapping[str, tuple[Card, ...]] = {}
        self.start_table: Table | None = None
        self.seen: set[Card] = set()
        self.taken: dict[str, int] = dict.fromkeys(self.players, 0)
        self._next_round()

    # --- What a decider sees -----------------------------------------------------------------

    def deciders(self) -> tuple[str, ...]:
        """The players who must decide now (several only while cards are being chosen)."""
        if self.phase == CARD:
            return tuple(p for p in self.players if p not in self.plays)
        if self.phase == ROW:
            assert self.pending is not None
            return (self.pending.player,)
        if self.phase == DRAFT:
            return (next_drafter(self.players, len(self.picks)),)
        return ()

    def hand(self, player: str) -> tuple[Card, ...]:
        """The cards *player* holds (while drafting: has drafted so far)."""
        if self.phase == DRAFT:
            return tuple(c for p, c in self.picks if p == player)
        return self.state.hands[player] if self.state is not None else ()

    @property
    def table(self) -> Table | None:
        """The rows a decider faces: while a row is chosen, those the low card meets."""
        if self.pending is not None:
            return self.pending.table
        if self.state is not None:
            return self.state.table
        return self.start_table

    def where(self, player: str, card: Card | None = None) -> Where:
        """Where a decision of *player* is made, for error messages."""
        turn = self.state.turn + 1 if self.state is not None and self.phase != DRAFT else None
        return Where(self.number, turn, player, card)

    # --- Decisions ---------------------------------------------------------------------------

    def _check_turn(self, player: str, phase: str) -> None:
        if player in self.deciders() and self.phase == phase:
            return
        raise IllegalMoveError(
            "turn.reveal",
            N_("{player!r} has no decision of this kind to make now; the game waits for "
               "{waiting}"),
            where=self.where(player),
            player=player,
            waiting=", ".join(repr(p) for p in self.deciders()) or "-",
        )

    def play(self, player: str, value: Card) -> dict[str, int]:
        """*player* lays *value* face down; after the last card, the turn is placed.

        Returns the bull heads each player took as a result (empty until the turn is placed).
        """
        self._check_turn(player, CARD)
        assert self.state is not None
        # The rule of the reveal checks the card against the hand.
        reveal({player: self.state.hands[player]}, {player: value}, self.where(player))
        self.plays[player] = value
        if len(self.plays) < len(self.players):
            return {}
        self.seen.update(self.plays.values())  # revealed together
        return self._resolve()

    def choose_row(self, player: str, row: int) -> dict[str, int]:
        """The player of the pending low card takes row *row* (0-based); the turn goes on."""
        self._check_turn(player, ROW)
        pending = self.pending
        assert pending is not None
        # The rule of the low card checks the row index.
        low_card(pending.table, pending.card, row, self.where(player, pending.card))
        self.rows_chosen[player] = row
        return self._resolve()

    def pick(self, player: str, value: Card) -> dict[str, int]:
        """*player* drafts the face-up card *value* (logic and tournament variants)."""
        self._check_turn(player, DRAFT)
        if value not in self.pool:
            raise IllegalMoveError(
                "variants.logic",
                N_("card {value} is not among the face-up cards left to draft"),
                where=Where(self.number, player=player, card=value),
                value=value,
            )
        self.pool.remove(value)
        self.picks.append((player, value))
        self.events.append(CardDrafted(self.number, len(self.picks), player, value))
        if len(self.pool) > ROWS:
            return {}
        drafted = draft(self.full_pool, self.players, self.picks)
        self.sheets = drafted.hands
        self.start_table = Table.start(drafted.rows)
        hands = (
            tournament_hands(self.sheets, self.players, 1)
            if self.rules.variant is Variant.TOURNAMENT
            else drafted.hands
        )
        self._begin(self.start_table, hands)
        return {}

    def _resolve(self) -> dict[str, int]:
        """Place the turn with :func:`~take5rules.round.play_turn`, or wait for a row."""
        assert self.state is not None

        def choose(choice: RowChoice) -> int:
            if choice.player in self.rows_chosen:
                return self.rows_chosen[choice.player]
            raise _RowPendingError(choice)

        try:
            state, events = play_turn(self.state, self.plays, choose)
        except _RowPendingError as waiting:
            self.phase, self.pending = ROW, waiting.choice
            return {}
        self.state, self.phase, self.pending = state, CARD, None
        self.events.extend(events)
        self.plays, self.rows_chosen = {}, {}
        heads: dict[str, int] = {}
        for event in events:
            if isinstance(event, RowTaken):
                heads[event.player] = heads.get(event.player, 0) + event.bull_heads
                self.taken[event.player] += event.bull_heads
        if round_over(state):
            self._score()
        return heads

    # --- Rounds ------------------------------------------------------------------------------

    def _next_round(self) -> None:
        self.number += 1
        self.taken = dict.fromkeys(self.players, 0)
        self.seen = set()
        pool = cards_in_play(self.rules, len(self.players))
        if self.rules.variant is Variant.TOURNAMENT and self.number > 1:
            assert self.start_table is not None
            hands = tournament_hands(self.sheets, self.players, self.number)
            self._begin(self.start_table, hands)
        elif self.rules.drafted:
            self.state, self.phase = None, DRAFT
            self.full_pool, self.pool, self.picks = pool, sorted(pool), []
        else:
            dealt = deal(self.rng.sample(pool, len(pool)), self.players)
            self._begin(Table.start(dealt.rows), dealt.hands)

    def _begin(self, table: Table, hands: Mapping[str, tuple[Card, ...]]) -> None:
        self.state = RoundState.start(self.number, table, hands)
        self.phase = CARD
        self.events.append(RoundStarted(self.number, self.state.table.rows, self.state.hands))

    def _score(self) -> None:
        assert self.state is not None
        penalties = round_penalties(self.state.piles)
        self.totals = add_penalties(self.totals, penalties)
        self.events.append(RoundScored(self.number, penalties, dict(self.totals)))
        if self.rules.variant is Variant.TOURNAMENT:
            ended = self.number == len(self.players)
        else:
            ended = game_over(self.totals, self.rules.threshold)
        if ended:
            self.phase = OVER
            self.events.append(GameOver(self.number, dict(self.totals), winners(self.totals)))
        else:
            self._next_round()
