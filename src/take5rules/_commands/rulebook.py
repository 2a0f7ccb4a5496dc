"""``take5rules rules``, ``explain``, ``discrepancies`` and ``ids``: the rulebook as text."""

from __future__ import annotations

import json
import textwrap
from typing import Any

import click

from .._clitools import lang_option, reported
from ..i18n import (
    discrepancy_text,
    explain,
    heading,
    label,
    labelled,
    rulebook,
    source_text,
    translator,
)
from ..registry import DISCREPANCIES, all_rules

__all__ = ["discrepancies", "explain_command", "ids", "rules"]


@click.command("rules")
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


@click.command("explain")
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


@click.command("discrepancies")
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


@click.command("ids")
def ids() -> None:
    """List the rule ids, one per line (for scripts)."""
    for rule in all_rules():
        click.echo(rule.id)
