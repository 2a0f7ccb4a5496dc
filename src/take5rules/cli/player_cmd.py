"""``take5rules player KIND``: a built-in player served over the take5-player protocol.

Another table (any language) starts this command, writes the protocol's messages to its
standard input and reads the replies from its standard output
(:func:`take5rules.playing.protocol.serve`). Each ``game`` message makes a fresh player of the
kind, seeded with the game's ``seed`` for the kinds that take one, so that ``take5rules arena
cautious "cmd:take5rules player best"`` plays exactly as ``take5rules arena cautious best``.
The kinds are those of :data:`take5rules.agents.player_kinds.PLAYER_KINDS`, the learned
``policy`` included (it takes no seed; without numpy the command says so in one line).
"""

from __future__ import annotations

import sys
from collections.abc import Callable

import click

from take5rules.agents.player_kinds import checked_kind, new_player
from take5rules.cli.common import reported
from take5rules.playing.players import Player
from take5rules.playing.protocol import serve

__all__ = ["player_command", "player_factory"]


def player_factory(kind: str, seed: int | None = None) -> Callable[[int | None], Player]:
    """What makes *kind*'s player for a game: seeded with the game's seed, else with *seed*.

    A kind that takes no seed (``cautious``, ``lowest``, ``policy``) is made with none. An
    unknown kind is an argument error naming the kinds, and ``policy`` without numpy the error
    naming the extra (id ``extra``), both before any game.

    >>> player_factory("ismcts")(7)
    ISMCTSPlayer(iterations=350, exploration=20.0, rollout='greedy', seed=7)
    >>> player_factory("montecarlo", 3)(None)
    MonteCarloPlayer(worlds=64, rollout='greedy', seed=3)
    >>> player_factory("cautious", 3)(9)
    CautiousPlayer()
    """
    checked_kind(kind)

    def fresh(game_seed: int | None) -> Player:
        return new_player(kind, seed if game_seed is None else game_seed)

    return fresh


@click.command("player")
@click.argument("kind", metavar="KIND")
@click.option("--seed", type=int, default=None, metavar="N",
              help="The seed of a game whose game message gives none (default: the kind's own).")
def player_command(kind: str, seed: int | None) -> None:
    """Serve a built-in player over the take5-player protocol on stdin and stdout.

    KIND is one of random, lowest, cautious, greedy, montecarlo, ismcts, best, policy (the
    learned policy; needs take5rules[batch]). Each game message makes a fresh player, seeded
    with the game's seed; the program ends at quit or at the end of its input (at Ctrl-C with
    status 130). Its errors are in English, so that its messages do not depend on the
    environment.
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
