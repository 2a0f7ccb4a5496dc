"""The catalogs: complete, consistent, up to date, and used for every rule and event."""

from __future__ import annotations

import re
from pathlib import Path

import pytest
from babel.messages.extract import extract_from_dir
from babel.messages.plurals import get_plural
from babel.messages.pofile import read_po

from take5rules.errors import IllegalMoveError, Where
from take5rules.playing.engine import play_game
from take5rules.playing.players import CautiousPlayer, LowestCardPlayer, RandomPlayer
from take5rules.registry import DISCREPANCIES, RULE_ORDER
from take5rules.text import (
    LANGUAGES,
    MissingTranslationError,
    Translator,
    default_language,
    error_message,
    explain,
    narrate,
    narrate_all,
    resolve_language,
    rulebook,
)
from take5rules.variants import Rules, Variant

ROOT = Path(__file__).resolve().parent.parent
LOCALES = ROOT / "locales"
GOLDEN = Path(__file__).parent / "golden"
PLACEHOLDER = re.compile(r"\{[^{}]*\}")
#: Every catalog under locales/: the five languages and any extra one (Dutch, German...).
CATALOGS = tuple(sorted(
    path.name for path in LOCALES.iterdir() if (path / "LC_MESSAGES" / "take5rules.po").exists()
))
#: Messages that may read the same in another language: those made only of placeholders.
ONLY_PLACEHOLDERS = re.compile(r"(\{[^{}]*\}|\W)*")


def _catalog(language: str):  # type: ignore[no-untyped-def]
    with (LOCALES / language / "LC_MESSAGES" / "take5rules.po").open("rb") as handle:
        return read_po(handle, locale=language)


def _ids(message) -> tuple[str, ...]:  # type: ignore[no-untyped-def]
    return message.id if isinstance(message.id, tuple) else (message.id,)


def _strings(message) -> tuple[str, ...]:  # type: ignore[no-untyped-def]
    return message.string if isinstance(message.string, tuple) else (message.string,)


def _source_messages() -> set[str]:
    found = set()
    for _, _, message, _, _ in extract_from_dir(
        str(ROOT / "src"), method_map=[("**.py", "python")],
        keywords={"N_": None, "Nn_": (1, 2)},
        # like scripts/catalogs.py: Babel would skip _* directories, take5rules/_commands too
        directory_filter=lambda path: not Path(path).name.startswith((".", "__", "_locales")),
    ):
        found.add(message[0] if isinstance(message, tuple) else message)
    return found


def test_catalogs_include_the_five_languages() -> None:
    assert set(LANGUAGES) <= set(CATALOGS)


def test_catalog_template_is_up_to_date_with_the_code() -> None:
    with (LOCALES / "take5rules.pot").open("rb") as handle:
        template = {_ids(m)[0] for m in read_po(handle) if m.id}
    assert template == _source_messages(), "run: python scripts/catalogs.py extract && update"


@pytest.mark.parametrize("language", CATALOGS)
def test_catalog_is_complete_and_not_fuzzy(language: str) -> None:
    catalog = _catalog(language)
    with (LOCALES / "take5rules.pot").open("rb") as handle:
        template = {_ids(m)[0] for m in read_po(handle) if m.id}
    assert {_ids(m)[0] for m in catalog if m.id} == template
    for message in catalog:
        if message.id:
            assert all(_strings(message)), f"untranslated: {message.id!r}"
            assert not message.fuzzy, f"fuzzy: {message.id!r}"


@pytest.mark.parametrize("language", CATALOGS)
def test_catalog_placeholders_match_the_msgid(language: str) -> None:
    for message in _catalog(language):
        if message.id:
            # the first form shares the singular msgid's placeholders, the others the plural's
            # (click's "Did you mean {possibility}?" / "... {possibilities}?)", say)
            ids = _ids(message)
            for index, string in enumerate(_strings(message)):
                expected = sorted(PLACEHOLDER.findall(ids[min(index, len(ids) - 1)]))
                assert sorted(PLACEHOLDER.findall(string)) == expected, message.id


@pytest.mark.parametrize("language", CATALOGS)
def test_catalog_plural_forms_follow_babel(language: str) -> None:
    catalog = _catalog(language)
    assert catalog.num_plurals == get_plural(language).num_plurals
    for message in catalog:
        if message.id and message.pluralizable:
            assert len(_strings(message)) == catalog.num_plurals, message.id


@pytest.mark.parametrize("language", CATALOGS)
def test_catalog_passes_babel_checkers(language: str) -> None:
    assert [(m.id, errors) for m, errors in _catalog(language).check()] == []


@pytest.mark.parametrize("language", [lang for lang in CATALOGS if lang != "en"])
def test_catalog_translates_every_message_away_from_english(language: str) -> None:
    for message in _catalog(language):
        if message.id and not ONLY_PLACEHOLDERS.fullmatch(_ids(message)[0]):
            assert _strings(message)[0] != _ids(message)[0], message.id


@pytest.mark.parametrize("language", CATALOGS)
def test_explain_every_rule_in_every_language(language: str) -> None:
    book = rulebook(language, strict=True)
    assert [item.rule_id for item in book] == list(RULE_ORDER)
    for item in book:
        assert item.title and item.statement and item.explanation


def test_explain_titles_differ_between_languages() -> None:
    titles = {lang: explain("table.sixth-card", lang, strict=True).title for lang in LANGUAGES}
    assert len(set(titles.values())) == len(LANGUAGES)


@pytest.mark.parametrize(
    ("tag", "language"),
    [("fr_CA", "fr"), ("fr-FR", "fr"), ("bg_BG.UTF-8", "bg"), ("EO", "eo"), ("it_IT@euro", "it"),
     ("en_GB", "en"), ("C", "en"), ("", "en"), ("BG", "bg"), ("eo-XX", "eo")],
)
def test_resolve_language_negotiates_locales(tag: str, language: str) -> None:
    assert resolve_language(tag) == (language, None)


def test_resolve_language_falls_back_to_english_with_a_notice() -> None:
    language, notice = resolve_language("tlh_QO")
    assert language == "en"
    assert notice is not None and "tlh_QO" in notice


def test_default_language_reads_lc_all_then_lc_messages_then_lang() -> None:
    assert default_language({"LC_MESSAGES": "bg_BG.UTF-8", "LANG": "fr_FR.UTF-8"}) == "bg"
    assert default_language({"LANG": "fr_FR.UTF-8"}) == "fr"
    assert default_language({}) == "en"


def test_a_strict_translator_fails_on_a_missing_translation() -> None:
    with pytest.raises(MissingTranslationError):
        Translator("fr", strict=True).gettext("a message nobody wrote")
    assert Translator("fr").gettext("a message nobody wrote") == "a message nobody wrote"


@pytest.mark.parametrize("language", CATALOGS)
def test_error_message_is_localized(language: str) -> None:
    error = IllegalMoveError("turn.reveal", "card {value} is not in the hand of {player!r}",
                             where=Where(round=1, turn=2, player="bob", card=16),
                             value=16, player="bob")
    text = error_message(error, language, strict=True)
    assert "'bob'" in text and "16" in text and "turn.reveal" in text


def test_discrepancies_are_translated() -> None:
    from take5rules.text import discrepancy_text

    for language in LANGUAGES:
        for item in DISCREPANCIES:
            assert discrepancy_text(item, language, strict=True)["choice"]


def _game(variant: Variant) -> tuple[object, ...]:
    seats = {"Ana": CautiousPlayer(), "Bob": LowestCardPlayer(), "Cyd": RandomPlayer(5)}
    return tuple(play_game(seats, Rules(variant), seed=11))  # type: ignore[arg-type]


@pytest.mark.parametrize("language", CATALOGS)
@pytest.mark.parametrize("variant", list(Variant))
def test_narrate_a_whole_game_with_no_missing_translation(language: str, variant: Variant) -> None:
    for event in _game(variant):
        assert narrate(event, language, strict=True)  # type: ignore[arg-type]


@pytest.mark.parametrize("language", CATALOGS)
def test_narrate_a_seeded_game_matches_its_golden_file(language: str) -> None:
    text = narrate_all(_game(Variant.STANDARD), language, strict=True) + "\n"  # type: ignore[arg-type]
    golden = GOLDEN / f"game_{language}.txt"
    assert text == golden.read_text(encoding="utf-8")


def test_narrate_the_issue_example_sentence() -> None:
    from take5rules.events import SixthCardTaken

    event = SixthCardTaken(1, 4, "Bob", 74, 1, (51, 55, 61, 68, 73), ((12,), (74,), (80,), (96,)))
    assert narrate(event, "en") == (
        "Bob's 74 would be the sixth card in row 2: Bob takes 51, 55, 61, 68, and 73, "
        "11 bull heads."
    )
    assert "11" in narrate(event, "bg") and "глави на бикове" in narrate(event, "bg")


def test_rows_are_numbered_from_1_for_people() -> None:
    """17 belongs after the 12 at the end of the first row: people call it row 1 (index 0)."""
    from take5rules.errors import IllegalMoveError
    from take5rules.table import Table, low_card

    with pytest.raises(IllegalMoveError) as raised:
        low_card(Table.of([[3, 12], [24], [58, 61, 70], [96]]), 17, 0)
    assert "goes on row 1 " in f"{raised.value} "
    assert "la rangée 1" in error_message(raised.value, "fr")
    assert "index" not in str(raised.value)


#: Numbers that may stand before a plural noun outside ngettext, because they are never 1
#: (the English fragment, and why). Any other number before a noun needs a plural form, or the
#: count in predicate position ("the total of 'ana' is 1"), never "has 1 points".
NEVER_ONE = {
    "{players} players": "a game has 2 players or more (rule setup.players)",
    "{count} players": "a game has 2 players or more (rule setup.players)",
    "{high} players": "the most players of a variant: 5, 6 or 10",
    "{expected} picks": "ten picks per player, so 20 or more",
    "{needed} cards": "ten cards per player and four rows, so 24 or more",
    "not {count} cards": "a turn of 1 to 10 cards is valid: the count is 0 or 11 and more",
    "with {count} cards; each row starts with one card": "the error is that the count is not 1",
    "{players} seats": "a batch seats 2 players or more (rule setup.players)",
    "{rounds} games": "a tournament has 2 to 5 players, one game each",
    "{rounds} rounds": "the play command's bound on the rounds of a game, a constant",
    "{limit} bull heads": "the play command's highest threshold, a constant",
    "{limit} bytes": "a size limit of the library, a constant",
    "{digits} digits": "a size limit of the library, a constant",
    "{timeout} seconds": "a decimal number of seconds (5.0), plural in every language",
    "a line of {size} bytes is longer": "longer than the limit: 65,537 bytes or more",
    "more than {most} bytes": "a size limit of the library, a constant",
    "its first {failed} games": "the arena's GIVE_UP, a constant (3)",
}
#: The nouns a count stands before, in their plural (or counting) forms, by language.
COUNTED = {
    "en": r"points|cards|turns|rows|picks|rounds|games|players|seats|policies|bytes|digits|"
          r"seconds|bull heads|violations|examples",
    "fr": r"points|cartes|tours|rangées|manches|parties|joueurs|places|stratégies|octets|"
          r"chiffres|secondes|têtes",
    "it": r"punti|carte|turni|file|scelte|partite|giocatori|posti|strategie|cifre|secondi|teste",
    "bg": r"точки|карти|хода|ходове|реда|редове|избора|рунда|рундове|игри|играчи|места|"
          r"стратегии|байта|байтове|цифри|секунди|глави",
    "eo": r"\w+oj|\w+ojn",
    "nl": r"punten|kaarten|beurten|rijen|keuzes|rondes|spellen|spelers|plaatsen|strategieën|"
          r"bytes|cijfers|seconden|stierenkoppen",
    "de": r"Punkte|Minuspunkte|Karten|Züge|Reihen|Runden|Spiele|Partien|Spieler|Plätze|"
          r"Strategien|Bytes|Ziffern|Sekunden|Hornochsen",
}


def _counted_before_a_noun(text: str, language: str) -> set[str]:
    """The placeholders of *text* that stand right before a counted noun."""
    pattern = r"\{(\w+)(?:![rs])?\} (?:" + COUNTED[language] + r")\b"
    return set(re.findall(pattern, text))


def _never_one(msgid: str) -> set[str]:
    return {name for fragment in NEVER_ONE if fragment in msgid
            for name in re.findall(r"\{(\w+)\}", fragment)}


def test_no_english_message_puts_a_count_before_a_noun_without_a_plural() -> None:
    with (LOCALES / "take5rules.pot").open("rb") as handle:
        singular = [str(m.id) for m in read_po(handle) if m.id and not m.pluralizable]
    assert [(msgid, sorted(_counted_before_a_noun(msgid, "en") - _never_one(msgid)))
            for msgid in singular if _counted_before_a_noun(msgid, "en") - _never_one(msgid)] == []


@pytest.mark.parametrize("language", sorted(set(CATALOGS) & set(COUNTED) - {"en"}))
def test_no_translation_puts_a_count_before_a_noun_without_a_plural(language: str) -> None:
    """"ha 1 punti", "a 1 points", "има общо 1 точки": a singular message never says that."""
    wrong = []
    for message in _catalog(language):
        if message.id and not message.pluralizable:
            names = _counted_before_a_noun(message.string, language) - _never_one(message.id)
            if names:
                wrong.append((message.id, message.string, sorted(names)))
    assert wrong == []


DOCS = ROOT / "docs"
#: One word per concept: the words a language's catalog and docs pages never use, and why.
NOT_SAID = {
    "bg": (r"зърн\w*", "seed is „начално число“, as conform says, never „зърно“"),
    "eo": (r"seĝ\w*", "a seat is « sidloko », never « seĝo »"),
    # Italian speaks to the reader in voi (installate, scegliete): no tu pronoun, possessive,
    # verb or imperative, as "scegline", "installalo" or "la tua carta" once were.
    "it": (r"\b(?:tu|ti|te|tuo|tua|tuoi|tue|hai|puoi|devi|vuoi|scegli|scegline|installalo|"
           r"iniziane|vedi|prendi|metti)\b|installa take5rules",
           "the reader is addressed in voi throughout"),
    "fr": (r"piles? de bœufs|joueurs intégrés|textes sources",
           "« pile de pénalités », « joueurs fournis », « pages de règles »"),
}


def _pages(language: str) -> list[Path]:
    return sorted(path for path in (DOCS / language).rglob("*")
                  if path.suffix in {".md", ".svg"})


@pytest.mark.parametrize("language", sorted(NOT_SAID))
def test_a_concept_has_one_word_in_the_catalog_and_the_docs(language: str) -> None:
    pattern, why = NOT_SAID[language]
    found = [string for message in _catalog(language) if message.id
             for string in _strings(message) if re.search(pattern, string, re.IGNORECASE)]
    found += [f"{path.relative_to(ROOT)}: {match.group()}" for path in _pages(language)
              for match in re.finditer(pattern, path.read_text(encoding="utf-8"), re.IGNORECASE)]
    assert found == [], why


@pytest.mark.parametrize(("language", "word"), [("fr", "de"), ("it", "di")])
def test_a_round_million_takes_its_preposition(language: str, word: str) -> None:
    """The "many" form (1 000 000...) says "1.000.000 di turni", « 1 000 000 de tours »."""
    for message in _catalog(language):
        if message.id and message.pluralizable:
            many = _strings(message)[1]
            assert not re.search(r"\{(?:count|games)\} (?!" + word + r"\b)\w", many), many


def test_narrate_refuses_what_is_not_an_event() -> None:
    from take5rules.errors import MalformedInputError
    from take5rules.text import narrate

    with pytest.raises(MalformedInputError) as caught:
        narrate("a card was placed", "fr")  # type: ignore[arg-type]
    assert caught.value.rule == "argument"
