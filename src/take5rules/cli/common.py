"""What every ``take5rules`` command shares: ``--lang``, one-line errors, a terminal for bars.

Kept apart from :mod:`take5rules.cli.main` so that the modules defining commands (``validate``,
``conform``, ``vectors``) can use it without importing the command group.
"""

from __future__ import annotations

import os
import sys
import textwrap
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from typing import Any, TypeVar

import click

from take5rules.errors import Take5Error
from take5rules.events import CardPlaced, CardsRevealed, Event, RowTaken
from take5rules.text import available_languages, error_message, resolve_language

__all__ = [
    "LANGUAGE_VARIABLES",
    "TurnEnd",
    "choose_language",
    "echo_wrapped",
    "error_line",
    "exit_status",
    "game_ms_option",
    "lang_option",
    "move_ms_option",
    "output_width",
    "reported",
    "terminal_console",
    "wrapped",
]

F = TypeVar("F", bound=Callable[..., Any])


#: Where a command finds its language when ``--lang`` is not given, first set first, as
#: :func:`take5rules.text.default_language` reads them.
LANGUAGE_VARIABLES = ("LC_ALL", "LC_MESSAGES", "LANG")


def choose_language(value: str | None) -> str:
    """The language for *value* (``None``: the environment's), saying so on stderr on fallback.

    A language the environment asks for and take5rules does not speak (``LANG=pt_BR.UTF-8``)
    falls back to English with the same notice as ``--lang pt``; ``C`` and ``POSIX`` are English.
    """
    if value is None:
        value = next((os.environ[name] for name in LANGUAGE_VARIABLES if os.environ.get(name)),
                     None)
        if value is None:
            return "en"
    language, notice = resolve_language(value)
    if notice:
        click.echo(notice, err=True)
    return language


def lang_option(function: F) -> F:
    """The ``--lang`` option: the command receives ``language``, a supported language code."""
    return click.option(
        "--lang",
        "language",
        metavar="LANG",
        default=None,
        callback=lambda _context, _parameter, value: choose_language(value),
        help=f"Language of the text: {', '.join(available_languages())} (default: from LC_ALL, "
        "LC_MESSAGES, LANG).",
    )(function)


#: The longest time control the command line takes, in ms (a day).
_MAX_MS = 86_400_000


def move_ms_option(function: F) -> F:
    """The ``--move-ms`` option: a player program's time for each decision (``move_ms``)."""
    return click.option(
        "--move-ms", "move_ms", type=click.IntRange(1, _MAX_MS), default=10_000,
        show_default=True, metavar="MS",
        help="A player program's (cmd:) time for each decision, in wall-clock milliseconds.",
    )(function)


def game_ms_option(function: F) -> F:
    """The ``--game-ms`` option: a player program's time for a whole game (``game_ms``)."""
    return click.option(
        "--game-ms", "game_ms", type=click.IntRange(1, _MAX_MS), default=None, metavar="MS",
        help="A player program's (cmd:) time for a whole game, the sum of its decisions, in "
             "wall-clock milliseconds (default: no limit).",
    )(function)


def exit_status(error: Take5Error) -> int:
    """The exit status for *error*: 1 when it names a rule of the game, 2 otherwise.

    A rule broken (``setup.players``, ``variants.threshold``, ``turn.reveal``...) is 1; a
    usage, input or output error (ids ``argument``, ``log``, ``protocol``, ``registry``...) is 2.

    >>> from take5rules.errors import LogError, RulesError
    >>> exit_status(RulesError("setup.players", "x")), exit_status(LogError("x"))
    (1, 2)
    """
    from take5rules.registry import RULE_ORDER

    return 1 if error.rule in RULE_ORDER else 2


@contextmanager
def reported(language: str) -> Iterator[None]:
    """Turn a library error into one localized line on stderr, exit status 1 or 2.

    1 when the error names a rule of the game, 2 for usage, input and output errors
    (:func:`exit_status`).
    """
    try:
        yield
    except Take5Error as error:
        click.echo(error_line(error, language), err=True)
        sys.exit(exit_status(error))


def error_line(error: Take5Error, language: str) -> str:
    """*error* as the one line a command prints: a player program's kind joins its id.

    >>> from take5rules.errors import Take5Error
    >>> error_line(Take5Error("player-protocol", "{detail}", detail="late", kind="time"), "en")
    'late [player-protocol time]'
    """
    line = error_message(error, language)
    kind = error.params.get("kind")
    if error.rule == "player-protocol" and isinstance(kind, str) and line.endswith(
            f"[{error.rule}]"):
        line = f"{line[:-1]} {kind}]"
    return line


def output_width(default: int | None = None) -> int | None:
    """The width to wrap prose to: ``COLUMNS``, else the terminal's, else *default*.

    ``None`` (no wrapping) when stdout is not a terminal, ``COLUMNS`` is not set and no
    *default* is given: a script reading a pipe gets whole lines.
    """
    columns = os.environ.get("COLUMNS", "")
    if columns.isdigit() and 20 <= int(columns) <= 10_000:
        return int(columns)
    try:
        if sys.stdout is not None and sys.stdout.isatty():
            return max(20, os.get_terminal_size(sys.stdout.fileno()).columns)
    except (AttributeError, OSError, ValueError):
        pass
    return default


def wrapped(text: str, width: int | None, indent: str = "", more: str | None = None
            ) -> list[str]:
    """*text* cut into lines of at most *width* (never cut when ``None``), first *indent*."""
    if width is None:
        return [indent + text]
    return textwrap.wrap(text, width=max(width, len(indent) + 10), initial_indent=indent,
                         subsequent_indent=indent if more is None else more,
                         break_on_hyphens=False, break_long_words=False) or [indent]


def echo_wrapped(text: str, indent: str = "", more: str | None = None) -> None:
    """Print each line of *text*, wrapped to :func:`output_width`."""
    width = output_width()
    for line in text.splitlines() or [""]:
        for piece in wrapped(line, width, indent, more):
            click.echo(piece)


def terminal_console() -> Any | None:
    """A rich ``Console`` on stderr for a progress bar, or ``None``.

    ``None`` unless rich (the optional extra ``take5rules[cli]``) is installed and stderr is a
    terminal, as rich judges it (``TTY_COMPATIBLE`` and the like included): a bar is for a
    person watching, never for a pipe or a log file.
    """
    if sys.stderr is None:
        return None
    try:
        from rich.console import Console
    except ImportError:
        return None
    console = Console(stderr=True)
    return console if console.is_terminal else None


class TurnEnd:
    """Follows a game's events and says when a turn's last card is placed, with the rows then.

    ``play`` and ``replay`` both show the rows after each turn through it, so that a replay
    tells a game exactly as ``play`` told it.
    """

    def __init__(self) -> None:
        self._unplaced = 0

    def rows_after(self, event: Event) -> tuple[tuple[int, ...], ...] | None:
        """The rows when *event* places the last card of its turn; else ``None``."""
        if isinstance(event, CardsRevealed):
            self._unplaced = len(event.plays)
        elif isinstance(event, CardPlaced | RowTaken):
            self._unplaced -= 1
            if self._unplaced == 0:
                return event.rows
        return None
