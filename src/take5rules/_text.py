"""Markers for translatable English text.

``N_("...")`` returns its argument unchanged, and ``Nn_("...", "...")`` returns its singular and
plural forms as a pair. They exist so that ``pybabel extract`` (see ``babel.cfg``) finds every
message of the library: rule texts, error templates, narration. Translation happens later, in
:mod:`take5rules.i18n`, so the rules engine never depends on a language.
"""

from __future__ import annotations

__all__ = ["N_", "Nn_"]


def N_(message: str) -> str:  # noqa: N802 - the gettext convention
    """Mark *message* for extraction and return it unchanged.

    >>> N_("bull heads")
    'bull heads'
    """
    return message


def Nn_(singular: str, plural: str) -> tuple[str, str]:  # noqa: N802 - the gettext convention
    """Mark a message with a plural for extraction and return both forms.

    >>> Nn_("{count} bull head", "{count} bull heads")
    ('{count} bull head', '{count} bull heads')
    """
    return singular, plural
