"""What the pages say about installing and running the command line agrees with the program
(issue 27: the doors a newcomer finds)."""

from __future__ import annotations

import re
import tomllib
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
LANGUAGES = ["en", "fr", "bg", "it", "eo"]
CATALOGS = sorted(path.parent.parent.name
                  for path in (ROOT / "locales").glob("*/LC_MESSAGES/take5rules.po"))


def _with_snippets(path: Path) -> str:
    """A page with its ``--8<--`` snippets included, as the site shows it."""
    text = path.read_text(encoding="utf-8")
    return re.sub(r'--8<-- "([^"]+)"',
                  lambda match: (ROOT / "docs" / "snippets" / match.group(1)).read_text(
                      encoding="utf-8"), text)


@pytest.mark.parametrize("language", LANGUAGES)
def test_getting_started_installs_from_a_clone_not_from_the_index(language: str) -> None:
    page = _with_snippets(ROOT / "docs" / language / "getting-started.md")
    blocks = re.findall(r"```sh\n(.*?)```", page, re.DOTALL)
    commands = [line for block in blocks for line in block.splitlines()]
    # there is no release: `pip install take5rules` fails, so no page tells a reader to run it
    assert not any(re.search(r"pip install take5rules\b", line) for line in commands)
    assert any(re.search(r"pip install \./take5rules\b", line) for line in commands)


def test_the_readme_lists_every_extra_of_the_package() -> None:
    extras = tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))[
        "project"]["optional-dependencies"]
    readme = (ROOT / "README.md").read_text(encoding="utf-8")
    listed = set()
    for line in readme.splitlines():
        if line.startswith("| `"):
            listed.update(re.findall(r"`([a-z-]+)`", line.split("|")[1]))
    assert {"openspiel", "mutation"} <= set(extras)
    assert set(extras) <= listed, sorted(set(extras) - listed)


@pytest.mark.parametrize("language", LANGUAGES)
def test_the_exit_status_table_has_no_escaped_pipe(language: str) -> None:
    # Python-Markdown shows `\|` inside a code span literally: the table must not need one
    page = (ROOT / "docs" / language / "reference" / "cli.md").read_text(encoding="utf-8")
    rows = [line for line in page.splitlines() if re.match(r"\| [0-2] \|", line)]
    assert len(rows) == 3
    assert not any("\\|" in row for row in rows), rows


@pytest.mark.parametrize("language", LANGUAGES)
def test_the_cli_page_lists_every_language(language: str) -> None:
    page = (ROOT / "docs" / language / "reference" / "cli.md").read_text(encoding="utf-8")
    first = page.split("\n\n")[1].replace("\n", " ")
    listed = re.search(r"`--lang` \(([^)]*)\)", first)
    assert listed is not None, first
    assert sorted(re.findall(r"`([a-z]{2})`", listed.group(1))) == CATALOGS


def test_the_site_has_a_url_for_its_sitemap() -> None:
    config = (ROOT / "mkdocs.yml").read_text(encoding="utf-8")
    assert re.search(r"^site_url: \S", config, re.MULTILINE)
