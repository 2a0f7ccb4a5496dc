"""The games of an arena: which deal and seating game *k* plays, and playing it to its outcome.

:class:`ArenaSetup` is what every game of an arena shares (sent once to each worker process);
:func:`deal_of` and :func:`game_seed` give game *k*'s deal, seat rotation and seed;
:func:`play_one` plays it with :func:`take5rules.playing.engine.play_game` and gives its compact
:data:`~take5rules.agents.arena_store.Outcome`, or raises an
:class:`~take5rules.agents.arena_seats.ArenaPlayerError` naming the game, its seed and the seat
of a player that failed.

A seat whose spec is a program (``cmd:COMMAND``, a
:class:`~take5rules.playing.program_player.ProgramPlayer`) keeps its program across the games
one process plays: :class:`SeatPrograms` holds them and stops them all when it is closed.
:func:`play_or_fail` gives a game that such a program stopped (it died, answered illegally or
out of shape, or too late: a :class:`~take5rules.playing.program_player.PlayerProgramError`) as
a :class:`GameFailure`, so that the arena can go on with the other games.
"""

from __future__ import annotations

import traceback
from dataclasses import dataclass
from typing import Any

from take5rules._messages import N_, Phrase
from take5rules.agents.arena_seats import (
    ArenaPlayerError,
    PlayerLike,
    TimedPlayer,
    TooSlow,
    WatchedSeat,
    load_player,
    reason,
)
from take5rules.agents.arena_store import Outcome
from take5rules.errors import Take5Error
from take5rules.events import Event, GameOver, RoundScored
from take5rules.playing.engine import play_game
from take5rules.playing.players import Player
from take5rules.playing.program_player import PlayerProgramError, ProgramPlayer
from take5rules.variants import Rules

__all__ = ["PROGRAM", "ArenaSetup", "GameFailure", "SeatPrograms", "deal_of", "game_seed",
           "is_program", "play_one", "play_or_fail", "program_player"]

_FAILED = N_("game {game} (seed {seed}), seat {seat!r}: {reason}")
_TOO_SLOW = N_("no decision within {seconds} s")

#: How a seat's spec names a player program: ``cmd:`` and its command line.
PROGRAM = "cmd:"


@dataclass(frozen=True, slots=True)
class ArenaSetup:
    """What every game of an arena shares (sent once to each worker process)."""

    specs: tuple[PlayerLike, ...]
    names: tuple[str, ...]
    rules: Rules
    seed: int
    move_timeout: float | None
    duplicate: bool = False
    #: The time controls of the player programs (``cmd:`` seats), in ms: a move, a game.
    move_ms: int | None = 10_000
    game_ms: int | None = None


def game_seed(seed: int, game: int) -> int:
    """The seed of game *game* (from 0) of an arena seeded with *seed*.

    >>> game_seed(1, 2)
    100005
    """
    return seed * 100003 + game


def deal_of(game: int, count: int, duplicate: bool) -> tuple[int, int]:
    """The deal (seed index) of game *game* and how many places its seats are rotated.

    On duplicate deals each deal is played once for each rotation of the *count* seats.

    >>> deal_of(5, 3, True), deal_of(5, 3, False)
    ((1, 2), (5, 2))
    """
    return (game // count if duplicate else game), game % count


def program_player(setup: ArenaSetup, spec: str) -> ProgramPlayer:
    """The player of the program *spec* (``cmd:COMMAND``) names, with *setup*'s time controls.

    Not started: its program starts when its first game does.

    >>> program_player(ArenaSetup((), (), Rules(), 0, None), "cmd:node 'my bot.js'").words
    ('node', 'my bot.js')
    """
    return ProgramPlayer(spec[len(PROGRAM):], move_ms=setup.move_ms, game_ms=setup.game_ms)


def is_program(spec: object) -> bool:
    """Whether *spec* names a player program (``cmd:COMMAND``): started once per seat and process.

    >>> is_program("cmd:node bot.js"), is_program("cautious")
    (True, False)
    """
    return isinstance(spec, str) and spec.startswith(PROGRAM)


class SeatPrograms:
    """The program players of an arena's seats in one process, each started once and reused.

    :meth:`player` gives a seat's player for one game: a new one for a kind, a class or a
    factory (as :func:`~take5rules.agents.arena_seats.load_player`), the same
    :class:`~take5rules.playing.program_player.ProgramPlayer` game after game for a program
    (which starts its program afresh after a failure; :func:`program_player`). :meth:`close`
    stops every program it started; so does leaving a ``with`` block.
    """

    def __init__(self) -> None:
        self.programs: dict[tuple[int, str], ProgramPlayer] = {}

    def player(self, setup: ArenaSetup, index: int, seed: int) -> Player:
        """The player of *setup*'s seat *index* (a spec's index) for a game; *seed* its seed."""
        spec = setup.specs[index]
        if not isinstance(spec, str) or not is_program(spec):
            player = load_player(spec, seed)
            if isinstance(player, ProgramPlayer):  # an object seated as it is: its seed
                player.seed = seed
            return player
        program = self.programs.get((index, spec))
        if program is None:
            program = self.programs[(index, spec)] = program_player(setup, spec)
        program.seed = seed
        return program

    def close(self) -> None:
        """Stop every program (its quit message, then signals: see the protocol)."""
        programs, self.programs = list(self.programs.values()), {}
        for program in programs:
            program.close()

    def __enter__(self) -> SeatPrograms:
        return self

    def __exit__(self, *_: object) -> None:
        self.close()


@dataclass(frozen=True, slots=True)
class GameFailure:
    """A game a player program stopped: its number (from 0) and the error that names it."""

    game: int
    error: ArenaPlayerError


class _WatchedProgram(WatchedSeat):
    """A watched seat whose program also sees what its seat may know (the engine's ``see``)."""

    def __init__(self, name: str, player: Player, current: list[str],
                 program: ProgramPlayer) -> None:
        super().__init__(name, player, current)
        self.program = program

    def see(self, seat: str, event: Event) -> None:
        """Tell the program what its seat saw."""
        self.current[0] = self.name
        self.program.see(seat, event)


def play_one(setup: ArenaSetup, game: int, programs: SeatPrograms | None = None) -> Outcome:
    """Play game *game* of *setup*: its number, seating, totals, winners and rounds (compact).

    A program that fails raises its :class:`GameFailure`'s error. *programs* holds the
    programs of the seats across games; without it, the game's programs are stopped at its
    end.

    >>> setup = ArenaSetup(("cautious", "lowest"), ("ana", "bob"), Rules(), 1, None, True)
    >>> game, order, totals, winners, penalties = play_one(setup, 1)
    >>> game, order, len(penalties) % 2
    (1, (1, 0), 0)
    """
    played = play_or_fail(setup, game, programs)
    if isinstance(played, GameFailure):
        raise played.error
    return played


def play_or_fail(setup: ArenaSetup, game: int,
                 programs: SeatPrograms | None = None) -> Outcome | GameFailure:
    """Game *game* of *setup* played: its outcome, or the failure of a program that stopped it.

    Any other failure of a player (it raised, broke a rule, took longer than
    ``setup.move_timeout``) raises an :class:`ArenaPlayerError`, as :func:`play_one` does.
    *programs* as in :func:`play_one`.
    """
    if programs is None:
        with SeatPrograms() as own:
            return play_or_fail(setup, game, own)
    count = len(setup.specs)
    deal, shift = deal_of(game, count, setup.duplicate)
    order = [*range(count)][shift:] + [*range(count)][:shift]
    this_seed = game_seed(setup.seed, deal)
    current = [""]
    try:
        seats: dict[str, Player] = {}
        for position, index in enumerate(order):
            name = setup.names[index]
            current[0] = name
            player = programs.player(setup, index, this_seed + position)
            program = player if isinstance(player, ProgramPlayer) else None
            if setup.move_timeout is not None:
                player = TimedPlayer(player, setup.move_timeout)
            seats[name] = (WatchedSeat(name, player, current) if program is None
                           else _WatchedProgram(name, player, current, program))
        penalties: list[int] = []
        over = None
        for event in play_game(seats, setup.rules, this_seed):
            if isinstance(event, RoundScored):
                penalties += [event.penalties[name] for name in setup.names]
            elif isinstance(event, GameOver):
                over = event
        assert over is not None
    except TooSlow:
        raise ArenaPlayerError("player", _FAILED, game=game + 1, seed=this_seed, seat=current[0],
                               reason=_phrase(_TOO_SLOW, seconds=setup.move_timeout)) from None
    except ArenaPlayerError:
        raise
    except PlayerProgramError as error:
        seat = error.seat if error.seat in setup.names else current[0]
        return GameFailure(game, ArenaPlayerError(  # its seat named once, in the line
            error.rule, _FAILED, details="\n".join(error.stderr), game=game + 1,
            seed=this_seed, seat=seat, reason=_phrase(error.template, **error.params),
            kind=error.kind))
    except (Exception, SystemExit) as error:
        details = traceback.format_exc()
        if isinstance(error, Take5Error):
            raise ArenaPlayerError(error.rule, _FAILED, where=error.where, details=details,
                                   game=game + 1, seed=this_seed, seat=current[0],
                                   reason=_phrase(error.template, **error.params)) from None
        raise ArenaPlayerError("player", _FAILED, details=details, game=game + 1,
                               seed=this_seed, seat=current[0], reason=reason(error)) from None
    won = set(over.winners)
    return (game, tuple(order), tuple(over.totals[name] for name in setup.names),
            sum(1 << seat for seat, name in enumerate(setup.names) if name in won),
            tuple(penalties))


def _phrase(template: str, **params: Any) -> Phrase:
    return Phrase(template, **params)
