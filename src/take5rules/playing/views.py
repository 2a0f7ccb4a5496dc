"""The views the engine hands its players: one per seat per game, read at the moment of the call.

:func:`take5rules.playing.engine.play_game` asks each seat's player with a
:class:`LiveCardView`
(a :class:`~take5rules.playing.players.CardView`) and a :class:`LiveRowChoice` (a
:class:`~take5rules.playing.players.RowChoice`) made once for the whole game. Nothing is built for a
decision but the seat's hand (and, for a low card, the card): every other field is read from the
game (its read-only properties) when the player reads it, so a field nobody reads costs
nothing, and the table is built once per state of the rows, shared by the seats that read it
(:attr:`Game.table <take5rules.playing.stepper.Game.table>`).

A view describes the moment of the call it is passed to. It cannot be changed (plain assignment
raises :class:`dataclasses.FrozenInstanceError`, ``object.__setattr__`` on a field read from
the game raises :class:`AttributeError`; what can be rewritten is the seat's own copy of its hand,
its name or its card, which the game never reads back), the history it shows is made of tuples
and read-only mappings, and the table it shows is rebuilt when a player has rewritten it, so a
player changes neither the game nor what another seat is shown. ``copy.copy(view)`` (or
:func:`dataclasses.replace`) keeps the moment: a plain, frozen ``CardView`` or ``RowChoice``.
"""

from __future__ import annotations

from dataclasses import fields
from operator import attrgetter
from typing import TYPE_CHECKING, Any

from take5rules.playing.players import CardView, RowChoice
from take5rules.turn import LowCard

if TYPE_CHECKING:
    from take5rules.playing.stepper import Game

__all__: list[str] = []


def _snapshot(cls: type[Any]) -> Any:
    """``__reduce__`` and ``__new__`` that turn a live view into a plain *cls* of its moment."""
    names = tuple(item.name for item in fields(cls))

    def reduce(self: Any) -> tuple[type[Any], tuple[Any, ...]]:
        return cls, tuple(getattr(self, name) for name in names)

    def new(_live: type[Any], *args: Any, **kwargs: Any) -> Any:
        return cls(*args, **kwargs)  # dataclasses.replace(view): a plain value

    return reduce, staticmethod(new)


class _ReadFromGame:
    """The fields both live views read from the game when read (property over a C getter)."""

    __slots__ = ()

    round = property(attrgetter("_game.round"))
    turn = property(attrgetter("_game.turn"))
    table = property(attrgetter("_game.table"))
    totals = property(attrgetter("_game.totals"))
    revealed = property(attrgetter("_game.revealed"))
    taken = property(attrgetter("_game.taken"))
    start = property(attrgetter("_game.start"))
    picks = property(attrgetter("_game.picks"))


class LiveCardView(_ReadFromGame, CardView):
    """A seat's :class:`~take5rules.playing.players.CardView`, read from the game at the call."""

    __slots__ = ("_game",)
    __reduce__, __new__ = _snapshot(CardView)


class LiveRowChoice(_ReadFromGame, RowChoice):
    """A seat's :class:`~take5rules.playing.players.RowChoice`, read from the game at the call."""

    __slots__ = ("_game",)
    __reduce__, __new__ = _snapshot(RowChoice)


#: Store a live view's own fields (the seat's name, hand and card) in their slots (a row
#: choice's name and card are the slots of the rule's question, :class:`~take5rules.turn.LowCard`).
set_card_player = CardView.__dict__["player"].__set__
set_card_hand = CardView.__dict__["hand"].__set__
set_row_player = LowCard.__dict__["player"].__set__
set_row_card = LowCard.__dict__["card"].__set__
set_row_hand = RowChoice.__dict__["hand"].__set__


def card_view(game: Game, player: str) -> LiveCardView:
    """The live card view of *player*'s seat in *game* (its hand is stored at each call)."""
    view: LiveCardView = object.__new__(LiveCardView)
    object.__setattr__(view, "_game", game)
    set_card_player(view, player)
    set_card_hand(view, ())
    return view


def row_choice(game: Game, player: str) -> LiveRowChoice:
    """The live row choice of *player*'s seat (its card and hand are stored at each call)."""
    view: LiveRowChoice = object.__new__(LiveRowChoice)
    object.__setattr__(view, "_game", game)
    set_row_player(view, player)
    set_row_card(view, 0)
    set_row_hand(view, ())
    return view
