"""The agents page's table of the observation vector, written from ``take5rules.agents.encoding``.

The encoding module defines the vector once: ``_PARTS``, each part's name and width in order,
from which it lays out :data:`~take5rules.agents.encoding.OBSERVATION_LAYOUT`. This module reads
that definition from the module's source, without importing it (the encoding needs numpy, which
the docs do not: ``pip install ".[docs]"`` builds them): the widths are evaluated from the
names the module assigns or imports from take5rules, and the parts are laid end to end as the
module lays them. ``tests/test_docs_sources.py`` checks the result against the imported layout.

What each part holds, in the page's language, and the column headings come from the front
matter of each language's ``agents.md`` (``encoding:`` and ``labels:``): a part of the code that
the page does not describe, or a description of a part that is gone, is a problem that fails
the build.
"""

from __future__ import annotations

import ast
import importlib
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from pathlib import Path
from typing import Any

#: The name of the encoding module's definition of the parts: ``((name, width), ...)``.
DEFINITION = "_PARTS"
#: The column headings of the table, keys of the page's ``labels:``.
HEADINGS = ("part", "indices", "width", "holds")
#: The builtins a width may use.
_BUILTINS: dict[str, Any] = {"len": len, "tuple": tuple}


class LayoutError(ValueError):
    """The encoding module's source does not define its parts as this module reads them."""


@dataclass(frozen=True)
class Part:
    """One part of the observation vector: its name and where it lies (``start`` to ``stop``)."""

    name: str
    start: int
    stop: int

    @property
    def width(self) -> int:
        """The number of entries of the part."""
        return self.stop - self.start


class _Resolver:
    """The values of a module's top-level names, evaluated from its source."""

    def __init__(self, tree: ast.Module) -> None:
        self.assigned: dict[str, ast.expr] = {}
        self.imported: dict[str, tuple[str, str]] = {}
        for node in ast.walk(tree):
            if isinstance(node, ast.ImportFrom) and node.module and node.level == 0:
                for alias in node.names:
                    self.imported[alias.asname or alias.name] = (node.module, alias.name)
        for node in tree.body:
            if isinstance(node, ast.Assign) and len(node.targets) == 1:
                target = node.targets[0]
                if isinstance(target, ast.Name):
                    self.assigned[target.id] = node.value
            elif (isinstance(node, ast.AnnAssign) and node.value is not None
                  and isinstance(node.target, ast.Name)):
                self.assigned[node.target.id] = node.value
        self.values: dict[str, Any] = {}

    def value(self, name: str) -> Any:
        if name in self.values:
            return self.values[name]
        if name in self.assigned:
            found = self.evaluate(self.assigned[name])
        elif name in self.imported:
            module, attribute = self.imported[name]
            if not module.startswith("take5rules"):
                raise LayoutError(f"{name} comes from {module}, not from take5rules")
            try:
                found = getattr(importlib.import_module(module), attribute)
            except AttributeError:
                found = importlib.import_module(f"{module}.{attribute}")
        else:
            raise LayoutError(f"{name} is neither assigned nor imported at the top level")
        self.values[name] = found
        return found

    def evaluate(self, expression: ast.expr) -> Any:
        names = {node.id for node in ast.walk(expression) if isinstance(node, ast.Name)}
        scope = {name: self.value(name) for name in names - set(_BUILTINS)}
        code = compile(ast.Expression(expression), "<encoding layout>", "eval")
        # The project's own source, and only the builtins a width uses.
        return eval(code, {"__builtins__": _BUILTINS}, scope)


def read_layout(source: Path) -> tuple[Part, ...]:
    """The parts of the observation vector, in order, read from the encoding module's *source*.

    Args:
        source: The path of ``take5rules/agents/encoding.py``.

    Returns:
        Each part with its first index and the index after its last, laid end to end from 0.

    Raises:
        LayoutError: The source has no ``_PARTS`` of names and positive whole widths.
    """
    resolver = _Resolver(ast.parse(source.read_text(encoding="utf-8")))
    if DEFINITION not in resolver.assigned:
        raise LayoutError(f"{source.name} assigns no {DEFINITION}")
    definition = resolver.value(DEFINITION)
    parts: list[Part] = []
    start = 0
    for entry in definition:
        name, width = entry
        if not isinstance(name, str) or not isinstance(width, int) or width < 1:
            raise LayoutError(f"{DEFINITION} holds {entry!r}, not a name and a width of at least 1")
        parts.append(Part(name, start, start + width))
        start += width
    if not parts:
        raise LayoutError(f"{DEFINITION} is empty")
    return tuple(parts)


def read_holds(meta: Mapping[str, Any], parts: tuple[Part, ...], problem: Callable[[str], None],
               where: str) -> dict[str, str]:
    """What each part holds, from a page's front matter (``encoding:``).

    A part without a description, or a description of a part the code does not have, is a
    *problem* (a message naming *where*).

    Args:
        meta: The page's front matter.
        parts: The parts of the vector (:func:`read_layout`).
        problem: Called with each problem found.
        where: The page, as the problems name it.

    Returns:
        Each part's name with its description (its name where the page lacks one).
    """
    described = meta.get("encoding")
    described = described if isinstance(described, dict) else {}
    holds: dict[str, str] = {}
    names = [part.name for part in parts]
    for name in names:
        value = described.get(name)
        if isinstance(value, str) and value.strip():
            holds[name] = value.strip()
        else:
            problem(f"{where}: front matter 'encoding: {name}:' missing (the part is in "
                    f"take5rules.agents.encoding's {DEFINITION})")
            holds[name] = name
    for name in described:
        if name not in names:
            problem(f"{where}: front matter 'encoding: {name}:' describes a part that "
                    f"take5rules.agents.encoding's {DEFINITION} does not have")
    return holds


def indices(part: Part) -> str:
    """The indices of *part* as the table writes them: ``0–103``, or ``408`` for one entry."""
    last = part.stop - 1
    return str(part.start) if last == part.start else f"{part.start}\N{EN DASH}{last}"


def encoding_table(parts: tuple[Part, ...], holds: Mapping[str, str],
                   label: Callable[[str], str]) -> str:
    """The Markdown table of the vector: each part, its indices, its width and what it holds.

    Args:
        parts: The parts of the vector (:func:`read_layout`).
        holds: What each part holds, in the page's language (:func:`read_holds`).
        label: The page's heading of each of :data:`HEADINGS`.

    Returns:
        The table, one row a part in the vector's order.
    """
    lines = ["| " + " | ".join(label(key) for key in HEADINGS) + " |",
             "| --- | ---: | ---: | --- |"]
    for part in parts:
        text = holds.get(part.name, part.name).replace("|", "\\|")
        lines.append(f"| `{part.name}` | {indices(part)} | {part.width} | {text} |")
    return "\n".join(lines) + "\n"


def vector_size(parts: tuple[Part, ...]) -> int:
    """The length of the vector: the index after its last part."""
    return parts[-1].stop
