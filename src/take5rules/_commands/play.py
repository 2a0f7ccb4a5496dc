"""``take5rules play``: play a whole game between built-in players and narrate it."""

from __future__ import annotations

import json
from typing import Any

import click

from .._clitools import lang_option, reported
from .._text import N_
from ..engine import play_game
from ..errors import RulesError
from ..events import CardPlaced, CardsRevealed, Event, RowTaken
from ..i18n import narrate, rows_text, translator
from ..players import BUILTIN_PLAYERS, Player
from ..setup import check_players
from ..variants import DEFAULT_THRESHOLD, Rules, Variant

__all__ = ["MAX_THRESHOLD", "event_json", "play"]

#: The highest threshold ``take5rules play`` accepts. Whatever the players do, a round takes
#: at least 10n - 16 cards off the table (10n are played onto four rows that hold at most 20),
#: each worth at least one bull head, so the highest total grows by at least two bull heads a
#: round: a game to 1,000 ends within 500 rounds, a second or two. Far higher thresholds only
#: make the command run for hours (and the engine has no rule to learn there).
MAX_THRESHOLD = 1000
#: The most rounds a game to :data:`MAX_THRESHOLD` can last (two bull heads a round at least).
MAX_ROUNDS = MAX_THRESHOLD // 2

_TOO_HIGH = N_("threshold {value}: `take5rules play` plays to at most {limit} bull heads, so "
               "that every game ends within {rounds} rounds")


_UNKNOWN_KIND = N_("unknown player kind {kind!r}; choose one of {kinds}")

#: setup.players' own message (see :func:`take5rules.setup.check_players`).
_NOT_TEXT = N_("player name {value!r}: a player's name is a non-empty text")


def _seats(spec: str, rules: Rules, language: str) -> dict[str, Player]:
    """The players of ``--players`` *spec*, each seat checked (distinct names: setup.players)."""
    pairs: list[tuple[str, str]] = []
    for item in (part.strip() for part in spec.split(",")):
        name, _, kind = item.partition("=")
        kind = kind or "cautious"
        if kind not in BUILTIN_PLAYERS:
            raise click.BadParameter(
                translator(language).gettext(_UNKNOWN_KIND).format(
                    kind=kind, kinds=", ".join(BUILTIN_PLAYERS)),
                param_hint="--players",
            )
        pairs.append((name, kind))
    for name, _ in pairs:
        try:
            name.encode("utf-8")
        except UnicodeEncodeError:  # bytes that were not UTF-8 on the command line
            raise RulesError("setup.players", _NOT_TEXT, value=name) from None
    check_players([name for name, _ in pairs], rules)
    seats: dict[str, Player] = {}
    for index, (name, kind) in enumerate(pairs):
        factory = BUILTIN_PLAYERS[kind]
        seats[name] = factory(index) if kind == "random" else factory()  # type: ignore[call-arg]
    return seats


def checked_threshold(value: int) -> int:
    """*value* if ``take5rules play`` plays to it: 1 to :data:`MAX_THRESHOLD` bull heads.

    >>> checked_threshold(66)
    66
    >>> checked_threshold(10**30)
    Traceback (most recent call last):
    ...
    take5rules.errors.RulesError: threshold 1000000000000000000000000000000: `take5rules play` \
plays to at most 1000 bull heads, so that every game ends within 500 rounds \
[rule variants.threshold]
    """
    if value > MAX_THRESHOLD:
        raise RulesError("variants.threshold", _TOO_HIGH, value=value, limit=MAX_THRESHOLD,
                         rounds=MAX_ROUNDS)
    return value


@click.command("play")
@click.option("--players", "players", default="ana=cautious,bob=lowest,cyd=random,dan=cautious",
              show_default=True,
              help="Seats as NAME=KIND, comma-separated, each NAME once; KIND is random, "
                   "lowest or cautious.")
@click.option("--variant", type=click.Choice([v.value for v in Variant]), default="standard",
              show_default=True, help="Which rules to play.")
@click.option("--threshold", type=int, default=DEFAULT_THRESHOLD, show_default=True,
              help=f"The agreed end threshold (rule variants.threshold), 1 to {MAX_THRESHOLD}: "
                   "the highest total grows by at least 2 bull heads a round, so every game "
                   f"ends within {MAX_ROUNDS} rounds.")
@click.option("--seed", type=int, default=1, show_default=True,
              help="Seed of the shuffles and of the random players.")
@click.option("--json", "as_json", is_flag=True, help="Print the events as JSON lines.")
@click.option("--log", "log_path", metavar="FILE", type=str, default=None,
              help="Also write the game as a take5-log (see `take5rules validate`).")
@click.option("--rows/--no-rows", default=True, show_default=True,
              help="After each turn, show the four rows.")
@lang_option
def play(players: str, variant: str, threshold: int, seed: int, as_json: bool,
         log_path: str | None, rows: bool, language: str) -> None:
    """Play a whole game between built-in players and narrate it turn by turn."""
    from ..log import LogWriter, check_loggable, check_writable, write_log

    with reported(language):
        rules = Rules(Variant.parse(variant), threshold)
        checked_threshold(threshold)
        seats = _seats(players, rules, language)
        if log_path is not None:
            check_loggable(rules)
            if "\0" in log_path:  # not a file name (no shell can pass one; Python can)
                raise click.BadParameter(repr(log_path), param_hint="--log")
            check_writable(log_path)
        writer = LogWriter() if log_path is not None else None
        unplaced = 0
        for event in play_game(seats, rules, seed):
            if writer is not None:
                writer.add(event)
            if as_json:
                click.echo(json.dumps(event_json(event), ensure_ascii=False))
                continue
            click.echo(narrate(event, language))
            if isinstance(event, CardsRevealed):
                unplaced = len(event.plays)
            elif isinstance(event, CardPlaced | RowTaken):
                unplaced -= 1
                if rows and unplaced == 0:
                    click.echo("  " + rows_text(event.rows, language))
        if writer is not None and log_path is not None:
            write_log(writer.log(), log_path)


def event_json(event: Event) -> dict[str, Any]:
    """An event as a JSON-ready dict, with its ``kind``."""
    from dataclasses import fields

    data: dict[str, Any] = {"kind": event.kind}
    for field in fields(event):
        value = getattr(event, field.name)
        if isinstance(value, Rules):
            value = {"variant": value.variant.value, "threshold": value.threshold}
        elif hasattr(value, "items"):
            value = {key: list(item) if isinstance(item, tuple) else item
                     for key, item in value.items()}
        elif isinstance(value, tuple):
            value = [list(item) if isinstance(item, tuple) else item for item in value]
        data[field.name] = value
    return data
