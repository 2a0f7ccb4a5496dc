"""Many independent rounds at once, with numpy: for simulation, statistics and training.

This module plays a batch of ``games`` independent rounds of the same number of players in
lock-step: every array has the batch as its first axis. It is a second, vectorised formulation
of the placement rules of :mod:`take5rules.table` and :mod:`take5rules.turn` (ascending rows,
least difference, sixth card, low card, lowest card first), pinned to them by the differential
test ``tests/test_batch.py``: given the same deals and decisions it yields exactly the same rows,
takes and scores. Bull heads come from :func:`take5rules.cards.bull_heads` and the deal from the
layout of :func:`take5rules.setup.deal`; input is checked once, where it enters (:func:`start`,
:func:`play_turn`), and the loop after that runs unchecked.

Decisions are vectorised too. A *card policy* answers, for one seat, the position in its hand of
the card that seat plays in every game of the batch (the action of a learning agent); a *row
policy* answers, for the low cards being placed, which row their players take, seeing the table
as it is when the card is placed. :func:`random_card`, :func:`lowest_card` and
:func:`cautious_card` mirror the built-in players of :mod:`take5rules.players`;
:func:`cheapest_row` and :func:`random_row` mirror their row choices.

An error about one game of a batch names that game (from 1) as its round, and a seat *k* as the
player ``'seat k'``.

Install it with the extra: ``pip install take5rules[batch]``.

>>> rng = np.random.default_rng(1)
>>> state = deal(rng, games=3, players=4)
>>> scores = play_round(state, [lowest_card] * 4, cheapest_row, rng)
>>> scores.shape, bool((scores == state.penalties).all()), state.turn
((3, 4), True, 10)
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass, field

import numpy as np
import numpy.typing as npt

from ._text import N_
from .cards import HIGHEST, bull_heads, card, cards
from .errors import IllegalMoveError, MalformedInputError, RulesError, Where
from .setup import HAND_SIZE, ROWS, cards_in_play
from .table import ROW_LIMIT
from .variants import Rules, tactics_deck

__all__ = [
    "HEADS",
    "LEAST_DIFFERENCE",
    "LOW_CARD",
    "SIXTH_CARD",
    "BatchState",
    "CardPolicy",
    "RowPolicy",
    "TurnOutcome",
    "cautious_card",
    "cheapest_row",
    "deal",
    "lowest_card",
    "play_games",
    "play_round",
    "play_turn",
    "random_card",
    "random_row",
    "start",
]

#: The bull heads of each card, indexed by the card (index 0, no card, is worth 0).
HEADS: npt.NDArray[np.int64] = np.array([0] + [bull_heads(c) for c in range(1, HIGHEST + 1)])
HEADS.setflags(write=False)

#: Codes of :attr:`TurnOutcome.rule`: which rule placed each card.
LEAST_DIFFERENCE, SIXTH_CARD, LOW_CARD = 0, 1, 2

#: A difference larger than any between two cards: marks the rows a card may not go on.
_NO_ROW = 1 << 10

IntArray = npt.NDArray[np.int64]
BoolArray = npt.NDArray[np.bool_]


@dataclass(eq=False)
class BatchState:
    """A batch of rounds in progress; every array has the games as its first axis.

    The arrays are updated in place by :func:`play_turn`; read them, do not write them.

    Attributes:
        rows: ``(games, 4, 5)`` the cards of each row, oldest first, padded with 0.
        lengths: ``(games, 4)`` how many cards each row holds.
        row_heads: ``(games, 4)`` the bull heads of each row.
        hands: ``(games, players, 10)`` each hand; its first ``10 - turn`` entries are the cards
            still held, in no particular order, the rest are cards already played.
        penalties: ``(games, players)`` the bull heads each player has taken this round.
        piles: ``(games, players, 105)`` whether each card is in each player's bull pile, or
            ``None`` when the batch was started without keeping them (faster; the penalties
            are kept either way).
        turn: the turns played so far (0 to 10).
    """

    rows: IntArray
    lengths: IntArray
    row_heads: IntArray
    hands: IntArray
    penalties: IntArray
    piles: BoolArray | None
    turn: int = 0
    _games: IntArray = field(init=False, repr=False)

    def __post_init__(self) -> None:
        self._games = np.arange(self.rows.shape[0])

    @property
    def games(self) -> int:
        """The number of rounds in the batch."""
        return int(self.rows.shape[0])

    @property
    def players(self) -> int:
        """The number of seats at every table of the batch."""
        return int(self.hands.shape[1])

    @property
    def last_cards(self) -> IntArray:
        """``(games, 4)`` the last card of each row."""
        flat = self.rows.reshape(-1)
        cells = np.arange(0, flat.size, ROW_LIMIT).reshape(self.lengths.shape)
        last: IntArray = flat[cells + self.lengths - 1]
        return last

    @property
    def held(self) -> IntArray:
        """``(games, players, 10 - turn)`` the cards each player still holds."""
        return self.hands[:, :, : HAND_SIZE - self.turn]

    def table(self, game: int) -> tuple[tuple[int, ...], ...]:
        """The rows of one game as tuples, like :attr:`take5rules.table.Table.rows`."""
        return tuple(
            tuple(int(c) for c in self.rows[game, index, : self.lengths[game, index]])
            for index in range(ROWS)
        )

    def pile(self, game: int, seat: int) -> tuple[int, ...]:
        """The cards in one player's bull pile, ascending (needs the piles kept)."""
        if self.piles is None:
            raise ValueError("this batch was started with keep_piles=False")
        return tuple(int(c) for c in np.flatnonzero(self.piles[game, seat]))


#: Chooses the card a seat plays in every game, as a position in ``state.held[:, seat]``:
#: ``policy(state, seat, rng)`` returns ``(games,)`` whole numbers from 0 to ``9 - state.turn``
#: (the action of a learning agent is an index into its hand).
CardPolicy = Callable[[BatchState, int, np.random.Generator], npt.ArrayLike]

#: Chooses the rows taken by low cards, one row index (0 to 3) per low card being placed:
#: ``policy(state, games, seats, cards, rng)`` gets ``(n,)`` arrays of the games where a low card
#: is being placed, the seats that played them and the cards; the table in *state* is the table
#: at that moment.
RowPolicy = Callable[
    [BatchState, IntArray, IntArray, IntArray, np.random.Generator], npt.ArrayLike
]


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


def _check_players(players: object) -> int:
    """The number of seats, checked with :func:`take5rules.variants.tactics_deck`'s rule."""
    tactics_deck(players)  # type: ignore[arg-type]  # raises RulesError for anything but 2..10
    assert isinstance(players, int)
    return players


def start(piles: npt.ArrayLike, players: int, keep_piles: bool = True) -> BatchState:
    """Deal one round per shuffled pile, laid out as :func:`take5rules.setup.deal` deals.

    Seat *k* receives cards ``10k`` to ``10k + 9`` of its pile, the next four cards start the
    rows, the rest stay aside. Each pile must hold distinct cards and enough of them. With
    *keep_piles* false, the cards taken are not recorded, only their bull heads.

    >>> state = start([list(range(104, 0, -1))], players=2)
    >>> state.table(0), int(state.held[0, 0].max())
    (((84,), (83,), (82,), (81,)), 104)
    >>> start([[1, 2, 3]], players=2)
    Traceback (most recent call last):
    ...
    take5rules.errors.RulesError: the deal for 2 players needs 24 cards, not 3 [rule setup.deal]
    """
    count = _check_players(players)
    array = np.asarray(piles)
    if array.ndim != 2 or not np.issubdtype(array.dtype, np.integer):
        raise MalformedInputError(
            "cards.deck", N_("{value!r} is not a list of cards"), value=array.tolist()
        )
    needed = HAND_SIZE * count + ROWS
    if array.shape[1] < needed:
        raise RulesError(
            "setup.deal",
            N_("the deal for {players} players needs {needed} cards, not {count}"),
            count=array.shape[1],
            players=count,
            needed=needed,
        )
    array = array.astype(np.int64)
    bad = (array < 1) | (array > HIGHEST)
    if bad.any():
        game, position = np.argwhere(bad)[0]
        card(int(array[game, position]), Where(round=int(game) + 1))
    ordered = np.sort(array, axis=1)
    repeated = ordered[:, 1:] == ordered[:, :-1]
    if repeated.any():
        game, position = np.argwhere(repeated)[0]
        cards([int(c) for c in array[game]], Where(round=int(game) + 1))
    return _start(array, count, keep_piles)


def _start(array: IntArray, count: int, keep_piles: bool) -> BatchState:
    """The unchecked layout of :func:`start`."""
    games = array.shape[0]
    needed = HAND_SIZE * count + ROWS
    starters = array[:, HAND_SIZE * count : needed]
    rows = np.zeros((games, ROWS, ROW_LIMIT), dtype=np.int64)
    rows[:, :, 0] = starters
    return BatchState(
        rows=rows,
        lengths=np.ones((games, ROWS), dtype=np.int64),
        row_heads=np.ascontiguousarray(HEADS[starters]),
        hands=array[:, : HAND_SIZE * count].reshape(games, count, HAND_SIZE).copy(),
        penalties=np.zeros((games, count), dtype=np.int64),
        piles=np.zeros((games, count, HIGHEST + 1), dtype=np.bool_) if keep_piles else None,
    )


def deal(
    rng: np.random.Generator,
    games: int,
    players: int,
    rules: Rules | None = None,
    keep_piles: bool = True,
) -> BatchState:
    """Shuffle the cards in play under *rules* once per game and deal them with :func:`start`.

    Only the dealt variants (standard, tactics) are dealt; the logic and tournament variants
    draft their hands, which this module does not play.

    >>> state = deal(np.random.default_rng(0), games=2, players=3)
    >>> state.hands.shape, state.rows.shape
    ((2, 3, 10), (2, 4, 5))
    """
    rules = rules if rules is not None else Rules()
    count = _check_players(players)
    if rules.drafted:
        raise RulesError(
            "variants.logic",
            N_("the {variant!r} variant drafts its hands; only dealt rounds can be played "
               "in a batch"),
            variant=rules.variant.value,
        )
    pool = np.asarray(cards_in_play(rules, count), dtype=np.int64)
    shuffled = pool[rng.random((games, pool.size)).argsort(axis=1)]
    return _start(shuffled, count, keep_piles)


def play_turn(
    state: BatchState,
    plays: npt.ArrayLike,
    choose_row: RowPolicy,
    rng: np.random.Generator,
) -> TurnOutcome:
    """Play one turn in every game: *plays* is ``(games, players)``, one card from each hand.

    The cards are placed lowest first (rule ``turn.order``); a low card's player is asked by
    *choose_row* at the moment it is placed. *state* is updated in place.
    """
    played = np.asarray(plays)
    if played.shape != (state.games, state.players):
        raise MalformedInputError(
            "turn.reveal",
            N_("plays of shape {shape}: a turn of a batch takes one card per game and seat, "
               "shape {expected}"),
            shape=played.shape,
            expected=(state.games, state.players),
        )
    if state.turn >= HAND_SIZE:
        raise IllegalMoveError(
            "round.end", N_("the round has already ended after ten turns"),
            where=Where(turn=state.turn + 1),
        )
    held = state.held
    matches = held == played[:, :, None]
    present = matches.any(axis=2)
    if not present.all():
        game, seat = np.argwhere(~present)[0]
        raise IllegalMoveError(
            "turn.reveal",
            N_("card {value} is not in the hand of {player!r}"),
            where=Where(int(game) + 1, state.turn + 1, f"seat {seat}", int(played[game, seat])),
            value=int(played[game, seat]),
            player=f"seat {seat}",
        )
    return _turn(state, played.astype(np.int64), matches.argmax(axis=2), choose_row, rng)


def _turn(
    state: BatchState,
    played: IntArray,
    slots: IntArray,
    choose_row: RowPolicy,
    rng: np.random.Generator,
) -> TurnOutcome:
    """The unchecked kernel of :func:`play_turn`: *slots* are the hand positions played."""
    games = state._games
    count = state.games
    seat_base = games[:, None] * state.players
    # Flat views: one index ``game * 4 + row`` is much faster than a pair of indices.
    first = games * ROWS
    cells = state.rows.reshape(-1)
    rows = state.rows.reshape(-1, ROW_LIMIT)
    lengths = state.lengths.reshape(-1)
    row_heads = state.row_heads.reshape(-1)
    # keys[r, g] = 4 * last card - r: 4 * card - keys is 4 * difference + r, positive exactly
    # on the rows the card may go on; read as unsigned, the least of them is the least
    # difference (its low two bits the row), and a negative one (a lower row) is never least.
    keys = np.ascontiguousarray((4 * state.last_cards - np.arange(ROWS)).T)
    keys_flat = keys.reshape(-1)
    # Lowest card first (rule turn.order): sort card * 16 + seat, then split the two apart.
    sorting = np.sort(played * 16 + np.arange(state.players), axis=1)
    order, ordered = sorting & 15, sorting >> 4
    went = np.empty_like(played)
    rule = np.empty_like(played)
    taken = np.empty_like(played)
    for step in range(state.players):
        value = np.ascontiguousarray(ordered[:, step])
        gaps = (4 * value - keys).view(np.uint64)
        least = np.minimum(np.minimum(gaps[0], gaps[1]), np.minimum(gaps[2], gaps[3]))
        target = (least & np.uint64(3)).view(np.int64)
        low = least.view(np.int64) < 0
        if low.any():
            where = np.flatnonzero(low)
            seats = order[where, step]
            target[where] = np.asarray(
                choose_row(state, where, seats, value[where], rng), dtype=np.int64
            )
        index = first + target
        size = lengths[index]
        take = low | (size == ROW_LIMIT)
        heads = row_heads[index] * take
        if take.any():
            who = np.flatnonzero(take)
            if state.piles is not None:
                # One flat index per card taken; the padding (0) of short rows is reset after.
                base = (who * state.players + order[who, step]) * (HIGHEST + 1)
                piles = state.piles.reshape(-1)
                piles[base[:, None] + rows[index[who]]] = True
                piles[base] = False
            rows[index[who]] = 0
        position = size * ~take
        cells[index * ROW_LIMIT + position] = value
        lengths[index] = position + 1
        row_heads[index] += HEADS[value] - heads
        keys_flat[target * count + games] = 4 * value - target
        went[:, step] = target
        rule[:, step] = take.view(np.int8) + low.view(np.int8)
        taken[:, step] = heads
    # Back from placement order to seat order.
    seat_index = (seat_base + order).reshape(-1)
    for array in (went, rule, taken):
        array.reshape(-1)[seat_index] = array.reshape(-1).copy()
    state.penalties += taken
    # The played card leaves the hand: swap it with the last card still held.
    end = HAND_SIZE - 1 - state.turn
    hands = state.hands.reshape(-1, HAND_SIZE)
    hands[np.arange(hands.shape[0]), slots.reshape(-1)] = hands[:, end]
    hands[:, end] = played.reshape(-1)
    state.turn += 1
    return TurnOutcome(played, went, rule, taken)


def play_round(
    state: BatchState,
    policies: Sequence[CardPolicy],
    choose_row: RowPolicy,
    rng: np.random.Generator,
) -> IntArray:
    """Play the turns left in every game, seat *k* choosing with ``policies[k]``.

    Returns the penalties of the round, ``(games, players)`` (rule ``round.score``).
    """
    if len(policies) != state.players:
        raise RulesError(
            "setup.players",
            N_("the number of card policies is {count}, but there are {players} seats: give one "
               "policy per seat"),
            count=len(policies),
            players=state.players,
        )
    while state.turn < HAND_SIZE:
        slots = np.stack(
            [np.asarray(policy(state, seat, rng)) for seat, policy in enumerate(policies)],
            axis=1,
        )
        left = HAND_SIZE - state.turn
        if (
            slots.shape != (state.games, state.players)
            or not np.issubdtype(slots.dtype, np.integer)
            or not ((slots >= 0) & (slots < left)).all()
        ):
            raise IllegalMoveError(
                "turn.reveal",
                N_("a card policy answers, for each game, a position in the hand from 0 to "
                   "{last}"),
                where=Where(turn=state.turn + 1),
                last=left - 1,
            )
        slots = slots.astype(np.int64)
        positions = np.arange(0, state.hands.size, HAND_SIZE).reshape(slots.shape) + slots
        plays = state.hands.reshape(-1)[positions]
        _turn(state, plays, slots, choose_row, rng)
    return state.penalties.copy()


def play_games(
    rng: np.random.Generator,
    games: int,
    policies: Sequence[CardPolicy],
    choose_row: RowPolicy,
    rules: Rules | None = None,
    keep_piles: bool = False,
) -> tuple[IntArray, IntArray]:
    """Play whole games: rounds until some total reaches the threshold (rule ``game.end``).

    Returns the final totals ``(games, players)`` and the number of rounds each game lasted.
    """
    rules = rules if rules is not None else Rules()
    count = _check_players(len(policies))
    totals = np.zeros((games, count), dtype=np.int64)
    rounds = np.zeros(games, dtype=np.int64)
    active = np.arange(games)
    while active.size:
        state = deal(rng, active.size, count, rules, keep_piles)
        totals[active] += play_round(state, policies, choose_row, rng)
        rounds[active] += 1
        active = active[(totals[active] < rules.threshold).all(axis=1)]
    return totals, rounds


# --- Built-in vectorised decisions, mirroring take5rules.players -------------------------------


def random_card(state: BatchState, seat: int, rng: np.random.Generator) -> IntArray:
    """A card of the hand, uniformly at random (like :class:`~take5rules.players.RandomPlayer`)."""
    slots: IntArray = rng.integers(0, HAND_SIZE - state.turn, state.games)
    return slots


def lowest_card(state: BatchState, seat: int, rng: np.random.Generator) -> IntArray:
    """The lowest card held (like :class:`~take5rules.players.LowestCardPlayer`)."""
    slots: IntArray = state.held[:, seat].argmin(axis=1)
    return slots


def _cheapest(state: BatchState, games: IntArray) -> IntArray:
    """The row with the fewest bull heads, then the fewest cards, then the first."""
    key = state.row_heads[games] * 8 + state.lengths[games]
    rows: IntArray = key.argmin(axis=1)
    return rows


def cheapest_row(
    state: BatchState,
    games: IntArray,
    seats: IntArray,
    low: IntArray,
    rng: np.random.Generator,
) -> IntArray:
    """Take the cheapest row, as :func:`take5rules.players.cheapest_row` chooses it."""
    return _cheapest(state, games)


def random_row(
    state: BatchState,
    games: IntArray,
    seats: IntArray,
    low: IntArray,
    rng: np.random.Generator,
) -> IntArray:
    """Take a row uniformly at random."""
    return rng.integers(0, ROWS, games.size)


def cautious_card(state: BatchState, seat: int, rng: np.random.Generator) -> IntArray:
    """The card of least risk, as :class:`~take5rules.players.CautiousPlayer` judges it.

    For each card held: a low card risks the cheapest row's heads plus 0.5, a sixth card its
    row's heads plus 1, any other card its row's length times the gap, over 400; ties go to the
    lower card.
    """
    games = state._games
    held = state.held[:, seat]
    last = state.last_cards
    difference = held[:, :, None] - last[:, None, :]
    difference[difference <= 0] = _NO_ROW
    target = difference.argmin(axis=2)
    gap = np.take_along_axis(difference, target[:, :, None], axis=2)[:, :, 0]
    low = gap == _NO_ROW
    length = np.take_along_axis(state.lengths, target, axis=1)
    heads = np.take_along_axis(state.row_heads, target, axis=1)
    cheapest = state.row_heads[games, _cheapest(state, games)]
    risk = np.where(
        low,
        cheapest[:, None] + 0.5,
        np.where(length >= ROW_LIMIT, heads + 1.0, length * gap / 400.0),
    )
    # Lexicographic (risk, card): the lowest card among those of least risk.
    best = risk.min(axis=1, keepdims=True)
    slots: IntArray = np.where(risk == best, held, HIGHEST + 1).argmin(axis=1)
    return slots


#: The built-in card policies by the names :data:`take5rules.players.BUILTIN_PLAYERS` uses.
BUILTIN_POLICIES: dict[str, Callable[[BatchState, int, np.random.Generator], IntArray]] = {
    "random": random_card,
    "lowest": lowest_card,
    "cautious": cautious_card,
}
