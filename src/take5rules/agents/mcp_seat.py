"""The seat at the table that the MCP server gives a remote player: its game, its view, its moves.

The remote seat plays against built-in players; after each of its moves they play until the
seat must decide again, or the game is over. The seat sees what a person at the table sees:
its own hand (never another's), the rows, the totals, and every card revealed, also when its
own low card waits for its row (the game reports the turn's cards revealed, and the cards
placed before the low card, in the step that asks for the row).
"""

from __future__ import annotations

from dataclasses import dataclass, field
from types import MappingProxyType
from typing import Any

from take5rules._messages import N_
from take5rules.agents.seat_players import advance, seat_names
from take5rules.cards import total_bull_heads
from take5rules.errors import ProtocolError, Where
from take5rules.events import Event, RoundStarted
from take5rules.playing.kinds import BUILTIN_PLAYERS
from take5rules.playing.players import Player, RandomPlayer
from take5rules.playing.stepper import Game, Phase
from take5rules.text import narrate
from take5rules.variants import Rules

__all__ = ["TOOLS", "Session", "report", "seat_move", "start_game"]

#: The tool that answers each phase's decision.
TOOLS = {Phase.CARDS: "play_card", Phase.ROW: "choose_row", Phase.DRAFT: "draft_card"}

_WRONG_TOOL = {
    Phase.CARDS: N_("{player!r} must play a card of their hand now: call play_card, not {tool}"),
    Phase.ROW: N_("{player!r} must choose the row that their low card {card} takes now: call "
                  "choose_row, not {tool}"),
    Phase.DRAFT: N_("{player!r} must draft one of the face-up cards now: call draft_card, not "
                    "{tool}"),
}
_OVER = N_("the game is over: {tool} has nothing left to do; start another game with new_game")

#: The phase names of the replies (the seat's own decision, or the game over).
_PHASES = {Phase.CARDS: "card", Phase.ROW: "row", Phase.DRAFT: "draft", Phase.OVER: "over"}


@dataclass
class Session:
    """One game played by a remote seat: the game, the built-in opponents, the language."""

    game: Game
    seat: str
    bots: dict[str, Player]
    language: str
    #: The events not yet told to the seat.
    untold: list[Event] = field(default_factory=list)


def _opponent(kind: str, seed: int | None, index: int) -> Player:
    if kind == "random":
        return RandomPlayer(None if seed is None else seed + index)
    return BUILTIN_PLAYERS[kind]()


def start_game(name: str, opponents: list[str], rules: Rules, seed: int | None,
               language: str) -> Session:
    """A new game with the remote seat *name* first, played up to the seat's first decision.

    The opponents are named as ``take5rules play`` and the Gymnasium env name their seats
    (:func:`~take5rules.agents.seat_players.seat_names`): ``cautious``, then ``cautious#2``...
    """
    names = seat_names(opponents, taken=(name,))
    bots = {seat: _opponent(kind, seed, index)
            for index, (seat, kind) in enumerate(zip(names, opponents, strict=True), start=1)}
    game = Game((name, *bots), rules, seed)
    session = Session(game, name, bots, language, list(game.events))
    session.untold.extend(advance(game, bots))
    return session


def seat_move(session: Session, tool: str, value: int) -> None:
    """The remote seat's move with *tool*; then the built-in players play on."""
    game = session.game
    if game.phase is Phase.OVER:
        raise ProtocolError(_OVER, tool=tool)
    if TOOLS[game.phase] != tool:
        pending = game.observe(session.seat).pending
        raise ProtocolError(_WRONG_TOOL[game.phase],
                            where=Where(game.round, game.turn or None, session.seat),
                            player=session.seat, tool=tool,
                            card=pending[1] if pending is not None else None)
    session.untold.extend(game.act(session.seat, value))
    session.untold.extend(advance(game, session.bots))


def _public(event: Event, seat: str) -> Event:
    """*event* as *seat* may know it: of the hands dealt, only its own."""
    if isinstance(event, RoundStarted):
        return RoundStarted(event.round, event.rows, MappingProxyType({seat: event.hands[seat]}))
    return event


def report(game_id: str, session: Session) -> dict[str, Any]:
    """What the remote seat sees now, and the narration of what happened since last time."""
    game = session.game
    seat = session.seat
    seen = game.observe(seat)
    new = [_public(event, seat) for event in session.untold]
    session.untold.clear()
    waiting = seat in seen.to_move
    result: dict[str, Any] = {
        "game_id": game_id,
        "you": seat,
        "players": list(game.players),
        "phase": _PHASES[seen.phase] if waiting or seen.phase is Phase.OVER else "waiting",
        "round": seen.round,
        "hand": list(seen.hand),
        "rows": seen.table.to_json() if seen.table is not None else [],
        "row_bull_heads": [total_bull_heads(row) for row in seen.table.rows]
        if seen.table is not None else [],
        "taken_this_round": {player: total_bull_heads(seen.taken.get(player, ()))
                             for player in game.players},
        "totals": dict(seen.totals),
    }
    if seen.phase is Phase.ROW and waiting:
        assert seen.pending is not None
        plays = seen.revealed[-1]  # this turn's cards, in placement order
        result["low_card"] = seen.pending[1]
        result["revealed"] = [list(play) for play in plays]
    result["narration"] = [narrate(event, session.language, rules=game.rules) for event in new]
    if seen.phase is Phase.DRAFT:
        result["pool"] = list(seen.pool)
    if game.result is not None:
        result["winners"] = list(game.result.winners)  # as the rule game.winners decides
    return result
