"""``take5rules conform``: check another referee program against take5rules, turn by turn."""

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
from take5rules.conformance.run import MAX_TIMEOUT, Progress, run_conformance
from take5rules.text import translator

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
@click.option("--cmd", "cmd", required=True, metavar="PROGRAM",
              help='The program to check and its arguments, e.g. "./engine --referee" '
                   "(split like a shell would; no shell is run).")
@click.option("--cases", type=click.IntRange(min=0), default=1000, show_default=True,
              help="How many generated turns to send after the worked examples.")
@click.option("--seed", type=int, default=0, show_default=True,
              help="Seed of the generated turns; the same seed sends the same turns.")
@click.option("--timeout", type=float, default=5.0, show_default=True,
              callback=lambda context, parameter, value: _timeout(context, value),
              help=f"Seconds the program has to answer each request (at most {MAX_TIMEOUT:g}).")
@click.option("--json", "as_json", is_flag=True, help="Print the result as one JSON object.")
@lang_option
def conform_command(cmd: str, cases: int, seed: int, timeout: float, as_json: bool,
                    language: str) -> None:
    """Check another referee program against take5rules, turn by turn.

    PROGRAM must speak the referee line protocol (see `take5rules referee`). Exit status: 0 if
    it agrees on every turn, 1 if it disagrees (the smallest disagreeing turn is shown), 2 if
    it is broken (cannot start, exits, hangs or answers garbage) or the command line is wrong.
    """
    try:
        argv = shlex.split(cmd)
    except ValueError as error:
        raise click.BadParameter(str(error), param_hint="--cmd") from None
    if not argv:
        raise click.BadParameter(translator(language).gettext(N_("the command is empty")),
                                 param_hint="--cmd")
    with _progress_bar(language) as progress:
        result = run_conformance(argv, cases=cases, seed=seed, timeout=timeout,
                                 progress=progress)
    if as_json:
        click.echo(json.dumps(result_json(result, language), ensure_ascii=False))
    else:
        click.echo(format_result(result, language))
    sys.exit(result.exit_code)
