"""Dealing and playing a batch: rounds, whole games, the logic draft's rounds, the tournament.

Private to :mod:`take5rules.agents.batch`. Cards are placed by :mod:`.kernel`, the policies
asked between its calls. The work is done a block of games at a time
(:data:`BLOCK`), so that the temporaries of every step stay in the processor's cache and the
memory in flight stays a few hundred bytes a game at any batch size.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import NamedTuple

import numpy as np
import numpy.typing as npt

from take5rules._messages import N_
from take5rules.agents.arguments import checked_threshold
from take5rules.agents.batch.arrays import (
    CARD,
    HAND_SIZE,
    HEAD,
    MOST_GAMES,
    ROWS,
    BatchState,
    CardPolicy,
    IntArray,
    RowPolicy,
    RowView,
    SeatView,
    TurnOutcome,
    answer,
    as_array,
    checked_piles,
    checked_rules,
    drafted_state,
    empty_state,
    frozen,
    game_ids,
    generator,
    in_batch,
    lay_out,
    live,
    next_turn,
    seat_count,
    short,
    whole,
)
from take5rules.agents.batch.drafts import DraftPolicy, draft
from take5rules.agents.batch.placement import UNASKED, WAITING, place, scratch
from take5rules.errors import IllegalMoveError, MalformedInputError, RulesError, Where
from take5rules.setup import cards_in_play
from take5rules.table import ROW_LIMIT
from take5rules.variants import Rules, Variant

#: Games handled together by one pass of the kernel.
BLOCK = 1 << 14
#: Games shuffled together: the deal's temporaries (about 600 bytes a game) stay within about
#: 150 KB, so that even a batch of 1,000 games keeps under 1 KB a game in flight.
_DEAL_BLOCK = 1 << 8

#: ``dealer(games, number)``: the shuffled piles of round *number* for the games (indices in
#: the batch) still playing, one pile a game, dealt as :func:`start` deals them.
Dealer = Callable[[IntArray, int], npt.ArrayLike]


class GamesResult(NamedTuple):
    """What :func:`play_games` returns, as ``(games, ...)`` arrays.

    Attributes:
        totals: ``(games, players)`` each player's final total (rule ``game.totals``).
        rounds: ``(games,)`` how many rounds each game lasted.
        winners: ``(games, players)`` whether each player holds the lowest total
            (rule ``game.winners``: ties win together).
    """

    totals: IntArray
    rounds: IntArray
    winners: npt.NDArray[np.bool_]


def _blocks(games: int) -> range:
    return range(0, games, BLOCK)


def start(
    piles: npt.ArrayLike, players: int, keep_piles: bool = True, rules: Rules | None = None
) -> BatchState:
    """Deal one round per shuffled pile, laid out as :func:`take5rules.setup.deal` deals.

    Seat *k* receives cards ``10k`` to ``10k + 9`` of its pile, the next four cards start the
    rows, the rest stay aside. Each pile must hold distinct cards and enough of them; a pile
    that does not is refused by :func:`take5rules.setup.check_deal`, naming its game (from 1)
    as the round. With *rules* (a reduced deck), every card dealt must be in play. With
    *keep_piles* false, the cards taken are not recorded, only their bull heads.

    >>> state = start([list(range(104, 0, -1))], players=2)
    >>> state.table(0), int(state.held[0, 0].max())
    (((84,), (83,), (82,), (81,)), 104)
    >>> start([[1, 2, 3]], players=2)
    Traceback (most recent call last):
    ...
    take5rules.errors.RulesError: the deal for 2 players needs 24 cards, not 3 [rule setup.deal]
    """
    rules = checked_rules(rules)
    count = seat_count(players, rules)
    array = checked_piles(piles, count, rules)
    state = empty_state(array.shape[0], count, keep_piles)
    _lay_piles(array.astype(CARD), count, state, 0)
    return state


def _lay_piles(array: npt.NDArray[np.int8], count: int, state: BatchState, lo: int) -> None:
    """Lay out shuffled piles as :func:`take5rules.setup.deal` does, into games lo.. of state."""
    dealt = HAND_SIZE * count
    hands = array[:, :dealt].reshape(-1, count, HAND_SIZE)
    lay_out(state, lo, hands, array[:, dealt : dealt + ROWS])


def _shuffle(
    rng: np.random.Generator, pool: npt.NDArray[np.int8], games: int, needed: int
) -> npt.NDArray[np.int8]:
    """The first *needed* cards of *games* independent uniform shuffles of *pool*.

    Each card gets 25 random bits above its 7 bits of value, and each game's 32-bit keys are
    sorted (one vectorised sort, no argsort). A game where two cards drew the same random bits
    is drawn again, so every order is exactly equally likely.
    """
    size = pool.size
    keys = np.empty((games, needed), dtype=np.uint32)
    redo = np.arange(games)
    high_bits, card_bits = np.uint32(~_CARD_BITS & 0xFFFFFFFF), pool.astype(np.uint32)
    while redo.size:
        raw = rng.bit_generator.random_raw((redo.size, (size + 1) // 2)).view(np.uint32)
        fresh = raw[:, :size]
        np.bitwise_and(fresh, high_bits, out=fresh)
        np.bitwise_or(fresh, card_bits, out=fresh)
        fresh.sort(axis=1)
        keys[redo] = fresh[:, :needed]
        # Two equal random parts in the first places would order their cards by value: such
        # a game (about one in 6,000) is drawn again.
        end = min(needed + 1, size)
        tied = (fresh[:, 1:end] ^ fresh[:, : end - 1]) <= _CARD_BITS
        redo = redo[tied.any(axis=1)]
    return (keys & np.uint32(_CARD_BITS)).astype(CARD)


#: The low bits of a shuffling key that hold the card (1 to 104 < 128).
_CARD_BITS = 127


def deal(
    rng: np.random.Generator,
    games: int,
    players: int,
    rules: Rules | None = None,
    keep_piles: bool = True,
) -> BatchState:
    """Shuffle the cards in play under *rules* once per game and deal them as :func:`start`.

    The logic and tournament variants draft their hands: play them with :func:`play_games`.

    >>> state = deal(np.random.default_rng(0), games=2, players=3)
    >>> state.hands.shape, state.rows.shape
    ((2, 3, 10), (2, 4, 5))
    """
    rng = generator(rng)
    games = whole(games, "games", 1, MOST_GAMES)
    rules = checked_rules(rules)
    count = seat_count(players, rules)
    if rules.drafted:
        raise RulesError(
            "variants.logic",
            N_("the {variant!r} variant drafts its hands: play it in a batch with play_games"),
            variant=rules.variant.value,
        )
    return _dealt(rng, games, count, rules, keep_piles, None)


def _dealt(
    rng: np.random.Generator, games: int, count: int, rules: Rules, keep_piles: bool,
    totals: IntArray | None,
) -> BatchState:
    pool = np.asarray(cards_in_play(rules, count), dtype=CARD)
    state = empty_state(games, count, keep_piles, totals)
    needed = HAND_SIZE * count + ROWS
    for lo in range(0, games, _DEAL_BLOCK):
        size = min(_DEAL_BLOCK, games - lo)
        _lay_piles(_shuffle(rng, pool, size, needed), count, state, lo)
    return state


def play_turn(
    state: BatchState, plays: npt.ArrayLike, choose_row: RowPolicy, rng: np.random.Generator
) -> TurnOutcome:
    """Play one turn in every game: *plays* is ``(games, players)``, one card from each hand.

    The cards are placed lowest first (rule ``turn.order``); a low card's player is asked by
    *choose_row* at the moment it is placed, and its answer is checked (rule
    ``table.low-card``). *state* is updated in place; a turn refused part-way leaves it as it
    was before the turn.
    """
    _check_state(state)
    rng = generator(rng)
    played = _plays(state, plays)
    if state.turn >= HAND_SIZE:
        raise IllegalMoveError(
            "round.end", N_("the round has already ended after ten turns"),
            where=Where(turn=state.turn + 1),
        )
    held = live(state).hands[:, :, : HAND_SIZE - state.turn]
    matches = held == played[:, :, None]
    present = matches.any(axis=2)
    if not present.all():
        game, seat = (int(i) for i in np.argwhere(~present)[0])
        value = int(played[game, seat])
        raise IllegalMoveError(
            "turn.reveal",
            N_("game {game} of the batch: card {value} is not in the hand of {player!r}"),
            where=Where(turn=state.turn + 1, player=f"seat {seat}", card=value),
            game=int(game_ids(state, np.array([game]))[0]), value=value, player=f"seat {seat}",
        )
    slots = matches.argmax(axis=2)
    return _turn(state, played, slots, choose_row, rng, outcome=True)


def _check_state(state: object) -> None:
    if not isinstance(state, BatchState) or not hasattr(state, "_turn"):
        raise MalformedInputError(
            "argument", N_("state is {value!r}: it must be a BatchState"), value=short(state)
        )


def _plays(state: BatchState, plays: object) -> IntArray:
    played = as_array(plays)
    if played.shape != (state.games, state.players) or played.dtype.kind not in "iu":
        raise MalformedInputError(
            "turn.reveal",
            N_("plays of shape {shape}: a turn of a batch takes one card per game and seat, "
               "shape {expected}"),
            shape=played.shape, expected=(state.games, state.players),
        )
    return played.astype(np.int64)


class _Buffers:
    """The batch-sized arrays of a turn, allocated once for a whole round and reused.

    Fresh arrays of a million games each turn would be fresh pages each turn: the page faults
    would cost more than the work.
    """

    def __init__(self, state: BatchState) -> None:
        games, count = state.games, state.players
        arrays = live(state)
        self.rows, self.lengths = np.empty_like(arrays.rows), np.empty_like(arrays.lengths)
        self.heads = np.empty_like(arrays.heads)
        self.taken = np.empty((games, count), dtype=HEAD)
        self.slots = np.empty((games, count), dtype=np.int64)
        #: Where each hand of a block starts in the block's flat hands.
        self.starts = np.arange(min(games, BLOCK) * count) * HAND_SIZE


def _turn(
    state: BatchState, played: IntArray, slots: IntArray, choose_row: RowPolicy,
    rng: np.random.Generator, outcome: bool, buffers: _Buffers | None = None,
) -> TurnOutcome:
    """One turn in every game, block by block, placed by the kernel; all or nothing.

    The table of every block is saved first; if a row policy's answer is refused, every block
    placed so far is put back and nothing else has changed (hands, penalties and piles are
    written only once every block is placed).
    """
    games, count = state.games, state.players
    buffers = buffers if buffers is not None else _Buffers(state)
    saved = (buffers.rows, buffers.lengths, buffers.heads)
    arrays = live(state)
    np.copyto(buffers.rows, arrays.rows)
    np.copyto(buffers.lengths, arrays.lengths)
    np.copyto(buffers.heads, arrays.heads)
    taken = buffers.taken
    went = rule = _NOTHING
    if outcome:
        went, rule = np.empty((games, count), np.int64), np.empty((games, count), np.int64)
    pile_cells: list[IntArray] = []
    try:
        for lo in _blocks(games):
            hi = min(lo + BLOCK, games)
            _place(state, lo, hi, played[lo:hi], choose_row, rng, taken[lo:hi],
                   went[lo:hi] if outcome else None, rule[lo:hi] if outcome else None,
                   pile_cells if arrays.piles is not None else None)
    except BaseException:
        arrays.rows[...], arrays.lengths[...], arrays.heads[...] = saved
        raise
    arrays.penalties[...] += taken
    if arrays.piles is not None and pile_cells:
        arrays.piles.reshape(-1)[np.concatenate(pile_cells)] = True
    # The played card leaves the hand: swap it with the last card still held (block by block,
    # so that the index arrays stay small).
    end = HAND_SIZE - 1 - state.turn
    for lo in _blocks(games):
        hi = min(lo + BLOCK, games)
        hands = arrays.hands[lo:hi].reshape(-1)
        starts = buffers.starts[: (hi - lo) * count]
        at, last = starts + slots[lo:hi].reshape(-1), starts + end
        hands[at] = hands[last]
        hands[last] = played[lo:hi].reshape(-1)
    next_turn(state)
    if not outcome:
        return _NO_OUTCOME
    return TurnOutcome(frozen(played), frozen(went), frozen(rule), frozen(taken))


#: What a turn played without its outcome returns (``play_round`` does not keep it).
_NO_OUTCOME = TurnOutcome(*(frozen(np.empty((0, 0))) for _ in range(4)))
#: An empty array: the kernel's "not asked for" (outcome, piles).
_NOTHING = np.empty((0, 0), np.int64)


def _place(
    state: BatchState, lo: int, hi: int, played: IntArray, choose_row: RowPolicy,
    rng: np.random.Generator, taken: npt.NDArray[np.int16], went: IntArray | None,
    rule: IntArray | None, pile_cells: list[IntArray] | None,
) -> None:
    """Place one turn's cards in games lo..hi with :func:`.kernel.place_turn`.

    The games whose lowest card is low wait in a first call; their players' rows are asked of
    *choose_row* (the table as it is when that card is placed: untouched yet), checked, and
    placed by a second call.
    """
    size, count = hi - lo, state.players
    arrays = live(state)
    cells = arrays.rows[lo:hi].reshape(-1)
    lengths = arrays.lengths[lo:hi].reshape(-1)
    heads = arrays.heads[lo:hi].reshape(-1)
    went_flat = _FLAT if went is None else went.reshape(-1)
    rule_flat = _FLAT if rule is None else rule.reshape(-1)
    piles = _FLAT if pile_cells is None else np.empty(size * count * ROW_LIMIT, np.int64)
    filled = np.zeros(1, np.int64)
    rows = np.full(size, UNASKED, np.int64)
    keys, marks = scratch(size, count)
    table = (cells, lengths, heads, np.arange(size, dtype=np.int64), played, rows, keys, marks)
    outputs = (taken.reshape(-1), went_flat, rule_flat, piles, filled, lo)
    if place(*table, False, *outputs):
        where = np.flatnonzero(rows == WAITING)
        lowest = keys[0, where].astype(np.int64)  # each game's lowest card * 16 + its seat
        seats = lowest & 15
        view = RowView(state, lo, where, seats, lowest >> 4)
        rows[where] = answer(
            choose_row(view, rng), where.size, 0, ROWS - 1, "table.low-card",
            game_ids(state, where + lo), seats, state.turn,
        )
        place(*table, True, *outputs)
    if pile_cells is not None and filled[0]:
        pile_cells.append(piles[: filled[0]].copy())


#: An empty flat array: what the kernel gets for an output not asked for.
_FLAT = np.empty(0, np.int64)


def play_round(
    state: BatchState,
    policies: Sequence[CardPolicy],
    choose_row: RowPolicy,
    rng: np.random.Generator,
) -> IntArray:
    """Play the turns left in every game, seat *k* choosing with ``policies[k]``.

    Each answer is checked (rules ``turn.reveal``, ``table.low-card``), naming the game, the
    seat and the value. Returns the penalties of the round, ``(games, players)``
    (rule ``round.score``).
    """
    _check_state(state)
    rng = generator(rng)
    _check_policies(policies, state.players)
    buffers = _Buffers(state)
    plays = np.empty((state.games, state.players), dtype=np.int64)
    hands = live(state).hands
    while state.turn < HAND_SIZE:
        slots = choose_cards(state, policies, rng, buffers.slots)
        for lo in _blocks(state.games):
            hi = min(lo + BLOCK, state.games)
            at = buffers.starts[: (hi - lo) * state.players] + slots[lo:hi].reshape(-1)
            plays[lo:hi] = hands[lo:hi].reshape(-1)[at].reshape(hi - lo, state.players)
        _turn(state, plays, slots, choose_row, rng, outcome=False, buffers=buffers)
    penalties: IntArray = state.penalties
    return penalties


def choose_cards(
    state: BatchState, policies: Sequence[CardPolicy], rng: np.random.Generator,
    slots: IntArray | None = None,
) -> IntArray:
    """Ask every seat's policy for its card, block by block; the checked hand positions."""
    games, count = state.games, state.players
    left = HAND_SIZE - state.turn
    slots = slots if slots is not None else np.empty((games, count), dtype=np.int64)
    for lo in _blocks(games):
        hi = min(lo + BLOCK, games)
        ids = game_ids(state, np.arange(lo, hi))
        for seat, policy in enumerate(policies):
            view = SeatView(state, seat, lo, hi)
            slots[lo:hi, seat] = answer(
                policy(view, rng), hi - lo, 0, left - 1, "turn.reveal", ids, seat, state.turn,
            )
    return slots


def _check_policies(policies: object, count: int) -> None:
    if not isinstance(policies, Sequence) or isinstance(policies, str | bytes):
        raise MalformedInputError(
            "argument", N_("the policies are {value!r}: give a list of one policy per seat"),
            value=short(policies),
        )
    if len(policies) != count:
        raise RulesError(
            "setup.players",
            N_("the number of policies is {count}, but there are {players} seats: give one "
               "policy per seat"),
            count=len(policies), players=count,
        )
    for seat, policy in enumerate(policies):
        if not callable(policy):
            raise MalformedInputError(
                "argument", N_("the policy of {player!r} is {value!r}, not a function"),
                player=f"seat {seat}", value=short(policy),
            )


def play_games(
    rng: np.random.Generator,
    games: int,
    policies: Sequence[CardPolicy],
    choose_row: RowPolicy,
    rules: Rules | None = None,
    keep_piles: bool = False,
    *,
    drafts: Sequence[object] | None = None,
    dealer: Dealer | None = None,
) -> GamesResult:
    """Play whole games of any variant; return the totals, the rounds and the winners.

    A game ends after the round in which some total reaches the threshold (rule
    ``game.end``); a tournament plays one round per player with the drafted hands passed to
    the left (``variants.tournament``). The logic and tournament variants draft their hands
    with *drafts*, one draft policy per seat (see :func:`take5rules.agents.batch.lowest_pick`).
    *dealer*, if given, supplies the shuffled piles of each round instead of *rng*.

    Games are bounded as ``take5rules play`` bounds them: a threshold above
    :data:`take5rules.agents.arguments.MAX_THRESHOLD` (1,000) is refused (rule
    ``variants.threshold``), so that every game ends within
    :data:`~take5rules.agents.arguments.MAX_ROUNDS` rounds (the highest total grows by at
    least two bull heads a round).
    """
    rng = generator(rng)
    games = whole(games, "games", 1, MOST_GAMES)
    rules = checked_rules(rules)
    checked_threshold(rules.threshold)
    count = seat_count(len(policies) if isinstance(policies, Sequence) else policies, rules)
    _check_policies(policies, count)
    if rules.drafted:
        _check_policies(drafts, count)
    totals = np.zeros((games, count), dtype=np.int64)
    rounds = np.zeros(games, dtype=np.int64)
    for lo in _blocks(games):
        hi = min(lo + BLOCK, games)
        if rules.variant is Variant.TOURNAMENT:
            _tournament(rng, lo, hi, policies, choose_row, drafts, totals, rounds)  # type: ignore[arg-type]
            continue
        active = np.arange(lo, hi)
        while active.size:
            number = int(rounds[active[0]]) + 1
            if rules.drafted:
                hands, starters = draft(rng, active, count, drafts, totals)  # type: ignore[arg-type]
                state = drafted_state(hands, starters, active, totals)
            elif dealer is not None:
                state = start(dealer(frozen(active), number), count, keep_piles, rules)
                if state.games != active.size:
                    raise MalformedInputError(
                        "argument",
                        N_("the number of piles the dealer gave is {count}, but the number of "
                           "games is {games}: one pile per game"),
                        count=state.games, games=active.size,
                    )
            else:
                state = _dealt(rng, active.size, count, rules, keep_piles, None)
            in_batch(state, active, totals[active])
            totals[active] += play_round(state, policies, choose_row, rng)
            rounds[active] += 1
            active = active[~ended(totals[active], rules.threshold)]
    winners = totals == totals.min(axis=1, keepdims=True)
    return GamesResult(frozen(totals), frozen(rounds), _readonly(winners))


def _tournament(
    rng: np.random.Generator, lo: int, hi: int, policies: Sequence[CardPolicy],
    choose_row: RowPolicy, drafts: Sequence[DraftPolicy], totals: IntArray, rounds: IntArray,
) -> None:
    """Games lo..hi of a tournament: one draft, then one round per player, hands passed left."""
    games = np.arange(lo, hi)
    count = len(policies)
    sheets, starters = draft(rng, games, count, drafts, totals)
    for game in range(count):
        # Seat s holds the sheet of seat s - game (variants.tournament_hands): a roll.
        state = drafted_state(np.roll(sheets, game, axis=1), starters, games, totals)
        totals[games] += play_round(state, policies, choose_row, rng)
        rounds[games] += 1


def ended(totals: IntArray, threshold: int) -> npt.NDArray[np.bool_]:
    """Whether each game is over: some total has reached *threshold* (rule ``game.end``)."""
    ended: npt.NDArray[np.bool_] = np.asarray((totals >= threshold).any(axis=1))
    return ended


def _readonly(array: npt.NDArray[np.bool_]) -> npt.NDArray[np.bool_]:
    array.setflags(write=False)
    return array


__all__ = ["BLOCK", "GamesResult", "deal", "play_games", "play_round", "play_turn", "start"]
