"""The kinds of player that every front end above playing accepts: the built-in ones and ``policy``.

:data:`PLAYER_KINDS` maps each kind to what makes one: the built-in kinds of
:data:`take5rules.playing.kinds.BUILTIN_PLAYERS`, in their order, then :data:`POLICY`, the
learned policy (:class:`take5rules.agents.policy.PolicyPlayer` with the weights shipped with
the package). The playing layer cannot name the policy, which is an agent's (and needs numpy),
so ``take5rules play``, ``take5rules player``, the arena, and the opponents of the MCP server and
of the Gymnasium environment all take their kinds from here; :func:`new_player` makes one.
For the same reason ``best`` is made here (:func:`guided_best`): the search of
:func:`take5rules.playing.kinds.best_player` with the policy as its prior.

The policy needs numpy (``pip install 'take5rules[batch]'``). Its module is imported only when
a policy player is made: without numpy every other kind works, and asking for ``policy``
raises :class:`~take5rules.text.extras.MissingExtraError`, one line naming the extra, never a
traceback (:func:`checked_kind` says so before any game starts).

>>> list(PLAYER_KINDS)
['random', 'lowest', 'cautious', 'greedy', 'montecarlo', 'ismcts', 'best', 'policy']
>>> sorted(SEEDED_KINDS)  # the policy is deterministic: it takes no seed
['best', 'ismcts', 'montecarlo', 'random']
>>> new_player("montecarlo", 3)
MonteCarloPlayer(worlds=64, rollout='greedy', seed=3)
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from types import MappingProxyType

from take5rules._messages import N_
from take5rules.errors import RulesError
from take5rules.playing.ismcts import ISMCTSPlayer
from take5rules.playing.kinds import BUILTIN_PLAYERS, SEEDED_PLAYERS, best_player
from take5rules.playing.players import Player
from take5rules.text.extras import MissingExtraError

__all__ = ["PLAYER_KINDS", "POLICY", "SEEDED_KINDS", "checked_kind", "guided_best",
           "new_player", "policy_player"]

#: The kind of the learned policy.
POLICY = "policy"

# The words of ``take5rules play`` and ``take5rules player`` (one message to translate).
_UNKNOWN_KIND = N_("unknown player kind {kind!r}; choose one of {kinds}")


def policy_player() -> Player:
    """The learned policy with the shipped weights (the kind ``policy``); it takes no seed.

    Without numpy this raises :class:`~take5rules.text.extras.MissingExtraError` (id
    ``extra``), naming the extra ``batch``.
    """
    from take5rules.agents.policy import PolicyPlayer

    return PolicyPlayer()


def guided_best(seed: int | None = 0) -> Player:
    """The kind ``best``: the information-set search with the learned policy as its prior.

    :class:`~take5rules.playing.ismcts.ISMCTSPlayer` with its defaults (350 iterations,
    exploration 20 bull heads, greedy rollouts) and
    :class:`~take5rules.agents.policy.PolicyPrior` of the shipped weights at its root (weight
    20 bull heads): one forward pass of the network a decision steers the search's first visits
    to the cards the network likes. Without numpy it is
    :func:`take5rules.playing.kinds.best_player`, the same search without the prior (``best``
    up to version 0.6.0), so a plain install keeps a working ``best``. The figures are on the
    "Strength ladder" page.
    """
    try:
        from take5rules.agents.policy import PolicyPrior
    except MissingExtraError:
        return best_player(seed)
    return ISMCTSPlayer(seed=seed, prior=PolicyPrior())


#: Every kind of player by its name, in the order the front ends list them: the built-in kinds,
#: then ``policy``. Each is a class or factory called with no argument (a search then has the
#: seed 0: the same game every time), or with a seed for the kinds of :data:`SEEDED_KINDS`.
PLAYER_KINDS: Mapping[str, Callable[..., Player]] = MappingProxyType(
    {**BUILTIN_PLAYERS, "best": guided_best, POLICY: policy_player})

#: The kinds that take a seed: those of :data:`~take5rules.playing.kinds.SEEDED_PLAYERS` (the
#: policy is deterministic).
SEEDED_KINDS: frozenset[str] = SEEDED_PLAYERS


def _unknown(kind: object) -> RulesError:
    return RulesError("argument", _UNKNOWN_KIND, kind=kind, kinds=", ".join(PLAYER_KINDS))


def checked_kind(kind: str) -> str:
    """*kind*, once it is known and the packages it needs are installed.

    An unknown kind is an ``argument`` error naming the kinds; ``policy`` without numpy is the
    :class:`~take5rules.text.extras.MissingExtraError` of its module (id ``extra``).

    >>> checked_kind("cautious")
    'cautious'
    >>> checked_kind("clever")
    Traceback (most recent call last):
    ...
    take5rules.errors.RulesError: unknown player kind 'clever'; choose one of random, lowest, \
cautious, greedy, montecarlo, ismcts, best, policy [argument]
    """
    if kind not in PLAYER_KINDS:
        raise _unknown(kind)
    if kind == POLICY:
        import take5rules.agents.policy  # noqa: F401  (numpy, or the one-line error)
    return kind


def new_player(kind: str, seed: int | None = None) -> Player:
    """A new player of *kind*: seeded with *seed* when the kind takes a seed and one is given.

    Else it is made with no argument: a search takes its own seed, 0. An unknown kind is an
    ``argument`` error naming the kinds (:func:`checked_kind`).

    >>> new_player("best", 7)  # with numpy: the search guided by the policy
    ISMCTSPlayer(iterations=350, exploration=20.0, rollout='greedy', seed=7, \
prior=PolicyPrior(layers=(1537, 256, 256, 109)), prior_weight=20.0)
    >>> new_player("ismcts")
    ISMCTSPlayer(iterations=350, exploration=20.0, rollout='greedy', seed=0)
    >>> new_player("cautious", 7)
    CautiousPlayer()
    """
    if kind not in PLAYER_KINDS:
        raise _unknown(kind)
    make = PLAYER_KINDS[kind]
    return make(seed) if seed is not None and kind in SEEDED_KINDS else make()
