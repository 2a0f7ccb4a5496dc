"""The README's promises: its Python example prints what its comments say; its commands exist."""

from __future__ import annotations

import ast
import contextlib
import io
import os
import re
import subprocess
import sys
from pathlib import Path

from take5rules.cli.main import COMMANDS

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


def _blocks(language: str) -> list[str]:
    return re.findall(rf"```{language}\n(.*?)```", README, re.DOTALL)


def _section(title: str) -> str:
    return README.split(f"## {title}\n", 1)[1].split("\n## ", 1)[0]


def _run_python(code: str) -> list[str]:
    output = io.StringIO()
    with contextlib.redirect_stdout(output):
        exec(compile(code, "README.md", "exec"), {"__name__": "readme"})
    return output.getvalue().splitlines()


def test_every_python_example_runs() -> None:
    blocks = _blocks("python")
    assert len(blocks) >= 4
    for code in blocks:
        _run_python(code)


def test_the_whole_game_example_narrates_a_game_to_its_winners() -> None:
    (code,) = re.findall(r"```python\n(.*?)```", _section("A whole game"), re.DOTALL)
    printed = _run_python(code)
    assert printed[0].startswith("Une partie commence avec ana, bob et cyd")
    winners_line = printed[-1]
    assert winners_line.startswith("winners: ")
    taken = ast.literal_eval(winners_line.split("| cards taken: ", 1)[1])
    assert set(taken) == {"ana", "bob", "cyd"}
    # someone reached 66 bull heads, and no card carries more than 7: at least 10 cards taken
    assert sum(taken.values()) >= 10


def test_the_own_player_example_plays_a_whole_game() -> None:
    (code,) = re.findall(r"```python\n(.*?)```", _section("Your own player"), re.DOTALL)
    (printed,) = _run_python(code)
    totals, _, winners = printed.partition(" won by ")
    assert set(ast.literal_eval(totals)) == {"me", "bot"}
    assert max(ast.literal_eval(totals).values()) >= 66
    assert set(ast.literal_eval(winners)) <= {"me", "bot"}


COMMAND = re.compile(r"(?:^|\| |&& )take5rules ")


def test_the_readme_says_how_to_reach_the_command() -> None:
    assert "source .venv/bin/activate" in README
    assert "`.venv/bin/take5rules --help`" in README
    assert 'python -m pytest -q -m "not slow and not browser"' in README


def test_every_take5rules_command_works_as_written(tmp_path: Path) -> None:
    lines = [line.split("  #", 1)[0].strip() for block in _blocks("sh")
             for line in block.splitlines() if COMMAND.search(line) and
             not line.lstrip().startswith(("pip ", "#"))]
    assert len(lines) >= 10, lines
    # what `source .venv/bin/activate` does: the environment's scripts first on PATH
    path = f"{Path(sys.executable).parent}{os.pathsep}{os.environ.get('PATH', '')}"
    for line in lines:
        done = subprocess.run(["bash", "-o", "pipefail", "-c", line], cwd=tmp_path,
                              capture_output=True, text=True, timeout=300, check=False,
                              env={**os.environ, "PATH": path, "LC_ALL": "C.UTF-8"})
        assert done.returncode == 0, (line, done.stderr)
        assert done.stdout, line
        assert "Traceback" not in done.stderr, line


def test_the_readme_installs_only_in_ways_that_work_today() -> None:
    # issue 18 section 1: no release on the index yet, and no tag in the repository
    section = _section("Installing it as a dependency")
    installs = [line.split("  #", 1)[0].strip() for block in re.findall(
        r"```sh\n(.*?)```", section, re.DOTALL) for line in block.splitlines()
        if line.startswith("pip install")]
    assert installs
    for line in installs:
        target = line.removeprefix("pip install ").strip('"')
        assert target.startswith(("./", "take5rules @ git+URL@COMMIT")), line
        assert "==" not in line and "@v" not in line, line
    version = re.search(r'^version = "(.+)"$', (Path(__file__).resolve().parent.parent
                                                / "pyproject.toml").read_text(), re.M)
    assert version is not None
    assert f"take5rules-{version.group(1)}-py3-none-any.whl" in section
    assert "planned" in section
