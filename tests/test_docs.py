"""The documentation site: built with ``mkdocs build --strict``, in five languages, from the code.

The site is built once per session into a temporary directory (:func:`build_docs`, reused by
``test_docs_browser.py``). Any warning fails the build: a broken link, a missing page, a missing
translation (the rule pages are written from the catalogs with ``strict=True``).

With ``TAKE5RULES_DOCS_DRAFT=1`` in the environment the build (and these tests) accept missing
translations, modules, schema and vectors: for drafting only.
"""

from __future__ import annotations

import html
import importlib.util
import json
import os
import re
import shutil
import subprocess
import sys
import time
import xml.etree.ElementTree as ET
from dataclasses import dataclass
from pathlib import Path

import pytest

from take5rules import registry
from take5rules import text as i18n
from take5rules.cli.main import all_commands
from take5rules.conformance.examples import WORKED_EXAMPLES
from take5rules.text.pictures import SVG_NS

ROOT = Path(__file__).resolve().parent.parent
LANGUAGES = i18n.LANGUAGES
DRAFT = os.environ.get("TAKE5RULES_DOCS_DRAFT", "").strip() not in ("", "0", "false")
STRICT = not DRAFT
_MATERIAL = importlib.util.find_spec("material")
MATERIAL_LANGUAGES = Path(_MATERIAL.origin if _MATERIAL and _MATERIAL.origin else ".").parent / (
    "templates/partials/languages"
)
LOG_SCHEMA = ROOT / "src" / "take5rules" / "logs" / "schemas" / "take5-log-1.schema.json"

#: The hand-written pages every language has (docs/<lang>/...), as built pages.
HAND_WRITTEN = (
    "index.html",
    "getting-started/index.html",
    "rules/index.html",
    "discrepancies/index.html",
    "examples/index.html",
    "play/index.html",
    "reference/index.html",
    "reference/cli/index.html",
    "reference/referee/index.html",
    "reference/player-protocol/index.html",
    "reference/log-format/index.html",
    "reference/vectors/index.html",
    "api/index.html",
)
#: Pictures on the examples page: one before each turn and one after each placement.
EXAMPLE_PICTURES = sum(len(example.plays) + 1 for example in WORKED_EXAMPLES)


@dataclass(frozen=True)
class Built:
    """One build of the site: where it went, what mkdocs printed, and how long it took."""

    site: Path
    returncode: int
    output: str
    seconds: float

    def page(self, language: str, path: str) -> str:
        return (self.site / prefix(language) / path).read_text(encoding="utf-8")


_BUILT: dict[str, Built] = {}


def prefix(language: str) -> str:
    return "" if language == "en" else f"{language}/"


def build_docs(tmp_path_factory: pytest.TempPathFactory) -> Built:
    """Build the site once per session (cached for the browser tests too)."""
    if "site" not in _BUILT:
        site = tmp_path_factory.mktemp("docs") / "site"
        env = {key: value for key, value in os.environ.items()
               if key not in ("NO_MKDOCS_2_WARNING", "DISABLE_MKDOCS_2_WARNING")}
        start = time.monotonic()
        completed = subprocess.run(
            [sys.executable, "-m", "mkdocs", "build", "--strict", "--clean",
             "-f", str(ROOT / "mkdocs.yml"), "-d", str(site)],
            cwd=ROOT, env=env, capture_output=True, text=True, timeout=1200, check=False,
        )
        _BUILT["site"] = Built(site, completed.returncode, completed.stdout + completed.stderr,
                               time.monotonic() - start)
    return _BUILT["site"]


@pytest.fixture(scope="session")
def built(tmp_path_factory: pytest.TempPathFactory) -> Built:
    result = build_docs(tmp_path_factory)
    if result.returncode != 0:
        pytest.fail(f"mkdocs build --strict failed:\n{result.output[-6000:]}")
    return result


def pages_of(built: Built, language: str) -> set[str]:
    base = built.site / prefix(language)
    others = {f"{other}/" for other in LANGUAGES if other != "en"}
    found = set()
    for page in base.rglob("index.html"):
        relative = page.relative_to(base).as_posix()
        if language == "en" and any(relative.startswith(other) for other in others):
            continue
        found.add(relative)
    return found


def text(html_text: str) -> str:
    """The visible text of a page, roughly: tags dropped, entities decoded, spaces squeezed."""
    return " ".join(html.unescape(re.sub(r"<[^>]+>", " ", html_text)).split())


def squeeze(value: str) -> str:
    """*value* without any whitespace (highlighted code is split into many elements)."""
    return "".join(value.split())


pytestmark = pytest.mark.slow


def test_build_is_strict_and_warning_free(built: Built) -> None:
    warnings = [line for line in built.output.splitlines()
                if re.match(r"^(WARNING|ERROR)\b", line)]
    assert warnings == []
    print(f"docs built in {built.seconds:.1f} s")  # shown with pytest -s


def test_every_language_has_the_same_pages(built: Built) -> None:
    english = pages_of(built, "en")
    expected = {*HAND_WRITTEN, *(f"rules/{rule.id}/index.html" for rule in registry.all_rules())}
    assert expected <= english
    assert "api/take5rules/index.html" in english
    for module in ("cards", "setup", "table", "turn", "round", "game", "variants",
                   "playing.players", "playing.engine", "playing.stepper", "events", "errors",
                   "registry", "text", "conformance.referee", "text.pictures", "agents.encoding"):
        assert f"api/{module}/index.html" in english
    for language in LANGUAGES:
        assert pages_of(built, language) == english, language


def test_pages_declare_their_language_and_use_materials_strings(built: Built) -> None:
    for language in LANGUAGES:
        page = built.page(language, "rules/index.html")
        assert f'<html lang="{language}"' in page
        strings = (MATERIAL_LANGUAGES / f"{language}.html").read_text(encoding="utf-8")
        placeholder = re.search(r'"search\.placeholder": "([^"]+)"', strings)
        assert placeholder is not None
        assert f'placeholder="{placeholder.group(1)}"' in page, language


def test_rule_pages_are_written_from_the_registry_and_catalogs(built: Built) -> None:
    for language in LANGUAGES:
        for rule in registry.all_rules():
            page = built.page(language, f"rules/{rule.id}/index.html")
            words = text(page)
            explained = i18n.explain(rule.id, language, strict=STRICT)
            for part in (explained.title, explained.statement, explained.explanation):
                assert " ".join(part.split()) in words, (language, rule.id)
            assert rule.id in words
            module = rule.function.__module__.rsplit(".", 1)[1]
            anchor = f"api/{module}/#{rule.qualified_name}"
            assert anchor in page, (language, rule.id)
            for source in rule.sources:
                assert source.section in words
            # the worked example: the doctest of the rule's function, as code
            first = next(line for line in (rule.function.__doc__ or "").splitlines()
                         if line.strip().startswith(">>>"))
            assert squeeze(first.strip()) in squeeze(words), (language, rule.id)


def test_rule_index_lists_every_rule_in_rulebook_order(built: Built) -> None:
    for language in LANGUAGES:
        page = built.page(language, "rules/index.html")
        positions = [page.index(f'href="{rule.id}/"') for rule in registry.all_rules()]
        assert positions == sorted(positions), language


def test_discrepancies_page(built: Built) -> None:
    for language in LANGUAGES:
        page = built.page(language, "discrepancies/index.html")
        words = text(page)
        for item in registry.DISCREPANCIES:
            said = i18n.discrepancy_text(item, language, strict=STRICT)
            assert f'id="{item.id}"' in page
            for key in ("topic", "choice", "reason"):
                assert " ".join(str(said[key]).split()) in words, (language, item.id, key)
            assert f'href="../rules/{item.rule_id}/"' in page


def svgs(page: str) -> list[ET.Element]:
    return [ET.fromstring(match) for match in re.findall(r"<svg\b.*?</svg>", page, re.DOTALL)]


def test_examples_page_draws_every_turn_with_captions_from_the_catalogs(built: Built) -> None:
    for language in LANGUAGES:
        page = built.page(language, "examples/index.html")
        pictures = [svg for svg in svgs(page) if svg.get("class") == "take5-table"]
        assert len(pictures) == EXAMPLE_PICTURES, language
        for picture in pictures:
            assert picture.tag == f"{{{SVG_NS}}}svg"
            assert picture.get("role") == "img"
            assert picture.get("aria-label")
            rows = [g for g in picture.iter(f"{{{SVG_NS}}}g") if g.get("class") == "row"]
            assert len(rows) == 4
        # the first placement of the founding texts' turn, narrated in this language
        from take5rules.events import CardPlaced

        narrated = i18n.narrate(CardPlaced(1, 1, "bob", 4, 0, ((3, 4), (24,), (58,), (96,))),
                                language, strict=STRICT)
        assert any(svg.get("aria-label") == narrated for svg in pictures), language


def test_examples_page_cites_its_sources_and_punctuates_in_its_language(built: Built) -> None:
    """The sources are named in the page's language, and French puts its space before « : »."""
    for language in LANGUAGES:
        if language != "en":
            words = text(built.page(language, "examples/index.html"))
            assert "rules page" not in words and "section “" not in words, language
    french = built.page("fr", "examples/index.html")
    headings = [html.unescape(re.sub(r"<[^>]+>", "", heading))
                for heading in re.findall(r"<h2\b.*?</h2>", french, re.DOTALL)]
    assert headings
    assert all("\N{NO-BREAK SPACE}: " in heading for heading in headings), headings
    assert "une page web française, traduite automatiquement" in text(french)


def test_cli_reference_shows_every_command(built: Built) -> None:
    for language in LANGUAGES:
        words = text(built.page(language, "reference/cli/index.html"))
        for name, command in all_commands().items():
            assert f"take5rules {name}" in words
            assert f"Usage: take5rules {name}" in words, name
            for option in command.params:
                for flag in getattr(option, "opts", []):
                    if flag.startswith("-"):
                        assert flag in words, (name, flag)


def test_language_switcher_links_to_the_same_page(built: Built) -> None:
    for language in LANGUAGES:
        page = built.page(language, "rules/table.sixth-card/index.html")
        links = dict(re.findall(r'href="([^"]+)" hreflang="([a-z]+)"', page))
        targets = {lang: href for href, lang in links.items()}
        assert set(targets) == set(LANGUAGES)
        for other, href in targets.items():
            if other == language:
                continue
            resolved = (built.site / prefix(language) / "rules/table.sixth-card" / href).resolve()
            assert resolved == (built.site / prefix(other) / "rules/table.sixth-card").resolve()


def test_search_index_covers_every_language(built: Built) -> None:
    index = json.loads((built.site / "search" / "search_index.json").read_text("utf-8"))
    assert "ru" in index["config"]["lang"]  # the Cyrillic pipeline, for Bulgarian
    locations = {doc["location"].split("/", 1)[0] for doc in index["docs"]}
    for language in LANGUAGES[1:]:
        assert language in locations


def test_api_reference_links_and_doctests(built: Built) -> None:
    page = built.page("en", "api/table/index.html")
    assert 'id="take5rules.table.sixth_card"' in page
    assert "language-pycon" in page or "highlight" in page
    assert "&gt;&gt;&gt;" in page
    assert "<blockquote>" not in page  # doctests are code, not nested quotes


def test_log_format_page_renders_the_schema(built: Built) -> None:
    if DRAFT and not LOG_SCHEMA.exists():
        pytest.skip(f"draft: {LOG_SCHEMA} does not exist yet")
    schema = json.loads(LOG_SCHEMA.read_text(encoding="utf-8"))
    words = text(built.page("en", "reference/log-format/index.html"))
    for name in schema.get("properties", {}):
        assert name in words


def test_build_prints_no_banner(built: Built) -> None:
    # mkdocs-material 9.7.2+ and mkdocs-gen-files 0.6+ (properdocs) print banners at every
    # build; pyproject.toml's docs extra pins below them.
    for banner in ("MkDocs 2", "end of life", "ProperDocs", "properdocs"):
        assert banner not in built.output


def test_the_footer_speaks_each_language(built: Built) -> None:
    import yaml  # type: ignore[import-untyped]

    config = yaml.load((ROOT / "mkdocs.yml").read_text(encoding="utf-8"), Loader=yaml.BaseLoader)
    plugin = next(item["i18n"] for item in config["plugins"]
                  if isinstance(item, dict) and "i18n" in item)
    lines = {item["locale"]: item["copyright"] for item in plugin["languages"]}
    assert set(lines) == set(LANGUAGES)
    assert len(set(lines.values())) == len(LANGUAGES)
    for language in LANGUAGES:
        page = built.page(language, "rules/index.html")
        footer = page[page.index('<footer class="md-footer">'):]
        assert lines[language] in text(footer), language
        assert "Made with" not in footer


def test_cli_reference_is_the_real_help(built: Built) -> None:
    # What the command prints, run as a reader runs it (in-process click caches each
    # command's help option, so another test's direct call could change what it shows).
    env = {**os.environ, "COLUMNS": "88", "LC_ALL": "C", "LC_MESSAGES": "", "LANG": "C"}
    helps = {name: subprocess.run([sys.executable, "-m", "take5rules", name, "--help"],
                                  capture_output=True, text=True, env=env, check=True).stdout
             for name in all_commands()}
    for language in LANGUAGES:
        words = squeeze(text(built.page(language, "reference/cli/index.html")))
        for name, real in helps.items():
            assert "-h, --help" in real, name
            assert squeeze(real) in words, (language, name)


#: Where the browser runtime goes in the site (docs/play_bundle.py).
BUNDLE = "assets/take5play"


def test_the_browser_runtime_is_bundled_once_with_its_pinned_files(built: Built) -> None:
    import hashlib
    import zipfile

    import take5rules

    if not (ROOT / "node_modules" / "pyodide").exists() and not shutil.which("npm"):
        pytest.skip("npm is missing: the site is built without the browser runtime")
    pins = json.loads((ROOT / "docs" / "play" / "pins.json").read_text(encoding="utf-8"))
    bundle = built.site / BUNDLE
    for name, digest in pins["pyodide"]["files"].items():
        assert hashlib.sha256((bundle / "pyodide" / name).read_bytes()).hexdigest() == digest
    manifest = json.loads((bundle / "bundle.json").read_text(encoding="utf-8"))
    assert manifest["wheels"] == [f"wheels/{pins['babel']['wheel']}",
                                  f"wheels/take5rules-{take5rules.__version__}-py3-none-any.whl"]
    with zipfile.ZipFile(bundle / manifest["wheels"][1]) as wheel:
        names = set(wheel.namelist())
    assert "take5rules/playing/engine.py" in names
    for language in LANGUAGES:  # the catalogs, compiled, for the narration in the page
        assert f"take5rules/_locales/{language}/LC_MESSAGES/take5rules.mo" in names
    with zipfile.ZipFile(bundle / manifest["wheels"][0]) as wheel:
        data = {name.rsplit("/", 1)[1] for name in wheel.namelist()
                if name.startswith("babel/locale-data/")}
    catalogs = {path.name for path in (ROOT / "locales").iterdir() if path.is_dir()}
    assert data == {f"{name}.dat" for name in {"root", *catalogs}}
    for language in LANGUAGES[1:]:  # one copy, at the root, for the five languages
        assert not (built.site / language / BUNDLE).exists()


def test_only_the_play_and_rule_pages_load_the_runtimes_script(built: Built) -> None:
    script = re.compile(r'<script type="module" src="((?:\.\./)+)assets/take5play/play\.js">')
    for language in LANGUAGES:
        for page in pages_of(built, language):
            found = script.findall(built.page(language, page))
            if page == "play/index.html" or (page.startswith("rules/") and page.count("/") == 2):
                assert len(found) == 1, (language, page)
                depth = page.count("/") + (language != "en")
                assert found[0] == "../" * depth, (language, page)
            else:
                assert not found, (language, page)


def test_rule_pages_have_a_run_button_and_placement_rules_a_try_form(built: Built) -> None:
    placements = {"turn.order", "table.ascending", "table.least-difference",
                  "table.sixth-card", "table.low-card"}
    for language in LANGUAGES:
        for rule in registry.all_rules():
            page = built.page(language, f"rules/{rule.id}/index.html")
            assert f'class="take5-run" data-rule="{rule.id}"' in page, (language, rule.id)
            assert ('class="take5-try"' in page) == (rule.id in placements), (language, rule.id)


# --- said once (issue 26, point 6): what docs/gen_pages.py writes from a single source ----------


def _written(value: float, places: int, language: str, *, signed: bool = False) -> str:
    """*value* as a reader of *language* writes it (Python's format, the locale's separators)."""
    point, group = {"en": (".", ","), "fr": (",", "\N{NARROW NO-BREAK SPACE}"),
                    "bg": (",", "\N{NO-BREAK SPACE}"), "it": (",", "."),
                    "eo": (",", "\N{NARROW NO-BREAK SPACE}")}[language]
    text = f"{value:{'+' if signed else ''},.{places}f}"
    written = text.replace(",", "\0").replace(".", point).replace("\0", group)
    return " ".join(written.split())  # as text() reads a page: a no-break space is a space


def test_strength_figures_are_the_results_in_each_locale(built: Built) -> None:
    strength = json.loads((ROOT / "benchmarks" / "results" / "strength.json").read_text("utf-8"))
    for language in LANGUAGES:
        words = text(built.page(language, "strength/index.html"))
        for player, entry in strength["ladder"].items():
            mean, low, high = entry["difference"]
            times = " ".join(_written(entry[key], 1 if entry[key] >= 1 else 3, language)
                             for key in ("mean_ms", "median_ms"))
            row = (f"{player} {times} {_written(entry['per_deal'], 2, language)} "
                   f"{_written(mean, 2, language, signed=True)} "
                   f"({_written(low, 2, language, signed=True)} \N{EN DASH} "
                   f"{_written(high, 2, language, signed=True)})")
            assert row in words, (language, player)
        head = strength["head_to_head"]
        ratio = head["best"]["mean_ms"] / head["mc-64"]["mean_ms"]
        assert _written(ratio, 2, language) in words, language
        assert _written(4 * strength["head_sets"], 0, language) in words, language
        assert "take5rules:figure" not in built.page(language, "strength/index.html")


def test_contributing_page_shows_every_package_and_module_of_the_layout(built: Built) -> None:
    package = ROOT / "src" / "take5rules"
    folders = sorted(path.name for path in package.iterdir()
                     if path.is_dir() and (path / "__init__.py").exists())
    assert {"text", "logs", "playing", "conformance", "agents", "cli"} <= set(folders)
    for language in LANGUAGES:
        words = text(built.page(language, "contributing/index.html"))
        for folder in folders:
            assert f"{folder}/" in words, (language, folder)
        for module in ("bots", "belief", "ismcts", "ladder", "stepper", "_kernel", "registry"):
            assert module in words, (language, module)


def test_nav_is_tutorials_how_to_reference_explanation(built: Built) -> None:
    import yaml

    config = yaml.load((ROOT / "mkdocs.yml").read_text(encoding="utf-8"), Loader=yaml.BaseLoader)
    assert [next(iter(item)) for item in config["nav"] if isinstance(item, dict)] == [
        "Tutorials", "How-to guides", "Reference", "Explanation"]
    plugin = next(item["i18n"] for item in config["plugins"]
                  if isinstance(item, dict) and "i18n" in item)
    for entry in plugin["languages"]:
        language = entry["locale"]
        titles = entry.get("nav_translations") or {}
        page = built.page(language, "index.html")
        nav = page[page.index('<nav class="md-nav md-nav--primary"'):]
        labels = [" ".join(html.unescape(label).split()) for label in
                  re.findall(r'<span class="md-ellipsis">(.*?)</span>', nav, re.DOTALL)]
        wanted = [titles.get(name, name) for name in ("Tutorials", "How-to guides", "Explanation")]
        positions = [labels.index(title) for title in wanted]
        assert positions == sorted(positions), (language, wanted)
        if language != "en":
            assert not {"Tutorials", "How-to guides", "Explanation"} & set(labels), language


def test_code_examples_are_the_snippets_in_every_language(built: Built) -> None:
    for snippet, page in (("agents/pettingzoo_env_example.py", "agents/index.html"),
                          ("getting-started/stepper.py", "getting-started/index.html"),
                          ("reference/vectors/check.js", "reference/vectors/index.html")):
        code = squeeze((ROOT / "docs" / "snippets" / snippet).read_text(encoding="utf-8"))
        for language in LANGUAGES:
            page_text = built.page(language, page)
            assert "--8&lt;--" not in page_text and "--8<--" not in page_text
            assert code in squeeze(text(page_text)), (language, snippet)
