"""The ``take5rules arena`` command: :func:`take5rules.arena.run_arena` from the command line.

Kept out of :mod:`take5rules.arena` so that the library module does not import click; the
command group in :mod:`take5rules.cli` loads it when the command runs.
"""

from __future__ import annotations

import json
from collections.abc import Callable, Iterator
from contextlib import contextmanager

import click

from .._clitools import lang_option, reported, terminal_console
from .._text import N_, Nn_
from ..arena import ArenaResult, run_arena
from ..i18n import translator
from ..variants import DEFAULT_THRESHOLD, Rules, Variant
from .play import checked_threshold

__all__ = ["arena_command"]

_HEADERS = (N_("Player"), N_("Mean penalty"), N_("Interval 95%"), N_("Wins"))
_SUMMARY = Nn_("{games} game, variant {variant}, threshold {threshold}, seed {seed}",
               "{games} games, variant {variant}, threshold {threshold}, seed {seed}")
_PLAYING = N_("Playing games")


@contextmanager
def _progress(total: int, language: str) -> Iterator[Callable[[int], None] | None]:
    """A rich progress bar on stderr when it is a terminal; otherwise nothing."""
    console = terminal_console()
    if console is None:
        yield None
        return
    from rich.progress import Progress

    with Progress(console=console, transient=True) as bar:
        task = bar.add_task(translator(language).gettext(_PLAYING), total=total)
        yield lambda done: bar.advance(task, done)


def _table(result: ArenaResult, language: str) -> str:
    tr = translator(language)
    rows = [[tr.gettext(header) for header in _HEADERS]]
    for standing in result.standings:
        low, high = standing.interval
        rows.append([
            standing.player,
            f"{standing.mean_penalty:.2f}",
            f"{low:.2f} – {high:.2f}",
            f"{standing.wins} ({100 * standing.win_rate:.1f} %)",
        ])
    widths = [max(len(row[column]) for row in rows) for column in range(len(_HEADERS))]
    lines = [
        "  ".join(cell.ljust(width) if column == 0 else cell.rjust(width)
                  for column, (cell, width) in enumerate(zip(row, widths, strict=True)))
        for row in rows
    ]
    summary = tr.ngettext(_SUMMARY, len(result.totals)).format(
        games=len(result.totals), variant=result.rules.variant.value,
        threshold=result.rules.threshold, seed=result.seed,
    )
    return "\n".join([summary, *lines])


@click.command("arena")
@click.argument("players", nargs=-1, required=True)
@click.option("--games", type=click.IntRange(min=1), default=100, show_default=True,
              help="How many games to play.")
@click.option("--seed", type=int, default=0, show_default=True,
              help="Seed of the whole arena; game k uses seed * 100003 + k.")
@click.option("--variant", type=click.Choice([v.value for v in Variant]), default="standard",
              show_default=True, help="Which rules to play.")
@click.option("--threshold", type=int, default=DEFAULT_THRESHOLD, show_default=True,
              help="The agreed end threshold (rule variants.threshold).")
@click.option("--jobs", type=click.IntRange(min=1), default=1, show_default=True,
              help="Processes to play the games in.")
@click.option("--json", "as_json", is_flag=True, help="Print the standings as JSON.")
@lang_option
def arena_command(players: tuple[str, ...], games: int, seed: int, variant: str,
                  threshold: int, jobs: int, as_json: bool, language: str) -> None:
    """Play seeded games between PLAYERS and rank them by mean penalty.

    Each player is a built-in kind (random, lowest, cautious) or a class of yours as
    module:Class. The table gives each player's mean penalty with its 95% confidence
    interval and its wins (shared wins count for each winner).
    """
    with reported(language):
        rules = Rules(Variant.parse(variant), threshold)
        checked_threshold(threshold)
        with _progress(games, language) as progress:
            result = run_arena(players, games, seed, rules, jobs, progress)
        if as_json:
            click.echo(json.dumps(result.to_json(), ensure_ascii=False, indent=2))
        else:
            click.echo(_table(result, language))
