"""The game stepper: a whole game of any variant, one decision at a time.

:class:`Game` holds the whole state of a game (or a tournament): the seats, the rules, the
random generator that deals, the hands, the rows, the cards each player has taken, the totals.
It says which decisions are pending (:attr:`Game.phase`, :attr:`Game.to_move`,
:meth:`Game.legal`), takes each answer, checked once (:meth:`Game.play`, :meth:`Game.take_row`,
:meth:`Game.draft`, or :meth:`Game.act` for whichever is pending) and reports the events of
each step. It gives each seat its observation (:meth:`Game.observe`), can be copied
(:meth:`Game.copy`) and saved to JSON and read back (:meth:`Game.to_json`,
:meth:`Game.from_json`). It is the one game loop of the library: :func:`take5rules.playing.engine.
play_game` and :func:`~take5rules.playing.engine.play_silently` drive it with player objects.

>>> game = Game(["ana", "bob"], seed=1)
>>> game.table.rows, game.phase, game.to_move, game.legal("bob")[:3]
(((35,), (30,), (76,), (14,)), <Phase.CARDS: 'cards'>, ('ana', 'bob'), (1, 4, 13))
>>> game.play("ana", 9)
()
>>> [event.kind for event in game.play("bob", 1)], game.phase, game.to_move
(['cards-revealed'], <Phase.ROW: 'row'>, ('bob',))
>>> [event.kind for event in game.take_row("bob", 0)], game.turn
(['low-card-taken', 'card-placed'], 2)
"""

from __future__ import annotations

import enum
import random
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from types import MappingProxyType
from typing import Any

from take5rules import _kernel
from take5rules._kernel import put as _put
from take5rules._kernel import target as _target
from take5rules._messages import N_
from take5rules.cards import Card
from take5rules.errors import IllegalMoveError, MalformedInputError, RulesError, Where
from take5rules.events import (
    CardDrafted,
    Event,
    GameOver,
    GameStarted,
    _card_placed,
    _cards_revealed,
    _low_card_taken,
    _round_scored,
    _round_started,
    _sixth_card_taken,
)
from take5rules.playing.answers import _check_deal, _integral, _lay, _row_index
from take5rules.playing.players import Revealed
from take5rules.setup import ROWS, cards_in_play, check_players
from take5rules.table import Row, Table, trusted_table
from take5rules.variants import (
    Rules,
    Variant,
    draft,
    next_drafter,
    tournament_hands,
    tournament_over,
)

__all__ = ["Game", "Observation", "Phase"]

#: The rules of a game given none: the standard game to 66.
_STANDARD = Rules()


class Phase(enum.Enum):
    """What a game waits for: cards, a low card's row, a draft pick; or nothing, it is over."""

    CARDS = "cards"
    ROW = "row"
    DRAFT = "draft"
    OVER = "over"


@dataclass(frozen=True, slots=True)
class Observation:
    """What one seat may know now, and nothing else (:meth:`Game.observe`).

    *table* is ``None`` while the first draft is under way (no row is laid yet); *hand* is the
    seat's cards (while drafting, the cards it has drafted); *laid* the card it has laid face
    down this turn, if any; *pending* the low card waiting for its row, ``(player, card)``;
    *pool* the face-up cards left to draft. The history fields are those of
    :class:`~take5rules.playing.players.CardView`.
    """

    player: str
    phase: Phase
    round: int
    turn: int
    table: Table | None
    hand: tuple[Card, ...]
    totals: Mapping[str, int]
    revealed: Revealed
    taken: Mapping[str, tuple[Card, ...]]
    start: tuple[Row, ...]
    picks: tuple[tuple[str, Card], ...]
    pool: tuple[Card, ...]
    laid: Card | None
    pending: tuple[str, Card] | None
    to_move: tuple[str, ...]


#: The phases as plain names: an enum member read from its class costs a lookup through the
#: enum's metaclass, several times slower than a global, on the game's hot path.
_CARDS, _ROW, _DRAFT, _OVER = Phase.CARDS, Phase.ROW, Phase.DRAFT, Phase.OVER

#: The rule whose decision each phase waits for (named when an answer comes out of turn).
_AWAITED = {Phase.CARDS: "turn.reveal", Phase.ROW: "table.low-card",
            Phase.DRAFT: "variants.logic", Phase.OVER: "game.end"}


class Game:
    """A game of Take 5 in progress, of any variant and threshold, one decision at a time.

    Args:
        players: the seats, in order (rule ``setup.players``).
        rules: the variant and threshold (default: the standard game to 66).
        seed: fixes the deals; the same seed deals the same cards as
            :func:`~take5rules.playing.engine.play_game` with that seed.
        events: ``False`` to build no event at all (each step then reports ``()``), for
            simulations that need only the result.

    Each step returns the events it caused (an empty tuple when a card is laid face down and
    others are still to come); :attr:`events` holds those of the last step, the opening
    :class:`~take5rules.events.GameStarted` (and the first round's start) after construction.

    Contract, decided for speed (issue 16): the state is kept in plain lists and tuples, and
    nothing is built that nobody asked for. The engine hands each seat one live view for the
    whole game (a :class:`~take5rules.playing.players.CardView` and a
    :class:`~take5rules.turn.RowChoice`, private subclasses in ``take5rules.playing.views``): only
    the
    seat's hand (and a low card) is stored for a decision, every other field is read from the
    game when the player reads it, and the table is built once per state of the rows and shared.
    A view therefore describes the moment of the call it is passed to: keep what you need
    (``tuple(view.hand)``), or ``copy.copy(view)``, a plain frozen snapshot. A view cannot be
    changed, its history is tuples and read-only mappings, and a table a player rewrites is not
    handed out again, so a player that changes what it was handed changes neither the game nor
    what another seat is shown. :meth:`observe` builds an :class:`Observation`, a snapshot.
    Events are built as the step happens (unless *events* is false), with the events' fast
    constructors, and only the last step's are kept. The engine drives a game through the same
    private transitions as the public steps (a turn is placed by one loop, whoever answers the
    low card).
    """

    __slots__ = (
        "_answer", "_choices", "_cursor", "_deck", "_draft_rows", "_drafted", "_emit", "_hands",
        "_laid", "_last", "_ordered", "_out", "_phase", "_picks", "_piles", "_pool", "_result",
        "_revealed", "_rng", "_rows", "_sheets", "_shown", "_shown_rows", "_start", "_taken_view",
        "_totals", "_totals_view", "_tournament", "players", "round", "rules", "turn",
    )

    players: tuple[str, ...]
    rules: Rules
    round: int
    turn: int

    def __init__(
        self,
        players: Sequence[str],
        rules: Rules | None = None,
        seed: int | None = 0,
        *,
        events: bool = True,
    ) -> None:
        self._setup(players, rules, events)
        self._rng = random.Random(seed)
        if self._out is not None:
            self._out.append(GameStarted(self.rules, self.players))
        self._open_round()
        self._flush()

    def _setup(self, players: Sequence[str], rules: Rules | None, events: bool) -> None:
        """The empty state before the first round (shared with :meth:`from_deal`)."""
        rules = rules if rules is not None else _STANDARD
        self.rules = rules
        self._drafted = rules.drafted  # asked once a round: read once (an enum lookup is slow)
        self._tournament = rules.variant is Variant.TOURNAMENT
        self.players = check_players(players, rules)
        self._deck = cards_in_play(rules, len(self.players))
        self._emit = events
        self._out: list[Event] | None = [] if events else None
        self._last: tuple[Event, ...] = ()
        self._totals: dict[str, int] = dict.fromkeys(self.players, 0)
        self.round = 0
        self.turn = 0
        self._phase = _CARDS
        self._hands: dict[str, list[Card]] = {}
        self._rows: list[Row] = []
        self._shown: Table | None = None  # the rows as a Table for the views, built once
        self._shown_rows: tuple[Row, ...] = ()
        self._piles: dict[str, tuple[Card, ...]] = {}
        self._laid: dict[str, Card] = {}
        self._ordered: tuple[tuple[str, Card], ...] = ()
        self._cursor = 0
        self._choices: tuple[int, ...] = ()
        self._answer: int | None = None
        self._start: tuple[Row, ...] = ()
        self._revealed: Revealed = ()
        self._pool: list[Card] = []
        self._picks: tuple[tuple[str, Card], ...] = ()
        self._sheets: Mapping[str, tuple[Card, ...]] | None = None
        self._draft_rows: tuple[Card, ...] = ()
        self._result: GameOver | None = None
        self._totals_view: Mapping[str, int] | None = None
        self._taken_view: Mapping[str, tuple[Card, ...]] | None = None

    @classmethod
    def from_deal(
        cls,
        players: Sequence[str],
        table: Table,
        hands: Mapping[str, Sequence[Card]],
        *,
        round: int = 1,
        totals: Mapping[str, int] | None = None,
        rules: Rules | None = None,
        seed: int | None = 0,
        events: bool = True,
    ) -> Game:
        """A game taken up at the start of round *round* from a given deal, checked.

        *table* is a :class:`~take5rules.table.Table`; each hand distinct cards that are neither
        on the table nor in another hand, every hand the same size (ten cards, or fewer for a
        round taken up part-way); *totals* the totals before the round (default 0). Later
        rounds are dealt from *seed*. A tournament cannot be taken up this way (its hands come
        from its draft).
        """
        game = object.__new__(cls)
        game._setup(players, rules, events)
        if game.rules.variant is Variant.TOURNAMENT:
            raise RulesError(
                "variants.tournament",
                N_("a tournament cannot be taken up from a deal: its hands come from its draft"),
            )
        given = {player: tuple(hand) for player, hand in hands.items()}
        before = dict(totals) if totals is not None else dict.fromkeys(game.players, 0)
        _check_deal(game.players, round, table, given, before)
        game._rng = random.Random(seed)
        game._totals = {player: before[player] for player in game.players}
        game.round = round
        game._begin(table.rows, given)
        game._flush()
        return game

    # --- What is pending ---------------------------------------------------------------------

    @property
    def phase(self) -> Phase:
        """What the game waits for now."""
        return self._phase

    @property
    def to_move(self) -> tuple[str, ...]:
        """The seats that must decide now, in seat order (several only while cards are laid)."""
        phase = self._phase
        if phase is _CARDS:
            return tuple(player for player in self.players if player not in self._laid)
        if phase is _ROW:
            return (self._ordered[self._cursor][0],)
        if phase is _DRAFT:
            return (next_drafter(self.players, len(self._picks)),)
        return ()

    def legal(self, seat: str) -> tuple[int, ...]:
        """The answers *seat* may give now, sorted: cards, row indices or face-up cards."""
        self._seat(seat)
        if seat not in self.to_move:
            return ()
        if self._phase is _CARDS:
            return tuple(self._hands[seat])
        if self._phase is _ROW:
            return tuple(range(ROWS))
        return tuple(self._pool)

    @property
    def events(self) -> tuple[Event, ...]:
        """The events of the last step (after construction: the game's and round's start)."""
        return self._last

    @property
    def result(self) -> GameOver | None:
        """The game's end (its last event), or ``None`` while it goes on."""
        return self._result

    @property
    def totals(self) -> Mapping[str, int]:
        """Each player's bull heads over the rounds scored so far (read-only)."""
        return self._totals_snapshot()

    @property
    def table(self) -> Table | None:
        """The rows now (``None`` while the first draft is under way)."""
        return trusted_table(tuple(self._rows)) if self._rows else None

    def observe(self, seat: str) -> Observation:
        """What *seat* may know now: the public history, its own hand, nothing hidden."""
        self._seat(seat)
        phase = self._phase
        drafting = phase is _DRAFT
        pending = self._ordered[self._cursor] if phase is _ROW else None
        return Observation(
            seat, phase, self.round, self.turn,
            trusted_table(tuple(self._rows)) if self._rows else None,
            tuple(card for player, card in self._picks if player == seat) if drafting
            else tuple(self._hands.get(seat, ())),
            self._totals_snapshot(), self._revealed, self._taken_snapshot(), self._start,
            self._picks, tuple(self._pool) if drafting else (),
            self._laid.get(seat) if phase is _CARDS else None, pending, self.to_move,
        )

    # --- Answers ------------------------------------------------------------------------------

    def play(self, seat: str, card: object) -> tuple[Event, ...]:
        """*seat* lays *card* face down; after the last seat's card, the turn is placed."""
        self._expect(seat, _CARDS)
        self._laid[seat] = _lay(self._hands[seat], card, self.round, self.turn, seat)
        if len(self._laid) == len(self.players):
            self._place(self._stored, True)
        return self._flush()

    def take_row(self, seat: str, index: object) -> tuple[Event, ...]:
        """The player of the pending low card takes row *index* (0 to 3); the turn goes on."""
        self._expect(seat, _ROW)
        self._answer = _row_index(index, Where(self.round, self.turn, seat,
                                               self._ordered[self._cursor][1]))
        self._place(self._stored)
        return self._flush()

    def draft(self, seat: str, card: object) -> tuple[Event, ...]:
        """*seat* takes the face-up *card* (logic and tournament drafts)."""
        self._draft(seat, card)
        return self._flush()

    def _draft(self, seat: str, card: object) -> None:
        self._expect(seat, _DRAFT)
        checked = card if type(card) is int else _integral(card)
        if checked is None or checked not in self._pool:
            raise IllegalMoveError(
                "variants.logic",
                N_("card {value} is not among the face-up cards left to draft"),
                where=Where(self.round, player=seat, card=checked),
                value=card,
            )
        self._pick(seat, checked)

    def act(self, seat: str, answer: object) -> tuple[Event, ...]:
        """Give *seat*'s answer to whichever decision is pending: a card, a row or a pick."""
        phase = self._phase
        if phase is _ROW:
            return self.take_row(seat, answer)
        if phase is _DRAFT:
            return self.draft(seat, answer)
        return self.play(seat, answer)

    # --- Copies, equality --------------------------------------------------------------------

    def copy(self) -> Game:
        """An independent copy: stepping one never changes the other."""
        twin = object.__new__(Game)
        for name in Game.__slots__:
            setattr(twin, name, getattr(self, name))
        twin._rng = random.Random()
        twin._rng.setstate(self._rng.getstate())
        twin._hands = {player: list(hand) for player, hand in self._hands.items()}
        twin._rows = list(self._rows)
        twin._laid = dict(self._laid)
        twin._piles = dict(self._piles)
        twin._totals = dict(self._totals)
        twin._pool = list(self._pool)
        twin._out = [] if self._emit else None
        return twin

    def _key(self) -> tuple[object, ...]:
        """Everything that makes the state (not the last step's events)."""
        return (
            self.players, self.rules, self.round, self.turn, self._phase, self._totals,
            self._hands, self._rows, self._piles, self._laid, self._ordered, self._cursor,
            self._start, self._revealed, self._choices, self._pool, self._picks,
            None if self._sheets is None else dict(self._sheets), self._draft_rows,
            self._result, self._rng.getstate(),
        )

    def __eq__(self, other: object) -> bool:
        if not isinstance(other, Game):
            return NotImplemented
        return self._key() == other._key()

    __hash__ = None  # type: ignore[assignment]

    def __repr__(self) -> str:
        return (f"Game(players={self.players!r}, rules={self.rules!r}, round={self.round}, "
                f"turn={self.turn}, phase={self._phase.value!r})")

    def to_json(self) -> dict[str, Any]:
        """The whole state as a JSON-ready dict, the random generator's state included."""
        from take5rules.playing.saved import dump

        return dump(self)

    @classmethod
    def from_json(cls, data: object, *, events: bool = True) -> Game:
        """A game read back from :meth:`to_json`'s document, every part of it checked.

        The rows and the cards taken are not read but replayed from the round's start, its
        revealed cards and its low cards' rows, so a document can only hold a state the rules
        reach; a part that breaks a rule is refused with that rule's id.
        """
        from take5rules.playing.saved import load

        return load(data, events)

    # --- Private: checks ---------------------------------------------------------------------

    def _seat(self, seat: object) -> None:
        if seat not in self._totals:
            raise MalformedInputError(
                "setup.players",
                N_("{player!r} is not a player of this game"),
                where=Where(self.round or None, player=seat if isinstance(seat, str) else None),
                player=seat,
            )

    def _expect(self, seat: str, phase: Phase) -> None:
        """Check that *seat* has a decision of kind *phase* to make now."""
        if self._phase is phase and seat in self.to_move:
            return
        self._seat(seat)
        where = Where(self.round, self.turn or None, seat)
        if self._phase is _OVER:
            raise IllegalMoveError("game.end", N_("the game is over: no decision is pending"),
                                   where=where)
        raise IllegalMoveError(
            _AWAITED[self._phase],
            N_("{player!r} has no decision of this kind to make now; the game waits for "
               "{waiting}"),
            where=where,
            player=seat,
            waiting=", ".join(repr(player) for player in self.to_move),
        )

    def _stored(self, player: str, value: Card) -> int | None:
        """The row answered through :meth:`take_row`, once; ``None`` when none is waiting."""
        answer, self._answer = self._answer, None
        return answer

    def _flush(self) -> tuple[Event, ...]:
        out = self._out
        if out is None:
            return ()
        self._last = tuple(out)
        out.clear()
        return self._last

    # --- Private: snapshots for views -----------------------------------------------------------

    def _totals_snapshot(self) -> Mapping[str, int]:
        view = self._totals_view
        if view is None:
            view = self._totals_view = MappingProxyType(dict(self._totals))
        return view

    def _taken_snapshot(self) -> Mapping[str, tuple[Card, ...]]:
        view = self._taken_view
        if view is None:
            view = self._taken_view = MappingProxyType(self._piles)
        return view

    # --- Private: the transitions (the one game loop) ------------------------------------------

    def _open_round(self) -> None:
        """Start the next round: a tournament's next game, a draft, or a deal."""
        self.round += 1
        if self._sheets is not None:  # a tournament after its draft
            hands = tournament_hands(self._sheets, self.players, self.round)
            self._begin(tuple((value,) for value in self._draft_rows), hands)
            return
        pool = self._deck
        if self._drafted:
            self._phase, self.turn = _DRAFT, 0
            self._pool, self._picks, self._rows, self._start = sorted(pool), (), [], ()
            self._revealed, self._piles, self._hands, self._choices = (), {}, {}, ()
            self._taken_view = None
            return
        # The kernel deals the pool as rng.sample(pool, len(pool)) would shuffle it (only the
        # cards dealt are kept; the generator is left where the whole shuffle leaves it).
        dealt = _kernel.HAND_SIZE * len(self.players) + ROWS
        hands, starters, _aside = _kernel.deal(
            _kernel.shuffled(pool, self._rng.getrandbits, dealt), self.players)
        self._begin(tuple(zip(starters)), hands)  # each card alone starts its row

    def _begin(self, rows: tuple[Row, ...], hands: Mapping[str, tuple[Card, ...]]) -> None:
        """Lay out *rows* and give the hands: the round's first turn waits for cards."""
        held = {player: sorted(hands[player]) for player in self.players}
        self._hands, self._rows, self._start, self._shown = held, list(rows), rows, None
        self._piles = dict.fromkeys(self.players, ())
        self._revealed, self._laid, self._taken_view, self._choices = (), {}, None, ()
        self._pool = []
        self._phase, self.turn = _CARDS, 1
        if self._out is not None:
            self._out.append(_round_started(
                self.round, rows,
                MappingProxyType({player: tuple(hand) for player, hand in held.items()}),
            ))

    def _pick(self, seat: str, value: Card) -> None:
        """Draft *value* for *seat*; after the last pick, the round begins."""
        self._pool.remove(value)
        self._picks += ((seat, value),)
        if self._out is not None:
            self._out.append(CardDrafted(self.round, len(self._picks), seat, value))
        if len(self._pool) > ROWS:
            return
        drafted = draft(self._deck, self.players, self._picks)
        rows = tuple((value,) for value in drafted.rows)
        if self.rules.variant is Variant.TOURNAMENT:
            self._sheets, self._draft_rows = drafted.hands, drafted.rows
            self._begin(rows, tournament_hands(drafted.hands, self.players, self.round))
        else:
            self._begin(rows, drafted.hands)

    def _place(self, choose: Callable[[str, Card], int | None], reveal: bool = False) -> None:
        """Place the revealed cards from the cursor on; stop at a low card *choose* cannot answer.

        With *reveal*, every card is laid: they are first revealed together, and placed lowest
        first from the first on. *choose* answers a low card's row (checked), or ``None`` to
        wait for :meth:`take_row`.
        """
        if reveal:
            self._ordered = ordered = tuple(_kernel.order(self._laid.items()))
            self._laid, self._cursor = {}, 0
            cursor = 0
            self._revealed += (ordered,)
            if self._out is not None:
                self._out.append(_cards_revealed(self.round, self.turn, ordered))
        else:
            ordered, cursor = self._ordered, self._cursor
        rows, out, number, turn = self._rows, self._out, self.round, self.turn
        for player, value in ordered[cursor:] if cursor else ordered:
            index = _target(rows, value)
            if index >= 0:
                taken = _put(rows, value, index)
                if taken:
                    self._took(player, taken)
                if out is not None:
                    out.append(_sixth_card_taken(number, turn, player, value, index, taken,
                                                 tuple(rows)) if taken
                               else _card_placed(number, turn, player, value, index, tuple(rows)))
                continue
            self._shown = None  # the rows have changed since the view's table was built
            chosen = choose(player, value)
            if chosen is None:
                self._cursor, self._phase = ordered.index((player, value)), _ROW
                return
            taken = _kernel.take(rows, value, chosen)
            self._choices += (chosen,)
            self._took(player, taken)
            if out is not None:
                out.append(_low_card_taken(number, turn, player, value, chosen, taken,
                                           tuple(rows)))
        self._ordered, self._cursor, self._phase, self._shown = (), 0, _CARDS, None
        if self._hands[self.players[0]]:
            self.turn += 1
        else:
            self._end_round()

    def _took(self, player: str, taken: Row) -> None:
        """*player* takes the cards *taken*.

        While a read-only view of the piles is out (:meth:`observe`), the dict of piles is
        replaced, never changed, so that view keeps what it showed; otherwise it is changed.
        """
        piles = self._piles
        if self._taken_view is None:
            piles[player] += taken
        else:
            self._piles = {**piles, player: piles[player] + taken}
            self._taken_view = None

    def _end_round(self) -> None:
        """Score the round; end the game, or open the next round."""
        penalties = {player: _kernel.pile_heads(pile) for player, pile in self._piles.items()}
        self._totals = totals = _kernel.add(self._totals, penalties)
        self._totals_view = None
        if self._out is not None:
            self._out.append(_round_scored(self.round, MappingProxyType(penalties),
                                           MappingProxyType(dict(totals))))
        if self._over():
            self._phase = _OVER
            self._result = GameOver(self.round, MappingProxyType(dict(totals)),
                                    _kernel.lowest(totals))
            if self._out is not None:
                self._out.append(self._result)
        else:
            self._open_round()

    def _over(self) -> bool:
        """Whether the game ends after the round just scored: the one place the end is decided.

        A tournament after as many games as players (``variants.tournament-over``), any other
        game when some total reaches the threshold (``game.end``).
        """
        if self._tournament:
            return tournament_over(self.round, len(self.players))
        return _kernel.ended(self._totals, self.rules.threshold)
