"""What every ``take5rules`` command shares: ``--lang``, one-line errors, a terminal for bars.

Kept apart from :mod:`take5rules.cli` so that the modules defining commands (``validate``,
``conform``, ``vectors``) can use it without importing the command group.
"""

from __future__ import annotations

import sys
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from typing import Any, TypeVar

import click

from .errors import Take5Error
from .i18n import LANGUAGES, default_language, error_message, resolve_language

__all__ = ["choose_language", "lang_option", "reported", "terminal_console"]

F = TypeVar("F", bound=Callable[..., Any])


def choose_language(value: str | None) -> str:
    """The language for *value* (``None``: the environment's), saying so on stderr on fallback."""
    if value is None:
        return default_language()
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
        help=f"Language of the text: {', '.join(LANGUAGES)} (default: from LC_ALL, "
        "LC_MESSAGES, LANG).",
    )(function)


@contextmanager
def reported(language: str) -> Iterator[None]:
    """Turn a library error into one localized line on stderr and exit status 1."""
    try:
        yield
    except Take5Error as error:
        click.echo(error_message(error, language), err=True)
        sys.exit(1)


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
