"""``take5rules replay`` and ``take5rules show``: a saved game narrated, or drawn as a page."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path
from typing import Any, TypeVar

import click

from take5rules._messages import N_, os_reason
from take5rules.cli.common import TurnEnd, echo_wrapped, lang_option, reported
from take5rules.errors import LogError
from take5rules.events import GameStarted
from take5rules.text import translator
from take5rules.variants import Rules

__all__ = ["replay_command", "show_command"]

F = TypeVar("F", bound=Callable[..., Any])

_WROTE = N_("{file} written; turns drawn: {turns}")


def _seat_option(function: F) -> F:
    """The ``--seat NAME`` option of ``replay`` and ``show``."""
    return click.option(
        "--seat", "seat", metavar="NAME", default=None,
        help="Tell the game as the player NAME saw it: their own hand, and the cards of the "
             "others only once revealed. FILE may also be such a seat view.",
    )(function)


@click.command("replay")
@click.argument("log_file", metavar="FILE")
@click.option("--rows/--no-rows", default=True, show_default=True,
              help="After each turn, show the four rows (as `take5rules play` does).")
@_seat_option
@lang_option
def replay_command(log_file: str, rows: bool, seat: str | None, language: str) -> None:
    """Narrate a saved game (a take5-log) turn by turn, as `take5rules play` told it.

    FILE is a take5-log (as `take5rules play --log` writes), or - for stdin. The log is checked
    first: one that breaks a rule is refused (see `take5rules validate`). A game in progress
    is told up to where its log stops. With --seat, or for a seat view, the other hands are
    hidden.
    """
    from take5rules.logs.format import load
    from take5rules.logs.seat_view import is_seat_view
    from take5rules.playing.retelling import log_events, narrate_seen, seat_events
    from take5rules.text import rows_text

    with reported(language):
        turn_end = TurnEnd()
        rules: Rules | None = None
        players: tuple[str, ...] = ()
        document = load(log_file)
        told = (log_events(document) if seat is None and not is_seat_view(document)
                else seat_events(document, seat))
        for event in told:
            if isinstance(event, GameStarted):
                rules, players = event.rules, event.players
            echo_wrapped(narrate_seen(event, language, players, rules=rules), more="  ")
            after = turn_end.rows_after(event)
            if rows and after is not None:
                echo_wrapped(rows_text(after, language), "  ", "    ")


@click.command("show")
@click.argument("log_file", metavar="FILE")
@click.option("--out", "out", metavar="FILE", required=True,
              help="The HTML page to write (- for stdout).")
@_seat_option
@lang_option
def show_command(log_file: str, out: str, seat: str | None, language: str) -> None:
    """Draw a saved game (a take5-log) as a web page, turn by turn.

    Each turn is told in the language asked and drawn with the pictures of take5rules.text.pictures:
    the table before the turn, then after each card placed. With --seat, or for a seat view,
    the page shows only what that player saw.
    """
    from take5rules.logs.format import load
    from take5rules.playing.retelling import log_html

    with reported(language):
        page = log_html(load(log_file), language, seat)
        if out == "-":
            click.echo(page, nl=False)
            return
        try:
            Path(out).write_text(page, encoding="utf-8")
        except (OSError, ValueError) as error:
            reason = os_reason(error) if isinstance(error, OSError) else str(error)
            raise LogError(N_("cannot write {source}: {reason}"), source=out,
                           reason=reason) from None
        turns = page.count("<section ")
        click.echo(translator(language).gettext(_WROTE).format(
            file=out, turns=translator(language).number(turns)))
