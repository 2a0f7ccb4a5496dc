"""What the docs generator writes from a single source (issue 26, point 6), checked without a build.

The table of the layers comes from ``tests/test_layers.py`` (``docs/layer_table.py``); the
measured figures and their tables from ``benchmarks/results/*.json``, written in each locale
(``docs/measured.py``). The expectations here are worked out independently: the layers from the
folder listing and the order the issue states, the numbers with Python's own formatting and
each locale's separators typed out, never with Babel.
"""

from __future__ import annotations

import json
import re
import sys
from pathlib import Path

import pytest

pytest.importorskip("babel")

ROOT = Path(__file__).resolve().parent.parent
DOCS = ROOT / "docs"
RESULTS = ROOT / "benchmarks" / "results"
SRC = ROOT / "src" / "take5rules"
LANGUAGES = ("en", "fr", "bg", "it", "eo")
sys.path.insert(0, str(DOCS))

from layer_table import Layers, layer_table, read_layers, read_words  # noqa: E402
from measured import TABLES, FigureError, figure, table  # noqa: E402

#: The decimal comma and the thousands separator of each locale, as a reader of it writes them.
SEPARATORS = {"en": (".", ","), "fr": (",", "\N{NARROW NO-BREAK SPACE}"),
              "bg": (",", "\N{NO-BREAK SPACE}"), "it": (",", "."),
              "eo": (",", "\N{NARROW NO-BREAK SPACE}")}


def front_matter(language: str, page: str) -> dict[str, object]:
    import yaml  # type: ignore[import-untyped]

    text = (DOCS / language / page).read_text(encoding="utf-8")
    assert text.startswith("---\n"), page
    loaded = yaml.safe_load(text.split("---\n", 2)[1])
    assert isinstance(loaded, dict)
    return loaded


def written(value: float, places: int, language: str, *, signed: bool = False) -> str:
    """*value* as the pages write it, by Python's format and the locale's separators."""
    point, group = SEPARATORS[language]
    text = f"{value:{'+' if signed else ''},.{places}f}"
    return text.replace(",", "\0").replace(".", point).replace("\0", group)


def ms(value: float, language: str) -> str:
    """A time in milliseconds as the pages write it: 3 decimals below 1 ms, 1 from there up."""
    return written(value, 1 if value >= 1 else 3, language)


# --- the layers --------------------------------------------------------------------------------


def english_words(levels: Layers, problems: list[str]) -> object:
    meta = front_matter("en", "contributing.md")
    labels = meta["labels"]
    assert isinstance(labels, dict)
    names = [name for name, _ in levels.layers] + [levels.facade]
    return read_words(meta, labels.__getitem__, names, lambda name, value: f"{name}: {value}",
                      problems.append, "docs/en/contributing.md")


def test_layer_table_shows_every_module_and_package_of_the_folder_listing() -> None:
    levels = read_layers(ROOT / "tests" / "test_layers.py")
    problems: list[str] = []
    words = english_words(levels, problems)
    made = layer_table(levels, words, SRC, lambda module: None)  # type: ignore[arg-type]
    assert problems == []
    # the order of the issue: the rule core, then text < logs < playing < conformance < agents
    # < cli, each the title the English page gives it
    assert made.splitlines()[0] == (
        "**foundations** < **rules** < **events** < **text** < **game logs** < **playing** < "
        "**conformance** < **agents** < **command line**")
    rows = [line for line in made.splitlines() if line.startswith("| ") and "---" not in line]
    assert len(rows) == 1 + 9 + 1  # the headings, the nine layers, the package itself
    listed = " ".join(row.split(" | ")[2] for row in rows[1:])  # the modules and packages
    for entry in sorted(SRC.iterdir()):
        if entry.name.startswith("__pycache__") or entry.name in ("_locales", "py.typed",
                                                                  "__init__.py"):
            continue
        if entry.is_dir():
            assert f"`{entry.name}/`" in listed, entry.name
            for module in sorted(entry.glob("*.py")):
                if module.name != "__init__.py":
                    assert f"`{module.stem}`" in listed, module
        else:
            assert f"`{entry.stem}`" in listed, entry.name
    assert "`batch/`" in listed and "`batch.placement`" in listed  # a package inside a package


def test_may_import_says_the_layers_below_and_each_narrower_rule(tmp_path: Path) -> None:
    definition = tmp_path / "test_layers.py"
    definition.write_text(
        'import pytest\n'
        'LAYERS: tuple = (("low", frozenset({"k", "m"})), ("mid", frozenset({"p"})),\n'
        '                 ("top", frozenset({"q", "r"})))\n'
        'FACADE = "pkg"\nFACADE_LEVEL = 1\n'
        'ONLY = {"k": frozenset(), "m": frozenset({"k"}), "p": frozenset({"k", "m", "p"}),\n'
        '        "r": frozenset({"p"})}\n', encoding="utf-8")
    levels = read_layers(definition)
    labels = {"layer": "L", "holds": "H", "modules": "M", "imports": "I", "nothing": "nothing",
              "own-layer": "its own layer"}
    meta = {"layers": {name: {"title": name.upper(), "holds": f"{name} things"}
                       for name in ("low", "mid", "top", "pkg")}}
    problems: list[str] = []
    words = read_words(meta, labels.__getitem__, ["low", "mid", "top", "pkg"],
                       lambda name, value: f"{name} = {value}", problems.append, "page")
    rows = layer_table(levels, words, tmp_path, lambda module: None).splitlines()
    assert problems == []
    assert rows[0] == "**LOW** < **MID** < **TOP**"
    assert rows[4] == "| LOW | low things | `k`, `m` | `k` = nothing<br>`m` = `k` |"
    assert rows[5] == "| MID | mid things | `p` | its own layer, LOW |"
    assert rows[6] == "| TOP | top things | `q`, `r` | its own layer, LOW, MID<br>`r` = MID |"
    assert rows[7] == "| PKG | pkg things | `pkg` (`__init__`) | LOW, MID |"


def test_a_layer_the_page_does_not_describe_and_a_stale_one_are_problems() -> None:
    problems: list[str] = []
    meta = {"layers": {"low": {"title": "LOW", "holds": "x"}, "gone": {"title": "G", "holds": "y"},
                       "mid": {"title": "MID"}}}
    read_words(meta, str, ["low", "mid", "top"], lambda name, value: value, problems.append,
               "page")
    assert any("'layers: mid: holds:'" in problem for problem in problems)
    assert any("'layers: top: title:'" in problem for problem in problems)
    assert any("'layers: gone:'" in problem and "does not have" in problem
               for problem in problems)
    assert not any("'layers: low" in problem for problem in problems)


def test_every_language_describes_every_layer_of_the_test() -> None:
    levels = read_layers(ROOT / "tests" / "test_layers.py")
    names = [name for name, _ in levels.layers] + [levels.facade]
    for language in LANGUAGES:
        problems: list[str] = []
        meta = front_matter(language, "contributing.md")
        read_words(meta, str, names, lambda name, value: value, problems.append, language)
        assert problems == [], language
        assert "<!-- take5rules:layers -->" in (DOCS / language / "contributing.md").read_text(
            encoding="utf-8")


# --- measured figures --------------------------------------------------------------------------


def test_numbers_are_written_in_each_locale() -> None:
    results = RESULTS
    strength = json.loads((results / "strength.json").read_text(encoding="utf-8"))
    games = 4 * strength["head_sets"]
    for language in LANGUAGES:
        difference = strength["ladder"]["best"]["difference"]
        assert figure(results, "strength ladder.best.difference interval", language) == (
            f"{written(difference[0], 2, language, signed=True)} "
            f"({written(difference[1], 2, language, signed=True)} \N{EN DASH} "
            f"{written(difference[2], 2, language, signed=True)})")
        assert figure(results, "strength 4*head_sets int", language) == written(games, 0,
                                                                               language)
        # the thousands separator, whatever the size of the run
        assert figure(results, "strength 1000*head_sets int", language) == written(
            1000 * strength["head_sets"], 0, language)
        ratio = (strength["head_to_head"]["best"]["mean_ms"]
                 / strength["head_to_head"]["mc-64"]["mean_ms"])
        assert figure(results, "strength head_to_head.best.mean_ms/head_to_head.mc-64.mean_ms d2",
                      language) == written(ratio, 2, language)
        assert figure(results, "strength head_sets raw", language) == str(strength["head_sets"])


def test_the_ladder_table_holds_every_figure_of_the_results_in_each_locale() -> None:
    strength = json.loads((RESULTS / "strength.json").read_text(encoding="utf-8"))
    ladder = strength["ladder"]
    for language in LANGUAGES:
        labels = front_matter(language, "strength.md")["labels"]
        assert isinstance(labels, dict)
        made = table(RESULTS, "strength-ladder", language, labels.__getitem__).splitlines()
        assert len(made) == 2 + len(ladder)
        by_player = {line.split(" | ", 1)[0].strip("| `"): line for line in made[2:]}
        assert set(by_player) == set(ladder)
        for player, entry in ladder.items():
            low, high = entry["difference"][1:]
            wins = ""  # mc-64's row comes from the head-to-head: no share of games won
            if "wins" in entry:
                percent = "\N{NO-BREAK SPACE}%" if language == "fr" else "%"
                share, least, most = (f"{written(100 * value, 1, language)}{percent}"
                                      for value in entry["wins"])
                wins = f"{share} ({least} \N{EN DASH} {most})"
            expected = (f"| `{player}` | {ms(entry['mean_ms'], language)} | "
                        f"{ms(entry['median_ms'], language)} | "
                        f"{written(entry['per_deal'], 2, language)} | "
                        f"{written(entry['difference'][0], 2, language, signed=True)} "
                        f"({written(low, 2, language, signed=True)} \N{EN DASH} "
                        f"{written(high, 2, language, signed=True)}) | {wins} |")
            assert by_player[player] == expected, (language, player)


@pytest.mark.parametrize("page", ["strength.md", "reference/benchmarks.md"])
def test_every_language_asks_for_the_same_figures_in_the_same_order(page: str) -> None:
    marker = re.compile(r"<!--\s*take5rules:(figures?)\s+([^>]*?)\s*-->")
    asked = {language: marker.findall((DOCS / language / page).read_text("utf-8"))
             for language in LANGUAGES}
    for language in LANGUAGES:
        assert asked[language] == asked["en"], language
        for kind, argument in asked[language]:
            if kind == "figure":
                figure(RESULTS, argument, language)  # each resolves
            else:
                labels = front_matter(language, page)["labels"]
                assert isinstance(labels, dict)
                table(RESULTS, argument, language, labels.__getitem__)  # every heading too
    if page != "strength.md":
        assert {"engine", "jobs", "batch", "arena-memory", "arena-time"} <= {
            argument for kind, argument in asked["en"] if kind == "figures"}
        return
    assert len(asked["en"]) >= 40
    assert {"strength-ladder", "strength-best", "strength-ismcts"} <= {
        argument for kind, argument in asked["en"] if kind == "figures"}
    for language in LANGUAGES:  # no table of figures is typed by hand any more
        lines = (DOCS / language / "strength.md").read_text("utf-8").splitlines()
        assert not [line for line in lines if line.startswith("| ")], language


def test_engine_and_batch_tables_compute_and_label_their_figures() -> None:
    engine = json.loads((RESULTS / "engine.json").read_text(encoding="utf-8"))
    labels = {"job-events": "{players} players, with events",
              "job-no-events": "{players} players, no events"}
    for language in LANGUAGES:
        made = table(RESULTS, "engine", language, lambda key: labels.get(key, key)).splitlines()
        for line, row in zip(made[2:], engine["rows"], strict=True):
            job = "with events" if row["job"] == "events" else "no events"
            assert line == (f"| {row['players']} players, {job} | "
                            f"{written(row['take5rules'], 0, language)} | "
                            f"{written(row['py6nimmt'], 0, language)} | "
                            f"{written(row['take5rules'] / row['py6nimmt'], 2, language)} | "
                            f"{written(row['floor'], 0, language)} | "
                            f"{written(row['take5rules'] / row['floor'], 2, language)} |")
    # the jobs table is composed of the benchmarks' own files, the referee's first
    jobs = json.loads((RESULTS / "referee.json").read_text(encoding="utf-8"))["rows"][0]
    jobs_table = table(RESULTS, "jobs", "fr",
                       lambda key: f"<{key}: {{size}} {{rate}} {{peer_rate}}>")
    assert jobs_table.splitlines()[2] == (
        f"| <job-{jobs['job']}: {written(jobs['size'], 0, 'fr')} {written(jobs['rate'], 0, 'fr')} "
        f"{written(jobs['peer_rate'], 0, 'fr')}> | <take5rules-{jobs['unit']}: "
        f"{written(jobs['size'], 0, 'fr')} {written(jobs['rate'], 0, 'fr')} "
        f"{written(jobs['peer_rate'], 0, 'fr')}> | <peer-{jobs['peer']}: "
        f"{written(jobs['size'], 0, 'fr')} {written(jobs['rate'], 0, 'fr')} "
        f"{written(jobs['peer_rate'], 0, 'fr')}> | "
        f"{written(jobs['rate'] / jobs['peer_rate'], 2, 'fr')} |")
    batch = json.loads((RESULTS / "batch.json").read_text(encoding="utf-8"))
    made = table(RESULTS, "batch", "fr", str).splitlines()
    last = batch["rows"][-1]
    assert made[-1].endswith(f"| {written(last['peak_rss_mb'], 0, 'fr')}\N{NO-BREAK SPACE}MB | "
                             f"{written(last['bytes_a_game'], 0, 'fr')}\N{NO-BREAK SPACE}B |")


def test_the_mutation_table_sums_its_modules_and_gives_percentages_in_each_locale() -> None:
    mutation = json.loads((RESULTS / "mutation.json").read_text(encoding="utf-8"))
    modules = mutation["modules"]
    spaced = {"en": "%", "fr": "\N{NO-BREAK SPACE}%", "bg": "%", "it": "%", "eo": "%"}
    for language in LANGUAGES:
        labels = front_matter(language, "contributing.md")["labels"]
        assert isinstance(labels, dict)
        made = table(RESULTS, "mutation", language, labels.__getitem__).splitlines()
        assert len(made) == 2 + len(modules) + 1
        mutants = sum(entry["mutants"] for entry in modules.values())
        killed = sum(entry["killed"] for entry in modules.values())
        reviewed = sum(entry["reviewed"] for entry in modules.values())
        percent = spaced[language]
        assert made[-1] == (
            f"| **{labels['all']}** | {written(mutants, 0, language)} | "
            f"{written(killed, 0, language)} | {written(reviewed, 0, language)} | "
            f"{written(100 * killed / mutants, 1, language)}{percent} | "
            f"{written(100 * killed / (mutants - reviewed), 1, language)}{percent} |")
        first, entry = next(iter(modules.items()))
        assert made[2].startswith(f"| `{first}` | {entry['mutants']} | {entry['killed']} | ")


@pytest.mark.parametrize(("argument", "said"), [
    ("strength ladder.nobody.per_deal d2", "'nobody'"),
    ("strength ladder.best.difference.7 s2", "'7'"),
    ("nothing-here sets int", "does not exist"),
    ("../strength sets int", "not the name of a file"),
    ("strength sets percent", "no style 'percent'"),
    ("strength sets", "FILE EXPRESSION STYLE"),
    ("strength ladder.best d2", "is not a number"),
    ("strength ladder.best.per_deal interval", "[estimate, low, high]"),
])
def test_a_figure_that_is_not_there_is_a_clear_error(argument: str, said: str) -> None:
    with pytest.raises(FigureError, match=re.escape(said)):
        figure(RESULTS, argument, "en")


def test_a_table_whose_rows_differ_from_the_results_is_refused(tmp_path: Path) -> None:
    strength = json.loads((RESULTS / "strength.json").read_text(encoding="utf-8"))
    del strength["ladder"]["greedy"]
    (tmp_path / "strength.json").write_text(json.dumps(strength), encoding="utf-8")
    with pytest.raises(FigureError, match="greedy"):
        table(tmp_path, "strength-ladder", "en", str)
    with pytest.raises(FigureError, match="no table 'nothing'"):
        table(RESULTS, "nothing", "en", str)
    assert set(TABLES) >= {"strength-ladder", "strength-best", "strength-ismcts"}


# --- code examples -----------------------------------------------------------------------------

FENCED = re.compile(r"^(`{3,})([a-z]*)[^\n]*\n(.*?)^\1[ \t]*$", re.MULTILINE | re.DOTALL)
SNIPPET = re.compile(r'--8<-- "([^"]+)"')


def test_every_code_example_is_written_once_and_included_by_every_language() -> None:
    pages = sorted(path.relative_to(DOCS / "en") for path in (DOCS / "en").rglob("*.md"))
    included: set[str] = set()
    for page in pages:
        blocks = {language: [(match.group(2), match.group(3).strip()) for match in
                             FENCED.finditer((DOCS / language / page).read_text("utf-8"))]
                  for language in LANGUAGES}
        for language in LANGUAGES:
            assert blocks[language] == blocks["en"], (language, page)  # the same, in order
        for kind, body in blocks["en"]:
            snippet = SNIPPET.fullmatch(body)
            assert snippet is not None, (page, kind, body[:80])  # no code typed into a page
            assert (DOCS / "snippets" / snippet.group(1)).is_file(), snippet.group(1)
            included.add(snippet.group(1))
    assert len(included) >= 30
    files = {path.relative_to(DOCS / "snippets").as_posix()
             for path in (DOCS / "snippets").rglob("*") if path.is_file()}
    assert files == included  # no snippet that no page shows


# --- the observation vector of the agents ------------------------------------------------------

from encoding_table import (  # noqa: E402
    HEADINGS,
    LayoutError,
    encoding_table,
    read_holds,
    read_layout,
    vector_size,
)

ENCODING = SRC / "agents" / "encoding.py"
#: The vector as the issue and the encoding's docstring state it: each part, its width.
STATED = (("hand", 104), ("rows", 20), ("row_lengths", 4), ("row_heads", 4), ("pool", 104),
          ("seen", 104), ("picked_by", 104), ("phase", 4), ("pending", 1), ("pending_seat", 1),
          ("laid", 1), ("round", 1), ("turn", 1), ("seat", 10), ("seats", 1),
          ("penalties", 10), ("totals", 10), ("threshold", 1), ("variant", 4))
TABLE_ROW = re.compile(r"^\| `([a-z_]+)` \| (\d+)(?:\N{EN DASH}(\d+))? \| (\d+) \| (.+) \|$")


def test_the_observation_table_is_read_from_the_code_without_numpy(
        monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setitem(sys.modules, "numpy", None)  # the docs extra has no numpy
    parts = read_layout(ENCODING)
    assert [(part.name, part.width) for part in parts] == list(STATED)
    assert [part.start for part in parts][:5] == [0, 104, 124, 128, 132]
    assert vector_size(parts) == 489


def test_the_observation_table_is_the_encodings_layout_in_every_language() -> None:
    pytest.importorskip("numpy", reason="the encoding needs numpy (take5rules[batch])")
    from take5rules.agents.encoding import OBSERVATION_LAYOUT, SIZE

    parts = read_layout(ENCODING)
    assert vector_size(parts) == SIZE
    for language in LANGUAGES:
        meta = front_matter(language, "agents.md")
        labels = meta["labels"]
        assert isinstance(labels, dict)
        problems: list[str] = []
        holds = read_holds(meta, parts, problems.append, language)
        assert problems == [], language
        lines = encoding_table(parts, holds, labels.__getitem__).splitlines()
        assert lines[0] == "| " + " | ".join(labels[key] for key in HEADINGS) + " |"
        rows = [TABLE_ROW.fullmatch(line) for line in lines[2:]]
        assert all(rows), (language, lines)
        found = {row.group(1): slice(int(row.group(2)), int(row.group(3) or row.group(2)) + 1)
                 for row in rows if row}
        assert list(found) == list(OBSERVATION_LAYOUT), language  # every part, in order
        assert found == dict(OBSERVATION_LAYOUT), language
        for row in rows:
            assert row is not None
            width = OBSERVATION_LAYOUT[row.group(1)]
            assert int(row.group(4)) == width.stop - width.start
            assert row.group(5) == holds[row.group(1)] != row.group(1)
        text = (DOCS / language / "agents.md").read_text("utf-8")
        assert "<!-- take5rules:encoding -->" in text, language


def test_a_part_the_page_does_not_describe_and_a_stale_one_are_problems(tmp_path: Path) -> None:
    parts = read_layout(ENCODING)
    described = {part.name: f"what {part.name} holds" for part in parts}
    del described["seen"]
    described["history"] = "who played each card in which turn"
    problems: list[str] = []
    holds = read_holds({"encoding": described}, parts, problems.append, "page.md")
    assert len(problems) == 2
    assert "'encoding: seen:' missing" in problems[0]
    assert "'encoding: history:' describes a part" in problems[1]
    assert holds["seen"] == "seen" and holds["hand"] == "what hand holds"
    source = tmp_path / "encoding.py"
    source.write_text("WIDTH = 3\n_PARTS = (('a', WIDTH), ('b', 0))\n", encoding="utf-8")
    with pytest.raises(LayoutError, match="width of at least 1"):
        read_layout(source)
    source.write_text("_PARTS = (('a', UNKNOWN),)\n", encoding="utf-8")
    with pytest.raises(LayoutError, match="UNKNOWN is neither assigned nor imported"):
        read_layout(source)
    source.write_text("from os import sep\n_PARTS = (('a', len(sep)),)\n", encoding="utf-8")
    with pytest.raises(LayoutError, match="not from take5rules"):
        read_layout(source)


def test_the_agents_page_asks_for_the_same_figures_in_every_language() -> None:
    marker = re.compile(r"<!--\s*take5rules:(figure|encoding)\s*([^>]*?)\s*-->")
    asked = {language: marker.findall((DOCS / language / "agents.md").read_text("utf-8"))
             for language in LANGUAGES}
    files = {argument.split()[0] for kind, argument in asked["en"] if kind == "figure"}
    assert files == {"env", "batch", "cfr", "policy"}  # speed, batch, CFR, the policy: none by hand
    assert [argument for kind, argument in asked["en"] if kind == "encoding"] == ["size", "",
                                                                                 "size"]
    cfr = json.loads((RESULTS / "cfr.json").read_text(encoding="utf-8"))
    for language in LANGUAGES:
        assert asked[language] == asked["en"], language
        for kind, argument in asked[language]:
            if kind == "figure":
                figure(RESULTS, argument, language)  # each resolves
    # the NashConv column, four decimals in each locale, as the run printed it to six
    assert figure(RESULTS, "cfr nash_conv.100 d4", "en") == f"{cfr['nash_conv']['100']:.4f}"
    assert figure(RESULTS, "cfr nash_conv.2 d4", "fr") == written(cfr["nash_conv"]["2"], 4, "fr")
