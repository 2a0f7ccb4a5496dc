"""The program under test: one process, one request line and one reply line at a time.

:class:`Program` starts the command (without a shell, in its own process group), writes each
request as a JSON line, reads the reply line with a timeout, keeps the tail of its stderr, and
turns every way it can break (it cannot start, exits, hangs, answers garbage or a line longer
than :data:`MAX_REPLY_BYTES`) into a :class:`Broken` carrying the
:class:`~take5rules.conformance.outcome.Failure`.
"""

from __future__ import annotations

import contextlib
import json
import os
import queue
import signal
import subprocess
import threading
from collections import deque
from collections.abc import Mapping, Sequence
from typing import Any

from take5rules._messages import N_
from take5rules.conformance.outcome import Failure, FailureKind

__all__ = ["MAX_REPLY_BYTES", "Broken", "Program"]

#: The most stderr kept from the program, in characters.
_STDERR_KEEP = 4000
#: The stderr lines shown in a report.
_STDERR_LINES = 12
#: The longest reply line read from the program, in bytes; a longer one makes it broken.
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
        self._lines: queue.Queue[bytes | None] = queue.Queue()
        self._stderr: deque[str] = deque()
        self._stderr_size = 0
        self._lock = threading.Lock()
        self.broken: Failure | None = None
        self.sent = 0
        self.overlong = False
        try:
            self._process = subprocess.Popen(
                list(self.command),
                stdin=subprocess.PIPE,
                stdout=subprocess.PIPE,
                stderr=subprocess.PIPE,
                start_new_session=os.name == "posix",
            )
        except (OSError, ValueError) as error:
            reason = error.strerror if isinstance(error, OSError) and error.strerror else error
            raise Broken(Failure("start", N_("it could not be started: {reason}"),
                                  {"reason": str(reason)})) from None
        self._readers = [
            threading.Thread(target=self._read_stdout, daemon=True),
            threading.Thread(target=self._read_stderr, daemon=True),
        ]
        for reader in self._readers:
            reader.start()

    def _read_stdout(self) -> None:
        stdout = self._process.stdout
        assert stdout is not None
        while True:
            line = stdout.readline(MAX_REPLY_BYTES + 1)
            if not line:
                break
            if len(line) > MAX_REPLY_BYTES and not line.endswith(b"\n"):
                self.overlong = True  # stop reading: the program is broken
                break
            self._lines.put(line)
        self._lines.put(None)

    def _read_stderr(self) -> None:
        stderr = self._process.stderr
        assert stderr is not None
        # In pieces of bounded size, so that an endless line cannot fill our memory.
        for raw in iter(lambda: stderr.readline(_STDERR_KEEP), b""):
            text = raw.decode("utf-8", errors="replace")
            with self._lock:
                self._stderr.append(text)
                self._stderr_size += len(text)
                while self._stderr_size > _STDERR_KEEP and len(self._stderr) > 1:
                    self._stderr_size -= len(self._stderr.popleft())

    def stderr_tail(self) -> str:
        """The last lines the program wrote on stderr."""
        with self._lock:
            text = "".join(self._stderr)
        return "\n".join(text.rstrip("\n").splitlines()[-_STDERR_LINES:])

    def _fail(self, kind: FailureKind, detail: str, request: Mapping[str, Any] | None,
              **params: Any) -> Broken:
        # Stop the program first, then read its stderr to the end: only then is the tail
        # complete (a hung program's last words may still be in the pipe).
        self.close(grace=0.0)
        self.broken = Failure(kind, detail, params, self.stderr_tail(), request,
                              self.sent if request is not None else None)
        return Broken(self.broken)

    def _exit_status(self) -> int | None:
        try:
            return self._process.wait(timeout=1.0)
        except subprocess.TimeoutExpired:
            return None

    def _crashed(self, request: Mapping[str, Any] | None) -> Broken:
        status = self._exit_status()
        if status is None:
            return self._fail("crash", N_("it closed its standard output"), request)
        return self._fail("crash", N_("it exited with status {status}"), request, status=status)

    def ask(self, request: Mapping[str, Any]) -> dict[str, Any]:
        """Send *request*; return the program's reply, or raise :class:`Broken`."""
        if self.broken is not None:
            raise Broken(self.broken)
        assert self._process.stdin is not None
        line = json.dumps(request, ensure_ascii=False) + "\n"
        self.sent += 1
        try:
            self._process.stdin.write(line.encode("utf-8"))
            self._process.stdin.flush()
        except OSError:
            raise self._crashed(request) from None
        while True:
            try:
                raw = self._lines.get(timeout=self.timeout)
            except queue.Empty:
                raise self._fail("timeout", N_("it did not answer within {timeout} seconds"),
                                 request, timeout=self.timeout) from None
            if raw is None and self.overlong:
                raise self._fail("garbage", N_("it answered a line longer than {limit} bytes"),
                                 request, limit=MAX_REPLY_BYTES)
            if raw is None:
                raise self._crashed(request)
            text = raw.decode("utf-8", errors="replace").strip()
            if text:
                break
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
        """Close the program's stdin, give it *grace* seconds to exit, then kill it."""
        process = self._process
        with contextlib.suppress(OSError):
            if process.stdin is not None:
                process.stdin.close()
        if process.poll() is None and grace > 0:
            with contextlib.suppress(subprocess.TimeoutExpired):
                process.wait(timeout=grace)
        if process.poll() is None:
            with contextlib.suppress(OSError):
                if os.name == "posix":
                    os.killpg(process.pid, signal.SIGKILL)
                else:  # pragma: no cover - not POSIX
                    process.kill()
            with contextlib.suppress(subprocess.TimeoutExpired):
                process.wait(timeout=5.0)
        for reader, stream in zip(self._readers, (process.stdout, process.stderr), strict=True):
            # The process group is gone, so the pipes end: wait for the readers to see it.
            reader.join(timeout=5.0)
            if stream is not None and not reader.is_alive():
                stream.close()


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

