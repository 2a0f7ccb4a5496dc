"""Translator workflow: extract the messages, update the catalogs, compile them.

    python scripts/catalogs.py extract   # src -> locales/take5rules.pot
    python scripts/catalogs.py update    # .pot -> every locales/<lang>/LC_MESSAGES/take5rules.po
    python scripts/catalogs.py init LANG # start a new language's catalog
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


def init(language: str) -> None:
    pybabel("init", "-i", str(POT), "-d", str(ROOT / "locales"), "-D", DOMAIN, "-l", language,
            "-w", "100")


def compile_all() -> None:
    sys.path.insert(0, str(ROOT))
    from hatch_build import compile_catalogs

    for path in compile_catalogs(ROOT):
        print(path.relative_to(ROOT))


if __name__ == "__main__":
    command = sys.argv[1] if len(sys.argv) > 1 else ""
    if command == "extract":
        extract()
    elif command == "update":
        update()
    elif command == "init" and len(sys.argv) == 3:
        init(sys.argv[2])
    elif command == "compile":
        compile_all()
    else:
        sys.exit(__doc__)
