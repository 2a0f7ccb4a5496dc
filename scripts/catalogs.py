"""Translator workflow: extract the messages, update the catalogs, compile them.

    python scripts/catalogs.py extract   # src -> locales/take5rules.pot
    python scripts/catalogs.py update    # .pot -> every locales/<lang>/LC_MESSAGES/take5rules.po
    python scripts/catalogs.py init LANG # start a new language's catalog (never overwrites:
                                         # an existing one is refused; --force to start over)
    python scripts/catalogs.py compile   # .po -> src/take5rules/_locales (the install does this)

English is the source language: ``update`` fills the English catalog's translations with the
msgids themselves, so that every catalog, English included, is complete.
"""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

from babel.messages.pofile import read_po, write_po

ROOT = Path(__file__).resolve().parent.parent
POT = ROOT / "locales" / "take5rules.pot"
DOMAIN = "take5rules"


def pybabel(*args: str) -> None:
    subprocess.run([sys.executable, "-m", "babel.messages.frontend", *args], check=True)


def extract() -> None:
    pybabel(
        "extract", "-F", str(ROOT / "babel.cfg"), "-k", "N_", "-k", "Nn_:1,2",
        "--no-location", "--sort-output", "--project", "take5rules",
        # Babel skips directories named _* by default; the commands live in take5rules/_commands
        "--ignore-dirs", ".* __pycache__ _locales",
        "--copyright-holder", "take5rules developers", "--msgid-bugs-address", "",
        "-o", str(POT), str(ROOT / "src"),
    )


def fill_english() -> None:
    path = ROOT / "locales" / "en" / "LC_MESSAGES" / f"{DOMAIN}.po"
    with path.open("rb") as handle:
        catalog = read_po(handle, locale="en")
    for message in catalog:
        if message.id:
            message.string = message.id
            message.flags.discard("fuzzy")
    with path.open("wb") as handle:
        write_po(handle, catalog, width=100, omit_header=False, sort_output=True)


def update() -> None:
    pybabel("update", "-i", str(POT), "-d", str(ROOT / "locales"), "-D", DOMAIN,
            "--no-fuzzy-matching", "-w", "100", "--ignore-obsolete")
    fill_english()


def catalog_path(language: str) -> Path:
    """The .po file of *language*."""
    return ROOT / "locales" / language / "LC_MESSAGES" / f"{DOMAIN}.po"


def init(language: str, *, force: bool = False) -> int:
    """Start the catalog of *language* from the .pot; refuse to overwrite one (exit status 1).

    ``pybabel init`` writes an empty catalog over an existing one, losing every translation:
    an existing catalog is only replaced with *force*. To bring it up to date, use ``update``.
    """
    path = catalog_path(language)
    if path.exists() and not force:
        print(f"{path.relative_to(ROOT)} exists: `init` would replace it with an empty catalog "
              "and lose its translations.\nTo add the new messages to it, run: python "
              "scripts/catalogs.py update\nTo start it over anyway, run: python "
              f"scripts/catalogs.py init {language} --force", file=sys.stderr)
        return 1
    pybabel("init", "-i", str(POT), "-d", str(ROOT / "locales"), "-D", DOMAIN, "-l", language,
            "-w", "100")
    return 0


def compile_all() -> None:
    sys.path.insert(0, str(ROOT))
    from hatch_build import compile_catalogs

    for path in compile_catalogs(ROOT):
        print(path.relative_to(ROOT))


def main(argv: list[str]) -> int:
    """Run the command of *argv* (without the program name); return the exit status."""
    command, arguments = (argv[0], argv[1:]) if argv else ("", [])
    if command == "extract" and not arguments:
        extract()
    elif command == "update" and not arguments:
        update()
    elif command == "init" and arguments and set(arguments[1:]) <= {"--force"} \
            and not arguments[0].startswith("-"):
        return init(arguments[0], force="--force" in arguments[1:])
    elif command == "compile" and not arguments:
        compile_all()
    else:
        print(__doc__, file=sys.stderr)
        return 2
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
