"""Running a conformance check: the worked examples, the invalid requests, the generated turns.

:func:`run_conformance` starts the program (:class:`~take5rules.conformance.program.Program`),
sends it the requests of :mod:`take5rules.conformance.cases`, then ``cases`` random turns
(:func:`take5rules.conformance.random_turns.random_request`), compares each reply with our
referee's, has a
disagreement shrunk (:mod:`take5rules.conformance.shrink`) and attributed to the rule that
decides it (:func:`take5rules.logs.attribution.deciding_rule`), and returns a
:class:`~take5rules.conformance.outcome.ConformanceResult`.
"""

from __future__ import annotations

import functools
import math
import random
from collections import Counter
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field

from take5rules._messages import N_
from take5rules.conformance.cases import INVALID_REQUESTS, WORKED_EXAMPLES
from take5rules.conformance.outcome import ConformanceResult, Failure, InvalidCheck, Mismatch
from take5rules.conformance.program import Broken, Program
from take5rules.conformance.random_turns import random_request
from take5rules.conformance.referee import answer, resolve
from take5rules.conformance.shrink import SEARCH_MOST, shrink
from take5rules.conformance.verdict import deciding_rule, normal_reply
from take5rules.errors import MalformedInputError
from take5rules.turn import TurnResult

__all__ = ["MAX_TIMEOUT", "Progress", "check_command", "run_conformance"]

#: The longest wait for one reply that ``timeout`` may ask for, in seconds (an hour).
MAX_TIMEOUT = 3600.0


def _rules_applied(result: TurnResult) -> list[str]:
    """The rules a resolved turn applies: turn.order, then each placement's."""
    return ["turn.order", *(placement.rule for _, placement in result.placements)]



def check_command(cmd: object) -> tuple[str, ...]:
    """*cmd* as the program and its arguments: a non-empty list (or tuple) of strings.

    A string is refused (split it first, as :func:`shlex.split` would): run without a shell,
    the whole string would be taken as the program's name.

    >>> check_command(["./engine", 3])
    Traceback (most recent call last):
    ...
    take5rules.errors.MalformedInputError: cmd must be a non-empty list of strings (the program \
and its arguments), not ['./engine', 3] [argument]
    """
    if (isinstance(cmd, str) or not isinstance(cmd, list | tuple) or not cmd
            or not all(isinstance(item, str) for item in cmd)):
        raise MalformedInputError(
            "argument",
            N_("cmd must be a non-empty list of strings (the program and its arguments), "
               "not {value}"),
            value=_clip(repr(cmd)),
        )
    return tuple(cmd)


def _clip(text: str, size: int = 80) -> str:
    return text if len(text) <= size else text[:size] + "…"


#: A progress callback: turns answered so far, turns to answer, and whether shrinking.
Progress = Callable[[int, int, bool], None]


def run_conformance(
    cmd: Sequence[str],
    cases: int = 1000,
    seed: int = 0,
    timeout: float = 5.0,
    *,
    progress: Progress | None = None,
) -> ConformanceResult:
    """Start *cmd*, send it the worked examples, the invalid requests and *cases* turns.

    Args:
        cmd: the program and its arguments (not split, not run through a shell).
        cases: how many random turns to send (after the worked examples).
        seed: the seed of the generated turns; the same seed sends the same turns.
        timeout: seconds the program has to answer each request (the first includes its start).
        progress: called after each turn with (done, total, shrinking).

    Returns:
        The result; ``result.exit_code`` is 0 (agree), 1 (disagree) or 2 (broken program).

    Raises:
        MalformedInputError: (rule id ``argument``, also a :class:`ValueError`) for a *cmd*
            that is not a non-empty list of strings, *cases* that is not a whole number of 0
            or more, or a *timeout* that is not a finite number of seconds above 0 and at most
            :data:`MAX_TIMEOUT`.

    >>> run_conformance(None)
    Traceback (most recent call last):
    ...
    take5rules.errors.MalformedInputError: cmd must be a non-empty list of strings (the program \
and its arguments), not None [argument]
    """
    command = check_command(cmd)
    if isinstance(cases, bool) or not isinstance(cases, int) or cases < 0:
        raise MalformedInputError("argument", N_("cases must be a whole number, 0 or more, "
                                                 "not {value!r}"), value=cases)
    if not (isinstance(timeout, int | float) and not isinstance(timeout, bool)
            and math.isfinite(timeout) and 0 < timeout <= MAX_TIMEOUT):
        raise MalformedInputError(
            "argument",
            N_("timeout must be a number of seconds above 0 and at most {most} (an hour), "
               "not {value!r}"),
            most=int(MAX_TIMEOUT), value=timeout)
    report = progress if progress is not None else (lambda done, total, shrinking: None)
    total = len(WORKED_EXAMPLES) + len(INVALID_REQUESTS) + cases
    tally = _Tally()
    rules = tally.rules
    examples: list[tuple[str, bool]] = []
    invalid: list[InvalidCheck] = []
    mismatches: list[Mismatch] = []

    def result(failure: Failure | None = None) -> ConformanceResult:
        return ConformanceResult(command, cases, seed, tally.agreed, tuple(examples),
                                 tuple(invalid), dict(rules),
                                 mismatches[0] if mismatches else None, failure)

    try:
        program = Program(command, timeout)
    except Broken as broken:
        return result(broken.failure)
    try:
        for example in WORKED_EXAMPLES:
            theirs = program.ask(example.request)
            ours, resolved = resolve(example.request)
            agrees = normal_reply(ours) == normal_reply(theirs)
            examples.append((example.id, agrees))
            if agrees and resolved is not None:
                rules.update(_rules_applied(resolved))
            else:
                mismatches.append(Mismatch(example.request, ours, theirs,
                                           deciding_rule(example.request, theirs),
                                           example.id, shrunk=False))
            report(len(examples), total, False)
        for example in INVALID_REQUESTS:
            ours, theirs = answer(example.request), program.ask(example.request)
            error = theirs.get("error")
            their_rule = error.get("rule") if isinstance(error, dict) else None
            invalid.append(InvalidCheck(example.id, ours["error"]["rule"],
                                        their_rule if isinstance(their_rule, str) else None,
                                        error is not None))
            if error is None:
                mismatches.append(Mismatch(example.request, ours, theirs,
                                           ours["error"]["rule"], example.id, shrunk=False))
            report(len(examples) + len(invalid), total, False)
        if cases:
            shrunk = _generate(program, cases, seed, tally,
                               lambda count, shrinking: report(
                                   len(examples) + len(invalid) + count, total, shrinking))
            if shrunk is not None:
                mismatches.insert(0, shrunk)
    except Broken as broken:
        return result(broken.failure)
    finally:
        program.close()
    return result()


@dataclass
class _Tally:
    """The generated turns that agreed before the first disagreement, and their rules."""

    agreed: int = 0
    rules: Counter[str] = field(default_factory=Counter)


def _generate(
    program: Program, cases: int, seed: int, tally: _Tally,
    report: Callable[[int, bool], None],
) -> Mismatch | None:
    """Send *cases* random turns; count agreeing turns in *tally*; return the first mismatch.

    The turns come from ``random.Random(seed)``
    (:func:`take5rules.conformance.random_turns.random_request`),
    so the same seed sends the same turns; a disagreement is then shrunk (:func:`_shrink`).
    """
    rng = random.Random(seed)
    rules: Counter[str] = Counter()
    agreed = 0
    try:
        for _ in range(cases):
            request = random_request(rng)
            theirs = program.ask(request)
            ours, resolved = resolve(request)
            if resolved is None or normal_reply(ours) != normal_reply(theirs):
                report(agreed, True)
                found = Mismatch(request, ours, theirs, deciding_rule(request, theirs),
                                 shrunk=False)
                budget = min(max(200, 2 * (agreed + 1)), SEARCH_MOST)
                return shrink(program, found, budget, seed,
                               functools.partial(report, agreed, True))
            agreed += 1
            rules.update(_rules_applied(resolved))
            report(agreed, False)
    finally:
        tally.agreed = agreed
        tally.rules.update(rules)
    return None


