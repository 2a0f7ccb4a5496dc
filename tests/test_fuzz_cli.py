"""Fuzzing the command line: any arguments to play, explain, rules, discrepancies and ids.

Whatever the arguments (options in any order, repeated or missing values, arbitrary text,
surrogates, huge and non-finite numbers, seat lists of any length), a command ends with exit
status 0, 1 or 2 and one-line errors: never a traceback, never an exception escaping click.
Each test tries ``FUZZ_EXAMPLES`` argument lists (80 by default, so that CI stays fast); set
``TAKE5RULES_FUZZ_EXAMPLES=2000`` in the environment for a longer run.
"""

from __future__ import annotations

import os
from collections.abc import Iterator
from pathlib import Path

import pytest
from click.testing import CliRunner
from hypothesis import given, settings
from hypothesis import strategies as st

from take5rules.cli.main import main
from take5rules.registry import RULE_ORDER

FUZZ_EXAMPLES = int(os.environ.get("TAKE5RULES_FUZZ_EXAMPLES", "80"))

#: Each command's options, as a user might type them (flags, options taking a value, --help).
OPTIONS = {
    "play": ["--players", "--variant", "--threshold", "--seed", "--json", "--log", "--rows",
             "--no-rows", "--lang", "--help", "-h", "--unknown"],
    "explain": ["--json", "--lang", "--help", "--unknown", *RULE_ORDER[:4]],
    "rules": ["--json", "--lang", "--help", "--unknown"],
    "discrepancies": ["--json", "--lang", "--help", "--unknown"],
    "ids": ["--help", "--unknown"],
}

WORDS = ["", " ", "-", "--", "=", ",", "nan", "inf", "-inf", "1e400", "-1", "0", "1", "2",
         "66", "1000", "1001", "0x10", "1_000", "en", "fr", "bg", "it", "eo", "nl", "de", "xx",
         "C", "fr_FR.UTF-8", "standard", "tactics", "logic", "tournament", "random", "lowest",
         "cautious", "a=lowest,b=random", "a=genius", "a,a", "ana=lowest,ana=random,bob=lowest",
         "table.sixth-card", "log.json", "/dev/full", "/", "\x00", "\ud800", "é", "\u202e"]

SEATS = st.lists(
    st.tuples(st.text(alphabet="abc\u00e9 \ud800", max_size=3),
              st.sampled_from(["", "=lowest", "=random", "=cautious", "=x", "=="])),
    max_size=12,
).map(lambda seats: ",".join(name + kind for name, kind in seats))

VALUES = st.one_of(
    st.sampled_from(WORDS),
    st.text(max_size=12),
    st.integers(min_value=-(10**40), max_value=10**40).map(str),
    SEATS,
)


def arguments(command: str) -> st.SearchStrategy[list[str]]:
    """Argument lists for *command*: its options, anything else, and valid values, mixed."""
    return st.lists(st.one_of(st.sampled_from(OPTIONS[command]), VALUES), max_size=8)


TRIED: dict[str, int] = dict.fromkeys(OPTIONS, 0)


@pytest.fixture(scope="module", autouse=True)
def _report() -> Iterator[None]:
    yield
    print("\nCLI fuzz inputs tried:", TRIED, "total", sum(TRIED.values()))


@pytest.fixture(scope="module")
def workdir(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """Where `play --log FILE` writes, away from the repository."""
    return tmp_path_factory.mktemp("fuzz")


def _check(command: str, args: list[str], workdir: Path) -> None:
    TRIED[command] += 1
    previous = Path.cwd()
    os.chdir(workdir)
    try:
        result = CliRunner().invoke(main, [command, *args])
    finally:
        os.chdir(previous)
    assert result.exit_code in (0, 1, 2), (args, result.output)
    if result.exception is not None:
        assert isinstance(result.exception, SystemExit), (args, repr(result.exception))
    assert "Traceback" not in result.output, args


@pytest.mark.parametrize("command", list(OPTIONS))
def test_any_arguments_end_in_0_1_or_2_without_a_traceback(command: str,
                                                           workdir: Path) -> None:
    @settings(max_examples=FUZZ_EXAMPLES)
    @given(args=arguments(command))
    def check(args: list[str]) -> None:
        _check(command, args, workdir)

    check()


@settings(max_examples=FUZZ_EXAMPLES)
@given(players=SEATS, threshold=st.integers(min_value=-5, max_value=10**6),
       variant=st.sampled_from(["standard", "tactics", "logic", "tournament"]),
       seed=st.integers(min_value=-(10**30), max_value=10**30))
def test_play_with_well_formed_options_ends_cleanly(players: str, threshold: int, variant: str,
                                                     seed: int) -> None:
    result = CliRunner().invoke(main, ["play", "--players", players, "--threshold",
                                       str(threshold), "--variant", variant, "--seed", str(seed),
                                       "--json", "--lang", "en"])
    TRIED["play"] += 1
    assert result.exit_code in (0, 1, 2), result.output
    if result.exception is not None:
        assert isinstance(result.exception, SystemExit), repr(result.exception)
    if result.exit_code == 0:
        assert result.output.splitlines()[-1].startswith('{"kind": "game-over"')
        assert 1 <= threshold <= 1000
