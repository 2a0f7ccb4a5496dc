"""Translator workflow: extract the messages, update the catalogs, compile them.

    python scripts/catalogs.py extract   # src -> locales/take5rules.pot
    python scripts/catalogs.py update    # .pot -> every locales/<lang>/LC_MESSAGES/take5rules.po
    python scripts/catalogs.py init LANG # start a new language's catalog (never overwrites:
                                         # an existing one is refused; --force to start over)
    python scripts/catalogs.py compile   # .po -> src/take5rules/_locales (the install does this)

English is the source language: ``update`` fills the English catalog's translations with the
msgids themselves, so that every catalog, English included, is complete.

``extract`` then ``update`` on an up-to-date checkout change nothing: every file's header is
written in one canonical form (the project's own fields, no creation date and no Babel version,
which would change at every run or with every Babel), and only a changed message changes a file.
"""

from __future__ import annotations

import re
import subprocess
import sys
from pathlib import Path

from babel import Locale
from babel.messages.pofile import read_po, write_po

ROOT = Path(__file__).resolve().parent.parent
POT = ROOT / "locales" / "take5rules.pot"
DOMAIN = "take5rules"
PROJECT = "take5rules"
TEAM = "take5rules developers"
#: The comment above every header (Babel's ``FIRST AUTHOR <EMAIL@ADDRESS>`` line left out).
COMMENT = ("# {title} for take5rules.\n# Copyright (C) 2026 take5rules developers\n"
           "# This file is distributed under the same license as the take5rules project.\n")
#: The header entry: comments, flags, ``msgid ""`` and its quoted lines, up to the first blank line.
HEADER = re.compile(r'\A(?:#[^\n]*\n)*msgid ""\nmsgstr ""\n(?:"[^\n]*"\n)*')


def pybabel(*args: str) -> None:
    subprocess.run([sys.executable, "-m", "babel.messages.frontend", *args], check=True)


def _fields(header: str) -> dict[str, str]:
    """The fields of a header entry's msgstr, by name."""
    text = "".join(re.findall(r'^"(.*)"$', header, flags=re.MULTILINE))
    lines = text.replace("\\\"", "\"").split("\\n")
    return dict(line.split(": ", 1) for line in lines if ": " in line)


def canonical_header(text: str, language: str | None) -> str:
    """*text* (a .po, or the .pot when *language* is None) with its header in canonical form.

    The fields that depend on nothing but the project and the language are written here; the
    translator's own (``PO-Revision-Date``, ``Plural-Forms``) are kept; the rest is left out.
    """
    match = HEADER.match(text)
    if match is None:
        return text
    old = _fields(match.group())
    if language is None:
        comment, flags = COMMENT.format(title="Translations template"), "#, fuzzy\n"
        fields = {"Project-Id-Version": PROJECT}
    else:
        name = Locale.parse(language).english_name
        comment, flags = COMMENT.format(title=f"{name} translations"), ""
        fields = {"Project-Id-Version": PROJECT}
        if "PO-Revision-Date" in old:
            fields["PO-Revision-Date"] = old["PO-Revision-Date"]
        fields |= {"Last-Translator": TEAM, "Language-Team": f"{name} ({TEAM})",
                   "Language": language}
        if "Plural-Forms" in old:
            fields["Plural-Forms"] = old["Plural-Forms"]
    fields |= {"MIME-Version": "1.0", "Content-Type": "text/plain; charset=utf-8",
               "Content-Transfer-Encoding": "8bit"}
    body = "".join(f'"{key}: {value}\\n"\n' for key, value in fields.items())
    return f'{comment}{flags}msgid ""\nmsgstr ""\n{body}' + text[match.end():]


def canonicalize(path: Path, language: str | None) -> None:
    """Rewrite the header of the catalog at *path* in canonical form (only if it changes)."""
    text = path.read_text(encoding="utf-8")
    canonical = canonical_header(text, language)
    if canonical != text:
        path.write_text(canonical, encoding="utf-8")


def catalogs() -> list[tuple[str, Path]]:
    """Every language with a catalog under locales/, and its .po file."""
    return [(path.parent.parent.name, path)
            for path in sorted((ROOT / "locales").glob(f"*/LC_MESSAGES/{DOMAIN}.po"))]


def extract() -> None:
    pybabel(
        "extract", "-F", str(ROOT / "babel.cfg"), "-k", "N_", "-k", "Nn_:1,2",
        "--no-location", "--sort-output", "--project", "take5rules",
        # Babel skips directories named _* by default; the commands live in take5rules/_commands
        "--ignore-dirs", ".* __pycache__ _locales",
        "--copyright-holder", "take5rules developers", "--msgid-bugs-address", "",
        "-o", str(POT), str(ROOT / "src"),
    )
    canonicalize(POT, None)


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
    for language, path in catalogs():
        canonicalize(path, language)


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
    canonicalize(path, language)
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
