"""Collection on any install: what an absent optional extra skips, said by name.

A test file, or a module of :mod:`take5rules.agents` collected for its doctests, whose import
needs a package of an extra that is not installed (``numpy`` for ``take5rules[batch]``,
``pettingzoo`` for ``take5rules[env]``, ``mcp`` for ``take5rules[mcp]``, ``pyspiel`` for
``take5rules[openspiel]``) is skipped, with the extra named in the reason, instead of failing
to collect. Only those: a rule module, or any module outside ``agents/``, that fails to import
is an error as before, so a plain ``take5rules[test]`` install still catches an optional
package imported where it must not be. The header says which extras are missing, and the
summary says, for each, how many files and tests it skipped.

The package an import misses is found from the error itself: the library's own
:class:`~take5rules.text.extras.MissingExtraError` names its extra, and a bare
``ModuleNotFoundError`` is looked up in :data:`EXTRA_OF`. A test that imports an optional
package only as it runs is skipped the same way when the import that fails is its own (in
``tests/`` or ``docs/``) or the library's guard; a bare import of an optional package from the
library's code, at any time, stays an error.
"""

from __future__ import annotations

import importlib.util
import re
import traceback
from collections import Counter
from collections.abc import Generator, Iterator
from pathlib import Path
from typing import TypeVar

import pytest

_Report = TypeVar("_Report", pytest.CollectReport, pytest.TestReport)

#: The import name of each optional package, and the extra of ``pyproject.toml`` that brings
#: it (``anyio``, ``pydantic`` and ``mcp_types`` come with the ``mcp`` SDK; ``dask`` only
#: with ``dev``).
EXTRA_OF = {
    "numpy": "batch",
    "numba": "batch-fast",
    "gymnasium": "env",
    "pettingzoo": "env",
    "mcp": "mcp",
    "mcp_types": "mcp",
    "anyio": "mcp",
    "pydantic": "mcp",
    "pyspiel": "openspiel",
    "dask": "dev",
    "playwright": "dev",
    "mkdocs": "docs",
    "yaml": "docs",
}

ROOT = Path(__file__).resolve().parent
#: Where a missing extra may skip a whole file: the tests, and the agents' modules.
SKIPPABLE = (ROOT / "tests", ROOT / "src" / "take5rules" / "agents")
#: Where a test's own import of an optional package may be, as it runs (not the library's code).
RUNTIME_OWN = (ROOT / "tests", ROOT / "docs")
#: A skip reason that names an extra, as this file and the tests word it.
NAMED_EXTRA = re.compile(r"take5rules\[([a-z-]+)\]")
#: The reason of ``pytest.importorskip`` called without one.
COULD_NOT = re.compile(r"could not import '([\w.]+)'")


def _missing(package: str) -> bool:
    """Whether *package* cannot be imported here."""
    try:
        return importlib.util.find_spec(package) is None
    except (ImportError, ValueError):
        return True


def _chain(error: BaseException | None) -> Iterator[BaseException]:
    """*error*, then the errors it was raised from or while handling."""
    seen: set[int] = set()
    while error is not None and id(error) not in seen:
        seen.add(id(error))
        yield error
        error = error.__cause__ or error.__context__


def _extra_missed(error: BaseException,
                  own: tuple[Path, ...] = (ROOT,)) -> tuple[str, str] | None:
    """The (extra, package) whose absence made *error*, or ``None`` for any other error.

    A bare ``ModuleNotFoundError`` counts only when the import that raised it is in a file
    under one of *own*; the library's :class:`~take5rules.text.extras.MissingExtraError` always.
    """
    for link in _chain(error):
        if not isinstance(link, ModuleNotFoundError):
            continue
        params = getattr(link, "params", None)
        if isinstance(params, dict) and "extra" in params:
            return str(params["extra"]), str(params.get("package", link.name))
        package = (link.name or "").partition(".")[0]
        frames = traceback.extract_tb(link.__traceback__)
        importer = Path(frames[-1].filename) if frames else None
        if (package in EXTRA_OF and _missing(package) and importer is not None
                and any(importer.is_relative_to(place) for place in own)):
            return EXTRA_OF[package], package
    return None


def _where(error: BaseException) -> tuple[str, int] | None:
    """The file of this project, and its line, where the import that failed was made."""
    for link in _chain(error):
        if not isinstance(link, ModuleNotFoundError):
            continue
        for frame in reversed(traceback.extract_tb(link.__traceback__)):
            path = Path(frame.filename)
            if frame.lineno is not None and path.is_relative_to(ROOT) and ".venv" not in path.parts:
                return str(path), frame.lineno
    return None


def _named(reason: str) -> str:
    """*reason*, with the extra added when it names a missing package and no extra."""
    could_not = COULD_NOT.search(reason)
    if NAMED_EXTRA.search(reason) or could_not is None:
        return reason
    package = could_not.group(1).partition(".")[0]
    if package not in EXTRA_OF:
        return reason
    return f"{reason} (take5rules[{EXTRA_OF[package]}] installs it)"


@pytest.hookimpl(wrapper=True)
def pytest_make_collect_report(
    collector: pytest.Collector,
) -> Generator[None, pytest.CollectReport, pytest.CollectReport]:
    """Turn a file's import error for a missing extra into a skip that names the extra."""
    report = yield
    if report.skipped:
        return _reworded(report)
    path = getattr(collector, "path", None)
    call = getattr(report, "call", None)
    if (not report.failed or call is None or call.excinfo is None
            or not isinstance(collector, pytest.File) or path is None
            or not any(Path(path).is_relative_to(place) for place in SKIPPABLE)):
        return report
    missed = _extra_missed(call.excinfo.value)
    if missed is None:
        return report
    extra, package = missed
    reason = f"Skipped: needs {package}, which take5rules[{extra}] installs"
    where = (*(_where(call.excinfo.value) or (str(path), 0)), reason)
    return pytest.CollectReport(report.nodeid, "skipped", where, [])


@pytest.hookimpl(wrapper=True)
def pytest_runtest_makereport(
    item: pytest.Item, call: pytest.CallInfo[None]
) -> Generator[None, pytest.TestReport, pytest.TestReport]:
    """Skip, naming the extra, a test whose own import of an optional package fails as it runs.

    A skip for a missing package without an extra named (``importorskip``) gets it named too.
    """
    report = yield
    if report.skipped:
        return _reworded(report)
    if not report.failed or call.excinfo is None:
        return report
    missed = _extra_missed(call.excinfo.value, own=RUNTIME_OWN)
    if missed is None:
        return report
    extra, package = missed
    where = _where(call.excinfo.value) or (str(item.path), 0)
    report.outcome = "skipped"
    report.longrepr = (*where, f"Skipped: needs {package}, which take5rules[{extra}] installs")
    return report


def _reworded(report: _Report) -> _Report:
    """*report*, its skip reason naming the extra of the package it misses."""
    if isinstance(report.longrepr, tuple):
        path, line, reason = report.longrepr
        report.longrepr = (path, line, _named(reason))
    return report


def _absent() -> dict[str, list[str]]:
    """Each extra with a package missing here, and its missing packages."""
    absent: dict[str, list[str]] = {}
    for package, extra in EXTRA_OF.items():
        if _missing(package):
            absent.setdefault(extra, []).append(package)
    return absent


def pytest_report_header(config: pytest.Config) -> str:
    """Say which optional extras are missing, before the run."""
    absent = _absent()
    if not absent:
        return "extras: every optional extra is installed"
    return "extras missing (their tests are skipped): " + ", ".join(
        f"take5rules[{extra}] ({', '.join(packages)})" for extra, packages in absent.items())


def pytest_terminal_summary(terminalreporter: pytest.TerminalReporter) -> None:
    """One line per extra that skipped something: how many files and tests, and why."""
    files: dict[str, set[str]] = {}
    tests: Counter[str] = Counter()
    for report in terminalreporter.stats.get("skipped", []):
        longrepr = getattr(report, "longrepr", None)
        reason = longrepr[2] if isinstance(longrepr, tuple) else str(longrepr)
        named = NAMED_EXTRA.search(reason)
        if named is None:
            continue
        if isinstance(report, pytest.CollectReport):
            files.setdefault(named.group(1), set()).add(report.nodeid.partition("::")[0])
        else:
            tests[named.group(1)] += 1
    if not files and not tests:
        return
    terminalreporter.section("skipped for a missing optional extra")
    for extra in sorted(set(files) | set(tests)):
        skipped = len(files.get(extra, ()))
        terminalreporter.write_line(
            f"take5rules[{extra}] not installed: {skipped} files and {tests[extra]} tests "
            f"skipped (pip install -e '.[{extra}]' runs them)")
