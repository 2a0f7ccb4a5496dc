"""``take5rules conform``: check another referee program turn by turn, or a player program."""

from __future__ import annotations

import contextlib
import json
import shlex
import sys
from collections.abc import Iterator

import click

from take5rules._messages import N_
from take5rules.cli.common import choose_language, lang_option, terminal_console
from take5rules.conformance.outcome import format_result, result_json
from take5rules.conformance.player_check import (
    DEFAULT_MOVE_MS,
    check_player,
    format_player_result,
    player_result_json,
)
from take5rules.conformance.run import MAX_TIMEOUT, Progress, run_conformance
from take5rules.errors import MalformedInputError
from take5rules.playing.channel import command_words
from take5rules.text import error_message, translator

__all__ = ["conform_command"]


_BAD_TIMEOUT = N_("the timeout is a number of seconds, more than 0 and at most {limit}: not "
                  "{value}")


def _timeout(context: click.Context, value: float) -> float:
    """Check ``--timeout``: a finite number of seconds in (0, :data:`MAX_TIMEOUT`]."""
    if not 0 < value <= MAX_TIMEOUT:  # also false for nan
        language = choose_language(context.params.get("language"))
        message = translator(language).gettext(_BAD_TIMEOUT)
        raise click.BadParameter(message.format(limit=f"{MAX_TIMEOUT:g}", value=value))
    return value


@contextlib.contextmanager
def _progress_bar(language: str) -> Iterator[Progress | None]:
    """A rich progress bar on stderr when it is a terminal and rich is installed; else ``None``."""
    console = terminal_console()
    if console is None:
        yield None
        return
    from rich.progress import BarColumn, MofNCompleteColumn, TextColumn
    from rich.progress import Progress as RichProgress

    g = translator(language).gettext
    checking, shrinking = g(N_("checking")), g(N_("shrinking"))
    with RichProgress(TextColumn("{task.description}"), BarColumn(), MofNCompleteColumn(),
                      console=console, transient=True) as bar:
        task = bar.add_task(checking, total=None)

        def update(done: int, total: int, shrink: bool) -> None:
            bar.update(task, completed=done, total=total,
                       description=shrinking if shrink else checking)

        yield update


@click.command("conform")
@click.option("--cmd", "cmd", default=None, metavar="PROGRAM",
              help='The referee program to check and its arguments, e.g. "./engine --referee" '
                   "(split like a shell would; no shell is run).")
@click.option("--player", "player", default=None, metavar="PROGRAM",
              help='A player program to check against the take5-player protocol instead, e.g. '
                   '"node bot.js" (split like a shell would; no shell is run).')
@click.option("--cases", type=click.IntRange(min=0), default=1000, show_default=True,
              help="How many generated turns to send after the worked examples (--cmd).")
@click.option("--seed", type=int, default=0, show_default=True,
              help="Seed of the generated turns, or of the deals and hostile messages sent to a "
                   "player; the same seed sends the same messages.")
@click.option("--timeout", type=float, default=5.0, show_default=True,
              callback=lambda context, parameter, value: _timeout(context, value),
              help=f"Seconds the program has to answer each request (at most {MAX_TIMEOUT:g}; "
                   "--cmd).")
@click.option("--move-ms", "move_ms", type=click.IntRange(min=1, max=int(MAX_TIMEOUT * 1000)),
              default=DEFAULT_MOVE_MS, show_default=True,
              help="Milliseconds a player program has for each request (--player).")
@click.option("--json", "as_json", is_flag=True, help="Print the result as one JSON object.")
@lang_option
def conform_command(cmd: str | None, player: str | None, cases: int, seed: int, timeout: float,
                    move_ms: int, as_json: bool, language: str) -> None:
    """Check another referee program, or a player program, against take5rules.

    With --cmd, PROGRAM must speak the referee line protocol (see `take5rules referee`). Exit
    status: 0 if it agrees on every turn, 1 if it disagrees (the smallest disagreeing turn is
    shown), 2 if it is broken (cannot start, exits, hangs or answers garbage) or the command
    line is wrong.

    With --player, PROGRAM must speak the take5-player protocol: it plays every variant it
    says it plays at every number of seats, meets a low card, the drafts and a game clock, and
    the hostile messages a table may send. The first violation is shown with the shortest
    message sequence that shows it. Exit status: 0 if it follows the protocol, 1 if it answers
    illegally (a card not in its hand or pool, a row outside 0 to 3), 2 if it is broken
    otherwise (cannot start, exits, is late, answers a malformed or oversize line, or
    declines) or the command line is wrong.
    """
    g = translator(language).gettext
    if (cmd is None) == (player is None):
        raise click.UsageError(g(N_("give one of --cmd (a referee) and --player (a player)")))
    if player is not None:
        _check_player(player, seed, move_ms, as_json, language)
        return
    assert cmd is not None
    try:
        argv = shlex.split(cmd)
    except ValueError as error:
        raise click.BadParameter(str(error), param_hint="--cmd") from None
    if not argv:
        raise click.BadParameter(g(N_("the command is empty")), param_hint="--cmd")
    with _progress_bar(language) as progress:
        result = run_conformance(argv, cases=cases, seed=seed, timeout=timeout,
                                 progress=progress)
    if as_json:
        click.echo(json.dumps(result_json(result, language), ensure_ascii=False))
    else:
        click.echo(format_result(result, language))
    sys.exit(result.exit_code)


def _check_player(player: str, seed: int, move_ms: int, as_json: bool, language: str) -> None:
    """``conform --player``: check *player* against the take5-player protocol; exit."""
    try:
        words = command_words(player)
    except MalformedInputError as error:
        raise click.BadParameter(error_message(error, language), param_hint="--player"
                                 ) from None
    if seed < 0:
        raise click.BadParameter(translator(language).gettext(
            N_("the seed is a whole number, 0 or more: not {value}")).format(value=seed),
            param_hint="--seed")
    with _progress_bar(language) as progress:
        result = check_player(words, seed=seed, move_ms=move_ms, progress=progress)
    if as_json:
        click.echo(json.dumps(player_result_json(result, language), ensure_ascii=False))
    else:
        click.echo(format_player_result(result, language))
    sys.exit(result.exit_code)
