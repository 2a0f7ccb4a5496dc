"""Write the pages that come from the code, in every language (a mkdocs-gen-files script).

Runs at the start of each language's build (mkdocs-static-i18n builds the languages one after
the other) and writes, for each of the five languages:

* ``<lang>/rules/<rule id>.md``: one page per rule of :func:`take5rules.registry.all_rules`, its
  texts from the gettext catalogs, its sources, its function and its worked example (the
  doctest of the function's docstring);
* the hand-written pages of ``docs/<lang>/`` that hold a ``<!-- take5rules:NAME -->`` marker,
  with the marker replaced by generated content: the rule index, the source discrepancies
  (``registry.DISCREPANCIES``), the pictured examples (:mod:`take5rules.text.pictures` on the
  engine's states), the CLI help (from click), the game-log schema, the conformance vectors,
  the table of the layers (``tests/test_layers.py``, drawn by ``docs/layer_table.py``), the
  agents' observation vector (``take5rules.agents.encoding``, drawn by
  ``docs/encoding_table.py``) and the
  measured figures and their tables (``benchmarks/results/*.json``, written in each locale by
  ``docs/measured.py``);
* ``<lang>/api/<module>.md``: the API reference of each public module (mkdocstrings);
* the navigation (``config.nav``): mkdocs.yml's ``nav:`` (tutorials, how-to guides, reference,
  explanation) with the generated pages in their sections, and the title of a section that
  starts with an index page taken from that page in each language.

Generated text is never written twice: every rule text comes from the catalogs with
``strict=True``, so a rule added in code appears in every language or the build fails on its
missing translation. Labels that the catalogs lack (table headings and such) come from the front
matter (``labels:``) of the hand-written page in each language.

Environment: ``TAKE5RULES_DOCS_DRAFT=1`` lets the build pass while catalogs, modules, the
game-log schema or the vectors are still missing (English text, notes instead of content).
"""

from __future__ import annotations

import ast
import doctest
import functools
import html
import inspect
import json
import logging
import os
import pkgutil
import re
import sys
import types
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import click
import mkdocs_gen_files
from babel import Locale
from mkdocs.exceptions import PluginError
from mkdocs.utils.meta import get_data

import take5rules
from take5rules import registry
from take5rules import text as i18n
from take5rules.conformance.examples import WORKED_EXAMPLES, WorkedExample
from take5rules.events import CardsRevealed
from take5rules.playing.kinds import BUILTIN_PLAYERS
from take5rules.text.pictures import turn_svgs
from take5rules.turn import placement_order, resolve_turn
from take5rules.variants import DEFAULT_THRESHOLD, Variant

sys.path.insert(0, str(Path(__file__).resolve().parent / "play"))
sys.path.insert(0, str(Path(__file__).resolve().parent))
from encoding_table import LayoutError, encoding_table, read_holds, read_layout, vector_size
from layer_table import layer_table, read_layers, read_words
from measured import FigureError, figure, table
from take5play import PAGE_SEAT, example_inputs, placement_event

log = logging.getLogger("mkdocs.plugins.take5rules.gen_pages")

DOCS = Path(__file__).resolve().parent
ROOT = DOCS.parent
PACKAGE_DIR = Path(take5rules.__file__).resolve().parent
LANGUAGES: tuple[str, ...] = i18n.LANGUAGES
DEFAULT_LANGUAGE = "en"
DRAFT = os.environ.get("TAKE5RULES_DOCS_DRAFT", "").strip() not in ("", "0", "false")
STRICT = not DRAFT

#: Public modules that must have an API page (others are found by walking the package).
API_MODULES = (
    "take5rules.cards", "take5rules.setup", "take5rules.table", "take5rules.turn",
    "take5rules.round", "take5rules.game", "take5rules.variants", "take5rules.playing.players",
    "take5rules.playing.engine", "take5rules.playing.stepper", "take5rules.events",
    "take5rules.errors", "take5rules.registry", "take5rules.conformance.examples",
    "take5rules.text", "take5rules.conformance.referee", "take5rules.text.pictures",
    "take5rules.logs",
    "take5rules.logs.validator", "take5rules.conformance.defects", "take5rules.conformance.vectors",
    "take5rules.conformance.run", "take5rules.conformance.strategies",
)
LAYERS_TEST = ROOT / "tests" / "test_layers.py"
ENCODING = PACKAGE_DIR / "agents" / "encoding.py"
RESULTS_DIR = ROOT / "benchmarks" / "results"
SNIPPETS_DIR = DOCS / "snippets"
LOG_SCHEMA = PACKAGE_DIR / "logs" / "schemas" / "take5-log-1.schema.json"
VECTORS_DIR = ROOT / "vectors"

#: The sections that get generated pages: a page per rule, a page per API module.
GENERATED_SECTIONS = ("rules/index.md", "api/index.md")


@functools.cache
def site_nav() -> tuple[Any, ...]:
    """The ``nav:`` of mkdocs.yml as written there: every hand-written page, in order.

    Read from the file rather than from ``config.nav``, which this script replaces at each
    language's build (mkdocs-static-i18n builds them one after the other).
    """
    import yaml  # type: ignore[import-untyped]

    path = Path(mkdocs_gen_files.config.config_file_path or ROOT / "mkdocs.yml")
    nav = yaml.load(path.read_text(encoding="utf-8"), Loader=yaml.BaseLoader).get("nav")
    if not isinstance(nav, list) or not nav:
        PROBLEMS.add(f"{path.name} has no nav: the hand-written pages are listed there")
        return ()
    return tuple(nav)


_MARKER = re.compile(r"<!--\s*take5rules:([a-z-]+)(?:\s+([^>]*?))?\s*-->")
_FENCED = re.compile(r"^(`{3,}|~{3,})[^\n]*\n(.*?)^\1", re.MULTILINE | re.DOTALL)
_INLINE_COMMAND = re.compile(r"`take5rules ([a-z][a-z-]*)")
_SNIPPET = re.compile(r'^--8<-- "([^"]+)"$', re.MULTILINE)
_SHELL_COMMAND = re.compile(r"(?:^|\$ |\| )take5rules ([a-z][a-z-]*)", re.MULTILINE)


class Problems:
    """Everything wrong with the sources, reported together at the end of the script."""

    def __init__(self) -> None:
        self.items: list[str] = []
        self.noted: set[str] = set()

    def add(self, message: str) -> None:
        if message not in self.items:
            self.items.append(message)

    def missing(self, what: str, message: str) -> str:
        """In draft mode, a note in the page; otherwise a problem that fails the build."""
        if DRAFT:
            if message not in self.noted:
                self.noted.add(message)
                log.info("take5rules docs (draft): %s", message)
            return f'!!! warning "Draft"\n    {what}: {message}\n'
        self.add(message)
        return ""

    def raise_if_any(self) -> None:
        if self.items:
            listing = "\n  - ".join(self.items)
            raise PluginError(
                f"docs/gen_pages.py: the docs cannot be built:\n  - {listing}\n"
                "(TAKE5RULES_DOCS_DRAFT=1 builds a draft despite missing catalog translations, "
                "modules, schema or vectors; a missing page needs its translation, or "
                "fallback_to_default: true in mkdocs.yml)"
            )


PROBLEMS = Problems()


# --- catalogs ----------------------------------------------------------------------------------


def fresh_catalogs() -> None:
    """Recompile the catalogs of an editable install whose .po files are newer than the .mo.

    The install compiles them (``hatch_build.py``); translators who edit a .po file and build
    the docs should see their work without reinstalling.
    """
    if not i18n.LOCALE_DIR.resolve().is_relative_to(ROOT):
        return
    from babel.messages.mofile import write_mo
    from babel.messages.pofile import read_po

    compiled = []
    for po_path in sorted((ROOT / "locales").glob(f"*/LC_MESSAGES/{i18n.DOMAIN}.po")):
        language = po_path.parent.parent.name
        mo_path = i18n.LOCALE_DIR / language / "LC_MESSAGES" / f"{i18n.DOMAIN}.mo"
        if mo_path.exists() and mo_path.stat().st_mtime >= po_path.stat().st_mtime:
            continue
        with po_path.open("rb") as handle:
            catalog = read_po(handle, locale=language, domain=i18n.DOMAIN)
        mo_path.parent.mkdir(parents=True, exist_ok=True)
        with mo_path.open("wb") as handle:
            write_mo(handle, catalog, use_fuzzy=False)
        compiled.append(language)
    if compiled:
        i18n.translator.cache_clear()
        log.info("take5rules docs: compiled the catalogs of %s", ", ".join(compiled))


def guarded(language: str, build: Callable[[], str]) -> str:
    """Run *build*; a missing translation becomes one problem for *language*."""
    try:
        return build()
    except i18n.MissingTranslationError as error:
        PROBLEMS.add(
            f"{language}: {error} — translate it in locales/{language}/LC_MESSAGES/"
            f"{i18n.DOMAIN}.po"
        )
        return ""


# --- hand-written pages ------------------------------------------------------------------------


@dataclass
class Host:
    """A hand-written page of one language: its text, front matter, and where it came from."""

    language: str
    path: str
    text: str
    meta: dict[str, Any]
    source: Path

    @property
    def title(self) -> str:
        if isinstance(self.meta.get("title"), str):
            return str(self.meta["title"])
        body = get_data(self.text)[0]
        for line in body.splitlines():
            if line.startswith("# "):
                return re.sub(r"\s*\{[^}]*\}\s*$", "", line[2:]).strip()
        PROBLEMS.add(f"{self.source.relative_to(ROOT)} has no '# title' line")
        return self.path

    def label(self, key: str) -> str:
        labels = self.meta.get("labels") or {}
        value = labels.get(key) if isinstance(labels, dict) else None
        if not isinstance(value, str) or not value.strip():
            PROBLEMS.add(f"{self.source.relative_to(ROOT)}: front matter 'labels: {key}:' missing")
            return key
        return value

    def mapping(self, key: str) -> Mapping[str, str]:
        value = self.meta.get(key)
        return value if isinstance(value, dict) else {}


def fallback_allowed() -> bool:
    plugin = mkdocs_gen_files.config.plugins.get("i18n")
    return bool(plugin is not None and plugin.config.fallback_to_default)


def read_host(language: str, path: str) -> Host | None:
    """The hand-written page *path* of *language*, or the English one while fallback is on."""
    source = DOCS / language / path
    if not source.exists():
        if language == DEFAULT_LANGUAGE or not fallback_allowed():
            PROBLEMS.add(
                f"docs/{language}/{path} is missing (translate docs/{DEFAULT_LANGUAGE}/{path})"
            )
            return None
        source = DOCS / DEFAULT_LANGUAGE / path
    text = source.read_text(encoding="utf-8")
    return Host(language, path, text, get_data(text)[1], source)


def hand_written_paths() -> list[str]:
    """Every page of mkdocs.yml's nav, in order."""
    paths: list[str] = []

    def walk(items: Any) -> None:
        for item in items:
            if isinstance(item, str):
                paths.append(item)
            elif isinstance(item, dict):
                for value in item.values():
                    walk([value] if isinstance(value, str) else value)

    walk(site_nav())
    return paths


def check_language_folders() -> None:
    """Every page of a language folder is one the navigation knows: no stray or stale page."""
    known = set(hand_written_paths())
    for language in LANGUAGES:
        folder = DOCS / language
        for page in sorted(folder.rglob("*.md")) if folder.exists() else []:
            relative = page.relative_to(folder).as_posix()
            if relative not in known:
                PROBLEMS.add(f"docs/{language}/{relative} is not a page of the site (see nav: "
                             "in mkdocs.yml)")


def included(code: str) -> str:
    """*code* with each ``--8<-- "file"`` line replaced by that file of ``docs/snippets/``.

    pymdownx.snippets does the same when the page is rendered (and fails the build on a file
    that does not exist); the generator reads the examples to check the commands they run.
    """

    def content(match: re.Match[str]) -> str:
        path = SNIPPETS_DIR / match.group(1)
        return path.read_text(encoding="utf-8") if path.is_file() else match.group(0)

    return _SNIPPET.sub(content, code)


def check_commands(host: Host) -> None:
    """Every ``take5rules COMMAND`` that a page mentions is a command of the CLI."""
    commands = cli_commands()
    mentioned = set(_INLINE_COMMAND.findall(host.text))
    for block in _FENCED.finditer(host.text):
        mentioned.update(_SHELL_COMMAND.findall(included(block.group(2))))
    for name in sorted(mentioned):
        if name not in commands:
            PROBLEMS.missing(
                "CLI", f"{host.source.relative_to(ROOT)} mentions `take5rules {name}`, "
                "which is not a command of take5rules.cli.main"
            )


# --- helpers -----------------------------------------------------------------------------------


def write(path: str, text: str) -> None:
    with mkdocs_gen_files.open(path, "w") as handle:
        handle.write(text)


def cell(text: str) -> str:
    """Text made safe for a Markdown table cell."""
    return text.replace("|", "\\|").replace("\n", " ")


def language_name(code: str, in_language: str) -> str:
    return str(Locale.parse(code).get_display_name(in_language) or code)


def doctest_blocks(function: Callable[..., Any]) -> list[str]:
    """The doctest blocks of *function*'s docstring, each as the text of a pycon block."""
    doc = inspect.getdoc(function) or ""
    blocks: list[str] = []
    current: list[str] = []
    for line in [*doc.splitlines(), ""]:
        if current and not line.strip():
            blocks.append("\n".join(current))
            current = []
        elif current or line.lstrip().startswith(">>>"):
            current.append(line)
    parser = doctest.DocTestParser()
    return [block for block in blocks if parser.get_examples(block)]


def fence(code: str, language: str = "pycon") -> str:
    ticks = "````" if "```" in code else "```"
    return f"{ticks}{language}\n{code}\n{ticks}\n"


def indent(text: str, prefix: str = "    ") -> str:
    return "\n".join(prefix + line if line.strip() else line for line in text.splitlines())


def discrepancies_of(rule_id: str) -> list[registry.Discrepancy]:
    return [item for item in registry.DISCREPANCIES if item.rule_id == rule_id]


def group_of(rule_id: str) -> str:
    return rule_id.split(".", 1)[0]


# --- rule pages --------------------------------------------------------------------------------


def rule_page(language: str, rule: registry.Rule, labels: Host) -> str:
    text = i18n.explain(rule.id, language, strict=STRICT)

    def label(key: str) -> str:
        return i18n.label(key, language, strict=STRICT)

    lines = [
        "---",
        f"title: {json.dumps(text.title, ensure_ascii=False)}",
        "---",
        f"# {text.title}",
        "",
        f"**{i18n.heading('rule', language, strict=STRICT)}** `{rule.id}`",
        "{ .take5-rule-id }",
        "",
        f'!!! abstract "{label("statement")}"',
        "",
        f"    {text.statement}",
        "",
        f"## {label('explanation')}",
        "",
        text.explanation,
        "",
    ]
    examples = doctest_blocks(rule.function)
    lines += [f"## {labels.label('example')}", ""]
    if examples:
        lines += [fence(block) for block in examples]
        lines += [run_box(language, rule.id, labels), ""]
    if rule.id in PLACEMENT_RULES:
        lines += [try_form(language, rule.id, labels), ""]
    if examples or rule.id in PLACEMENT_RULES:
        lines += [runtime_script(language, f"rules/{rule.id}/"), ""]
    lines += [
        f"## {label('function')}",
        "",
        f"[`{text.function}`][{text.function}]",
        "",
        f"## {label('sources')}",
        "",
        f"| {labels.label('document')} | {labels.label('language')} | {labels.label('section')} |",
        "| --- | --- | --- |",
    ]
    tr = i18n.translator(language, STRICT)
    for source in text.sources:
        seed = registry.SEEDS.get(source.document)
        document = cell(tr.gettext(source.name))
        tongue = language_name(seed[0], language) if seed else "—"
        section = cell(i18n.section_text(source, language, strict=STRICT))
        lines.append(f"| {document} | {cell(tongue)} | {section} |")
    lines.append("")
    disputed = discrepancies_of(rule.id)
    if disputed:
        lines += [f"## {labels.label('disagreement')}", ""]
        for item in disputed:
            topic = i18n.translator(language, STRICT).gettext(item.topic)
            lines.append(f"- [{topic}](../discrepancies.md#{item.id})")
        lines.append("")
    return "\n".join(lines)


def rule_index(host: Host) -> str:
    language = host.language
    groups = host.mapping("groups")
    lines: list[str] = []
    current = None
    for rule in registry.all_rules():
        group = group_of(rule.id)
        if group != current:
            current = group
            title = groups.get(group)
            if not title:
                PROBLEMS.add(f"{host.source.relative_to(ROOT)}: front matter 'groups: {group}:' "
                             "missing")
                title = group
            lines += ["", f"## {title}", ""]
        text = i18n.explain(rule.id, language, strict=STRICT)
        lines.append(f"- [{text.title}]({rule.id}.md) `{rule.id}`: {text.statement}")
    return "\n".join(lines).strip() + "\n"


# --- the browser runtime: Play page, run buttons, try-a-turn forms -----------------------------

#: The rule pages that get a "try a turn" form: the rules that place the cards of a turn.
PLACEMENT_RULES = ("turn.order", "table.ascending", "table.least-difference",
                   "table.sixth-card", "table.low-card")


def site_root(language: str, url: str) -> str:
    """The relative URL from the page at *url* (``play/``) of *language* to the site's root."""
    depth = url.strip("/").count("/") + 1 + (language != DEFAULT_LANGUAGE)
    return "../" * depth


def runtime_ready() -> bool:
    extra = mkdocs_gen_files.config.extra.get("take5play") or {}
    return bool(extra.get("ready"))


def runtime_script(language: str, url: str) -> str:
    """The script tag of play.js (a few kilobytes; Pyodide loads only when asked)."""
    if not runtime_ready():
        return ""
    return (f'<script type="module" src="{site_root(language, url)}assets/take5play/play.js">'
            "</script>")


def attribute(text: str) -> str:
    return html.escape(text, quote=True)


def run_box(language: str, rule_id: str, labels: Host) -> str:
    if not runtime_ready():
        return ""
    data = " ".join(f'data-{key}="{attribute(labels.label(f"run-{key}"))}"'
                    for key in ("loading", "passed", "failed"))
    return (f'<div class="take5-run" data-rule="{rule_id}" {data}>'
            f'<button type="button" class="md-button">{html.escape(labels.label("run"))}'
            '</button><div class="take5-run-output" aria-live="polite"></div></div>')


def try_form(language: str, rule_id: str, labels: Host) -> str:
    if not runtime_ready():
        return ""
    inputs = example_inputs(rule_id)
    rows = "".join(
        f'<label>{html.escape(labels.label("try-row").format(row=number))} '
        f'<input type="text" name="row" value="{attribute(row)}"></label>'
        for number, row in enumerate(inputs["rows"], start=1)
    )
    return "\n".join([
        f"## {labels.label('try')}",
        "",
        labels.label("try-help"),
        "",
        f'<form class="take5-try" data-rule="{rule_id}" data-language="{language}" '
        f'data-rules="../" data-loading="{attribute(labels.label("run-loading"))}">'
        f'<fieldset class="take5-try-rows">{rows}</fieldset>'
        f'<label>{html.escape(labels.label("try-plays"))} '
        f'<input type="text" name="plays" value="{attribute(inputs["plays"])}"></label>'
        f'<label>{html.escape(labels.label("try-choices"))} '
        f'<input type="text" name="choices" value="{attribute(inputs["choices"])}"></label>'
        f'<p><button type="submit" class="md-button md-button--primary">'
        f'{html.escape(labels.label("try-resolve"))}</button></p>'
        '<div class="take5-try-output take5-frames" aria-live="polite"></div></form>',
    ])


#: The labels of the Play page's front matter that play.js uses.
PLAY_LABELS = (
    "loading", "ready", "failed", "start", "seats", "add-seat", "name", "kind", "remove",
    "variant", "threshold", "seed", "new-game", "totals", "narration", "total", "taken",
    "choose-card", "play-card", "choose-row", "take-row", "choose-draft", "game-over", "winners",
)


def play_section(host: Host) -> str:
    """The Play page's game: its settings, labels and script, or a notice without a runtime."""
    language = host.language
    if not runtime_ready():
        reason = (mkdocs_gen_files.config.extra.get("take5play") or {}).get("reason", "")
        return (f'!!! warning "{host.label("unavailable-title")}"\n\n'
                f"    {host.label('unavailable')}\n\n    `{reason}`\n")
    kinds = host.mapping("kinds")
    names = [str(name) for name in host.meta.get("names") or ["Ana", "Bob", "Cyd", "Dan"]]
    config = {
        "language": language,
        "labels": {key: host.label(key) for key in PLAY_LABELS},
        "kinds": [[kind, kinds.get(kind, kind)] for kind in (PAGE_SEAT, *BUILTIN_PLAYERS)],
        "variants": [[variant.value, i18n.variant_name(variant, language, strict=STRICT)]
                     for variant in Variant],
        "threshold": DEFAULT_THRESHOLD,
        "seats": [[names[0], PAGE_SEAT], [names[1], "cautious"], [names[2], "random"]],
        "names": names,
        "rules": "../rules/",
    }
    payload = json.dumps(config, ensure_ascii=False).replace("</", "<\\/")
    return "\n".join([
        '<div class="take5-play" data-search-exclude>',
        f'<script type="application/json" class="take5-config">{payload}</script>',
        f'<noscript>{html.escape(host.label("noscript"))}</noscript>',
        "</div>",
        runtime_script(language, "play/"),
        "",
    ])


# --- discrepancies -----------------------------------------------------------------------------


def discrepancies(host: Host) -> str:
    language = host.language
    lines: list[str] = []
    for item in registry.DISCREPANCIES:
        text = i18n.discrepancy_text(item, language, strict=STRICT)
        rule = i18n.explain(item.rule_id, language, strict=STRICT)
        lines += [
            f"## {text['topic']} {{ #{item.id} }}",
            "",
            f"| {host.label('source')} | {host.label('says')} |",
            "| --- | --- |",
        ]
        for where, said in text["claims"]:
            lines.append(f"| {cell(where)} | {cell(said)} |")
        lines += [
            "",
            f"**{host.label('choice')}** {text['choice']}",
            "",
            f"**{host.label('reason')}** {text['reason']}",
            "",
            f"**{i18n.heading('rule', language, strict=STRICT)}** "
            f"[{rule.title}](rules/{item.rule_id}.md) `{item.rule_id}`",
            "",
        ]
    return "\n".join(lines)


# --- pictured examples -------------------------------------------------------------------------


def example_section(language: str, example: WorkedExample) -> str:
    table = example.table
    plays = dict(example.plays)
    result = resolve_turn(table, plays, lambda choice: example.choices[choice.player])
    captions = [i18n.narrate(CardsRevealed(1, 1, placement_order(plays)), language,
                             strict=STRICT)]
    captions += [i18n.narrate(placement_event(player, placement), language, strict=STRICT)
                 for player, placement in result.placements]
    pictures = turn_svgs(table, plays, example.choices, captions=captions)
    rule = i18n.explain(example.rule, language, strict=STRICT)
    title = i18n.translator(language, STRICT).gettext(example.title)
    sources = "; ".join(i18n.source_text(source, language, strict=STRICT)
                        for source in example.sources)
    heading = i18n.labelled(rule.title, title, language, strict=STRICT)
    statement = i18n.labelled(f"[{rule.title}](rules/{example.rule}.md) `{example.rule}`",
                              rule.statement, language, strict=STRICT)
    figures = "\n".join(
        f'<figure class="take5-frame" style="margin:0;max-width:100%">\n{picture}\n</figure>'
        for picture in pictures
    )
    return "\n".join([
        f"## {heading} {{ #{example.id} }}",
        "",
        statement,
        "",
        f"<small>{sources}</small>",
        "",
        '<div class="take5-frames" data-search-exclude '
        'style="display:flex;flex-wrap:wrap;gap:0.75rem;align-items:flex-start">',
        figures,
        "</div>",
        "",
    ])


def examples(host: Host) -> str:
    return "\n".join(example_section(host.language, example) for example in WORKED_EXAMPLES)


# --- CLI ---------------------------------------------------------------------------------------


@functools.cache
def cli_commands() -> dict[str, click.Command]:
    try:
        from take5rules.cli.main import all_commands
    except ImportError as error:
        PROBLEMS.missing("CLI", f"take5rules.cli.main cannot be imported: {error}")
        return {}
    return all_commands()


#: The width the help is written at (the terminal's width for the command line).
HELP_WIDTH = 88


@functools.cache
def cli_help(name: str | None) -> str:
    """What ``take5rules [NAME] --help`` prints, run for real (in English, 88 columns wide)."""
    from click.testing import CliRunner

    from take5rules.cli.main import main

    args = [name, "--help"] if name else ["--help"]
    env = {"COLUMNS": str(HELP_WIDTH), "LC_ALL": "C", "LC_MESSAGES": "", "LANG": "C"}
    result = CliRunner().invoke(main, args, prog_name="take5rules", env=env,
                                terminal_width=HELP_WIDTH)
    if result.exit_code != 0:
        PROBLEMS.add(f"`take5rules {' '.join(args)}` exited {result.exit_code}: "
                     f"{result.output[-400:]}")
    return result.output.rstrip()


def cli_reference(host: Host) -> str:
    if not cli_commands():
        return PROBLEMS.missing("CLI", "take5rules.cli.main has no commands")
    lines = ["## `take5rules`", "", fence(cli_help(None), "text")]
    for name in cli_commands():
        lines += [f"## `take5rules {name}` {{ #{name} }}", "", fence(cli_help(name), "text")]
    return "\n".join(lines)


def cli_usage(host: Host, name: str) -> str:
    if name not in cli_commands():
        return PROBLEMS.missing("CLI", f"{host.source.relative_to(ROOT)} shows the usage of "
                                f"`take5rules {name}`, which is not a command of "
                                "take5rules.cli.main")
    return fence(cli_help(name).split("\n\n", 1)[0], "text")


# --- game-log schema and vectors ---------------------------------------------------------------


def schema_type(spec: Mapping[str, Any]) -> str:
    if "$ref" in spec:
        target = str(spec["$ref"]).rsplit("/", 1)[-1]
        return f"[`{target}`](#schema-{target.lower()})"
    if "enum" in spec:
        return " \\| ".join(f"`{json.dumps(value)}`" for value in spec["enum"])
    if "const" in spec:
        return f"`{json.dumps(spec['const'])}`"
    for key in ("oneOf", "anyOf"):
        if key in spec:
            return " \\| ".join(schema_type(option) for option in spec[key])
    kind = spec.get("type", "")
    if isinstance(kind, list):
        kind = " \\| ".join(kind)
    if kind == "array" and isinstance(spec.get("items"), dict):
        return f"{kind} {schema_type(spec['items'])}".strip()
    return f"`{kind}`" if kind else "—"


def schema_table(host: Host, spec: Mapping[str, Any]) -> list[str]:
    properties = spec.get("properties")
    if not isinstance(properties, dict) or not properties:
        return []
    required = set(spec.get("required", ()))
    lines = [
        f"| {host.label('property')} | {host.label('type')} | {host.label('required')} | "
        f"{host.label('description')} |",
        "| --- | --- | --- | --- |",
    ]
    for name, prop in properties.items():
        mandatory = host.label("yes") if name in required else host.label("no")
        described = cell(str(prop.get("description", ""))) if isinstance(prop, dict) else ""
        kind = schema_type(prop) if isinstance(prop, dict) else "—"
        lines.append(f"| `{name}` | {kind} | {mandatory} | {described} |")
    return [*lines, ""]


def log_schema(host: Host) -> str:
    if not LOG_SCHEMA.exists():
        return PROBLEMS.missing("take5-log", f"the game-log schema {LOG_SCHEMA} does not exist")
    schema = json.loads(LOG_SCHEMA.read_text(encoding="utf-8"))
    lines = [f"`{LOG_SCHEMA.name}`"]
    if schema.get("$id"):
        lines[0] += f" — `$id`: `{schema['$id']}`"
    lines += ["", *schema_table(host, schema)]
    definitions = schema.get("$defs") or schema.get("definitions") or {}
    for name, spec in definitions.items():
        if not isinstance(spec, dict):
            continue
        lines += [f"### `{name}` {{ #schema-{name.lower()} }}", ""]
        if spec.get("description"):
            lines += [str(spec["description"]), ""]
        table = schema_table(host, spec)
        lines += table if table else [f"{schema_type(spec)}", ""]
    lines += [
        f'??? note "{host.label("schema")}"',
        "",
        indent(fence(json.dumps(schema, indent=2, ensure_ascii=False), "json")),
        "",
    ]
    return "\n".join(lines)


def count_cases(path: Path) -> int:
    """The non-blank lines of a JSON-lines file (one case each)."""
    return sum(1 for line in path.read_text(encoding="utf-8").splitlines() if line.strip())


def vectors(host: Host) -> str:
    """The vector files: each JSON-lines file with its cases, each folder of JSON files."""
    if not VECTORS_DIR.is_dir():
        return PROBLEMS.missing("vectors", f"the conformance vectors {VECTORS_DIR} do not exist")
    files = sorted(
        path for path in VECTORS_DIR.rglob("*")
        if path.is_file() and not path.name.lower().startswith("readme")
        and not any(part.startswith(".") for part in path.relative_to(VECTORS_DIR).parts)
    )
    rows: dict[str, int] = {}
    for path in files:
        relative = path.relative_to(VECTORS_DIR)
        if path.suffix == ".json":
            key = f"vectors/{relative.parent.as_posix()}/*.json"
            rows[key] = rows.get(key, 0) + 1
        else:
            rows[f"vectors/{relative.as_posix()}"] = count_cases(path)
    lines = [f"| {host.label('file')} | {host.label('cases')} |", "| --- | --- |"]
    lines += [f"| `{name}` | {count} |" for name, count in rows.items()]
    return "\n".join(lines) + "\n"


# --- API reference -----------------------------------------------------------------------------


def api_modules() -> list[str]:
    """The public modules of the package: the required ones, and any other one found.

    The modules are read, not imported (mkdocstrings reads them statically too), so that the
    optional extras (numpy, mcp, pytest, hypothesis...) need not be installed to build the
    docs: ``pip install ".[docs]"`` is enough. A module that does not parse is left out (and
    fails the build unless in draft mode).
    """
    found = {
        info.name for info in pkgutil.walk_packages([str(PACKAGE_DIR)], prefix="take5rules.")
        if not any(part.startswith("_") for part in info.name.split("."))
    }
    for name in API_MODULES:
        if name not in found:
            PROBLEMS.missing("API", f"the module {name} does not exist (its API page is part "
                             "of the site: see API_MODULES in docs/gen_pages.py)")
    usable = []
    for name in sorted(found):
        try:
            module_tree(name)
        except SyntaxError as error:
            PROBLEMS.missing("API", f"the module {name} cannot be read: {error!r}")
            continue
        usable.append(name)
    order = {name: index for index, name in enumerate(API_MODULES)}
    return sorted(usable, key=lambda name: (order.get(name, len(order)), name))


@functools.cache
def module_tree(module_name: str) -> ast.Module:
    """The syntax tree of a module of the package (``take5rules`` is its ``__init__``)."""
    parts = module_name.split(".")[1:]
    path = PACKAGE_DIR.joinpath(*parts[:-1], f"{parts[-1]}.py") if parts else (
        PACKAGE_DIR / "__init__.py")
    if parts and not path.exists():  # a subpackage: its __init__
        path = PACKAGE_DIR.joinpath(*parts, "__init__.py")
    return ast.parse(path.read_text(encoding="utf-8"), filename=str(path))


def summary(module_name: str) -> str:
    doc = ast.get_docstring(module_tree(module_name)) or ""
    first = doc.split("\n\n", 1)[0].replace("\n", " ").strip()
    return re.sub(r":(?:mod|func|class|data|meth|attr|exc):`~?([\w.]+)`", r"`\1`", first)


def api_index(host: Host) -> str:
    lines = [f"| {host.label('module')} | {host.label('summary')} |", "| --- | --- |",
             f"| [`take5rules`](take5rules.md) | {cell(summary('take5rules'))} |"]
    for name in api_modules():
        lines.append(f"| [`{name}`]({page_of(name)}) | {cell(summary(name))} |")
    return "\n".join(lines) + "\n"


def api_heading(module: str) -> list[str]:
    """The page title and the mkdocstrings block of *module*, its heading the page's h1."""
    return [
        "---",
        f"title: {module}",
        "---",
        f"::: {module}",
        "    options:",
        "      show_root_heading: true",
        "      show_root_full_path: true",
        "      heading_level: 1",
    ]


def api_package_page(labels: Host) -> str:
    lines = [
        *api_heading("take5rules"),
        "      members: false",
        "",
        f"| {labels.label('name')} | {labels.label('defined-in')} |",
        "| --- | --- |",
    ]
    for name in take5rules.__all__:
        obj = getattr(take5rules, name)
        if isinstance(obj, types.ModuleType):  # a module named like its function
            obj = getattr(obj, name)
        module = getattr(obj, "__module__", None)
        if not module or not module.startswith("take5rules.") or name.startswith("_"):
            continue
        path = f"{module}.{obj.__qualname__}"
        lines.append(f"| [`{name}`][{path}] | [`{module}`]({page_of(module)}) |")
    return "\n".join(lines) + "\n"


def api_pages(language: str, labels: Host) -> list[str]:
    write(f"{language}/api/take5rules.md", api_package_page(labels))
    pages = ["api/take5rules.md"]
    for name in api_modules():
        write(f"{language}/api/{page_of(name)}", "\n".join(api_heading(name)) + "\n")
        pages.append(f"api/{page_of(name)}")
    return pages


def page_of(module: str) -> str:
    """The API page of *module*: ``table.md`` for ``take5rules.table``, ``text.rulebook.md``
    for a module of a subpackage."""
    return module.removeprefix("take5rules.") + ".md"


# --- the layers --------------------------------------------------------------------------------


def layers(host: Host) -> str:
    """The contributing page's table of the layers, from ``tests/test_layers.py``."""
    if not LAYERS_TEST.exists():
        return PROBLEMS.missing("layers", f"{LAYERS_TEST} does not exist")
    levels = read_layers(LAYERS_TEST)
    where = str(host.source.relative_to(ROOT))
    names = [name for name, _ in levels.layers] + [levels.facade]
    words = read_words(host.meta, host.label, names,
                       functools.partial(i18n.labelled, language=host.language, strict=STRICT),
                       PROBLEMS.add, where)
    documented = {"take5rules", *api_modules()}

    def link(module: str) -> str | None:
        return f"api/{page_of(module)}" if module in documented else None

    return layer_table(levels, words, PACKAGE_DIR, link)


# --- the observation vector of the agents ------------------------------------------------------


def observation_layout(host: Host, argument: str) -> str:
    """The agents page's table of the observation vector (``docs/encoding_table.py``), or, with
    the argument ``size``, the vector's length: both from ``take5rules.agents.encoding``."""
    where = str(host.source.relative_to(ROOT))
    if argument not in ("", "size"):
        PROBLEMS.add(f"{where}: take5rules:encoding takes no argument or 'size', not {argument!r}")
        return ""
    try:
        parts = read_layout(ENCODING)
    except (OSError, SyntaxError, LayoutError, ImportError, TypeError, ValueError) as error:
        return PROBLEMS.missing("encoding", f"take5rules.agents.encoding ({ENCODING}): {error}")
    if argument == "size":
        return str(vector_size(parts))
    return encoding_table(parts, read_holds(host.meta, parts, PROBLEMS.add, where), host.label)


# --- measured figures -------------------------------------------------------------------------


def measured_figure(host: Host, argument: str) -> str:
    """One figure of ``benchmarks/results/*.json``, written in the page's locale."""
    try:
        return figure(RESULTS_DIR, argument, host.language)
    except FigureError as error:
        PROBLEMS.add(f"{host.source.relative_to(ROOT)}: take5rules:figure {argument}: {error}")
        return ""


def measured_table(host: Host, argument: str) -> str:
    """A table of ``benchmarks/results/*.json`` (``docs/measured.py``), in the page's locale."""
    try:
        return table(RESULTS_DIR, argument.strip(), host.language, host.label)
    except FigureError as error:
        PROBLEMS.add(f"{host.source.relative_to(ROOT)}: take5rules:figures {argument}: {error}")
        return ""


# --- the pages of one language, and the navigation ---------------------------------------------


GENERATORS: dict[str, Callable[[Host, str], str]] = {
    "rule-index": lambda host, _: rule_index(host),
    "discrepancies": lambda host, _: discrepancies(host),
    "examples": lambda host, _: examples(host),
    "cli": lambda host, _: cli_reference(host),
    "cli-usage": cli_usage,
    "log-schema": lambda host, _: log_schema(host),
    "vectors": lambda host, _: vectors(host),
    "api-index": lambda host, _: api_index(host),
    "play": lambda host, _: play_section(host),
    "layers": lambda host, _: layers(host),
    "encoding": observation_layout,
    "figure": measured_figure,
    "figures": measured_table,
}


def expand(host: Host) -> str:
    def replace(match: re.Match[str]) -> str:
        name, argument = match.group(1), (match.group(2) or "").strip()
        generator = GENERATORS.get(name)
        if generator is None:
            PROBLEMS.add(f"{host.source.relative_to(ROOT)}: unknown marker take5rules:{name}")
            return ""
        return guarded(host.language, lambda: generator(host, argument))

    return _MARKER.sub(replace, host.text)


def build_language(language: str) -> dict[str, list[str]]:
    """Write every generated page of *language*; return the generated pages of each section."""
    sections: dict[str, list[str]] = {path: [] for path in GENERATED_SECTIONS}
    for path in hand_written_paths():
        host = read_host(language, path)
        if host is None:
            continue
        check_commands(host)
        if _MARKER.search(host.text):
            write(f"{language}/{path}", expand(host))
        if path == "rules/index.md":
            for rule in registry.all_rules():
                page = guarded(language, functools.partial(rule_page, language, rule, host))
                write(f"{language}/rules/{rule.id}.md", page)
                sections[path].append(f"rules/{rule.id}.md")
        if path == "api/index.md":
            sections[path] = api_pages(language, host)
    return sections


def navigation(language: str, generated: Mapping[str, list[str]]) -> list[Any]:
    """mkdocs.yml's nav for *language*: the generated pages appended to their sections, and
    each section that starts with an index page titled as that page is in *language*."""

    def section(title: str, items: list[Any]) -> dict[str, list[Any]]:
        first = items[0] if items else None
        if isinstance(first, str) and first.endswith("index.md"):
            host = read_host(language, first)
            title = host.title if host is not None else title
        pages = [entry for item in items for entry in entries(item)]
        if isinstance(first, str):
            pages += generated.get(first, [])
        return {title: pages}

    def entries(item: Any) -> list[Any]:
        if isinstance(item, str):
            return [item]
        return [section(str(title), [items] if isinstance(items, str) else list(items))
                for title, items in item.items()]

    return [entry for item in site_nav() for entry in entries(item)]


def main() -> None:
    fresh_catalogs()
    check_language_folders()
    config = mkdocs_gen_files.config
    plugin = config.plugins.get("i18n")
    current = getattr(plugin, "current_language", None) or DEFAULT_LANGUAGE
    generated: dict[str, list[str]] = {}
    for language in LANGUAGES:
        sections = build_language(language)
        if language == current:
            generated = sections
    config.nav = navigation(current, generated)
    PROBLEMS.raise_if_any()


main()
