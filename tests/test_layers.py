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
#: A module may import its own layer and the layers below it, never a layer above. The
#: contributing page's table of the layers is generated from this definition.
LAYERS: tuple[tuple[str, frozenset[str]], ...] = (
    ("foundations", frozenset({"_kernel", "_messages", "errors", "registry"})),
    ("rules", frozenset({"cards", "table", "turn", "setup", "round", "game", "variants"})),
    ("events", frozenset({"events"})),
    ("text", frozenset({"text"})),
    ("logs", frozenset({"logs"})),
    ("playing", frozenset({"playing"})),
    ("conformance", frozenset({"conformance"})),
    ("agents", frozenset({"agents"})),
    ("cli", frozenset({"cli", "__main__"})),
)
#: The package itself: its ``__init__`` is the public surface, at the level of playing:
#: ``import take5rules`` brings no conformance tool, no agent and no command line.
FACADE = "take5rules"
FACADE_LEVEL = 5  # "playing"

#: Stricter than the order of the layers: what these modules may import of take5rules.
ONLY: dict[str, frozenset[str]] = {
    "_kernel": frozenset(),
    "_messages": frozenset(),
    "errors": frozenset({"_messages"}),
    "registry": frozenset({"_messages", "errors"}),
    # The text (narration, rulebook, typography, pictures) tells the core's values and events;
    # it knows nothing of logs, games being played, conformance or agents.
    "text": frozenset({"_kernel", "_messages", "errors", "registry", "cards", "table", "turn",
                       "setup", "round", "game", "variants", "events", "text"}),
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
        f"take5rules.{component} is in no layer: place it in LAYERS (tests/test_layers.py), "
        "which the contributing page's table is generated from")


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
            if target == "__version__" and module.startswith("take5rules.cli.main"):
                continue  # the version string, read from the package by ``--version``
            bad = _level(target) > own or (only is not None and target not in only)
            if bad:
                found.add((module, target))
    return found


def module_graph(modules: dict[str, Path]) -> dict[str, set[str]]:
    """Each module of take5rules and the modules of take5rules its source imports.

    An import names the deepest module that exists: ``from take5rules.playing import bots`` is
    an arrow to ``take5rules.playing.bots``, ``from take5rules.playing.bots import X`` too.
    """
    graph: dict[str, set[str]] = {}
    for module, path in modules.items():
        package = module if path.name == "__init__.py" else module.rpartition(".")[0]
        arrows: set[str] = set()
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"), str(path))):
            targets: list[str] = []
            if isinstance(node, ast.Import):
                targets = [alias.name for alias in node.names]
            elif isinstance(node, ast.ImportFrom):
                if node.level:
                    base = package.split(".")[: len(package.split(".")) - (node.level - 1)]
                    dotted = ".".join(base + ([node.module] if node.module else []))
                else:
                    dotted = node.module or ""
                targets = [f"{dotted}.{alias.name}" for alias in node.names]
            for dotted in targets:
                while dotted and dotted not in modules:
                    dotted = dotted.rpartition(".")[0]
                if dotted and dotted != module:
                    arrows.add(dotted)
        graph[module] = arrows
    return graph


def circles(graph: dict[str, set[str]]) -> list[list[str]]:
    """The import circles of *graph*: its strongly connected components of two or more modules."""
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    found: list[list[str]] = []

    def visit(module: str) -> None:  # Tarjan's algorithm
        index[module] = low[module] = len(index)
        stack.append(module)
        for target in sorted(graph.get(module, ())):
            if target not in index:
                visit(target)
                low[module] = min(low[module], low[target])
            elif target in stack:
                low[module] = min(low[module], index[target])
        if low[module] == index[module]:
            component = []
            while True:
                member = stack.pop()
                component.append(member)
                if member == module:
                    break
            if len(component) > 1:
                found.append(sorted(component))

    for module in sorted(graph):
        if module not in index:
            visit(module)
    return found


def private_imports(modules: dict[str, Path]) -> set[tuple[str, str]]:
    """Every (module, name) where *module* imports another module's private name ``_x``.

    A private module (``_kernel``, ``_messages``) may be imported by name: it is a module of the
    package. A private *name* defined in another module may not.
    """
    found = set()
    for module, path in modules.items():
        package = module if path.name == "__init__.py" else module.rpartition(".")[0]
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"), str(path))):
            if not isinstance(node, ast.ImportFrom):
                continue
            if node.level:
                base = package.split(".")[: len(package.split(".")) - (node.level - 1)]
                dotted = ".".join(base + ([node.module] if node.module else []))
            else:
                dotted = node.module or ""
            if not dotted.startswith("take5rules"):
                continue
            for alias in node.names:
                private = alias.name.startswith("_") and not alias.name.startswith("__")
                if private and f"{dotted}.{alias.name}" not in modules:
                    found.add((module, f"{dotted}.{alias.name}"))
    return found


def test_no_import_circles() -> None:
    assert circles(module_graph(_modules())) == []


def test_a_circle_is_found(tmp_path: Path) -> None:
    modules = _modules()
    tampered = tmp_path / "cards.py"
    tampered.write_text((SRC / "cards.py").read_text(encoding="utf-8")
                        + "\n\ndef _added() -> None:\n    from take5rules import table\n",
                        encoding="utf-8")
    modules["take5rules.cards"] = tampered
    assert ["take5rules.cards", "take5rules.table"] in circles(module_graph(modules))


def test_no_module_imports_another_modules_private_name() -> None:
    assert private_imports(_modules()) == set()


def test_a_private_import_is_found(tmp_path: Path) -> None:
    modules = _modules()
    tampered = tmp_path / "round.py"
    tampered.write_text((SRC / "round.py").read_text(encoding="utf-8")
                        + "\nfrom .table import _checked_rows\n", encoding="utf-8")
    modules["take5rules.round"] = tampered
    assert ("take5rules.round", "take5rules.table._checked_rows") in private_imports(modules)


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


@pytest.mark.parametrize(("source", "line", "target"), [
    ("_kernel.py", "from . import cards", "cards"),
    ("table.py", "from .events import CardPlaced", "events"),
    ("turn.py", "from .playing.stepper import Game", "playing"),
    ("setup.py", "from .text import narration", "text"),
    ("variants.py", "from take5rules.logs import format", "logs"),
    ("events.py", "from .playing.players import Player", "playing"),
    ("text/narration.py", "from ..logs.writer import LogWriter", "logs"),
    ("text/pictures.py", "from ..playing import engine", "playing"),
    ("logs/writer.py", "from ..playing import engine", "playing"),
    ("playing/stepper.py", "from ..conformance import referee", "conformance"),
    ("conformance/run.py", "from ..agents.batch import play_games", "agents"),
    ("agents/pettingzoo_env.py", "from ..cli.play_cmd import play", "cli"),
    ("__init__.py", "from .agents.pettingzoo_env import raw_env", "agents"),
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


#: Private attributes of other libraries that a module of ours may use: ``os._exit`` (the way
#: a forked worker ends) and Babel's ``Translations._catalog`` (the one way to ask whether a
#: catalog holds a message without translating it).
FOREIGN_PRIVATE: frozenset[tuple[str, str]] = frozenset({
    ("take5rules.agents.arena_pool", "_exit"),
    ("take5rules.text.negotiation", "_catalog"),
})


def _own_private_names(tree: ast.AST) -> set[str]:
    """The private names a module defines: ``self._x = ...``, class attributes, slots, defs."""
    names: set[str] = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.Attribute) and isinstance(node.ctx, ast.Store):
            names.add(node.attr)
        elif isinstance(node, ast.Name) and isinstance(node.ctx, ast.Store):
            names.add(node.id)
        elif isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef | ast.ClassDef):
            names.add(node.name)
        elif isinstance(node, ast.AnnAssign) and isinstance(node.target, ast.Name):
            names.add(node.target.id)
        elif isinstance(node, ast.Constant) and isinstance(node.value, str):
            names.add(node.value)  # __slots__ = ("_x", ...), namedtuple fields
    return {name for name in names if name.startswith("_") and not name.startswith("__")}


def private_reaches(modules: dict[str, Path]) -> set[tuple[str, str]]:
    """Every (module, attribute) where *module* reads another module's private attribute.

    ``obj._x`` is allowed only where the module itself defines ``_x`` (its own class's state,
    read on another instance of it, as ``__eq__`` or ``__copy__`` do), and on ``self``/``cls``.
    """
    found = set()
    for module, path in modules.items():
        tree = ast.parse(path.read_text(encoding="utf-8"), str(path))
        own = _own_private_names(tree)
        for node in ast.walk(tree):
            if not (isinstance(node, ast.Attribute) and node.attr.startswith("_")
                    and not node.attr.startswith("__")):
                continue
            if isinstance(node.value, ast.Name) and node.value.id in ("self", "cls"):
                continue
            if node.attr not in own and (module, node.attr) not in FOREIGN_PRIVATE:
                found.add((module, node.attr))
    return found


def test_no_module_reads_another_modules_private_state() -> None:
    assert private_reaches(_modules()) == set()


def test_a_private_reach_is_found(tmp_path: Path) -> None:
    modules = _modules()
    tampered = tmp_path / "engine.py"
    tampered.write_text((SRC / "playing" / "engine.py").read_text(encoding="utf-8")
                        + "\n\ndef _added(game: object) -> object:\n    return game._hands\n",
                        encoding="utf-8")
    modules["take5rules.playing.engine"] = tampered
    assert ("take5rules.playing.engine", "_hands") in private_reaches(modules)
