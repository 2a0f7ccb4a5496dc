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
