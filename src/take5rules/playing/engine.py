"""The engine: plays whole games and tournaments with pluggable players, reproducibly.

The engine owns nothing but the asking: the game itself is a
:class:`~take5rules.playing.stepper.Game`,
every decision comes from a :class:`~take5rules.playing.players.Player`, every rule from the rule
functions, and everything that happens comes out as :mod:`~take5rules.events`. The same seed
gives the same game.

>>> from take5rules.playing.players import CautiousPlayer, LowestCardPlayer, RandomPlayer
>>> seats = {"ana": CautiousPlayer(), "bob": LowestCardPlayer(), "cyd": RandomPlayer(7)}
>>> events = list(play_game(seats, seed=1))
>>> events[-1].kind, events[-1] == list(play_game(
...     {"ana": CautiousPlayer(), "bob": LowestCardPlayer(), "cyd": RandomPlayer(7)}, seed=1))[-1]
('game-over', True)
"""

from __future__ import annotations

from collections.abc import Callable, Generator, Iterator, Mapping, Sequence

from take5rules._messages import N_, shown
from take5rules.cards import Card
from take5rules.errors import MalformedInputError, RulesError
from take5rules.events import Event, GameOver, RoundScored, seen_by
from take5rules.playing.players import CardView, DraftView, Player, RowChoice
from take5rules.playing.stepper import Game, Phase
from take5rules.playing.views import (
    card_view,
    row_choice,
    set_card_hand,
    set_row_card,
    set_row_hand,
)
from take5rules.table import Table
from take5rules.variants import Rules

__all__ = ["play_game", "play_round", "play_silently"]

#: The phases as plain names (a global is read faster than an enum member from its class).
_CARDS, _DRAFT, _OVER = Phase.CARDS, Phase.DRAFT, Phase.OVER


#: The three decisions every seat is asked for.
_DECISIONS = ("choose_card", "choose_row", "choose_draft")


def _check_seated(seats: Mapping[str, Player]) -> None:
    """Check that every object seated is a player, once, before anything is asked of it.

    An object lacking one of the three methods breaks rule ``setup.players``. A class (its
    methods are not bound to a player: ``CautiousPlayer`` for ``CautiousPlayer()``) and a
    decision that cannot be called are bad arguments (``argument``), named with their seat.
    """
    for name, player in seats.items():
        if isinstance(player, type):
            raise MalformedInputError(
                "argument",
                N_("the seat {player!r} holds the class {value}, not a player: seat an "
                   "instance of it, {value}()"),
                player=name,
                value=player.__name__,
            )
        # issubclass is cached per class and answers for every class that defines the three
        # methods; isinstance (slow for a protocol) decides the rest, as it always did.
        if not (issubclass(type(player), Player) or isinstance(player, Player)):
            raise RulesError(
                "setup.players",
                N_("the object seated as {player!r} is not a player: it lacks choose_card, "
                   "choose_row or choose_draft"),
                player=name,
            )
        for decision in _DECISIONS:
            if not callable(getattr(player, decision)):
                raise MalformedInputError(
                    "argument",
                    N_("the object seated as {player!r} is not a player: its {decision} is "
                       "{value}, not a method"),
                    player=name,
                    decision=decision,
                    value=shown(getattr(player, decision)),
                )


def _listeners(seats: Mapping[str, Player]) -> list[tuple[str, Callable[[str, Event], object]]]:
    """The seats whose player listens: it has a callable ``see``, with that method."""
    found: list[tuple[str, Callable[[str, Event], object]]] = []
    for name, player in seats.items():
        see = getattr(player, "see", None)
        if callable(see) and not isinstance(player, type):
            found.append((name, see))
    return found


def _told(
    events: Iterator[Event], listeners: Sequence[tuple[str, Callable[[str, Event], object]]]
) -> Iterator[Event]:
    """*events*, each first shown to every listening seat as that seat may see it.

    A listener is told ``see(seat, seen_by(event, seat))`` before the event goes on, so that it
    knows everything up to the decision it is asked next.
    """
    for event in events:
        for name, see in listeners:
            see(name, seen_by(event, name))
        yield event


def _drive(
    start: Callable[[], Game], seats: Mapping[str, Player], until: int | None
) -> Iterator[Event]:
    """Ask *seats* every decision of the game *start* makes, until it is over (or round *until*).

    Yields the events of each step (none when the game builds none).
    """
    game = start()
    _check_seated(seats)
    yield from game.events
    cards = [(player, seats[player].choose_card, card_view(game, player))
             for player in game.players]
    rows = {player: (seats[player].choose_row, row_choice(game, player))
            for player in game.players}
    drafts = {player: seats[player].choose_draft for player in game.players}
    while True:
        phase = game.phase
        if phase is _CARDS:
            steps: Iterator[tuple[Event, ...]] = _turns(game, cards, rows)
        elif phase is _DRAFT:
            steps = _picks(game, drafts)
        else:
            return
        for events in steps:
            if until is not None and (game.round != until or game.phase is _OVER):
                for event in events:
                    yield event
                    if isinstance(event, RoundScored):
                        return
                continue
            yield from events


def _turns(
    game: Game,
    choosers: Sequence[tuple[str, Callable[[CardView], object], CardView]],
    rows: Mapping[str, tuple[Callable[[RowChoice], object], RowChoice]],
) -> Iterator[tuple[Event, ...]]:
    """Ask each seat's *choosers* for its card, then place the turn asking *rows*; repeat.

    The engine's side of :class:`~take5rules.playing.stepper.Game`: the turns go through its
    fast path, :meth:`~take5rules.playing.stepper.Game.play_turns`, which shows each seat
    its hand in its view, asks its player, checks the answer with the game's own checks and
    places the turn with the game's own transition. Each seat has one live view for the whole
    game (:mod:`take5rules.playing.views`): only its hand (and a low card) is stored for a
    decision, the rest is read from the game when the player reads it. *rows* answers a low
    card's row. Goes on while cards are awaited, yielding each turn's events (none for a game
    that builds none).
    """
    def choose(player: str, value: Card) -> object:
        choose_row, view = rows[player]
        set_row_card(view, value)
        set_row_hand(view, game.hand(player))
        return choose_row(view)

    return game.play_turns(choosers, set_card_hand, choose)


def _picks(
    game: Game, choosers: Mapping[str, Callable[[DraftView], object]]
) -> Iterator[tuple[Event, ...]]:
    """Ask each drafter in turn for its pick; yield each pick's events, while the draft goes on."""
    while game.phase is _DRAFT:
        player = game.to_move[0]
        picks = game.picks
        mine = tuple(card for seat, card in picks if seat == player)
        value = choosers[player](DraftView(
            game.round, len(picks) + 1, game.pool, mine, player, picks, game.totals,
        ))
        yield game.draft(player, value)


def play_round(
    seats: Mapping[str, Player],
    number: int,
    table: Table,
    hands: Mapping[str, tuple[Card, ...]],
    totals: Mapping[str, int],
) -> Generator[Event, None, dict[str, int]]:
    """Play one round from its deal; yield its events; return the new totals.

    A thin driver of :meth:`Game.from_deal <take5rules.playing.stepper.Game.from_deal>`, which
    checks
    the deal: *table* a :class:`~take5rules.table.Table`, each hand distinct cards that are
    neither on the table nor in another hand, every hand the same size (ten cards, or fewer for
    a round taken up part-way), each player seated, and *totals* naming the same players. The
    last event is the round's :class:`~take5rules.events.RoundScored`. A listening seat (see
    :func:`play_game`) is told every event.
    """
    game = Game.from_deal(list(seats), table, hands, round=number, totals=totals)
    scored: RoundScored | None = None
    events = _drive(lambda: game, seats, number)
    listeners = _listeners(seats)
    for event in _told(events, listeners) if listeners else events:
        if isinstance(event, RoundScored):
            scored = event
        yield event
    assert scored is not None
    return dict(scored.totals)


def play_game(
    seats: Mapping[str, Player], rules: Rules | None = None, seed: int | None = 0
) -> Iterator[Event]:
    """Play a whole game (or, with ``Variant.TOURNAMENT``, a tournament) and yield its events.

    *seats* maps each player's name to the object that decides for them, in seat order; *seed*
    fixes the shuffles. Every answer of a player is checked: a card that is not in their hand
    (105, a card already played, anything that is not a card) raises
    :class:`~take5rules.errors.IllegalMoveError` (rule ``turn.reveal``), and so does a row
    outside 0..3 for a low card (rule ``table.low-card``).

    A seat's player that has a callable ``see`` listens: it is called ``see(seat, event)``
    with every event, as that seat may see it (:func:`take5rules.events.seen_by`: a
    :class:`~take5rules.events.RoundStarted` with only its own hand), before the event is
    yielded, so before the seat is asked its next decision.
    """
    events = _drive(lambda: Game(list(seats), rules, seed), seats, None)
    listeners = _listeners(seats)
    return _told(events, listeners) if listeners else events


def play_silently(
    seats: Mapping[str, Player], rules: Rules | None = None, seed: int | None = 0
) -> GameOver:
    """Play the same game as :func:`play_game` without building its events; return its end.

    For simulations that only need the result: the players decide and are checked exactly as
    in :func:`play_game`, and the :class:`~take5rules.events.GameOver` returned equals the last
    event :func:`play_game` yields with the same arguments. A listening seat (see
    :func:`play_game`) is told every event here too: the events are then built for it.

    >>> from take5rules.playing.players import RandomPlayer
    >>> over = play_silently({"ana": RandomPlayer(1), "bob": RandomPlayer(2)}, seed=4)
    >>> over == list(play_game({"ana": RandomPlayer(1), "bob": RandomPlayer(2)}, seed=4))[-1]
    True
    """
    listeners = _listeners(seats)
    if listeners:  # a seat listens: the game must build its events to tell them
        game = Game(list(seats), rules, seed)
        for _ in _told(_drive(lambda: game, seats, None), listeners):
            pass
    else:
        game = Game(list(seats), rules, seed, events=False)
        for _ in _drive(lambda: game, seats, None):
            pass
    assert game.result is not None
    return game.result
