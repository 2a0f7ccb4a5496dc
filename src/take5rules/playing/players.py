"""Players: the decision :class:`Player` protocol and three built-in players.

A player makes three kinds of decision, each from a read-only view of the game:

* :meth:`Player.choose_card`: which card of the hand to lay face down this turn;
* :meth:`Player.choose_row`: which row to take when their card is a low card;
* :meth:`Player.choose_draft`: which face-up card to take in the logic draft.

The engine checks every answer; an illegal one raises :class:`~take5rules.errors.IllegalMoveError`.
Each view holds what the seat may know with perfect recall: the table, its hand and the totals,
and the round's public history (every card revealed so far, turn by turn, what each player has
taken, the rows at the start, the draft's picks). A view describes the moment of the call it is
passed to: the engine hands each seat one view for the whole game, read from the game when read,
so keep what you need (``tuple(view.hand)``) or ``copy.copy(view)``, a frozen snapshot. A view
cannot be changed, and a player that tries changes neither the game nor another seat's view.

A view no game can show is refused with the error id ``argument``: a :class:`CardView` checks
its table and its hand when it is built; every built-in player checks what it reads of a view
it is handed (a card asked from an empty hand or pool, a row asked of something that is no
:class:`~take5rules.table.Table`), and the searches check the whole view
(:func:`check_view`, :func:`check_draft_view`: every part of its kind, no card in two places
at once). The built-in kinds of player by name are in
:mod:`take5rules.playing.kinds`.

>>> from take5rules.table import Table
>>> view = CardView(1, 1, Table.of([[12], [37], [43], [58]]), (14, 44, 90), {"me": 0})
>>> LowestCardPlayer().choose_card(view), CautiousPlayer().choose_card(view)
(14, 44)
"""

from __future__ import annotations

import random
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from types import MappingProxyType
from typing import Any, NoReturn, Protocol, TypeVar, runtime_checkable

from take5rules import _kernel
from take5rules._messages import N_, shown
from take5rules.cards import Card, bull_heads
from take5rules.errors import MalformedInputError
from take5rules.table import ROW_COUNT, ROW_LIMIT, Table, least_difference_row
from take5rules.turn import LowCard

__all__ = [
    "CardView",
    "CautiousPlayer",
    "DraftView",
    "LowestCardPlayer",
    "Player",
    "RandomPlayer",
    "Revealed",
    "RowChoice",
    "cheapest_index",
    "cheapest_row",
    "check_draft_view",
    "check_view",
    "empty_hand",
    "empty_pool",
]

_NOT_A_TABLE = N_("the view's table is {value!r}, not a Table")
_NOT_CARDS = N_("the view's {part} is {value!r}, not a tuple of cards from 1 to 104")
_NOT_PLAYS = N_("the view's {part} is {value!r}, not a tuple of (player, card) pairs with "
                "cards from 1 to 104")
_NOT_A_NAME = N_("the view's {part} is {value!r}, not a player's name")
_NOT_A_NUMBER = N_("the view's {part} is {value!r}, not a whole number of at least 0")
_NOT_TOTALS = N_("the view's totals are {value!r}, not a mapping of player names to whole "
                 "numbers")
_NOT_TAKEN = N_("the view's cards taken are {value!r}, not a mapping of player names to tuples "
                "of cards")
_TWICE = N_("card {card} is twice in the view: in its {first} and in its {second}")
_EMPTY_HAND = N_("the hand of {player!r} is empty: it has no card to choose")
_EMPTY_POOL = N_("the draft's pool is empty: {player!r} has no card to take")


def _nothing() -> Mapping[str, Any]:
    """An empty read-only mapping: the default of a view's totals and cards taken."""
    return MappingProxyType({})


#: Each turn of the round so far: its ``(player, card)`` plays in placement order.
Revealed = tuple[tuple[tuple[str, Card], ...], ...]


@dataclass(frozen=True, slots=True)
class CardView:
    """What a player knows when choosing a card: everything it has seen, and its own hand.

    The table, their hand, the totals; and the round's public history (perfect recall): their
    own seat's name (*player*), every card revealed so far this round and who played it, turn
    by turn (*revealed*, each turn's plays in placement order), what each player has taken this
    round (*taken*), the rows laid out at the start of the round (*start*), and the picks of
    the draft (*picks*, logic and tournament; empty otherwise). The view the engine hands a
    player describes the moment of the call (``copy.copy`` keeps it); changing it changes
    nothing else.
    """

    round: int
    turn: int
    table: Table
    hand: tuple[Card, ...]
    totals: Mapping[str, int]
    player: str = ""
    revealed: Revealed = ()
    taken: Mapping[str, tuple[Card, ...]] = field(default_factory=_nothing)
    start: tuple[tuple[Card, ...], ...] = ()
    picks: tuple[tuple[str, Card], ...] = ()

    def __post_init__(self) -> None:
        # What every player reads (the table, the hand); the rest is checked by the players
        # that read it (check_view). The engine's own views are built without this.
        if not isinstance(self.table, Table):
            _fail(_NOT_A_TABLE, value=shown(self.table))
        _cards("hand", self.hand)


@dataclass(frozen=True, slots=True)
class DraftView:
    """What a player knows when drafting: the face-up cards left and their picks so far.

    Also their seat's name (*player*), every pick of the draft so far in order (*picks*, as
    ``(player, card)``), and the totals before the round (*totals*).
    """

    round: int
    pick: int
    pool: tuple[Card, ...]
    hand: tuple[Card, ...]
    player: str = ""
    picks: tuple[tuple[str, Card], ...] = ()
    totals: Mapping[str, int] = field(default_factory=_nothing)


@dataclass(frozen=True, slots=True)
class RowChoice(LowCard):
    """What a player knows when choosing the row its low card takes.

    The rule's question, a :class:`~take5rules.turn.LowCard` (the seat's name *player*, the low
    card *card*, the rows it meets *table*, and *round* and *turn*), and, when a game asks (the
    engine and :class:`take5rules.playing.stepper.Game` fill them in), what the player knows
    besides, as in :class:`CardView`: their hand, the totals, every card revealed so far this
    round turn by turn (this turn's included), what each player has taken this round, the rows
    at the start of the round and the draft's picks.

    It extends ``LowCard`` rather than holding one, so that a view is also the rule's question:
    the fields keep their names and their order (``RowChoice(player, card, table)`` is the
    rule's question and nothing else), what reads only the question (the referee,
    :func:`~take5rules.turn.no_row_choice`) takes a player's view as it is, and the engine
    hands each seat one object, not a view wrapped around a question.

    >>> from take5rules.turn import LowCard
    >>> choice = RowChoice("me", 2, Table.of([[3, 12, 13], [24, 25], [55], [96]]), 1, 4, (40, 77))
    >>> isinstance(choice, LowCard), CautiousPlayer().choose_row(choice)
    (True, 3)
    """

    hand: tuple[Card, ...] = ()
    totals: Mapping[str, int] = field(default_factory=_nothing)
    revealed: Revealed = ()
    taken: Mapping[str, tuple[Card, ...]] = field(default_factory=_nothing)
    start: tuple[tuple[Card, ...], ...] = ()
    picks: tuple[tuple[str, Card], ...] = ()


@runtime_checkable
class Player(Protocol):
    """The decisions a Take 5 player makes. Any object with these three methods is a player.

    Optionally, a player listens: when it has a callable ``see(seat, event)``, the engine
    (:func:`~take5rules.playing.engine.play_game`, ``play_silently``, ``play_round``) calls it
    with every event of the game, as its seat may see it
    (:func:`take5rules.events.seen_by`: a :class:`~take5rules.events.RoundStarted` with only
    the seat's own hand), before the seat is asked its next decision. It is not part of the
    protocol: a player without ``see`` is told nothing, and costs the engine nothing.
    :class:`~take5rules.playing.program_player.ProgramPlayer` listens, to tell its program.
    """

    def choose_card(self, view: CardView) -> Card:
        """The card to play this turn, from ``view.hand``."""
        ...

    def choose_row(self, choice: RowChoice) -> int:
        """The row (0 to 3) to take for the low card ``choice.card``."""
        ...

    def choose_draft(self, view: DraftView) -> Card:
        """The face-up card to take, from ``view.pool``."""
        ...


def _fail(template: str, **params: Any) -> NoReturn:
    raise MalformedInputError("argument", template, **params)


def _card(value: object) -> Card | None:
    """*value* as a card (an integer from 1 to 104, of any integral type), or ``None``."""
    number = _kernel.integral(value)
    return number if number is not None and 1 <= number <= _kernel.HIGHEST else None


#: The cards of the deck, and the one type a card has on the fast path of :func:`_cards`.
_DECK = frozenset(range(1, _kernel.HIGHEST + 1))
_INT = frozenset({int})


def _cards(part: str, value: object) -> tuple[Card, ...]:
    if type(value) is tuple and _DECK.issuperset(value) and _INT.issuperset(map(type, value)):
        return value  # plain ints from 1 to 104 (no bool: its type is not int), the usual case
    if isinstance(value, tuple | list):
        found = tuple(map(_card, value))
        if None not in found:
            return found  # type: ignore[return-value]
    _fail(_NOT_CARDS, part=part, value=shown(value))


def _plays(part: str, value: object) -> tuple[tuple[str, Card], ...]:
    if isinstance(value, tuple | list):
        found = []
        for item in value:
            if not isinstance(item, tuple | list) or len(item) != 2 or not isinstance(
                    item[0], str):
                break
            value_card = _card(item[1])
            if value_card is None:
                break
            found.append((item[0], value_card))
        else:
            return tuple(found)
    _fail(_NOT_PLAYS, part=part, value=shown(value))


def _number(part: str, value: object, *, optional: bool = False) -> None:
    if value is None and optional:
        return
    number = _kernel.integral(value)
    if number is None or number < 0:
        _fail(_NOT_A_NUMBER, part=part, value=shown(value))


def _name(part: str, value: object) -> None:
    if not isinstance(value, str):
        _fail(_NOT_A_NAME, part=part, value=shown(value))


def _named(part: str, value: object) -> Mapping[str, object]:
    """*value*, a mapping whose keys are player names."""
    if not isinstance(value, Mapping) or not all(isinstance(key, str) for key in value):
        _fail(_NOT_TOTALS if part == "totals" else _NOT_TAKEN, value=shown(value))
    return value


class _Once:
    """Where each card of a view was seen: a card seen in two parts makes the view impossible."""

    __slots__ = ("_where",)

    def __init__(self) -> None:
        self._where: dict[Card, str] = {}

    def see(self, cards: Sequence[Card], part: str) -> None:
        where = self._where
        for value in cards:
            first = where.get(value)
            if first is not None:
                _fail(_TWICE, card=value, first=first, second=part)
            where[value] = part


def check_view(view: object, *, whole: bool = True) -> None:
    """Refuse a card view or row choice no game can show (error id ``argument``).

    Every part must be of its documented kind (the table a :class:`~take5rules.table.Table`,
    the cards integers from 1 to 104, the names texts); and, when *whole*, no card may be in
    two places at once: the hand, the table and the cards taken this round hold each card once
    among them, and so do the hand, the cards revealed this round and the rows laid out at its
    start; a row choice's low card is in neither its hand nor on the table.

    A :class:`CardView` checks its table and its hand when it is built (the rest at the
    entry of the players that read it: a copy of a view kept past its moment mixes moments,
    and an agent builds a view at every decision). The players that reason on the whole view
    (the searches, :func:`~take5rules.playing.belief.belief`) check it whole at their entry,
    a :class:`RowChoice` or any view-like object alike; the person at the
    table checks the kinds of its parts (``whole=False``).

    >>> check_view(CardView(1, 1, Table.of([[12], [37], [43], [58]]), (12, 44), {"me": 0}))
    Traceback (most recent call last):
      ...
    take5rules.errors.MalformedInputError: card 12 is twice in the view: in its hand and in its \
table [argument]
    """
    table = getattr(view, "table", None)
    if not isinstance(table, Table):
        _fail(_NOT_A_TABLE, value=shown(table))
    hand = _cards("hand", getattr(view, "hand", None))
    _name("player", getattr(view, "player", None))
    _number("round", getattr(view, "round", None), optional=not isinstance(view, CardView))
    _number("turn", getattr(view, "turn", None), optional=not isinstance(view, CardView))
    totals = _named("totals", getattr(view, "totals", None))
    for total in totals.values():
        _number("totals", total)
    taken = _named("taken", getattr(view, "taken", None))
    revealed = getattr(view, "revealed", None)
    if not isinstance(revealed, tuple | list):
        _fail(_NOT_PLAYS, part="revealed", value=shown(revealed))
    start = getattr(view, "start", None)
    if not isinstance(start, tuple | list):
        _fail(_NOT_CARDS, part="start", value=shown(start))
    _plays("picks", getattr(view, "picks", None))
    for turn in revealed:
        _plays("revealed", turn)
    for row in start:
        _cards("start", row)
    for pile in taken.values():
        _cards("taken", pile)
    if isinstance(view, RowChoice) and _card(view.card) is None:
        _fail(_NOT_CARDS, part="card", value=shown(view.card))
    if whole:
        _check_once(view, table, hand, taken, revealed, start)


def _check_once(view: object, table: Table, hand: tuple[Card, ...],
                taken: Mapping[str, object], revealed: Sequence[object],
                start: Sequence[object]) -> None:
    """No card of a view (its parts already checked) in two places at once."""
    # Each card once among the hand, the table and the piles taken this round (and the low card
    # of a row choice, not placed yet) ...
    now = _Once()
    now.see(hand, "hand")
    for row in table.rows:
        now.see(row, "table")
    for pile in taken.values():
        now.see(_cards("taken", pile), "taken")
    if isinstance(view, RowChoice):
        now.see((_kernel.integral(view.card) or 0,), "card")
    # ... and once among the hand, the cards revealed this round and the rows it started with.
    history = _Once()
    history.see(hand, "hand")
    for turn in revealed:
        history.see([value for _seat, value in _plays("revealed", turn)], "revealed")
    for laid in start:
        history.see(_cards("start", laid), "start")


def check_draft_view(view: object) -> None:
    """Refuse a draft view no game can show (error id ``argument``).

    The pool, the hand and the picks must hold cards from 1 to 104, the names be texts, and no
    card of the pool may be in the hand or among the picks. The players that search a pick
    check the view with this at their entry (the engine builds one at every pick: a
    :class:`DraftView` does not check itself).
    """
    pool = _cards("pool", getattr(view, "pool", None))
    hand = _cards("hand", getattr(view, "hand", None))
    picks = _plays("picks", getattr(view, "picks", None))
    _name("player", getattr(view, "player", None))
    _number("round", getattr(view, "round", None))
    _number("pick", getattr(view, "pick", None))
    for total in _named("totals", getattr(view, "totals", None)).values():
        _number("totals", total)
    mine = _Once()
    mine.see(pool, "pool")
    mine.see(hand, "hand")
    everyone = _Once()
    everyone.see(pool, "pool")
    everyone.see([value for _seat, value in picks], "picks")


def empty_hand(player: str) -> MalformedInputError:
    """The error of a card asked from an empty hand (id ``argument``): no card to choose."""
    return MalformedInputError("argument", _EMPTY_HAND, player=shown(player))


def empty_pool(player: str) -> MalformedInputError:
    """The error of a draft pick asked from an empty pool (id ``argument``)."""
    return MalformedInputError("argument", _EMPTY_POOL, player=shown(player))


def _row_cost(table: Table, index: int) -> tuple[int, int]:
    # A Table holds only checked cards, so its rows are counted without checking them again.
    row = table.rows[index]
    return _kernel.pile_heads(row), len(row)


def cheapest_index(rows: Sequence[tuple[Card, ...]]) -> int:
    """:func:`cheapest_row` of the kernel's rows, unchecked (the rollouts of the search players).

    >>> cheapest_index([(3, 12), (24,), (58, 61, 70), (96,)])
    1
    """
    heads = _kernel.pile_heads
    return min(range(len(rows)), key=lambda index: (heads(rows[index]), len(rows[index]), index))


def cheapest_row(table: Table) -> int:
    """The row with the fewest bull heads (then the fewest cards, then the first).

    >>> cheapest_row(Table.of([[3, 12], [24], [58, 61, 70], [96]]))
    1
    """
    if not isinstance(table, Table):
        _fail(_NOT_A_TABLE, value=shown(table))
    return cheapest_index(table.rows)


_Option = TypeVar("_Option")

#: The bits of one draw among the four rows (Random.choice of four draws these).
_ROW_BITS = ROW_COUNT.bit_length()


class RandomPlayer:
    """Plays, takes and drafts uniformly at random, reproducibly from *seed*.

    Each decision is one draw of ``Random.choice`` among the legal answers; the draw is written
    out here (the same rejection sampling, the same calls to ``getrandbits``, so the same
    answers as ``Random.choice`` from the same state) to spare its two function calls on the
    engine's hot path.
    """

    def __init__(self, seed: int | None = None) -> None:
        self._random = random.Random(seed)
        self._bits = self._random.getrandbits

    def _pick(self, options: Sequence[_Option]) -> _Option:
        """``Random.choice(options)``, drawn as the standard library draws it."""
        count = len(options)
        bits = count.bit_length()
        index = self._bits(bits)
        while index >= count:
            index = self._bits(bits)
        return options[index]

    def choose_card(self, view: CardView) -> Card:  # noqa: D102
        hand = view.hand
        count = len(hand)
        bits = count.bit_length()
        index = self._bits(bits)  # _pick, inlined: this is every card of every benchmark
        while index >= count:
            if not count:  # on the rejection path only: getrandbits(0) is 0, again and again
                raise empty_hand(view.player)
            index = self._bits(bits)
        return hand[index]

    def choose_row(self, choice: RowChoice) -> int:  # noqa: D102
        # The same draw as the randrange(4) of 0.1.0: both take _randbelow(4), that is
        # getrandbits(3) until it is below 4 (_pick of the four row indices, inlined).
        index = self._bits(_ROW_BITS)
        while index >= ROW_COUNT:
            index = self._bits(_ROW_BITS)
        return index

    def choose_draft(self, view: DraftView) -> Card:  # noqa: D102
        if not view.pool:
            raise empty_pool(view.player)
        return self._pick(view.pool)

    def __repr__(self) -> str:
        return "RandomPlayer()"


class LowestCardPlayer:
    """Always plays its lowest card, takes the cheapest row, drafts the lowest card."""

    def choose_card(self, view: CardView) -> Card:  # noqa: D102
        try:
            return min(view.hand)
        except ValueError:  # min() of nothing: no check on the engine's hot path
            if view.hand:
                raise
            raise empty_hand(view.player) from None

    def choose_row(self, choice: RowChoice) -> int:  # noqa: D102
        return cheapest_row(choice.table)

    def choose_draft(self, view: DraftView) -> Card:  # noqa: D102
        if not view.pool:
            raise empty_pool(view.player)
        return min(view.pool)

    def __repr__(self) -> str:
        return "LowestCardPlayer()"


class CautiousPlayer:
    """A sensible heuristic: avoid taking now, then prefer short rows and small gaps.

    For each card it looks at the row the card would go to if played alone: a card that would be
    sixth costs that row's bull heads; a low card costs the cheapest row; otherwise the risk grows
    with the row's length and the gap that other players' cards could fill. It drafts the
    cheapest cards, and takes the cheapest row.
    """

    def _risk(self, table: Table, value: Card) -> tuple[float, Card]:
        target = least_difference_row(table, value)
        if target is None:
            return float(_row_cost(table, cheapest_row(table))[0]) + 0.5, value
        row = table.rows[target]
        if len(row) >= ROW_LIMIT:
            return float(_kernel.pile_heads(row)) + 1.0, value
        gap = value - row[-1]
        return len(row) * gap / 400.0, value

    def choose_card(self, view: CardView) -> Card:  # noqa: D102
        try:
            return min(view.hand, key=lambda value: self._risk(view.table, value))
        except ValueError:  # min() of nothing: no check on the engine's hot path
            if view.hand:
                raise  # a card's own error (a MalformedInputError is a ValueError too)
            raise empty_hand(view.player) from None

    def choose_row(self, choice: RowChoice) -> int:  # noqa: D102
        return cheapest_row(choice.table)

    def choose_draft(self, view: DraftView) -> Card:  # noqa: D102
        if not view.pool:
            raise empty_pool(view.player)
        return min(view.pool, key=lambda value: (bull_heads(value), value))

    def __repr__(self) -> str:
        return "CautiousPlayer()"
