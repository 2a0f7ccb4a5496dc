"""Languages: the rulebook explained, game events narrated, errors worded, in five languages.

The public face of :mod:`take5rules.text`, where the work is done, one job a module:
negotiation (the language and its catalog), typography (quotation marks, labels, located
messages), the rulebook's text, and narration.

>>> explain("table.sixth-card", "fr").title
'La sixième carte'
>>> resolve_language("bg_BG.UTF-8")
('bg', None)
>>> resolve_language("tlh")[0]
'en'
"""

from __future__ import annotations

from .text.narration import narrate, narrate_all
from .text.negotiation import (
    DOMAIN,
    LANGUAGES,
    LOCALE_DIR,
    MissingTranslationError,
    Translator,
    available_languages,
    default_language,
    resolve_language,
    translator,
)
from .text.rulebook import (
    DiscrepancyText,
    Explanation,
    discrepancy_text,
    explain,
    rulebook,
    section_text,
    source_text,
    variant_name,
)
from .text.typography import (
    error_message,
    heading,
    label,
    labelled,
    phrase_text,
    quoted,
    rows_text,
)

__all__ = [
    "DOMAIN",
    "LANGUAGES",
    "LOCALE_DIR",
    "DiscrepancyText",
    "Explanation",
    "MissingTranslationError",
    "Translator",
    "available_languages",
    "default_language",
    "discrepancy_text",
    "error_message",
    "explain",
    "heading",
    "label",
    "labelled",
    "narrate",
    "narrate_all",
    "phrase_text",
    "quoted",
    "resolve_language",
    "rows_text",
    "rulebook",
    "section_text",
    "source_text",
    "translator",
    "variant_name",
]
