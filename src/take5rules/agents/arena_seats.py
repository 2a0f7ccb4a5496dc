"""The seats of an arena: the player a spec names, who is deciding, a time per decision, failures.

* :func:`load_player` makes the player of a spec (a built-in kind, ``module:Class``,
  ``file.py:Class``, ``cmd:COMMAND``, a class, a factory or a player object), refusing what
  is no player with an ``argument`` error; :func:`seat_label` and :func:`seat_names` name the seats.
* :class:`WatchedSeat` records which seat is deciding, so that a failure names it;
  :class:`TimedPlayer` stops a decision that takes longer than its seconds (raising
  :class:`TooSlow`).
* :class:`ArenaPlayerError`: a player raised, broke a rule or did not answer in time.
"""

from __future__ import annotations

import importlib
import importlib.util
import os
import signal
import sys
from collections.abc import Callable, Mapping, Sequence
from pathlib import Path
from typing import Any, TypeAlias

from take5rules._messages import N_
from take5rules.agents.player_kinds import PLAYER_KINDS, SEEDED_KINDS
from take5rules.errors import RulesError, Take5Error, Where
from take5rules.playing.players import Player, RandomPlayer
from take5rules.playing.program_player import ProgramPlayer
from take5rules.registry import RULE_ORDER

__all__ = [
    "ArenaPlayerError",
    "PlayerLike",
    "TimedPlayer",
    "TooSlow",
    "WatchedSeat",
    "argument_error",
    "import_target",
    "load_player",
    "not_a_player",
    "reason",
    "seat_label",
    "seat_names",
]

#: What :func:`~take5rules.agents.arena.run_arena` seats: a spec, a class or factory, or a
#: player object.
PlayerLike: TypeAlias = "str | Player | Callable[[], Player]"

#: How a spec names a player program: ``cmd:`` and its command line.
PROGRAM = "cmd:"

_UNKNOWN = N_("unknown player kind {kind!r}; choose one of {choices}")
_CANNOT_LOAD = N_("player {spec!r}: cannot load {target!r}: {reason}")
_NOT_A_PLAYER = N_("the object seated as {player!r} is not a player: it lacks choose_card, "
                   "choose_row or choose_draft")


class ArenaPlayerError(Take5Error):
    """A player failed during an arena game: it raised, broke a rule, or did not answer in time.

    ``rule`` is the rule broken when the player broke one, else ``"player"``; ``game``,
    ``seed`` and ``seat`` say where; ``details`` holds the player's traceback, as text.
    """

    def __init__(self, rule: str, template: str, /, *, where: Where | None = None,
                 details: str = "", **params: Any) -> None:
        self.details = details
        super().__init__(rule, template, where=where, **params)

    def __reduce__(self) -> tuple[Any, ...]:
        return (_rebuild, (self.rule, self.template, self.where, self.details, self.params))

    @property
    def rule_broken(self) -> bool:
        """Whether the player broke a rule of the game (rather than raising or stalling)."""
        return self.rule in RULE_ORDER


def _rebuild(rule: str, template: str, where: Where, details: str,
             params: Mapping[str, Any]) -> ArenaPlayerError:
    return ArenaPlayerError(rule, template, where=where, details=details, **params)


def argument_error(template: str, **params: Any) -> RulesError:
    """A player spec or an argument of an arena that cannot be used (id ``argument``)."""
    return RulesError("argument", template, **params)


def reason(error: BaseException) -> str:
    """An exception as one line: its type, and its message if it has one.

    >>> reason(ValueError("no  such card "))
    'ValueError: no such card'
    """
    text = " ".join(str(error).split())
    return f"{type(error).__name__}: {text}" if text else type(error).__name__


def import_target(spec: str) -> object:
    """The object ``module:Attribute`` or ``file.py:Attribute`` names.

    >>> import_target("take5rules.playing.players:LowestCardPlayer").__name__
    'LowestCardPlayer'
    """
    module_name, _, attribute = spec.rpartition(":")
    if module_name.endswith(".py") or os.sep in module_name or "/" in module_name:
        path = Path(module_name).resolve()
        name = f"take5rules_arena_{path.stem}_{abs(hash(str(path))):x}"
        module = sys.modules.get(name)
        if module is None:
            found = importlib.util.spec_from_file_location(name, path)
            if found is None or found.loader is None:
                raise ImportError(f"not a Python file: {module_name}")
            module = importlib.util.module_from_spec(found)
            sys.modules[name] = module
            try:
                found.loader.exec_module(module)
            except BaseException:
                del sys.modules[name]
                raise
    else:
        module = importlib.import_module(module_name)
    target: object = module
    for part in attribute.split("."):
        target = getattr(target, part)
    return target


def not_a_player(label: str) -> RulesError:
    """The error for an object seated as *label* that is no player (id ``argument``)."""
    return argument_error(_NOT_A_PLAYER, player=label)


def _checked(player: object, label: str) -> Player:
    if not isinstance(player, Player):
        raise not_a_player(label)
    return player


def load_player(spec: PlayerLike, seed: int | None = None, *, move_ms: int | None = 10_000,
                game_ms: int | None = None) -> Player:
    """A player for *spec*: a new one for a kind, a class or a factory; the object itself else.

    ``cmd:COMMAND`` is a player program
    (:class:`~take5rules.playing.program_player.ProgramPlayer`, its time controls *move_ms* and
    *game_ms*), not started yet, *seed* the seed of its next game. Each call makes a new one:
    to play game after game with one program, keep it and set its ``seed`` before each game (as
    the arena does); close it when done.

    >>> load_player("take5rules.playing.players:LowestCardPlayer")
    LowestCardPlayer()
    >>> load_player("cmd:node 'my bot.js'", 7).words
    ('node', 'my bot.js')
    >>> load_player("clever")
    Traceback (most recent call last):
    ...
    take5rules.errors.RulesError: unknown player kind 'clever'; choose one of random, lowest, \
cautious, greedy, montecarlo, ismcts, best, policy, module:Class, file.py:Class, cmd:COMMAND \
[argument]
    """
    if isinstance(spec, Player) and not isinstance(spec, type):
        return spec
    if spec is RandomPlayer:  # seeded by its seat, as the kind "random" is
        return RandomPlayer(seed)
    if isinstance(spec, str):
        if spec in PLAYER_KINDS:  # policy: numpy (take5rules[batch]), else one line
            kind = PLAYER_KINDS[spec]
            return kind(seed) if spec in SEEDED_KINDS else kind()
        if spec.startswith(PROGRAM):
            program = ProgramPlayer(spec[len(PROGRAM):], move_ms=move_ms, game_ms=game_ms)
            program.seed = seed
            return program
        module_name, colon, class_name = spec.rpartition(":")
        if not colon or not module_name or not class_name:
            raise argument_error(_UNKNOWN, kind=spec,
                                 choices=", ".join([*PLAYER_KINDS, "module:Class", "file.py:Class",
                                                    f"{PROGRAM}COMMAND"]))
        label = spec
    elif callable(spec):
        label = seat_label(spec)
    else:
        raise not_a_player(repr(spec)[:80])
    try:
        factory = import_target(spec) if isinstance(spec, str) else spec
        player = factory() if callable(factory) else factory
    except (Exception, SystemExit) as error:  # the spec's fault, whatever it raised
        raise argument_error(_CANNOT_LOAD, spec=label, target=label,
                             reason=reason(error)) from None
    return _checked(player, label)


def seat_label(spec: object) -> str:
    """The name a player is seated under: its spec, class or factory name.

    A program (``cmd:COMMAND``) is seated under its command.

    >>> seat_label("bots.py:Mine"), seat_label(RandomPlayer), seat_label(lambda: None)
    ('Mine', 'RandomPlayer', 'player')
    >>> seat_label("cmd:node bot.js --url http://x")
    'node bot.js --url http://x'
    """
    if isinstance(spec, str) and spec.startswith(PROGRAM):
        return " ".join(spec[len(PROGRAM):].split()) or spec
    if isinstance(spec, str):
        return spec.rpartition(":")[2] or spec
    if isinstance(spec, type):
        return spec.__name__
    if isinstance(spec, Player):
        return type(spec).__name__
    name = getattr(spec, "__name__", "")
    return name if isinstance(name, str) and name.isidentifier() else "player"


def seat_names(labels: Sequence[str]) -> tuple[str, ...]:
    """Distinct seat names from *labels*, numbered when repeated (``random``, ``random#2``).

    >>> seat_names(["random", "cautious", "random"])
    ('random', 'cautious', 'random#2')
    """
    names: list[str] = []
    for base in labels:
        name, count = base, 1
        while name in names:
            count += 1
            name = f"{base}#{count}"
        names.append(name)
    return tuple(names)


class TimedPlayer:
    """A player whose every decision must come within *seconds* (SIGALRM, main thread only).

    A decision that takes longer is interrupted by :class:`TooSlow`.
    """

    def __init__(self, player: Player, seconds: float) -> None:
        self.player, self.seconds = player, seconds

    def _ask(self, decide: Callable[[Any], int], view: Any) -> int:
        previous = signal.signal(signal.SIGALRM, _alarm)
        signal.setitimer(signal.ITIMER_REAL, self.seconds)
        try:
            return decide(view)
        finally:
            signal.setitimer(signal.ITIMER_REAL, 0)
            signal.signal(signal.SIGALRM, previous)

    def choose_card(self, view: Any) -> int:
        """The player's card, if it decides in time."""
        return self._ask(self.player.choose_card, view)

    def choose_row(self, view: Any) -> int:
        """The player's row, if it decides in time."""
        return self._ask(self.player.choose_row, view)

    def choose_draft(self, view: Any) -> int:
        """The player's draft pick, if it decides in time."""
        return self._ask(self.player.choose_draft, view)


class TooSlow(BaseException):
    """Raised in a player that has not decided in time.

    Not an ``Exception``: the player's own ``except Exception`` must not catch it.
    """


def _alarm(_signal: int, _frame: object) -> None:
    raise TooSlow


class WatchedSeat:
    """A seat that writes its name into *current* when its player decides.

    So that a failure names its seat.
    """

    def __init__(self, name: str, player: Player, current: list[str]) -> None:
        self.name, self.player, self.current = name, player, current

    def choose_card(self, view: Any) -> int:
        """The player's card."""
        self.current[0] = self.name
        return self.player.choose_card(view)

    def choose_row(self, view: Any) -> int:
        """The player's row."""
        self.current[0] = self.name
        return self.player.choose_row(view)

    def choose_draft(self, view: Any) -> int:
        """The player's draft pick."""
        self.current[0] = self.name
        return self.player.choose_draft(view)
