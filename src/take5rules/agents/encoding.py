"""One observation and one action space for every agent front end.

The PettingZoo and Gymnasium environments, :mod:`take5rules.agents.batch.vector` and the
OpenSpiel observation encode a seat's observation here, so a policy trained on one runs
unchanged on another. There are two paths to the same vector:

* the scalar path, :func:`encode` (from a :class:`~take5rules.playing.stepper.Observation`, what
  :meth:`Game.observe <take5rules.playing.stepper.Game.observe>` gives), :func:`observe`
  (from a :class:`~take5rules.playing.stepper.Game` and a seat) and :func:`encode_view` (from a
  player's ``CardView`` or ``RowChoice``);
* the batched path, :func:`encode_batch`, from the arrays of a batch of games
  (:class:`BatchView`), one observer a game.

Both give the same ``float32`` vector, entry for entry, for the same position. Everything in it
is what the observing seat may know and nothing more: its own hand, the public table and the
public history of the round. No other seat's hand, no card laid face down by another seat, no
card set aside ever goes in.

Layout of the vector (:data:`OBSERVATION_LAYOUT`, :data:`SIZE` = 489 numbers). Card *c* is at
index *c - 1* of a part 104 wide. The per-seat parts are 10 wide (:data:`MAX_SEATS`) and
relative: the observer first, then the seats after it in seat order; unused places are 0.

| part | width | content |
| --- | --- | --- |
| ``hand`` | 104 | 1 for each card the seat holds (while drafting: the cards drafted so far) |
| ``rows`` | 20 | the four rows, five places each, oldest card first; 0 an empty place |
| ``row_lengths`` | 4 | the number of cards in each row |
| ``row_heads`` | 4 | the bull heads of each row |
| ``pool`` | 104 | 1 for each face-up card left to draft (logic and tournament variants) |
| ``seen`` | 104 | 1 for each card revealed so far this round (by any seat) |
| ``picked_by`` | 104 | who drafted each card (1 the observer, 2 the next seat ...), 0 none |
| ``phase`` | 4 | one-hot: cards to play, a row to take, a card to draft, the game over |
| ``pending`` | 1 | the low card waiting for its row now, else 0 |
| ``pending_seat`` | 1 | the seat that must take a row for it (1 the observer ...), else 0 |
| ``laid`` | 1 | the card the observer has laid face down this turn, else 0 |
| ``round`` | 1 | the round (in a tournament, the game) number |
| ``turn`` | 1 | the turn of the round, 1 to 10 (0 while drafting and once over) |
| ``seat`` | 10 | one-hot: the observer's place at the table (0 the first seat) |
| ``seats`` | 1 | the number of seats |
| ``penalties`` | 10 | the bull heads each seat has taken this round (relative) |
| ``totals`` | 10 | each seat's total before this round (relative; final once over) |
| ``threshold`` | 1 | the bull heads that end the game |
| ``variant`` | 4 | one-hot: standard, tactics, logic, tournament |

The action space (:data:`ACTIONS` = 109 actions, one ``Discrete`` space for every front end):
``0`` to ``103`` play or draft the card ``action + 1``; ``104`` to ``107`` take the row
``action - 104`` (0-based) with a low card; ``108`` (:data:`PASS`) passes, the only action of a
seat with no decision to make. :func:`mask` gives the legal actions of a seat of a ``Game``,
:func:`act` applies one, :func:`checked_action` refuses anything that is no action at all.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import NamedTuple

try:
    import numpy as np
    import numpy.typing as npt
except ModuleNotFoundError as absent:  # a plain install: say which extra, in one line
    from take5rules.text.extras import missing_extra

    raise missing_extra(__name__, absent, "batch") from None

from take5rules import _kernel
from take5rules._messages import N_
from take5rules.agents.arguments import ARGUMENT, shown
from take5rules.errors import IllegalMoveError, MalformedInputError, Where
from take5rules.events import Event, RowTaken
from take5rules.playing.players import CardView, RowChoice
from take5rules.playing.stepper import Game, Observation, Phase
from take5rules.setup import ROWS
from take5rules.table import ROW_LIMIT
from take5rules.variants import Rules, Variant

__all__ = [
    "ACTIONS",
    "MAX_SEATS",
    "OBSERVATION_LAYOUT",
    "PASS",
    "PHASES",
    "ROW_ACTIONS",
    "SIZE",
    "BatchView",
    "act",
    "checked_action",
    "encode",
    "encode_batch",
    "encode_view",
    "heads_taken",
    "mask",
    "observe",
]

HIGHEST = _kernel.HIGHEST
#: The number of actions: 104 cards, 4 rows, and pass.
ACTIONS = HIGHEST + ROWS + 1
#: The first row action: ``ROW_ACTIONS + r`` takes row *r* (0-based).
ROW_ACTIONS = HIGHEST
#: The pass action, for a seat with no decision to make.
PASS = HIGHEST + ROWS
#: The most seats of any variant: the width of the per-seat parts of the vector.
MAX_SEATS = 10
#: The phases in the order of the ``phase`` part (and of :attr:`BatchView.phase`'s codes).
PHASES = (Phase.CARDS, Phase.ROW, Phase.DRAFT, Phase.OVER)
_VARIANTS = tuple(Variant)
_CARDS, _ROW, _DRAFT, _OVER = range(len(PHASES))

_PARTS = (
    ("hand", HIGHEST), ("rows", ROWS * ROW_LIMIT), ("row_lengths", ROWS), ("row_heads", ROWS),
    ("pool", HIGHEST), ("seen", HIGHEST), ("picked_by", HIGHEST), ("phase", len(PHASES)),
    ("pending", 1), ("pending_seat", 1), ("laid", 1), ("round", 1), ("turn", 1),
    ("seat", MAX_SEATS), ("seats", 1), ("penalties", MAX_SEATS), ("totals", MAX_SEATS),
    ("threshold", 1), ("variant", len(_VARIANTS)),
)


def _layout() -> dict[str, slice]:
    layout, start = {}, 0
    for name, width in _PARTS:
        layout[name] = slice(start, start + width)
        start += width
    return layout


#: Where each part of the observation vector lies (see the module's table).
OBSERVATION_LAYOUT: Mapping[str, slice] = _layout()
#: The length of the observation vector.
SIZE = max(part.stop for part in OBSERVATION_LAYOUT.values())
_AT = {name: part.start for name, part in OBSERVATION_LAYOUT.items()}
_HEADS = np.array(_kernel.HEADS, dtype=np.int64)


# --- The scalar path ---------------------------------------------------------------------------


def encode(seen: Observation, players: Sequence[str], rules: Rules) -> npt.NDArray[np.float32]:
    """The observation vector of the seat that *seen* belongs to.

    Args:
        seen: what the seat may know (:meth:`Game.observe`).
        players: the seats of the game, in order.
        rules: the game's rules.

    Returns:
        A ``float32`` vector of :data:`SIZE` numbers laid out as :data:`OBSERVATION_LAYOUT`.
    """
    if not isinstance(seen, Observation):
        raise MalformedInputError(
            ARGUMENT, N_("{value}: an observation is what Game.observe(seat) gives"),
            value=shown(seen))
    if isinstance(players, str) or not isinstance(players, Sequence) or (
            seen.player not in players):
        raise MalformedInputError(
            ARGUMENT, N_("players = {value}: the seats of the game, in order, one of them "
                         "{player!r}"), value=shown(players), player=seen.player)
    if not isinstance(rules, Rules):
        raise MalformedInputError(
            ARGUMENT, N_("rules = {value}: the rules are a take5rules.variants.Rules"),
            value=shown(rules))
    vector = np.zeros(SIZE, dtype=np.float32)
    seat = players.index(seen.player)
    count = len(players)
    relative = {player: (index - seat) % count for index, player in enumerate(players)}
    for card in seen.hand:
        vector[_AT["hand"] + card - 1] = 1
    if seen.table is not None:
        for index, row in enumerate(seen.table.rows):
            start = _AT["rows"] + index * ROW_LIMIT
            vector[start : start + len(row)] = row
            vector[_AT["row_lengths"] + index] = len(row)
            vector[_AT["row_heads"] + index] = _kernel.pile_heads(row)
    for card in seen.pool:
        vector[_AT["pool"] + card - 1] = 1
    for plays in seen.revealed:
        for _, card in plays:
            vector[_AT["seen"] + card - 1] = 1
    for player, card in seen.picks:
        vector[_AT["picked_by"] + card - 1] = relative[player] + 1
    phase = PHASES.index(seen.phase)
    vector[_AT["phase"] + phase] = 1
    if seen.pending is not None:
        vector[_AT["pending"]] = seen.pending[1]
        vector[_AT["pending_seat"]] = relative[seen.pending[0]] + 1
    vector[_AT["laid"]] = seen.laid or 0
    vector[_AT["round"]] = seen.round
    vector[_AT["turn"]] = seen.turn if phase in (_CARDS, _ROW) else 0
    vector[_AT["seat"] + seat] = 1
    vector[_AT["seats"]] = count
    for player, offset in relative.items():
        vector[_AT["penalties"] + offset] = _kernel.pile_heads(seen.taken.get(player, ()))
        vector[_AT["totals"] + offset] = seen.totals[player]
    vector[_AT["threshold"]] = rules.threshold
    vector[_AT["variant"] + _VARIANTS.index(rules.variant)] = 1
    return vector


def observe(game: Game, seat: str) -> npt.NDArray[np.float32]:
    """The observation vector of *seat* in *game* now (:func:`encode` of ``game.observe``)."""
    return encode(game.observe(seat), game.players, game.rules)


def encode_view(view: CardView | RowChoice, players: Sequence[str],
                rules: Rules) -> npt.NDArray[np.float32]:
    """The vector of the seat a player's view belongs to, as :func:`encode` gives it.

    A :class:`~take5rules.playing.players.CardView` is a card to play, a
    :class:`~take5rules.playing.players.RowChoice` a row to take for its low card: a
    :class:`~take5rules.playing.players.Player` can so decide with a policy trained on the
    vector. The view must name its player, one of *players*.
    """
    if isinstance(view, RowChoice):
        phase, pending, turn = Phase.ROW, (view.player, view.card), view.turn or 0
        number = view.round or 0
    elif isinstance(view, CardView):
        phase, pending, turn, number = Phase.CARDS, None, view.turn, view.round
    else:
        raise MalformedInputError(
            ARGUMENT, N_("view {value}: it must be a CardView or a RowChoice"),
            value=shown(view))
    if view.player not in players:
        raise MalformedInputError(
            ARGUMENT, N_("the view's player {value}: it must be one of the seats ({seats})"),
            value=shown(view.player), seats=", ".join(players))
    totals = {player: view.totals.get(player, 0) for player in players}
    seen = Observation(
        player=view.player, phase=phase, round=number, turn=turn, table=view.table,
        hand=tuple(view.hand), totals=totals, revealed=view.revealed, taken=view.taken,
        start=view.start, picks=view.picks, pool=(), laid=None, pending=pending,
        to_move=(view.player,),
    )
    return encode(seen, players, rules)


# --- The batched path --------------------------------------------------------------------------


class BatchView(NamedTuple):
    """What one observer a game may know, for a batch of *B* games of *P* seats.

    Only the observer's own cards and public facts: the caller takes the observer's row of any
    array of hidden hands before building it.

    Attributes:
        seat: ``(B,)`` the observer's seat.
        phase: ``(B,)`` the phase, numbered as :data:`PHASES`.
        hand: ``(B, 105)`` bool, the observer's cards (index = card; index 0 unused).
        cells: ``(B, 4, 5)`` the rows' cards, oldest first.
        lengths: ``(B, 4)`` how many places of each row of *cells* hold cards.
        pool: ``(B, 105)`` bool, the face-up cards left to draft.
        seen: ``(B, 105)`` bool, the cards revealed this round.
        drafted: ``(B, P, 105)`` bool, each seat's draft picks (public when drafted); ``None``
            in a game without a draft.
        pending: ``(B,)`` the low card waiting for its row, 0 if none.
        pending_seat: ``(B,)`` the seat that must take a row for it (any value if none).
        laid: ``(B,)`` the card the observer laid face down this turn, 0 if none.
        round: ``(B,)`` the round number.
        turn: ``(B,)`` the turn of the round, 1 to 10.
        penalties: ``(B, P)`` the bull heads each seat took this round.
        totals: ``(B, P)`` each seat's total before this round.
        rules: the rules of every game of the batch.
    """

    seat: npt.NDArray[np.int64]
    phase: npt.NDArray[np.int64]
    hand: npt.NDArray[np.bool_]
    cells: npt.NDArray[np.int64]
    lengths: npt.NDArray[np.int64]
    pool: npt.NDArray[np.bool_]
    seen: npt.NDArray[np.bool_]
    drafted: npt.NDArray[np.bool_] | None
    pending: npt.NDArray[np.int64]
    pending_seat: npt.NDArray[np.int64]
    laid: npt.NDArray[np.int64]
    round: npt.NDArray[np.int64]
    turn: npt.NDArray[np.int64]
    penalties: npt.NDArray[np.int64]
    totals: npt.NDArray[np.int64]
    rules: Rules


def encode_batch(view: BatchView) -> npt.NDArray[np.float32]:
    """The observation vectors of a batch: row *g* is :func:`encode`'s vector for game *g*.

    Args:
        view: the observers' knowledge, one observer a game.

    Returns:
        A ``float32`` array of shape ``(B, SIZE)``.
    """
    if not isinstance(view, BatchView):
        raise MalformedInputError(
            ARGUMENT, N_("view {value}: it must be a BatchView"), value=shown(view))
    size, count = view.totals.shape
    every = np.arange(size)
    out = np.zeros((size, SIZE), dtype=np.float32)
    phase = view.phase
    out[:, OBSERVATION_LAYOUT["hand"]] = view.hand[:, 1:]
    filled = np.arange(ROW_LIMIT)[None, None, :] < view.lengths[:, :, None]
    cells = np.where(filled, view.cells, 0)
    cells[phase == _DRAFT] = 0  # no row is laid while drafting
    out[:, OBSERVATION_LAYOUT["rows"]] = cells.reshape(size, ROWS * ROW_LIMIT)
    out[:, OBSERVATION_LAYOUT["row_lengths"]] = (cells > 0).sum(axis=2)
    out[:, OBSERVATION_LAYOUT["row_heads"]] = _HEADS[cells].sum(axis=2)
    out[:, OBSERVATION_LAYOUT["pool"]] = view.pool[:, 1:] & (phase == _DRAFT)[:, None]
    out[:, OBSERVATION_LAYOUT["seen"]] = view.seen[:, 1:]
    if view.drafted is not None:  # each card is drafted by one seat at most
        drafted = view.drafted[:, :, 1:]
        owner = drafted.argmax(axis=1)  # (B, 104)
        relative = (owner - view.seat[:, None]) % count + 1
        out[:, OBSERVATION_LAYOUT["picked_by"]] = np.where(drafted.any(axis=1), relative, 0)
    # The seats in the observer's order: place k is seat (observer + k) mod P.
    order = (view.seat[:, None] + np.arange(count)[None, :]) % count
    out[every, _AT["phase"] + phase] = 1
    rowing = phase == _ROW
    out[:, _AT["pending"]] = np.where(rowing, view.pending, 0)
    out[:, _AT["pending_seat"]] = np.where(
        rowing, (view.pending_seat - view.seat) % count + 1, 0)
    out[:, _AT["laid"]] = np.where(phase == _CARDS, view.laid, 0)
    out[:, _AT["round"]] = view.round
    out[:, _AT["turn"]] = np.where((phase == _CARDS) | rowing, view.turn, 0)
    out[every, _AT["seat"] + view.seat] = 1
    out[:, _AT["seats"]] = count
    start = _AT["penalties"]
    out[:, start : start + count] = np.take_along_axis(view.penalties, order, axis=1)
    start = _AT["totals"]
    out[:, start : start + count] = np.take_along_axis(view.totals, order, axis=1)
    out[:, _AT["threshold"]] = view.rules.threshold
    out[:, _AT["variant"] + _VARIANTS.index(view.rules.variant)] = 1
    return out


# --- The action space --------------------------------------------------------------------------


def mask(game: Game, seat: str) -> npt.NDArray[np.int8]:
    """The legal actions of *seat* now: its legal answers, or pass when it has none to give."""
    legal = np.zeros(ACTIONS, dtype=np.int8)
    answers = game.legal(seat)
    if not answers:
        legal[PASS] = 1
    elif game.phase is Phase.ROW:
        legal[[ROW_ACTIONS + index for index in answers]] = 1
    else:
        legal[[card - 1 for card in answers]] = 1
    return legal


def checked_action(action: object, where: Where | None = None) -> int:
    """*action* as an ``int`` from 0 to 108; anything else is an ``argument`` error.

    Args:
        action: what the caller gave as an action (a numpy integer is accepted).
        where: the place to name in the error.

    Returns:
        The action as a plain ``int``.
    """
    if isinstance(action, np.integer):
        action = int(action)
    if isinstance(action, bool) or not isinstance(action, int) or not 0 <= action < ACTIONS:
        raise MalformedInputError(
            ARGUMENT,
            N_("action {value}: an action is a whole number from 0 to {last}"),
            where=where,
            value=shown(action),
            last=ACTIONS - 1,
        )
    return action


def act(game: Game, seat: str, action: object) -> tuple[Event, ...]:
    """Apply *seat*'s *action* to *game*; return the events it caused.

    An action that is no action at all is an ``argument`` error (:func:`checked_action`); one
    that is not legal now raises its rule's error. Either way nothing changes.
    """
    action = checked_action(action, Where(game.round, player=seat))
    if seat not in game.to_move:
        if action == PASS:
            return ()
        raise IllegalMoveError(
            "turn.reveal",
            N_("{player!r} has no decision to make now; the only action is {action} "
               "(pass)"),
            where=Where(game.round, game.turn or None, seat),
            player=seat,
            action=PASS,
        )
    if game.phase is Phase.ROW:
        if not ROW_ACTIONS <= action < ROW_ACTIONS + ROWS:
            raise IllegalMoveError(
                "table.low-card",
                N_("action {value}: {player!r} must choose the row to take now, an action "
                   "from {first} to {last} (rows 0 to 3)"),
                where=Where(game.round, game.turn, seat),
                value=action,
                player=seat,
                first=ROW_ACTIONS,
                last=ROW_ACTIONS + ROWS - 1,
            )
        return game.take_row(seat, action - ROW_ACTIONS)
    if game.phase is Phase.DRAFT:
        return game.draft(seat, action + 1)
    if action >= HIGHEST:
        raise IllegalMoveError(
            "turn.reveal",
            N_("action {value!r}: {player!r} must play a card now, an action from 0 "
               "to 103"),
            where=Where(game.round, game.turn, seat),
            value=action,
            player=seat,
        )
    return game.play(seat, action + 1)


def heads_taken(events: Sequence[Event]) -> dict[str, int]:
    """The bull heads each player took in *events* (the rows taken)."""
    heads: dict[str, int] = {}
    for event in events:
        if isinstance(event, RowTaken):
            heads[event.player] = heads.get(event.player, 0) + event.bull_heads
    return heads
