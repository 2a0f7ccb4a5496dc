"""Languages: the rulebook explained, game events narrated, errors worded, in five languages.

Catalogs are gettext catalogs (domain ``take5rules``) written under ``locales/`` at the top of
the repository and compiled into the package when it is built or installed. The English text in
the code is the msgid; every other language, English included, has a catalog.

>>> explain("table.sixth-card", "fr").title
'La sixième carte'
>>> resolve_language("bg_BG.UTF-8")
('bg', None)
>>> resolve_language("tlh")[0]
'en'
"""

from __future__ import annotations

import decimal
import gettext
import os
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
from functools import cache
from pathlib import Path
from typing import TypedDict

from babel import Locale, UnknownLocaleError
from babel.lists import format_list as _babel_format_list
from babel.numbers import format_decimal

from ._text import N_, Nn_, Phrase
from .cards import Card, total_bull_heads
from .errors import Take5Error
from .events import (
    CardDrafted,
    CardPlaced,
    CardsRevealed,
    Event,
    GameOver,
    GameStarted,
    LowCardTaken,
    RoundScored,
    RoundStarted,
    SixthCardTaken,
)
from .registry import Discrepancy, Source, all_rules, get
from .variants import Variant

__all__ = [
    "DOMAIN",
    "LANGUAGES",
    "LOCALE_DIR",
    "Explanation",
    "MissingTranslationError",
    "Translator",
    "available_languages",
    "default_language",
    "error_message",
    "explain",
    "heading",
    "labelled",
    "narrate",
    "phrase_text",
    "quoted",
    "resolve_language",
    "rulebook",
    "source_text",
    "translator",
]

#: The gettext domain.
DOMAIN = "take5rules"
#: The languages every message is translated into, English first.
LANGUAGES = ("en", "fr", "bg", "it", "eo")
#: Where the compiled catalogs live inside the installed package.
LOCALE_DIR = Path(__file__).parent / "_locales"


class MissingTranslationError(Take5Error, LookupError):
    """A message has no translation in a catalog (raised only by a strict :class:`Translator`)."""


def available_languages() -> tuple[str, ...]:
    """The languages with a compiled catalog: the five, plus any extra catalog installed.

    >>> set(LANGUAGES) <= set(available_languages())
    True
    """
    extra = sorted(
        path.parent.parent.name
        for path in LOCALE_DIR.glob(f"*/LC_MESSAGES/{DOMAIN}.mo")
        if path.parent.parent.name not in LANGUAGES
    )
    return (*LANGUAGES, *extra)


def resolve_language(tag: str | None) -> tuple[str, str | None]:
    """The supported language for a locale tag, and a notice when it had to fall back to English.

    Accepts POSIX and BCP 47 forms in any case: ``fr_CA``, ``fr-FR``, ``bg_BG.UTF-8``, ``EO``.

    >>> [resolve_language(tag)[0] for tag in ("fr_CA", "fr-FR", "bg_BG.UTF-8", "EO", "it")]
    ['fr', 'fr', 'bg', 'eo', 'it']
    >>> resolve_language("xx")
    ('en', "unknown language 'xx'; using English")
    """
    if not tag:
        return "en", None
    cleaned = tag.split(".")[0].split("@")[0].replace("-", "_").strip()
    if cleaned in ("C", "POSIX"):
        return "en", None
    try:
        language = Locale.parse(cleaned.lower() if "_" not in cleaned else cleaned).language
    except (ValueError, UnknownLocaleError):
        language = cleaned.split("_")[0].lower()
    if language in available_languages():
        return language, None
    return "en", f"unknown language {tag!r}; using English"


def default_language(environ: Mapping[str, str] | None = None) -> str:
    """The language of the environment, as a Unix tool finds it: LC_ALL, LC_MESSAGES, LANG.

    >>> default_language({"LANG": "it_IT.UTF-8"})
    'it'
    >>> default_language({"LC_ALL": "eo", "LANG": "fr_FR.UTF-8"})
    'eo'
    """
    env = os.environ if environ is None else environ
    for variable in ("LC_ALL", "LC_MESSAGES", "LANG"):
        value = env.get(variable)
        if value:
            return resolve_language(value)[0]
    return "en"


class Translator:
    """The messages of one language, with Babel's number and list formatting.

    With ``strict=True`` a message missing from the catalog raises
    :class:`MissingTranslationError` instead of falling back to English: tests use this.
    """

    def __init__(self, language: str, *, strict: bool = False) -> None:
        self.language = language
        self.locale = Locale.parse(language)
        self.strict = strict
        path = LOCALE_DIR / language / "LC_MESSAGES" / f"{DOMAIN}.mo"
        if not path.exists():
            raise MissingTranslationError(
                "i18n",
                N_("no compiled catalog for language {language!r} at {path}"),
                language=language,
                path=str(path),
            )
        with path.open("rb") as handle:
            self._catalog = gettext.GNUTranslations(handle)

    def _missing(self, message: str) -> None:
        if self.strict:
            raise MissingTranslationError(
                "i18n",
                N_("no {language} translation for {message!r}"),
                language=self.language,
                message=message,
            )

    def gettext(self, message: str) -> str:
        """The translation of *message*."""
        translated = self._catalog.gettext(message)
        if translated is message and message not in self._catalog._catalog:  # type: ignore[attr-defined]
            self._missing(message)
        return translated

    def ngettext(self, forms: tuple[str, str], count: int) -> str:
        """The translation of the plural pair *forms* for *count*."""
        singular, plural = forms
        if (singular, 0) not in self._catalog._catalog:  # type: ignore[attr-defined]
            self._missing(singular)
        return self._catalog.ngettext(singular, plural, count)

    def number(self, value: int) -> str:
        """*value* written the local way, however many digits it has.

        >>> Translator("fr").number(10**30)
        '1\u202f000\u202f000\u202f000\u202f000\u202f000\u202f000\u202f000\u202f000\u202f000\u202f000'
        """
        with decimal.localcontext() as context:  # Babel rounds in the context: enough digits
            context.prec = max(context.prec, value.bit_length() // 3 + 12)
            return format_decimal(value, locale=self.locale)

    def list(self, items: Iterable[str]) -> str:
        """*items* joined the local way ("51, 55 et 61")."""
        return _babel_format_list(list(items), locale=self.locale)

    def cards(self, values: Iterable[Card]) -> str:
        """Card numbers as a local list."""
        return self.list(self.number(value) for value in values)


@cache
def translator(language: str, strict: bool = False) -> Translator:
    """The cached :class:`Translator` of *language* (resolved first)."""
    return Translator(resolve_language(language)[0], strict=strict)


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

    >>> print(explain("cards.bull-heads", "eo").title)
    Bovkapoj
    """
    rule = get(rule_id)
    tr = translator(language, strict)
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


_LABELS = {
    "rule": N_("Rule"),
    "statement": N_("Statement"),
    "explanation": N_("Explanation"),
    "sources": N_("Sources"),
    "function": N_("Function"),
    "rows": N_("Rows"),
}

_VARIANT_NAMES = {
    Variant.STANDARD: N_("the standard game"),
    Variant.TACTICS: N_("the tactics variant"),
    Variant.LOGIC: N_("the logic variant"),
    Variant.TOURNAMENT: N_("the tournament"),
}

#: The variants' names as words inside an error message ("the {variant} variant uses...").
_VARIANT_WORDS = {
    Variant.STANDARD.value: N_("standard"),
    Variant.TACTICS.value: N_("tactics"),
    Variant.LOGIC.value: N_("logic"),
    Variant.TOURNAMENT.value: N_("tournament"),
}

_BULL_HEADS = Nn_("{count} bull head", "{count} bull heads")

#: Punctuation built around text: each language writes its own spaces and quotation marks.
_QUOTED = N_("“{text}”")
_LABELLED = N_("{label}: {value}")
_HEADING = N_("{label}:")
_LOCATED = N_("{where}: {message} {rule}")


def label(key: str, language: str = "en", *, strict: bool = False) -> str:
    """A short interface label (``rule``, ``statement``, ``explanation``, ``sources``...)."""
    return translator(language, strict).gettext(_LABELS[key])


def quoted(text: str, language: str = "en", *, strict: bool = False) -> str:
    """*text* between the quotation marks of *language* (French « », Bulgarian „ “...).

    >>> print(quoted("Jouer sa carte", "fr").replace("\N{NO-BREAK SPACE}", "~"))
    «~Jouer sa carte~»
    >>> print(quoted("Играта", "bg"))
    „Играта“
    """
    return translator(language, strict).gettext(_QUOTED).format(text=text)


def labelled(name: str, value: str, language: str = "en", *, strict: bool = False) -> str:
    """``name: value`` punctuated as *language* does (French puts a no-break space before ``:``).

    >>> labelled("Fonction", "take5rules.cards.deck", "fr") == (
    ...     "Fonction\N{NO-BREAK SPACE}: take5rules.cards.deck")
    True
    """
    return translator(language, strict).gettext(_LABELLED).format(label=name, value=value)


def heading(key: str, language: str = "en", *, strict: bool = False) -> str:
    """The label *key* introducing the lines that follow it ("Sources:").

    >>> heading("sources", "it")
    'Fonti:'
    """
    tr = translator(language, strict)
    return tr.gettext(_HEADING).format(label=tr.gettext(_LABELS[key]))


def source_text(source: Source, language: str = "en", *, strict: bool = False) -> str:
    """A source named for people in *language*: the document, the section, and its file.

    >>> print(source_text(Source("Amigo rule booklet", "End of the game"), "en"))
    Amigo rule booklet (6 nimmt!, 1994), section “End of the game”
    """
    tr = translator(language, strict)
    return tr.gettext(source.template).format(
        document=tr.gettext(source.name),
        section=quoted(source.section, tr.language, strict=strict),
        file=source.file,
    )


def variant_name(variant: Variant, language: str = "en", *, strict: bool = False) -> str:
    """The name of *variant* in *language*."""
    return translator(language, strict).gettext(_VARIANT_NAMES[variant])


def error_message(error: Take5Error, language: str = "en", *, strict: bool = False) -> str:
    """*error* worded in *language*: where, what, and the rule broken.

    >>> from take5rules.errors import IllegalMoveError, Where
    >>> error = IllegalMoveError("turn.reveal", "card {value} is not in the hand of {player!r}",
    ...                          where=Where(round=1, turn=2, player="bob", card=16),
    ...                          value=16, player="bob")
    >>> print(error_message(error, "it"))  # doctest: +NORMALIZE_WHITESPACE
    manche 1, turno 2, giocatore 'bob', carta 16:
    la carta 16 non è nella mano di 'bob' [regola turn.reveal]
    """
    tr = translator(language, strict)
    message = _translated(tr, error.template, error.params)
    where = error.where
    parts = []
    if where.round is not None:
        parts.append(tr.gettext(N_("round {round}")).format(round=where.round))
    if where.turn is not None:
        parts.append(tr.gettext(N_("turn {turn}")).format(turn=where.turn))
    if where.player is not None:
        parts.append(tr.gettext(N_("player {player!r}")).format(player=where.player))
    if where.card is not None:
        parts.append(tr.gettext(N_("card {card}")).format(card=where.card))
    prefix = ", ".join(parts)
    rule = tr.gettext(N_("[rule {rule}]")).format(rule=error.rule)
    if not prefix:
        return f"{message} {rule}"
    return tr.gettext(_LOCATED).format(where=prefix, message=message, rule=rule)


def phrase_text(template: str, language: str = "en", /, **params: object) -> str:
    """*template* in *language*, filled with *params*, each phrase among them translated too.

    >>> from take5rules._text import os_reason
    >>> print(phrase_text("cannot write the output: {reason}", "eo", reason=os_reason(28)))
    ne eblas skribi la eligon: ne plu restas loko en la aparato
    """
    return _translated(translator(language), template, params)


def _translated(tr: Translator, template: str, params: Mapping[str, object]) -> str:
    """*template* translated, with its phrases translated and its variant named in the language."""
    values = {
        key: _translated(tr, value.template, value.params) if isinstance(value, Phrase)
        else tr.gettext(_VARIANT_WORDS[value]) if key == "variant" and value in _VARIANT_WORDS
        else value
        for key, value in params.items()
    }
    return tr.gettext(template).format(**values)


def _row(index: int) -> int:
    return index + 1


def narrate(event: Event, language: str = "en", *, strict: bool = False) -> str:
    """One event told in *language*: one line, or several for a deal or a score.

    >>> from take5rules.events import SixthCardTaken
    >>> event = SixthCardTaken(1, 4, "Bob", 74, 1, (51, 55, 61, 68, 73),
    ...                        ((12,), (74,), (80,), (96,)))
    >>> print(narrate(event, "en"))
    Bob's 74 would be the sixth card in row 2: Bob takes 51, 55, 61, 68, and 73, 11 bull heads.
    """
    tr = translator(language, strict)
    g = tr.gettext
    n = tr.number
    if isinstance(event, GameStarted):
        if event.rules.variant is Variant.TOURNAMENT:
            return g(
                N_("A tournament begins with {players}: {rounds} rounds, one per player, the "
                   "drafted hands passing to the left after each round.")
            ).format(players=tr.list(event.players), rounds=n(len(event.players)))
        return g(
            N_("A game begins with {players}: {variant}, ending when a total reaches "
               "{threshold}.")
        ).format(
            players=tr.list(event.players),
            variant=variant_name(event.rules.variant, tr.language, strict=strict),
            threshold=n(event.rules.threshold),
        )
    if isinstance(event, CardDrafted):
        return g(N_("Pick {pick}: {player} takes {card}.")).format(
            pick=n(event.pick), player=event.player, card=n(event.card)
        )
    if isinstance(event, RoundStarted):
        lines = [
            g(N_("Round {round}. The four rows start with {cards}.")).format(
                round=n(event.round), cards=tr.cards(row[0] for row in event.rows)
            )
        ]
        lines.extend(
            g(N_("{player} holds {cards}.")).format(player=player, cards=tr.cards(hand))
            for player, hand in event.hands.items()
        )
        return "\n".join(lines)
    if isinstance(event, CardsRevealed):
        plays = [
            g(N_("{player} {card}")).format(player=player, card=n(card))
            for player, card in event.plays
        ]
        return g(N_("Turn {turn}: the cards are revealed: {plays}.")).format(
            turn=n(event.turn), plays=tr.list(plays)
        )
    if isinstance(event, CardPlaced):
        return g(N_("{player}'s {card} goes at the end of row {row}.")).format(
            player=event.player, card=n(event.card), row=n(_row(event.row))
        )
    if isinstance(event, SixthCardTaken):
        heads = total_bull_heads(event.taken)
        return tr.ngettext(
            Nn_(
                "{player}'s {card} would be the sixth card in row {row}: {player} takes "
                "{cards}, {count} bull head.",
                "{player}'s {card} would be the sixth card in row {row}: {player} takes "
                "{cards}, {count} bull heads.",
            ),
            heads,
        ).format(
            player=event.player, card=n(event.card), row=n(_row(event.row)),
            cards=tr.cards(event.taken), count=n(heads),
        )
    if isinstance(event, LowCardTaken):
        heads = total_bull_heads(event.taken)
        return tr.ngettext(
            Nn_(
                "{player}'s {card} is lower than the last card of every row: {player} takes "
                "row {row} ({cards}, {count} bull head), and {card} starts it anew.",
                "{player}'s {card} is lower than the last card of every row: {player} takes "
                "row {row} ({cards}, {count} bull heads), and {card} starts it anew.",
            ),
            heads,
        ).format(
            player=event.player, card=n(event.card), row=n(_row(event.row)),
            cards=tr.cards(event.taken), count=n(heads),
        )
    if isinstance(event, RoundScored):
        lines = [g(N_("End of round {round}.")).format(round=n(event.round))]
        lines.extend(
            tr.ngettext(
                Nn_(
                    "{player}: {count} point this round, {total} in all.",
                    "{player}: {count} points this round, {total} in all.",
                ),
                penalty,
            ).format(player=player, count=n(penalty), total=n(event.totals[player]))
            for player, penalty in event.penalties.items()
        )
        return "\n".join(lines)
    if isinstance(event, GameOver):
        best = event.totals[event.winners[0]]
        over = tr.ngettext(
            Nn_("The game is over after {count} round.", "The game is over after {count} rounds."),
            event.rounds,
        ).format(count=n(event.rounds))
        won = tr.ngettext(
            Nn_("The winner, with a total of {total}: {players}.",
                "The winners, with a total of {total} each: {players}."),
            len(event.winners),
        ).format(total=n(best), players=tr.list(event.winners))
        return f"{over} {won}"
    raise TypeError(f"not an event: {event!r}")


def rows_text(rows: Sequence[Sequence[Card]], language: str = "en", *, strict: bool = False) -> str:
    """The rows on one line, numbered from 1 as players count them.

    >>> rows_text(((3, 4, 17), (24,), (58, 90, 93), (96,)))
    'Rows: 1) 3 4 17 · 2) 24 · 3) 58 90 93 · 4) 96'
    """
    tr = translator(language, strict)
    cells = (f"{index}) " + " ".join(tr.number(c) for c in row)
             for index, row in enumerate(rows, start=1))
    return labelled(label("rows", tr.language, strict=strict), " · ".join(cells), tr.language,
                    strict=strict)


def narrate_all(events: Iterable[Event], language: str = "en", *, strict: bool = False) -> str:
    """A whole game told in *language*, one event per paragraph line."""
    return "\n".join(narrate(event, language, strict=strict) for event in events)


def bull_heads_text(count: int, language: str = "en", *, strict: bool = False) -> str:
    """"11 bull heads" in *language*, with the right plural form."""
    tr = translator(language, strict)
    return tr.ngettext(_BULL_HEADS, count).format(count=tr.number(count))


def languages_text(languages: Sequence[str]) -> str:
    """The languages, each in its own name, for help texts."""
    return ", ".join(f"{code} ({Locale.parse(code).get_display_name(code)})" for code in languages)
