"""The ``take5rules arena`` command: :func:`.run_arena` from the command line.

Kept out of :mod:`take5rules.agents.arena` so that the library module does not import click; the
command group in :mod:`take5rules.cli.main` loads it when the command runs.
"""

from __future__ import annotations

import json
import os
import signal
import sys
from collections.abc import Callable, Iterator
from contextlib import contextmanager

import click
from babel import Locale
from babel.numbers import format_decimal, format_percent

from take5rules._messages import N_, Nn_
from take5rules.agents.arena import (
    MAX_GAMES,
    ArenaPlayerError,
    ArenaResult,
    games_played,
    run_arena,
)
from take5rules.agents.arena_pool import Interrupted
from take5rules.agents.arguments import checked_threshold
from take5rules.cli.common import (
    exit_status,
    game_ms_option,
    lang_option,
    move_ms_option,
    output_width,
    reported,
    terminal_console,
    wrapped,
)
from take5rules.text import error_message, translator, variant_name
from take5rules.variants import DEFAULT_THRESHOLD, Rules, Variant

__all__ = ["arena_command"]

_HEADERS = (N_("Player"), N_("Mean penalty"), N_("Interval 95%"), N_("Wins"))
_SUMMARY = Nn_("{games} game: {variant}, threshold {threshold}, seed {seed}",
               "{games} games: {variant}, threshold {threshold}, seed {seed}")
_LADDER = N_("Against {baseline} (deals: {deals}; deal sets: {sets})")
_LADDER_HEADERS = (N_("Player"), N_("Per deal"), N_("Difference 95%"), N_("Per game"),
                   N_("Difference 95%"), N_("Deal wins"), N_("Game wins"), N_("Rating 95%"))
_PLAYING = N_("Playing games")
_STOPPED = N_("stopped by {signal}: no standings; every worker has been stopped")
_GOES_ON = N_("the arena goes on without game {game}")
_UNFINISHED = Nn_("{count} game did not finish ({games}): the standings leave it out",
                  "{count} games did not finish ({games}): the standings leave them out")
_LEFT_OUT = Nn_("{count} more game, of the same deals, is left out too, so that every deal "
                "kept is played in every rotation of the seats",
                "{count} more games, of the same deals, are left out too, so that every deal "
                "kept is played in every rotation of the seats")
_ROUNDED = N_("games played: {played} rather than {asked}; on duplicate deals each deal is "
              "played once in every rotation of the seats ({seats}), and --independent plays "
              "{asked}")


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


def _layout(rows: list[list[str]], width: int | None) -> list[str]:
    """*rows* as aligned lines (the first column to the left, the others to the right).

    When the lines are wider than *width* the columns are split into blocks that fit, one
    under the other, a blank line between them, each starting with the first column (the
    player). ``None``: one block, however wide.

    >>> rows = [["Player", "A", "B"], ["ana", "1.00", "22.00"]]
    >>> _layout(rows, None)
    ['Player     A      B', 'ana     1.00  22.00']
    >>> _layout(rows, 14)
    ['Player     A', 'ana     1.00', '', 'Player      B', 'ana     22.00']
    """
    widths = [max(len(row[column]) for row in rows) for column in range(len(rows[0]))]
    blocks: list[list[int]] = [[]]
    used = widths[0]
    for column in range(1, len(widths)):
        if blocks[-1] and width is not None and used + 2 + widths[column] > width:
            blocks.append([])
            used = widths[0]
        blocks[-1].append(column)
        used += 2 + widths[column]
    lines: list[str] = []
    for block in blocks:
        if lines:
            lines.append("")
        lines += ["  ".join([row[0].ljust(widths[0]),
                             *(row[column].rjust(widths[column]) for column in block)])
                  for row in rows]
    return lines


def _table(result: ArenaResult, language: str) -> str:
    tr = translator(language)

    def decimal(value: float) -> str:
        return format_decimal(value, "#,##0.00", locale=tr.locale)

    rows = [[tr.gettext(header) for header in _HEADERS]]
    for standing in result.standings:
        low, high = standing.interval
        rows.append([
            standing.player,
            decimal(standing.mean_penalty),
            f"{decimal(low)} – {decimal(high)}",
            f"{tr.number(standing.wins)} "
            f"({percent(standing.win_rate, tr.locale)})",
        ])
    lines = _layout(rows, output_width())
    summary = tr.ngettext(_SUMMARY, result.games).format(
        games=tr.number(result.games), variant=variant_name(result.rules.variant, language),
        threshold=tr.number(result.rules.threshold), seed=result.seed)
    return "\n".join([summary, *_unfinished(result, language), *lines])


def _failure_line(error: ArenaPlayerError, language: str) -> str:
    """A failing player's one line; a program's kind of failure joins its id (``[... time]``).

    >>> error = ArenaPlayerError("player", "game {game}: {reason}", game=2, reason="late",
    ...                          kind="time")
    >>> _failure_line(error, "en")
    'game 2: late [player time]'
    """
    line = error_message(error, language)
    kind = error.params.get("kind")
    if isinstance(kind, str) and line.endswith(f"[{error.rule}]"):
        line = f"{line[:-1]} {kind}]"
    return line


def _unfinished(result: ArenaResult, language: str) -> list[str]:
    """The lines that count the games a player program stopped, and those left out with them."""
    tr = translator(language)
    lines = []
    if result.unfinished:
        count = len(result.unfinished)
        shown = ", ".join(map(str, result.unfinished[:20])) + (", …" if count > 20 else "")
        lines.append(tr.ngettext(_UNFINISHED, count).format(count=tr.number(count),
                                                            games=shown))
    if result.left_out:
        lines.append(tr.ngettext(_LEFT_OUT, result.left_out).format(
            count=tr.number(result.left_out)))
    return lines


def _ladder(result: ArenaResult, baseline: str | None, language: str) -> str:
    """The duplicate protocol's report as a table (:mod:`take5rules.agents.ladder`)."""
    tr = translator(language)
    ladder = result.report(baseline)

    def decimal(value: float) -> str:
        return format_decimal(value, "#,##0.00", locale=tr.locale)

    def signed(value: float) -> str:
        return format_decimal(value, "+#,##0.00;-#,##0.00", locale=tr.locale)

    def spread(triple: tuple[float, float, float]) -> str:
        return f"{signed(triple[0])} ({signed(triple[1])} – {signed(triple[2])})"

    rows = [[tr.gettext(header) for header in _LADDER_HEADERS]]
    for rating in ladder.ratings:
        low, high = rating.elo_interval
        rows.append([rating.player, decimal(rating.per_deal), spread(rating.deal_difference),
                     decimal(rating.per_game), spread(rating.game_difference),
                     decimal(rating.deal_wins), decimal(rating.game_wins),
                     f"{format_decimal(rating.elo, '+#,##0;-#,##0', locale=tr.locale)} "
                     f"({format_decimal(low, '+#,##0;-#,##0', locale=tr.locale)} – "
                     f"{format_decimal(high, '+#,##0;-#,##0', locale=tr.locale)})"])
    lines = _layout(rows, output_width())
    title = tr.gettext(_LADDER).format(
        baseline=ladder.baseline, deals=tr.number(ladder.deals), sets=tr.number(ladder.sets))
    return "\n".join([title, *lines])


def percent(value: float, locale: Locale) -> str:
    r"""*value* as a percentage with one decimal, written the way of *locale* (Babel).

    >>> percent(0.5, Locale.parse("fr")), percent(0.5, Locale.parse("en"))
    ('50,0\xa0%', '50.0%')
    """
    pattern = locale.percent_formats[None].pattern
    head, _, tail = pattern.rpartition("0")
    return format_percent(value, f"{head}0.0{tail}", locale=locale)


def _importable_here() -> None:
    """Make the current directory importable, as ``python -m`` does."""
    here = os.getcwd()
    if here not in sys.path and "" not in sys.path:
        sys.path.insert(0, here)


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
@click.option("--duplicate/--independent", default=True, show_default=True,
              help="Play each deal once for every seat rotation, or every game on its own "
                   "deal.")
@click.option("--baseline", default=None, metavar="SEAT",
              help="The seat the others are compared with (default: the last).")
@click.option("--jobs", type=click.IntRange(min=1), default=1, show_default=True,
              help="Processes to play the games in (at most the processors).")
@click.option("--move-timeout", "move_timeout", type=click.FloatRange(min=0, min_open=True,
              max=10**6), default=None, metavar="SECONDS",
              help="Stop the run when a player takes longer than this to decide.")
@move_ms_option
@game_ms_option
@click.option("--traceback", "show_traceback", is_flag=True,
              help="When a player fails, show its traceback too.")
@click.option("--json", "as_json", is_flag=True, help="Print the standings as JSON.")
@lang_option
def arena_command(players: tuple[str, ...], games: int, seed: int, variant: str,
                  threshold: int, duplicate: bool, baseline: str | None, jobs: int,
                  move_timeout: float | None, move_ms: int | None, game_ms: int | None,
                  show_traceback: bool, as_json: bool, language: str) -> None:
    """Play seeded games between PLAYERS and rank them by mean penalty.

    Each player is a built-in kind (random, lowest, cautious, greedy, montecarlo, ismcts, best,
    policy),
    a class of yours, as
    module:Class (the current directory is importable) or path/to/file.py:Class, or a program
    speaking the take5-player protocol, as cmd:COMMAND (started once per seat and process). The
    table
    gives each player's mean penalty with its 95% bootstrap interval and its wins (shared wins
    count for each winner). On duplicate deals (the default) each deal is played once for every
    rotation of the seats (GAMES is rounded up to whole deal sets, and a line says so); the
    ladder then gives each player's bull heads per deal and per game,
    its paired difference from the baseline with a 95% bootstrap interval, its deal and game
    wins (ties split) and its Bradley-Terry rating. Both tables list the players alike, fewest
    bull heads a game first, and fit COLUMNS (or the terminal): columns that do not fit go
    to a second block. A player that fails stops the run with one line. A program that fails
    stops its game only, with one line: the arena goes on without that game (and its deal),
    and ends with status 2.
    """
    _importable_here()
    with reported(language):
        rules = Rules(Variant.parse(variant), threshold)
        checked_threshold(threshold)
        played = games_played(games, len(players), duplicate)
        if played != games and games <= MAX_GAMES:
            tr = translator(language)
            note = tr.gettext(_ROUNDED).format(played=tr.number(played), asked=tr.number(games),
                                               seats=tr.number(len(players)))
            for line in wrapped(note, output_width()):
                click.echo(line, err=True)
        failures: list[ArenaPlayerError] = []

        def failed(error: ArenaPlayerError, going_on: bool) -> None:
            line = _failure_line(error, language)
            if going_on:
                line += "; " + translator(language).gettext(_GOES_ON).format(
                    game=error.params.get("game"))
            click.echo(line, err=True)
            if show_traceback and error.details:
                click.echo(error.details.rstrip(), err=True)
            failures.append(error)

        try:
            with _progress(played, language) as progress:
                result = run_arena(players, games, seed, rules, jobs, progress,
                                   move_timeout=move_timeout, duplicate=duplicate,
                                   on_failure=failed, move_ms=move_ms, game_ms=game_ms)
            report = result.report(baseline)
        except ArenaPlayerError as error:
            if not any(error is failure for failure in failures):  # not said yet
                click.echo(_failure_line(error, language), err=True)
                if show_traceback and error.details:
                    click.echo(error.details.rstrip(), err=True)
            sys.exit(exit_status(error))
        except (KeyboardInterrupt, Interrupted) as stop:
            signum = stop.signum if isinstance(stop, Interrupted) else signal.SIGINT
            click.echo(translator(language).gettext(_STOPPED).format(
                signal=signal.Signals(signum).name), err=True)
            sys.exit(128 + signum)
        if as_json:
            document = result.to_json()
            document["report"] = report.to_json()
            click.echo(json.dumps(document, ensure_ascii=False, indent=2))
        else:
            click.echo(_table(result, language))
            click.echo("")
            click.echo(_ladder(result, baseline, language))
        if failures:  # the standings are of the games that finished; the run did not succeed
            sys.exit(exit_status(failures[0]))
