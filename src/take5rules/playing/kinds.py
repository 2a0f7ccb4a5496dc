"""The built-in kinds of player, by the names the command line, the arena and the docs use.

:data:`BUILTIN_PLAYERS` maps each kind (``random``, ``lowest``, ``cautious``, ``greedy``,
``montecarlo``, ``ismcts``, ``best``) to the class or factory that makes one;
:data:`SEEDED_PLAYERS` names the kinds that take a seed; :func:`best_player` makes ``best``
as far as this layer can: the front ends' ``best``
(:func:`take5rules.agents.player_kinds.guided_best`) guides that search with the learned policy.
This module sits above the players it names (:mod:`take5rules.playing.players`,
:mod:`~take5rules.playing.bots`, :mod:`~take5rules.playing.ismcts`), which know nothing of it.

>>> sorted(SEEDED_PLAYERS)
['best', 'ismcts', 'montecarlo', 'random']
>>> BUILTIN_PLAYERS["montecarlo"](3)
MonteCarloPlayer(worlds=64, rollout='greedy', seed=3)
"""

from __future__ import annotations

from collections.abc import Callable

from take5rules.playing.bots import GreedyPlayer, MonteCarloPlayer
from take5rules.playing.ismcts import ISMCTSPlayer
from take5rules.playing.players import CautiousPlayer, LowestCardPlayer, Player, RandomPlayer

__all__ = ["BUILTIN_PLAYERS", "SEEDED_PLAYERS", "best_player"]


def best_player(seed: int | None = 0) -> ISMCTSPlayer:
    """The search of ``best``, without the learned policy that guides it (``best`` up to 0.6.0).

    This layer cannot name the policy (an agent's, which needs numpy): the kind ``best`` of the
    front ends, :func:`take5rules.agents.player_kinds.guided_best`, is this search with the
    policy as its prior, and this search alone without numpy. The figures below are this
    search's.

    :class:`~take5rules.playing.ismcts.ISMCTSPlayer` with its defaults (350 iterations,
    exploration 20 bull heads, greedy rollouts): about 24 ms a move at four players (at most
    49 ms), 41 ms at ten (at most 86 ms over the 296 decisions of ten games against nine
    ``cautious``). Its tree chooses the seat's own later cards, which
    :class:`~take5rules.playing.bots.MonteCarloPlayer` plays greedily in its rollouts. At one
    table with the 64-world search and two ``cautious`` players, on 500 duplicate deal sets
    (2,000 games), it took 0.64 bull heads a deal fewer than the 64-world search (95%: 0.41 to
    0.87) in 0.92 its time a move. At one table with the 64-world search, the search with 108
    worlds and successive halving (``best`` up to 0.3.0) and a ``cautious`` player, on 200
    deal sets, it took 0.74 fewer than the first (0.33 to 1.15) and 0.75 fewer than the second
    (0.38 to 1.14), which were level (+0.01). The figures and their commands are on the
    "Strength ladder" page (``benchmarks/bench_strength.py``, ``benchmarks/bench_best.py``).

    >>> best_player(1)
    ISMCTSPlayer(iterations=350, exploration=20.0, rollout='greedy', seed=1)
    """
    return ISMCTSPlayer(seed=seed)


def _greedy(seed: int | None = None) -> Player:
    return GreedyPlayer(seed)


# Called with no seed (``take5rules play``), a search takes its class's own seed, 0, so that a
# game of a given seed is played the same every time (a seed of None would draw one).


def _montecarlo(seed: int | None = 0) -> Player:
    return MonteCarloPlayer(seed=seed)


def _ismcts(seed: int | None = 0) -> Player:
    return ISMCTSPlayer(seed=seed)


def _best(seed: int | None = 0) -> Player:
    return best_player(seed)


#: The built-in players by the names the command line uses: each a class or factory called
#: with no argument (a search then has the seed 0: the same game every time), or with a seed
#: for the kinds of :data:`SEEDED_PLAYERS`.
BUILTIN_PLAYERS: dict[str, Callable[..., Player]] = {
    "random": RandomPlayer,
    "lowest": LowestCardPlayer,
    "cautious": CautiousPlayer,
    "greedy": _greedy,
    "montecarlo": _montecarlo,
    "ismcts": _ismcts,
    "best": _best,
}

#: The built-in kinds that take a seed (an arena seeds each seat's player with its own).
SEEDED_PLAYERS = frozenset({"random", "montecarlo", "ismcts", "best"})
