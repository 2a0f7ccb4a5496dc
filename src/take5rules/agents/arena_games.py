"""The games of an arena: which deal and seating game *k* plays, and playing it to its outcome.

:class:`ArenaSetup` is what every game of an arena shares (sent once to each worker process);
:func:`deal_of` and :func:`game_seed` give game *k*'s deal, seat rotation and seed;
:func:`play_one` plays it with :func:`take5rules.playing.engine.play_game` and gives its compact
:data:`~take5rules.agents.arena_store.Outcome`, or raises an
:class:`~take5rules.agents.arena_seats.ArenaPlayerError` naming the game, its seed and the seat
of a player that failed.
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
from take5rules.events import GameOver, RoundScored
from take5rules.playing.engine import play_game
from take5rules.playing.players import Player
from take5rules.variants import Rules

__all__ = ["ArenaSetup", "deal_of", "game_seed", "play_one"]

_FAILED = N_("game {game} (seed {seed}), seat {seat!r}: {reason}")
_TOO_SLOW = N_("no decision within {seconds} s")


@dataclass(frozen=True, slots=True)
class ArenaSetup:
    """What every game of an arena shares (sent once to each worker process)."""

    specs: tuple[PlayerLike, ...]
    names: tuple[str, ...]
    rules: Rules
    seed: int
    move_timeout: float | None
    duplicate: bool = False


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


def play_one(setup: ArenaSetup, game: int) -> Outcome:
    """Play game *game* of *setup*: its number, seating, totals, winners and rounds (compact).

    >>> setup = ArenaSetup(("cautious", "lowest"), ("ana", "bob"), Rules(), 1, None, True)
    >>> game, order, totals, winners, penalties = play_one(setup, 1)
    >>> game, order, len(penalties) % 2
    (1, (1, 0), 0)
    """
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
            player = load_player(setup.specs[index], this_seed + position)
            if setup.move_timeout is not None:
                player = TimedPlayer(player, setup.move_timeout)
            seats[name] = WatchedSeat(name, player, current)
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
