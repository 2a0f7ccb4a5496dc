"""What a seat of the OpenSpiel game sees: OpenSpiel's observer, strings and tensors.

Private. One :class:`Observer` serves the information state (``perfect_recall``: the whole
history a seat has seen) and the observation (the state of the table now), as strings and as
tensors; which private parts it shows follows OpenSpiel's ``private_info`` (the seat's own, every
seat's, or none). The default observation (a seat's own cards and the public table, without
perfect recall: ``observation_tensor``) is the one vector of :mod:`take5rules.agents.encoding`,
the same as the PettingZoo and Gymnasium environments' and ``batch.vector``'s; while a round is
dealt (a chance node) it holds the cards dealt so far and no phase. Only what the seat was
shown goes in: its hand, the card it laid this turn, and the public events (the row cards, the
cards once revealed, the rows taken, the draft picks, the scores). Another seat's hand and the
cards set aside never do.

The strings are compact tokens, not messages: ``r2`` round 2 starts; ``d17`` you were dealt 17
(``d?1``: seat 1 was dealt a card you did not see); ``s58`` a row starts with 58; ``p1:40`` seat
1 drafts 40; ``l12`` you laid 12 (``l?1``: seat 1 laid a card face down); ``v12/40`` the cards
revealed, seat by seat; ``t0:2`` seat 0's low card takes row 2; ``=5/11`` the totals after a
round; then ``hand0:3,12`` your cards and ``laid0:12`` the card you laid this turn.
"""

from __future__ import annotations

from typing import Any

import numpy as np
import pyspiel

from take5rules import _kernel
from take5rules._messages import N_
from take5rules.agents import encoding
from take5rules.agents.openspiel_state import PHASES, Config, Core, checked_player
from take5rules.errors import MalformedInputError
from take5rules.playing.stepper import Observation, Phase
from take5rules.setup import ROWS
from take5rules.table import ROW_LIMIT

__all__ = ["Observer"]


class Observer:
    """OpenSpiel's ``PyObserver`` for Take 5 (``set_from`` writes ``tensor``, ``dict``)."""

    def __init__(self, config: Config, kind: Any, params: object) -> None:
        if params:
            raise MalformedInputError(
                "argument", N_("the observer of take5 takes no parameters, not {value!r}"),
                value=params,
            )
        self.config = config
        self.recall = bool(kind.perfect_recall)
        self.public = bool(kind.public_info)
        self.everyone = kind.private_info == pyspiel.PrivateInfoType.ALL_PLAYERS
        self.mine = kind.private_info == pyspiel.PrivateInfoType.SINGLE_PLAYER
        #: Whether the tensor is the encoding's vector (the default observation).
        self.shared = self.mine and self.public and not self.recall
        if self.shared:
            self.tensor = np.zeros(encoding.SIZE, np.float32)
            self.dict: dict[str, np.ndarray[Any, Any]] = {
                name: self.tensor[part] for name, part in encoding.OBSERVATION_LAYOUT.items()}
            return
        seats, top, turns = len(config.seats), config.top, config.hand
        pieces: list[tuple[str, tuple[int, ...]]] = [
            ("player", (seats,)), ("phase", (len(PHASES),)), ("round", (1,)), ("totals", (seats,)),
        ]
        if self.mine:
            pieces += [("hand", (top,)), ("laid", (top,))]
        elif self.everyone:
            pieces += [("hand", (seats, top)), ("laid", (seats, top))]
        if self.public:
            pieces += [("table", (ROWS, top)), ("pending", (top,))]
            if self.recall:
                pieces += [("start", (ROWS, top)), ("plays", (turns, seats, top)),
                           ("rows_taken", (turns, seats, ROWS))]
                if config.picks:
                    pieces.append(("picks", (config.picks, top)))
            else:
                pieces += [("seen", (top,)), ("taken", (seats, top))]
                if config.picks:
                    pieces += [("pool", (top,)), ("picked", (seats, top))]
        self.tensor = np.zeros(sum(int(np.prod(shape)) for _, shape in pieces), np.float32)
        self.dict = {}
        index = 0
        for name, shape in pieces:
            size = int(np.prod(shape))
            self.dict[name] = self.tensor[index:index + size].reshape(shape)
            index += size

    # --- Tensors ------------------------------------------------------------------------------

    def set_from(self, state: Any, player: int) -> None:
        """Write what *player* sees of *state* into :attr:`tensor`."""
        core: Core = state.core
        player = checked_player(self.config, player)
        if self.shared:
            self.tensor[:] = _encoded(core, player)
            return
        out, config = self.dict, self.config
        self.tensor.fill(0)
        out["player"][player] = 1
        phase = core.phase
        if phase in PHASES:
            out["phase"][PHASES.index(phase)] = 1
        out["round"][0] = core.round
        out["totals"][:] = core.now_totals()
        seen = _seen(core, player)
        owners = range(len(config.seats)) if self.everyone else (player,) if self.mine else ()
        for owner in owners:
            hand = out["hand"][owner] if self.everyone else out["hand"]
            laid = out["laid"][owner] if self.everyone else out["laid"]
            for value in _hand(core, owner):
                hand[value - 1] = 1
            if owner in core.laid:
                laid[core.laid[owner] - 1] = 1
        if not self.public:
            return
        for index, row in enumerate(_rows(core)):
            out["table"][index, [value - 1 for value in row]] = 1
        if seen is not None and seen.pending is not None:
            out["pending"][seen.pending[1] - 1] = 1
        if self.recall:
            for index, row in enumerate(_start(core)):
                out["start"][index, row[0] - 1] = 1
            for turn, seat, value in core.plays:
                out["plays"][turn - 1, seat, value - 1] = 1
            for turn, seat, row_index in core.choices:
                out["rows_taken"][turn - 1, seat, row_index] = 1
            if config.picks and seen is not None:
                for pick, (_, value) in enumerate(seen.picks[: config.picks]):
                    out["picks"][pick, value - 1] = 1
            return
        for _, _, value in core.plays:
            out["seen"][value - 1] = 1
        if seen is not None:
            for name, pile in seen.taken.items():
                out["taken"][config.seats.index(name), [value - 1 for value in pile]] = 1
            if config.picks:
                out["pool"][[value - 1 for value in seen.pool]] = 1
                for name, value in seen.picks:
                    out["picked"][config.seats.index(name), value - 1] = 1

    # --- Strings ------------------------------------------------------------------------------

    def string_from(self, state: Any, player: int) -> str:
        """What *player* sees of *state*, as a line of tokens (see the module)."""
        core: Core = state.core
        player = checked_player(self.config, player)
        if self.recall:
            return self._history(core, player)
        return self._now(core, player)

    def _history(self, core: Core, player: int) -> str:
        tokens = [f"seat {player}"]
        for owner, own, other in core.log:
            if owner < 0:
                token = own if self.public else ""
            elif self.everyone or (self.mine and owner == player):
                token = own
            else:
                token = other if self.public else ""
            if token:
                tokens.append(token)
        tokens += self._private(core, player)
        return " ".join(tokens)

    def _private(self, core: Core, player: int) -> list[str]:
        owners = range(len(self.config.seats)) if self.everyone else (
            (player,) if self.mine else ())
        tokens = []
        for owner in owners:
            tokens.append(f"hand{owner}:" + ",".join(map(str, _hand(core, owner))))
            if owner in core.laid:
                tokens.append(f"laid{owner}:{core.laid[owner]}")
        return tokens

    def _now(self, core: Core, player: int) -> str:
        phase = core.phase
        seen = _seen(core, player)
        tokens = [f"seat {player}", "deal" if phase is None else phase.value,
                  f"round {core.round}", "totals " + "/".join(map(str, core.now_totals()))]
        if self.public:
            tokens.append("rows " + " ".join(
                "[" + ",".join(map(str, row)) + "]" for row in _rows(core)))
            tokens.append("seen " + (",".join(str(value) for _, _, value in core.plays) or "-"))
            if seen is not None:
                tokens.append(f"turn {seen.turn}")
                tokens += [f"taken{self.config.seats.index(seat)}:" + ",".join(map(str, pile))
                           for seat, pile in seen.taken.items() if pile]
                if seen.pool:
                    tokens.append("pool " + ",".join(map(str, seen.pool)))
                if seen.pending is not None:
                    seat, value = seen.pending
                    tokens.append(f"low {self.config.seats.index(seat)}:{value}")
        return " ".join(tokens + self._private(core, player))


def _encoded(core: Core, player: int) -> np.ndarray[Any, np.dtype[np.float32]]:
    """*player*'s vector of :mod:`take5rules.agents.encoding` (while dealing: what is dealt)."""
    config = core.config
    seen = _seen(core, player)
    if seen is not None:
        return encoding.encode(seen, config.seats, config.rules)
    vector = np.zeros(encoding.SIZE, np.float32)
    at = {name: part.start for name, part in encoding.OBSERVATION_LAYOUT.items()}
    for value in _hand(core, player):
        vector[at["hand"] + value - 1] = 1
    for index, row in enumerate(_start(core)):
        vector[at["rows"] + index * ROW_LIMIT] = row[0]
        vector[at["row_lengths"] + index] = 1
        vector[at["row_heads"] + index] = _kernel.pile_heads(row)
    if core.over:
        vector[at["phase"] + encoding.PHASES.index(Phase.OVER)] = 1
    vector[at["round"]] = core.round
    count = len(config.seats)
    vector[at["seat"] + player] = 1
    vector[at["seats"]] = count
    for seat, total in enumerate(core.now_totals()):
        vector[at["totals"] + (seat - player) % count] = total
    vector[at["threshold"]] = config.rules.threshold
    vector[at["variant"] + list(type(config.rules.variant)).index(config.rules.variant)] = 1
    return vector


def _seen(core: Core, player: int) -> Observation | None:
    """The Game's observation for *player*, while a Game plays the round."""
    if core.game is None:
        return None
    return core.game.observe(core.config.seats[player])


def _hand(core: Core, seat: int) -> tuple[int, ...]:
    """*seat*'s cards now: its hand, its draft picks so far, or its cards dealt so far."""
    if core.game is not None:
        return core.game.observe(core.config.seats[seat]).hand
    hand = core.config.hand
    if core.over:
        return ()
    return tuple(sorted(core.dealt[seat * hand:(seat + 1) * hand]))


def _start(core: Core) -> tuple[tuple[int, ...], ...]:
    """The rows laid out at the round's start (as far as they are dealt)."""
    if core.game is not None:
        if core.game.phase is Phase.DRAFT:
            return ()
        return core.game.observe(core.config.seats[0]).start
    hands = len(core.config.seats) * core.config.hand
    return tuple((value,) for value in core.dealt[hands:])


def _rows(core: Core) -> tuple[tuple[int, ...], ...]:
    """The rows now (the dealt row cards while the deal goes on)."""
    table = core.game.table if core.game is not None else None
    return table.rows if table is not None else _start(core)
