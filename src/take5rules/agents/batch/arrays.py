"""The arrays of a batch, the read-only views its policies get, and the checks at its borders.

Private to :mod:`take5rules.agents.batch`. The simulator keeps its arrays in small dtypes (a card
fits
in ``int8``) inside a :class:`BatchState`; everything that leaves the simulator, to a caller or
to a policy, is a read-only ``int64`` copy, so no policy can read another seat's hand or change
what the simulator scores from.
"""

from __future__ import annotations

import operator
from collections.abc import Callable
from dataclasses import dataclass
from functools import cached_property
from typing import Any, NamedTuple

import numpy as np
import numpy.typing as npt

from take5rules import _kernel
from take5rules._messages import N_
from take5rules.cards import cards
from take5rules.errors import IllegalMoveError, MalformedInputError, RulesError, Where
from take5rules.setup import cards_in_play, check_deal
from take5rules.table import ROW_LIMIT
from take5rules.variants import Rules, check_player_count, tactics_deck

HIGHEST, HAND_SIZE, ROWS = _kernel.HIGHEST, _kernel.HAND_SIZE, _kernel.ROWS

IntArray = npt.NDArray[np.int64]
BoolArray = npt.NDArray[np.bool_]

#: The bull heads of each card, indexed by the card (index 0, no card, is worth 0).
HEADS: IntArray = np.array(_kernel.HEADS, dtype=np.int64)
HEADS.setflags(write=False)
#: The same in the simulator's own dtype.
HEADS16 = HEADS.astype(np.int16)
HEADS16.setflags(write=False)

#: Cards, row lengths and positions fit in int8; sums of bull heads in int16.
CARD = np.int8
HEAD = np.int16

#: The most games a batch holds (about 1.5 GB of state for ``deal``): more is refused, not
#: allocated. Play more in several calls.
MOST_GAMES = 10_000_000

#: Codes of :attr:`TurnOutcome.rule`: which rule placed each card.
LEAST_DIFFERENCE, SIXTH_CARD, LOW_CARD = 0, 1, 2


def frozen(array: npt.ArrayLike) -> IntArray:
    """An ``int64`` copy of *array* that cannot be written (what leaves the simulator)."""
    copy = np.array(array, dtype=np.int64)
    copy.setflags(write=False)
    return copy


def whole(value: object, name: str, low: int, high: int | None = None) -> int:
    """*value* as an ``int`` from *low* to *high*: Python and numpy integers, never a bool.

    Anything else raises :class:`MalformedInputError` naming the argument (id ``argument``).
    """
    if not isinstance(value, bool | np.bool_):
        try:
            number = operator.index(value)  # type: ignore[arg-type]
        except TypeError:
            pass
        else:
            if number >= low and (high is None or number <= high):
                return number
    if high is None:
        raise MalformedInputError(
            "argument", N_("{name} is {value!r}: it must be a whole number, at least {low}"),
            name=name, value=value, low=low,
        )
    raise MalformedInputError(
        "argument", N_("{name} is {value!r}: it must be a whole number from {low} to {high}"),
        name=name, value=value, low=low, high=high,
    )


def generator(rng: object) -> np.random.Generator:
    """*rng* if it is a numpy ``Generator``; anything else is refused, naming the argument."""
    if not isinstance(rng, np.random.Generator):
        raise MalformedInputError(
            "argument",
            N_("rng is {value!r}: it must be a numpy random Generator, such as "
               "numpy.random.default_rng(seed)"),
            value=rng,
        )
    return rng


def seat_count(players: object, rules: Rules | None = None) -> int:
    """The number of seats, a whole number the variant of *rules* allows (``setup.players``)."""
    if isinstance(players, bool | np.bool_):
        count: object = players
    else:
        try:
            count = operator.index(players)  # type: ignore[arg-type]
        except TypeError:
            count = players
    tactics_deck(count)  # type: ignore[arg-type]  # RulesError for anything but 2..10
    assert isinstance(count, int)
    if rules is not None:
        check_player_count(count, rules.variant)
    return count


def checked_rules(rules: object) -> Rules:
    """*rules*, or the standard rules for ``None``; anything else is refused."""
    if rules is None:
        return Rules()
    if not isinstance(rules, Rules):
        raise MalformedInputError(
            "argument", N_("rules is {value!r}: it must be a Rules value, such as Rules()"),
            value=rules,
        )
    return rules


def answer(
    given: object, count: int, low: int, high: int, rule: str, games: IntArray,
    seats: IntArray | int, turn: int | None,
) -> IntArray:
    """A policy's answer, checked: ``(count,)`` whole numbers, each from *low* to *high*.

    Anything else raises :class:`IllegalMoveError` under *rule*: a whole answer of the wrong
    kind or shape names the seat; a value out of range names its game (the index in the batch),
    its seat and the value.
    """
    if (
        type(given) is np.ndarray
        and given.dtype.kind in "iu"
        and given.shape == (count,)
        and (count == 0 or _within(given, low, high))
    ):
        return given  # the usual answer

    def seat_of(k: int) -> int:
        return int(seats) if isinstance(seats, int) else int(seats[k])

    when = None if turn is None else turn + 1
    array = as_array(given)
    if array.dtype.kind not in "iu" or array.shape != (count,):
        raise IllegalMoveError(
            rule,
            N_("a batch policy answers one whole number per game it is asked about, an "
               "integer array of shape ({count},), not {answer}"),
            where=Where(turn=when, player=f"seat {seat_of(0)}" if count else None),
            count=count, answer=_describe(given, array),
        )
    bad = (array < low) | (array > high)
    if bad.any():
        first = int(np.flatnonzero(bad)[0])
        value = int(array[first])
        raise IllegalMoveError(
            rule,
            N_("game {game} of the batch: the policy of {player!r} answers {value}, not a whole "
               "number from {low} to {high}"),
            where=Where(turn=when, player=f"seat {seat_of(first)}"),
            game=int(games[first]), value=value, player=f"seat {seat_of(first)}",
            low=low, high=high,
        )
    return array.astype(np.int64, copy=False)


def checked_piles(piles: object, count: int, rules: Rules) -> IntArray:
    """*piles* checked: a ``(games, n)`` integer array of valid deals (``setup.check_deal``)."""
    array = as_array(piles)
    if array.ndim != 2 or array.dtype.kind not in "iu" or not 1 <= array.shape[0] <= MOST_GAMES:
        raise MalformedInputError(
            "cards.deck", N_("{value!r} is not a list of cards"), value=short(piles)
        )
    needed = HAND_SIZE * count + ROWS
    if array.shape[1] < needed:
        raise RulesError(
            "setup.deal",
            N_("the deal for {players} players needs {needed} cards, not {count}"),
            count=array.shape[1], players=count, needed=needed,
        )
    highest = cards_in_play(rules, count)[-1]
    ordered = np.sort(array, axis=1)
    bad = (ordered[:, 0] < 1) | (ordered[:, -1] > HIGHEST) | (
        ordered[:, 1:] == ordered[:, :-1]
    ).any(axis=1) | (np.sort(array[:, :needed], axis=1)[:, -1] > highest)
    if bad.any():
        game = int(np.flatnonzero(bad)[0])
        pile = [int(c) for c in array[game]]
        names = [f"seat {seat}" for seat in range(count)]
        hands = {name: pile[HAND_SIZE * s : HAND_SIZE * (s + 1)] for s, name in enumerate(names)}
        rows = [[value] for value in pile[HAND_SIZE * count : needed]]
        check_deal(rows, hands, names, rules, fresh=True, round=game + 1)
        cards(pile, Where(round=game + 1))  # the cards set aside
    return array.astype(np.int64)


def short(value: object) -> object:
    """*value* itself if its ``repr`` is short, else that ``repr`` cut to 80 characters."""
    text = repr(value)
    return value if len(text) <= 80 else text[:77] + "..."


def _within(given: npt.NDArray[Any], low: int, high: int) -> bool:
    """Whether every value of the integer array *given* is from *low* to *high*.

    From 0, one reduction: viewed unsigned, a negative value is above any *high*.

    >>> _within(np.array([0, 3, 9]), 0, 9), _within(np.array([0, -1]), 0, 9)
    (True, False)
    """
    if low == 0:
        return bool(given.view(_UNSIGNED[given.dtype.itemsize]).max() <= high)
    return bool(given.min() >= low and given.max() <= high)


#: The unsigned integer type of each item size.
_UNSIGNED = {1: np.uint8, 2: np.uint16, 4: np.uint32, 8: np.uint64}


def as_array(given: object) -> npt.NDArray[Any]:
    """*given* as an array; an object array when it is ragged, not numbers, or has a bool.

    (numpy would read ``[True, 2]`` as ``[1, 2]``.)
    """
    if type(given) is not np.ndarray and _has_bool(given):
        return np.asarray(None, dtype=object)
    try:
        return np.asarray(given)
    except (ValueError, TypeError, OverflowError):
        return np.asarray(None, dtype=object)


def _has_bool(value: object, depth: int = 0) -> bool:
    if isinstance(value, bool | np.bool_):
        return True
    if isinstance(value, list | tuple) and depth < 4:
        return any(_has_bool(item, depth + 1) for item in value)
    return False


def _describe(given: object, array: npt.NDArray[Any]) -> str:
    """A short description of a policy's answer: its type, dtype and shape."""
    if given is None or (array.dtype.kind == "O" and array.shape == ()):
        return repr(given)[:60]
    return f"{type(given).__name__} of dtype {array.dtype} and shape {array.shape}"


class BatchState:
    """A batch of rounds in progress; every array has the games as its first axis.

    Built by :func:`~take5rules.agents.batch.deal` or :func:`~take5rules.agents.batch.start`, and
    changed only
    by :func:`~take5rules.agents.batch.play_turn`. Its arrays are read through properties that
    return
    read-only ``int64`` copies; the simulator's own arrays are private. A state built by hand,
    ``BatchState(rows, hands, penalties, turn, piles)``, is checked game by game as a deal is
    (:func:`take5rules.setup.check_deal`).

    Attributes:
        rows: ``(games, 4, 5)`` the cards of each row, oldest first, padded with 0.
        lengths: ``(games, 4)`` how many cards each row holds.
        row_heads: ``(games, 4)`` the bull heads of each row.
        hands: ``(games, players, 10)`` each hand; its first ``10 - turn`` entries are the cards
            still held, in no particular order, the rest are cards already played.
        penalties: ``(games, players)`` the bull heads each player has taken this round.
        totals: ``(games, players)`` the totals before this round (zero for a lone round).
        piles: ``(games, players, 105)`` whether each card is in each player's bull pile, or
            ``None`` when the batch was started without keeping them.
        turn: the turns played so far (0 to 10).
    """

    _rows: npt.NDArray[np.int8]
    _lengths: npt.NDArray[np.int8]
    _heads: npt.NDArray[np.int16]
    _hands: npt.NDArray[np.int8]
    _penalties: npt.NDArray[np.int16]
    _totals: IntArray
    _piles: BoolArray | None
    _turn: int
    _index: IntArray | None

    def __init__(
        self,
        rows: npt.ArrayLike,
        hands: npt.ArrayLike,
        penalties: npt.ArrayLike | None = None,
        turn: int = 0,
        piles: npt.ArrayLike | None = None,
    ) -> None:
        _check_hand_built(self, rows, hands, penalties, turn, piles)

    @classmethod
    def _make(
        cls, rows: npt.NDArray[np.int8], lengths: npt.NDArray[np.int8],
        heads: npt.NDArray[np.int16], hands: npt.NDArray[np.int8],
        totals: IntArray | None, keep_piles: bool, turn: int = 0,
    ) -> BatchState:
        """The unchecked constructor of the simulator."""
        state = cls.__new__(cls)
        games, count = hands.shape[:2]
        state._rows, state._lengths, state._heads, state._hands = rows, lengths, heads, hands
        state._penalties = np.zeros((games, count), dtype=HEAD)
        state._totals = totals if totals is not None else np.zeros((games, count), np.int64)
        state._piles = np.zeros((games, count, HIGHEST + 1), np.bool_) if keep_piles else None
        state._turn = turn
        state._index = None
        return state

    def _ids(self, local: IntArray) -> IntArray:
        """The indices in the caller's batch of the games at *local* indices of this state."""
        return local if self._index is None else self._index[local]

    @property
    def games(self) -> int:
        """The number of rounds in the batch."""
        return int(self._rows.shape[0])

    @property
    def players(self) -> int:
        """The number of seats at every table of the batch."""
        return int(self._hands.shape[1])

    @property
    def turn(self) -> int:
        """The turns played so far (0 to 10)."""
        return self._turn

    rows = property(lambda self: frozen(padded(self._rows, self._lengths)),
                    doc="``(games, 4, 5)`` the rows, padded with 0.")
    lengths = property(lambda self: frozen(self._lengths), doc="``(games, 4)`` row lengths.")
    row_heads = property(lambda self: frozen(self._heads), doc="``(games, 4)`` row heads.")
    hands = property(lambda self: frozen(self._hands), doc="``(games, players, 10)`` hands.")
    penalties = property(lambda self: frozen(self._penalties), doc="This round's penalties.")
    totals = property(lambda self: frozen(self._totals), doc="The totals before this round.")

    @property
    def piles(self) -> BoolArray | None:
        """``(games, players, 105)`` the bull piles, or ``None`` when they are not kept."""
        if self._piles is None:
            return None
        copy = self._piles.copy()
        copy.setflags(write=False)
        return copy

    @property
    def held(self) -> IntArray:
        """``(games, players, 10 - turn)`` the cards each player still holds."""
        return frozen(self._hands[:, :, : HAND_SIZE - self._turn])

    @property
    def last_cards(self) -> IntArray:
        """``(games, 4)`` the last card of each row."""
        return frozen(last_cards(self._rows, self._lengths))

    def table(self, game: int) -> tuple[tuple[int, ...], ...]:
        """The rows of one game as tuples, like :attr:`take5rules.table.Table.rows`."""
        index = whole(game, "game", 0, self.games - 1)
        return tuple(
            tuple(int(c) for c in self._rows[index, row, : self._lengths[index, row]])
            for row in range(ROWS)
        )

    def pile(self, game: int, seat: int) -> tuple[int, ...]:
        """The cards in one player's bull pile, ascending (needs the piles kept)."""
        index = whole(game, "game", 0, self.games - 1)
        place = whole(seat, "seat", 0, self.players - 1)
        if self._piles is None:
            raise MalformedInputError(
                "argument", N_("this batch was started with keep_piles=False: it keeps no piles")
            )
        return tuple(int(c) for c in np.flatnonzero(self._piles[index, place]))


class Live(NamedTuple):
    """The simulator's own arrays of a :class:`BatchState`, live (not copies): for its modules.

    Attributes: ``rows`` ``(games, 4, 5)`` int8 (stale past each row's length), ``lengths``
    ``(games, 4)`` int8, ``heads`` ``(games, 4)`` int16, ``hands`` ``(games, players, 10)``
    int8, ``penalties`` ``(games, players)`` int16, ``piles`` ``(games, players, 105)`` bool
    or ``None``.
    """

    rows: npt.NDArray[np.int8]
    lengths: npt.NDArray[np.int8]
    heads: npt.NDArray[np.int16]
    hands: npt.NDArray[np.int8]
    penalties: npt.NDArray[np.int16]
    piles: BoolArray | None


def live(state: BatchState) -> Live:
    """The live arrays of *state*, which the simulator (and only it) changes."""
    return Live(state._rows, state._lengths, state._heads, state._hands, state._penalties,
                state._piles)


def game_ids(state: BatchState, local: IntArray) -> IntArray:
    """The indices in the caller's batch of the games at *local* indices of *state*."""
    return state._ids(local)


def next_turn(state: BatchState) -> None:
    """Count one more turn played in every game of *state*."""
    state._turn += 1


def empty_state(
    games: int, count: int, keep_piles: bool, totals: IntArray | None = None
) -> BatchState:
    """A batch of *games* rounds of *count* seats with nothing dealt yet (the simulator's own)."""
    rows = np.zeros((games, ROWS, ROW_LIMIT), dtype=CARD)
    lengths = np.ones((games, ROWS), dtype=CARD)
    heads = np.zeros((games, ROWS), dtype=HEAD)
    hands = np.zeros((games, count, HAND_SIZE), dtype=CARD)
    return BatchState._make(rows, lengths, heads, hands, totals, keep_piles)


def lay_out(
    state: BatchState, lo: int, hands: npt.NDArray[np.int8], starters: npt.NDArray[np.int8]
) -> None:
    """Deal games ``lo`` on of *state*: hands ``(n, players, 10)``, row cards ``(n, 4)``."""
    hi = lo + hands.shape[0]
    state._hands[lo:hi] = hands
    state._rows[lo:hi, :, 0] = starters
    state._heads[lo:hi] = HEADS16[starters]


def drafted_state(
    hands: npt.NDArray[np.int8], starters: npt.NDArray[np.int8], games: IntArray,
    totals: IntArray,
) -> BatchState:
    """A round of the games *games* (indices in the caller's batch) with drafted hands."""
    state = empty_state(games.size, hands.shape[1], False)
    lay_out(state, 0, hands, starters)
    in_batch(state, games, totals[games])
    return state


def in_batch(state: BatchState, games: IntArray, totals: IntArray) -> None:
    """Make *state* the round of the games *games* of a caller's batch, with their *totals*."""
    state._index = games
    state._totals = totals


def padded(rows: npt.NDArray[np.int8], lengths: npt.NDArray[np.int8]) -> npt.NDArray[np.int8]:
    """*rows* with every cell past its row's length set to 0 (the kernel leaves stale cards)."""
    kept: npt.NDArray[np.int8] = np.where(
        np.arange(ROW_LIMIT) < lengths[..., None], rows, 0
    ).astype(CARD)
    return kept


def last_cards(rows: npt.NDArray[np.int8], lengths: npt.NDArray[np.int8]) -> npt.NDArray[np.int8]:
    """``(games, 4)`` the last card of each row of *rows*, ``(games, 4, 5)``."""
    last: npt.NDArray[np.int8] = np.take_along_axis(
        rows, lengths[:, :, None].astype(np.intp) - 1, axis=2
    )[:, :, 0]
    return last


def _check_hand_built(
    state: BatchState, rows: object, hands: object, penalties: object, turn: object,
    piles: object,
) -> None:
    """Check a state built by hand, game by game, with :func:`take5rules.setup.check_deal`."""
    played = whole(turn, "turn", 0, HAND_SIZE - 1)
    hand_array = _integers(hands, "hands", 3)
    games, count, size = hand_array.shape
    whole(games, "games", 1, MOST_GAMES)
    if size != HAND_SIZE or games < 1:
        raise _shape("hands", hand_array.shape, f"(games >= 1, players, {HAND_SIZE})")
    seat_count(count)
    row_array = _integers(rows, "rows", 3)
    if row_array.shape != (games, ROWS, ROW_LIMIT):
        raise _shape("rows", row_array.shape, f"({games}, {ROWS}, {ROW_LIMIT})")
    names = [f"seat {seat}" for seat in range(count)]
    lengths = np.zeros((games, ROWS), dtype=CARD)
    for game in range(games):
        table = [[int(c) for c in row if c != 0] for row in row_array[game]]
        held = {name: hand_array[game, seat, : HAND_SIZE - played].tolist()
                for seat, name in enumerate(names)}
        checked, _ = check_deal(table, held, names, round=game + 1)
        lengths[game] = [len(row) for row in checked.rows]
        for row, cells in zip(checked.rows, row_array[game], strict=True):
            if list(cells[: len(row)]) != list(row) or cells[len(row):].any():
                raise _shape("rows", row_array.shape, "rows padded with 0 at their end")
    penalty_array = np.zeros((games, count), np.int64) if penalties is None else _integers(
        penalties, "penalties", 2
    )
    if penalty_array.shape != (games, count) or (penalty_array < 0).any() or (
        penalty_array > int(HEADS.sum())
    ).any():
        raise _shape("penalties", penalty_array.shape, f"({games}, {count}), 0 to 171 each")
    pile_array: BoolArray | None = None
    if piles is not None:
        pile_array = np.asarray(piles)
        if pile_array.dtype != np.bool_ or pile_array.shape != (games, count, HIGHEST + 1):
            raise _shape("piles", pile_array.shape, f"({games}, {count}, {HIGHEST + 1}) of bool")
        pile_array = pile_array.copy()
    cells = row_array.astype(CARD)
    state._rows, state._lengths = cells, lengths
    state._heads = HEADS16[cells].sum(axis=2, dtype=HEAD)
    state._hands = hand_array.astype(CARD)
    state._penalties = penalty_array.astype(HEAD)
    state._totals = np.zeros((games, count), np.int64)
    state._piles = pile_array
    state._turn = played
    state._index = None


def _integers(value: object, name: str, ndim: int) -> IntArray:
    """*value* as an integer array of *ndim* dimensions, or a clear error naming *name*."""
    array = as_array(value)
    if array.dtype.kind not in "iu" or array.ndim != ndim:
        raise _shape(name, array.shape, f"an integer array of {ndim} dimensions")
    if array.size and ((array < 0).any() or (array > HIGHEST).any()):
        raise _shape(name, array.shape, "whole numbers from 0 to 104")
    return array.astype(np.int64)


def _shape(name: str, shape: tuple[int, ...], expected: str) -> MalformedInputError:
    return MalformedInputError(
        "argument", N_("{name} of a BatchState of shape {shape} is not {expected}"),
        name=name, shape=shape, expected=expected,
    )


@dataclass(frozen=True, eq=False)
class TurnOutcome:
    """What happened to each seat's card in one turn, as ``(games, players)`` arrays.

    Attributes:
        cards: the card each seat played.
        rows: the 0-based row its card went to.
        rule: :data:`LEAST_DIFFERENCE`, :data:`SIXTH_CARD` or :data:`LOW_CARD`.
        taken: the bull heads the seat took with that card.
    """

    cards: IntArray
    rows: IntArray
    rule: IntArray
    taken: IntArray


class _Table:
    """The table part of a view: lazily made read-only ``int64`` copies."""

    _cells: npt.NDArray[np.int8]
    _sizes: npt.NDArray[np.int8]
    _sums: npt.NDArray[np.int16]
    _taken: npt.NDArray[np.int16]
    _before: IntArray

    @cached_property
    def rows(self) -> IntArray:
        """``(n, 4, 5)`` the rows of the games asked about, padded with 0."""
        return frozen(padded(self._cells, self._sizes))

    @cached_property
    def lengths(self) -> IntArray:
        """``(n, 4)`` the number of cards in each row."""
        return frozen(self._sizes)

    @cached_property
    def row_heads(self) -> IntArray:
        """``(n, 4)`` the bull heads of each row."""
        return frozen(self._sums)

    @cached_property
    def last_cards(self) -> IntArray:
        """``(n, 4)`` the last card of each row."""
        return frozen(last_cards(self._cells, self._sizes))

    @cached_property
    def penalties(self) -> IntArray:
        """``(n, players)`` the bull heads each seat has taken this round so far."""
        return frozen(self._taken)

    @cached_property
    def totals(self) -> IntArray:
        """``(n, players)`` each seat's total before this round."""
        return frozen(self._before)


class SeatView(_Table):
    """What one seat may know when it chooses its card, in the games asked about.

    Attributes: ``seat``, ``turn`` (turns played so far), ``games`` (the games' indices in the
    batch), ``hand`` (``(n, 10 - turn)`` the cards it holds), and the table: ``rows``,
    ``lengths``, ``row_heads``, ``last_cards``, ``penalties`` and ``totals``. Every array is a
    read-only copy; other hands are not there.
    """

    def __init__(self, state: BatchState, seat: int, lo: int, hi: int) -> None:
        self.seat, self.turn, self._state, self._lo, self._hi = seat, state.turn, state, lo, hi
        self._cells, self._sizes = state._rows[lo:hi], state._lengths[lo:hi]
        self._sums, self._taken = state._heads[lo:hi], state._penalties[lo:hi]
        self._before = state._totals[lo:hi]

    def __len__(self) -> int:
        return self._hi - self._lo

    @cached_property
    def games(self) -> IntArray:
        """``(n,)`` the index in the batch of each game asked about."""
        return frozen(self._state._ids(np.arange(self._lo, self._hi)))

    @cached_property
    def hand(self) -> IntArray:
        """``(n, 10 - turn)`` the cards this seat holds, in no particular order."""
        return frozen(self._state._hands[self._lo : self._hi, self.seat, : HAND_SIZE - self.turn])


class RowView(_Table):
    """What the players of low cards know when they choose a row to take.

    Attributes: ``games`` (the games' indices in the batch), ``seats`` and ``cards`` (who plays
    which low card), ``turn``, and the table as it is when the card is placed. Every array is
    a read-only copy, one entry per low card, made when it is first read: read a view during
    the call it is given to.
    """

    def __init__(
        self, state: BatchState, lo: int, where: IntArray, seats: IntArray, values: IntArray
    ) -> None:
        self.turn, self._state, self._at = state.turn, state, where + lo
        self._seats, self._values = seats, values

    def __len__(self) -> int:
        return int(self._at.size)

    @cached_property
    def games(self) -> IntArray:
        """``(n,)`` the index in the batch of the game of each low card."""
        return frozen(self._state._ids(self._at))

    @cached_property
    def seats(self) -> IntArray:
        """``(n,)`` the seat that played each low card."""
        return frozen(self._seats)

    @cached_property
    def cards(self) -> IntArray:
        """``(n,)`` the low cards."""
        return frozen(self._values)

    @cached_property
    def _cells(self) -> npt.NDArray[np.int8]:  # type: ignore[override]
        return self._state._rows[self._at]

    @cached_property
    def _sizes(self) -> npt.NDArray[np.int8]:  # type: ignore[override]
        return self._state._lengths[self._at]

    @cached_property
    def _sums(self) -> npt.NDArray[np.int16]:  # type: ignore[override]
        return self._state._heads[self._at]

    @cached_property
    def _taken(self) -> npt.NDArray[np.int16]:  # type: ignore[override]
        return self._state._penalties[self._at]

    @cached_property
    def _before(self) -> IntArray:  # type: ignore[override]
        return self._state._totals[self._at]


#: Chooses the card a seat plays in every game asked about, as a position in ``view.hand``:
#: ``policy(view, rng)`` returns ``(len(view),)`` whole numbers from 0 to ``9 - view.turn``.
CardPolicy = Callable[[SeatView, np.random.Generator], npt.ArrayLike]

#: Chooses the row (0 to 3) each low card of ``view.cards`` takes: ``policy(view, rng)``.
RowPolicy = Callable[[RowView, np.random.Generator], npt.ArrayLike]
