"""The contributors' scripts: none of them destroys work."""

from __future__ import annotations

import shutil
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent

POT = """\
msgid ""
msgstr ""
"Content-Type: text/plain; charset=UTF-8\\n"

msgid "bull heads"
msgstr ""
"""

DUTCH = """\
msgid ""
msgstr ""
"Language: nl\\n"
"Content-Type: text/plain; charset=UTF-8\\n"

msgid "bull heads"
msgstr "hornbeesten"
"""


@pytest.fixture
def repository(tmp_path: Path) -> Path:
    """A copy of the catalog script, with a .pot and a translated Dutch catalog beside it."""
    (tmp_path / "scripts").mkdir()
    shutil.copy(ROOT / "scripts" / "catalogs.py", tmp_path / "scripts" / "catalogs.py")
    (tmp_path / "locales" / "nl" / "LC_MESSAGES").mkdir(parents=True)
    (tmp_path / "locales" / "take5rules.pot").write_text(POT, encoding="utf-8")
    (tmp_path / "locales" / "nl" / "LC_MESSAGES" / "take5rules.po").write_text(
        DUTCH, encoding="utf-8")
    return tmp_path


def _catalogs(repository: Path, *args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run([sys.executable, str(repository / "scripts" / "catalogs.py"), *args],
                          capture_output=True, text=True, timeout=120, check=False)


def test_init_refuses_to_overwrite_a_catalog(repository: Path) -> None:
    done = _catalogs(repository, "init", "nl")
    assert done.returncode == 1
    assert "catalogs.py update" in done.stderr
    assert "--force" in done.stderr
    po = repository / "locales" / "nl" / "LC_MESSAGES" / "take5rules.po"
    assert po.read_text(encoding="utf-8") == DUTCH


def test_init_starts_a_new_language(repository: Path) -> None:
    done = _catalogs(repository, "init", "de")
    assert done.returncode == 0, done.stderr
    po = repository / "locales" / "de" / "LC_MESSAGES" / "take5rules.po"
    assert 'msgid "bull heads"' in po.read_text(encoding="utf-8")


def test_init_force_starts_a_catalog_over(repository: Path) -> None:
    done = _catalogs(repository, "init", "nl", "--force")
    assert done.returncode == 0, done.stderr
    po = repository / "locales" / "nl" / "LC_MESSAGES" / "take5rules.po"
    assert "hornbeesten" not in po.read_text(encoding="utf-8")


@pytest.mark.parametrize("args", [[], ["init"], ["init", "--force"], ["init", "nl", "-f"],
                                  ["update", "nl"], ["wipe"]])
def test_a_wrong_command_line_prints_the_usage(repository: Path, args: list[str]) -> None:
    done = _catalogs(repository, *args)
    assert done.returncode == 2
    assert "Translator workflow" in done.stderr
    po = repository / "locales" / "nl" / "LC_MESSAGES" / "take5rules.po"
    assert po.read_text(encoding="utf-8") == DUTCH


FAKE_PYTHON = """#!/usr/bin/env bash
# A stand-in for .venv/bin/python: records pip's installs, runs everything else for real.
if [ "$1" = "-m" ] && [ "$2" = "pip" ]; then
  echo "pip ${*:3}" >> "$(dirname "$0")/../pip.log"
  touch "$(dirname "$0")/take5rules" && chmod +x "$(dirname "$0")/take5rules"
  exit 0
fi
exec "%s" "$@"
"""


@pytest.fixture
def checkout(tmp_path: Path) -> Path:
    """A copy of the set-up's inputs, with a .venv whose python fakes pip."""
    (tmp_path / "scripts").mkdir()
    for name in ("scripts/setup.sh", "scripts/catalogs.py", "pyproject.toml", "hatch_build.py"):
        shutil.copy(ROOT / name, tmp_path / name)
    (tmp_path / "locales").mkdir()
    python = tmp_path / ".venv" / "bin" / "python"
    python.parent.mkdir(parents=True)
    python.write_text(FAKE_PYTHON % sys.executable, encoding="utf-8")
    python.chmod(0o755)
    return tmp_path


def _setup(checkout: Path, *args: str) -> list[str]:
    """Run scripts/setup.sh in *checkout*; return the pip commands it ran."""
    log = checkout / ".venv" / "pip.log"
    log.unlink(missing_ok=True)
    done = subprocess.run(["bash", str(checkout / "scripts" / "setup.sh"), *args],
                          capture_output=True, text=True, timeout=120, check=False)
    assert done.returncode == 0, done.stderr
    return log.read_text(encoding="utf-8").splitlines() if log.exists() else []


def test_setup_installs_once_then_reuses_the_environment(checkout: Path) -> None:
    first = _setup(checkout)
    assert first == ["pip install --quiet --upgrade pip", "pip install --quiet -e .[dev]"]
    assert _setup(checkout) == []
    assert _setup(checkout) == []


def test_setup_installs_again_when_the_dependencies_change(checkout: Path) -> None:
    _setup(checkout)
    pyproject = checkout / "pyproject.toml"
    # what a `git pull` bringing a new dependency does
    pyproject.write_text(pyproject.read_text(encoding="utf-8").replace(
        '"click>=8.1",', '"click>=8.1",\n    "attrs>=23",'), encoding="utf-8")
    assert _setup(checkout)[-1] == "pip install --quiet -e .[dev]"
    assert _setup(checkout) == []


def test_setup_installs_again_when_forced_or_broken(checkout: Path) -> None:
    _setup(checkout)
    assert _setup(checkout, "--force")[-1] == "pip install --quiet -e .[dev]"
    (checkout / ".venv" / "bin" / "take5rules").unlink()  # a broken environment
    assert _setup(checkout)[-1] == "pip install --quiet -e .[dev]"


@pytest.fixture
def clean_clone(tmp_path: Path) -> Path:
    """What `extract` and `update` read and write, copied from this checkout."""
    shutil.copytree(ROOT / "src", tmp_path / "src",
                    ignore=shutil.ignore_patterns("__pycache__", "_locales", "*.mo"))
    shutil.copytree(ROOT / "locales", tmp_path / "locales")
    (tmp_path / "scripts").mkdir()
    for name in ("babel.cfg", "scripts/catalogs.py"):
        shutil.copy(ROOT / name, tmp_path / name)
    return tmp_path


def _files(root: Path) -> dict[str, bytes]:
    return {str(path.relative_to(root)): path.read_bytes()
            for path in sorted((root / "locales").rglob("*")) if path.is_file()}


def test_extract_then_update_on_a_clean_clone_changes_nothing(clean_clone: Path) -> None:
    before = _files(clean_clone)
    for command in ("extract", "update"):
        done = _catalogs(clean_clone, command)
        assert done.returncode == 0, done.stderr
    after = _files(clean_clone)
    assert [name for name in before if after.get(name) != before[name]] == []
    assert sorted(after) == sorted(before)


#: Babel's template placeholders, which a catalog's header must not keep.
PLACEHOLDERS = ("PROJECT", "ORGANIZATION", "FIRST AUTHOR", "EMAIL@ADDRESS", "LL@li.org",
                "FULL NAME", "VERSION", "YEAR", "LANGUAGE", "POT-Creation-Date")


@pytest.mark.parametrize("path", sorted((ROOT / "locales").glob("*/LC_MESSAGES/take5rules.po")),
                         ids=lambda path: path.parent.parent.name)
def test_catalog_headers_are_the_projects_own(path: Path) -> None:
    header = path.read_text(encoding="utf-8").split("\n\n", 1)[0]
    assert [word for word in PLACEHOLDERS if word in header] == []
    language = path.parent.parent.name
    assert f'"Language: {language}\\n"' in header
    assert '"Project-Id-Version: take5rules\\n"' in header
    assert '"Last-Translator: take5rules developers\\n"' in header
    assert "Language-Team: " in header
