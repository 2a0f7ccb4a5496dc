"""Negotiation: which language to speak, and its gettext catalog.

Catalogs are gettext catalogs (domain ``take5rules``) written under ``locales/`` at the top of
the repository and compiled into the package when it is built or installed. The English text in
the code is the msgid; every other language, English included, has a catalog.

>>> resolve_language("bg_BG.UTF-8")
('bg', None)
>>> resolve_language("tlh")[0]
'en'
"""

from __future__ import annotations

import decimal
import gettext
import os
from collections.abc import Iterable, Mapping
from functools import cache
from pathlib import Path

from babel import Locale, UnknownLocaleError
from babel.lists import format_list as _babel_format_list
from babel.numbers import format_decimal

from take5rules._messages import N_
from take5rules.cards import Card
from take5rules.errors import Take5Error

__all__ = [
    "DOMAIN",
    "LANGUAGES",
    "LOCALE_DIR",
    "MissingTranslationError",
    "Translator",
    "available_languages",
    "default_language",
    "resolve_language",
    "translator",
]

#: The gettext domain.
DOMAIN = "take5rules"
#: The languages every message is translated into, English first.
LANGUAGES = ("en", "fr", "bg", "it", "eo")
#: Where the compiled catalogs live inside the installed package.
LOCALE_DIR = Path(__file__).resolve().parent.parent / "_locales"


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

    @property
    def catalog(self) -> gettext.GNUTranslations:
        """The compiled catalog itself, for text that is translated outside ours (click's)."""
        return self._catalog

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

