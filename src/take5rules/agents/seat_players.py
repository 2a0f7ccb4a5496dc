"""Player objects seated in a :class:`.Game` that others step from outside.

The MCP server's seat and the Gymnasium wrapper play one seat from outside and the others with
:class:`~take5rules.playing.players.Player` objects (built-in or any). :func:`advance` asks those
players, through the public :meth:`Game.observe` (what each seat may know, nothing more), until
a seat without a player must decide or the game is over. :func:`seat_names` names the seats of
player kinds as the command line does (``cautious``, ``cautious#2`` ...).
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping

from take5rules.events import Event
from take5rules.playing.players import CardView, DraftView, Player, RowChoice
from take5rules.playing.stepper import Game, Phase

__all__ = ["advance", "decide", "seat_names"]


def seat_names(kinds: Iterable[str], taken: Iterable[str] = ()) -> list[str]:
    """The seat names of players of *kinds*, in the command line's form ``kind#n``.

    The first seat of a kind is named by the kind alone, the next ones ``kind#2``, ``kind#3``
    ..., each numbered past the names already *taken*.

    >>> seat_names(["cautious", "lowest", "cautious"], taken=["agent"])
    ['cautious', 'lowest', 'cautious#2']
    """
    names = list(taken)
    chosen: list[str] = []
    for kind in kinds:
        name, count = kind, 1
        while name in names:
            count += 1
            name = f"{kind}#{count}"
        names.append(name)
        chosen.append(name)
    return chosen


def decide(game: Game, seat: str, player: Player) -> object:
    """*player*'s answer for *seat* to the decision pending now, from *seat*'s observation."""
    seen = game.observe(seat)
    if seen.phase is Phase.CARDS:
        assert seen.table is not None
        return player.choose_card(CardView(seen.round, seen.turn, seen.table, seen.hand,
                                           seen.totals, seat, seen.revealed, seen.taken,
                                           seen.start, seen.picks))
    if seen.phase is Phase.ROW:
        assert seen.table is not None
        assert seen.pending is not None
        return player.choose_row(RowChoice(seat, seen.pending[1], seen.table, seen.round,
                                           seen.turn, seen.hand, seen.totals, seen.revealed,
                                           seen.taken, seen.start, seen.picks))
    return player.choose_draft(DraftView(seen.round, len(seen.picks) + 1, seen.pool, seen.hand,
                                         seat, seen.picks, seen.totals))


def advance(game: Game, players: Mapping[str, Player]) -> list[Event]:
    """Let *players* decide for their seats until another seat must, or the game is over.

    Returns the events of those steps. Each answer is checked by the game as any other.
    """
    events: list[Event] = []
    while game.phase is not Phase.OVER:
        waiting = [seat for seat in game.to_move if seat in players]
        if not waiting:
            break
        seat = waiting[0]
        events.extend(game.act(seat, decide(game, seat, players[seat])))
    return events
