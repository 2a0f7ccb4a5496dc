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
"""

from __future__ import annotations

from .cards import bull_heads, deck
from .engine import play_game, play_silently
from .errors import IllegalMoveError, MalformedInputError, ProtocolError, RulesError, Take5Error
from .players import CautiousPlayer, LowestCardPlayer, Player, RandomPlayer
from .registry import all_rules, get
from .table import Placement, Table, place_card
from .turn import resolve_turn
from .variants import Rules, Variant

__version__ = "0.1.0"

__all__ = [
    "CautiousPlayer",
    "IllegalMoveError",
    "LowestCardPlayer",
    "MalformedInputError",
    "Placement",
    "Player",
    "ProtocolError",
    "RandomPlayer",
    "Rules",
    "RulesError",
    "Table",
    "Take5Error",
    "Variant",
    "__version__",
    "all_rules",
    "bull_heads",
    "deck",
    "get",
    "place_card",
    "play_game",
    "play_silently",
    "resolve_turn",
]
