"""Build hook: compile the gettext catalogs of ``locales/`` into the package.

The ``.po`` sources live at the top of the repository (``locales/<lang>/LC_MESSAGES/``); every
build, the wheel and the editable install alike, compiles them with Babel into
``src/take5rules/_locales/<lang>/LC_MESSAGES/take5rules.mo``, which the wheel ships.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

from babel.messages.mofile import write_mo
from babel.messages.pofile import read_po
from hatchling.builders.hooks.plugin.interface import BuildHookInterface

DOMAIN = "take5rules"


def compile_catalogs(root: Path) -> list[Path]:
    """Compile every ``locales/*/LC_MESSAGES/take5rules.po`` under *root*; return the .mo paths."""
    written = []
    target_root = root / "src" / "take5rules" / "_locales"
    for po_path in sorted((root / "locales").glob(f"*/LC_MESSAGES/{DOMAIN}.po")):
        language = po_path.parent.parent.name
        with po_path.open("rb") as handle:
            catalog = read_po(handle, locale=language, domain=DOMAIN)
        target = target_root / language / "LC_MESSAGES" / f"{DOMAIN}.mo"
        target.parent.mkdir(parents=True, exist_ok=True)
        with target.open("wb") as handle:
            write_mo(handle, catalog, use_fuzzy=False)
        written.append(target)
    return written


class CustomBuildHook(BuildHookInterface):  # type: ignore[type-arg]
    PLUGIN_NAME = "custom"

    def initialize(self, version: str, build_data: dict[str, Any]) -> None:
        root = Path(self.root)
        written = compile_catalogs(root)
        if version == "editable":
            return  # the editable install imports src/ in place, catalogs included
        for path in written:
            relative = path.relative_to(root / "src").as_posix()
            build_data["force_include"][str(path)] = relative


if __name__ == "__main__":
    for path in compile_catalogs(Path(__file__).parent):
        print(path)
