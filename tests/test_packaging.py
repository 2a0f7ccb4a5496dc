"""A light library: no module of it imports the command line or an optional package.

A program that depends on take5rules imports its modules; the command line (click), the
progress bars (rich), the generators of the conformance tool (hypothesis) and the JSON Schema
explanation of a malformed log (jsonschema) must not come with them. Each module is imported
in a fresh interpreter, and its ``sys.modules`` is inspected.
"""

from __future__ import annotations

import pkgutil
import subprocess
import sys
from pathlib import Path

import pytest

import take5rules
from take5rules.cli.main import COMMANDS, all_commands

#: The modules of the command line, which may import click (and, when installed, rich).
CLI_SIDE = ("take5rules.cli.main", "take5rules.__main__", "take5rules.cli.common",
            "take5rules.cli")
#: Modules whose purpose is an optional package: Hypothesis strategies, the pytest plugin, the
#: MCP server and its stdio transport (the mcp SDK brings its own click). Each is an extra of its
#: own.
FOR_A_TOOL = ("take5rules.conformance.strategies", "take5rules.conformance.plugin",
              "take5rules.agents.mcp_server",
              "take5rules.agents.mcp_stdio")
#: What importing a library module must never import.
FORBIDDEN = ("click", "rich", "hypothesis", "jsonschema")

LIBRARY = sorted(
    module.name for module in pkgutil.walk_packages(take5rules.__path__, "take5rules.")
    if not module.name.startswith(CLI_SIDE) and module.name not in FOR_A_TOOL
)

PROBE = """
import importlib, sys
importlib.import_module(sys.argv[1])
print(" ".join(sorted({name.partition(".")[0] for name in sys.modules} & set(sys.argv[2:]))))
"""


def _imported(module: str, *names: str) -> set[str]:
    """Which of *names* importing *module* in a fresh interpreter brings into sys.modules."""
    done = subprocess.run([sys.executable, "-c", PROBE, module, *names], capture_output=True,
                          text=True, timeout=120, check=False)
    assert done.returncode == 0, done.stderr
    return set(done.stdout.split())


def test_the_library_is_every_module_but_the_command_line() -> None:
    for module in ("take5rules", "take5rules.playing.engine", "take5rules.logs.validator",
                   "take5rules.conformance.run", "take5rules.conformance.vectors",
                   "take5rules.conformance.referee", "take5rules.logs"):
        assert module in [*LIBRARY, "take5rules"], module
    assert not any(module.startswith(CLI_SIDE) for module in LIBRARY)


@pytest.mark.parametrize("module", ["take5rules", *LIBRARY])
def test_a_library_module_imports_no_cli_and_no_optional_package(module: str) -> None:
    assert _imported(module, *FORBIDDEN) == set()


def test_the_probe_sees_an_import() -> None:
    # the check above would pass vacuously if the probe could not see anything
    assert _imported("take5rules.cli.main", *FORBIDDEN) == {"click"}
    assert _imported("take5rules.conformance.strategies", *FORBIDDEN) == {"hypothesis"}


HELP = """
import sys
from take5rules.cli.main import main
main(["--help"], standalone_mode=False)
print(" ".join(sorted(name for name in sys.modules
                      if name.startswith(("babel", "take5rules.text"))
                      or name.startswith("take5rules.cli.") and name.endswith("_cmd"))))
"""


def test_help_lists_the_commands_without_importing_them() -> None:
    done = subprocess.run([sys.executable, "-c", HELP], capture_output=True, text=True,
                          timeout=120, check=True)
    *help_lines, imported = done.stdout.splitlines()
    assert imported == ""
    listed = [line.split()[0] for line in help_lines if line.startswith("  ") and line.split()]
    assert set(COMMANDS) <= set(listed)


def test_each_listed_help_line_is_the_commands_own() -> None:
    commands = all_commands()
    assert list(commands) == list(COMMANDS)
    for name, command in commands.items():
        assert command.name == name
        own = (command.help or "").split("\n\n")[0].replace("\n", " ")
        assert COMMANDS[name][2] == own, name


def test_the_licence_is_mit_for_the_take5rules_developers() -> None:
    text = (Path(__file__).resolve().parent.parent / "LICENSE").read_text(encoding="utf-8")
    assert text.startswith("MIT License\n\nCopyright (c) 2026 take5rules developers\n")
    assert "THE SOFTWARE IS PROVIDED \"AS IS\", WITHOUT WARRANTY OF ANY KIND" in text


def test_the_version_is_the_same_in_pyproject_the_package_and_the_changelog() -> None:
    # One version, said three times where tools read it: a release that bumps one and not the
    # others fails here.
    import re
    import tomllib

    root = Path(__file__).resolve().parent.parent
    declared = tomllib.loads((root / "pyproject.toml").read_text(encoding="utf-8"))
    changelog = (root / "CHANGELOG.md").read_text(encoding="utf-8")
    newest = re.search(r"^## \[(\d+\.\d+\.\d+)\]", changelog, re.MULTILINE)
    assert newest is not None, "CHANGELOG.md has no '## [X.Y.Z]' section"
    assert declared["project"]["version"] == take5rules.__version__ == newest.group(1)
