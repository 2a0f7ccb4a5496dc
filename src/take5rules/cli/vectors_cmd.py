"""``take5rules vectors``: write the conformance vectors."""

from __future__ import annotations

import sys

import click

from take5rules._messages import Nn_
from take5rules.cli.common import lang_option
from take5rules.conformance.vectors import write_suite

__all__ = ["vectors_command"]

_WRITTEN = Nn_("{count} file written under {directory}", "{count} files written under {directory}")


@click.command("vectors")
@click.option("--out", "out", metavar="DIR", type=click.Path(file_okay=False), required=True,
              help="The directory to write the suite to (created if needed).")
@lang_option
def vectors_command(out: str, language: str) -> None:
    """Write the conformance vectors: referee turns and whole-game logs, valid and invalid."""
    from take5rules.text import phrase_text, translator

    try:
        written = write_suite(out)
    except OSError as error:  # a file in the way, no permission, a full disk: one line, exit 2
        from take5rules._messages import os_reason

        click.echo(phrase_text("cannot write {source}: {reason}", language,
                               source=str(error.filename or out), reason=os_reason(error)),
                   err=True)
        sys.exit(2)
    tr = translator(language)
    click.echo(tr.ngettext(_WRITTEN, len(written)).format(count=tr.number(len(written)),
                                                         directory=out))
