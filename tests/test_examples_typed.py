"""Every Python example of the README and of the docs is typed and true (issue 18 section 6).

Each ```python block is checked by ``mypy --strict`` as a module of its own, then run; every
top-level ``print(...)  # value`` line must print exactly the value of its comment (a comment
that is a Python literal or a single word; a comment in words is prose, not an output). A docs
block that includes a file of ``docs/snippets/`` (``--8<-- "agents/batch.py"``, written once for
the five languages) is that file, checked once.
"""

from __future__ import annotations

import ast
import contextlib
import io
import re
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
PAGES = [ROOT / "README.md", *sorted((ROOT / "docs").glob("*/**/*.md"))]
BLOCK = re.compile(r"```python\n(.*?)```", re.DOTALL)
PRINTED = re.compile(r"^print\(.*\)\s+# (?P<value>.+)$")
SNIPPETS = ROOT / "docs" / "snippets"
SNIPPET = re.compile(r'^--8<-- "([^"]+)"$', re.MULTILINE)


def _included(code: str) -> str:
    """*code* with each ``--8<-- "file"`` line replaced by that file of ``docs/snippets/``."""
    return SNIPPET.sub(
        lambda match: (SNIPPETS / match.group(1)).read_text(encoding="utf-8").rstrip("\n"), code)


def _examples() -> list[tuple[str, str]]:
    found = []
    seen: set[str] = set()
    for page in PAGES:
        for index, block in enumerate(BLOCK.findall(page.read_text(encoding="utf-8"))):
            code = _included(block)
            if code not in seen:  # a snippet, included by each language's page: checked once
                seen.add(code)
                snippet = SNIPPET.fullmatch(block.strip())
                name = (f"docs/snippets/{snippet.group(1)}" if snippet
                        else f"{page.relative_to(ROOT)}#{index + 1}")
                found.append((name, code))
    return found


EXAMPLES = _examples()


def _promised(line: str) -> str | None:
    """The value a ``print(...)  # value`` line promises, or ``None`` for prose or no comment."""
    match = PRINTED.match(line)
    if match is None:
        return None
    value = match.group("value").strip()
    try:
        ast.literal_eval(value)
    except (ValueError, SyntaxError):
        return value if " " not in value else None
    return value


def test_the_readme_and_the_docs_have_examples() -> None:
    names = [name for name, _ in EXAMPLES]
    assert sum(name.startswith("README.md") for name in names) >= 4
    assert any(name.startswith("docs/") for name in names)


def test_every_example_passes_mypy_strict(tmp_path: Path) -> None:
    for number, (_, code) in enumerate(EXAMPLES):
        (tmp_path / f"example_{number}.py").write_text(code, encoding="utf-8")
    done = subprocess.run([sys.executable, "-m", "mypy", "--strict", "--no-incremental",
                           "--cache-dir", str(tmp_path / ".mypy"), str(tmp_path)],
                          capture_output=True, text=True, check=False, timeout=600)
    named = done.stdout
    for number, (name, _) in enumerate(EXAMPLES):
        named = named.replace(str(tmp_path / f"example_{number}.py"), name)
    assert done.returncode == 0, named


@pytest.mark.parametrize(("name", "code"), EXAMPLES, ids=[name for name, _ in EXAMPLES])
def test_every_printed_value_is_its_comment(name: str, code: str) -> None:
    namespace: dict[str, object] = {"__name__": "example"}
    pending: list[str] = []
    checked = 0

    def run(lines: list[str]) -> str:
        output = io.StringIO()
        with contextlib.redirect_stdout(output):
            exec(compile("\n".join(lines), name, "exec"), namespace)
        return output.getvalue()

    for line in code.splitlines():
        promised = _promised(line)
        if promised is None:
            pending.append(line)
            continue
        run(pending)
        pending = []
        assert run([line]).rstrip("\n") == promised, (name, line)
        checked += 1
    run(pending)
    if name.startswith("README.md#1"):
        assert checked >= 4  # the ten lines of Python promise their outputs
