"""The games of an arena in worker processes: few workers, little work in flight, clean stops.

* Workers: at most *jobs*, the processor count, and the number of chunks of games.
* Work is submitted a little at a time (two chunks per worker in flight; at most
  :data:`EXECUTOR_IN_FLIGHT` chunks to an executor of :func:`play_on`), so that memory stays
  flat whatever the number of games.
* A worker ignores SIGINT (the parent decides) and exits when its parent dies. On SIGINT,
  SIGTERM or any failure the parent cancels what is queued, stops the workers and waits for
  them, so that none is left behind.
* Player programs (``cmd:`` seats) are started once per worker and kept for its later games
  (:class:`~take5rules.agents.arena_games.SeatPrograms`); a worker stops them when it ends,
  when it is sent SIGTERM and when its parent dies. An executor of :func:`play_on` starts them
  once per chunk of games, and stops them at the chunk's end.
* A game that a program stopped comes back as a
  :class:`~take5rules.agents.arena_games.GameFailure`, in place of its outcome.
"""

from __future__ import annotations

import os
import pickle
import signal
import threading
import time
from collections.abc import Callable, Iterator
from concurrent.futures import FIRST_COMPLETED, Executor, Future, ProcessPoolExecutor, wait
from concurrent.futures.process import BrokenProcessPool
from contextlib import contextmanager
from typing import Any, TypeAlias

from take5rules._messages import N_
from take5rules.agents.arena_games import ArenaSetup, GameFailure, SeatPrograms, play_or_fail
from take5rules.agents.arena_seats import ArenaPlayerError
from take5rules.agents.arena_store import Outcome
from take5rules.errors import RulesError
from take5rules.playing.channel import stop_all

__all__ = ["Interrupted", "Played", "chunk_size", "interrupting", "play_in_processes", "play_on",
           "worker_count"]

#: What a game gives back: its outcome, or the failure of a program that stopped it.
Played: TypeAlias = "Outcome | GameFailure"

#: Games a chunk holds at most, and chunks in flight per worker.
MAX_CHUNK = 25
IN_FLIGHT = 2
#: The most chunks of games an executor of :func:`play_on` holds at once (submitted, not read).
EXECUTOR_IN_FLIGHT = 256

_WORKER_DIED = N_("a worker process ended without its games' results (did a player end its "
                  "process?): {reason}")
_NOT_PICKLABLE = N_("with jobs above 1, every player must be a spec, a class or a picklable "
                    "object; {player!r} is not ({reason})")


class Interrupted(BaseException):
    """The run was stopped by a signal (``signum``); the workers are stopped."""

    def __init__(self, signum: int) -> None:
        super().__init__(signum)
        self.signum = signum


def worker_count(jobs: int, games: int) -> int:
    """How many workers: *jobs*, but no more than the processors, nor than the chunks.

    >>> worker_count(1000, 4) <= 4
    True
    """
    cpus = len(os.sched_getaffinity(0)) if hasattr(os, "sched_getaffinity") else os.cpu_count()
    chunks = -(-games // chunk_size(games, jobs))
    return max(1, min(jobs, cpus or 1, chunks))


def chunk_size(games: int, jobs: int) -> int:
    """Games per chunk: enough to keep a worker busy, few enough to share the work evenly.

    >>> chunk_size(4, 1000), chunk_size(10**8, 2)
    (1, 25)
    """
    return max(1, min(MAX_CHUNK, games // (jobs * 4)))


#: The player programs of this worker process (one worker plays one arena's games).
_WORKER_PROGRAMS: list[SeatPrograms] = []


def _watch_parent(parent: int) -> None:
    while True:
        time.sleep(0.5)
        if os.getppid() != parent:
            stop_all(grace=0.2)  # the worker's player programs, if any
            os._exit(1)


def _start_worker(parent: int) -> None:
    """In each worker: ignore SIGINT and SIGTERM's default, and exit when the parent is gone.

    SIGTERM's default until a player program starts in the worker; then it stops the programs
    first (:mod:`take5rules.playing.channel`). When the worker ends its programs are stopped,
    their quit message first.
    """
    from multiprocessing import util

    signal.signal(signal.SIGINT, signal.SIG_IGN)
    signal.signal(signal.SIGTERM, signal.SIG_DFL)
    threading.Thread(target=_watch_parent, args=(parent,), daemon=True).start()
    util.Finalize(None, _close_worker_programs, exitpriority=101)


def _close_worker_programs() -> None:
    while _WORKER_PROGRAMS:
        _WORKER_PROGRAMS.pop().close()


def _play_chunk(setup: ArenaSetup, start: int, stop: int) -> list[Played]:
    """Games *start* to *stop* (excluded); their programs started for them, stopped after."""
    with SeatPrograms() as programs:
        return [play_or_fail(setup, game, programs) for game in range(start, stop)]


def _play_chunk_in_worker(setup: ArenaSetup, start: int, stop: int) -> list[Played]:
    """Games *start* to *stop* in a worker, with the programs the worker keeps for its games."""
    if not _WORKER_PROGRAMS:
        _WORKER_PROGRAMS.append(SeatPrograms())
    return [play_or_fail(setup, game, _WORKER_PROGRAMS[0]) for game in range(start, stop)]


def play_on(executor: Executor, setup: ArenaSetup, games: int,
            progress: Callable[[int], None] | None) -> Iterator[Played]:
    """Every game's outcome (or failure), played in chunks by *executor*, as they finish.

    At most :data:`EXECUTOR_IN_FLIGHT` chunks are submitted and not yet read, so that neither
    the futures nor their results pile up, whatever the number of games.
    """
    size = max(1, min(MAX_CHUNK, games // 8))
    yield from _in_window(executor, _play_chunk, setup, games, size, EXECUTOR_IN_FLIGHT,
                          progress)


def _in_window(executor: Executor, chunk: Callable[[ArenaSetup, int, int], list[Played]],
               setup: ArenaSetup, games: int, size: int, window: int,
               progress: Callable[[int], None] | None) -> Iterator[Played]:
    """The outcomes of *games* in chunks of *size*, at most *window* chunks submitted unread.

    A chunk is submitted as each one is read; what is still submitted when the caller stops
    is cancelled.
    """
    starts = iter(range(0, games, size))
    pending: set[Future[list[Played]]] = set()
    try:
        for start in starts:
            pending.add(executor.submit(chunk, setup, start, min(start + size, games)))
            if len(pending) >= window:
                break
        while pending:
            done, pending = wait(pending, return_when=FIRST_COMPLETED)
            for future in done:
                outcomes = future.result()
                following = next(starts, None)
                if following is not None:
                    pending.add(executor.submit(chunk, setup, following,
                                                min(following + size, games)))
                yield from outcomes
                if progress is not None:
                    progress(len(outcomes))
    finally:
        for future in pending:
            future.cancel()


def _raise_interrupted(signum: int, _frame: object) -> None:
    raise Interrupted(signum)


def play_in_processes(setup: ArenaSetup, games: int, jobs: int,
                      progress: Callable[[int], None] | None) -> Iterator[Played]:
    """Every game's outcome (or failure), in the order they finish, played by workers."""
    try:
        pickle.dumps(setup)
    except Exception as error:
        bad = next((spec for spec in setup.specs if not _picklable(spec)), setup.specs[0])
        raise RulesError("argument", _NOT_PICKLABLE, player=repr(bad)[:80],
                         reason=f"{type(error).__name__}: {error}") from None
    size = chunk_size(games, jobs)
    workers = worker_count(jobs, games)
    handlers = _on_signals()
    pool = ProcessPoolExecutor(max_workers=workers, initializer=_start_worker,
                               initargs=(os.getpid(),))
    clean = False
    try:
        try:
            yield from _in_window(pool, _play_chunk_in_worker, setup, games, size,
                                  workers * IN_FLIGHT, progress)
        except BrokenProcessPool as error:  # a player ended its worker (os._exit...)
            raise ArenaPlayerError("player", _WORKER_DIED,
                                   reason=str(error) or type(error).__name__) from None
        clean = True
    finally:
        _stop(pool, clean)
        _restore(handlers)


def _picklable(value: object) -> bool:
    try:
        pickle.dumps(value)
    except Exception:
        return False
    return True


def _stop(pool: ProcessPoolExecutor, clean: bool) -> None:
    """Shut *pool* down; unless *clean*, cancel the queue and stop every worker first."""
    if not clean:
        processes: dict[int, Any] = dict(getattr(pool, "_processes", None) or {})
        # shutdown(wait=False) forgets the executor's manager thread without joining it, and
        # the second shutdown below would not join it either. Left running, it closes its
        # wake-up pipe while the interpreter's exit hook writes to it: "Exception ignored ...
        # OSError: Bad file descriptor" on stderr after the run's own error. So join it here.
        manager: threading.Thread | None = getattr(pool, "_executor_manager_thread", None)
        pool.shutdown(wait=False, cancel_futures=True)
        for process in processes.values():
            if process.is_alive():
                process.terminate()
        for process in processes.values():
            process.join(10)  # a worker stops its programs first: up to 2 s of grace each way
            if process.is_alive():
                process.kill()
                process.join()
        if manager is not None:
            manager.join(30)  # it ends once it sees the workers gone
    pool.shutdown(wait=True, cancel_futures=True)


def _on_signals() -> dict[int, Any]:
    """SIGTERM and SIGINT raise :class:`Interrupted` while the workers run (main thread only).

    SIGINT too, even where it was ignored (a command started in the background by a script):
    Ctrl-C, or SIGINT sent to the process group, must stop a run that has workers.
    """
    if threading.current_thread() is not threading.main_thread():
        return {}
    return {signum: signal.signal(signum, _raise_interrupted)
            for signum in (signal.SIGTERM, signal.SIGINT)}


@contextmanager
def interrupting() -> Iterator[None]:
    """Inside the block SIGTERM and SIGINT raise :class:`Interrupted` (in the main thread).

    So that a run in this process ends through its ``finally`` blocks, which stop its player
    programs, and says which signal stopped it.
    """
    handlers = _on_signals()
    try:
        yield
    finally:
        _restore(handlers)


def _restore(handlers: dict[int, Any]) -> None:
    for signum, handler in handlers.items():
        signal.signal(signum, handler)
