"""Mutation testing of the rule modules: mutmut, then our own mutator for the ``@rule`` functions.

    .venv/bin/python scripts/mutate.py                  # both passes (3 to 7 minutes on 2 cores)
    .venv/bin/python scripts/mutate.py --no-mutmut      # only the decorated functions
    .venv/bin/python scripts/mutate.py --modules table  # only take5rules.table

The modules and the tests come from ``[tool.mutmut]`` in pyproject.toml (``only_mutate``,
``pytest_add_cli_args_test_selection``): one list for both passes.

mutmut 3 leaves every decorated function alone (its trampoline would replace the decorated
object), and the rules themselves are decorated with ``@rule``. The second pass covers them: it
lists, in each decorated function of a rule module (``@rule``, ``@property``), every operator,
comparison, boolean and constant it can swap; for each mutant it forks a process that has
imported the library, swaps the function's ``__code__`` for the mutated one (so every module
that imported the function sees the mutant), and runs the rule tests with ``-x``.

Both passes install a mutant in a process that has already imported the library: mutmut forks
its mutant runs from a server that collected the tests first, and the second pass swaps the code
after the import. A value computed once at import from a function (``_kernel.HEADS``, built
from ``_kernel.heads``) keeps the original's results, so such a function is tested directly
(``tests/test_cards_rules.py`` checks ``_kernel.heads`` on every card, and the table against
the same rulebook formulation); without that its mutants would survive untested, not because
they are harmless. Module-level code itself (constants, that table) is mutated by neither pass.

Mutmut starts from scratch on every run (``mutants/`` is removed): its cache of which tests
reach each function is only brought up to date for new tests, so a function that old tests
reach through new code would get no test, or too few, and its mutants would survive untested.

Survivors are compared with ``scripts/mutation-survivors.toml``, the reviewed list: equivalent
mutants, and mutants that only change where an error says it happened. The run prints the
score per module (killed / all, and killed / non-equivalent) and every survivor; it exits with
1 when a survivor is not in the reviewed list, that is when a mutant may change a rule's outcome
unnoticed. Reviewed entries that no longer match a survivor are listed, to be removed.
docs/en/contributing.md explains the reviewed survivors.
"""

from __future__ import annotations

import argparse
import ast
import copy
import fnmatch
import json
import os
import re
import shutil
import signal
import subprocess
import sys
import time
import tomllib
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
VENV_BIN = Path(sys.executable).parent
REVIEWED = ROOT / "scripts" / "mutation-survivors.toml"

#: mutmut's verdicts: which count as killed, which as survived.
KILLED = {"killed", "timeout", "segfault", "caught by type check"}
SURVIVED = {"survived", "no tests", "suspicious"}

_COMPARE = {
    ast.Lt: ast.LtE, ast.LtE: ast.Lt, ast.Gt: ast.GtE, ast.GtE: ast.Gt,
    ast.Eq: ast.NotEq, ast.NotEq: ast.Eq, ast.In: ast.NotIn, ast.NotIn: ast.In,
    ast.Is: ast.IsNot, ast.IsNot: ast.Is,
}
_BINARY = {
    ast.Add: ast.Sub, ast.Sub: ast.Add, ast.Mult: ast.Div, ast.Div: ast.Mult,
    ast.FloorDiv: ast.Div, ast.Mod: ast.Div, ast.Pow: ast.Mult,
    ast.BitAnd: ast.BitOr, ast.BitOr: ast.BitAnd,
}
_BOOLEAN = {ast.And: ast.Or, ast.Or: ast.And}
#: Built-in functions swapped for their opposite: a placement that picks the farthest row.
_NAMES = {"min": "max", "max": "min", "any": "all", "all": "any"}
#: Calls whose string arguments are message texts (msgids), not rules.
_TEXT_CALLS = {"N_", "Nn_"}


@dataclass(frozen=True, slots=True)
class Mutant:
    """One mutant: where it is, what it changes, and its verdict once run."""

    module: str
    function: str
    line: int
    before: str
    after: str
    source: str = ""

    def key(self) -> tuple[str, str, str, str]:
        """What identifies a mutant across runs: module, function, the code before and after."""
        return (self.module, self.function, _squash(self.before), _squash(self.after))


def _squash(text: str) -> str:
    return re.sub(r"\s+", " ", text).strip()


def _config() -> dict[str, list[str]]:
    with (ROOT / "pyproject.toml").open("rb") as handle:
        config: dict[str, list[str]] = tomllib.load(handle)["tool"]["mutmut"]
    return config


def rule_modules(config: dict[str, list[str]]) -> list[Path]:
    """The files to mutate: ``only_mutate`` of the mutmut configuration."""
    files = sorted((ROOT / "src" / "take5rules").glob("*.py"))
    return [
        path for path in files
        if any(fnmatch.fnmatch(str(path.relative_to(ROOT)), glob) for glob in config["only_mutate"])
    ]


def module_name(path: Path) -> str:
    return ".".join(path.relative_to(ROOT / "src").with_suffix("").parts)


# --- the mutator of decorated functions ---------------------------------------------------------


def _skipped_by_mutmut(node: ast.FunctionDef) -> bool:
    """Mutmut mutates undecorated functions and lone @staticmethod / @classmethod ones."""
    if not node.decorator_list:
        return False
    lone = len(node.decorator_list) == 1 and isinstance(node.decorator_list[0], ast.Name)
    return not (lone and node.decorator_list[0].id in ("staticmethod", "classmethod"))  # type: ignore[attr-defined]


def decorated_functions(tree: ast.Module) -> Iterator[tuple[str, ast.FunctionDef]]:
    """Every decorated function mutmut skips, with its qualified name."""
    for node in tree.body:
        if isinstance(node, ast.FunctionDef) and _skipped_by_mutmut(node):
            yield node.name, node
        elif isinstance(node, ast.ClassDef):
            for item in node.body:
                if isinstance(item, ast.FunctionDef) and _skipped_by_mutmut(item):
                    yield f"{node.name}.{item.name}", item


def _texts(function: ast.FunctionDef) -> set[int]:
    """The ids of the nodes not to mutate: the docstring and the msgids."""
    skip: set[int] = set()
    body = function.body
    if body and isinstance(body[0], ast.Expr) and isinstance(body[0].value, ast.Constant):
        skip.add(id(body[0].value))
    for node in ast.walk(function):
        if (isinstance(node, ast.Call) and isinstance(node.func, ast.Name)
                and node.func.id in _TEXT_CALLS):
            skip.update(id(sub) for arg in node.args for sub in ast.walk(arg))
    return skip


def _variants(node: ast.AST) -> Iterator[ast.AST]:
    """The mutated copies of one node (operator, comparison, boolean and constant swaps)."""
    if isinstance(node, ast.Compare):
        for index, op in enumerate(node.ops):
            if type(op) in _COMPARE:
                compare = copy.deepcopy(node)
                compare.ops[index] = _COMPARE[type(op)]()
                yield compare
    elif isinstance(node, ast.BinOp | ast.AugAssign) and type(node.op) in _BINARY:
        binary = copy.deepcopy(node)
        binary.op = _BINARY[type(node.op)]()
        yield binary
    elif isinstance(node, ast.BoolOp):
        boolean = copy.deepcopy(node)
        boolean.op = _BOOLEAN[type(node.op)]()
        yield boolean
    elif isinstance(node, ast.UnaryOp) and isinstance(node.op, ast.Not | ast.USub):
        yield copy.deepcopy(node.operand)
    elif isinstance(node, ast.Constant):
        if isinstance(node.value, bool):
            yield ast.Constant(not node.value)
        elif isinstance(node.value, int):
            yield ast.Constant(node.value + 1)
        elif isinstance(node.value, str):
            yield ast.Constant(f"XX{node.value}XX")
    elif isinstance(node, ast.Name) and node.id in _NAMES:
        yield ast.Name(_NAMES[node.id], node.ctx)


def _replace(source: str, node: ast.AST, text: str) -> str:
    lines = source.splitlines(keepends=True)
    offsets = [0]
    for line in lines:
        offsets.append(offsets[-1] + len(line.encode()))
    data = source.encode()
    start = offsets[node.lineno - 1] + node.col_offset  # type: ignore[attr-defined]
    end = offsets[node.end_lineno - 1] + node.end_col_offset  # type: ignore[attr-defined]
    return (data[:start] + text.encode() + data[end:]).decode()


def ast_mutants(path: Path) -> Iterator[Mutant]:
    """Every mutant of the decorated functions of one module."""
    source = path.read_text(encoding="utf-8")
    tree = ast.parse(source)
    module = module_name(path)
    for qualname, function in decorated_functions(tree):
        skip = _texts(function)
        for statement in function.body:
            for node in ast.walk(statement):
                if id(node) in skip:
                    continue
                for variant in _variants(node):
                    before = ast.get_source_segment(source, node) or ast.unparse(node)
                    after = ast.unparse(variant)
                    if isinstance(node, ast.AugAssign):
                        after = after.strip()
                    yield Mutant(module, qualname, node.lineno, before, after,  # type: ignore[attr-defined]
                                 _replace(source, node, after))


def _find_code(code: object, qualname: str) -> object | None:
    for constant in getattr(code, "co_consts", ()):
        if hasattr(constant, "co_qualname"):
            if constant.co_qualname == qualname:
                return constant  # type: ignore[no-any-return]
            found = _find_code(constant, qualname)
            if found is not None:
                return found
    return None


def _target(module: object, qualname: str) -> object:
    owner: object = module
    parts = qualname.split(".")
    for part in parts[:-1]:
        owner = getattr(owner, part)
    found = vars(owner)[parts[-1]] if isinstance(owner, type) else getattr(owner, parts[-1])
    return found.fget if isinstance(found, property) else found


def _child(mutant: Mutant | None, path: Path | None, tests: list[str], timeout: int) -> None:
    """In a forked child: install *mutant* (``None``: no mutant), run the tests, exit 0 if green.

    A mutant that hangs (the alarm) or cannot even run is killed: the child exits non-zero.
    """
    try:
        signal.alarm(timeout)
        devnull = os.open(os.devnull, os.O_WRONLY)
        os.dup2(devnull, 1)
        os.dup2(devnull, 2)
        import importlib

        import pytest

        if mutant is not None and path is not None:
            module = importlib.import_module(mutant.module)
            code = _find_code(compile(mutant.source, str(path), "exec"), mutant.function)
            _target(module, mutant.function).__code__ = code  # type: ignore[attr-defined]
        result = pytest.main(["-x", "-q", "-p", "no:randomly", *tests])
        os._exit(0 if result == 0 else 1)
    except BaseException:
        os._exit(3)


def run_ast_pass(paths: list[Path], tests: list[str], timeout: int, jobs: int,
                 ) -> list[tuple[Mutant, bool]]:
    """Run every mutant of the decorated functions of *paths*; (mutant, killed) pairs."""
    os.chdir(ROOT)
    os.environ["CI"] = "1"  # the Hypothesis profile for reproducible runs (tests/conftest.py)
    os.environ.setdefault("TAKE5RULES_KERNEL_SEED", "0")  # the differential tests' examples too
    import hypothesis  # noqa: F401 - imported once, before the forks

    import take5rules.registry

    take5rules.registry.all_rules()
    pid = os.fork()
    if pid == 0:
        _child(None, None, tests, timeout * 4)
    if os.waitpid(pid, 0)[1] != 0:
        sys.exit("the rule tests fail without any mutant: fix them first")
    todo = [(mutant, path) for path in paths for mutant in ast_mutants(path)]
    results: list[tuple[Mutant, bool]] = []
    running: dict[int, Mutant] = {}
    queue = list(todo)
    done = 0
    while queue or running:
        while queue and len(running) < jobs:
            mutant, path = queue.pop(0)
            pid = os.fork()
            if pid == 0:
                _child(mutant, path, tests, timeout)
            running[pid] = mutant
        pid, status = os.wait()
        mutant = running.pop(pid)
        results.append((mutant, status != 0))
        done += 1
        print(f"\r  decorated functions: {done}/{len(todo)}", end="", flush=True)
    print()
    return results


# --- mutmut -------------------------------------------------------------------------------------


def run_mutmut(jobs: int) -> None:
    """Run mutmut from scratch: without its cache of tests per function and of verdicts.

    Mutmut keeps, in ``mutants/``, which tests call each function and the verdict of each
    mutant, and on a later run only collects this for new tests and changed functions. A
    function that is new, or newly called by old tests (a rule that now calls a kernel
    function), then has no test or too few, and its mutants "survive" untested. A run that
    starts from nothing gives every mutant the tests that really reach it.
    """
    shutil.rmtree(ROOT / "mutants", ignore_errors=True)
    env = {"TAKE5RULES_KERNEL_SEED": "0", **os.environ, "CI": "1"}
    subprocess.run([str(VENV_BIN / "mutmut"), "run", "--max-children", str(jobs)], cwd=ROOT,
                   env=env, check=False, stdout=subprocess.DEVNULL)


def mutmut_results(modules: set[str]) -> list[tuple[Mutant, bool]]:
    """Mutmut's verdicts on the functions it mutated, as (mutant, killed) pairs."""
    listing = subprocess.run([str(VENV_BIN / "mutmut"), "results", "--all", "true"], cwd=ROOT,
                             capture_output=True, text=True, check=True).stdout
    results: list[tuple[Mutant, bool]] = []
    for line in listing.splitlines():
        name, _, status = line.strip().rpartition(": ")
        if not name:
            continue
        # take5rules.table.x_place_card__mutmut_3, take5rules.table.xǁTableǁof__mutmut_6
        module, _, mangled = name.partition(".x")
        mangled = re.sub(r"__mutmut_\d+$", "", mangled)
        function = mangled[1:] if mangled.startswith("_") else mangled.replace("ǁ", ".").strip(".")
        if module not in modules:
            continue
        if status in KILLED:
            results.append((Mutant(module, function, 0, "", "", name), True))
            continue
        if status not in SURVIVED:
            sys.exit(f"mutmut left {name} {status}; run `mutmut run` again")
        diff = subprocess.run([str(VENV_BIN / "mutmut"), "show", name], cwd=ROOT,
                              capture_output=True, text=True, check=True).stdout
        lines = diff.splitlines()
        removed = [d[1:] for d in lines if d.startswith("-") and not d.startswith("---")]
        added = [d[1:] for d in lines if d.startswith("+") and not d.startswith("+++")]
        results.append((Mutant(module, function, 0, "\n".join(removed), "\n".join(added), name),
                        False))
    return results


# --- report -------------------------------------------------------------------------------------


def reviewed() -> dict[tuple[str, str, str, str], tuple[str, str]]:
    """The reviewed survivors: key -> (kind, reason)."""
    if not REVIEWED.exists():
        return {}
    with REVIEWED.open("rb") as handle:
        entries = tomllib.load(handle).get("survivor", [])
    return {
        (e["module"], e["function"], _squash(e["before"]), _squash(e["after"])): (e["kind"],
                                                                                e["reason"])
        for e in entries
    }


def report(results: list[tuple[Mutant, bool]], modules: list[str]) -> int:
    known = reviewed()
    unexplained: list[Mutant] = []
    print(f"\n{'module':<22}{'mutants':>8}{'killed':>8}{'reviewed':>9}{'other':>7}"
          f"{'score':>8}{'non-equivalent':>16}")
    totals = [0, 0, 0, 0]
    for module in modules:
        mine = [(m, k) for m, k in results if m.module == module]
        killed = sum(k for _, k in mine)
        explained = sum(1 for m, k in mine if not k and m.key() in known)
        other = len(mine) - killed - explained
        unexplained += [m for m, k in mine if not k and m.key() not in known]
        for index, value in enumerate((len(mine), killed, explained, other)):
            totals[index] += value
        _row(module, len(mine), killed, explained, other)
    _row("all", *totals)
    survivors = [m for m, k in results if not k]
    if survivors:
        print("\nSurvivors:")
    for mutant in survivors:
        kind, reason = known.get(mutant.key(), ("NOT REVIEWED", "may change a rule's outcome"))
        print(f"  {mutant.module}.{mutant.function} [{kind}]: {_squash(mutant.before)!r} -> "
              f"{_squash(mutant.after)!r}\n      {reason}")
    surviving = {m.key() for m in survivors}
    stale = [key for key in known if key[0] in modules and key not in surviving]
    if stale:
        print(f"\n{len(stale)} reviewed entr{'y' if len(stale) == 1 else 'ies'} of "
              f"{REVIEWED.name} no longer match a survivor (remove them):")
        for module, function, before, after in stale:
            print(f"  {module}.{function}: {before!r} -> {after!r}")
    if unexplained:
        print(f"\n{len(unexplained)} survivor(s) not reviewed: add a test that kills each, or, "
              f"if it cannot change a rule's outcome, explain it in {REVIEWED.name}.")
        return 1
    print("\nNo surviving mutant changes a rule's outcome.")
    return 0


def _row(module: str, total: int, killed: int, explained: int, other: int) -> None:
    score = 100 * killed / total if total else 100.0
    relevant = total - explained
    non_equivalent = 100 * killed / relevant if relevant else 100.0
    print(f"{module:<22}{total:>8}{killed:>8}{explained:>9}{other:>7}{score:>7.1f}%"
          f"{non_equivalent:>15.1f}%")


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--no-mutmut", action="store_true",
                        help="skip mutmut; only mutate the decorated functions")
    parser.add_argument("--reuse-mutmut", action="store_true",
                        help="report mutmut's last run (mutants/) instead of running it again")
    parser.add_argument("--tests", nargs="+", metavar="PATH",
                        help="the tests to run (default: the mutmut configuration's selection)")
    parser.add_argument("--modules", default="",
                        help="comma-separated module names, e.g. table,cards (default: all)")
    parser.add_argument("--jobs", type=int, default=2, help="mutants run at a time (default 2)")
    parser.add_argument("--timeout", type=int, default=60,
                        help="seconds before a mutant's tests count as hung, i.e. killed")
    parser.add_argument("--write", action="store_true",
                        help="save the scores in benchmarks/results/mutation.json (a whole run: "
                             "every module, mutmut from scratch)")
    args = parser.parse_args()
    if args.write and (args.modules or args.no_mutmut or args.reuse_mutmut or args.tests):
        parser.error("--write records a whole run: leave out --modules, --no-mutmut, "
                     "--reuse-mutmut and --tests")
    config = _config()
    tests = args.tests or config["pytest_add_cli_args_test_selection"]
    paths = rule_modules(config)
    if args.modules:
        wanted = {f"take5rules.{name.strip()}" for name in args.modules.split(",")}
        paths = [path for path in paths if module_name(path) in wanted]
    modules = [module_name(path) for path in paths]
    started = time.monotonic()
    results: list[tuple[Mutant, bool]] = []
    if not args.no_mutmut:
        if not args.reuse_mutmut:
            print("mutmut (undecorated functions) ...", flush=True)
            run_mutmut(args.jobs)
        results += mutmut_results(set(modules))
    print("decorated functions (@rule, @property) ...", flush=True)
    results += run_ast_pass(paths, tests, args.timeout, args.jobs)
    status = report(results, modules)
    seconds = time.monotonic() - started
    print(f"\n{seconds:.0f} s")
    if args.write:
        write(results, modules, seconds)
    return status


def write(results: list[tuple[Mutant, bool]], modules: list[str], seconds: float) -> None:
    """Save each module's mutants, killed and reviewed survivors in ``mutation.json``."""
    known = reviewed()
    scores = {}
    for module in modules:
        mine = [(m, k) for m, k in results if m.module == module]
        scores[module.removeprefix("take5rules.")] = {
            "mutants": len(mine), "killed": sum(k for _, k in mine),
            "reviewed": sum(1 for m, k in mine if not k and m.key() in known)}
    head = subprocess.run(["git", "-C", str(ROOT), "rev-parse", "--short", "HEAD"],
                          capture_output=True, text=True).stdout.strip() or "unknown"
    when = time.strftime("%Y-%m-%d %H:%M UTC", time.gmtime())
    document = {
        "note": f"scripts/mutate.py --write, one run (commit {head}, {when}, "
                f"{os.cpu_count()} cores): the rule modules and the kernel, mutmut started from "
                "scratch; 'reviewed' counts the survivors of scripts/mutation-survivors.toml, "
                "each shown there to be equivalent.",
        "commit": head, "date": when, "seconds": round(seconds), "modules": scores,
    }
    target = ROOT / "benchmarks" / "results" / "mutation.json"
    target.write_text(json.dumps(document, indent=2) + "\n", encoding="utf-8")
    print(f"wrote {target.relative_to(ROOT)}", flush=True)


if __name__ == "__main__":
    sys.exit(main())
