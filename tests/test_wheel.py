"""The built wheel carries compiled catalogs: install it in a clean venv and use every language."""

from __future__ import annotations

import subprocess
import sys
import sysconfig
import venv
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent

CHECK = """
import take5rules, take5rules.i18n as i18n, pathlib, sys
assert not pathlib.Path(take5rules.__file__).is_relative_to(pathlib.Path(sys.argv[1])), \
    take5rules.__file__
for language in i18n.LANGUAGES:
    book = i18n.rulebook(language, strict=True)
    assert len(book) == len(take5rules.all_rules())
print(i18n.explain("table.sixth-card", "bg", strict=True).title)
"""


@pytest.mark.slow
def test_wheel_installs_with_compiled_catalogs(tmp_path: Path) -> None:
    dist = tmp_path / "dist"
    subprocess.run(
        [sys.executable, "-m", "pip", "wheel", "--no-deps", "--no-build-isolation", "-q",
         "-w", str(dist), str(ROOT)],
        check=True, timeout=300,
    )
    (wheel,) = dist.glob("take5rules-*.whl")
    env_dir = tmp_path / "venv"
    venv.create(env_dir, with_pip=True)
    python = env_dir / "bin" / "python"
    # The dependencies come from this environment's site-packages, read as plain paths (its
    # .pth files, including this repository's editable install, are not processed).
    site = Path(subprocess.check_output(
        [str(python), "-c", "import sysconfig; print(sysconfig.get_paths()['purelib'])"],
        text=True).strip())
    (site / "deps.pth").write_text(sysconfig.get_paths()["purelib"] + "\n", encoding="utf-8")
    subprocess.run([str(python), "-m", "pip", "install", "-q", "--no-deps", str(wheel)],
                   check=True, timeout=300)
    installed = subprocess.run(
        [str(python), "-c", CHECK, str(ROOT / "src")], capture_output=True, text=True,
        timeout=120, check=False,
    )
    assert installed.returncode == 0, installed.stderr
    assert installed.stdout.strip() == "Шестата карта"
    rulebook = subprocess.run([str(env_dir / "bin" / "take5rules"), "rules", "--lang", "eo"],
                              capture_output=True, text=True, timeout=120, check=False)
    assert rulebook.returncode == 0, rulebook.stderr
    assert "Bovkapoj" in rulebook.stdout
