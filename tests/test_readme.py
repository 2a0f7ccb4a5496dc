"""The README's promises: its Python example prints what its comments say; its commands exist."""

from __future__ import annotations

import contextlib
import io
import re
from pathlib import Path

from take5rules.cli import COMMANDS

README = (Path(__file__).resolve().parent.parent / "README.md").read_text(encoding="utf-8")


def test_readme_python_example_prints_what_its_comments_say() -> None:
    code = re.findall(r"## In ten lines of Python\n\n```python\n(.*?)```", README, re.DOTALL)[0]
    assert len(code.strip().splitlines()) <= 10
    output = io.StringIO()
    with contextlib.redirect_stdout(output):
        exec(compile(code, "README.md", "exec"), {})
    printed = output.getvalue().splitlines()
    promised = [line.split("#", 1)[1].strip() for line in code.splitlines()
                if line.startswith("print(") and "#" in line]
    assert printed[: len(promised)] == promised


def test_readme_names_only_real_commands() -> None:
    named = set(re.findall(r"`take5rules ([a-z]+)", README))
    assert named <= set(COMMANDS), named - set(COMMANDS)
    assert set(COMMANDS) <= named, set(COMMANDS) - named


def test_readme_two_commands_are_the_scripts() -> None:
    assert "bash scripts/demo.sh" in README
    assert "bash scripts/check.sh" in README
    ci = (Path(__file__).resolve().parent.parent / ".ci" / "run").read_text(encoding="utf-8")
    assert "bash scripts/check.sh" in ci
