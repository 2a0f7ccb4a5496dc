"""A vectorised environment in the style of Pgx: ``init`` and ``step`` on a batch of games.

Every game of the batch is a whole game of any variant, played one decision at a time: the
acting seat (``current_player``) answers with one action of the same ``Discrete(109)`` space as
:mod:`take5rules.agents.pettingzoo_env`: 0 to 103 play (or draft) the card *action + 1*, 104 to 107
take row
*action - 104* for a low card, 108 passes (a game that is over). The cards of a turn are chosen
seat after seat, each seat seeing only its own choice, which is the sequential equivalent of
choosing them together; then they are placed lowest first, and a low card's player is asked for
its row when that card is placed.

The state is functional, as in Pgx: :func:`step` returns a new :class:`State` and leaves the one
it is given as it was. Its arrays have the batch as their first axis: ``observation`` (what
``current_player`` may know: the one vector of :mod:`take5rules.agents.encoding`, the same
as the PettingZoo environment's for the same position), ``legal_action_mask``, ``rewards``
(each seat's reward for the last step: minus the bull heads it took), ``terminated``,
``truncated`` and ``step_count``. Deals are drawn from ``seed``, the game's index and the round,
so a state always deals the same cards. An illegal action raises
:class:`~take5rules.errors.IllegalMoveError` naming the game, the seat and the rule, or, with
``illegal_action="penalize"``, ends that game with a reward of minus the threshold for the seat
that made it (Pgx's rule: the offender loses).

>>> state = init(seed=1, batch=3, players=4)
>>> state.legal_action_mask.shape, state.observation.shape, state.current_player.tolist()
((3, 109), (3, 489), [0, 0, 0])
>>> while not state.terminated.all():
...     state = step(state, state.legal_action_mask.argmax(axis=1))
>>> bool((-state.returns == state.totals).all()), bool((state.totals.max(axis=1) >= 66).all())
(True, True)
"""

from __future__ import annotations

from dataclasses import dataclass, replace
from typing import Any

import numpy as np
import numpy.typing as npt

from take5rules._messages import N_
from take5rules.agents.arguments import checked_threshold
from take5rules.agents.batch.arrays import (
    HAND_SIZE,
    HEADS16,
    HIGHEST,
    MOST_GAMES,
    ROWS,
    IntArray,
    answer,
    checked_piles,
    checked_rules,
    frozen,
    seat_count,
    short,
    whole,
)
from take5rules.agents.batch.placement import UNASKED, WAITING, place, scratch
from take5rules.agents.batch.simulator import Dealer, ended
from take5rules.agents.encoding import ACTIONS, PASS, ROW_ACTIONS, BatchView, encode_batch
from take5rules.errors import IllegalMoveError, MalformedInputError, Where
from take5rules.setup import cards_in_play
from take5rules.table import ROW_LIMIT
from take5rules.variants import Rules, Variant

__all__ = ["ACTIONS", "PASS", "ROW_ACTIONS", "State", "init", "observe", "step"]

#: Phases of a game.
DRAFT, CARD, ROW, OVER = 0, 1, 2, 3
_CARDS = HIGHEST + 1

BoolArray = npt.NDArray[np.bool_]


@dataclass(frozen=True, eq=False)
class State:
    """A batch of games in progress (see the module's documentation for the public fields)."""

    current_player: IntArray
    legal_action_mask: BoolArray
    rewards: npt.NDArray[np.float32]
    returns: npt.NDArray[np.float32]
    terminated: BoolArray
    truncated: BoolArray
    step_count: IntArray
    totals: IntArray
    rounds: IntArray
    phase: IntArray
    observation: npt.NDArray[np.float32]
    # Private: everything hidden from some seat.
    _held: BoolArray        # (B, P, 105) the cards each seat holds
    _cells: npt.NDArray[np.int8]     # (B, 4, 5) the rows, oldest first (stale past the end)
    _lengths: npt.NDArray[np.int8]   # (B, 4)
    _heads: npt.NDArray[np.int16]    # (B, 4) the bull heads of each row
    _chosen: IntArray       # (B, P) the card each seat chose this turn, 0 before
    _turn: IntArray         # (B,) turns played this round
    _penalties: IntArray    # (B, P) this round
    _pool: BoolArray        # (B, 105) the face-up cards left to draft
    _picks: IntArray        # (B,) picks made in this draft
    _sheets: BoolArray      # (B, P, 105) the tournament's drafted hands
    _starters: IntArray     # (B, 4) the tournament's row cards
    _seen: BoolArray        # (B, 105) the cards revealed this round (public)
    _rules: Rules
    _seed: int
    _dealer: Dealer | None
    _illegal: str


def _copy(state: State, **changes: Any) -> State:
    return replace(state, **changes)


def init(
    seed: int,
    batch: int,
    players: int,
    rules: Rules | None = None,
    *,
    dealer: Dealer | None = None,
    illegal_action: str = "raise",
) -> State:
    """A batch of *batch* new games of *players* seats under *rules* (Pgx's ``init``).

    A threshold above :data:`take5rules.agents.arguments.MAX_THRESHOLD` is refused (rule
    ``variants.threshold``), as ``take5rules play`` refuses it, so that every game ends.
    """
    seed = whole(seed, "seed", 0)
    size = whole(batch, "batch", 1, MOST_GAMES)
    rules = checked_rules(rules)
    checked_threshold(rules.threshold)
    count = seat_count(players, rules)
    if illegal_action not in ("raise", "penalize"):
        raise MalformedInputError(
            "argument",
            N_("illegal_action is {value!r}: it must be 'raise' or 'penalize'"),
            value=short(illegal_action),
        )
    zeros = np.zeros((size, count), dtype=np.int64)
    state = State(
        current_player=np.zeros(size, np.int64),
        legal_action_mask=np.zeros((size, ACTIONS), np.bool_),
        rewards=np.zeros((size, count), np.float32),
        returns=np.zeros((size, count), np.float32),
        terminated=np.zeros(size, np.bool_),
        truncated=np.zeros(size, np.bool_),
        step_count=np.zeros(size, np.int64),
        totals=zeros.copy(), rounds=np.zeros(size, np.int64),
        phase=np.zeros(size, np.int64),
        observation=np.zeros((size, 0), np.float32),
        _held=np.zeros((size, count, _CARDS), np.bool_),
        _cells=np.zeros((size, ROWS, ROW_LIMIT), np.int8),
        _lengths=np.ones((size, ROWS), np.int8), _heads=np.zeros((size, ROWS), np.int16),
        _chosen=zeros.copy(), _turn=np.zeros(size, np.int64),
        _penalties=zeros.copy(), _pool=np.zeros((size, _CARDS), np.bool_),
        _picks=np.zeros(size, np.int64), _sheets=np.zeros((size, count, _CARDS), np.bool_),
        _starters=np.zeros((size, ROWS), np.int64), _seen=np.zeros((size, _CARDS), np.bool_),
        _rules=rules, _seed=seed, _dealer=dealer, _illegal=illegal_action,
    )
    arrays = _arrays(state)
    _new_round(state, arrays, np.arange(size))
    return _finish(state, arrays)


def _arrays(state: State) -> dict[str, Any]:
    """Fresh copies of every array of *state* (a step changes the copies, never *state*)."""
    return {
        name: getattr(state, name).copy()
        for name in State.__dataclass_fields__
        if isinstance(getattr(state, name), np.ndarray)
    }


def _finish(state: State, arrays: dict[str, Any]) -> State:
    count = arrays["totals"].shape[1]
    arrays["legal_action_mask"] = _mask(arrays)
    _reveal(state, arrays, count)
    arrays["observation"] = _observe(arrays, arrays["current_player"], state._rules)
    for array in arrays.values():
        array.setflags(write=False)
    return _copy(state, **arrays)


def _new_round(state: State, a: dict[str, Any], games: IntArray) -> None:
    """Start the next round of *games*: a deal, a logic draft or the tournament's next game."""
    if not games.size:
        return
    rules, count = state._rules, a["totals"].shape[1]
    number = a["rounds"][games] + 1
    a["_turn"][games] = 0
    a["_penalties"][games] = 0
    a["_chosen"][games] = 0
    a["_cells"][games] = 0
    a["_lengths"][games] = 1
    a["_heads"][games] = 0
    a["current_player"][games] = 0
    tournament = rules.variant is Variant.TOURNAMENT
    later = games[(number > 1)] if tournament else games[:0]
    if later.size:
        # The tournament's game k: seat s holds the sheet of seat s - (k - 1) (a roll).
        for game in later:
            a["_held"][game] = np.roll(a["_sheets"][game], int(a["rounds"][game]), axis=0)
        _start_rows(a, later, a["_starters"][later])
        a["phase"][later] = CARD
    fresh = np.setdiff1d(games, later)
    if rules.drafted:
        a["_pool"][fresh] = False
        a["_pool"][np.ix_(fresh, np.asarray(cards_in_play(rules, count)))] = True
        a["_held"][fresh] = False
        a["_picks"][fresh] = 0
        a["phase"][fresh] = DRAFT
        return
    if state._dealer is not None:
        for round_number in np.unique(a["rounds"][fresh] + 1):
            group = fresh[a["rounds"][fresh] + 1 == round_number]
            piles = checked_piles(state._dealer(frozen(group), int(round_number)), count, rules)
            if piles.shape[0] != group.size:
                raise MalformedInputError(
                    "argument",
                    N_("the number of piles the dealer gave is {count}, but the number of "
                       "games is {games}: one pile per game"),
                    count=piles.shape[0], games=group.size,
                )
            _lay(a, group, piles, count)
        return
    pool = np.asarray(cards_in_play(rules, count))
    piles = np.array([
        np.random.default_rng([state._seed, int(game), int(a["rounds"][game])]).permutation(pool)
        for game in fresh
    ])
    _lay(a, fresh, piles, count)


def _lay(a: dict[str, Any], games: IntArray, piles: IntArray, count: int) -> None:
    """Deal *piles* to *games* as :func:`take5rules.setup.deal` does."""
    dealt = HAND_SIZE * count
    a["_held"][games] = False
    hands = piles[:, :dealt].reshape(games.size, count, HAND_SIZE)
    a["_held"][games[:, None, None], np.arange(count)[None, :, None], hands] = True
    _start_rows(a, games, piles[:, dealt : dealt + ROWS])
    a["phase"][games] = CARD


def _start_rows(a: dict[str, Any], games: IntArray, starters: IntArray) -> None:
    """Start the four rows of *games* with the cards *starters*, ``(n, 4)``."""
    a["_cells"][games] = 0
    a["_cells"][games, :, 0] = starters
    a["_lengths"][games] = 1
    a["_heads"][games] = HEADS16[starters]


def _mask(a: dict[str, Any]) -> BoolArray:
    size = a["phase"].size
    mask = np.zeros((size, ACTIONS), np.bool_)
    phase, seat = a["phase"], a["current_player"]
    every = np.arange(size)
    drafting, playing = phase == DRAFT, phase == CARD
    mask[drafting, :HIGHEST] = a["_pool"][drafting, 1:]
    mask[playing, :HIGHEST] = a["_held"][every[playing], seat[playing], 1:]
    mask[phase == ROW, ROW_ACTIONS : ROW_ACTIONS + ROWS] = True
    mask[phase == OVER, PASS] = True
    return mask


def _reveal(state: State, a: dict[str, Any], count: int) -> None:
    """Bring ``_seen`` (the cards revealed this round) from *state* to the step's arrays *a*.

    A turn is revealed when its last seat lays its card: the cards the others laid before, and
    the one that left the last seat's hand. A new round (not the end of the game) forgets them.
    """
    last = count - 1
    laying = np.flatnonzero((state.phase == CARD) & (state.current_player == last))
    if laying.size:
        seen = a["_seen"]
        chosen = state._chosen[laying, :last]
        rows, cards = np.nonzero(chosen)
        seen[laying[rows], chosen[rows, cards]] = True
        gone = state._held[laying, last] & ~a["_held"][laying, last]
        rows, cards = np.nonzero(gone)
        seen[laying[rows], cards] = True
    fresh = (a["rounds"] != state.rounds) & (a["phase"] != OVER)
    a["_seen"][fresh] = False


#: The batch's phase codes as the encoding numbers them (cards, row, draft, over).
_PHASE_CODES = np.zeros(4, np.int64)
_PHASE_CODES[[CARD, ROW, DRAFT, OVER]] = np.arange(4)


def _observe(a: dict[str, Any], seat: IntArray, rules: Rules) -> npt.NDArray[np.float32]:
    """What *seat* (one per game) may know, as :func:`take5rules.agents.encoding.encode_batch`."""
    size = seat.size
    every = np.arange(size)
    phase = a["phase"]
    rowing = phase == ROW
    current = a["current_player"]
    drafting = phase == DRAFT
    over = phase == OVER
    view = BatchView(
        seat=seat, phase=_PHASE_CODES[phase], hand=a["_held"][every, seat],
        cells=a["_cells"], lengths=a["_lengths"], pool=a["_pool"], seen=a["_seen"],
        drafted=np.where(drafting[:, None, None], a["_held"], a["_sheets"])
        if rules.drafted else None,
        pending=np.where(rowing, a["_chosen"][every, current], 0), pending_seat=current,
        laid=a["_chosen"][every, seat], round=a["rounds"] + (~over).astype(np.int64),
        turn=a["_turn"] + 1, penalties=a["_penalties"], totals=a["totals"], rules=rules,
    )
    return encode_batch(view)


def observe(state: State, seat: int) -> npt.NDArray[np.float32]:
    """Seat *seat*'s observation in every game (``observation`` is the acting seat's)."""
    count = state.totals.shape[1]
    place = whole(seat, "seat", 0, count - 1)
    arrays = _arrays(state)
    return _observe(arrays, np.full(state.phase.size, place), state._rules)


def step(state: State, action: npt.ArrayLike) -> State:
    """Apply one action per game (Pgx's ``step``); return the new state."""
    if not isinstance(state, State):
        raise MalformedInputError(
            "argument",
            N_("state is {value!r}: it must be a State of take5rules.agents.batch.vector"),
            value=short(state),
        )
    size, count = state.phase.size, state.totals.shape[1]
    actions = answer(action, size, 0, ACTIONS - 1, "argument", np.arange(size),
                     state.current_player, None)
    a = _arrays(state)
    a["rewards"][...] = 0
    every = np.arange(size)
    legal = _legal(state, actions)
    if not legal.all():
        bad = np.flatnonzero(~legal)
        if state._illegal == "raise":
            game = int(bad[0])
            rule = {DRAFT: "variants.logic", CARD: "turn.reveal", ROW: "table.low-card",
                    OVER: "argument"}[int(state.phase[game])]
            seat = int(state.current_player[game])
            raise IllegalMoveError(
                rule, N_("game {game} of the batch: action {value} is not a legal action of "
                         "{player!r} now"),
                where=Where(turn=int(state._turn[game]) + 1, player=f"seat {seat}"),
                game=game, value=int(actions[game]), player=f"seat {seat}",
            )
        a["rewards"][bad, state.current_player[bad]] = -float(state._rules.threshold)
        a["phase"][bad] = OVER
        a["terminated"][bad] = True
    live = legal & (state.phase != OVER)
    seat = a["current_player"]
    drafting = every[live & (state.phase == DRAFT)]
    if drafting.size:
        _draft(state, a, drafting, actions[drafting] + 1, count)
    playing = every[live & (state.phase == CARD)]
    if playing.size:
        cards = actions[playing] + 1
        a["_chosen"][playing, seat[playing]] = cards
        a["_held"][playing, seat[playing], cards] = False
        last = seat[playing] == count - 1
        a["current_player"][playing[~last]] += 1
        placing = playing[last]
        _advance(state, a, placing, np.full(placing.size, UNASKED, np.int64), count)
    rowing = every[live & (state.phase == ROW)]
    if rowing.size:
        a["phase"][rowing] = CARD
        _advance(state, a, rowing, actions[rowing] - ROW_ACTIONS, count)
    a["step_count"][live] += 1
    a["returns"] += a["rewards"]
    return _finish(state, a)


def _draft(state: State, a: dict[str, Any], games: IntArray, cards: IntArray, count: int) -> None:
    seat = a["current_player"][games]
    a["_pool"][games, cards] = False
    a["_held"][games, seat, cards] = True
    a["_picks"][games] += 1
    a["current_player"][games] = a["_picks"][games] % count
    done = games[a["_picks"][games] == HAND_SIZE * count]
    if done.size:
        starters = np.nonzero(a["_pool"][done])[1].reshape(done.size, ROWS)
        _start_rows(a, done, starters)
        a["_sheets"][done] = a["_held"][done]
        a["_starters"][done] = starters
        a["phase"][done] = CARD
        a["current_player"][done] = 0


def _legal(state: State, actions: IntArray) -> BoolArray:
    """Whether each game's action is legal, judged from the hands, the pool and the phase.

    Never from ``legal_action_mask``: the mask is the caller's to read, not the rules.
    """
    every = np.arange(actions.size)
    seat = state.current_player
    card = np.minimum(actions + 1, HIGHEST)
    is_card = actions < HIGHEST
    held = is_card & state._held[every, seat, card]
    face_up = is_card & state._pool[every, card]
    row = (actions >= ROW_ACTIONS) & (actions < ROW_ACTIONS + ROWS)
    phase = state.phase
    legal: BoolArray = np.where(
        phase == CARD, held,
        np.where(phase == DRAFT, face_up, np.where(phase == ROW, row, actions == PASS)),
    )
    return legal


def _advance(
    state: State, a: dict[str, Any], games: IntArray, rows: IntArray, count: int
) -> None:
    """Place the turn of *games* with the batch's kernel (:func:`.kernel.place_turn`).

    *rows* holds the row each game's low card takes, or ``UNASKED``. A game whose lowest card
    is low and has no row yet is left as it is, its player asked for the row (phase ``ROW``).
    """
    if not games.size:
        return
    size = a["phase"].size
    table = a["_cells"].reshape(-1), a["_lengths"].reshape(-1), a["_heads"].reshape(-1)
    taken = np.zeros(size * count, np.int16)
    outputs = (taken, _NONE, _NONE, _NONE, np.zeros(1, np.int64), 0)
    played = np.ascontiguousarray(a["_chosen"][games])
    rows = np.array(rows, dtype=np.int64)
    if place(*table, games, played, rows, *scratch(games.size, count), False, *outputs):
        waiting = rows == WAITING
        asking = games[waiting]
        a["phase"][asking] = ROW
        a["current_player"][asking] = played[waiting].argmin(axis=1)
        games, played, rows = games[~waiting], played[~waiting], rows[~waiting]
        place(*table, games, played, rows, *scratch(games.size, count), False, *outputs)
    gained = taken.reshape(size, count)[games]
    a["_penalties"][games] += gained
    a["rewards"][games] -= gained
    _end_turn(state, a, games, count)


#: An empty array: an output of the kernel not asked for.
_NONE = np.empty(0, np.int64)


def _end_turn(state: State, a: dict[str, Any], games: IntArray, count: int) -> None:
    a["_turn"][games] += 1
    a["_chosen"][games] = 0
    a["current_player"][games] = 0
    a["phase"][games] = CARD
    over = games[a["_turn"][games] == HAND_SIZE]
    if not over.size:
        return
    a["totals"][over] += a["_penalties"][over]
    a["rounds"][over] += 1
    if state._rules.variant is Variant.TOURNAMENT:
        finished = a["rounds"][over] == count
    else:
        finished = ended(a["totals"][over], state._rules.threshold)
    a["phase"][over[finished]] = OVER
    a["terminated"][over[finished]] = True
    _new_round(state, a, over[~finished])
