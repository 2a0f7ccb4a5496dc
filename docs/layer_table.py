"""The contributing page's table of the layers, written from ``tests/test_layers.py``.

``tests/test_layers.py`` is where a maintainer places a module in a layer (``LAYERS``, lowest
first) and narrows what some modules may import (``ONLY``); the test enforces it. This module
reads those definitions from the test's source, without importing it (the test imports pytest,
which the docs do not need), and draws the table: each layer, what it holds (in the page's
language), its modules and packages with the modules of each package as they are on disk, and
what it may import of take5rules.

What each layer holds, and the layer's name, come from the front matter of each language's
``contributing.md`` (``layers:``): a layer of the test that the page does not describe, or a
description of a layer that is gone, is a problem that fails the build.
"""

from __future__ import annotations

import ast
from collections.abc import Callable, Iterable, Mapping
from dataclasses import dataclass
from pathlib import Path
from typing import Any

#: The names of ``tests/test_layers.py`` the table is drawn from.
DEFINITIONS = ("LAYERS", "ONLY", "FACADE", "FACADE_LEVEL")


@dataclass(frozen=True)
class Layers:
    """The layer definition of ``tests/test_layers.py``."""

    layers: tuple[tuple[str, frozenset[str]], ...]
    only: Mapping[str, frozenset[str]]
    facade: str
    facade_level: int


def read_layers(test_file: Path) -> Layers:
    """``LAYERS``, ``ONLY``, ``FACADE`` and ``FACADE_LEVEL`` of *test_file*, read from its source.

    Each is a literal made of tuples, strings, numbers, dicts and ``frozenset({...})`` calls;
    it is evaluated with nothing but ``frozenset`` in scope.
    """
    tree = ast.parse(test_file.read_text(encoding="utf-8"), filename=str(test_file))
    found: dict[str, Any] = {}
    for node in tree.body:
        if isinstance(node, ast.Assign):
            targets, value = node.targets, node.value
        elif isinstance(node, ast.AnnAssign) and node.value is not None:
            targets, value = [node.target], node.value
        else:
            continue
        for target in targets:
            if isinstance(target, ast.Name) and target.id in DEFINITIONS:
                code = compile(ast.Expression(value), str(test_file), "eval")
                found[target.id] = eval(code, {"__builtins__": {}, "frozenset": frozenset})
    missing = [name for name in DEFINITIONS if name not in found]
    if missing:
        raise ValueError(f"{test_file} does not define {', '.join(missing)}")
    return Layers(tuple(found["LAYERS"]), dict(found["ONLY"]), str(found["FACADE"]),
                  int(found["FACADE_LEVEL"]))


def _order(name: str) -> tuple[bool, str]:
    """Modules in a cell: public names first, then the private ones, each alphabetically."""
    return (name.startswith("_"), name)


def package_modules(package_dir: Path, component: str) -> list[str] | None:
    """The modules of the package *component* (dotted below it, subpackages as ``sub/``), or
    ``None`` when *component* is a module."""
    folder = package_dir / component
    if not folder.is_dir():
        return None
    names: list[str] = []
    for path in sorted(folder.rglob("*.py")):
        if "__pycache__" in path.parts:
            continue
        parts = path.relative_to(folder).with_suffix("").parts
        if parts[-1] == "__init__":
            if len(parts) > 1:
                names.append("/".join(parts[:-1]) + "/")
            continue
        names.append(".".join(parts))
    return sorted(names, key=lambda name: _order(name.replace("/", ".")))


@dataclass(frozen=True)
class Words:
    """What one language calls things in the table.

    ``titles`` and ``holds`` map each layer (and the facade, under its name) to its title and
    to what it holds; ``label`` gives the table's headings and the words ``nothing`` and
    ``own-layer``; ``labelled`` punctuates ``name: value`` as the language does.
    """

    titles: Mapping[str, str]
    holds: Mapping[str, str]
    label: Callable[[str], str]
    labelled: Callable[[str, str], str]


def read_words(meta: Mapping[str, Any], label: Callable[[str], str], names: Iterable[str],
               labelled: Callable[[str, str], str], problem: Callable[[str], None],
               where: str) -> Words:
    """The ``layers:`` front matter of a page: each of *names* with its ``title`` and ``holds``.

    A name without both, or a layer the page describes that *names* lacks, is a *problem*.
    """
    described = meta.get("layers")
    described = described if isinstance(described, dict) else {}
    titles: dict[str, str] = {}
    holds: dict[str, str] = {}
    wanted = list(names)
    for name in wanted:
        entry = described.get(name)
        entry = entry if isinstance(entry, dict) else {}
        for key, into in (("title", titles), ("holds", holds)):
            value = entry.get(key)
            if isinstance(value, str) and value.strip():
                into[name] = value.strip()
            else:
                problem(f"{where}: front matter 'layers: {name}: {key}:' missing (the layer "
                        "is in tests/test_layers.py)")
                into[name] = name
    for name in described:
        if name not in wanted:
            problem(f"{where}: front matter 'layers: {name}:' describes a layer that "
                    "tests/test_layers.py does not have")
    return Words(titles, holds, label, labelled)


def _code(name: str, link: Callable[[str], str | None], dotted: str) -> str:
    target = link(dotted)
    return f"[`{name}`]({target})" if target else f"`{name}`"


def modules_cell(component: str, package_dir: Path, link: Callable[[str], str | None]) -> str:
    """A module, linked to its API page; a package with its modules."""
    modules = package_modules(package_dir, component)
    if modules is None:
        return _code(component, link, f"take5rules.{component}")
    inner = ", ".join(
        _code(name, link, "take5rules." + ".".join([component, *name.rstrip("/").split("/")]))
        for name in modules
    )
    head = _code(f"{component}/", link, f"take5rules.{component}")
    return f"{head} ({inner})" if inner else head


def allowed_cell(allowed: frozenset[str], own: str, levels: Layers, words: Words) -> str:
    """What *own* may import: its own layer, whole layers by their title, other modules by name."""
    parts: list[str] = [words.label("own-layer")] if own in allowed else []
    for name, members in levels.layers:
        wanted = members & allowed
        if own in members:
            parts.extend(f"`{member}`" for member in sorted(wanted - {own}, key=_order))
        elif wanted == members:
            parts.append(words.titles[name])
        else:
            parts.extend(f"`{member}`" for member in sorted(wanted, key=_order))
    return ", ".join(parts) if parts else words.label("nothing")


def may_import(level: int, members: frozenset[str], levels: Layers, words: Words) -> str:
    """The last cell of a layer's row: its own layer and the layers below, or each ``ONLY``.

    A module of ``ONLY`` gets a line of its own (``name: what``), unless it is its layer's only
    module.
    """
    ordered = sorted(members, key=_order)
    if len(ordered) == 1 and ordered[0] in levels.only:
        return allowed_cell(levels.only[ordered[0]], ordered[0], levels, words)
    lines = []
    if any(member not in levels.only for member in ordered):
        lines.append(", ".join([words.label("own-layer"),
                                *(words.titles[name] for name, _ in levels.layers[:level])]))
    lines += [words.labelled(f"`{member}`",
                             allowed_cell(levels.only[member], member, levels, words))
              for member in ordered if member in levels.only]
    return "<br>".join(lines)


def cell(text: str) -> str:
    """Text made safe for a Markdown table cell."""
    return text.replace("|", "\\|").replace("\n", " ")


def layer_table(levels: Layers, words: Words, package_dir: Path,
                link: Callable[[str], str | None]) -> str:
    """The order of the layers in one line, then the table, in the language of *words*."""
    chain = " < ".join(f"**{words.titles[name]}**" for name, _ in levels.layers)
    lines = [
        chain,
        "",
        f"| {words.label('layer')} | {words.label('holds')} | {words.label('modules')} | "
        f"{words.label('imports')} |",
        "| --- | --- | --- | --- |",
    ]
    for level, (name, members) in enumerate(levels.layers):
        modules = ", ".join(modules_cell(member, package_dir, link)
                            for member in sorted(members, key=_order))
        lines.append(f"| {cell(words.titles[name])} | {cell(words.holds[name])} | {modules} | "
                     f"{cell(may_import(level, members, levels, words))} |")
    facade_layers = [words.titles[name] for name, _ in levels.layers[: levels.facade_level + 1]]
    lines.append(f"| {cell(words.titles[levels.facade])} | {cell(words.holds[levels.facade])} | "
                 f"{_code(levels.facade, link, levels.facade)} (`__init__`) | "
                 f"{cell(', '.join(facade_layers))} |")
    return "\n".join(lines) + "\n"
