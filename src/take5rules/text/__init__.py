"""Text: the rulebook explained, game events narrated, errors worded, in five languages.

One job a module: :mod:`~take5rules.text.negotiation` (which language to speak, and its
catalog), :mod:`~take5rules.text.typography` (quotation marks, labels, located messages),
:mod:`~take5rules.text.rulebook` (the rules, their sources and the sources' discrepancies),
:mod:`~take5rules.text.narration` (the events of a game told), :mod:`~take5rules.text.pictures`
(the table drawn as SVG) and :mod:`~take5rules.text.extras` (the message for a missing optional
package). The names below are the public face of the first four.

>>> explain("table.sixth-card", "fr").title
'La sixième carte'
>>> resolve_language("bg_BG.UTF-8")
('bg', None)
>>> resolve_language("tlh")[0]
'en'
"""

from __future__ import annotations

from take5rules.text.narration import narrate, narrate_all
from take5rules.text.negotiation import (
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
from take5rules.text.rulebook import (
    DiscrepancyText,
    Explanation,
    discrepancy_text,
    explain,
    rulebook,
    section_text,
    source_text,
    variant_name,
)
from take5rules.text.typography import (
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
