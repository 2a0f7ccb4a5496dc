"""MkDocs hook: bundle the browser runtime of the Play page and the live examples into the site.

The reader's browser runs take5rules itself, in Pyodide, with no network: the site carries

* Pyodide's core (the npm package ``pyodide``, pinned in ``package.json`` and
  ``package-lock.json``; each file shipped is checked against its sha256 in
  ``docs/play/pins.json``);
* the take5rules wheel, built from this repository at build time (``pip wheel``);
* Babel's wheel (pinned and checked the same way), trimmed to the locale data of the catalogs'
  languages (the rest of CLDR is 9 MB that no page uses);
* ``docs/play/play.js`` (the page's side) and ``docs/play/take5play.py`` (the Python side).

They go once into ``assets/take5play/`` at the site's root, shared by the five languages;
``docs/gen_pages.py`` links each Play page and rule page to them with a relative URL, so the
site works from any static host or a local folder.

Where npm is missing and ``node_modules/pyodide`` is not installed, the build goes on without
the runtime and each Play page says so in a visible notice (the rest of the docs are unchanged):
a translator can build the docs with Python alone. A file whose hash differs from its pin fails
the build: the bundle is reproducible from the project's own files or not built at all.
"""

from __future__ import annotations

import hashlib
import json
import logging
import os
import shutil
import subprocess
import sys
import tempfile
import zipfile
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from mkdocs.config.defaults import MkDocsConfig
from mkdocs.exceptions import PluginError

log = logging.getLogger("mkdocs.plugins.take5rules.play_bundle")

DOCS = Path(__file__).resolve().parent
ROOT = DOCS.parent
PLAY = DOCS / "play"
PINS = PLAY / "pins.json"
CACHE = ROOT / ".cache" / "docs-play"
NODE_PYODIDE = ROOT / "node_modules" / "pyodide"
#: Where the bundle goes in the site.
TARGET = "assets/take5play"
#: What play.js is given to load, besides Pyodide's own files.
SOURCES = ("play.js", "take5play.py")


@dataclass
class Bundle:
    """The staged bundle (a folder ready to copy into the site), or why there is none."""

    folder: Path | None = None
    reason: str = ""
    files: dict[str, int] = field(default_factory=dict)

    @property
    def ready(self) -> bool:
        return self.folder is not None


_BUNDLE: Bundle | None = None


def sha256(path: Path) -> str:
    digest = hashlib.sha256()
    with path.open("rb") as handle:
        for block in iter(lambda: handle.read(1 << 20), b""):
            digest.update(block)
    return digest.hexdigest()


def pins() -> dict[str, Any]:
    value: dict[str, Any] = json.loads(PINS.read_text(encoding="utf-8"))
    return value


def checked(path: Path, expected: str) -> Path:
    """*path*, whose sha256 must be *expected*; otherwise the build fails."""
    actual = sha256(path)
    if actual != expected:
        raise PluginError(
            f"docs/play_bundle.py: {path} has sha256 {actual}, not the {expected} pinned in "
            f"{PINS.relative_to(ROOT)}: reinstall it (npm ci / delete {CACHE.relative_to(ROOT)}) "
            "or update the pin on purpose"
        )
    return path


def pyodide_folder(pinned: dict[str, Any]) -> Path | str:
    """``node_modules/pyodide`` at the pinned version (``npm ci`` if needed), or why not."""
    wanted = pinned["version"]

    def installed() -> str | None:
        manifest = NODE_PYODIDE / "package.json"
        if not manifest.exists():
            return None
        return str(json.loads(manifest.read_text(encoding="utf-8")).get("version"))

    if installed() != wanted:
        npm = shutil.which("npm")
        if npm is None:
            return (f"npm is missing and node_modules/pyodide {wanted} is not installed "
                    "(install Node.js and npm, then run npm ci)")
        log.info("take5rules docs: npm ci (pyodide %s)", wanted)
        done = subprocess.run([npm, "ci", "--ignore-scripts", "--no-audit", "--no-fund"],
                              cwd=ROOT, capture_output=True, text=True, check=False)
        if done.returncode != 0:
            raise PluginError(f"docs/play_bundle.py: npm ci failed:\n{done.stdout}{done.stderr}")
        if installed() != wanted:
            raise PluginError(f"docs/play_bundle.py: npm ci installed pyodide {installed()}, "
                              f"not the {wanted} of {PINS.relative_to(ROOT)}: update "
                              "package.json and package-lock.json together with the pins")
    return NODE_PYODIDE


def babel_wheel(pinned: dict[str, Any]) -> Path | str:
    """The pinned Babel wheel, from the cache folder or pip (its cache or the index)."""
    wheel = CACHE / pinned["wheel"]
    if not wheel.exists():
        CACHE.mkdir(parents=True, exist_ok=True)
        done = subprocess.run(
            [sys.executable, "-m", "pip", "download", "--quiet", "--no-deps",
             "--only-binary=:all:", f"babel=={pinned['version']}", "-d", str(CACHE)],
            capture_output=True, text=True, check=False,
        )
        if done.returncode != 0 or not wheel.exists():
            return f"pip could not download {pinned['wheel']}: {done.stderr.strip()[-400:]}"
    return checked(wheel, pinned["sha256"])


def catalog_languages() -> list[str]:
    return sorted(path.name for path in (ROOT / "locales").iterdir() if path.is_dir())


def trim_babel(wheel: Path, target: Path) -> None:
    """Copy Babel's wheel keeping only the locale data of the catalogs' languages (and root)."""
    keep = {f"babel/locale-data/{name}.dat" for name in ["root", *catalog_languages()]}
    with zipfile.ZipFile(wheel) as source, zipfile.ZipFile(
        target, "w", compression=zipfile.ZIP_DEFLATED
    ) as trimmed:
        for info in source.infolist():
            name = info.filename
            if name.startswith("babel/locale-data/") and name not in keep:
                continue
            data = source.read(info)
            if name.endswith(".dist-info/RECORD"):
                data = b"".join(
                    line for line in data.splitlines(keepends=True)
                    if not line.startswith(b"babel/locale-data/")
                    or line.split(b",", 1)[0].decode() in keep
                )
            trimmed.writestr(info, data)


def take5rules_wheel(folder: Path) -> Path:
    """The take5rules wheel, built from this repository (catalogs compiled by the build hook)."""
    done = subprocess.run(
        [sys.executable, "-m", "pip", "wheel", "--quiet", "--no-deps", "--no-build-isolation",
         "-w", str(folder), str(ROOT)],
        capture_output=True, text=True, check=False,
        env={**os.environ, "PIP_NO_INDEX": "1"},
    )
    wheels = sorted(folder.glob("take5rules-*.whl"))
    if done.returncode != 0 or not wheels:
        raise PluginError(f"docs/play_bundle.py: building the take5rules wheel failed:\n"
                          f"{done.stdout}{done.stderr}")
    return wheels[-1]


def prepare() -> Bundle:
    """Stage the bundle once per build process (the languages' builds share it)."""
    global _BUNDLE
    if _BUNDLE is not None:
        return _BUNDLE
    pinned = pins()
    found = pyodide_folder(pinned["pyodide"])
    babel = babel_wheel(pinned["babel"]) if isinstance(found, Path) else found
    if isinstance(found, str) or isinstance(babel, str):
        reason = found if isinstance(found, str) else str(babel)
        log.info("take5rules docs: the Play page is built without its runtime: %s", reason)
        _BUNDLE = Bundle(reason=reason)
        return _BUNDLE
    stage = Path(tempfile.mkdtemp(prefix="take5play-"))
    (stage / "pyodide").mkdir()
    for name, digest in pinned["pyodide"]["files"].items():
        shutil.copyfile(checked(found / name, digest), stage / "pyodide" / name)
    wheels = stage / "wheels"
    wheels.mkdir()
    trim_babel(babel, wheels / babel.name)
    built = take5rules_wheel(wheels)
    for name in SOURCES:
        shutil.copyfile(PLAY / name, stage / name)
    manifest = {
        "pyodide": pinned["pyodide"]["version"],
        "wheels": [f"wheels/{babel.name}", f"wheels/{built.name}"],
        "module": "take5play.py",
    }
    (stage / "bundle.json").write_text(json.dumps(manifest, indent=1), encoding="utf-8")
    files = {path.relative_to(stage).as_posix(): path.stat().st_size
             for path in sorted(stage.rglob("*")) if path.is_file()}
    _BUNDLE = Bundle(stage, files=files)
    return _BUNDLE


def on_config(config: MkDocsConfig) -> MkDocsConfig:
    """Stage the bundle; tell docs/gen_pages.py (through ``extra``) whether there is one."""
    bundle = prepare()
    config.extra["take5play"] = {"ready": bundle.ready, "reason": bundle.reason,
                                 "target": TARGET}
    return config


def on_post_build(config: MkDocsConfig) -> None:
    """Copy the bundle into the site's root, once (in the default language's build)."""
    bundle = prepare()
    plugin = config.plugins.get("i18n")
    if bundle.folder is None or (plugin is not None and not plugin.is_default_language_build):
        return
    target = Path(config.site_dir) / TARGET
    if target.exists():
        shutil.rmtree(target)
    shutil.copytree(bundle.folder, target)
    for name in SOURCES:  # fresh, for `mkdocs serve` while editing them
        shutil.copyfile(PLAY / name, target / name)
