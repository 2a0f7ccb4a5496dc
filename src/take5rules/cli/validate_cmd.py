"""``take5rules validate``: check take5-log game logs against every rule."""

from __future__ import annotations

import json
import sys
from collections.abc import Iterator
from contextlib import contextmanager
from typing import Any

import click

from take5rules._messages import N_, Nn_
from take5rules.cli.common import lang_option, terminal_console
from take5rules.logs.format import LogError
from take5rules.logs.report import Report
from take5rules.logs.validator import validate_files
from take5rules.text import error_message, label, labelled, translator

__all__ = ["validate_command"]

_VALID = N_("{file}: valid, a finished game")
_IN_PROGRESS = N_("{file}: valid, a game in progress (incomplete)")
_VIOLATIONS = Nn_("{file}: {count} violation", "{file}: {count} violations")
_AT = N_("at {path}")


def _text_report(name: str, outcome: Report | LogError, language: str) -> list[str]:
    tr = translator(language)
    if isinstance(outcome, LogError):
        return [labelled(name, error_message(outcome, language), language)]
    if outcome.valid:
        return [tr.gettext(_VALID if outcome.complete else _IN_PROGRESS).format(file=name)]
    lines = [tr.ngettext(_VIOLATIONS, len(outcome.violations)).format(
        file=name, count=tr.number(len(outcome.violations)))]
    for violation in outcome.violations:
        lines.append(labelled(name, violation.message(language), language))
        lines.append("  " + tr.gettext(_AT).format(path=violation.path))
        lines.append("  " + labelled(f"{label('rule', language)} {violation.rule}",
                                     violation.statement(language), language))
    return lines


@contextmanager
def _progress(total: int) -> Iterator[Any]:
    """A transient progress bar on a terminal's stderr for long runs, when rich is installed."""
    console = terminal_console() if total >= 2 else None
    if console is None:
        yield None
        return
    from rich.progress import Progress

    with Progress(console=console, transient=True, redirect_stdout=False,
                  redirect_stderr=False) as progress:
        yield progress


@click.command("validate")
@click.argument("files", nargs=-1, required=True, metavar="FILE...")
@click.option("--json", "as_json", is_flag=True, help="Print a machine-readable report (JSON).")
@lang_option
def validate_command(files: tuple[str, ...], as_json: bool, language: str) -> None:
    """Check take5-log game logs (FILE, or - for stdin) against every rule.

    Exit status 0 when every file is valid, 1 when any breaks a rule, 2 when a file cannot be
    read or is not a take5-log.
    """
    status = 0
    entries: list[dict[str, Any]] = []
    lines: list[tuple[str, bool]] = []
    with _progress(len(files)) as progress:
        task = progress.add_task("validate", total=len(files)) if progress is not None else None
        for name, outcome in validate_files(files):
            if isinstance(outcome, LogError):
                status = 2
                entries.append({"file": name, "status": "error",
                                "error": {**outcome.to_json(),
                                          "message": error_message(outcome, language)}})
            else:
                if not outcome.valid:
                    status = max(status, 1)
                entries.append({"file": name,
                                "status": "valid" if outcome.valid else "invalid",
                                **outcome.to_json(language)})
            error = isinstance(outcome, LogError)
            lines.extend((line, error) for line in _text_report(name, outcome, language))
            if progress is not None:
                progress.advance(task)
    if as_json:
        click.echo(json.dumps({"status": status, "files": entries}, ensure_ascii=False,
                              indent=2))
    else:
        for line, error in lines:
            click.echo(line, err=error)
    sys.exit(status)
