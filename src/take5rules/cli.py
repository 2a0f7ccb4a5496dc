"""The ``take5rules`` command line.

Every command that prints prose takes ``--lang`` (default: the environment's language, as
LC_ALL, LC_MESSAGES and LANG say); errors are printed as one clear line naming the rule, never
as a traceback.
"""

from __future__ import annotations

import json
import sys
import textwrap
from typing import Any

import click

from . import __version__
from ._clitools import choose_language, lang_option, reported
from .engine import play_game
from .events import CardPlaced, CardsRevealed, Event, RowTaken
from .i18n import (
    discrepancy_text,
    explain,
    heading,
    label,
    labelled,
    narrate,
    rows_text,
    rulebook,
    source_text,
    translator,
)
from .players import BUILTIN_PLAYERS, Player
from .referee import serve
from .registry import DISCREPANCIES, all_rules
from .variants import DEFAULT_THRESHOLD, Rules, Variant

__all__ = ["main"]


@click.group(context_settings={"help_option_names": ["-h", "--help"]})
@click.version_option(__version__, prog_name="take5rules")
def main() -> None:
    """The rules of Take 5 / 6 nimmt!: play, explain, referee and check games."""


def _seats(spec: str) -> dict[str, Player]:
    seats: dict[str, Player] = {}
    for index, item in enumerate(part.strip() for part in spec.split(",")):
        name, _, kind = item.partition("=")
        kind = kind or "cautious"
        if kind not in BUILTIN_PLAYERS:
            raise click.BadParameter(
                f"unknown player kind {kind!r}; choose one of {', '.join(BUILTIN_PLAYERS)}",
                param_hint="--players",
            )
        factory = BUILTIN_PLAYERS[kind]
        seats[name] = factory(index) if kind == "random" else factory()  # type: ignore[call-arg]
    return seats


@main.command()
@click.option("--players", "players", default="ana=cautious,bob=lowest,cyd=random,dan=cautious",
              show_default=True,
              help="Seats as NAME=KIND, comma-separated; KIND is random, lowest or cautious.")
@click.option("--variant", type=click.Choice([v.value for v in Variant]), default="standard",
              show_default=True, help="Which rules to play.")
@click.option("--threshold", type=int, default=DEFAULT_THRESHOLD, show_default=True,
              help="The agreed end threshold (rule variants.threshold).")
@click.option("--seed", type=int, default=1, show_default=True,
              help="Seed of the shuffles and of the random players.")
@click.option("--json", "as_json", is_flag=True, help="Print the events as JSON lines.")
@click.option("--log", "log_path", metavar="FILE", type=click.Path(dir_okay=False),
              default=None, help="Also write the game as a take5-log (see `take5rules validate`).")
@click.option("--rows/--no-rows", default=True, show_default=True,
              help="After each turn, show the four rows.")
@lang_option
def play(players: str, variant: str, threshold: int, seed: int, as_json: bool,
         log_path: str | None, rows: bool, language: str) -> None:
    """Play a whole game between built-in players and narrate it turn by turn."""
    from .log import LogWriter, check_loggable, check_writable, write_log

    with reported(language):
        rules = Rules(Variant.parse(variant), threshold)
        if log_path is not None:
            check_loggable(rules)
            check_writable(log_path)
        writer = LogWriter() if log_path is not None else None
        unplaced = 0
        for event in play_game(_seats(players), rules, seed):
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


@main.command()
@click.option("--json", "as_json", is_flag=True, help="Print the registry as JSON.")
@lang_option
def rules(as_json: bool, language: str) -> None:
    """Print the whole rulebook: every rule's id, title, statement and explanation."""
    if as_json:
        click.echo(json.dumps([_explanation_json(item.rule_id, language) for item in
                               rulebook(language)], ensure_ascii=False, indent=2))
        return
    for item in rulebook(language):
        click.echo(_explanation_text(item.rule_id, language))
        click.echo()


def _explanation_json(rule_id: str, language: str) -> dict[str, Any]:
    item = explain(rule_id, language)
    return {
        "id": item.rule_id,
        "language": item.language,
        "title": item.title,
        "statement": item.statement,
        "explanation": item.explanation,
        "sources": [source_text(source, language) for source in item.sources],
        "function": item.function,
    }


def _explanation_text(rule_id: str, language: str) -> str:
    item = explain(rule_id, language)
    lines = [
        f"{item.rule_id} — {item.title}",
        *_wrap(item.statement, "  "),
        "",
        *_wrap(item.explanation, "  "),
        "",
        f"  {heading('sources', language)}",
        *(f"    {source_text(source, language)}" for source in item.sources),
        f"  {labelled(label('function', language), item.function, language)}",
    ]
    return "\n".join(lines)


def _wrap(text: str, indent: str) -> list[str]:
    return textwrap.wrap(text, width=96, initial_indent=indent, subsequent_indent=indent,
                         break_on_hyphens=False)


@main.command()
@click.argument("rule_id", metavar="RULE")
@click.option("--json", "as_json", is_flag=True, help="Print the explanation as JSON.")
@lang_option
def explain_command(rule_id: str, as_json: bool, language: str) -> None:
    """Explain one rule (see `take5rules rules` for the ids)."""
    with reported(language):
        if as_json:
            click.echo(json.dumps(_explanation_json(rule_id, language), ensure_ascii=False,
                                  indent=2))
        else:
            click.echo(_explanation_text(rule_id, language))


explain_command.name = "explain"


@main.command()
@click.option("--json", "as_json", is_flag=True, help="Print the discrepancies as JSON.")
@lang_option
def discrepancies(as_json: bool, language: str) -> None:
    """Where the source texts disagree, what each says, and what the library follows."""
    items = [discrepancy_text(item, language) for item in DISCREPANCIES]
    if as_json:
        click.echo(json.dumps(items, ensure_ascii=False, indent=2))
        return
    for item in items:
        click.echo(f"{item['id']} — {item['topic']}")
        for source, claim in item["claims"]:
            click.echo(f"  {labelled(source, claim, language)}")
        click.echo(f"  → {item['choice']} {translator(language).gettext('[rule {rule}]')}"
                   .format(rule=item["rule"]))
        for line in _wrap(item["reason"], "    "):
            click.echo(line)
        click.echo()


@main.command()
@click.option("--lang", "language", metavar="LANG", default="en", show_default=True,
              callback=lambda _context, _parameter, value: choose_language(value),
              help="Language of the error messages in replies (rule ids never change).")
def referee(language: str) -> None:
    """Answer the referee line protocol: one JSON turn per line on stdin, one reply per line.

    Unlike the commands that talk to people, the referee answers in English unless --lang says
    otherwise, so that its replies do not depend on the environment.
    """
    sys.exit(serve(sys.stdin, sys.stdout, language))


@main.command("ids")
def ids() -> None:
    """List the rule ids, one per line (for scripts)."""
    for rule in all_rules():
        click.echo(rule.id)


from .conform import conform_command  # noqa: E402 - registered last, after the core commands

main.add_command(conform_command)

from .validate import validate_command  # noqa: E402 - registered last, after the core commands
from .vectors import vectors_command  # noqa: E402 - registered last, after the core commands

main.add_command(validate_command)
main.add_command(vectors_command)
