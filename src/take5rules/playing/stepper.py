"""The game stepper: a whole game of any variant, one decision at a time, with its history.

:class:`Game` holds the whole state of a game (or a tournament): the seats, the rules, the
random generator that deals, the hands, the rows, the cards each player has taken, the totals,
and every decision taken since the start (:attr:`Game.moves`). It says which decisions are
pending (:attr:`Game.phase`, :attr:`Game.to_move`, :meth:`Game.legal`,
:meth:`Game.is_legal`), takes each answer, checked once (:meth:`Game.play`,
:meth:`Game.take_row`, :meth:`Game.draft`, or :meth:`Game.act` for whichever is pending) and
reports the events of each step. It gives each seat its observation (:meth:`Game.observe`),
undoes the last decision (:meth:`Game.pop`), can be copied (:meth:`Game.copy`,
:func:`copy.copy`, :func:`copy.deepcopy`), saved to JSON and read back (:meth:`Game.to_json`,
:meth:`Game.from_json`: its rules, its seed and its moves, replayed), and written as a
take5-log and resumed from one (:meth:`Game.to_log`, :meth:`Game.from_log`). It is the one game
loop of the library: :func:`take5rules.playing.engine.play_game` and
:func:`~take5rules.playing.engine.play_silently` drive it with player objects, through its
fast path :meth:`Game.play_turns`. Every card is placed by :func:`take5rules._kernel.placements`.

>>> game = Game(["ana", "bob"], seed=1)
>>> game.table.rows, game.phase, game.to_move, game.legal("bob")[:3]
(((35,), (30,), (76,), (14,)), <Phase.CARDS: 'cards'>, ('ana', 'bob'), (1, 4, 13))
>>> game.play("ana", 9)
()
>>> [event.kind for event in game.play("bob", 1)], game.phase, game.to_move
(['cards-revealed'], <Phase.ROW: 'row'>, ('bob',))
>>> game.is_legal("bob", 3), game.is_legal("bob", 4), game.is_legal("ana", 0)
(True, False, False)
>>> [event.kind for event in game.take_row("bob", 0)], game.turn
(['low-card-taken', 'card-placed'], 2)
>>> game.moves
(Move(seat='ana', answer=9), Move(seat='bob', answer=1), Move(seat='bob', answer=0))
>>> game.pop(), game.phase, game.turn
(Move(seat='bob', answer=0), <Phase.ROW: 'row'>, 1)
>>> Game.from_json(game.to_json()) == game
True
>>> from take5rules.logs.validator import validate
>>> validate(game.to_log()).valid
True
"""

from __future__ import annotations

import enum
import os
import random
from collections.abc import Callable, Iterator, Mapping, Sequence
from dataclasses import dataclass
from types import MappingProxyType
from typing import Any, TypeVar

from take5rules import _kernel
from take5rules._messages import N_
from take5rules.cards import Card, total_bull_heads
from take5rules.errors import IllegalMoveError, MalformedInputError, RulesError, Where
from take5rules.events import (
    CardDrafted,
    Event,
    GameOver,
    GameStarted,
    card_placed,
    cards_revealed,
    low_card_taken,
    round_scored,
    round_started,
    sixth_card_taken,
)
from take5rules.playing.answers import (
    check_deal_given,
    check_rules,
    check_seat,
    check_seed,
    integral,
    lay_card,
    row_index,
)
from take5rules.playing.players import Revealed
from take5rules.playing.saved import dump, read
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

__all__ = ["Game", "Move", "Observation", "Origin", "Phase"]

#: What a seat's context is in :meth:`Game.play_turn` (a view the engine hands its player).
C = TypeVar("C")


class Phase(enum.Enum):
    """What a game waits for: cards, a low card's row, a draft pick; or nothing, it is over."""

    CARDS = "cards"
    ROW = "row"
    DRAFT = "draft"
    OVER = "over"


@dataclass(frozen=True, slots=True)
class Move:
    """One decision taken in a game: *seat* gave *answer*.

    *answer* is a card laid face down, the index (0 to 3) of the row a low card takes, or a
    face-up card drafted, as the phase of the game asked at that moment.
    """

    seat: str
    answer: int


@dataclass(frozen=True, slots=True)
class Origin:
    """Where a game began: what, beside its rules, seed and moves, it is replayed from.

    *round* is its first round and *totals* the totals before it (1 and zeros for a game from
    its start); *deals* the deals given from outside for the rounds from *round* on, each
    ``(table, hands)`` (none for a game dealt from its seed).
    """

    round: int
    totals: Mapping[str, int]
    deals: tuple[tuple[Table, Mapping[str, tuple[Card, ...]]], ...]


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

_target, _put, _take = _kernel.target, _kernel.put, _kernel.take
#: The deals given of a game dealt from its seed: none.
_NO_DEALS: Mapping[int, tuple[tuple[Row, ...], dict[str, tuple[Card, ...]]]] = MappingProxyType(
    {})


#: What :meth:`Game._stored` answers when no row has been given for a low card yet.
_NOT_YET = object()


def _count(number: int, noun: str) -> str:
    """*number* and *noun*, plural but for one (plain English, for :meth:`Game.__str__`)."""
    return f"{number} {noun}{'s' * (number != 1)}"


class Game:
    """A game of Take 5 in progress, of any variant and threshold, one decision at a time.

    Args:
        players: the seats, in order (rule ``setup.players``).
        rules: the variant and threshold (default: the standard game to 66); anything but a
            :class:`~take5rules.variants.Rules` is refused (id ``argument``).
        seed: fixes the deals: a whole number, 0 or more (a numpy integer is the ``int`` it
            holds; a ``bool``, a float, a text or a negative number is refused with the id
            ``argument``). The same seed deals the same cards as
            :func:`~take5rules.playing.engine.play_game` with that seed. ``None`` draws a fresh
            seed, kept (:attr:`seed`), so that the game can still be replayed.
        events: ``False`` to build no event at all (each step then reports ``()``), for
            simulations that need only the result.
        deals: the deals of the first rounds, given from outside rather than from the seed:
            each ``(table, hands)`` as :meth:`from_deal` takes it; the rounds after them are
            dealt from *seed* (a log's deals, :meth:`from_log`).

    Each step returns the events it caused (an empty tuple when a card is laid face down and
    others are still to come); :attr:`events` holds those of the last step, the opening
    :class:`~take5rules.events.GameStarted` (and the first round's start) after construction.
    Every decision is kept, in the order taken (:attr:`moves`): the game is its rules, its
    seed (and the deals given) and its moves, which is what :meth:`pop` replays to undo, what
    :meth:`to_json` saves and what :meth:`to_log` replays to write the log.

    Contract, decided for speed (issue 16): the state is kept in plain lists and tuples, and
    nothing is built that nobody asked for. The engine hands each seat one live view for the
    whole game (a :class:`~take5rules.playing.players.CardView` and a
    :class:`~take5rules.playing.players.RowChoice`, subclasses in
    :mod:`take5rules.playing.views`): only the seat's hand (and a low card) is stored for a
    decision, every other field is read from the game's read-only properties when the player
    reads it, and the table is built once per state of the rows and shared (:attr:`table`). A
    view therefore describes the moment of the call it is passed to: keep what you need
    (``tuple(view.hand)``), or ``copy.copy(view)``, a plain frozen snapshot. A view cannot be
    changed, its history is tuples and read-only mappings, and a table a player rewrites is not
    handed out again, so a player that changes what it was handed changes neither the game nor
    what another seat is shown.
    :meth:`observe` builds an :class:`Observation`, a snapshot. Events are built as the step
    happens (unless *events* is false), with the events' fast constructors, and only the last
    step's are kept (:meth:`to_log` rebuilds them all by replay). The engine drives a game
    through :meth:`play_turns`, the same transitions as the public steps.
    """

    __slots__ = (
        "_answer", "_before", "_cursor", "_deals", "_deck", "_draft_rows",
        "_drafted", "_emit", "_first", "_hands", "_laid", "_last", "_log", "_ordered", "_out",
        "_phase", "_picks", "_piles", "_pool", "_result", "_revealed", "_rng", "_rows",
        "_seed", "_sheets", "_shown", "_shown_rows", "_start", "_taken_view",
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
        deals: Sequence[tuple[Table, Mapping[str, Sequence[Card]]]] = (),
    ) -> None:
        self._setup(players, rules, events, seed)
        self._origin(1, None, deals)
        self._open()

    def _setup(self, players: Sequence[str], rules: object, events: bool, seed: object) -> None:
        """The empty state before the first round (shared by every constructor)."""
        rules = check_rules(rules)
        self.rules = rules
        self._drafted = rules.drafted  # asked once a round: read once (an enum lookup is slow)
        self._tournament = rules.variant is Variant.TOURNAMENT
        self.players = check_players(players, rules)
        self._seed = check_seed(int.from_bytes(os.urandom(8), "big") if seed is None else seed)
        self._rng = random.Random(self._seed)
        self._deck = cards_in_play(rules, len(self.players))
        self._emit = events
        self._out: list[Event] | None = [] if events else None
        self._last: tuple[Event, ...] = ()
        self._totals: dict[str, int] = dict.fromkeys(self.players, 0)
        # Every decision, in order: a row or a pick as a (seat, answer) pair; a turn's cards as
        # its plays lowest first (kept anyway) when laid in seat order, else as the dict of the
        # cards in the order laid.
        self._log: list[Mapping[str, Card] | tuple[str, int] | tuple[tuple[str, Card], ...]] = []
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

    def _origin(
        self,
        first: int,
        before: Mapping[str, int] | None,
        deals: Sequence[tuple[Table, Mapping[str, Sequence[Card]]]],
    ) -> None:
        """Check and keep where the game begins: its first round, totals and deals given."""
        if before is None and type(deals) is tuple and not deals:  # a game from its seed
            self._first, self._before, self._deals = 1, None, _NO_DEALS
            return
        if isinstance(deals, str | bytes) or not isinstance(deals, Sequence):
            raise MalformedInputError(
                "argument", N_("{name} = {value}: {name} must be a list of deals"),
                name="deals", value=type(deals).__name__,
            )
        if deals and self._tournament:
            raise RulesError(
                "variants.tournament",
                N_("a tournament cannot be taken up from a deal: its hands come from its draft"),
            )
        totals = dict(before) if before is not None else dict.fromkeys(self.players, 0)
        given: dict[int, tuple[tuple[Row, ...], dict[str, tuple[Card, ...]]]] = {}
        for number, item in enumerate(deals, start=first):
            if not (isinstance(item, tuple | list) and len(item) == 2
                    and isinstance(item[1], Mapping)):
                raise MalformedInputError(
                    "argument", N_("{name} = {value}: {name} must be a list of deals"),
                    name="deals", value=type(item).__name__,
                )
            table, hands = item
            held = {player: tuple(hand) for player, hand in hands.items()}
            check_deal_given(self.players, number, table, held, totals, self.rules)
            given[number] = (table.rows, {player: held[player] for player in self.players})
        self._first, self._before = first, before
        self._totals = {player: totals[player] for player in self.players}
        self._deals = MappingProxyType(given)
        self.round = first - 1

    def _open(self) -> None:
        """Open the first round (a game from its start first reports its seats)."""
        if self._out is not None and self._before is None:
            self._out.append(GameStarted(self.rules, self.players))
        self._open_round()
        self._flush()

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
        round taken up part-way), every card in play for the variant; *totals* the totals
        before the round (default 0), each below the threshold (``game.end``). Later rounds are
        dealt from *seed*. A tournament cannot be taken up this way (its hands come from its
        draft).
        """
        game = object.__new__(cls)
        game._setup(players, rules, events, seed)
        if type(round) is not int or round < 1:
            raise MalformedInputError(
                "argument", N_("{name} = {value}: {name} must be a whole number, 1 or more"),
                name="round", value=repr(round)[:60],
            )
        game._origin(round, dict(totals) if totals is not None else dict.fromkeys(
            game.players, 0), [(table, hands)])
        game._open()
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

    def is_legal(self, seat: object, answer: object) -> bool:
        """Whether :meth:`act` would take *answer* from *seat* now (never raises).

        >>> game = Game(["ana", "bob"], seed=1)
        >>> game.is_legal("ana", 9), game.is_legal("ana", 10), game.is_legal(["ana"], 9)
        (True, False, False)
        """
        if not isinstance(seat, str) or seat not in self._totals:
            return False
        value = answer if type(answer) is int else integral(answer)
        return value is not None and value in self.legal(seat)

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
        """The rows now (``None`` while the first draft is under way).

        Built once per state of the rows and shared by whoever reads it (the views of every
        seat); a table whose rows a player rewrote (through ``object.__setattr__``) is not
        handed out again.
        """
        if not self._rows:
            return None
        shown = self._shown
        if shown is None or shown.rows is not self._shown_rows:
            rows = self._shown_rows = tuple(self._rows)
            shown = self._shown = trusted_table(rows)
        return shown

    @property
    def taken(self) -> Mapping[str, tuple[Card, ...]]:
        """The cards each player has taken this round (read-only; scored at the round's end)."""
        return self._taken_snapshot()

    @property
    def revealed(self) -> Revealed:
        """The cards revealed this round, turn by turn, each turn lowest first."""
        return self._revealed

    @property
    def start(self) -> tuple[Row, ...]:
        """The rows this round started with (empty while the first draft is under way)."""
        return self._start

    @property
    def picks(self) -> tuple[tuple[str, Card], ...]:
        """The draft's picks so far this round (logic) or game (tournament), in order."""
        return self._picks

    @property
    def pool(self) -> tuple[Card, ...]:
        """The face-up cards left to draft (empty but while a draft is under way)."""
        return tuple(self._pool)

    def hand(self, seat: str) -> tuple[Card, ...]:
        """The cards in *seat*'s hand now, sorted (those laid face down this turn left out)."""
        try:
            return tuple(self._hands[seat])
        except (KeyError, TypeError):  # no hand while drafting, or not a seat
            self._seat(seat)
            return ()

    @property
    def seed(self) -> int:
        """The seed that deals this game's rounds (drawn afresh when ``None`` was given)."""
        return self._seed

    @property
    def origin(self) -> Origin:
        """Where the game began: its first round, the totals before it, the deals given."""
        before = self._before
        return Origin(
            self._first,
            MappingProxyType(dict(before) if before is not None else dict.fromkeys(
                self.players, 0)),
            tuple((trusted_table(self._deals[number][0]),
                   MappingProxyType(self._deals[number][1])) for number in sorted(self._deals)),
        )

    @property
    def moves(self) -> tuple[Move, ...]:
        """Every decision taken since the game began, in the order taken.

        The cards laid face down this turn are included, in the order laid, though the other
        seats do not see them yet.
        """
        return tuple(Move(seat, answer) for seat, answer in self._all_moves())

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
        laid = self._laid
        laid[seat] = lay_card(self._hands[seat], card, self.round, self.turn, seat)
        if len(laid) == len(self.players):
            self._place(self._stored, True, laid)
        return self._flush()

    def take_row(self, seat: str, index: object) -> tuple[Event, ...]:
        """The player of the pending low card takes row *index* (0 to 3); the turn goes on."""
        self._expect(seat, _ROW)
        self._answer = row_index(index, Where(self.round, self.turn, seat,
                                              self._ordered[self._cursor][1]))
        self._place(self._stored)
        return self._flush()

    def draft(self, seat: str, card: object) -> tuple[Event, ...]:
        """*seat* takes the face-up *card* (logic and tournament drafts)."""
        self._expect(seat, _DRAFT)
        checked = card if type(card) is int else integral(card)
        if checked is None or checked not in self._pool:
            raise IllegalMoveError(
                "variants.logic",
                N_("card {value} is not among the face-up cards left to draft"),
                where=Where(self.round, player=seat, card=checked),
                value=card if card is None or isinstance(card, int | float | str) else type(
                    card).__name__,
            )
        self._pick(seat, checked)
        return self._flush()

    def act(self, seat: str, answer: object) -> tuple[Event, ...]:
        """Give *seat*'s answer to whichever decision is pending: a card, a row or a pick."""
        phase = self._phase
        if phase is _ROW:
            return self.take_row(seat, answer)
        if phase is _DRAFT:
            return self.draft(seat, answer)
        return self.play(seat, answer)

    def play_turns(
        self,
        seats: Sequence[tuple[str, Callable[[C], object], C]],
        show: Callable[[C, tuple[Card, ...]], object],
        choose_row: Callable[[str, Card], object],
    ) -> Iterator[tuple[Event, ...]]:
        """The fast path of an engine: play whole turns while the game waits for cards.

        *seats* lists every seat, in seat order, as ``(seat, ask, context)``. For each turn, the
        game calls ``show(context, hand)`` with each seat's hand (a sorted tuple), then
        ``ask(context)`` for its card, checked as :meth:`play` checks it; the cards are then
        revealed and placed, each low card's row asked of ``choose_row(seat, card)`` and
        checked as :meth:`take_row` checks it. The moves are kept as if each had been stepped.

        A generator: it yields each turn's events (those the last :meth:`play` and
        :meth:`take_row` would have returned) before the next turn is asked, and ends when the
        game no longer waits for cards (a draft, or the end). A game that builds no event
        yields nothing and plays on without pausing. Only when no card is laid yet this turn.
        A card refused leaves the game as it was before that turn; a row refused leaves it
        waiting for that low card's row (:attr:`phase` is ``Phase.ROW``), as after
        :meth:`play`; either error is raised.

        >>> game, hands = Game(["ana", "bob"], seed=1), {}
        >>> seats = [("ana", lambda seat: max(hands[seat]), "ana"),
        ...          ("bob", lambda seat: min(hands[seat]), "bob")]
        >>> turns = game.play_turns(seats, hands.__setitem__, lambda seat, card: 3)
        >>> [event.kind for event in next(turns)]
        ['cards-revealed', 'low-card-taken', 'card-placed']
        >>> game.moves
        (Move(seat='ana', answer=98), Move(seat='bob', answer=1), Move(seat='bob', answer=3))
        """
        if self._phase is not _CARDS or self._laid:
            self._expect_turn()
        checked = self._check_seated(seats)
        place, out = self._place, self._out
        hands: dict[str, list[Card]] = {}
        seated: list[tuple[str, Callable[[C], object], C, list[Card]]] = []
        while self._phase is _CARDS:
            if self._hands is not hands:  # a new round: each seat's hand, looked up once
                hands = self._hands
                seated = [(player, ask, context, hands[player])
                          for player, ask, context in checked]
            laid = self._laid
            try:
                for player, ask, context, hand in seated:
                    show(context, tuple(hand))
                    value = ask(context)
                    try:  # the check of lay_card, without its call for a plain int
                        if type(value) is not int:
                            raise ValueError
                        hand.remove(value)
                    except ValueError:
                        value = lay_card(hand, value, self.round, self.turn, player)
                    laid[player] = value
            except BaseException:
                for player, value in laid.items():  # the turn as it was: every card in hand
                    hands[player].append(value)
                    hands[player].sort()
                laid.clear()
                raise
            place(choose_row, True)
            if out is not None:
                events = self._last = tuple(out)
                out.clear()
                yield events

    def _check_seated(
        self, seats: Sequence[tuple[str, Callable[[C], object], C]]
    ) -> tuple[tuple[str, Callable[[C], object], C], ...]:
        """*seats* checked for :meth:`play_turns`: every seat once, in seat order."""
        try:
            checked = tuple(seats)
            names = tuple(seat for seat, _, _ in checked)
        except (TypeError, ValueError):
            names = ()
        if names != self.players:
            raise MalformedInputError(
                "argument", N_("{name} = {value}: {name} must list every seat once, in seat "
                               "order"), name="seats", value=type(seats).__name__,
            )
        return checked

    def _expect_turn(self) -> None:
        """Refuse :meth:`play_turns` when the game does not wait for a whole turn's cards."""
        if self._phase is _OVER:
            raise IllegalMoveError("game.end", N_("the game is over: no decision is pending"),
                                   where=Where(self.round, self.turn or None))
        raise IllegalMoveError(
            _AWAITED[self._phase],
            N_("{player!r} has no decision of this kind to make now; the game waits for "
               "{waiting}"),
            where=Where(self.round, self.turn or None),
            player=self.players[0],
            waiting=", ".join(repr(player) for player in self.to_move),
        )

    # --- History: undo, replay ---------------------------------------------------------------

    def pop(self) -> Move:
        """Undo the last decision and return it; the game is as it was before it was taken.

        The game is replayed from its start (its rules, seed, deals given and every move but
        the last), so the state, the generator and the events of the last step are exactly
        those it had. An empty game has nothing to undo (id ``argument``).

        >>> game = Game(["ana", "bob"], seed=1)
        >>> game.play("ana", 9)
        ()
        >>> game.pop(), game.to_move, 9 in game.legal("ana")
        (Move(seat='ana', answer=9), ('ana', 'bob'), True)
        """
        moves = self.moves
        if not moves:
            raise MalformedInputError(
                "argument", N_("there is no decision to undo: no move has been made yet"))
        replayed = self.replayed(len(moves) - 1, events=self._emit)
        for name in Game.__slots__:
            setattr(self, name, getattr(replayed, name))
        return moves[-1]

    def replayed(self, count: int | None = None, *, events: bool = True) -> Game:
        """A new game: this one's start replayed with its first *count* moves (default: all).

        It equals this game (or this game as it was after *count* moves); the events of its
        last step are those of that move. *events* as for the constructor. *count* is a whole
        number from 0 to ``len(moves)`` (id ``argument`` otherwise).

        >>> game = Game(["ana", "bob"], seed=1)
        >>> _ = game.play("ana", 9), game.play("bob", 1)
        >>> game.replayed(1).to_move, game.replayed(0) == Game(["ana", "bob"], seed=1)
        (('bob',), True)
        """
        moves = self._all_moves()
        if count is not None and (type(count) is not int or not 0 <= count <= len(moves)):
            raise MalformedInputError(
                "argument", N_("{name} = {value}: {name} must be a whole number from 0 to "
                               "{limit}"),
                name="count", value=repr(count)[:60], limit=len(moves),
            )
        game = object.__new__(Game)
        game._setup(self.players, self.rules, events, self._seed)
        before = self._before
        game._origin(self._first, before, [
            (trusted_table(rows), hands) for _, (rows, hands) in sorted(self._deals.items())])
        game._open()
        act = game.act
        for seat, answer in moves[:count]:
            act(seat, answer)
        return game

    def _all_moves(self) -> list[tuple[str, int]]:
        """The moves as plain ``(seat, answer)`` pairs, the cards laid this turn included."""
        moves: list[tuple[str, int]] = []
        seat = {player: index for index, player in enumerate(self.players)}.__getitem__
        for entry in self._log:
            if isinstance(entry, Mapping):  # a turn's cards in the order laid
                moves += entry.items()
            elif isinstance(entry[0], str):  # a row or a pick
                moves.append((entry[0], int(entry[1])))
            else:  # a turn's cards, laid in seat order
                moves += sorted(entry, key=lambda play: seat(play[0]))
        if self._phase is _CARDS:
            moves += self._laid.items()
        return moves

    # --- Logs and saved games ----------------------------------------------------------------

    def to_log(self, *, claims: bool = True) -> dict[str, Any]:
        """The take5-log of the game so far (:mod:`take5rules.logs`), for its validator.

        The game's events are rebuilt by replay and written by
        :class:`~take5rules.logs.writer.LogWriter`: a game in progress is logged up to its last
        whole turn (cards laid face down, and a turn whose low card waits for its row, are not
        yet in the log). A log starts at a game's first round: a game taken up later
        (:meth:`from_deal` at a round past the first, or with totals) cannot be logged (id
        ``argument``). *claims* as for the writer.
        """
        from take5rules.logs.writer import LogWriter

        before = self._before
        if self._first != 1 or (before is not None and any(before.values())):
            raise MalformedInputError(
                "argument",
                N_("a game taken up at round {round} cannot be logged: a take5-log begins with "
                   "the first round"),
                round=self._first,
            )
        writer = LogWriter(claims=claims)
        game = object.__new__(Game)
        game._setup(self.players, self.rules, True, self._seed)
        game._origin(1, None, [
            (trusted_table(rows), hands) for _, (rows, hands) in sorted(self._deals.items())])
        game._open()
        add = writer.add
        for event in game.events:
            add(event)
        act = game.act
        for seat, answer in self._all_moves():
            for event in act(seat, answer):
                add(event)
        return writer.log()

    @classmethod
    def from_log(cls, log: object, *, seed: int | None = 0, events: bool = True) -> Game:
        """The game a take5-log records, resumed where the log stops, every decision replayed.

        The log is first checked by :func:`take5rules.logs.validator.validate`: one that is
        not a take5-log raises its :class:`~take5rules.errors.LogError`, one that breaks a
        rule raises the first violation's error, with that rule's id. The rounds the log
        deals are taken from it (the drafts of the logic and tournament variants are replayed
        as picks); a round after the last one logged is dealt from *seed*.

        >>> from take5rules.playing.engine import play_game
        >>> from take5rules.playing.players import CautiousPlayer
        >>> from take5rules.logs.writer import log_from_events
        >>> log = log_from_events(play_game({"ana": CautiousPlayer(), "bob": CautiousPlayer()},
        ...                                 seed=2))
        >>> game = Game.from_log(log)
        >>> game.phase, game.result.totals == log["totals"]
        (<Phase.OVER: 'over'>, True)
        """
        from take5rules.logs.validator import validate

        report = validate(log)
        if report.violations:
            raise report.violations[0].error
        assert isinstance(log, dict)
        rules = Rules(Variant.parse(log["variant"]), log.get("threshold", Rules().threshold))
        rounds: list[dict[str, Any]] = log["rounds"]
        deals = [] if rules.drafted else [
            (Table.of(entry["rows"]), entry["hands"]) for entry in rounds]
        game = cls(log["players"], rules, seed, events=events, deals=deals)
        for entry in rounds:
            for player, value in entry.get("draft", ()):
                game.draft(player, value)
            for turn in entry["turns"]:
                plays, takes = turn["plays"], turn["takes"]
                for player in game.players:
                    game.play(player, plays[player])
                while game._phase is _ROW:
                    player = game.to_move[0]
                    game.take_row(player, takes[player])
        return game

    def to_json(self) -> dict[str, Any]:
        """The game as a JSON-ready document: its rules, seed, start and moves.

        See :mod:`take5rules.playing.saved`: no state is stored, :meth:`from_json` replays it.
        """
        origin = self.origin
        return dump(self.players, self.rules, self._seed, origin.round, origin.totals,
                    origin.deals, self._all_moves())

    @classmethod
    def from_json(cls, data: object, *, events: bool = True) -> Game:
        """The game of a document written by :meth:`to_json`: its moves replayed, checked.

        The document's shape is checked once, strictly (id ``state``), and every move is
        then replayed through :meth:`act`, so a document that breaks a rule is refused by
        that rule, with its id (see :mod:`take5rules.playing.saved`).
        """
        saved = read(data)
        first, before, deals = saved.first_round, saved.totals_before, saved.deals
        if first == 1 and not any(before.values()):
            game = cls(saved.players, saved.rules, saved.seed, events=events, deals=deals)
        elif len(deals) == 1:
            game = cls.from_deal(saved.players, deals[0][0], deals[0][1], round=first,
                                 totals=before, rules=saved.rules, seed=saved.seed,
                                 events=events)
        else:
            raise MalformedInputError(
                "state",
                N_("not a saved game: {path} is {value!r}, which is not what a saved game "
                   "holds there"),
                path="deals", value=f"{len(deals)} deals for a game taken up at round {first}",
            )
        act = game.act
        for seat, answer in saved.moves:
            act(seat, answer)
        return game

    # --- Copies, equality, printing ------------------------------------------------------------

    def copy(self) -> Game:
        """An independent copy: stepping one never changes the other."""
        twin = object.__new__(type(self))
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
        twin._log = list(self._log)
        twin._out = [] if self._emit else None
        return twin

    def __copy__(self) -> Game:
        """``copy.copy(game)``: an independent copy, as :meth:`copy`."""
        return self.copy()

    def __deepcopy__(self, memo: dict[int, object]) -> Game:
        """``copy.deepcopy(game)``: an independent copy, as :meth:`copy` (the rest is frozen)."""
        return self.copy()

    def __reduce__(self) -> tuple[Callable[[object, bool], Game], tuple[object, bool]]:
        """Pickle a game as its saved document (:meth:`to_json`), replayed when unpickled."""
        return _from_json, (self.to_json(), self._emit)

    def _key(self) -> tuple[object, ...]:
        """Everything that makes the state (not the last step's events, nor the moves' order)."""
        return (
            self.players, self.rules, self.round, self.turn, self._phase, self._totals,
            self._hands, self._rows, self._piles, self._laid, self._ordered, self._cursor,
            self._start, self._revealed, self._pool, self._picks,
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

    def __str__(self) -> str:
        """The table as a person reads it: the rows, each seat's hand, takings and total.

        >>> print(Game(["ana", "bob"], seed=1))
        Round 1, turn 1: waiting for the cards of ana, bob
          row 0: 35                 (2 bull heads)
          row 1: 30                 (3 bull heads)
          row 2: 76                 (1 bull head)
          row 3: 14                 (1 bull head)
          ana: 10 cards in hand, total 0, taken this round: nothing
          bob: 10 cards in hand, total 0, taken this round: nothing
        """
        phase = self._phase
        waiting = ", ".join(self.to_move)
        head = {
            _CARDS: f"Round {self.round}, turn {self.turn}: waiting for the cards of {waiting}",
            _ROW: f"Round {self.round}, turn {self.turn}: {waiting} must take a row for card "
                  f"{self._ordered[self._cursor][1] if phase is _ROW else ''}",
            _DRAFT: f"Round {self.round}, draft: {waiting} picks from "
                    f"{' '.join(map(str, self._pool))}",
            _OVER: f"Game over after {_count(self.round, 'round')}: won by "
                   f"{', '.join(self._result.winners) if self._result else ''}",
        }[phase]
        lines = [head]
        for number, row in enumerate(self._rows):
            cards = " ".join(map(str, row))
            lines.append(f"  row {number}: {cards:<18} "
                         f"({_count(total_bull_heads(row), 'bull head')})")
        drafting = self._phase is _DRAFT
        for player in self.players:
            pile = self._piles.get(player, ())
            taken = (f"{' '.join(map(str, pile))} ({_count(total_bull_heads(pile), 'bull head')})"
                     if pile else "nothing")
            if drafting:
                held = f"{_count(sum(seat == player for seat, _ in self._picks), 'card')} drafted"
            else:
                held = f"{_count(len(self._hands.get(player, ())), 'card')} in hand"
            laid = ", one laid face down" if player in self._laid else ""
            lines.append(f"  {player}: {held}{laid}, total {self._totals[player]}, "
                         f"taken this round: {taken}")
        return "\n".join(lines)

    # --- Private: checks ---------------------------------------------------------------------

    def _seat(self, seat: object) -> None:
        """Check that *seat* is a seat of this game (a text that is not: ``setup.players``)."""
        if not isinstance(seat, str):
            check_seat(seat)
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

    def _stored(self, player: str, value: Card) -> object:
        """The row answered through :meth:`take_row`, once; :data:`_NOT_YET` when none is."""
        answer, self._answer = self._answer, None
        return _NOT_YET if answer is None else answer

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
        """Start the next round: a deal given, a tournament's next game, a draft, or a deal."""
        self.round += 1
        given = self._deals.get(self.round)
        if given is not None:
            self._begin(*given)
            return
        if self._sheets is not None:  # a tournament after its draft
            hands = tournament_hands(self._sheets, self.players, self.round)
            self._begin(tuple((value,) for value in self._draft_rows), hands)
            return
        pool = self._deck
        if self._drafted:
            self._phase, self.turn = _DRAFT, 0
            self._pool, self._picks, self._rows, self._start = sorted(pool), (), [], ()
            self._revealed, self._piles, self._hands = (), {}, {}
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
        self._revealed, self._laid, self._taken_view = (), {}, None
        self._pool = []
        self._phase, self.turn = _CARDS, 1
        if self._out is not None:
            self._out.append(round_started(
                self.round, rows,
                MappingProxyType({player: tuple(hand) for player, hand in held.items()}),
            ))

    def _pick(self, seat: str, value: Card) -> None:
        """Draft *value* for *seat*; after the last pick, the round begins."""
        self._pool.remove(value)
        self._picks += ((seat, value),)
        self._log.append((seat, value))
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

    def _place(
        self, choose: Callable[[str, Card], object], reveal: bool = False,
        laid_as: Mapping[str, Card] | None = None,
    ) -> None:
        """Place the revealed cards from the cursor on; stop at a low card *choose* cannot answer.

        With *reveal*, every card is laid: they are first revealed together (and kept as
        moves: the plays lowest first when they were laid in seat order, as :meth:`play_turns`
        lays them, or *laid_as*, the dict of the cards in the order laid), and placed lowest
        first from the first on. *choose* answers
        a low card's row, checked here, or :data:`_NOT_YET` to wait for :meth:`take_row`; the
        placement then stops at that card (and at a row refused, whose error is raised).

        Each card goes where :func:`_kernel.target` says, by :func:`_kernel.put` or, a low card,
        :func:`_kernel.take`: the rules are the kernel's. This loop is the sequence of
        :func:`_kernel.placements` written out, for speed (its generator costs the engine
        about a tenth of its time); ``tests/test_game_history.py`` pins the two together,
        placement for placement, on random turns.
        """
        if reveal:
            laid = self._laid
            self._ordered = ordered = tuple(_kernel.order(laid.items()))
            # The turn's moves: the plays, kept anyway (nothing is built for the history).
            self._log.append(ordered if laid_as is None else laid_as)
            self._laid, self._cursor = {}, 0
            self._revealed += (ordered,)
            if self._out is not None:
                self._out.append(cards_revealed(self.round, self.turn, ordered))
        else:
            ordered = self._ordered[self._cursor:]
        rows, out, number, turn = self._rows, self._out, self.round, self.turn
        for player, value in ordered:
            index = _target(rows, value)
            if index >= 0:
                taken = _put(rows, value, index)
                if taken:
                    self._took(player, taken)
                if out is not None:
                    out.append(sixth_card_taken(number, turn, player, value, index, taken,
                                                tuple(rows)) if taken
                               else card_placed(number, turn, player, value, index, tuple(rows)))
                continue
            self._shown = None  # the rows have changed since the views' table was built
            try:
                answer = choose(player, value)
            except BaseException:
                self._wait(player, value)
                raise
            if type(answer) is int and 0 <= answer < ROWS:
                index = answer
            else:
                self._wait(player, value)
                if answer is _NOT_YET:
                    return
                index = row_index(answer, Where(number, turn, player, value))
                self._phase = _CARDS
            self._log.append((player, index))
            taken = _take(rows, value, index)
            self._took(player, taken)
            if out is not None:
                out.append(low_card_taken(number, turn, player, value, index, taken,
                                          tuple(rows)))
        self._ordered, self._cursor, self._phase, self._shown = (), 0, _CARDS, None
        if self._hands[self.players[0]]:
            self.turn += 1
        else:
            self._end_round()

    def _wait(self, player: str, value: Card) -> None:
        """Wait for the row of *player*'s low card *value* (no answer yet, or one refused)."""
        self._cursor = self._ordered.index((player, value))
        self._phase = _ROW

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
            self._out.append(round_scored(self.round, MappingProxyType(penalties),
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


def _from_json(document: object, events: bool) -> Game:
    """:meth:`Game.from_json`, as a plain function (what a pickled game is rebuilt with)."""
    return Game.from_json(document, events=events)
