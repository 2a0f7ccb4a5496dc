"""The rule registry: every rule of the game, its stable id, its texts and its sources.

Each rule of Take 5 is one function in the module named by the first part of its id
(``table.sixth-card`` lives in :mod:`take5rules.table`), decorated with :func:`rule`. The
decorator records the English title, one-sentence statement and explanation (translated in the
gettext catalogs under ``locales/``) and the source paragraphs the rule was written from.

Sources are the rule texts the project was founded on and the publisher's rule booklet. The
founding texts are five web pages, four of them machine translations, kept by the project's
founders but not part of the repository: a reader finds each by its description (language, kind
of text, what it holds) and its section heading, quoted in the source's own words, which for the
machine translations are often clumsy ("Gajni Prenu 5" is not Esperanto to trust). Their file
names (:data:`SEEDS`) are the maintainers' reference only.

>>> [r.id for r in all_rules()][:3]
['cards.deck', 'cards.bull-heads', 'setup.players']
>>> get("table.sixth-card").qualified_name
'take5rules.table.sixth_card'
"""

from __future__ import annotations

import importlib
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any, TypeVar

from take5rules._messages import N_
from take5rules.errors import MalformedInputError

__all__ = [
    "AMIGO",
    "DISCREPANCIES",
    "DOCUMENT_NAMES",
    "MACHINE_TRANSLATED",
    "RULE_ORDER",
    "SEEDS",
    "Discrepancy",
    "Rule",
    "Source",
    "all_rules",
    "get",
    "rule",
]

F = TypeVar("F", bound=Callable[..., Any])

#: The founding rule texts, by the founders' file name (a reference for maintainers, not a file
#: of the repository): (language, what the text is).
SEEDS: dict[str, tuple[str, str]] = {
    "000_83bc70e4b8234c93.txt": ("fr", "French web page, full rules with worked examples"),
    "001_ce9ad61beef4080c.txt": ("bg", "Bulgarian web page, the same rules and examples"),
    "002_c257fb820383b40d.txt": ("fr", "French web page with Dutch lines, compact rules"),
    "003_fbfde51e8b424e38.txt": ("it", "Italian web page, rules summary"),
    "004_873030b87274cc41.txt": ("eo", "Esperanto web page, the same rules and examples as 000"),
}

#: The founding texts that are machine translations (all but the French page with Dutch lines).
MACHINE_TRANSLATED = frozenset(
    ("000_83bc70e4b8234c93.txt", "001_ce9ad61beef4080c.txt", "003_fbfde51e8b424e38.txt",
     "004_873030b87274cc41.txt"))

#: The publisher's rules: the booklet of 6 nimmt! (Wolfgang Kramer, Amigo, 1994), cited in its
#: English edition, whose headings the sections are.
AMIGO = "Amigo rule booklet"

#: Each document described for people (a msgid, translated when shown; see :attr:`Source.name`):
#: its language, the kind of text, and what it holds.
DOCUMENT_NAMES: dict[str, str] = {
    "000_83bc70e4b8234c93.txt": N_(
        "a French web page, machine-translated: the full rules, with worked examples"),
    "001_ce9ad61beef4080c.txt": N_(
        "a Bulgarian web page, machine-translated: the full rules and examples of the French "
        "page"),
    "002_c257fb820383b40d.txt": N_(
        "a French web page with Dutch lines: compact rules, common mistakes, the Profi variant"),
    "003_fbfde51e8b424e38.txt": N_(
        "an Italian web page, machine-translated: a summary of the rules"),
    "004_873030b87274cc41.txt": N_(
        "an Esperanto web page, machine-translated: the full rules and examples of the French "
        "page"),
    AMIGO: N_("the publisher's rule booklet of 6 nimmt! by Wolfgang Kramer (Amigo, 1994), "
              "English edition"),
}

_MODULES = ("cards", "setup", "table", "turn", "round", "game", "variants")

#: The rulebook order: the order in which ``take5rules rules`` and the docs present the rules.
RULE_ORDER: tuple[str, ...] = (
    "cards.deck",
    "cards.bull-heads",
    "setup.players",
    "setup.deal",
    "turn.reveal",
    "turn.order",
    "table.ascending",
    "table.least-difference",
    "table.sixth-card",
    "table.low-card",
    "round.end",
    "round.score",
    "game.totals",
    "game.end",
    "game.winners",
    "variants.threshold",
    "variants.tactics",
    "variants.logic",
    "variants.tournament",
    "variants.tournament-over",
)


@dataclass(frozen=True, slots=True)
class Source:
    """A paragraph a rule was written from: a document and the heading of the paragraph in it.

    ``document`` is a founding text's file name (see :data:`SEEDS`) or :data:`AMIGO`; it is
    the maintainers' reference. People read :attr:`name`, the document described, and the
    section's heading quoted in the source's own words (translated by
    :func:`take5rules.text.source_text`).

    >>> print(Source("003_fbfde51e8b424e38.txt", "VINCERE"))
    an Italian web page, machine-translated: a summary of the rules, section “VINCERE” (the \
source's own heading, machine-translated)
    """

    document: str
    section: str

    @property
    def name(self) -> str:
        """The document's name for people (an English msgid)."""
        return DOCUMENT_NAMES[self.document]

    @property
    def file(self) -> str | None:
        """The founding text's file name, or ``None`` for the publisher's booklet."""
        return self.document if self.document in SEEDS else None

    @property
    def template(self) -> str:
        """The msgid that presents this source: the document and its section."""
        return SOURCE

    @property
    def heading(self) -> str:
        """The msgid that presents the section's heading as the source's own words."""
        return MACHINE_HEADING if self.document in MACHINE_TRANSLATED else OWN_HEADING

    def __str__(self) -> str:
        section = self.heading.format(section=f"“{self.section}”")
        return self.template.format(document=self.name, section=section)


#: How a source is shown: the document described, and its section (see the two below).
SOURCE = N_("{document}, section {section}")
#: A section heading (already quoted) in the source's own words, never the library's.
OWN_HEADING = N_("{section} (the source's own heading)")
#: The same, for a machine-translated source: its words may not be the language at its best.
MACHINE_HEADING = N_("{section} (the source's own heading, machine-translated)")


@dataclass(frozen=True, slots=True)
class Rule:
    """One rule of the game: id, English texts (msgids of the catalogs), sources and function."""

    id: str
    title: str
    statement: str
    explanation: str
    sources: tuple[Source, ...]
    function: Callable[..., Any]

    @property
    def qualified_name(self) -> str:
        """The dotted path of the rule's function, e.g. ``take5rules.table.sixth_card``."""
        return f"{self.function.__module__}.{self.function.__qualname__}"


_RULES: dict[str, Rule] = {}


def rule(
    rule_id: str,
    *,
    title: str,
    statement: str,
    explanation: str,
    sources: tuple[Source, ...],
) -> Callable[[F], F]:
    """Register the decorated function as the rule *rule_id*.

    The function gains an attribute ``rule_id``. Registering an id twice, or an id not in
    :data:`RULE_ORDER`, is a programming error and fails at import time.
    """
    if rule_id not in RULE_ORDER:
        raise RuntimeError(f"rule id {rule_id!r} is not in RULE_ORDER")

    def register(function: F) -> F:
        if rule_id in _RULES:
            raise RuntimeError(f"rule id {rule_id!r} registered twice")
        _RULES[rule_id] = Rule(rule_id, title, statement, explanation, sources, function)
        function.rule_id = rule_id  # type: ignore[attr-defined]
        return function

    return register


def _load() -> None:
    for module in _MODULES:
        importlib.import_module(f"take5rules.{module}")


def all_rules() -> tuple[Rule, ...]:
    """Every rule, in rulebook order."""
    _load()
    return tuple(_RULES[rule_id] for rule_id in RULE_ORDER)


def get(rule_id: str) -> Rule:
    """The rule with id *rule_id*.

    >>> get("game.end").title
    'End of the game'
    >>> get("no.such-rule")
    Traceback (most recent call last):
    ...
    take5rules.errors.MalformedInputError: unknown rule id 'no.such-rule'; \
see `take5rules rules` for the list [registry]
    """
    _load()
    try:
        return _RULES[rule_id]
    except KeyError:
        raise MalformedInputError(
            "registry",
            N_("unknown rule id {rule_id!r}; see `take5rules rules` for the list"),
            rule_id=rule_id,
        ) from None


@dataclass(frozen=True, slots=True)
class Discrepancy:
    """A point on which the sources disagree, what each says, and what the library follows."""

    id: str
    topic: str
    claims: tuple[tuple[Source, str], ...]
    choice: str
    reason: str
    rule_id: str


_FR, _BG, _FR2, _IT, _EO = SEEDS

DISCREPANCIES: tuple[Discrepancy, ...] = (
    Discrepancy(
        "end-threshold",
        N_("Does the game end at 66 points or only above 66?"),
        (
            (Source(_FR, "Prise gagnante 5 (6 Nimmt !)"), N_("66 points or more")),
            (Source(_BG, "Печеливш дубъл 5 (6 Nimmt!)"), N_("66 points or more")),
            (Source(_FR2, "Quand la partie se termine-t-elle et qui l'emporte ?"),
             N_("66 points or more")),
            (Source(_EO, "Gajni Prenu 5 (6 Nimmt!)"), N_("66 points or more")),
            (Source(_IT, "TERMINARE IL GIOCO"), N_("more than 66 points")),
            (Source(AMIGO, "End of the game"), N_("66 points or more")),
        ),
        N_("The game ends after the round in which some player's total reaches 66 or more."),
        N_(
            "Four of the five sources and the publisher's booklet say so; the Italian page's "
            "'more than 66' is a slip of its translation."
        ),
        "game.end",
    ),
    Discrepancy(
        "draft-first-player",
        N_("Who drafts first in the logic variant, and in which order?"),
        (
            (Source(_FR, "Prise 5 avancée (6 Nimmt !)"), N_("the youngest player starts")),
            (Source(_BG, "Усъвършенстван дубъл 5 (6 Nimmt!)"), N_("the youngest player starts")),
            (Source(_EO, "Altnivela Preno 5 (6 Nimmt!)"), N_("the youngest player starts")),
            (Source(AMIGO, "Variant 2: Logic"), N_("players pick one card each, clockwise")),
        ),
        N_(
            "Players draft one card at a time, in seat order (clockwise), starting with the "
            "first player of the seat list."
        ),
        N_(
            "The booklet gives the order (clockwise) but not who starts; the founding texts name "
            "the youngest player. A program cannot know ages, so whoever sits first starts: "
            "seat the youngest player first to follow the founding texts."
        ),
        "variants.logic",
    ),
    Discrepancy(
        "next-card",
        N_("After a card is placed, whose card is placed next?"),
        (
            (Source(_FR, "Jouer sa carte"), N_("the next higher card")),
            (Source(_IT, "AGGIUNTA DI SCHEDE AL LAYOUT"), N_("the next higher card")),
            (Source(_IT, "PRENDERE 5"), N_("the next lower card")),
            (Source(AMIGO, "Part I: Playing cards"), N_("the next higher card")),
        ),
        N_("Cards are always placed from the lowest to the highest, whatever happened before."),
        N_(
            "Every source says so, the Italian page included in two of its three places; its "
            "'next lower card' after a take contradicts its own ascending order."
        ),
        "turn.order",
    ),
    Discrepancy(
        "low-card-wording",
        N_("What exactly is a low card?"),
        (
            (Source(_FR, "Jouer une carte basse"),
             N_("a card lower than the highest card of every row")),
            (Source(_FR2, "Déroulement d'un tour de jeu"),
             N_("a card lower than the last card of all four rows")),
            (Source(AMIGO, "Rule 1"), N_("a card that fits no row by the ascending rule")),
        ),
        N_("A low card is a card lower than the last card of every row."),
        N_(
            "In an ascending row the last card is the highest, so the texts agree; the library "
            "states the rule by the last card, which is what a player looks at."
        ),
        "table.low-card",
    ),
    Discrepancy(
        "logic-players",
        N_("How many players may play the logic variant?"),
        (
            (Source(_FR, "Prise 5 avancée (6 Nimmt !)"), N_("two to six players")),
            (Source(_BG, "Усъвършенстван дубъл 5 (6 Nimmt!)"), N_("two to six players")),
            (Source(_EO, "Altnivela Preno 5 (6 Nimmt!)"), N_("two to six players")),
            (Source(AMIGO, "Variant 3: Tournament"), N_("the tournament: at most five players")),
        ),
        N_("The logic draft takes 2 to 6 players; the tournament 2 to 5."),
        N_(
            "The founding texts limit the face-up draft to six players; the booklet limits "
            "the tournament, which uses the draft, to five. Both limits are kept, each for its "
            "own variant."
        ),
        "setup.players",
    ),
)
