"""A plain install (no optional package): each module and command that needs an extra says
which, in one line, instead of a traceback naming a package the user never asked for."""

from __future__ import annotations

import os
import subprocess
import sys

import pytest

ENGLISH = {**os.environ, "LC_ALL": "C", "LANG": "C", "LANGUAGE": ""}


def _refusing(packages: tuple[str, ...]) -> str:
    """Python code that makes *packages* impossible to import, as on a plain install."""
    return f"""
import sys
class Refuse:
    def find_spec(self, name, path=None, target=None):
        if name.partition(".")[0] in {packages!r}:
            raise ModuleNotFoundError(f"No module named {{name!r}}", name=name)
sys.meta_path.insert(0, Refuse())
"""


def _run(code: str, *args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run([sys.executable, "-c", code, *args], capture_output=True, text=True,
                          check=False, timeout=120, env=ENGLISH)


@pytest.mark.slow
@pytest.mark.parametrize(("module", "packages", "extra", "named"), [
    ("take5rules.agents.batch", ("numpy",), "batch", "numpy"),
    ("take5rules.agents.batch.vector", ("numpy",), "batch", "numpy"),
    ("take5rules.agents.openspiel_game", ("pyspiel",), "openspiel", "pyspiel"),
    ("take5rules.conformance.strategies", ("hypothesis",), "conform", "hypothesis"),
    ("take5rules.agents.mcp_server", ("anyio", "mcp", "mcp_types"), "mcp", "mcp"),
])
def test_a_module_needing_an_extra_names_it(module: str, packages: tuple[str, ...],
                                            extra: str, named: str) -> None:
    probe = _run(_refusing(packages) + f"import {packages[0]}")
    assert probe.returncode == 1  # the probe works: the package cannot be imported
    code = _refusing(packages) + f"""
from take5rules.text.extras import MissingExtraError
try:
    import {module}
except MissingExtraError as error:
    print(error.rule, error.params["package"], error.params["extra"])
"""
    done = _run(code)
    assert done.returncode == 0, done.stderr
    assert done.stdout == f"extra {named} {extra}\n"


@pytest.mark.slow
def test_mcp_on_a_plain_install_is_one_line_naming_the_extra() -> None:
    code = _refusing(("anyio", "mcp", "mcp_types")) + (
        "from take5rules.cli.main import main\nmain(prog_name='take5rules')")
    done = _run(code, "mcp")
    assert done.returncode == 2
    assert done.stdout == ""
    lines = done.stderr.splitlines()
    assert len(lines) == 1, done.stderr
    assert lines[0].startswith("take5rules.agents.mcp_server needs the optional package mcp; "
                               "install it with: pip install 'take5rules[mcp]'")
    assert "anyio" not in done.stderr
