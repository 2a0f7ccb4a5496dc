"""pytest plugin: the ``take5_conformance`` fixture checks a referee program against take5rules.

Installed with take5rules (entry point ``pytest11``), so any project that has take5rules
installed can write, in a test file::

    def test_my_engine(take5_conformance):
        take5_conformance(["./my-engine", "--referee"], cases=200)

The program must speak the referee line protocol (see :mod:`take5rules.conformance.referee`). The
test
fails with the disagreeing turn (shrunk to the smallest when Hypothesis, from the extra
``take5rules[conform]``, is installed), both replies and the rule that decides, or with how
the program broke (see :mod:`take5rules.conformance.run`); on success the fixture returns the
:class:`~take5rules.conformance.outcome.ConformanceResult`.

The plugin only defines this fixture: pytest loads it in every run where take5rules is
installed, so loading it imports nothing but pytest and take5rules' light core (no Hypothesis,
no catalogs, no command-line tools), and projects that do not use the fixture are not affected.
"""

from __future__ import annotations

import shlex
from collections.abc import Sequence
from typing import TYPE_CHECKING, Protocol

import pytest

if TYPE_CHECKING:
    from take5rules.conformance.outcome import ConformanceResult

__all__ = ["ConformanceCheck", "take5_conformance"]


class ConformanceCheck(Protocol):
    """The ``take5_conformance`` fixture's value: run a conformance check, fail the test."""

    def __call__(
        self, cmd: Sequence[str] | str, cases: int = 200, seed: int = 0, timeout: float = 5.0
    ) -> ConformanceResult:
        """Check *cmd* on *cases* generated turns; fail the current test unless it agrees."""


def _check(
    cmd: Sequence[str] | str, cases: int = 200, seed: int = 0, timeout: float = 5.0
) -> ConformanceResult:
    from take5rules.conformance.outcome import format_result
    from take5rules.conformance.run import run_conformance

    argv = _split(cmd) if isinstance(cmd, str) else cmd
    result = run_conformance(argv, cases=cases, seed=seed, timeout=timeout)
    if not result.ok:
        pytest.fail(format_result(result), pytrace=False)
    return result


def _split(cmd: str) -> list[str]:
    """*cmd* split like a shell would, or a clear error naming the argument."""
    try:
        return shlex.split(cmd)
    except ValueError:  # an unclosed quotation or escape
        from take5rules._messages import N_
        from take5rules.errors import MalformedInputError

        raise MalformedInputError(
            "argument",
            N_("cmd {value} cannot be split as a shell would: a quotation or escape is not "
               "closed"),
            value=repr(cmd)[:80],
        ) from None


@pytest.fixture
def take5_conformance() -> ConformanceCheck:
    """Check a referee program: ``take5_conformance(["./engine", "--referee"], cases=200)``.

    *cmd* is a list of arguments, or one string split like a shell would. The test fails with
    the disagreeing turn (or how the program broke) as its message.
    """
    return _check
