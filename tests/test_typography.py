"""What a reader of French, Bulgarian, Italian or Esperanto sees: their language, their punctuation.

These tests read the commands' output as a person would, independently of the catalogs: a list
of English words that have no business in those languages, and each language's typography
(French no-break spaces, Bulgarian „…“). Names, rule ids, file names and quoted source headings
are data, not prose, and are set aside before looking.
"""

from __future__ import annotations

import json
import re
from collections.abc import Iterator
from pathlib import Path

import pytest
from click.testing import CliRunner

from take5rules.cli.main import main
from take5rules.registry import all_rules
from take5rules.text import section_text
from take5rules.variants import Variant

ROOT = Path(__file__).resolve().parent.parent
INVALID_LOGS = sorted((ROOT / "vectors" / "games" / "invalid").glob("*.json"))
LANGUAGES = ("fr", "bg", "it", "eo")
NBSP = "\N{NO-BREAK SPACE}"
NNBSP = "\N{NARROW NO-BREAK SPACE}"

#: English words that never occur in French, Bulgarian, Italian or Esperanto prose, and English
#: terms of this game that leaked before (the variants' ids, the publisher's booklet, the JSON
#: parser's messages).
_ENGLISH_WORDS = """
    the and of is are was with which this that these from for not into after before their
    them they every each would could should will has have been when where there than then
    row rows card cards player players game games round rounds turn turns takes take
    booklet rule rules function variant tactics logic tournament expecting value line
    column delimiter property enclosed quotes unterminated starting invalid
    character illegal trailing comma object lower higher highest lowest bull
    heads head winner winners begins reveals revealed
"""
ENGLISH = frozenset(_ENGLISH_WORDS.split())

#: Data inside prose: rule references ("[règle table.low-card]"), file names, JSON paths, dotted
#: names, ids (hyphenated: "logic-players", "take5-log"), JSON keys and values quoted the Python
#: way ('takes'), code in backticks, and what the
#: languages' own quotation marks enclose (the headings of the sources, quoted as written).
DATA = re.compile(
    r"\[[^\[\]]*\]"
    r"|\S+\.(?:txt|json|jsonl)\b"
    r"|\$[\w.\[\]]*"
    r"|[\w-]+(?:\.[\w-]+)+"
    r"|\w+(?:-\w+)+"
    r"|(?<!\w)'[^'\n]*'(?!\w)"
    r"|`[^`]*`"
    r"|«[^»]*»|„[^“]*“|“[^”]*”|\"[^\"]*\""
)
WORD = re.compile(r"[^\W\d_]+")

#: Players named in the games below: names, not words.
PLAYERS = "ana=cautious,bob=lowest,cyd=random"


def _run(*args: str, stdin: str | None = None) -> str:
    """The command's whole output, standard output and errors together."""
    result = CliRunner().invoke(main, list(args), input=stdin, catch_exceptions=False)
    return result.output


def _outputs(language: str) -> Iterator[tuple[str, str]]:
    """Every text a reader meets: the rulebook, the discrepancies, a game of every variant, and
    the errors of the CLI, of the validator and of the referee."""
    yield "rules", _run("rules", "--lang", language)
    yield "discrepancies", _run("discrepancies", "--lang", language)
    for variant in Variant:
        yield f"play {variant.value}", _run(
            "play", "--players", PLAYERS, "--variant", variant.value, "--seed", "3",
            "--lang", language)
    yield "explain unknown", _run("explain", "no.such-rule", "--lang", language)
    yield "play too many", _run("play", "--players", ",".join(["lowest"] * 6), "--variant",
                                "tournament", "--lang", language)
    yield "play unloggable", _run("play", "--players", "lowest,random", "--variant", "tournament",
                                  "--log", "/nonexistent/dir/x.json", "--lang", language)
    yield "validate", _run("validate", *map(str, INVALID_LOGS), "--lang", language)


def _referee(language: str) -> str:
    requests = [
        "not json",
        "{",
        '{"rows": [[1], [2], [3], [4]], "plays": [["ana", 0]]}',
        '{"rows": [[10], [20], [30], [40]], "plays": [["ana", 5]], "choices": {"ana": 7}}',
        '{"rows": [[10], [20], [30], [40]], "plays": [["ana", 50]], "choices": {"ana": 0}}',
        '{"rows": [[10, 9], [20], [30], [40]], "plays": [["ana", 50]]}',
        '{"rows": [[10], [20], [30]], "plays": [["ana", 50]]}',
        '{"plays": [["ana", 50]]}',
    ]
    replies = _run("referee", "--lang", language, stdin="\n".join(requests) + "\n")
    return "\n".join(json.loads(reply).get("error", {}).get("message", "")
                     for reply in replies.splitlines())


def _prose(text: str) -> str:
    return DATA.sub(" ", text)


def _english_words(text: str) -> set[str]:
    return {word for word in WORD.findall(_prose(text)) if word.lower() in ENGLISH}


@pytest.mark.parametrize("language", LANGUAGES)
def test_no_english_in_the_output(language: str) -> None:
    leaks = {
        name: sorted(words)
        for name, text in [*_outputs(language), ("referee", _referee(language))]
        if (words := _english_words(text))
    }
    assert not leaks, f"English words in the {language} output: {leaks}"


def test_the_english_detector_finds_english() -> None:
    assert _english_words("Amigo rule booklet, «Contents»: the tactics variant") == {
        "rule", "booklet", "the", "tactics", "variant"}
    assert not _english_words("[règle protocol] 000_83bc70e4b8234c93.txt, « Jouer sa carte »")


def _french_misspacings(text: str) -> list[str]:
    """Places where French typography wants a no-break space and the text has none.

    Quoted headings of the sources keep their own typography, and so does the German title of
    the publisher's booklet, "6 nimmt!".
    """
    found = []
    for quote in re.finditer(r"«(.)|(.)»", text):
        inner = quote.group(1) if quote.group(1) is not None else quote.group(2)
        if inner != NBSP:
            found.append(text[max(0, quote.start() - 20):quote.end() + 20])
    prose = re.sub(r"«[^»]*»|(?<!\w)'[^'\n]*'(?!\w)|`[^`]*`|\[[^\]]*\]|\w+://\S+|\d+:\d+"
                   r"|6 nimmt!", " ", text)
    for mark in re.finditer(r"(.)([:;!?])", prose):
        before, sign = mark.groups()
        wanted = NBSP if sign == ":" else NNBSP
        if before != wanted:
            found.append(prose[max(0, mark.start() - 30):mark.end() + 10])
    found.extend(match.group() for match in re.finditer(r"n° \d", text))
    return found


def test_french_output_has_its_no_break_spaces() -> None:
    outputs = [*_outputs("fr"), ("referee", _referee("fr"))]
    wrong = {name: places[:5] for name, text in outputs if (places := _french_misspacings(text))}
    assert not wrong, f"French punctuation without its no-break space: {wrong}"


def test_the_french_spacing_check_sees_plain_spaces() -> None:
    assert _french_misspacings("Règle : la carte ; « Jouer sa carte »")
    assert not _french_misspacings(f"Règle{NBSP}: la carte{NNBSP}; «{NBSP}Jouer{NBSP}»")


@pytest.mark.parametrize("language", ["bg", "eo"])
def test_quotation_marks_are_low_high(language: str) -> None:
    """Bulgarian and Esperanto quote „so“, never «so» nor “so”."""
    text = "\n".join(output for _, output in _outputs(language))
    assert "„" in text
    assert not re.search(r"[«»”]", text), re.findall(r".{20}[«»”].{0,20}", text)[:5]
    assert text.count("„") == text.count("“")


def test_bulgarian_lines_never_split_a_hyphenated_word() -> None:
    text = _run("rules", "--lang", "bg")
    split = [line for line in text.splitlines() if re.search(r"\w-$", line)]
    assert not split, split[:5]


@pytest.mark.parametrize("language", LANGUAGES)
def test_sources_are_described_in_words_with_their_own_headings(language: str) -> None:
    """A source line describes a document a reader can find, and quotes its heading as the
    source's own words; the founders' file names, not in the repository, are not shown."""
    text = _run("rules", "--lang", language)
    assert not re.search(r"\d{3}_[0-9a-f]{16}\.txt", text), "a file name a reader cannot open"
    assert "Amigo rule booklet" not in text
    for rule in all_rules():
        for source in rule.sources:
            # the heading as written, in the language's quotation marks, marked as the source's
            said = " ".join(section_text(source, language).split())
            assert said in " ".join(text.split()), source


def test_tournament_narration_counts_rounds_from_start_to_end() -> None:
    """Three players play a tournament of three rounds: announced, numbered and ended as such.

    The rulebook counts a tournament in games of one round each; the announcement says both, so
    that the rounds numbered after it are the rulebook's games, and the end counts those games
    (issue 27: it ended with the standard game's line, "after 3 rounds").
    """
    text = _run("play", "--players", PLAYERS, "--variant", "tournament", "--lang", "en")
    first, last = text.splitlines()[0], text.rstrip().splitlines()[-1]
    assert "3 games of one round each" in first
    assert last.startswith("The tournament is over after 3 games.")
    assert [line.split(".")[0] for line in text.splitlines() if line.startswith("Round ")] == [
        "Round 1", "Round 2", "Round 3"]
    assert " games" not in text.replace(first, "").replace(last, "")
