"""``take5rules player KIND``: a built-in player served over the take5-player protocol.

Another table (any language) starts this command, writes the protocol's messages to its
standard input and reads the replies from its standard output
(:func:`take5rules.playing.protocol.serve`). Each ``game`` message makes a fresh player of the
kind, seeded with the game's ``seed`` for the kinds that take one, so that ``take5rules arena
cautious "cmd:take5rules player best"`` plays exactly as ``take5rules arena cautious best``.
"""

from __future__ import annotations

import sys
from collections.abc import Callable

import click

from take5rules._messages import N_
from take5rules.cli.common import reported
from take5rules.errors import RulesError
from take5rules.playing.kinds import BUILTIN_PLAYERS, SEEDED_PLAYERS
from take5rules.playing.players import Player
from take5rules.playing.protocol import serve

__all__ = ["player_command", "player_factory"]

# The same words as ``play --players`` (one message to translate).
_UNKNOWN_KIND = N_("unknown player kind {kind!r}; choose one of {kinds}")


def player_factory(kind: str, seed: int | None = None) -> Callable[[int | None], Player]:
    """What makes *kind*'s player for a game: seeded with the game's seed, else with *seed*.

    A kind that takes no seed (``cautious``, ``lowest``) is made with none. An unknown kind
    is an argument error naming the kinds.

    >>> player_factory("best")(7)
    ISMCTSPlayer(iterations=350, exploration=20.0, rollout='greedy', seed=7)
    >>> player_factory("montecarlo", 3)(None)
    MonteCarloPlayer(worlds=64, rollout='greedy', seed=3)
    >>> player_factory("cautious", 3)(9)
    CautiousPlayer()
    """
    if kind not in BUILTIN_PLAYERS:
        raise RulesError("argument", _UNKNOWN_KIND, kind=kind, kinds=", ".join(BUILTIN_PLAYERS))
    make = BUILTIN_PLAYERS[kind]

    def fresh(game_seed: int | None) -> Player:
        chosen = seed if game_seed is None else game_seed
        if kind in SEEDED_PLAYERS and chosen is not None:
            return make(chosen)
        return make()

    return fresh


@click.command("player")
@click.argument("kind", metavar="KIND")
@click.option("--seed", type=int, default=None, metavar="N",
              help="The seed of a game whose game message gives none (default: the kind's own).")
def player_command(kind: str, seed: int | None) -> None:
    """Serve a built-in player over the take5-player protocol on stdin and stdout.

    KIND is one of random, lowest, cautious, greedy, montecarlo, ismcts, best. Each game
    message makes a fresh player, seeded with the game's seed; the program ends at quit or at
    the end of its input (at Ctrl-C with status 130). Its errors are in English, so that its
    messages do not depend on the environment.
    """
    with reported("en"):
        make = player_factory(kind, seed)
    if sys.stdout is None:
        sys.exit(1)  # nowhere to answer
    if sys.stdin is None:
        sys.exit(0)  # no input: the end of the protocol
    try:
        status = serve(make, sys.stdin, sys.stdout, f"take5rules {kind}", "take5rules")
    except KeyboardInterrupt:  # Ctrl-C at a terminal: stopped, quietly, as a signal says
        status = 130
    sys.exit(status)
