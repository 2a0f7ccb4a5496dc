"""``take5rules rules``, ``explain``, ``discrepancies`` and ``ids``: the rulebook as text."""

from __future__ import annotations

import difflib
import json
import sys
from typing import Any

import click
from babel.lists import format_list

from take5rules._messages import N_
from take5rules.cli.common import lang_option, output_width, reported, wrapped
from take5rules.registry import DISCREPANCIES, RULE_ORDER, all_rules
from take5rules.text import (
    discrepancy_text,
    explain,
    heading,
    label,
    labelled,
    rulebook,
    source_text,
    translator,
)

__all__ = ["discrepancies", "explain_command", "ids", "rules"]

_UNKNOWN_ID = N_("unknown rule id {rule_id!r}; {hint}")
_DID_YOU_MEAN = N_("did you mean {ids}?")
_SEE_IDS = N_("see `take5rules ids` for the list")


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
        *_wrap(f"{item.rule_id} — {item.title}", "", "  "),
        *_wrap(item.statement, "  "),
        "",
        *_wrap(item.explanation, "  "),
        "",
        f"  {heading('sources', language)}",
        *(line for source in item.sources  # cut only to a width asked (COLUMNS, a terminal)
          for line in wrapped(source_text(source, language), output_width(), "    ", "      ")),
        f"  {labelled(label('function', language), item.function, language)}",
    ]
    return "\n".join(lines)


def _wrap(text: str, indent: str, more: str | None = None) -> list[str]:
    """*text* wrapped to the terminal's width (``COLUMNS``), else to 96 characters."""
    return wrapped(text, output_width(96), indent, more)


@click.command("explain")
@click.argument("rule_id", metavar="RULE")
@click.option("--json", "as_json", is_flag=True, help="Print the explanation as JSON.")
@lang_option
def explain_command(rule_id: str, as_json: bool, language: str) -> None:
    """Explain one rule (see `take5rules rules` for the ids)."""
    if rule_id not in RULE_ORDER:
        tr = translator(language)
        close = difflib.get_close_matches(rule_id, RULE_ORDER, n=3, cutoff=0.6) or [
            known for known in RULE_ORDER if rule_id and known.startswith(rule_id)][:3]
        hint = (tr.gettext(_DID_YOU_MEAN).format(ids=format_list(close, "or", tr.locale)) if close
                else tr.gettext(_SEE_IDS))
        click.echo(tr.gettext(_UNKNOWN_ID).format(rule_id=rule_id, hint=hint), err=True)
        sys.exit(2)
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
