"""The layers of the library: data flows one way, and the imports say so.

The rule core (the kernel, the rule modules, the events, the game) knows nothing of the text,
the game logs, the pictures, the conformance tool, the agents or the command line; the tools
around it use it and never the other way round. This test reads every ``import`` of every
source file with :mod:`ast` (including the imports inside functions and under
``TYPE_CHECKING``) and fails on any import against the layers drawn on the contributing page
("Architecture: the layers", ``docs/<lang>/contributing.md``). A new module must be placed in a
layer here and in that table.
"""

from __future__ import annotations

import ast
from pathlib import Path

import pytest

SRC = Path(__file__).resolve().parent.parent / "src" / "take5rules"

#: Each layer, lowest first, and the top-level modules and packages of ``take5rules`` in it.
#: A module may import its own layer and the layers below it, never a layer above.
LAYERS: tuple[tuple[str, frozenset[str]], ...] = (
    ("foundations", frozenset({"_kernel", "_text", "errors", "registry"})),
    ("rules", frozenset({"cards", "table", "turn", "setup", "round", "game", "variants"})),
    ("events", frozenset({"events"})),
    ("game", frozenset({"state", "_moves", "_state_json", "_views", "players", "engine", "belief",
                        "bots", "ismcts"})),
    ("tools", frozenset({
        "text", "i18n",                                        # text
        "logs", "log", "validate", "defects", "vectors", "_logread",  # game logs
        "conformance", "conform", "referee", "pytest_plugin",  # conformance
        "attribution", "examples", "random_turns", "strategies",
        "svg", "replay",                                       # pictures, a saved game told
    })),
    ("agents", frozenset({
        "batch", "env", "gym_env", "openspiel", "mcp_server", "arena", "human",
        "_bots", "_env_obs", "_openspiel_core", "_openspiel_view", "_mcp_seat", "_mcp_stdio",
        "_arguments", "_extras", "_arenapool", "_arenaseats", "_arenastore", "ladder",
    })),
    ("cli", frozenset({"cli", "__main__", "_commands", "_clitools", "_clickframe"})),
)
#: The package itself: its ``__init__`` is the public surface, above the tools, below the
#: agents: ``import take5rules`` brings no agent and no command line.
FACADE = "take5rules"
FACADE_LEVEL = 4  # "tools"

#: Stricter than the order of the layers: what these modules may import of take5rules.
ONLY: dict[str, frozenset[str]] = {
    "_kernel": frozenset(),
    "_text": frozenset(),
    "errors": frozenset({"_text"}),
    "registry": frozenset({"_text", "errors"}),
    # The text (narration, rulebook, typography) tells the core's values and events; it knows
    # nothing of logs, conformance or pictures.
    "text": frozenset({"_kernel", "_text", "errors", "registry", "cards", "table", "turn",
                       "setup", "round", "game", "variants", "events", "text"}),
    "i18n": frozenset({"text"}),
    # The pictures draw the table: the rule modules, nothing above them.
    "svg": frozenset({"_kernel", "_text", "errors", "registry", "cards", "table", "turn",
                      "setup", "round", "game", "variants"}),
}

#: The imports against the layers found today, each reported to be moved. The test fails when
#: one of them is gone (take it off this list) as when a new one comes.
KNOWN: frozenset[tuple[str, str]] = frozenset({
    # round.play_turn builds the turn's events: a rule module above which the events sit.
    ("take5rules.round", "events"),
})


def _level(component: str) -> int:
    for level, (_, members) in enumerate(LAYERS):
        if component in members:
            return level
    raise AssertionError(
        f"take5rules.{component} is in no layer: place it in tests/test_layers.py and in the "
        "table of docs/<lang>/contributing.md")


def _modules() -> dict[str, Path]:
    modules = {}
    for path in sorted(SRC.rglob("*.py")):
        parts = path.relative_to(SRC.parent).with_suffix("").parts
        if parts[-1] == "__init__":
            parts = parts[:-1]
        modules[".".join(parts)] = path
    return modules


def imports_of(module: str, path: Path) -> set[str]:
    """The top-level components of ``take5rules`` that *module*'s source imports."""
    package = module if path.name == "__init__.py" else module.rpartition(".")[0]
    found: set[str] = set()

    def add(dotted: str, names: tuple[str, ...] = ()) -> None:
        parts = dotted.split(".")
        if parts[0] != "take5rules":
            return
        if len(parts) > 1:
            found.add(parts[1])
        else:  # from take5rules import x / from . import x in the package itself
            found.update(name for name in names if name != "*")

    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"), str(path))):
        if isinstance(node, ast.Import):
            for alias in node.names:
                add(alias.name)
        elif isinstance(node, ast.ImportFrom):
            if node.level:
                base = package.split(".")[: len(package.split(".")) - (node.level - 1)]
                dotted = ".".join(base + ([node.module] if node.module else []))
            else:
                dotted = node.module or ""
            add(dotted, tuple(alias.name for alias in node.names))
    return found


def violations(modules: dict[str, Path]) -> set[tuple[str, str]]:
    """Every (module, imported component) pair that goes against :data:`LAYERS` or :data:`ONLY`."""
    found = set()
    for module, path in modules.items():
        if module == FACADE:
            own, only = FACADE_LEVEL, None
        else:
            component = module.split(".")[1]
            own, only = _level(component), ONLY.get(component)
        for target in imports_of(module, path):
            if target == "__version__" and module.startswith("take5rules.cli"):
                continue  # the version string, read from the package by ``--version``
            bad = _level(target) > own or (only is not None and target not in only)
            if bad:
                found.add((module, target))
    return found


def test_every_module_is_in_one_layer() -> None:
    placed = [name for _, members in LAYERS for name in members]
    assert len(placed) == len(set(placed))
    tops = {module.split(".")[1] for module in _modules() if module != FACADE}
    for component in sorted(tops):
        _level(component)
    assert set(placed) <= tops, sorted(set(placed) - tops)


def test_imports_follow_the_layers() -> None:
    assert violations(_modules()) == KNOWN


def test_the_kernel_imports_nothing_of_take5rules() -> None:
    assert imports_of("take5rules._kernel", SRC / "_kernel.py") == set()


def test_registry_loads_only_rule_modules() -> None:
    """The registry imports the rule modules by name to gather their rules; only those."""
    from take5rules import registry

    assert {_level(module) for module in registry._MODULES} == {1}


RULES = LAYERS[1][1]


def private_names_taken(path: Path) -> set[str]:
    """The private names (``_x``) a rule module imports from another rule module."""
    own = path.stem
    taken: set[str] = set()
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"), str(path))):
        if isinstance(node, ast.ImportFrom) and node.module is not None:
            source = node.module.removeprefix("take5rules.") if not node.level else node.module
            if source in RULES and source != own:
                taken.update(f"{source}.{alias.name}" for alias in node.names
                             if alias.name.startswith("_"))
    return taken


def test_rule_modules_take_no_private_name_of_each_other() -> None:
    for component in sorted(RULES):
        assert private_names_taken(SRC / f"{component}.py") == set(), component


def test_a_private_name_taken_is_found(tmp_path: Path) -> None:
    tampered = tmp_path / "round.py"
    tampered.write_text((SRC / "round.py").read_text(encoding="utf-8")
                        + "\nfrom .table import _checked_rows\n", encoding="utf-8")
    assert private_names_taken(tampered) == {"table._checked_rows"}


@pytest.mark.parametrize(("source", "line", "target"), [
    ("_kernel.py", "from . import cards", "cards"),
    ("table.py", "from .events import CardPlaced", "events"),
    ("turn.py", "from .state import Game", "state"),
    ("setup.py", "from .text import narration", "text"),
    ("variants.py", "from take5rules.logs import format", "logs"),
    ("events.py", "from .players import Player", "players"),
    ("state.py", "from .i18n import narrate", "i18n"),
    ("text/narration.py", "from ..logs.writer import LogWriter", "logs"),
    ("svg.py", "from .events import Event", "events"),
    ("logs/writer.py", "from .. import arena", "arena"),
    ("conformance/run.py", "from ..batch import play_games", "batch"),
    ("env.py", "from ._commands.play import play", "_commands"),
    ("__init__.py", "from .env import raw_env", "env"),
])
def test_a_forbidden_import_is_found(source: str, line: str, target: str,
                                    tmp_path: Path) -> None:
    """An import added against the layers makes :func:`violations` report it."""
    modules = _modules()
    module = next(name for name, path in modules.items() if path == SRC / source)
    assert (module, target) not in violations(modules)
    tampered = tmp_path / source  # the same file name: an ``__init__`` stays a package
    tampered.parent.mkdir(parents=True, exist_ok=True)
    tampered.write_text((SRC / source).read_text(encoding="utf-8")
                        + "\n\ndef _added() -> None:\n    " + line + "\n", encoding="utf-8")
    modules[module] = tampered
    assert (module, target) in violations(modules)
