"""Shrinking a disagreement: a smaller turn on which the program still disagrees.

At the first disagreement, Hypothesis (the extra ``take5rules[conform]``) searches its own turns
(:func:`take5rules.conformance.strategies.requests`) for one the program gets wrong and shrinks it;
then
two steps Hypothesis cannot take (:func:`simplify`). No Hypothesis database is used and nothing
is written to the current directory.
"""

from __future__ import annotations

import contextlib
import dataclasses
import tempfile
from collections.abc import Callable, Iterator, Mapping
from typing import Any

from take5rules.conformance.outcome import Mismatch
from take5rules.conformance.program import Program
from take5rules.conformance.random_turns import PLAYER_NAMES
from take5rules.conformance.referee import answer, parse_request
from take5rules.conformance.verdict import deciding_rule, normal_reply
from take5rules.turn import TurnResult, resolve_turn

__all__ = ["SEARCH_MOST", "shrink", "simplify"]

#: The most turns Hypothesis tries when searching for a smaller disagreeing turn.
SEARCH_MOST = 2000


class _DisagreementError(Exception):
    """A generated turn on which the program disagrees (shrunk by Hypothesis)."""

    def __init__(self, mismatch: Mismatch) -> None:
        super().__init__(mismatch.rule)
        self.mismatch = mismatch



def _resolved(request: Mapping[str, Any]) -> tuple[TurnResult, dict[str, int]]:
    """Our resolution of the valid *request*, and its choices."""
    table, plays, choices = parse_request(request)
    return resolve_turn(table, plays, lambda choice: choices[choice.player]), choices



def _size(request: Mapping[str, Any]) -> tuple[int, int, int]:
    return (len(request["plays"]), sum(len(row) for row in request["rows"]),
            sum(value for _, value in request["plays"]))


@contextlib.contextmanager
def _private_hypothesis_storage() -> Iterator[None]:
    """Point Hypothesis's storage at a temporary directory for the run, then back.

    Hypothesis caches the constants of local modules under ``.hypothesis/`` in the current
    directory even without a database; a conformance run must leave no such directory behind.
    """
    try:
        from hypothesis.configuration import set_hypothesis_home_dir, storage_directory

        previous = storage_directory(intent_to_write=False).home_directory
    except (ImportError, AttributeError, TypeError):  # pragma: no cover - another Hypothesis
        yield
        return
    with tempfile.TemporaryDirectory(prefix="take5rules-conform-") as home:
        set_hypothesis_home_dir(home)
        try:
            yield
        finally:
            set_hypothesis_home_dir(previous)



def shrink(
    program: Program, found: Mismatch, budget: int, seed: int, report: Callable[[], None],
) -> Mismatch:
    """A smaller turn on which the program disagrees, if Hypothesis finds one; else *found*.

    Hypothesis searches its own biased turns (:func:`take5rules.conformance.strategies.requests`, at
    most
    *budget* of them) for one the program gets wrong and shrinks it. Without Hypothesis (it
    comes with the extra ``take5rules[conform]``) *found* is returned as it is.
    """
    try:
        import hypothesis  # noqa: F401 - only to know whether it is there
    except ImportError:
        return dataclasses.replace(found, hypothesis=False)
    smaller = _hypothesis_search(program, budget, seed, report)
    if smaller is None or _size(smaller.request) >= _size(found.request):
        return found
    return smaller


def _hypothesis_search(
    program: Program, budget: int, seed: int, report: Callable[[], None],
) -> Mismatch | None:
    """Run a Hypothesis search for a disagreeing turn; return it shrunk, or ``None``."""
    from hypothesis import HealthCheck, Phase, Verbosity, given, settings
    from hypothesis import seed as hypothesis_seed
    from hypothesis.errors import Flaky

    from take5rules.conformance.strategies import requests

    smallest: list[Mismatch] = []

    def check(request: dict[str, Any]) -> None:
        theirs = program.ask(request)
        ours = answer(request)
        if normal_reply(ours) == normal_reply(theirs):
            return
        mismatch = Mismatch(request, ours, theirs, deciding_rule(request, theirs))
        if not smallest or _size(request) < _size(smallest[0].request):
            smallest[:] = [mismatch]
        report()
        raise _DisagreementError(mismatch)

    run = hypothesis_seed(seed)(settings(
        settings.get_profile("default"),
        max_examples=budget,
        database=None,
        derandomize=False,
        deadline=None,
        phases=(Phase.generate, Phase.shrink),
        suppress_health_check=list(HealthCheck),
        verbosity=Verbosity.quiet,
        report_multiple_bugs=False,
        print_blob=False,
    )(given(requests())(check)))
    found: Mismatch | None = None
    with _private_hypothesis_storage():
        try:
            run()
        except _DisagreementError as disagreement:
            found = disagreement.mismatch
        except Flaky:  # the program answers the same turn differently from one time to the next
            found = smallest[0] if smallest else None
    return None if found is None else simplify(program, found)


def _renamed(request: Mapping[str, Any]) -> dict[str, Any]:
    """*request* with its players renamed ana, bob, cyd... in seat order."""
    names = {player: name for (player, _), name in zip(request["plays"], PLAYER_NAMES,
                                                        strict=False)}
    return {
        "rows": request["rows"],
        "plays": [[names[player], value] for player, value in request["plays"]],
        "choices": {names[player]: row for player, row in request["choices"].items()},
    }


def _still_disagrees(program: Program, candidate: dict[str, Any]) -> Mismatch | None:
    ours, theirs = answer(candidate), program.ask(candidate)
    if normal_reply(ours) == normal_reply(theirs):
        return None
    return Mismatch(candidate, ours, theirs, deciding_rule(candidate, theirs))


def simplify(program: Program, mismatch: Mismatch) -> Mismatch:
    """Shrink further than Hypothesis can, as long as the program still disagrees.

    Hypothesis shrinks the rows and the plays separately, so it can end with four one-card
    rows and four plays where one longer row and two plays would do, or keep cards in a row
    that only its last card matters for. So, first, the lowest card's placement is made part
    of the rows and its play dropped; then cards that are not the last of their row are
    dropped one at a time.
    """
    while len(mismatch.request["plays"]) > 2:
        result, chosen = _resolved(mismatch.request)
        first, placement = result.placements[0]
        simpler = _still_disagrees(program, _renamed({
            "rows": placement.table.to_json(),
            "plays": [play for play in mismatch.request["plays"] if play[0] != first],
            "choices": {player: row for player, row in chosen.items() if player != first},
        }))
        if simpler is None:
            break
        mismatch = simpler
    dropped = True
    while dropped:
        dropped = False
        rows = mismatch.request["rows"]
        for index, row in enumerate(rows):
            for position in range(len(row) - 1):
                shorter = [*row[:position], *row[position + 1:]]
                simpler = _still_disagrees(program, {
                    **mismatch.request,
                    "rows": [shorter if i == index else list(r) for i, r in enumerate(rows)],
                })
                if simpler is not None:
                    mismatch, dropped = simpler, True
                    break
            if dropped:
                break
    return mismatch
