"""take5rules: the rules of Take 5 / 6 nimmt! (Kramer, Amigo 1994) as a typed Python library.

Every rule is one function with a stable id (see :mod:`take5rules.registry`); the engine plays
games from those functions and yields typed events that are narrated in five languages, written
to game logs, and checked against other implementations.

>>> import take5rules
>>> table = take5rules.Table.of([[12], [37], [43], [58]])
>>> take5rules.place_card(table, 44).table.rows
((12,), (37,), (43, 44), (58,))
>>> take5rules.bull_heads(55)
7
>>> take5rules.explain("game.end", "it").title
'Fine della partita'

The names below are imported on first use (so that ``import take5rules``, and the
``take5rules`` command's start, cost nothing until they are needed); so is any submodule named
as an attribute, e.g. ``take5rules.text``.
"""

from __future__ import annotations

import importlib
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from take5rules.cards import bull_heads, deck
    from take5rules.errors import (
        IllegalMoveError,
        LogError,
        MalformedInputError,
        ProtocolError,
        RulesError,
        Take5Error,
        Where,
    )
    from take5rules.logs.validator import validate
    from take5rules.playing.engine import play_game, play_silently
    from take5rules.playing.players import CautiousPlayer, LowestCardPlayer, Player, RandomPlayer
    from take5rules.playing.stepper import Game, Phase
    from take5rules.registry import all_rules, get
    from take5rules.table import Placement, Table, place_card
    from take5rules.text import explain, narrate
    from take5rules.turn import LowCard, resolve_turn
    from take5rules.variants import Rules, Variant

__version__ = "0.6.0"

#: Where each public name lives.
_HOMES = {
    "bull_heads": "cards",
    "deck": "cards",
    "play_game": "playing.engine",
    "play_silently": "playing.engine",
    "IllegalMoveError": "errors",
    "LogError": "errors",
    "MalformedInputError": "errors",
    "ProtocolError": "errors",
    "RulesError": "errors",
    "Take5Error": "errors",
    "Where": "errors",
    "explain": "text",
    "narrate": "text",
    "CautiousPlayer": "playing.players",
    "LowestCardPlayer": "playing.players",
    "Player": "playing.players",
    "RandomPlayer": "playing.players",
    "all_rules": "registry",
    "get": "registry",
    "Game": "playing.stepper",
    "Phase": "playing.stepper",
    "Placement": "table",
    "Table": "table",
    "place_card": "table",
    "LowCard": "turn",
    "resolve_turn": "turn",
    "validate": "logs.validator",
    "Rules": "variants",
    "Variant": "variants",
}

__all__ = [
    "CautiousPlayer",
    "Game",
    "IllegalMoveError",
    "LogError",
    "LowCard",
    "LowestCardPlayer",
    "MalformedInputError",
    "Phase",
    "Placement",
    "Player",
    "ProtocolError",
    "RandomPlayer",
    "Rules",
    "RulesError",
    "Table",
    "Take5Error",
    "Variant",
    "Where",
    "__version__",
    "all_rules",
    "bull_heads",
    "deck",
    "explain",
    "get",
    "narrate",
    "place_card",
    "play_game",
    "play_silently",
    "resolve_turn",
    "validate",
]


def __getattr__(name: str) -> Any:
    """Import a public name (or a submodule) of the package when it is first used."""
    home = _HOMES.get(name)
    if home is not None:
        value = getattr(importlib.import_module(f".{home}", __name__), name)
    elif not name.startswith("__"):
        try:
            value = importlib.import_module(f".{name}", __name__)
        except ModuleNotFoundError as error:
            if error.name != f"{__name__}.{name}":
                raise
            raise AttributeError(f"module {__name__!r} has no attribute {name!r}") from None
    else:
        raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
    globals()[name] = value
    return value


def __dir__() -> list[str]:
    return sorted({*globals(), *__all__})
