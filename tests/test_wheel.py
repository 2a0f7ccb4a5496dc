"""The built wheel, installed without extras in a clean venv: light, complete and working.

A dependent project gets take5rules, Babel and click and nothing else; the compiled catalogs
of every language come with the wheel; the ``take5rules`` command answers; the licence is
shipped in the wheel and the sdist.
"""

from __future__ import annotations

import json
import subprocess
import sys
import tarfile
import venv
import zipfile
from dataclasses import dataclass
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent

#: What a plain install may bring: take5rules, Babel and at most two small packages.
ALLOWED = {"take5rules", "babel", "click"}
#: What a virtual environment holds before anything is installed in it.
BOOTSTRAP = {"pip", "setuptools", "wheel"}

CHECK = """
import take5rules, take5rules.text as i18n, pathlib, sys
assert not pathlib.Path(take5rules.__file__).is_relative_to(pathlib.Path(sys.argv[1])), \
    take5rules.__file__
for language in i18n.LANGUAGES:
    book = i18n.rulebook(language, strict=True)
    assert len(book) == len(take5rules.all_rules())
print(i18n.explain("table.sixth-card", "bg", strict=True).title)
"""

pytestmark = pytest.mark.slow


@dataclass(frozen=True)
class Installed:
    """The built distributions, and a clean venv where the wheel was installed without extras."""

    wheel: Path
    sdist: Path
    python: Path
    take5rules: Path

    def run(self, *args: str) -> subprocess.CompletedProcess[str]:
        return subprocess.run([str(self.take5rules), *args], capture_output=True, text=True,
                              timeout=120, check=False, env={"PATH": "/usr/bin:/bin"})


@pytest.fixture(scope="module")
def installed(tmp_path_factory: pytest.TempPathFactory) -> Installed:
    tmp_path = tmp_path_factory.mktemp("wheel")
    dist = tmp_path / "dist"
    subprocess.run([sys.executable, "-m", "build", "--no-isolation", "--wheel", "--sdist",
                    "--outdir", str(dist), str(ROOT)],
                   check=True, timeout=600, capture_output=True)
    (wheel,) = dist.glob("take5rules-*.whl")
    (sdist,) = dist.glob("take5rules-*.tar.gz")
    env_dir = tmp_path / "venv"
    venv.create(env_dir, with_pip=True)
    python = env_dir / "bin" / "python"
    subprocess.run([str(python), "-m", "pip", "install", "-q", str(wheel)], check=True,
                   timeout=600, capture_output=True)
    return Installed(wheel, sdist, python, env_dir / "bin" / "take5rules")


def test_a_plain_install_brings_babel_click_and_nothing_else(installed: Installed) -> None:
    listed = subprocess.run([str(installed.python), "-m", "pip", "list", "--format=json"],
                            capture_output=True, text=True, timeout=120, check=True).stdout
    names = {item["name"].lower() for item in json.loads(listed)} - BOOTSTRAP
    assert names == ALLOWED, names
    assert len(names) <= 4  # take5rules, Babel and two small packages at most


def test_the_wheel_carries_compiled_catalogs(installed: Installed) -> None:
    done = subprocess.run([str(installed.python), "-c", CHECK, str(ROOT / "src")],
                          capture_output=True, text=True, timeout=120, check=False)
    assert done.returncode == 0, done.stderr
    assert done.stdout.strip() == "Шестата карта"


def test_the_installed_command_answers(installed: Installed) -> None:
    helped = installed.run("--help")
    assert helped.returncode == 0, helped.stderr
    assert helped.stdout.startswith("Usage: take5rules")
    played = installed.run("play", "--lang", "fr")
    assert played.returncode == 0, played.stderr
    assert "ana, bob, cyd et dan" in played.stdout.splitlines()[0]  # a French list
    assert "Traceback" not in played.stderr
    rulebook = installed.run("rules", "--lang", "eo")
    assert rulebook.returncode == 0, rulebook.stderr
    assert "Bovkapoj" in rulebook.stdout


def test_the_licence_is_in_the_wheel_and_the_sdist(installed: Installed) -> None:
    licence = (ROOT / "LICENSE").read_text(encoding="utf-8")
    with zipfile.ZipFile(installed.wheel) as wheel:
        shipped = [name for name in wheel.namelist() if name.endswith("/LICENSE")]
        assert shipped, wheel.namelist()
        assert wheel.read(shipped[0]).decode("utf-8") == licence
        metadata = next(name for name in wheel.namelist() if name.endswith("/METADATA"))
        assert "License-Expression: MIT" in wheel.read(metadata).decode("utf-8")
    with tarfile.open(installed.sdist) as sdist:
        member = next(item for item in sdist.getmembers() if item.name.endswith("/LICENSE"))
        handle = sdist.extractfile(member)
        assert handle is not None
        assert handle.read().decode("utf-8") == licence
