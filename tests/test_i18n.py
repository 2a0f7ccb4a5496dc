"""The catalogs: complete, consistent, up to date, and used for every rule and event."""

from __future__ import annotations

import re
from pathlib import Path

import pytest
from babel.messages.extract import extract_from_dir
from babel.messages.plurals import get_plural
from babel.messages.pofile import read_po

from take5rules.engine import play_game
from take5rules.errors import IllegalMoveError, Where
from take5rules.i18n import (
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
from take5rules.players import CautiousPlayer, LowestCardPlayer, RandomPlayer
from take5rules.registry import DISCREPANCIES, RULE_ORDER
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
    from take5rules.i18n import discrepancy_text

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
