"""Typography: quotation marks, labels, headings and located messages, as each language writes.

>>> print(quoted("Jouer sa carte", "fr").replace("\N{NO-BREAK SPACE}", "~"))
«~Jouer sa carte~»
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence

from take5rules._messages import N_, Phrase
from take5rules.cards import Card
from take5rules.errors import NOT_RULES, Take5Error
from take5rules.text.negotiation import Translator, translator
from take5rules.variants import Variant

__all__ = [
    "error_message",
    "heading",
    "label",
    "labelled",
    "phrase_text",
    "quoted",
    "rows_text",
]

_LABELS = {
    "rule": N_("Rule"),
    "statement": N_("Statement"),
    "explanation": N_("Explanation"),
    "sources": N_("Sources"),
    "function": N_("Function"),
    "rows": N_("Rows"),
}

#: The variants' names as words inside an error message ("the {variant} variant uses...").
_VARIANT_WORDS = {
    Variant.STANDARD.value: N_("standard"),
    Variant.TACTICS.value: N_("tactics"),
    Variant.LOGIC.value: N_("logic"),
    Variant.TOURNAMENT.value: N_("tournament"),
}

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



def error_message(error: Take5Error, language: str = "en", *, strict: bool = False) -> str:
    """*error* worded in *language*: where, what, and the rule broken.

    >>> from take5rules.errors import IllegalMoveError, Where
    >>> error = IllegalMoveError("turn.reveal", "card {value} is not in the hand of {player!r}",
    ...                          where=Where(round=1, turn=2, player="bob", card=16),
    ...                          value=16, player="bob")
    >>> print(error_message(error, "it"))  # doctest: +NORMALIZE_WHITESPACE
    manche 1, turno 2, giocatore 'bob', carta 16:
    la carta 16 non è nella mano di 'bob' [regola turn.reveal]

    An error that breaks no rule of the game (an id of :data:`take5rules.errors.NOT_RULES`)
    shows its id alone:

    >>> from take5rules.errors import MalformedInputError
    >>> print(error_message(MalformedInputError("argument", "row = {value}", value=4), "fr"))
    row = 4 [argument]
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
    if error.rule in NOT_RULES:  # no rule of the game is broken: the id alone, not "rule"
        rule = f"[{error.rule}]"
    else:
        rule = tr.gettext(N_("[rule {rule}]")).format(rule=error.rule)
    if not prefix:
        return f"{message} {rule}"
    return tr.gettext(_LOCATED).format(where=prefix, message=message, rule=rule)


def phrase_text(template: str, language: str = "en", /, **params: object) -> str:
    """*template* in *language*, filled with *params*, each phrase among them translated too.

    >>> from take5rules._messages import os_reason
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


