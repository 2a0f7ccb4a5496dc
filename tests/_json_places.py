"""The places of a parsed JSON value, for tests that break documents at random in one place."""

from __future__ import annotations


def places(node: object, path: tuple[object, ...] = ()) -> list[tuple[object, ...]]:
    """Every place in *node*: the path to each member of an object and each item of a list."""
    found: list[tuple[object, ...]] = []
    if isinstance(node, dict):
        for key, value in node.items():
            found.append((*path, key))
            found += places(value, (*path, key))
    elif isinstance(node, list):
        for index, value in enumerate(node):
            found.append((*path, index))
            found += places(value, (*path, index))
    return found
