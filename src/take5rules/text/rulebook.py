"""The rulebook text: each rule, each source and each discrepancy of the sources, in a language.

>>> explain("table.sixth-card", "fr").title
'La sixième carte'
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import TypedDict

from take5rules._messages import N_
from take5rules.errors import NOT_RULES
from take5rules.registry import Discrepancy, Source, all_rules, get
from take5rules.text.negotiation import translator
from take5rules.text.typography import quoted
from take5rules.variants import Variant

__all__ = [
    "DiscrepancyText",
    "Explanation",
    "discrepancy_text",
    "explain",
    "rulebook",
    "section_text",
    "source_text",
    "variant_name",
]


@dataclass(frozen=True, slots=True)
class Explanation:
    """A rule in one language: its id, title, statement, explanation and sources."""

    rule_id: str
    language: str
    title: str
    statement: str
    explanation: str
    sources: tuple[Source, ...]
    function: str


def explain(rule_id: str, language: str = "en", *, strict: bool = False) -> Explanation:
    """The rule *rule_id* explained in *language*.

    An id that names no rule of the game (``argument``, ``variant-name``, ``protocol``... see
    :data:`take5rules.errors.NOT_RULES`) is explained too: its title is the id, its statement
    and explanation what it stands for, and it has no sources and no function.

    >>> print(explain("cards.bull-heads", "eo").title)
    Bovkapoj
    >>> print(explain("argument", "it").statement)  # doctest: +ELLIPSIS
    Un argomento di una funzione che non è del tipo documentato: ...
    """
    tr = translator(language, strict)
    if rule_id in NOT_RULES:
        text = tr.gettext(NOT_RULES[rule_id])
        return Explanation(rule_id, tr.language, rule_id, text, text, (), "")
    rule = get(rule_id)
    return Explanation(
        rule.id,
        tr.language,
        tr.gettext(rule.title),
        tr.gettext(rule.statement),
        tr.gettext(rule.explanation),
        rule.sources,
        rule.qualified_name,
    )


def rulebook(language: str = "en", *, strict: bool = False) -> tuple[Explanation, ...]:
    """Every rule explained in *language*, in rulebook order."""
    return tuple(explain(rule.id, language, strict=strict) for rule in all_rules())


class DiscrepancyText(TypedDict):
    """A source discrepancy in one language (JSON-ready)."""

    id: str
    topic: str
    claims: list[tuple[str, str]]
    choice: str
    reason: str
    rule: str


def discrepancy_text(
    item: Discrepancy, language: str = "en", *, strict: bool = False
) -> DiscrepancyText:
    """A source discrepancy in *language*: topic, what each source says, the choice and why."""
    tr = translator(language, strict)
    return {
        "id": item.id,
        "topic": tr.gettext(item.topic),
        "claims": [(source_text(source, tr.language, strict=strict), tr.gettext(claim))
                   for source, claim in item.claims],
        "choice": tr.gettext(item.choice),
        "reason": tr.gettext(item.reason),
        "rule": item.rule_id,
    }


_VARIANT_NAMES = {
    Variant.STANDARD: N_("the standard game"),
    Variant.TACTICS: N_("the tactics variant"),
    Variant.LOGIC: N_("the logic variant"),
    Variant.TOURNAMENT: N_("the tournament"),
}


def source_text(source: Source, language: str = "en", *, strict: bool = False) -> str:
    """A source named for people in *language*: the document described, and its section.

    >>> print(source_text(Source("Amigo rule booklet", "End of the game"), "en"))
    the publisher's rule booklet of 6 nimmt! by Wolfgang Kramer (Amigo, 1994), English \
edition, section “End of the game” (the source's own heading)
    """
    tr = translator(language, strict)
    return tr.gettext(source.template).format(
        document=tr.gettext(source.name),
        section=section_text(source, tr.language, strict=strict),
    )


def section_text(source: Source, language: str = "en", *, strict: bool = False) -> str:
    """The heading of *source*'s section, quoted in *language* and marked as the source's words.

    The heading is never translated: it is what the source says, machine translation and all.

    >>> print(section_text(Source("004_873030b87274cc41.txt", "Gajni Prenu 5 (6 Nimmt!)"), "fr")
    ...       .replace("\N{NO-BREAK SPACE}", "~"))
    «~Gajni Prenu 5 (6 Nimmt!)~» (titre de la source, traduit automatiquement)
    """
    tr = translator(language, strict)
    return tr.gettext(source.heading).format(
        section=quoted(source.section, tr.language, strict=strict))


def variant_name(variant: Variant, language: str = "en", *, strict: bool = False) -> str:
    """The name of *variant* in *language*."""
    return translator(language, strict).gettext(_VARIANT_NAMES[variant])

