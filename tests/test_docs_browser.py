"""The documentation site in a real browser: Debian's Chromium, headless, driven by Playwright.

The site is built once (shared with ``test_docs.py``), served on 127.0.0.1 by ``http.server`` in a
thread, and visited like a reader would: the home page, the language menu from one rule page to
the same page in each language, a pictured example, the search in Bulgarian and Esperanto, and
take5rules itself running in the page (Pyodide): a whole game played by clicking, in English and
Bulgarian, a rule page's worked example run, and a turn resolved in a rule page's form. Every
request that is not to the local server is aborted, and the console must show no error.
Screenshots go to ``test-artifacts/`` (not in git). Playwright never downloads a browser here:
it drives ``/usr/bin/chromium``, and the tests are skipped if that is missing.
"""

from __future__ import annotations

import json
import re
import shutil
import sys
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from take5rules import text as i18n
from take5rules.events import GameStarted
from take5rules.variants import Rules
from test_docs import DRAFT, EXAMPLE_PICTURES, ROOT, STRICT, build_docs

sys.path.insert(0, str(ROOT / "docs" / "play"))
import take5play
from local_server import CHROMIUM_ARGS as ARGS
from local_server import served

CHROMIUM = Path("/usr/bin/chromium")
ARTIFACTS = ROOT / "test-artifacts"
RULE = "table.sixth-card"
TIMEOUT = 20_000  # ms
#: Loading Pyodide and the wheels: seconds on an idle machine, much more on a busy shared one.
RUNTIME_TIMEOUT = 300_000  # ms

pytestmark = [pytest.mark.browser, pytest.mark.slow]


@pytest.fixture(scope="session")
def base_url(tmp_path_factory: pytest.TempPathFactory) -> Iterator[str]:
    if not CHROMIUM.exists():
        pytest.skip(f"{CHROMIUM} is missing: install Debian's chromium (apt-get install chromium) "
                    "to run the browser tests")
    built = build_docs(tmp_path_factory)
    if built.returncode != 0:
        pytest.fail(f"mkdocs build --strict failed:\n{built.output[-6000:]}")
    with served(built.site) as url:
        yield url


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


def theme_noise(message: Any) -> bool:
    """Material's prefetch of ``sitemap.xml`` beside each language link (it finds none there).

    The theme fetches ``<alternate>/sitemap.xml`` for every ``link rel=alternate`` of a page,
    to switch languages instantly; mkdocs-static-i18n's alternates are pages, not sites, so
    these are 404s on every page of the site, the Play page's or not, and harmless.
    """
    url = str((message.location or {}).get("url", ""))
    return url.endswith("/sitemap.xml") and "404" in message.text


@pytest.fixture
def watched(page: Any) -> Iterator[Any]:
    """The page, whose console must show no error (nor any uncaught exception) by the end."""
    errors: list[str] = []
    page.on("console", lambda message: errors.append(f"{message.text} "
                                                     f"({(message.location or {}).get('url')})")
            if message.type == "error" and not theme_noise(message) else None)
    page.on("pageerror", lambda error: errors.append(f"uncaught: {error}"))
    yield page
    assert errors == []


def require_runtime() -> None:
    """The bundle is there, or the test says why it cannot be (npm missing)."""
    if not (ROOT / "node_modules" / "pyodide" / "package.json").exists() \
            and shutil.which("npm") is None:
        pytest.skip("npm is missing: the site is built without its browser runtime "
                    "(install npm, then `npm ci`)")


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


# --- take5rules running in the page ------------------------------------------------------------


def click_through_a_game(page: Any, language: str) -> list[int]:
    """Play the Play page's game to its end by clicking; return the answers given."""
    root = page.locator(".take5-play")
    answers: list[int] = []
    for _ in range(400):
        phase = root.get_attribute("data-phase")
        if phase == "over":
            return answers
        if phase == "card":
            card = page.locator("g.pending g.card.take5-clickable").first
            answers.append(int(card.get_attribute("data-card")))
            card.click()
        elif phase == "row":
            row = page.locator("g.row.take5-clickable").nth(len(answers) % 4)
            answers.append(int(row.get_attribute("data-row")) - 1)
            row.click()
        else:
            pick = page.locator(".take5-pool-card").first
            answers.append(int(pick.get_attribute("data-card")))
            pick.click()
        if language == "bg" and len(answers) == 3:
            shot(page, "play-bg")
    pytest.fail("the game did not end after 400 clicks")


@pytest.mark.parametrize("language", ["en", "bg"])
def test_a_whole_game_is_played_by_clicking(watched: Any, base_url: str, language: str) -> None:
    require_runtime()
    page = watched
    page.goto(f"{base_url}/{prefix(language)}play/")
    root = page.locator(".take5-play")
    page.locator('.take5-play[data-ready="true"]').wait_for(timeout=RUNTIME_TIMEOUT)
    config = json.loads(root.locator("script.take5-config").text_content())
    page.locator("input[name=seed]").fill("7")
    page.locator(".take5-settings button[type=submit]").click()
    answers = click_through_a_game(page, language)
    # The page's game is the engine's: the same seats, seed and answers in CPython end the same.
    game = take5play.PageGame(tuple((name, kind) for name, kind in config["seats"]), Rules(), 7,
                              language, list(answers))
    game.advance()
    expected = game.state()
    shown = {row.locator("td").first.inner_text().replace(" ★", ""):
             int(row.locator("td").nth(1).inner_text())
             for row in page.locator(".take5-totals tr").all()[1:]}
    assert shown == dict(expected["totals"])
    assert expected["winners"] and all(name in page.locator(".take5-winners").inner_text()
                                       for name in expected["winners"])
    # Narrated in the page's language, by the library's own catalogs.
    players = tuple(name for name, _ in config["seats"])
    first = page.locator(".take5-log li").first.inner_text().strip()
    assert first == i18n.narrate(GameStarted(Rules(), players), language, strict=STRICT)
    # Each placement links to the rule page that decided it, in the same language.
    links = page.locator(".take5-log a.take5-rule-link")
    assert links.count() >= 10 * len(players)
    rules = set(links.evaluate_all("links => links.map(link => link.dataset.rule)"))
    assert rules <= {"table.least-difference", "table.sixth-card", "table.low-card"}
    href = links.first.evaluate("link => link.href")
    assert href.startswith(f"{base_url}/{prefix(language)}rules/")
    shot(page, f"play-{language}-over", full_page=False)


def test_a_rule_pages_worked_example_runs_in_the_page(watched: Any, base_url: str) -> None:
    require_runtime()
    page = watched
    requested: list[str] = []
    page.on("request", lambda request: requested.append(request.url))
    page.goto(f"{base_url}/it/rules/{RULE}/")
    page.wait_for_load_state("networkidle")
    # The page stays light: the runtime loads when the reader asks for it, not before.
    assert not [url for url in requested if "/pyodide/" in url or url.endswith(".whl")]
    page.locator(".take5-run button").click()
    passed = page.locator(".take5-run .take5-passed")
    passed.wait_for(timeout=RUNTIME_TIMEOUT)
    ran = json.loads(take5play.run_example(RULE))
    assert str(len(ran["examples"])) in passed.inner_text()
    output = page.locator(".take5-run-result").inner_text()
    for example in ran["examples"]:
        assert example["got"].strip() in output
    shot(page, "run-example-it", full_page=False)


def test_a_turn_is_resolved_in_a_rule_pages_form(watched: Any, base_url: str) -> None:
    require_runtime()
    page = watched
    page.goto(f"{base_url}/fr/rules/table.low-card/")
    form = page.locator("form.take5-try")
    form.locator("input[name=row]").nth(3).fill("96 99")
    form.locator("input[name=plays]").fill("ana 17, bob 2, cyd 100")
    form.locator("input[name=choices]").fill("bob 2")
    form.locator("button[type=submit]").click()
    figures = form.locator(".take5-try-output figure")
    figures.first.wait_for(timeout=RUNTIME_TIMEOUT)
    assert figures.count() == 4  # before the turn, then after each of the three placements
    # The 2 is a low card: bob takes row 2 (the 24); the 17 follows the 12; the 100 the 99.
    captions = [figures.nth(number).locator("figcaption").inner_text() for number in range(4)]
    named = [figures.nth(number).locator("a.take5-rule-link").get_attribute("data-rule")
             for number in range(1, 4)]
    assert named == ["table.low-card", "table.least-difference", "table.least-difference"]
    assert i18n.explain("table.low-card", "fr", strict=STRICT).title in captions[1]
    last = figures.nth(3).locator("svg g.row").all()
    assert [[int(card.get_attribute("data-card")) for card in row.locator("g.card").all()]
            for row in last] == [[3, 12, 17], [2], [58, 61, 70], [96, 99, 100]]
    shot(page, "try-turn-fr")


@pytest.mark.parametrize("path", ["agents/", "reference/cli/", f"rules/{RULE}/", "fr/agents/"])
def test_no_code_block_is_cut_off_at_1280_px(page: Any, base_url: str, path: str) -> None:
    page.goto(f"{base_url}/{path}")
    blocks = page.locator("pre > code")
    assert blocks.count() > 0
    hidden = blocks.evaluate_all(
        "codes => codes.filter(code => code.scrollWidth > code.clientWidth + 1)"
        ".map(code => code.textContent.slice(0, 80))")
    assert hidden == []
