"""``take5rules referee``: answer the referee line protocol on stdin and stdout."""

from __future__ import annotations

import sys

import click

from take5rules.cli.common import choose_language
from take5rules.conformance.referee import serve

__all__ = ["referee"]


@click.command("referee")
@click.option("--lang", "language", metavar="LANG", default="en", show_default=True,
              callback=lambda _context, _parameter, value: choose_language(value),
              help="Language of the error messages in replies (rule ids never change).")
def referee(language: str) -> None:
    """Answer the referee line protocol: one JSON turn per line on stdin, one reply per line.

    Unlike the commands that talk to people, the referee answers in English unless --lang says
    otherwise, so that its replies do not depend on the environment.
    """
    if sys.stdout is None:
        sys.exit(1)  # nowhere to answer: quietly, as after a broken pipe
    if sys.stdin is None:
        sys.exit(0)  # no input: the end of input, which ends the protocol
    sys.exit(serve(sys.stdin, sys.stdout, language))
