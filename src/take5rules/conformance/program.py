"""The program under test: one process, one request line and one reply line at a time.

:class:`Program` starts the command (without a shell, in its own process group), writes each
request as a JSON line, reads the reply line with a timeout, keeps the tail of its stderr, and
turns every way it can break (it cannot start, exits, hangs, answers garbage or a line longer
than :data:`MAX_REPLY_BYTES`) into a :class:`Broken` carrying the
:class:`~take5rules.conformance.outcome.Failure`. The process itself is a
:class:`~take5rules.playing.channel.Channel`, the one place where a child program is started,
spoken to in lines and stopped (every one still running is stopped at exit and on SIGTERM).
"""

from __future__ import annotations

import json
import time
from collections.abc import Mapping, Sequence
from typing import Any

from take5rules._messages import N_
from take5rules.conformance.outcome import Failure, FailureKind
from take5rules.errors import MalformedInputError
from take5rules.playing.channel import Channel, ChannelError

__all__ = ["MAX_REPLY_BYTES", "Broken", "Program"]

#: The stderr lines shown in a report.
_STDERR_LINES = 12
#: The longest reply line read from the program, in bytes (its newline not counted); a longer
#: one makes it broken.
MAX_REPLY_BYTES = 65_536


class Broken(BaseException):
    """The program broke: stops the Hypothesis run at once, without shrinking.

    A :class:`BaseException`, not an :class:`Exception`, so that Hypothesis lets it through
    instead of treating it as a failure to shrink.
    """

    def __init__(self, failure: Failure) -> None:
        super().__init__(failure.message)
        self.failure = failure


class Program:
    """The program under test: one process, one request line and one reply line at a time."""

    def __init__(self, command: Sequence[str], timeout: float) -> None:
        self.command = tuple(command)
        self.timeout = timeout
        self.broken: Failure | None = None
        self.sent = 0
        try:
            self._channel = Channel(self.command, max_line=MAX_REPLY_BYTES + 1)
            self._channel.start()
        except (ChannelError, MalformedInputError) as error:
            reason = error.params.get("reason", error.message)
            raise Broken(Failure("start", N_("it could not be started: {reason}"),
                                 {"reason": str(reason)})) from None

    def stderr_tail(self) -> str:
        """The last lines the program wrote on stderr."""
        return "\n".join(self._channel.stderr_tail()[-_STDERR_LINES:])

    def _fail(self, kind: FailureKind, detail: str, request: Mapping[str, Any] | None,
              **params: Any) -> Broken:
        # Stop the program first, then read its stderr to the end: only then is the tail
        # complete (a hung program's last words may still be in the pipe).
        self.close(grace=0.0)
        self.broken = Failure(kind, detail, params, self.stderr_tail(), request,
                              self.sent if request is not None else None)
        return Broken(self.broken)

    def _crashed(self, request: Mapping[str, Any] | None) -> Broken:
        status = self._channel.returncode
        if status is None:
            return self._fail("crash", N_("it closed its standard output"), request)
        return self._fail("crash", N_("it exited with status {status}"), request, status=status)

    def _broken_by(self, error: ChannelError, request: Mapping[str, Any]) -> Broken:
        if error.kind == "time":
            return self._fail("timeout", N_("it did not answer within {timeout} seconds"),
                              request, timeout=self.timeout)
        if error.kind == "oversize":
            return self._fail("garbage", N_("it answered a line longer than {limit} bytes"),
                              request, limit=MAX_REPLY_BYTES)
        return self._crashed(request)

    def ask(self, request: Mapping[str, Any]) -> dict[str, Any]:
        """Send *request*; return the program's reply, or raise :class:`Broken`."""
        if self.broken is not None:
            raise Broken(self.broken)
        line = json.dumps(request, ensure_ascii=False)
        self.sent += 1
        deadline = time.monotonic() + self.timeout
        try:
            self._channel.send(line, deadline)
            while True:
                text = self._channel.receive(deadline).decode("utf-8", errors="replace").strip()
                if text:
                    break
        except ChannelError as error:
            raise self._broken_by(error, request) from None
        try:
            reply = json.loads(text)
        except json.JSONDecodeError:
            raise self._fail("garbage", N_("it answered a line that is not JSON: {line!r}"),
                             request, line=_clip(text)) from None
        except RecursionError:
            raise self._fail("garbage", N_("it answered JSON nested too deeply to read: {line!r}"),
                             request, line=_clip(text)) from None
        except ValueError:  # an integer over Python's digit limit
            raise self._fail("garbage", N_("it answered a number too long to read: {line!r}"),
                             request, line=_clip(text)) from None
        problem = _shape_problem(reply)
        if problem is not None:
            raise self._fail("garbage", problem, request, line=_clip(text))
        assert isinstance(reply, dict)
        return reply

    def close(self, grace: float = 1.0) -> None:
        """Close the program's stdin, give it *grace* seconds to exit, then stop it.

        Its process group is sent SIGTERM, then (a second later, or at once when *grace* is 0)
        SIGKILL.
        """
        self._channel.stop(grace=grace, term_grace=1.0 if grace > 0 else 0.0)


def _clip(text: str, size: int = 200) -> str:
    return text if len(text) <= size else text[:size] + "…"


def _is_card_list(value: object) -> bool:
    return isinstance(value, list) and all(
        isinstance(item, int) and not isinstance(item, bool) for item in value
    )


def _shape_problem(reply: object) -> str | None:
    """Why *reply* is not a protocol reply, as a template with ``{line}``; ``None`` if it is."""
    if not isinstance(reply, dict):
        return N_("it answered JSON that is not an object: {line!r}")
    if "error" in reply:
        if not isinstance(reply["error"], dict):
            return N_("its 'error' is not an object: {line!r}")
        return None
    rows, taken, chosen = reply.get("rows"), reply.get("taken"), reply.get("chosen")
    if not (isinstance(rows, list) and len(rows) == 4 and all(_is_card_list(r) for r in rows)):
        return N_("its reply has no 'rows' of four lists of cards: {line!r}")
    if not (isinstance(taken, dict) and all(_is_card_list(v) for v in taken.values())):
        return N_("its reply has no 'taken' object of card lists: {line!r}")
    if not (isinstance(chosen, dict) and all(
            isinstance(v, int) and not isinstance(v, bool) for v in chosen.values())):
        return N_("its reply has no 'chosen' object of row indices: {line!r}")
    return None

