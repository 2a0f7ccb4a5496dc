"""The documentation site in a real browser: Debian's Chromium, headless, driven by Playwright.

The site is built once (shared with ``test_docs.py``), served on 127.0.0.1 by ``http.server`` in a
thread, and visited like a reader would: the home page, the language menu from one rule page to
the same page in each language, a pictured example, and the search in Bulgarian and Esperanto.
Screenshots go to ``test-artifacts/`` (not in git). Playwright never downloads a browser here:
it drives ``/usr/bin/chromium``, and the tests are skipped if that is missing.
"""

from __future__ import annotations

import functools
import re
import threading
from collections.abc import Iterator
from http.server import SimpleHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path
from typing import Any

import pytest

from take5rules import i18n
from test_docs import DRAFT, EXAMPLE_PICTURES, ROOT, STRICT, build_docs

CHROMIUM = Path("/usr/bin/chromium")
ARGS = [
    "--headless", "--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run",
    "--disable-background-networking", "--disable-component-update", "--disable-sync",
]
ARTIFACTS = ROOT / "test-artifacts"
RULE = "table.sixth-card"
TIMEOUT = 20_000  # ms

pytestmark = [pytest.mark.browser, pytest.mark.slow]


class QuietHandler(SimpleHTTPRequestHandler):
    def log_message(self, format: str, *args: Any) -> None:
        pass


@pytest.fixture(scope="session")
def base_url(tmp_path_factory: pytest.TempPathFactory) -> Iterator[str]:
    if not CHROMIUM.exists():
        pytest.skip(f"{CHROMIUM} is missing: install Debian's chromium (apt-get install chromium) "
                    "to run the browser tests")
    built = build_docs(tmp_path_factory)
    if built.returncode != 0:
        pytest.fail(f"mkdocs build --strict failed:\n{built.output[-6000:]}")
    handler = functools.partial(QuietHandler, directory=str(built.site))
    server = ThreadingHTTPServer(("127.0.0.1", 0), handler)
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    try:
        yield f"http://127.0.0.1:{server.server_address[1]}"
    finally:
        server.shutdown()
        server.server_close()
        thread.join(timeout=10)


@pytest.fixture(scope="module")  # Playwright's loop must be gone before other async tests run
def browser(base_url: str) -> Iterator[Any]:
    from playwright.sync_api import sync_playwright

    ARTIFACTS.mkdir(exist_ok=True)
    with sync_playwright() as playwright:
        chromium = playwright.chromium.launch(executable_path=str(CHROMIUM), headless=True,
                                              args=ARGS)
        try:
            yield chromium
        finally:
            chromium.close()


@pytest.fixture
def page(browser: Any) -> Iterator[Any]:
    context = browser.new_context(viewport={"width": 1280, "height": 900})
    context.set_default_timeout(TIMEOUT)
    # Only the site itself: nothing may be fetched from elsewhere.
    context.route(re.compile(r"^(?!http://127\.0\.0\.1:)"), lambda route: route.abort())
    try:
        yield context.new_page()
    finally:
        context.close()


def shot(page: Any, name: str, *, full_page: bool = True) -> None:
    page.screenshot(path=str(ARTIFACTS / f"docs-{name}.png"), full_page=full_page)


def prefix(language: str) -> str:
    return "" if language == "en" else f"{language}/"


def test_home_page_renders(page: Any, base_url: str) -> None:
    page.goto(f"{base_url}/")
    assert "take5rules" in page.title()
    heading = page.locator("article h1").first
    assert heading.is_visible()
    assert heading.inner_text().strip().startswith("take5rules")
    assert page.locator("nav.md-nav--primary").first.is_visible()
    shot(page, "home", full_page=False)


def test_language_menu_reaches_the_same_rule_page_in_every_language(
    page: Any, base_url: str
) -> None:
    page.goto(f"{base_url}/rules/{RULE}/")
    for language in ("fr", "bg", "it", "eo", "en"):
        page.locator(".md-header__option .md-select").first.hover()
        link = page.locator(f'.md-select__link[hreflang="{language}"]').first
        link.wait_for(state="visible")
        link.click()
        page.wait_for_url(f"{base_url}/{prefix(language)}rules/{RULE}/")
        assert page.locator("html").get_attribute("lang") == language
        title = i18n.explain(RULE, language, strict=STRICT).title
        heading = page.locator("article h1").first.inner_text()
        assert heading.replace("¶", "").strip() == title
        shot(page, f"rule-{language}", full_page=False)


def test_example_pictures_are_visible(page: Any, base_url: str) -> None:
    page.goto(f"{base_url}/examples/")
    pictures = page.locator("svg.take5-table")
    assert pictures.count() == EXAMPLE_PICTURES
    first = pictures.first
    first.scroll_into_view_if_needed()
    assert first.is_visible()
    box = first.bounding_box()
    assert box is not None
    assert box["width"] > 200
    assert box["height"] > 200
    assert first.get_attribute("role") == "img"
    assert first.get_attribute("aria-label")
    assert first.locator("g.card").count() >= 4
    first.screenshot(path=str(ARTIFACTS / "docs-example-svg.png"))
    shot(page, "examples", full_page=False)


def search_word(language: str, rule_id: str, fallback: str) -> str:
    """A word of the rule's title or statement in *language* that the English text lacks."""
    text = i18n.explain(rule_id, language, strict=STRICT)
    english = i18n.explain(rule_id, "en")
    known = {word.lower() for word in re.findall(r"\w+", f"{english.title} {english.statement}")}
    words = [word for word in re.findall(r"[^\W\d_]{5,}", f"{text.title} {text.statement}")
             if word.lower() not in known]
    if not words:
        if not DRAFT:
            pytest.fail(f"the {language} text of {rule_id} is not translated")
        return fallback  # a source heading in that language, on every rule page
    return str(max(words, key=len))


def search(page: Any, base_url: str, language: str, word: str) -> list[str]:
    page.goto(f"{base_url}/{prefix(language)}")
    field = page.locator("input.md-search__input")
    field.click()
    field.fill(word)
    page.locator(".md-search-result__item").first.wait_for(state="visible")
    return [str(href) for href in page.locator("a.md-search-result__link").evaluate_all(
        "links => links.map(link => link.href)")]


@pytest.mark.parametrize(
    ("language", "rule_id", "fallback"),
    [("bg", "table.sixth-card", "Вземете"), ("eo", "table.low-card", "Malalta")],
)
def test_search_finds_a_rule_by_a_word_in_the_language(
    page: Any, base_url: str, language: str, rule_id: str, fallback: str
) -> None:
    word = search_word(language, rule_id, fallback)
    links = search(page, base_url, language, word)
    shot(page, f"search-{language}", full_page=False)
    assert links, f"no result for {word!r}"
    if word != fallback:
        assert any(f"/{language}/rules/{rule_id}/" in link for link in links), (word, links)
    else:
        assert any("/rules/" in link for link in links), (word, links)
