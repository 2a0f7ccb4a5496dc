"""A deadline for tests of inputs that once hung: the test fails instead of hanging the suite."""

from __future__ import annotations

import signal
from collections.abc import Iterator
from contextlib import contextmanager


@contextmanager
def within(seconds: int) -> Iterator[None]:
    """Fail the test (instead of hanging it) when the block runs longer than *seconds*."""
    def expired(_signal: int, _frame: object) -> None:
        raise TimeoutError(f"still running after {seconds} s")

    previous = signal.signal(signal.SIGALRM, expired)
    signal.alarm(seconds)
    try:
        yield
    finally:
        signal.alarm(0)
        signal.signal(signal.SIGALRM, previous)
