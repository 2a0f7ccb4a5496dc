"""``take5rules vectors``: write the conformance vectors."""

from __future__ import annotations

import sys

import click

from ..vectors import write_suite

__all__ = ["vectors_command"]


@click.command("vectors")
@click.option("--out", "out", metavar="DIR", type=click.Path(file_okay=False), required=True,
              help="The directory to write the suite to (created if needed).")
def vectors_command(out: str) -> None:
    """Write the conformance vectors: referee turns and whole-game logs, valid and invalid."""
    try:
        written = write_suite(out)
    except OSError as error:  # a file in the way, no permission, a full disk: one line, exit 2
        from .._text import os_reason
        from ..i18n import default_language, phrase_text

        click.echo(phrase_text("cannot write {source}: {reason}", default_language(),
                               source=str(error.filename or out), reason=os_reason(error)),
                   err=True)
        sys.exit(2)
    click.echo(f"{len(written)} files written under {out}")
