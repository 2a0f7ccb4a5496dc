"""Game logs: the ``take5-log`` format, version 1, written from the engine's events.

A facade: the format lives in :mod:`take5rules.logs.format`, the writer in
:mod:`take5rules.logs.writer`. A take5-log is a JSON document any implementation can write and
:mod:`take5rules.validate` can check. It records the variant, the threshold and the seats;
then, round by round (in a tournament, game by game), the four starting rows, the hands as
dealt (or drafted, with every pick) and the turns: each player's card and, for a low card, the
row its player took. Everything else the log may say (the rows after a turn, the cards taken,
the penalties, the totals, the winners) is a *claim*: optional, and checked when present.

>>> from take5rules.engine import play_game
>>> from take5rules.players import CautiousPlayer, LowestCardPlayer
>>> log = log_from_events(play_game({"ana": CautiousPlayer(), "bob": LowestCardPlayer()}, seed=3))
>>> log["format"], log["version"], log["variant"], log["players"]
('take5-log', 1, 'standard', ['ana', 'bob'])
"""

from __future__ import annotations

from .logs.format import (
    FORMAT,
    LOGGED_VARIANTS,
    MAX_LOG_BYTES,
    VERSION,
    LogError,
    check_format,
    check_loggable,
    check_writable,
    drafts_round,
    dumps,
    load,
    loads,
    schema,
    write_log,
)
from .logs.writer import LogWriter, log_from_events

__all__ = [
    "FORMAT",
    "LOGGED_VARIANTS",
    "MAX_LOG_BYTES",
    "VERSION",
    "LogError",
    "LogWriter",
    "check_format",
    "check_loggable",
    "check_writable",
    "drafts_round",
    "dumps",
    "load",
    "loads",
    "log_from_events",
    "schema",
    "write_log",
]
