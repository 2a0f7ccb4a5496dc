"""The seat at the table that the MCP server gives a remote player: its game, its view, its moves.

The remote seat plays against built-in players; after each of its moves they play until the
seat must decide again, or the game is over. The seat sees what a person at the table sees:
its own hand (never another's), the rows, the totals, and every card revealed, also when its
own low card waits for its row.
"""

from __future__ import annotations

from dataclasses import dataclass
from types import MappingProxyType
from typing import Any

from ._machine import CARD, DRAFT, OVER, ROW, Machine
from ._text import N_
from .errors import ProtocolError
from .events import CardsRevealed, Event, GameOver, RoundStarted
from .i18n import narrate
from .players import BUILTIN_PLAYERS, CardView, DraftView, Player, RandomPlayer
from .turn import placement_order
from .variants import Rules

__all__ = ["TOOLS", "Session", "report", "seat_move", "start_game"]

#: The tool that answers each phase's decision.
TOOLS = {CARD: "play_card", ROW: "choose_row", DRAFT: "draft_card"}

_WRONG_TOOL = {
    CARD: N_("{player!r} must play a card of their hand now: call play_card, not {tool}"),
    ROW: N_("{player!r} must choose the row that their low card {card} takes now: call "
            "choose_row, not {tool}"),
    DRAFT: N_("{player!r} must draft one of the face-up cards now: call draft_card, not "
              "{tool}"),
}
_OVER = N_("the game is over: {tool} has nothing left to do; start another game with new_game")


@dataclass
class Session:
    """One game played by a remote seat: the machine, the built-in opponents, the language."""

    machine: Machine
    seat: str
    bots: dict[str, Player]
    language: str
    told: int = 0
    #: The turn whose revealed cards were told early, while the seat's low card waited.
    revealed: tuple[int, int] | None = None


def _opponent(kind: str, seed: int | None, index: int) -> Player:
    if kind == "random":
        return RandomPlayer(None if seed is None else seed + index)
    return BUILTIN_PLAYERS[kind]()


def start_game(name: str, opponents: list[str], rules: Rules, seed: int | None,
               language: str) -> Session:
    """A new game with the remote seat *name* first, played up to the seat's first decision."""
    bots = {f"{kind}_{index}": _opponent(kind, seed, index)
            for index, kind in enumerate(opponents, start=1)}
    session = Session(Machine((name, *bots), rules, seed), name, bots, language)
    _advance(session)
    return session


def _advance(session: Session) -> None:
    """Let the built-in players decide until the remote seat must, or the game is over."""
    machine = session.machine
    while machine.phase != OVER:
        bots = [player for player in machine.deciders() if player != session.seat]
        if not bots:
            return
        player = bots[0]
        bot = session.bots[player]
        if machine.phase == CARD:
            assert machine.state is not None
            view = CardView(machine.number, machine.state.turn + 1, machine.state.table,
                            machine.state.hands[player], MappingProxyType(dict(machine.totals)))
            machine.play(player, bot.choose_card(view))
        elif machine.phase == ROW:
            assert machine.pending is not None
            machine.choose_row(player, bot.choose_row(machine.pending))
        else:
            view_draft = DraftView(machine.number, len(machine.picks) + 1, tuple(machine.pool),
                                   machine.hand(player))
            machine.pick(player, bot.choose_draft(view_draft))


def seat_move(session: Session, tool: str, value: int) -> None:
    """The remote seat's move with *tool*; then the built-in players play on."""
    machine = session.machine
    if machine.phase == OVER:
        raise ProtocolError(_OVER, tool=tool)
    if TOOLS[machine.phase] != tool:
        card = machine.pending.card if machine.pending is not None else None
        raise ProtocolError(_WRONG_TOOL[machine.phase], where=machine.where(session.seat),
                            player=session.seat, tool=tool, card=card)
    if tool == "play_card":
        machine.play(session.seat, value)
    elif tool == "choose_row":
        machine.choose_row(session.seat, value)
    else:
        machine.pick(session.seat, value)
    _advance(session)


def _public(event: Event, seat: str) -> Event:
    """*event* as *seat* may know it: of the hands dealt, only its own."""
    if isinstance(event, RoundStarted):
        return RoundStarted(event.round, event.rows, MappingProxyType({seat: event.hands[seat]}))
    return event


def _reveal(machine: Machine) -> CardsRevealed:
    """The cards of the turn being placed, revealed (the seat's low card waits for its row)."""
    assert machine.state is not None
    return CardsRevealed(machine.number, machine.state.turn + 1, placement_order(machine.plays))


def report(game_id: str, session: Session) -> dict[str, Any]:
    """What the remote seat sees now, and the narration of what happened since last time."""
    machine = session.machine
    seat = session.seat
    new = [_public(event, seat) for event in machine.events[session.told:]]
    session.told = len(machine.events)
    if session.revealed is not None:  # told already, while the row was chosen
        told = session.revealed
        new = [e for e in new if not (isinstance(e, CardsRevealed) and (e.round, e.turn) == told)]
    table = machine.table
    waiting = seat in machine.deciders()
    result: dict[str, Any] = {
        "game_id": game_id,
        "you": seat,
        "players": list(machine.players),
        "phase": machine.phase if waiting or machine.phase == OVER else "waiting",
        "round": machine.number,
        "hand": list(machine.hand(seat)),
        "rows": table.to_json() if table is not None else [],
        "taken_this_round": dict(machine.taken),
        "totals": dict(machine.totals),
    }
    if machine.phase == ROW and waiting:
        assert machine.pending is not None
        reveal = _reveal(machine)
        result["low_card"] = machine.pending.card
        result["revealed"] = [list(play) for play in reveal.plays]
        if session.revealed != (reveal.round, reveal.turn):
            new.append(reveal)
            session.revealed = (reveal.round, reveal.turn)
    result["narration"] = [narrate(event, session.language) for event in new]
    if machine.phase == DRAFT:
        result["pool"] = list(machine.pool)
    if machine.phase == OVER:
        over = machine.events[-1]
        assert isinstance(over, GameOver)
        result["winners"] = list(over.winners)  # as the rule game.winners decides
    return result
