"""The registry: every rule has an id, texts, sources, a doctest and tests named after it."""

from __future__ import annotations

import ast
import functools
import inspect
import re
from pathlib import Path

import pytest

from take5rules.errors import MalformedInputError
from take5rules.registry import AMIGO, DISCREPANCIES, RULE_ORDER, SEEDS, all_rules, get

TESTS = Path(__file__).parent
RULES = all_rules()


def test_all_rules_follow_rule_order() -> None:
    assert tuple(rule.id for rule in RULES) == RULE_ORDER


@pytest.mark.parametrize("rule", RULES, ids=lambda rule: rule.id)
def test_rule_lives_in_the_module_its_id_names(rule: object) -> None:
    module = rule.function.__module__.rsplit(".", 1)[1]  # type: ignore[attr-defined]
    assert rule.id.split(".")[0] == module  # type: ignore[attr-defined]


@pytest.mark.parametrize("rule", RULES, ids=lambda rule: rule.id)
def test_rule_has_texts_sources_and_a_doctest(rule: object) -> None:
    assert rule.title and rule.statement and rule.explanation  # type: ignore[attr-defined]
    assert rule.explanation.count("Example") == 1  # type: ignore[attr-defined]
    assert rule.sources  # type: ignore[attr-defined]
    for source in rule.sources:  # type: ignore[attr-defined]
        assert source.document in SEEDS or source.document == AMIGO
    doc = inspect.getdoc(rule.function) or ""  # type: ignore[attr-defined]
    assert ">>>" in doc
    assert f"rule ``{rule.id}``" in doc or rule.id in doc  # type: ignore[attr-defined]


@functools.cache
def _test_names() -> frozenset[str]:
    names: set[str] = set()
    for path in TESTS.glob("test_*.py"):
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if isinstance(node, ast.FunctionDef) and node.name.startswith("test_"):
                names.add(node.name)
    return frozenset(names)


@pytest.mark.parametrize("rule", RULES, ids=lambda rule: rule.id)
def test_rule_has_tests_named_after_its_function(rule: object) -> None:
    name = rule.function.__name__  # type: ignore[attr-defined]
    assert any(test.startswith(f"test_{name}") for test in _test_names()), name


def test_get_unknown_rule_is_a_malformed_input_error() -> None:
    with pytest.raises(MalformedInputError):
        get("nope")


def test_discrepancies_name_real_rules_and_sources() -> None:
    assert {d.id for d in DISCREPANCIES} >= {"end-threshold", "draft-first-player", "next-card"}
    for item in DISCREPANCIES:
        assert item.rule_id in RULE_ORDER
        assert len(item.claims) >= 2


def test_rule_function_table_of_the_readme_agrees_with_the_registry() -> None:
    # Issue 16: 12 of the 19 rules had another function than "table.sixth-card is
    # take5rules.table.sixth_card" let a reader guess; the README now lists each one.
    readme = (TESTS.parent / "README.md").read_text(encoding="utf-8")
    section = readme.split("## Where each rule lives\n", 1)[1].split("\n## ", 1)[0]
    listed = re.findall(r"^\| `([a-z-]+\.[a-z-]+)` \| `([\w.]+)` \|", section, re.MULTILINE)
    assert listed == [(rule.id, rule.qualified_name) for rule in RULES]


@pytest.mark.parametrize("rule", RULES, ids=lambda rule: rule.id)
def test_rule_qualified_name_finds_its_function(rule: object) -> None:
    import importlib

    module, _, name = rule.qualified_name.rpartition(".")  # type: ignore[attr-defined]
    assert getattr(importlib.import_module(module), name) is rule.function  # type: ignore[attr-defined]
