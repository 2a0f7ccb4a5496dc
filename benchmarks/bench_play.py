"""Benchmark: the docs' Play page in Chromium, from a local server: transfer size and time to play.

The site is built (or taken from ``--site``), served on 127.0.0.1 by ``http.server``, and opened
in Debian's headless Chromium with every other address blocked, each load in a fresh browser
context (an empty cache). Two figures per language:

* the transfer size of the Play page, all it fetches until the game can start (the page,
  the theme, Pyodide's core, the take5rules and Babel wheels), from the browser's resource
  timing;
* the time to first interaction: from the start of the navigation to the moment the page's
  Start button is enabled (``play.js`` notes it), i.e. Pyodide loaded and take5rules imported.

The peer, measured in the same run and interleaved with it, is the Examples page (a static page
of inline SVG pictures, no runtime): its transfer size and its ``load`` event. Medians of
``--repeats`` rounds (default 3; ``--quick``: 1). ``http.server`` sends the files as they are
(no compression), as a plain static host or a local folder does.

    .venv/bin/python benchmarks/bench_play.py [--site DIR] [--repeats N] [--quick]
"""

from __future__ import annotations

import argparse
import functools
import re
import statistics
import subprocess
import sys
import tempfile
from collections.abc import Callable
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT / "docs" / "play"))
from local_server import CHROMIUM_ARGS as ARGS  # noqa: E402
from local_server import served  # noqa: E402

CHROMIUM = "/usr/bin/chromium"
LANGUAGES = ("en", "fr", "bg", "it", "eo")
READY_MS = 600_000
#: The bytes a page fetched: the page itself and every resource, as the browser counted them.
TRANSFERRED = """() => performance.getEntriesByType("navigation").concat(
    performance.getEntriesByType("resource")).reduce((sum, entry) => sum + entry.transferSize, 0)
"""


def build(target: Path) -> Path:
    """Build the site into *target*."""
    subprocess.run([sys.executable, "-m", "mkdocs", "build", "--strict", "-q", "-f",
                    str(ROOT / "mkdocs.yml"), "-d", str(target)], cwd=ROOT, check=True)
    return target


def prefix(language: str) -> str:
    """The language's folder in the site (none for English)."""
    return "" if language == "en" else f"{language}/"


def play(browser: Any, url: str) -> tuple[float, float]:
    """Open the Play page in a fresh context: (ms until the game can start, bytes)."""
    context = browser.new_context()
    context.route(re.compile(r"^(?!http://127\.0\.0\.1:)"), lambda route: route.abort())
    try:
        page = context.new_page()
        page.goto(url)
        page.locator('.take5-play[data-ready="true"]').wait_for(timeout=READY_MS)
        page.wait_for_load_state("load")
        ready = float(page.locator(".take5-play").get_attribute("data-ready-ms") or 0)
        return ready, float(page.evaluate(TRANSFERRED))
    finally:
        context.close()


def static(browser: Any, url: str) -> tuple[float, float]:
    """Open a static page in a fresh context: (ms to its load event, bytes)."""
    context = browser.new_context()
    context.route(re.compile(r"^(?!http://127\.0\.0\.1:)"), lambda route: route.abort())
    try:
        page = context.new_page()
        page.goto(url, wait_until="load")
        loaded = page.evaluate(
            "() => performance.getEntriesByType('navigation')[0].loadEventEnd")
        return float(loaded), float(page.evaluate(TRANSFERRED))
    finally:
        context.close()


def main(argv: list[str]) -> int:
    """Measure; print one line per language."""
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--site", type=Path, help="a built site (default: build one)")
    parser.add_argument("--repeats", type=int, default=3)
    parser.add_argument("--quick", action="store_true", help="one round")
    options = parser.parse_args(argv)
    repeats = 1 if options.quick else options.repeats
    if not Path(CHROMIUM).exists():
        print(f"bench_play: skipped, {CHROMIUM} is missing (apt-get install chromium)")
        return 0
    from playwright.sync_api import sync_playwright

    with tempfile.TemporaryDirectory() as scratch:
        site = options.site or build(Path(scratch) / "site")
        if not (site / "assets" / "take5play" / "bundle.json").exists():
            print("bench_play: skipped, the site has no browser runtime (npm was missing)")
            return 0
        with served(site) as base, sync_playwright() as playwright:
            browser = playwright.chromium.launch(executable_path=CHROMIUM, headless=True,
                                                 args=ARGS)
            jobs: dict[str, Callable[[], tuple[float, ...]]] = {
                language: functools.partial(play, browser, f"{base}/{prefix(language)}play/")
                for language in LANGUAGES
            }
            jobs["examples"] = functools.partial(static, browser, f"{base}/examples/")
            samples: dict[str, list[tuple[float, ...]]] = {name: [] for name in jobs}
            names = list(jobs)
            for repetition in range(repeats):
                shift = repetition % len(names)
                for name in names[shift:] + names[:shift]:
                    samples[name].append(jobs[name]())
            browser.close()

    def median(name: str, index: int) -> float:
        return statistics.median(sample[index] for sample in samples[name])

    peer_ms, peer_bytes = median("examples", 0), median("examples", 1)
    for language in LANGUAGES:
        ready, size = median(language, 0), median(language, 1)
        print(f"Play page ({language}), first visit: {ready / 1000:.1f} s to play, "
              f"{size / 1e6:.1f} MB | Examples page: {peer_ms / 1000:.2f} s, "
              f"{peer_bytes / 1e6:.2f} MB (us/them {ready / peer_ms:.0f}x time, "
              f"{size / peer_bytes:.0f}x bytes)", flush=True)
    print(f"rounds: {repeats}, medians", flush=True)
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
