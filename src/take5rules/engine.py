"""The engine: plays whole games and tournaments with pluggable players, reproducibly.

The engine owns nothing but the asking: the game itself is a :class:`~take5rules.state.Game`,
every decision comes from a :class:`~take5rules.players.Player`, every rule from the rule
functions, and everything that happens comes out as :mod:`~take5rules.events`. The same seed
gives the same game.

>>> from take5rules.players import CautiousPlayer, LowestCardPlayer, RandomPlayer
>>> seats = {"ana": CautiousPlayer(), "bob": LowestCardPlayer(), "cyd": RandomPlayer(7)}
>>> events = list(play_game(seats, seed=1))
>>> events[-1].kind, events[-1] == list(play_game(
...     {"ana": CautiousPlayer(), "bob": LowestCardPlayer(), "cyd": RandomPlayer(7)}, seed=1))[-1]
('game-over', True)
"""

from __future__ import annotations

from collections.abc import Callable, Generator, Iterator, Mapping

from ._text import N_
from .cards import Card
from .errors import RulesError
from .events import Event, GameOver, RoundScored
from .players import Player
from .state import Game, Phase
from .table import Table
from .variants import Rules

__all__ = ["play_game", "play_round", "play_silently"]


def _check_seated(seats: Mapping[str, Player]) -> None:
    """Check that every object seated is a player (rule ``setup.players``)."""
    for name, player in seats.items():
        # issubclass is cached per class and answers for every class that defines the three
        # methods; isinstance (slow for a protocol) decides the rest, as it always did.
        if not (issubclass(type(player), Player) or isinstance(player, Player)):
            raise RulesError(
                "setup.players",
                N_("the object seated as {player!r} is not a player: it lacks choose_card, "
                   "choose_row or choose_draft"),
                player=name,
            )


def _drive(
    start: Callable[[], Game], seats: Mapping[str, Player], until: int | None
) -> Iterator[Event]:
    """Ask *seats* every decision of the game *start* makes, until it is over (or round *until*).

    Yields the events of each step (none when the game builds none).
    """
    game = start()
    _check_seated(seats)
    yield from game.events
    cards = [(player, seats[player].choose_card) for player in game.players]
    rows = {player: seats[player].choose_row for player in game.players}
    drafts = {player: seats[player].choose_draft for player in game.players}
    flush = game._flush
    while True:
        phase = game.phase
        if phase is Phase.CARDS:
            steps: Iterator[None] = game._drive_turns(cards, rows)
        elif phase is Phase.DRAFT:
            steps = game._drive_picks(drafts)
        else:
            return
        for _ in steps:
            events = flush()
            if until is not None and (game.round != until or game.phase is Phase.OVER):
                for event in events:
                    yield event
                    if isinstance(event, RoundScored):
                        return
            yield from events


def play_round(
    seats: Mapping[str, Player],
    number: int,
    table: Table,
    hands: Mapping[str, tuple[Card, ...]],
    totals: Mapping[str, int],
) -> Generator[Event, None, dict[str, int]]:
    """Play one round from its deal; yield its events; return the new totals.

    A thin driver of :meth:`Game.from_deal <take5rules.state.Game.from_deal>`, which checks
    the deal: *table* a :class:`~take5rules.table.Table`, each hand distinct cards that are
    neither on the table nor in another hand, every hand the same size (ten cards, or fewer for
    a round taken up part-way), each player seated, and *totals* naming the same players. The
    last event is the round's :class:`~take5rules.events.RoundScored`.
    """
    game = Game.from_deal(list(seats), table, hands, round=number, totals=totals)
    scored: RoundScored | None = None
    for event in _drive(lambda: game, seats, number):
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
    """
    return _drive(lambda: Game(list(seats), rules, seed), seats, None)


def play_silently(
    seats: Mapping[str, Player], rules: Rules | None = None, seed: int | None = 0
) -> GameOver:
    """Play the same game as :func:`play_game` without building its events; return its end.

    For simulations that only need the result: the players decide and are checked exactly as
    in :func:`play_game`, and the :class:`~take5rules.events.GameOver` returned equals the last
    event :func:`play_game` yields with the same arguments.

    >>> from take5rules.players import RandomPlayer
    >>> over = play_silently({"ana": RandomPlayer(1), "bob": RandomPlayer(2)}, seed=4)
    >>> over == list(play_game({"ana": RandomPlayer(1), "bob": RandomPlayer(2)}, seed=4))[-1]
    True
    """
    game = Game(list(seats), rules, seed, events=False)
    for _ in _drive(lambda: game, seats, None):
        pass
    assert game.result is not None
    return game.result
