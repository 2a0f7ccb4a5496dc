"""Griffe extension for the API reference: doctests as code, reST roles as links.

The docstrings of take5rules are Google style with bare doctests (``>>>`` lines) and Sphinx
roles (``:func:`place_card```). Markdown would read ``>>>`` as nested block quotes and print the
roles as they are, so before mkdocstrings renders a docstring this extension

* wraps each doctest block (from a ``>>>`` line to the next blank line) in a ``pycon`` fence;
* turns ``:role:`target``` into a link to the target's API entry when the target is a public,
  documented object of the package (so that the link resolves), else into inline code;
* turns a reST ``::`` that announces an indented literal block into ``:``.
"""

from __future__ import annotations

import re
from typing import Any

from griffe import Extension, GriffeLoader, Module, Object

_ROLE = re.compile(r":(?:py:)?(?:mod|func|class|data|meth|attr|exc|obj|const):`(~?)([\w.]+)`")


def _objects(obj: Object) -> list[Object]:
    found = [obj]
    for member in obj.members.values():
        if not member.is_alias:
            found.extend(_objects(member))  # type: ignore[arg-type]
    return found


def _public(path: str) -> bool:
    return not any(part.startswith("_") for part in path.split("."))


def fence_doctests(text: str) -> str:
    """Wrap every bare doctest block of *text* in a ``pycon`` fence."""
    lines = text.split("\n")
    out: list[str] = []
    in_fence = False
    index = 0
    while index < len(lines):
        line = lines[index]
        stripped = line.lstrip()
        if stripped.startswith("```"):
            in_fence = not in_fence
        if not in_fence and stripped.startswith(">>>"):
            indent = line[: len(line) - len(stripped)]
            out.append(f"{indent}```pycon")
            while index < len(lines) and lines[index].strip():
                out.append(lines[index])
                index += 1
            out.append(f"{indent}```")
            continue
        if (
            not in_fence
            and line.rstrip().endswith("::")
            and index + 2 < len(lines)
            and not lines[index + 1].strip()
            and lines[index + 2].startswith(" ")
        ):
            line = line.rstrip()[:-1]
        out.append(line)
        index += 1
    return "\n".join(out)


class DoctestFences(Extension):
    """Rewrite the docstrings of a loaded package (see the module docstring)."""

    def on_package(self, *, pkg: Module, loader: GriffeLoader, **kwargs: Any) -> None:
        """Rewrite every docstring of *pkg* once the whole package is loaded."""
        objects = _objects(pkg)
        linkable = {obj.path for obj in objects if obj.docstring and _public(obj.path)}
        for obj in objects:
            if obj.docstring is None:
                continue
            scopes = [obj.path, obj.module.path, pkg.path]
            if obj.parent is not None:
                scopes.insert(1, obj.parent.path)

            def role(match: re.Match[str], scopes: list[str] = scopes) -> str:
                short, target = match.group(1), match.group(2)
                shown = target.rsplit(".", 1)[-1] if short else target
                candidates = [target, *(f"{scope}.{target}" for scope in scopes)]
                for candidate in candidates:
                    if candidate in linkable:
                        return f"[`{shown}`][{candidate}]"
                return f"`{shown}`"

            obj.docstring.value = fence_doctests(_ROLE.sub(role, obj.docstring.value))
