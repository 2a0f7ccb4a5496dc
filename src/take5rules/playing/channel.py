"""A child program spoken to in lines: started, written to, read from and stopped in one place.

A :class:`Channel` starts a command (a command line split as a POSIX shell would, without a
shell) in its own process group, writes lines to its stdin and reads lines from its stdout,
each with a wall-clock deadline and never holding more than :data:`MAX_LINE` bytes of one line,
and keeps the last :data:`STDERR_LINES` lines of its stderr to show when something goes wrong.
What can go wrong is a :class:`ChannelError` whose ``kind`` says what: ``start`` (the command
cannot be started), ``exited`` (the program ended or closed its stdout), ``oversize`` (a line
longer than :data:`MAX_LINE` bytes, newline included) and ``time`` (no line before the
deadline).

:meth:`Channel.stop` stops the program: the quit line if one is given, then its stdin closed, a
grace time, ``SIGTERM`` to its whole process group, another grace time, ``SIGKILL``. Every
channel still running is stopped when the interpreter exits (a multiprocessing worker too), on
``SIGTERM`` and on Ctrl-C (which ends the interpreter through :class:`KeyboardInterrupt`).
POSIX only (pipes are waited on with :mod:`selectors`). For example (a deadline is a
:func:`time.monotonic` time)::

    echo = Channel([sys.executable, "-c", "import sys; print(sys.stdin.readline().upper())"])
    echo.start()
    echo.send("hello", deadline=None)
    echo.receive(deadline=time.monotonic() + 10)    # b'HELLO'
    echo.stop()                                      # 0, its exit status
"""

from __future__ import annotations

import atexit
import codecs
import contextlib
import os
import selectors
import shlex
import signal
import subprocess
import sys
import threading
import time
from collections import deque
from collections.abc import Iterable, Sequence
from typing import Any, Literal

from take5rules._messages import N_, os_reason
from take5rules.errors import MalformedInputError, Take5Error, Where

__all__ = [
    "MAX_LINE",
    "STDERR_LINES",
    "Channel",
    "ChannelError",
    "ChannelKind",
    "command_words",
    "stop_all",
]

#: The longest line either way, in bytes, its newline included.
MAX_LINE = 65_536
#: The lines of the program's stderr kept (the last ones).
STDERR_LINES = 20
#: The characters kept of one line of stderr.
_STDERR_WIDTH = 1_000
#: Bytes read from stderr at a time.
_STDERR_CHUNK = 4_096
#: Reads of stderr made to drain it before its tail is shown, at most.
_STDERR_DRAINS = 64
#: The seconds the exit of a program that closed its stdout is waited for, to name its status.
_EXIT_WAIT = 1.0

#: What went wrong with the program.
ChannelKind = Literal["start", "exited", "oversize", "time"]

_EMPTY = N_("the command is empty: give the program to start")
_UNSPLIT = N_("the command {command!r} cannot be split into words: {reason}")
_BAD_LIMIT = N_("max_line = {value!r}: the longest line is a whole number of bytes, at least 2")
_TOO_LONG = N_("a line of {size} bytes is longer than the {limit} bytes a line may have")
_CANNOT_START = N_("the program {program!r} could not be started: {reason}")
_EXITED = N_("the program exited with status {status}")
_KILLED = N_("the program was ended by signal {signal}")
_CLOSED = N_("the program closed its standard output")
_OVERSIZE = N_("the program wrote a line longer than {limit} bytes")
_NO_LINE = N_("the program did not answer within {ms} ms")
_NOT_READING = N_("the program did not read its input within {ms} ms")


class ChannelError(Take5Error):
    """The program cannot be talked to any more: *kind* says why (see :data:`ChannelKind`).

    Its id is ``player`` (a player program that failed, no rule of the game broken). The
    channel is not usable after it: stop it (:meth:`Channel.stop`).
    """

    def __init__(self, kind: ChannelKind, template: str, /, **params: Any) -> None:
        self.kind: ChannelKind = kind
        super().__init__("player", template, **params)

    def __reduce__(self) -> tuple[Any, ...]:
        return (_rebuild, (self.kind, self.template, self.where, self.params))


def _rebuild(kind: ChannelKind, template: str, where: Where,
             params: dict[str, Any]) -> ChannelError:
    return ChannelError(kind, template, where=where, **params)


def command_words(command: str | Sequence[str]) -> tuple[str, ...]:
    """The words of *command*: a string split as a POSIX shell would (no shell runs), or the list.

    >>> command_words("node 'my bot.js' --fast")
    ('node', 'my bot.js', '--fast')
    >>> command_words("bot 'unclosed")
    Traceback (most recent call last):
    ...
    take5rules.errors.MalformedInputError: the command "bot 'unclosed" cannot be split into \
words: No closing quotation [argument]
    """
    if isinstance(command, str):
        try:
            words = tuple(shlex.split(command))
        except ValueError as error:
            raise MalformedInputError("argument", _UNSPLIT, command=command,
                                      reason=str(error)) from None
    elif isinstance(command, Sequence) and all(isinstance(word, str) for word in command):
        words = tuple(command)
    else:
        raise MalformedInputError("argument", _UNSPLIT, command=command,
                                  reason="not a text or a list of texts")
    if not words or not words[0]:
        raise MalformedInputError("argument", _EMPTY)
    return words


class Channel:
    """One child program, spoken to in lines (see the module): start, send, receive, stop.

    Not started by its constructor: :meth:`start` does it (and raises ``start``). Not
    thread-safe: one caller talks to it at a time. *max_line* is the longest line read, in
    bytes, its newline included (:data:`MAX_LINE` unless a protocol says otherwise).
    """

    def __init__(self, command: str | Sequence[str], *, cwd: str | None = None,
                 env: dict[str, str] | None = None, max_line: int = MAX_LINE) -> None:
        self.words = command_words(command)
        self.cwd, self.env = cwd, env
        if type(max_line) is not int or max_line < 2:
            raise MalformedInputError("argument", _BAD_LIMIT, value=max_line)
        self.max_line = max_line
        self._process: subprocess.Popen[bytes] | None = None
        self._selector: selectors.BaseSelector | None = None
        self._buffer = bytearray()
        self._scanned = 0
        self._eof = False
        self._broken = False
        self._owner = 0
        self._tail: deque[str] = deque(maxlen=STDERR_LINES)
        self._partial = ""
        self._decoder = codecs.getincrementaldecoder("utf-8")("replace")

    def __repr__(self) -> str:
        return f"Channel({shlex.join(self.words)!r}, pid={self.pid})"

    @property
    def pid(self) -> int | None:
        """The program's process id (also its process group's), ``None`` before the start."""
        return None if self._process is None else self._process.pid

    @property
    def running(self) -> bool:
        """Whether the program was started and has not been stopped or reaped."""
        return self._process is not None and self._process.poll() is None

    @property
    def returncode(self) -> int | None:
        """The program's exit status once it ended (negative: the signal that ended it)."""
        return None if self._process is None else self._process.poll()

    def start(self) -> None:
        """Start the program (a no-op when it runs); :class:`ChannelError` ``start`` if it cannot.

        A channel that was stopped starts afresh: a new process, nothing kept of the last one.
        """
        if self.running and not self._broken:
            return
        self.stop(grace=0.0, term_grace=0.0)
        self._buffer.clear()
        self._scanned, self._eof, self._broken = 0, False, False
        self._tail.clear()
        self._partial = ""
        self._decoder.reset()
        _hook()
        try:
            process = subprocess.Popen(
                list(self.words), stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                stderr=subprocess.PIPE, bufsize=0, cwd=self.cwd, env=self.env,
                start_new_session=True,
            )
        except (OSError, ValueError, subprocess.SubprocessError) as error:
            reason = os_reason(error) if isinstance(error, OSError) else str(error)
            raise ChannelError("start", _CANNOT_START, program=self.words[0],
                               reason=reason) from None
        self._process, self._owner = process, os.getpid()
        assert process.stdin
        assert process.stdout
        assert process.stderr
        for stream in (process.stdin, process.stdout, process.stderr):
            os.set_blocking(stream.fileno(), False)
        self._selector = selectors.DefaultSelector()
        self._selector.register(process.stdout, selectors.EVENT_READ)
        self._selector.register(process.stderr, selectors.EVENT_READ)
        with _LOCK:
            _LIVE[id(self)] = self

    def send(self, line: str | bytes, deadline: float | None) -> None:
        """Write *line* and its newline, by *deadline* (:func:`time.monotonic`, ``None``: none).

        ``exited`` when the program no longer reads its stdin, ``time`` when it does not take
        the line in time. A line over :attr:`max_line` bytes is refused (id ``argument``).
        """
        data = line.encode("utf-8") if isinstance(line, str) else bytes(line)
        if not data.endswith(b"\n"):
            data += b"\n"
        if len(data) > self.max_line:
            raise MalformedInputError("argument", _TOO_LONG, size=len(data),
                                      limit=self.max_line)
        if self._process is None or self._selector is None:
            self.start()  # a line may still be written after a bad one was read (an error)
        process = self._process
        assert process is not None
        assert process.stdin is not None
        if process.stdin.closed:
            raise self._exited()
        view = memoryview(data)
        started = time.monotonic()
        waiter: selectors.BaseSelector | None = None
        try:
            while view:
                try:
                    view = view[os.write(process.stdin.fileno(), view):]
                    continue
                except BlockingIOError:
                    pass
                except OSError:  # a closed pipe: it stopped reading, most likely it ended
                    raise self._exited() from None
                if waiter is None:
                    waiter = selectors.DefaultSelector()
                    waiter.register(process.stdin, selectors.EVENT_WRITE)
                    assert process.stderr is not None
                    if not self._stderr_closed():
                        waiter.register(process.stderr, selectors.EVENT_READ)
                timeout = _left(deadline)
                if timeout is not None and timeout <= 0:
                    self._broken = True
                    raise ChannelError("time", _NOT_READING,
                                       ms=round(((deadline or started) - started) * 1000))
                for key, _ in waiter.select(timeout):
                    if key.fileobj is not process.stdin:
                        self._read_stderr()
                        if self._stderr_closed():
                            waiter.unregister(key.fileobj)
        finally:
            if waiter is not None:
                waiter.close()

    def receive(self, deadline: float | None) -> bytes:
        """The next line the program writes, without its newline, read by *deadline*.

        *deadline* is a :func:`time.monotonic` time, ``None`` for none. Never holds more than
        :attr:`max_line` bytes: a longer line is ``oversize``. ``exited`` when the program ends
        or closes its stdout, ``time`` at the deadline. Blocks in :mod:`selectors`, draining
        stderr meanwhile.
        """
        process = self._running()
        selector = self._selector
        assert selector is not None
        assert process.stdout is not None
        started = time.monotonic()
        while True:
            end = self._buffer.find(b"\n", self._scanned)
            if end >= 0:
                line = bytes(self._buffer[:end])
                del self._buffer[:end + 1]
                self._scanned = 0
                return line
            self._scanned = len(self._buffer)
            if len(self._buffer) >= self.max_line:
                self._broken = True
                self._buffer.clear()
                raise ChannelError("oversize", _OVERSIZE, limit=self.max_line)
            if self._eof:
                raise self._exited()
            timeout = _left(deadline)
            if timeout is not None and timeout <= 0:
                self._broken = True
                raise ChannelError("time", _NO_LINE,
                                   ms=round(((deadline or started) - started) * 1000))
            for key, _ in selector.select(timeout):
                if key.fileobj is process.stdout:
                    self._read_stdout()
                else:
                    self._read_stderr()

    def unread(self) -> bool:
        """Whether the program wrote something not read yet; reads what is there, never waits.

        ``exited`` when it has closed its stdout (and nothing is left to read).
        """
        process = self._running()
        selector = self._selector
        assert selector is not None
        if not self._buffer and not self._eof:
            for key, _ in selector.select(0):
                if key.fileobj is process.stdout:
                    self._read_stdout()
                else:
                    self._read_stderr()
        if self._buffer:
            return True
        if self._eof:
            raise self._exited()
        return False

    def stderr_tail(self) -> tuple[str, ...]:
        """The last lines (at most :data:`STDERR_LINES`) the program wrote on its stderr."""
        process = self._process
        if process is not None and process.stderr is not None and not process.stderr.closed:
            for _ in range(_STDERR_DRAINS):
                if not self._read_stderr():
                    break
        lines = [*self._tail, *([self._partial] if self._partial else [])]
        return tuple(lines[-STDERR_LINES:])

    def stop(self, quit_line: str | None = None, *, grace: float = 1.0,
             term_grace: float = 1.0) -> int | None:
        """Stop the program; return its exit status (``None`` if it was never started).

        Writes *quit_line* (best effort), closes its stdin, waits *grace* seconds for it to
        exit, then sends ``SIGTERM`` to its process group, waits *term_grace* seconds, then
        ``SIGKILL``. Its stderr is read to the end first (:meth:`stderr_tail` stays).
        """
        if self._process is None:
            return None
        _stop_many([self], quit_line, grace, term_grace)
        return self._process.returncode

    def _running(self) -> subprocess.Popen[bytes]:
        if self._process is None or self._selector is None:
            self.start()
        assert self._process is not None
        if self._broken:
            raise self._exited()
        return self._process

    def _stderr_closed(self) -> bool:
        process = self._process
        return process is None or process.stderr is None or process.stderr.closed

    def _read_stdout(self) -> None:
        process = self._process
        assert process is not None
        assert process.stdout is not None
        try:
            chunk = os.read(process.stdout.fileno(), self.max_line - len(self._buffer))
        except BlockingIOError:
            return
        except OSError:
            chunk = b""
        if not chunk:
            self._eof = True
            if self._selector is not None:
                with contextlib.suppress(KeyError, ValueError):
                    self._selector.unregister(process.stdout)
            return
        self._buffer += chunk

    def _read_stderr(self) -> bool:
        """Read one piece of stderr into the tail; ``False`` when there was none to read."""
        process = self._process
        if process is None or process.stderr is None or process.stderr.closed:
            return False
        try:
            chunk = os.read(process.stderr.fileno(), _STDERR_CHUNK)
        except BlockingIOError:
            return False
        except OSError:
            chunk = b""
        if not chunk:
            if self._selector is not None:
                with contextlib.suppress(KeyError, ValueError):
                    self._selector.unregister(process.stderr)
            process.stderr.close()
            text = self._decoder.decode(b"", final=True)
        else:
            text = self._decoder.decode(chunk)
        pieces = text.split("\n")
        pieces[0] = self._partial + pieces[0]
        self._partial = pieces.pop()[:_STDERR_WIDTH]
        self._tail.extend(piece.rstrip("\r")[:_STDERR_WIDTH] for piece in pieces)
        return bool(chunk)

    def _exited(self) -> ChannelError:
        """The error for a program that no longer talks: its exit status when it has one."""
        self._broken = True
        process = self._process
        assert process is not None
        try:
            status = process.wait(timeout=_EXIT_WAIT)
        except subprocess.TimeoutExpired:
            return ChannelError("exited", _CLOSED)
        if status < 0:
            try:
                name = signal.Signals(-status).name
            except ValueError:
                name = str(-status)
            return ChannelError("exited", _KILLED, signal=name)
        return ChannelError("exited", _EXITED, status=status)

    def _release(self) -> None:
        """Drain stderr, close the pipes and forget the channel (the process is reaped)."""
        process = self._process
        if process is None:
            return
        self.stderr_tail()
        for stream in (process.stdin, process.stdout, process.stderr):
            if stream is not None:
                with contextlib.suppress(OSError):
                    stream.close()
        if self._selector is not None:
            self._selector.close()
            self._selector = None
        self._broken = True
        with _LOCK:
            _LIVE.pop(id(self), None)


def _left(deadline: float | None) -> float | None:
    return None if deadline is None else deadline - time.monotonic()


def _signal_group(process: subprocess.Popen[bytes], signum: int) -> bool:
    """Send *signum* to *process*'s group; ``False`` when the group is gone."""
    try:
        os.killpg(process.pid, signum)
    except (ProcessLookupError, PermissionError):
        return False
    return True


def _wait_all(processes: Iterable[subprocess.Popen[bytes]], seconds: float) -> None:
    """Wait until each of *processes* has ended, *seconds* at most in all."""
    deadline = time.monotonic() + seconds
    for process in processes:
        with contextlib.suppress(subprocess.TimeoutExpired):
            process.wait(timeout=max(0.0, deadline - time.monotonic()))


def _group_alive(process: subprocess.Popen[bytes]) -> bool:
    return _signal_group(process, 0)


def _stop_many(channels: Sequence[Channel], quit_line: str | None, grace: float,
               term_grace: float) -> None:
    """Stop *channels* together: quit line, stdin closed, *grace*, SIGTERM, *term_grace*, KILL.

    The process group of each is signalled, so that what the program started stops too.
    """
    started = [channel for channel in channels if channel._process is not None]
    processes = [channel._process for channel in started if channel._process is not None]
    for channel in started:
        process = channel._process
        assert process is not None
        if quit_line is not None and process.poll() is None:
            with contextlib.suppress(Take5Error, OSError, ValueError):
                channel.send(quit_line, deadline=time.monotonic() + min(grace, 0.2))
        if process.stdin is not None:
            with contextlib.suppress(OSError):
                process.stdin.close()
    if grace > 0:
        _wait_all(processes, grace)
    living = [process for process in processes if process.poll() is None or
              _group_alive(process)]
    for process in living:
        _signal_group(process, signal.SIGTERM)
    if living and term_grace > 0:
        deadline = time.monotonic() + term_grace
        _wait_all(living, term_grace)
        while (any(_group_alive(process) for process in living)
               and time.monotonic() < deadline):  # what the program started, still there
            time.sleep(0.02)
    for process in living:
        if process.poll() is None or _group_alive(process):
            _signal_group(process, signal.SIGKILL)
    for process in processes:
        with contextlib.suppress(subprocess.TimeoutExpired):
            process.wait(timeout=5.0)
    for channel in started:
        channel._release()


#: The channels running, by ``id``: each is stopped when the interpreter ends.
_LIVE: dict[int, Channel] = {}
_LOCK = threading.Lock()
_HOOKED: list[int] = []  # the process ids where the exit and signal hooks are installed


def stop_all(grace: float = 1.0) -> None:
    """Stop every channel this process started and still runs (at exit, on SIGTERM)."""
    with _LOCK:
        mine = [channel for channel in _LIVE.values() if channel._owner == os.getpid()]
    if mine:
        _stop_many(mine, None, grace, grace)


def _on_sigterm(signum: int, frame: Any) -> None:
    """Stop every child, then do what SIGTERM did before (by default: end this process)."""
    previous = _PREVIOUS.get(os.getpid(), signal.SIG_DFL)
    stop_all()
    if callable(previous):
        previous(signum, frame)
        return
    signal.signal(signal.SIGTERM, signal.SIG_DFL)
    os.kill(os.getpid(), signal.SIGTERM)


_PREVIOUS: dict[int, Any] = {}


def _hook() -> None:
    """Install, once per process, the stops at exit and on SIGTERM."""
    pid = os.getpid()
    if pid in _HOOKED:
        return
    _HOOKED.append(pid)
    atexit.register(stop_all)
    if "multiprocessing" in sys.modules:  # a worker ends through os._exit, not atexit
        from multiprocessing import util

        util.Finalize(None, stop_all, exitpriority=100)
    if threading.current_thread() is threading.main_thread():
        previous = signal.getsignal(signal.SIGTERM)
        if previous is not signal.SIG_IGN and previous is not _on_sigterm:
            _PREVIOUS[pid] = previous
            signal.signal(signal.SIGTERM, _on_sigterm)
