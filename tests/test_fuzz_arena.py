"""Fuzzing the arena, from the command line and from Python (issue 17 "done when").

The same rule as the other fuzz files: whatever the players and options, a run ends with a
correct answer or a clear error naming the rule or the argument; never a traceback, a hang or
an exception that is not a :class:`~take5rules.errors.Take5Error`. Each test tries
``FUZZ_EXAMPLES`` inputs (``TAKE5RULES_FUZZ_EXAMPLES`` in the environment for more).
"""

from __future__ import annotations

import math
import os
from collections.abc import Iterator
from typing import Any

import pytest
from click.testing import CliRunner
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from take5rules.agents.arena import MAX_GAMES, ArenaPlayerError, ArenaResult, run_arena
from take5rules.cli.main import main
from take5rules.errors import NOT_RULES, RulesError, Take5Error
from take5rules.playing.players import CardView, DraftView, RowChoice
from take5rules.variants import Rules

FUZZ_EXAMPLES = int(os.environ.get("TAKE5RULES_FUZZ_EXAMPLES", "40"))
TRIED = {"cli": 0, "python": 0, "answers": 0}

SPECS = ["cautious", "random", "lowest", "human", "", ":", "a:", ":b", "sys:exit",
         "builtins:exit", "os:_exit", "take5rules.playing.players:LowestCardPlayer",
         "take5rules.table:ROW_LIMIT", "no_such_module:X", "./nope.py:X", "/dev/null:X",
         "/:X", "\x00:X", "\ud800", "é:É", "take5rules.playing.players:RandomPlayer.choose_card",
         "builtins:object", "builtins:print", "random:random", "take5rules:__version__"]
OPTIONS = ["--games", "--seed", "--variant", "--threshold", "--jobs", "--move-timeout",
           "--traceback", "--json", "--lang", "--help", "--unknown"]
WORDS = ["", "-1", "0", "1", "2", "3", "nan", "inf", "-inf", "1e400", "0.0001", "10**8",
         str(10**30), "standard", "logic", "tactics", "tournament", "fr", "bg", "xx",
         "\ud800"]


@pytest.fixture(scope="module", autouse=True)
def _report() -> Iterator[None]:
    yield
    print("\nArena fuzz inputs tried:", TRIED, "total", sum(TRIED.values()))


@settings(max_examples=FUZZ_EXAMPLES, deadline=None,
          suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(args=st.lists(st.one_of(st.sampled_from(SPECS), st.sampled_from(OPTIONS),
                               st.sampled_from(WORDS), st.text(max_size=8)), max_size=8))
def test_any_arena_command_line_ends_in_0_1_or_2_without_a_traceback(args: list[str]) -> None:
    # --games is kept small so that a well-formed run ends at once
    if "--games" in args:
        at = args.index("--games")
        args = [*args[:at], "--games", "2", *args[at + 2:]]
    else:
        args = [*args, "--games", "2"]
    TRIED["cli"] += 1
    result = CliRunner().invoke(main, ["arena", *args])
    assert result.exit_code in (0, 1, 2), (args, result.output)
    if result.exception is not None:
        assert isinstance(result.exception, SystemExit), (args, repr(result.exception))
    assert "Traceback" not in result.output, args


VALUES = st.one_of(
    st.none(), st.booleans(), st.integers(min_value=-(10**20), max_value=10**20),
    st.floats(allow_nan=True, allow_infinity=True), st.text(max_size=6),
    st.sampled_from([b"x", [], {}, (), object, object(), print, math.inf]),
)


@settings(max_examples=FUZZ_EXAMPLES, deadline=None)
@given(specs=st.one_of(st.lists(st.one_of(st.sampled_from(SPECS), VALUES), max_size=4), VALUES),
       games=VALUES, seed=VALUES, jobs=st.one_of(st.just(1), VALUES),
       timeout=st.one_of(st.none(), VALUES))
def test_run_arena_gives_an_answer_or_a_take5_error(specs: Any, games: Any, seed: Any,
                                                    jobs: Any, timeout: Any) -> None:
    TRIED["python"] += 1
    if isinstance(games, int) and not isinstance(games, bool) and games > 3:
        games = 3
    if isinstance(jobs, int) and not isinstance(jobs, bool) and jobs > 1:
        jobs = 1  # processes are tried in test_arena_run.py; here, many inputs quickly
    outcome: ArenaResult | Take5Error
    try:
        outcome = run_arena(specs, games, seed, jobs=jobs, move_timeout=timeout)
    except Take5Error as error:
        outcome = error
    if isinstance(outcome, Take5Error):
        assert outcome.rule, outcome
        named = f"[{outcome.rule}]" if outcome.rule in NOT_RULES else f"[rule {outcome.rule}]"
        assert str(outcome).endswith(named)
        return
    result = outcome
    assert len(result.totals) == games
    assert all(low <= standing.mean_penalty <= high
               for standing in result.standings for low, high in [standing.interval])


ANSWERS = st.one_of(VALUES, st.integers(min_value=-5, max_value=110))


class Hostile:
    """A player answering whatever Hypothesis draws: nonsense, or an exception raised."""

    def __init__(self, answers: list[Any]) -> None:
        self.answers = answers

    def _next(self) -> Any:
        answer = self.answers.pop(0) if self.answers else 1
        if isinstance(answer, BaseException):
            raise answer
        return answer

    def choose_card(self, view: CardView) -> Any:
        answer = self._next()
        return answer if answer != "legal" else min(view.hand)

    def choose_row(self, choice: RowChoice) -> Any:
        return self._next()

    def choose_draft(self, view: DraftView) -> Any:
        return self._next()


@settings(max_examples=FUZZ_EXAMPLES, deadline=None)
@given(answers=st.lists(st.one_of(ANSWERS, st.just("legal"),
                                  st.sampled_from([ValueError("x"), KeyError("k"),
                                                   RecursionError(), SystemExit(3),
                                                   TypeError()])), max_size=12))
def test_a_hostile_player_is_named_in_one_error(answers: list[Any]) -> None:
    TRIED["answers"] += 1
    failure: ArenaPlayerError | None = None
    try:
        run_arena({"bad": Hostile(list(answers)), "safe": "cautious"}, games=1)
    except ArenaPlayerError as error:
        failure = error
    if failure is not None:
        assert failure.params["seat"] in ("bad", "safe")
        assert failure.params["game"] == 1
        if failure.rule_broken:
            assert failure.rule in ("turn.reveal", "table.low-card", "variants.logic")
        else:
            assert failure.rule == "player"


@settings(max_examples=FUZZ_EXAMPLES, deadline=None)
@given(games=st.integers(min_value=MAX_GAMES + 1, max_value=10**40),
       specs=st.lists(st.sampled_from(["cautious", "random", "lowest"]), min_size=2,
                      max_size=5),
       duplicate=st.booleans(), jobs=st.integers(min_value=1, max_value=4))
def test_more_games_than_the_bound_are_refused_before_any_is_played(
        games: int, specs: list[str], duplicate: bool, jobs: int) -> None:
    # refused at once: nothing played, nothing allocated for the games
    with pytest.raises(RulesError) as error:
        run_arena(specs, games, jobs=jobs, duplicate=duplicate)
    assert error.value.rule == "argument"
    assert error.value.params == {"limit": MAX_GAMES, "value": games}


@settings(max_examples=FUZZ_EXAMPLES, deadline=None)
@given(games=st.one_of(st.integers(min_value=MAX_GAMES + 1, max_value=10**40),
                       st.sampled_from([MAX_GAMES + 1, 10**8, 2**63, 2**64 + 1])),
       language=st.sampled_from(["en", "fr", "bg", "it", "eo"]))
def test_the_command_refuses_more_games_than_the_bound_in_one_line(games: int,
                                                                   language: str) -> None:
    result = CliRunner().invoke(main, ["arena", "cautious", "random", "--games", str(games),
                                       "--lang", language])
    assert result.exit_code == 2, result.output
    assert isinstance(result.exception, SystemExit)
    assert "Traceback" not in result.output
    assert result.output.strip().endswith("argument]")
    assert str(MAX_GAMES) in result.output and str(games) in result.output
    assert len(result.output.strip().splitlines()) == 1


OUTCOME_VALUES = st.one_of(st.integers(min_value=-(2**70), max_value=2**70), st.booleans(),
                           st.none(), st.floats(), st.text(max_size=2))
OUTCOME_SEATS = st.sampled_from(["a", "b", "c"])


@settings(max_examples=FUZZ_EXAMPLES, deadline=None)
@given(totals=st.lists(st.dictionaries(OUTCOME_SEATS, OUTCOME_VALUES, max_size=3), max_size=3),
       winners=st.lists(st.lists(OUTCOME_SEATS, max_size=3), max_size=3),
       rounds=st.lists(st.lists(st.dictionaries(OUTCOME_SEATS, OUTCOME_VALUES, max_size=3),
                                max_size=2), max_size=3))
def test_a_result_built_from_any_dicts_reads_back_or_is_refused(
        totals: list[dict[str, Any]], winners: list[list[str]],
        rounds: list[list[dict[str, Any]]]) -> None:
    built: ArenaResult | RulesError
    try:
        built = ArenaResult(Rules(), 0, totals, winners, (), rounds, True)
    except RulesError as error:
        built = error
    if isinstance(built, RulesError):
        assert built.rule == "argument"
        return
    result = built
    assert [dict(game) for game in result.totals] == totals
    assert [list(game) for game in result.totals] == [list(game) for game in totals]
    assert [set(won) for won in result.winners] == [set(won) for won in winners]
    assert result.rounds == (tuple(tuple(game) for game in rounds) if any(rounds) else ())
