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

from take5rules._messages import N_
from take5rules.cards import Card
from take5rules.errors import RulesError, Where
from take5rules.events import Event, GameOver, RoundScored
from take5rules.playing.answers import _lay, _row_index
from take5rules.playing.players import CardView, DraftView, Player
from take5rules.playing.stepper import _CARDS, _DRAFT, _OVER, Game
from take5rules.playing.views import (
    card_view,
    row_choice,
    set_card_hand,
    set_row_card,
    set_row_hand,
)
from take5rules.setup import ROWS
from take5rules.table import Table
from take5rules.turn import RowChoice
from take5rules.variants import Rules, next_drafter

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
    cards = [(player, seats[player].choose_card, card_view(game, player))
             for player in game.players]
    rows = {player: (seats[player].choose_row, row_choice(game, player))
            for player in game.players}
    drafts = {player: seats[player].choose_draft for player in game.players}
    flush = game._flush
    out: list[Event] = game._out if game._out is not None else []
    pause = game._emit or until is not None
    while True:
        phase = game.phase
        if phase is _CARDS:
            steps: Iterator[None] = _turns(game, cards, rows, pause)
        elif phase is _DRAFT:
            steps = _picks(game, drafts)
        else:
            return
        for _ in steps:
            if until is not None and (game.round != until or game.phase is _OVER):
                for event in flush():
                    yield event
                    if isinstance(event, RoundScored):
                        return
            # The step's events straight from the game's list (the game waits meanwhile).
            yield from out
            out.clear()


def _turns(
    game: Game,
    choosers: Sequence[tuple[str, Callable[[CardView], object], CardView]],
    rows: Mapping[str, tuple[Callable[[RowChoice], object], RowChoice]],
    pause: bool,
) -> Iterator[None]:
    """Ask each seat's *choosers* for its card, then place the turn asking *rows*; repeat.

    The engine's side of :class:`~take5rules.playing.stepper.Game`: it asks the players as
    :meth:`~take5rules.playing.stepper.Game.play` would be told, checks each answer with the game's
    own
    checks and places the turn with the game's own transition. Each seat has one live view for
    the whole game (:mod:`take5rules.playing.views`): only its hand (and a low card) is stored for a
    decision, the rest is read from the game when the player reads it. *rows* answers a low
    card's row. Goes on while cards are awaited, pausing after each turn when *pause* (so that
    each turn's events reach the caller before the next turn is asked).
    """
    def choose(player: str, value: Card) -> int:
        choose_row, view = rows[player]
        set_row_card(view, value)
        set_row_hand(view, tuple(game._hands[player]))
        choice = choose_row(view)
        return choice if type(choice) is int and 0 <= choice < ROWS else _row_index(
            choice, Where(game.round, game.turn, player, value))

    place = game._place
    hands: dict[str, list[Card]] = {}
    seated: list[tuple[str, Callable[[CardView], object], CardView, list[Card]]] = []
    while game._phase is _CARDS:
        if game._hands is not hands:  # a new round: each seat's hand, looked up once
            hands = game._hands
            seated = [(player, choose_card, view, hands[player])
                      for player, choose_card, view in choosers]
        laid = game._laid
        for player, choose_card, view, hand in seated:
            set_card_hand(view, tuple(hand))
            value = choose_card(view)
            try:
                # The answer checked as _lay checks it, without its call for a plain int.
                if type(value) is not int:
                    raise ValueError
                hand.remove(value)
                laid[player] = value
            except ValueError:
                laid[player] = _lay(hand, value, game.round, game.turn, player)
        place(choose, True)
        if pause:
            yield


def _picks(game: Game, choosers: Mapping[str, Callable[[DraftView], object]]) -> Iterator[None]:
    """Ask each drafter in turn for its pick; pause after each, while the draft goes on."""
    while game._phase is _DRAFT:
        player = next_drafter(game.players, len(game._picks))
        mine = tuple(card for seat, card in game._picks if seat == player)
        value = choosers[player](DraftView(
            game.round, len(game._picks) + 1, tuple(game._pool), mine, player, game._picks,
            game._totals_snapshot(),
        ))
        game._draft(player, value)
        yield


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

    >>> from take5rules.playing.players import RandomPlayer
    >>> over = play_silently({"ana": RandomPlayer(1), "bob": RandomPlayer(2)}, seed=4)
    >>> over == list(play_game({"ana": RandomPlayer(1), "bob": RandomPlayer(2)}, seed=4))[-1]
    True
    """
    game = Game(list(seats), rules, seed, events=False)
    for _ in _drive(lambda: game, seats, None):
        pass
    assert game.result is not None
    return game.result
