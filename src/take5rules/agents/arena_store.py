"""Every game's outcome of an arena, kept compactly: columns of small integers in seat order.

As dicts and tuples (each game's totals, its winners, each round's penalties) an outcome took
about 1.35 KB a game of four seats. :class:`Outcomes` keeps them as :class:`array.array`
columns, the seats in the order of :attr:`Outcomes.seats` (the arena's seats), which grow as
the games arrive:

* ``totals``: each game's final totals, *n* a game;
* ``orders``: each game's seating, *n* seat indices a game (the order in which that game
  seated them: the order of its totals and winners, as :func:`take5rules.playing.engine.play_game`
  gives them);
* ``winners``: each game's winners as a bitmask (bit *i* set: seat *i* won);
* ``counts`` and ``starts``: each game's number of rounds, and the index of its first round in
  ``penalties``;
* ``penalties``: every round's penalties, *n* a round, in the order the games arrived (the games
  played by processes or by an executor arrive out of order; ``starts`` finds each).

That is 12 + 5 *n* + 2 *n* *r* bytes a game of *r* rounds: 64 bytes for four seats and four
rounds. A column starts with the narrowest type the engine's values fit in and is widened (to
64 bits) only if a value does not fit.
"""

from __future__ import annotations

from array import array
from collections.abc import Iterator, Mapping, Sequence
from typing import TypeAlias

from take5rules._messages import N_
from take5rules.errors import RulesError

__all__ = ["Outcome", "Outcomes"]

#: A game's outcome as a worker sends it: its number, its seating (seat indices), its totals
#: (in seat order), its winners (a bitmask) and its rounds' penalties (*n* a round, in seat
#: order).
Outcome: TypeAlias = "tuple[int, tuple[int, ...], tuple[int, ...], int, tuple[int, ...]]"

_NOT_AN_OUTCOME = N_("game {game} is not an outcome of the seats {seats}: its totals and its "
                     "rounds' penalties give a whole number to each seat, its winners are seats")

#: The most seats a winners bitmask holds.
_MOST_SEATS = 16


class Outcomes:
    """The outcomes of *games* games between *seats*, filled by :meth:`record` in any order.

    >>> store = Outcomes(("ana", "bob"), 1)
    >>> store.record((0, (1, 0), (30, 70), 0b01, (10, 30, 20, 40)))
    >>> store.game_totals(0), store.game_winners(0), store.game_rounds(0)
    ({'bob': 70, 'ana': 30}, ('ana',), ({'bob': 30, 'ana': 10}, {'bob': 40, 'ana': 20}))
    """

    __slots__ = ("counts", "games", "has_rounds", "orders", "penalties", "seats", "starts",
                 "totals", "winners")

    def __init__(self, seats: Sequence[str], games: int) -> None:
        self.seats = tuple(seats)
        self.games = games
        self.totals: array[int] = array("i")
        self.orders: array[int] = array("B")
        self.winners: array[int] = array("H")
        self.counts: array[int] = array("H")
        self.starts: array[int] = array("q")
        self.penalties: array[int] = array("H")
        self.has_rounds = False

    def _room(self, game: int) -> None:
        """Grow the columns of one value a game to hold game *game* (an eighth at a time)."""
        held = len(self.winners)
        if game < held:
            return
        more = min(self.games, max(game + 1, held + held // 8 + 64)) - held
        count = len(self.seats)
        for name in ("totals", "orders"):
            column: array[int] = getattr(self, name)
            column.extend(array(column.typecode, [0]) * (more * count))
        for column in (self.winners, self.counts, self.starts):
            column.extend(array(column.typecode, [0]) * more)

    def __repr__(self) -> str:
        return f"Outcomes({self.seats!r}, {self.games})"

    def __eq__(self, other: object) -> bool:
        if not isinstance(other, Outcomes):
            return NotImplemented
        return (self.seats == other.seats and self.games == other.games
                and self.has_rounds == other.has_rounds and self.totals == other.totals
                and self.orders == other.orders and self.winners == other.winners
                and self.counts == other.counts
                and all(self.penalties_of(game) == other.penalties_of(game)
                        for game in range(self.games)))

    __hash__ = None  # type: ignore[assignment]

    def _put(self, name: str, index: int, values: Sequence[int]) -> None:
        column: array[int] = getattr(self, name)
        try:
            column[index:index + len(values)] = array(column.typecode, values)
        except OverflowError:
            column = array("q", column)
            setattr(self, name, column)
            column[index:index + len(values)] = array("q", values)

    def _append(self, values: Sequence[int]) -> None:
        try:
            self.penalties.extend(array(self.penalties.typecode, values))
        except OverflowError:
            self.penalties = array("q", self.penalties)
            self.penalties.extend(values)

    def record(self, outcome: Outcome) -> None:
        """Keep *outcome* (:data:`Outcome`) at its game's index."""
        game, order, totals, winners, penalties = outcome
        count = len(self.seats)
        self._room(game)
        self._put("totals", game * count, totals)
        self.orders[game * count:(game + 1) * count] = array("B", order)
        self.winners[game] = winners
        self.starts[game] = len(self.penalties) // count
        self._put("counts", game, (len(penalties) // count,))
        self._append(penalties)
        self.has_rounds = self.has_rounds or bool(penalties)

    def penalties_of(self, game: int) -> array[int]:
        """Game *game*'s rounds' penalties, *n* a round, in seat order."""
        count = len(self.seats)
        start = self.starts[game] * count
        return self.penalties[start:start + self.counts[game] * count]

    def rows(self, game: int) -> Iterator[array[int]]:
        """Each round's penalties of game *game*, in seat order."""
        count = len(self.seats)
        first = self.starts[game]
        for row in range(first, first + self.counts[game]):
            yield self.penalties[row * count:(row + 1) * count]

    def _order(self, game: int) -> array[int]:
        count = len(self.seats)
        return self.orders[game * count:(game + 1) * count]

    def game_totals(self, game: int) -> dict[str, int]:
        """Game *game*'s final totals, in the order that game seated the players."""
        base = game * len(self.seats)
        return {self.seats[seat]: self.totals[base + seat] for seat in self._order(game)}

    def game_winners(self, game: int) -> tuple[str, ...]:
        """Game *game*'s winners, in the order that game seated them."""
        mask = self.winners[game]
        return tuple(self.seats[seat] for seat in self._order(game) if mask >> seat & 1)

    def game_rounds(self, game: int) -> tuple[dict[str, int], ...]:
        """Game *game*'s rounds' penalties, each in the order that game seated the players."""
        order = self._order(game)
        return tuple({self.seats[seat]: row[seat] for seat in order} for row in self.rows(game))

    @classmethod
    def of(cls, seats: Sequence[str], totals: Sequence[Mapping[str, int]],
           winners: Sequence[Sequence[str]],
           rounds: Sequence[Sequence[Mapping[str, int]]]) -> Outcomes:
        """The store of outcomes given as dicts and tuples (``rounds`` may be empty).

        The seats are those of the first game's totals (*seats* when there is no game).
        """
        game, names = 0, tuple(seats)
        try:
            names = tuple(totals[0]) if len(totals) else names
            index = {name: seat for seat, name in enumerate(names)}
            store = cls(names, len(totals))
            if not 0 < len(names) <= _MOST_SEATS or len(winners) != len(totals) or (
                    len(rounds) and len(rounds) != len(totals)):
                raise _NotAnOutcomeError
            for game, game_totals in enumerate(totals):
                store.record(_outcome(game, index, game_totals, winners[game],
                                      rounds[game] if len(rounds) else ()))
        except (_NotAnOutcomeError, AttributeError, IndexError, KeyError, OverflowError, TypeError,
                ValueError):
            raise RulesError("argument", _NOT_AN_OUTCOME, game=game + 1,
                             seats=", ".join(map(str, names))) from None
        return store


class _NotAnOutcomeError(Exception):
    """A game given as dicts and tuples that is not an outcome of the seats (never escapes)."""


def _outcome(game: int, index: Mapping[str, int], totals: Mapping[str, int],
             winners: Sequence[str], rounds: Sequence[Mapping[str, int]]) -> Outcome:
    """The :data:`Outcome` of one game given as dicts."""
    order = tuple(index[name] for name in totals)
    if len(order) != len(index) or isinstance(winners, str) or any(
            len(penalties) != len(index) for penalties in rounds):
        raise _NotAnOutcomeError
    values = [totals[name] for name in index]
    values += [penalties[name] for penalties in rounds for name in index]
    if any(isinstance(value, bool) or not isinstance(value, int) for value in values):
        raise _NotAnOutcomeError
    mask = 0
    for name in winners:
        mask |= 1 << index[name]
    return (game, order, tuple(values[:len(index)]), mask, tuple(values[len(index):]))
