"""Conformance: run another referee program, send it turns, and compare its answers with ours.

``take5rules conform --cmd "PROGRAM ARGS"`` starts PROGRAM (split like a shell would, but run
without one), which must speak the referee line protocol of :mod:`take5rules.referee`: one JSON
request per line on stdin, one JSON reply per line on stdout. The program is kept running for
the whole check and is killed at the end. It is sent, in this order:

1. the worked examples of the publisher's booklet and the founding texts
   (:data:`WORKED_EXAMPLES`);
2. three invalid requests (:data:`INVALID_REQUESTS`: a duplicate card, a row of six cards, a
   low card without a row choice), for which only an error reply is required; a different rule
   id is reported but is not a failure;
3. ``--cases`` random turns (:func:`take5rules.random_turns.random_request`, drawn from
   ``random.Random(--seed)``): any four legal rows, 2 to 10 plays in seat order, frequent low
   cards and sixth cards, and a row choice for every player (at most one low card can occur in
   a turn, so only the lowest card's player ever needs theirs). The same ``--seed`` sends the
   same turns.

Each reply is compared with :func:`take5rules.referee.answer` (rows, taken and chosen; an
empty list in ``taken`` means "took nothing", like no entry). At the first disagreement,
Hypothesis (the extra ``take5rules[conform]``) searches its own turns
(:func:`take5rules.strategies.requests`) for one the program gets wrong and shrinks it to the
smallest on which the program still disagrees (then two steps Hypothesis cannot take: the
lowest card is moved onto the table while that keeps the disagreement, and row cards that are
not the last of their row are dropped); no Hypothesis database is used and nothing is written
to the current directory. Without Hypothesis, or if it finds no smaller turn, the first
disagreeing turn is reported as it was sent, and the report says so. The report shows the
request, both replies, and the rule that decides the difference (see :func:`deciding_rule`)
with its statement in ``--lang``. Blank lines on stdout and anything on stderr are tolerated;
a reply line longer than :data:`MAX_REPLY_BYTES` makes the program broken, and so does a
reply that cannot be read as JSON (nested too deeply, a number too long).

Exit status:

* ``0``: every turn agrees; the summary lists how often each rule was exercised;
* ``1``: the program disagrees on some turn (or answers an invalid request with a turn);
* ``2``: the program is broken (it cannot start, exits, does not answer within ``--timeout``
  seconds, or answers something that is not a protocol reply; the tail of its stderr is shown),
  or the command line is wrong.

``--json`` prints the result as one JSON object; on a terminal a progress bar is drawn on
stderr.

From Python, :func:`run_conformance` returns a :class:`ConformanceResult`:

>>> import sys
>>> result = run_conformance([sys.executable, "-m", "take5rules", "referee"], cases=20)
>>> result.status, result.exit_code, result.agreed
('agree', 0, 20)

With pytest, the ``take5_conformance`` fixture of :mod:`take5rules.pytest_plugin` (installed
with take5rules) fails the test with the disagreeing turn as its message::

    def test_my_engine(take5_conformance):
        take5_conformance(["./my-engine", "--referee"], cases=200)
"""

from __future__ import annotations

import contextlib
import dataclasses
import functools
import itertools
import json
import math
import os
import queue
import random
import shlex
import signal
import subprocess
import tempfile
import threading
from collections import Counter, deque
from collections.abc import Callable, Iterator, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any, Literal

from . import examples
from ._text import N_, Nn_
from .errors import Take5Error
from .i18n import explain, translator
from .random_turns import PLAYER_NAMES, random_request
from .referee import answer, parse_request, resolve
from .registry import RULE_ORDER
from .table import Table, place_card
from .turn import TurnResult, resolve_turn

__all__ = [
    "EXIT_AGREE",
    "EXIT_BROKEN",
    "EXIT_DISAGREE",
    "INVALID_REQUESTS",
    "MAX_REPLY_BYTES",
    "MAX_TIMEOUT",
    "WORKED_EXAMPLES",
    "ConformanceResult",
    "Failure",
    "InvalidCheck",
    "Mismatch",
    "RequestCase",
    "deciding_rule",
    "format_result",
    "result_json",
    "run_conformance",
]

#: Exit status: the program agrees.
EXIT_AGREE = 0
#: Exit status: the program disagrees on some turn.
EXIT_DISAGREE = 1
#: Exit status: the program is broken (cannot start, exits, hangs, answers garbage), or usage.
EXIT_BROKEN = 2

#: How a broken program failed.
FailureKind = Literal["start", "crash", "timeout", "garbage"]

#: The most stderr kept from the program, in characters.
_STDERR_KEEP = 4000
#: The stderr lines shown in a report.
_STDERR_LINES = 12
#: Plays up to which every order of the plays is tried to recognise a wrong placement order.
_PERMUTE_UP_TO = 6
#: The most turns Hypothesis tries when searching for a smaller disagreeing turn.
_SEARCH_MOST = 2000
#: The longest reply line read from the program, in bytes; a longer one makes it broken.
MAX_REPLY_BYTES = 65_536
#: The longest wait for one reply that ``timeout`` may ask for, in seconds (an hour).
MAX_TIMEOUT = 3600.0


@dataclass(frozen=True, slots=True)
class RequestCase:
    """A request sent before the generated turns: a worked example or an invalid request."""

    id: str
    title: str
    request: Mapping[str, Any]


#: The publisher's and the founding texts' examples (:mod:`take5rules.examples`), as requests.
WORKED_EXAMPLES: tuple[RequestCase, ...] = tuple(
    RequestCase(item.id, item.title, item.request) for item in examples.WORKED_EXAMPLES
)


#: Invalid requests: the program must answer each with an error object.
INVALID_REQUESTS: tuple[RequestCase, ...] = (
    RequestCase(
        "duplicate-card",
        N_("a card played that is already on the table"),
        {"rows": [[3, 12], [24], [58], [96]], "plays": [["ana", 12], ["bob", 30]],
         "choices": {}},
    ),
    RequestCase(
        "row-over-five",
        N_("a row of six cards"),
        {"rows": [[3, 12, 17, 20, 21, 22], [24], [58], [96]],
         "plays": [["ana", 30], ["bob", 40]], "choices": {}},
    ),
    RequestCase(
        "missing-choice",
        N_("a low card whose player has no row choice"),
        {"rows": [[12], [37], [43], [58]], "plays": [["ana", 5], ["bob", 40]],
         "choices": {"bob": 0}},
    ),
)


@dataclass(frozen=True, slots=True)
class Mismatch:
    """A turn on which the program and take5rules disagree.

    ``source`` is ``"generated"`` for a generated turn, or the id of a worked example or an
    invalid request. ``shrunk`` says whether Hypothesis shrank a generated turn; when it did
    not, ``hypothesis`` says whether that is because Hypothesis is not installed (the extra
    ``take5rules[conform]``) or because it found no smaller disagreeing turn.
    """

    request: Mapping[str, Any]
    ours: Mapping[str, Any]
    theirs: Mapping[str, Any]
    rule: str
    source: str = "generated"
    shrunk: bool = True
    hypothesis: bool = True


@dataclass(frozen=True, slots=True)
class Failure:
    """How the program broke: ``kind`` is start, crash, timeout or garbage.

    ``detail`` is an English template with ``params`` (worded in any language by
    :func:`format_result`); ``request`` is the request it was answering, if any, and
    ``number`` its position (1 for the first request sent).
    """

    kind: FailureKind
    detail: str
    params: Mapping[str, Any] = field(default_factory=dict)
    stderr_tail: str = ""
    request: Mapping[str, Any] | None = None
    number: int | None = None

    @property
    def message(self) -> str:
        """The English description."""
        return self.detail.format(**self.params)


@dataclass(frozen=True, slots=True)
class InvalidCheck:
    """How the program answered one invalid request."""

    id: str
    our_rule: str
    their_rule: str | None
    errored: bool

    @property
    def same_rule(self) -> bool:
        """Whether the program named the same rule id as take5rules."""
        return self.errored and self.their_rule == self.our_rule


@dataclass(frozen=True, slots=True)
class ConformanceResult:
    """The outcome of a conformance run.

    ``agreed`` counts the generated turns that agreed before the first disagreement;
    ``examples`` says for each worked example whether it agreed; ``rules`` counts the rules
    exercised by the agreeing turns (``turn.order`` once per turn, each placement's rule once).
    """

    command: tuple[str, ...]
    cases: int
    seed: int
    agreed: int
    examples: tuple[tuple[str, bool], ...]
    invalid: tuple[InvalidCheck, ...]
    rules: Mapping[str, int]
    mismatch: Mismatch | None = None
    failure: Failure | None = None

    @property
    def status(self) -> Literal["agree", "disagree", "broken"]:
        """``agree``, ``disagree`` or ``broken``."""
        if self.failure is not None:
            return "broken"
        return "agree" if self.mismatch is None else "disagree"

    @property
    def ok(self) -> bool:
        """Whether the program agrees on every turn sent."""
        return self.status == "agree"

    @property
    def exit_code(self) -> int:
        """The exit status of ``take5rules conform``: 0, 1 or 2."""
        return {"agree": EXIT_AGREE, "disagree": EXIT_DISAGREE, "broken": EXIT_BROKEN}[
            self.status
        ]


class _Broken(BaseException):
    """The program broke: stops the Hypothesis run at once, without shrinking.

    A :class:`BaseException`, not an :class:`Exception`, so that Hypothesis lets it through
    instead of treating it as a failure to shrink.
    """

    def __init__(self, failure: Failure) -> None:
        super().__init__(failure.message)
        self.failure = failure


class _DisagreementError(Exception):
    """A generated turn on which the program disagrees (shrunk by Hypothesis)."""

    def __init__(self, mismatch: Mismatch) -> None:
        super().__init__(mismatch.rule)
        self.mismatch = mismatch


class _Program:
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
            raise _Broken(Failure("start", N_("it could not be started: {reason}"),
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
              **params: Any) -> _Broken:
        # Stop the program first, then read its stderr to the end: only then is the tail
        # complete (a hung program's last words may still be in the pipe).
        self.close(grace=0.0)
        self.broken = Failure(kind, detail, params, self.stderr_tail(), request,
                              self.sent if request is not None else None)
        return _Broken(self.broken)

    def _exit_status(self) -> int | None:
        try:
            return self._process.wait(timeout=1.0)
        except subprocess.TimeoutExpired:
            return None

    def _crashed(self, request: Mapping[str, Any] | None) -> _Broken:
        status = self._exit_status()
        if status is None:
            return self._fail("crash", N_("it closed its standard output"), request)
        return self._fail("crash", N_("it exited with status {status}"), request, status=status)

    def ask(self, request: Mapping[str, Any]) -> dict[str, Any]:
        """Send *request*; return the program's reply, or raise :class:`_Broken`."""
        if self.broken is not None:
            raise _Broken(self.broken)
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


def _normal(reply: Mapping[str, Any]) -> dict[str, Any]:
    """The parts of a reply that are compared: rows, taken and chosen, or 'error'."""
    if "error" in reply:
        return {"error": True}
    return {
        "rows": [list(row) for row in reply["rows"]],
        # An empty list says "took nothing", like no entry at all.
        "taken": {player: list(cards) for player, cards in reply["taken"].items() if cards},
        "chosen": dict(reply["chosen"]),
    }


def _resolve_in_order(
    table: Table, order: Sequence[tuple[str, int]], choices: Mapping[str, int]
) -> dict[str, Any] | None:
    """Our rules applied to the plays in *order*; ``None`` if a low card has no choice."""
    taken: dict[str, list[int]] = {}
    chosen: dict[str, int] = {}
    for player, value in order:
        try:
            placement = place_card(table, value, choices.get(player))
        except Take5Error:
            return None
        if placement.rule == "table.low-card":
            chosen[player] = choices[player]
        if placement.taken:
            taken.setdefault(player, []).extend(placement.taken)
        table = placement.table
    return {"rows": table.to_json(), "taken": taken, "chosen": chosen}


def _their_fates(theirs: Mapping[str, Any]) -> dict[int, tuple[int | None, int | None]]:
    """For each card in *theirs*: its row (``None`` once taken) and the card before it."""
    fates: dict[int, tuple[int | None, int | None]] = {}
    for cards in theirs.get("taken", {}).values():
        for position, value in enumerate(cards):
            fates[value] = (None, cards[position - 1] if position else None)
    for index, row in enumerate(theirs.get("rows", [])):
        for position, value in enumerate(row):
            fates[value] = (index, row[position - 1] if position else None)
    return fates


def deciding_rule(request: Mapping[str, Any], theirs: Mapping[str, Any]) -> str:
    """The rule that decides a turn on which *theirs* differs from our answer to *request*.

    *request* must be valid. If placing the same cards in another order by our rules gives
    exactly *theirs*, the rule is ``turn.order``. Otherwise our placements are walked lowest
    card first, and the first one that *theirs* contradicts (the card missing, in another row
    or after another card, another take, another row choice) decides:

    * ``table.low-card`` when that card is a low card, or when *theirs* has its player choose a
      row although the card fits on one;
    * ``table.ascending`` when *theirs* puts the card after a higher card;
    * ``table.least-difference`` when it went to another row (one ending lower) or after
      another card;
    * ``table.sixth-card`` when it went to the right row but a row was taken, or not, wrongly
      (or other cards than the five);
    * the rule of the placement itself when the card is missing from *theirs*.

    When every placement agrees, what is left is about the cards no placement moved: a card
    lost, added or doubled is ``cards.deck``, and a row choice for a player whose card was not
    low is ``table.low-card``. An error reply to the valid *request* is blamed on the rule it
    names when that is a rule of the game, and otherwise on ``table.low-card`` if the turn has
    a low card (the one part of a request a referee must look up in ``choices``), else on the
    rule of its first placement.

    >>> request = {"rows": [[1], [2], [3], [4]], "plays": [["ana", 6], ["bob", 5]]}
    >>> deciding_rule(request, {"rows": [[1], [2], [3, 5], [4, 6]], "taken": {}, "chosen": {}})
    'turn.order'
    >>> deciding_rule(request, {"rows": [[1, 5], [2, 6], [3], [4]], "taken": {}, "chosen": {}})
    'table.least-difference'
    """
    table, plays, choices = parse_request(request)
    result = resolve_turn(table, plays, lambda choice: choices[choice.player])
    if "error" in theirs:
        their_rule = theirs["error"].get("rule") if isinstance(theirs["error"], dict) else None
        if their_rule in RULE_ORDER:
            return str(their_rule)
        rules = [placement.rule for _, placement in result.placements]
        return "table.low-card" if "table.low-card" in rules else rules[0]
    target = _normal(theirs)
    if len(plays) <= _PERMUTE_UP_TO:
        orders: Iterator[tuple[tuple[str, int], ...]] = itertools.permutations(plays.items())
    else:
        orders = iter((tuple(plays.items()), tuple(reversed(plays.items()))))
    for order in orders:
        if list(order) != sorted(order, key=lambda item: item[1]) and \
                _resolve_in_order(table, order, choices) == target:
            return "turn.order"
    fates = _their_fates(target)
    taken = target["taken"]
    chosen = target["chosen"]
    before = table
    for player, placement in result.placements:
        rule = placement.rule
        takes = rule in ("table.sixth-card", "table.low-card")
        expected = None if takes else before.rows[placement.row][-1]
        our_choice = choices[player] if rule == "table.low-card" else None
        fate = fates.get(placement.card)
        if fate is not None and fate == (placement.row if fate[0] is not None else None,
                                         expected) \
                and taken.get(player, []) == list(placement.taken) \
                and chosen.get(player) == our_choice:
            before = placement.table
            continue
        if rule == "table.low-card" or chosen.get(player) is not None:
            return "table.low-card"
        if fate is None:
            return rule
        row, predecessor = fate
        if predecessor is not None and predecessor > placement.card:
            return "table.ascending"
        if (row is not None and row != placement.row) or None not in (predecessor, expected):
            return "table.least-difference"
        return "table.sixth-card"
    their_cards = [value for row in target["rows"] for value in row]
    their_cards += [value for cards in taken.values() for value in cards]
    if sorted(their_cards) != sorted([*table.cards(), *plays.values()]):
        return "cards.deck"
    if set(chosen) - set(plays):
        return "table.low-card"
    # Every card is where our rules put it, yet the replies differ (a row untouched by the
    # turn moved elsewhere): blame the last placement on the first row that differs.
    their_rows = target["rows"]
    for index, our_row in enumerate(result.table.to_json()):
        if their_rows[index] != our_row:
            for _, placement in reversed(result.placements):
                if placement.row == index:
                    return placement.rule
    return result.placements[0][1].rule


def _resolved(request: Mapping[str, Any]) -> tuple[TurnResult, dict[str, int]]:
    """Our resolution of the valid *request*, and its choices."""
    table, plays, choices = parse_request(request)
    return resolve_turn(table, plays, lambda choice: choices[choice.player]), choices


def _rules_applied(result: TurnResult) -> list[str]:
    """The rules a resolved turn applies: turn.order, then each placement's."""
    return ["turn.order", *(placement.rule for _, placement in result.placements)]


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
        ValueError: for an empty *cmd*, negative *cases*, or a *timeout* that is not a finite
            number of seconds above 0 and at most :data:`MAX_TIMEOUT`.
    """
    command = tuple(cmd)
    if isinstance(cmd, str) or not command:
        raise ValueError("cmd must be a non-empty sequence of strings (the program and its "
                         "arguments)")
    if cases < 0:
        raise ValueError("cases must be 0 or more")
    if not (isinstance(timeout, int | float) and not isinstance(timeout, bool)
            and math.isfinite(timeout) and 0 < timeout <= MAX_TIMEOUT):
        raise ValueError(f"timeout must be a number of seconds above 0 and at most "
                         f"{MAX_TIMEOUT:.0f} (an hour), not {timeout!r}")
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
        program = _Program(command, timeout)
    except _Broken as broken:
        return result(broken.failure)
    try:
        for example in WORKED_EXAMPLES:
            theirs = program.ask(example.request)
            ours, resolved = resolve(example.request)
            agrees = _normal(ours) == _normal(theirs)
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
    except _Broken as broken:
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
    program: _Program, cases: int, seed: int, tally: _Tally,
    report: Callable[[int, bool], None],
) -> Mismatch | None:
    """Send *cases* random turns; count agreeing turns in *tally*; return the first mismatch.

    The turns come from ``random.Random(seed)`` (:func:`take5rules.random_turns.random_request`),
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
            if resolved is None or _normal(ours) != _normal(theirs):
                report(agreed, True)
                found = Mismatch(request, ours, theirs, deciding_rule(request, theirs),
                                 shrunk=False)
                budget = min(max(200, 2 * (agreed + 1)), _SEARCH_MOST)
                return _shrink(program, found, budget, seed,
                               functools.partial(report, agreed, True))
            agreed += 1
            rules.update(_rules_applied(resolved))
            report(agreed, False)
    finally:
        tally.agreed = agreed
        tally.rules.update(rules)
    return None


def _shrink(
    program: _Program, found: Mismatch, budget: int, seed: int, report: Callable[[], None],
) -> Mismatch:
    """A smaller turn on which the program disagrees, if Hypothesis finds one; else *found*.

    Hypothesis searches its own biased turns (:func:`take5rules.strategies.requests`, at most
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
    program: _Program, budget: int, seed: int, report: Callable[[], None],
) -> Mismatch | None:
    """Run a Hypothesis search for a disagreeing turn; return it shrunk, or ``None``."""
    from hypothesis import HealthCheck, Phase, Verbosity, given, settings
    from hypothesis import seed as hypothesis_seed
    from hypothesis.errors import Flaky

    from .strategies import requests

    smallest: list[Mismatch] = []

    def check(request: dict[str, Any]) -> None:
        theirs = program.ask(request)
        ours = answer(request)
        if _normal(ours) == _normal(theirs):
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
    return None if found is None else _simplify(program, found)


def _renamed(request: Mapping[str, Any]) -> dict[str, Any]:
    """*request* with its players renamed ana, bob, cyd... in seat order."""
    names = {player: name for (player, _), name in zip(request["plays"], PLAYER_NAMES,
                                                        strict=False)}
    return {
        "rows": request["rows"],
        "plays": [[names[player], value] for player, value in request["plays"]],
        "choices": {names[player]: row for player, row in request["choices"].items()},
    }


def _still_disagrees(program: _Program, candidate: dict[str, Any]) -> Mismatch | None:
    ours, theirs = answer(candidate), program.ask(candidate)
    if _normal(ours) == _normal(theirs):
        return None
    return Mismatch(candidate, ours, theirs, deciding_rule(candidate, theirs))


def _simplify(program: _Program, mismatch: Mismatch) -> Mismatch:
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


# --- reports ---------------------------------------------------------------------------------


def _dumps(value: object) -> str:
    text = json.dumps(value, ensure_ascii=False)
    try:
        text.encode("utf-8")
    except UnicodeEncodeError:  # a lone surrogate in the program's reply: show it escaped
        return json.dumps(value)
    return text


def format_result(result: ConformanceResult, language: str = "en") -> str:
    """The report of a conformance run in *language*, as ``take5rules conform`` prints it."""
    tr = translator(language)
    g = tr.gettext
    n = tr.number
    command = shlex.join(result.command)
    lines: list[str] = []
    if result.failure is not None:
        failure = result.failure
        problem = g(failure.detail).format(**failure.params)
        if failure.request is None:
            lines.append(g(N_("{command} is broken: {problem}.")).format(
                command=command, problem=problem))
        else:
            lines.append(g(N_("{command} is broken: answering request {number}, {problem}.")
                           ).format(command=command, number=n(failure.number or 0),
                                    problem=problem))
            lines.append("  " + g(N_("request: {request}")).format(request=_dumps(failure.request)))
        if failure.stderr_tail:
            lines.append("  " + g(N_("the last lines of its stderr:")))
            lines.extend(f"  | {line}" for line in failure.stderr_tail.splitlines())
        elif failure.kind != "start":
            lines.append("  " + g(N_("it wrote nothing on stderr.")))
        return "\n".join(lines)
    if result.mismatch is not None:
        mismatch = result.mismatch
        lines.append(tr.ngettext(Nn_(
            "{command} disagrees with take5rules after {count} agreeing generated turn "
            "(seed {seed}).",
            "{command} disagrees with take5rules after {count} agreeing generated turns "
            "(seed {seed}).",
        ), result.agreed).format(command=command, count=n(result.agreed), seed=result.seed))
        if mismatch.shrunk:
            lines.append(g(N_("The smallest disagreeing turn (shrunk by Hypothesis):")))
        elif mismatch.source == "generated" and not mismatch.hypothesis:
            lines.append(g(N_("The first disagreeing turn, not shrunk: install "
                              "take5rules[conform] (it brings Hypothesis) to have it shrunk:")))
        elif mismatch.source == "generated":
            lines.append(g(N_("The first disagreeing turn (Hypothesis found no smaller one):")))
        else:
            lines.append(g(N_("The disagreeing turn ({source}):")).format(
                source=g(_title(mismatch.source))))
        rule = explain(mismatch.rule, tr.language)
        lines.extend([
            "  " + g(N_("request: {request}")).format(request=_dumps(mismatch.request)),
            "  " + g(N_("ours:    {reply}")).format(reply=_dumps(mismatch.ours)),
            "  " + g(N_("theirs:  {reply}")).format(reply=_dumps(mismatch.theirs)),
            "  " + g(N_("rule:    {rule} ({title}): {statement}")).format(
                rule=mismatch.rule, title=rule.title, statement=rule.statement),
        ])
    else:
        lines.append(tr.ngettext(Nn_(
            "{command} agrees with take5rules on {examples} worked examples and {count} "
            "generated turn (seed {seed}).",
            "{command} agrees with take5rules on {examples} worked examples and {count} "
            "generated turns (seed {seed}).",
        ), result.agreed).format(command=command, examples=n(len(result.examples)),
                                 count=n(result.agreed), seed=result.seed))
        exercised = [
            g(N_("{rule} {count}")).format(rule=rule_id, count=n(count))
            for rule_id, count in sorted(result.rules.items(), key=lambda item: _rank(item[0]))
        ]
        lines.append(g(N_("Rules exercised: {rules}.")).format(rules=tr.list(exercised)))
    failed = [example for example, agrees in result.examples if not agrees]
    if failed and (result.mismatch is None or result.mismatch.source == "generated"):
        lines.append(g(N_("Worked examples that disagree: {examples}.")).format(
            examples="; ".join(g(_title(example)) for example in failed)))
    if result.invalid:
        errored = sum(check.errored for check in result.invalid)
        lines.append(g(N_("Invalid requests answered with an error: {count} of {total}.")).format(
            count=n(errored), total=n(len(result.invalid))))
        for check in result.invalid:
            if not check.errored:
                lines.append("  " + g(N_(
                    "{request}: answered with a turn, not an error (take5rules names {ours})"
                )).format(request=g(_title(check.id)), ours=check.our_rule))
            elif not check.same_rule:
                lines.append("  " + g(N_(
                    "{request}: rule {theirs} where take5rules names {ours} (not a failure)"
                )).format(request=g(_title(check.id)), theirs=check.their_rule or "?",
                          ours=check.our_rule))
    return "\n".join(lines)


def _rank(rule_id: str) -> int:
    return RULE_ORDER.index(rule_id) if rule_id in RULE_ORDER else len(RULE_ORDER)


def _title(source: str) -> str:
    for example in (*WORKED_EXAMPLES, *INVALID_REQUESTS):
        if example.id == source:
            return example.title
    return source


def result_json(result: ConformanceResult, language: str = "en") -> dict[str, Any]:
    """The result as a JSON-ready object (what ``take5rules conform --json`` prints)."""
    data: dict[str, Any] = {
        "status": result.status,
        "exit_code": result.exit_code,
        "command": list(result.command),
        "seed": result.seed,
        "cases": result.cases,
        "agreed": result.agreed,
        "examples": dict(result.examples),
        "invalid": [
            {"request": check.id, "error": check.errored, "rule": check.their_rule,
             "expected_rule": check.our_rule, "same_rule": check.same_rule}
            for check in result.invalid
        ],
        "rules": dict(result.rules),
        "mismatch": None,
        "failure": None,
    }
    if result.mismatch is not None:
        mismatch = result.mismatch
        rule = explain(mismatch.rule, language)
        data["mismatch"] = {
            "source": mismatch.source,
            "shrunk": mismatch.shrunk,
            "hypothesis": mismatch.hypothesis,
            "request": mismatch.request,
            "ours": mismatch.ours,
            "theirs": mismatch.theirs,
            "rule": mismatch.rule,
            "title": rule.title,
            "statement": rule.statement,
        }
    if result.failure is not None:
        failure = result.failure
        data["failure"] = {
            "kind": failure.kind,
            "message": translator(language).gettext(failure.detail).format(**failure.params),
            "request": failure.request,
            "number": failure.number,
            "stderr": failure.stderr_tail,
        }
    return data
