"""Checking a player program against the take5-player protocol (``take5rules conform --player``).

:func:`check_player` starts the program, shakes hands with it, then plays it through every
variant it says it plays and every number of seats (games of the engine's
:class:`~take5rules.playing.stepper.Game`, our ``cautious`` players in the other seats), with
deals rigged so that its seat meets a low card, through each draft, under a time control, and
through the hostile messages a table may send (informational messages of unknown types, unknown
fields, lines of exactly 65,536 bytes, an ``error`` followed by a new game, messages in an
unusual but legal order). Each reply goes through the strict readers of
:mod:`take5rules.playing.protocol`; the program itself is a
:class:`~take5rules.playing.channel.Channel`.

At the first violation the session (every message sent since ``hello``) is replayed to fresh
copies of the program with messages left out (:func:`shrink_session`: ``hello``, the game's
announcement and the failing message alone first, then chunks of the rest, as delta debugging
does), keeping each shorter session that still shows a violation of the same kind, so that the
report ends with the shortest message sequence found that shows it. Request ids and game
numbers are renumbered in every replay, so that each session replayed is a legal one.

The outcome is a :class:`PlayerCheckResult`; :func:`format_player_result` and
:func:`player_result_json` write the report that ``conform --player`` prints. Exit status:
0 when the program follows the protocol, 1 when it answers illegally (a card not in its hand or
pool, a row outside 0..3: a rule of the game is broken), 2 when it is broken otherwise (cannot
start, exits, is late, answers malformed or oversize lines, or declines).
"""

from __future__ import annotations

import json
import math
import random
import shlex
import time
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any, Literal

from take5rules._messages import N_, Nn_, Phrase
from take5rules.cards import Card
from take5rules.errors import MalformedInputError
from take5rules.events import Event
from take5rules.playing import protocol
from take5rules.playing.channel import Channel, ChannelError, command_words
from take5rules.playing.players import CardView, CautiousPlayer, DraftView, Player, RowChoice
from take5rules.playing.protocol import MAX_LINE, ProtocolViolation, SeatNews
from take5rules.playing.stepper import Game, Phase
from take5rules.setup import cards_in_play
from take5rules.table import Table
from take5rules.text import translator
from take5rules.text.typography import phrase_text
from take5rules.variants import PLAYER_RANGE, Rules, Variant

__all__ = [
    "DEFAULT_MOVE_MS",
    "DEFAULT_START_MS",
    "EXIT_BROKEN",
    "EXIT_FOLLOWS",
    "EXIT_ILLEGAL",
    "SHRINK_MOST",
    "SHRINK_SECONDS",
    "Exchange",
    "PlayerCheckResult",
    "PlayerViolation",
    "ViolationKind",
    "check_plan",
    "check_player",
    "format_player_result",
    "player_result_json",
    "shrink_session",
]

#: Exit status: the program follows the protocol in every check.
EXIT_FOLLOWS = 0
#: Exit status: it answered illegally (a card not in its hand or pool, a row outside 0..3).
EXIT_ILLEGAL = 1
#: Exit status: it is broken otherwise (start, exited, malformed, oversize, time, declined).
EXIT_BROKEN = 2

#: The time a program has for each request unless a game's clock says otherwise, in ms.
DEFAULT_MOVE_MS = 10_000
#: The time a program has to start and answer ``hello``, in ms.
DEFAULT_START_MS = 10_000
#: The most replays tried while shrinking a failing session.
SHRINK_MOST = 300
#: The longest shrinking goes on, in seconds (it keeps the shortest session found by then).
SHRINK_SECONDS = 120.0
#: The longest a check may ask for, in ms (an hour).
_MOST_MS = 3_600_000

#: The kinds of violation (those of ``PlayerProgramError.kind``).
ViolationKind = Literal["start", "exited", "malformed", "oversize", "illegal", "time", "declined"]

#: The seat of the program under test, and the others (ours).
_SEATS = ("you", "ana", "bob", "cyd", "dan", "eve", "fay", "gus", "hal", "ivy")
#: The game clock of the ``clock`` check, in move times: a game to 66 asks 30 to 60 requests,
#: so a program must budget its time (``game_ms_left``) rather than use each move's whole time.
_GAME_MOVES = 20
#: The threshold of the games of the sweep: short games, most of them of more than one round.
_SHORT = 20
#: The messages a program must answer.
_REQUESTS = ("hello", "card", "row", "draft")
#: What a table may send that no version of the protocol knows yet (ignored by a program).
_UNKNOWN_TYPES: tuple[dict[str, Any], ...] = (
    {"type": "chat", "from": "ana", "text": "bonne chance"},
    {"type": "x-future", "data": {"nested": [1, [2, {"three": None}]], "flag": True}},
    {"type": "ping"},
)
#: The unknown field that makes a line as long as a line may be.
_PADDING = "x-padding"
#: An unknown field added to every message of a check, of every JSON type.
_UNKNOWN_FIELD = {"x-future": {"list": [1, 2.5, "three", None, False], "text": "é€😀"}}


# --- Outcome -----------------------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class Exchange:
    """One message the table sent, and the program's reply line when it was a request."""

    sent: Mapping[str, Any]
    reply: str | None = None


@dataclass(frozen=True, slots=True)
class PlayerViolation:
    """The first violation: which check, what kind, the message sent and the reply.

    ``detail`` is an English template with ``params`` (worded in any language by
    :func:`format_player_result`). ``session`` is the shortest message sequence found that
    shows a violation of this kind (``hello`` first, the failing message last), with the
    replies; ``length`` the number of messages of the session as first played; ``shrunk``
    whether shrinking found a shorter one; ``stderr_tail`` the program's last stderr lines in
    the shortest session.
    """

    check: str
    kind: ViolationKind
    detail: str
    params: Mapping[str, Any]
    sent: Mapping[str, Any] | None
    reply: str | None
    session: tuple[Exchange, ...]
    length: int
    shrunk: bool = False
    stderr_tail: tuple[str, ...] = ()

    @property
    def message(self) -> str:
        """The English description."""
        return self.detail.format(**self.params)


@dataclass(frozen=True, slots=True)
class PlayerCheckResult:
    """The outcome of :func:`check_player`.

    ``name``, ``author`` and ``variants`` are those of the program's ``hello`` (empty when it
    gave none); ``checks`` the checks that passed, in order; ``games`` the games it played;
    ``requests`` the requests it answered legally before the first violation, ``rows`` and
    ``drafts`` how many of them asked for a low card's row and for a draft pick; ``skipped``
    the variants not checked because it does not play them.
    """

    command: tuple[str, ...]
    seed: int
    name: str = ""
    author: str = ""
    variants: tuple[str, ...] = ()
    checks: tuple[str, ...] = ()
    games: int = 0
    requests: int = 0
    skipped: tuple[str, ...] = ()
    violation: PlayerViolation | None = None
    rows: int = 0
    drafts: int = 0

    @property
    def status(self) -> Literal["follows", "illegal", "broken"]:
        """``follows``, ``illegal`` (exit status 1) or ``broken`` (exit status 2)."""
        if self.violation is None:
            return "follows"
        return "illegal" if self.violation.kind == "illegal" else "broken"

    @property
    def ok(self) -> bool:
        """Whether the program followed the protocol in every check."""
        return self.violation is None

    @property
    def exit_code(self) -> int:
        """The exit status of ``take5rules conform --player``: 0, 1 or 2."""
        return {"follows": EXIT_FOLLOWS, "illegal": EXIT_ILLEGAL, "broken": EXIT_BROKEN}[
            self.status]


class _ViolationError(Exception):
    """A violation seen while talking to the program (stops the check)."""

    def __init__(self, kind: ViolationKind, detail: str, params: Mapping[str, Any],
                 sent: Mapping[str, Any] | None, reply: str | None) -> None:
        super().__init__(detail.format(**params))
        self.kind, self.detail, self.params = kind, detail, dict(params)
        self.sent, self.reply = sent, reply


def _from_protocol(violation: ProtocolViolation) -> tuple[ViolationKind, str, dict[str, Any]]:
    """The kind, template and parameters of a reader's *violation*."""
    kind: ViolationKind = violation.kind  # type: ignore[assignment]  # one of protocol.KINDS
    detail = violation.detail
    if isinstance(detail, Phrase):
        return kind, detail.template, dict(detail.params)
    return kind, str(detail).replace("{", "{{").replace("}", "}}"), {}


# --- The program, spoken to --------------------------------------------------------------------


@dataclass
class _Clock:
    """The time controls of the game under way, and the time used in it (ms)."""

    move_ms: int
    game_ms: int | None = None
    used_ms: float = 0.0


#: How a hostile table turns one message into the lines it sends (the message itself last).
Dress = Callable[[dict[str, Any]], list[dict[str, Any]]]


class _Session:
    """One run of the program: every message sent and reply read, checked and kept in order.

    Requests get their ids here (from 1) and games their numbers (from 1), so that a session
    replayed with messages left out is still a legal session. *log* holds every line sent, as
    sent, with the reply read to it.
    """

    def __init__(self, command: Sequence[str], *, move_ms: int, start_ms: int) -> None:
        self.channel = Channel(tuple(command))
        self.move_ms, self.start_ms = move_ms, start_ms
        self.clock = _Clock(move_ms)
        self.log: list[Exchange] = []
        self.requests = 0
        self.games = 0
        self.answered = 0
        self.dress: Dress | None = None

    def hello(self) -> protocol.Hello:
        """Start the program, send ``hello``, read and check its reply (within *start_ms*)."""
        try:
            self.channel.start()
        except ChannelError as error:
            raise _ViolationError("start", error.template, error.params, None, None) from None
        reply: protocol.Hello = self._ask(protocol.hello_message(), protocol.read_hello_reply,
                                          self.start_ms, hello=True)
        return reply

    def tell(self, message: Mapping[str, Any]) -> None:
        """Send an informational *message* (a ``game`` message starts a new game's clock)."""
        if message.get("type") == "game":
            self.games += 1
            message = {**message, "game": self.games}
            clock = message.get("clock")
            move = clock.get("move_ms") if isinstance(clock, Mapping) else None
            whole = clock.get("game_ms") if isinstance(clock, Mapping) else None
            self.clock = _Clock(move if isinstance(move, int) else self.move_ms,
                                whole if isinstance(whole, int) else None)
        for line in self._dressed(message):
            self._write(line)

    def ask(self, message: Mapping[str, Any]) -> int:
        """Send the request *message* (its id set here); read, check and return the answer."""
        self.requests += 1
        ident = self.requests
        request = {"type": message["type"], "id": ident,
                   **{key: value for key, value in message.items() if key not in ("type", "id")}}
        kind = request["type"]
        read: Callable[[object], int]
        if kind == "card":
            def read(reply: object) -> int:
                return protocol.read_card_reply(reply, ident, tuple(request["hand"]))
        elif kind == "row":
            def read(reply: object) -> int:
                return protocol.read_row_reply(reply, ident)
        else:
            def read(reply: object) -> int:
                return protocol.read_draft_reply(reply, ident, tuple(request["pool"]))
        clock = self.clock
        answer: int
        if clock.game_ms is not None and clock.game_ms - clock.used_ms < clock.move_ms:
            answer = self._ask(request, read, max(0.0, clock.game_ms - clock.used_ms),
                               game_ms=clock.game_ms)
        else:
            answer = self._ask(request, read, clock.move_ms)
        return answer

    def replay(self, message: Mapping[str, Any]) -> None:
        """Send *message* of a recorded session again: a request is asked, the rest told."""
        kind = message.get("type")
        if kind == "hello":
            self.hello()
        elif kind in _REQUESTS:
            self.ask(message)
        else:
            self.tell(message)

    def close(self) -> None:
        """Send ``quit`` and stop the program (1 s grace, then SIGTERM, then SIGKILL)."""
        self.channel.stop(protocol.encode(protocol.QUIT).decode("utf-8"), grace=1.0,
                          term_grace=1.0)

    def stderr_tail(self) -> tuple[str, ...]:
        """The program's last lines of stderr."""
        return self.channel.stderr_tail()

    def _dressed(self, message: Mapping[str, Any]) -> list[dict[str, Any]]:
        if self.dress is not None:
            return self.dress(dict(message))
        if _PADDING in message:  # replayed: padded again, its id or game number may be shorter
            return [_padded(dict(message))]
        return [dict(message)]

    def _write(self, message: Mapping[str, Any]) -> None:
        self.log.append(Exchange(message))
        try:
            self.channel.send(protocol.encode(message),
                              deadline=time.monotonic() + self.clock.move_ms / 1000)
        except ChannelError as error:
            raise _ViolationError(error.kind, error.template, error.params, message, None) from None

    def _ask(self, request: Mapping[str, Any], read: Callable[[object], Any], allowed: float,
             *, hello: bool = False, game_ms: int | None = None) -> Any:
        lines = [dict(request)] if hello else self._dressed(request)
        for line in lines[:-1]:
            self._write(line)
        sent = lines[-1]
        self._write(sent)
        started = time.monotonic()
        try:
            raw = self.channel.receive(deadline=started + allowed / 1000)
        except ChannelError as error:
            if error.kind == "time" and hello:
                raise _ViolationError("start", N_("it did not answer hello within {ms} ms"),
                                {"ms": round(allowed)}, sent, None) from None
            if error.kind == "time" and game_ms is not None:
                raise _ViolationError("time", N_("it used up the {ms} ms of its game clock"),
                                      {"ms": game_ms}, sent, None) from None
            if error.kind == "time":
                raise _ViolationError("time", N_("it did not answer within {ms} ms"),
                                {"ms": round(allowed)}, sent, None) from None
            raise _ViolationError(error.kind, error.template, error.params, sent, None) from None
        spent = (time.monotonic() - started) * 1000
        text = raw.decode("utf-8", errors="replace")
        self.log[-1] = Exchange(sent, text)
        if not hello:
            self.clock.used_ms += spent
        try:
            value = read(protocol.decode(raw))
        except ProtocolViolation as violation:
            kind, template, params = _from_protocol(violation)
            raise _ViolationError(kind, template, params, sent, text) from None
        if not hello:
            self.answered += 1
        return value


def _clip(text: str, size: int = 200) -> str:
    return text if len(text) <= size else text[:size] + "…"


# --- The checks --------------------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class _Plan:
    """One check: a game played by the program, with some hostility from the table."""

    id: str
    variant: Variant
    seats: int
    threshold: int = _SHORT
    rig: bool = False
    game_ms: int | None = None
    hostility: str = ""


#: Every variant's name.
_VARIANTS = tuple(variant.value for variant in Variant)
#: The hostile tables.
_HOSTILITIES = ("unknown-types", "unknown-fields", "long-lines", "error", "order")


def check_plan(variants: Sequence[str] = _VARIANTS) -> tuple[str, ...]:
    """The ids of the checks played for a program that plays *variants*, in order.

    ``hello`` first; then each variant at each number of seats it takes (``standard/2`` to
    ``standard/10``, ``tactics/2`` to ``tactics/10``, ``logic/2`` to ``logic/6``,
    ``tournament/2`` to ``tournament/5``; standard and tactics from a rigged deal, so that the
    program's low card asks for a row); then a whole standard game to 66 under a game clock
    (``clock``); then the hostile tables, in the first variant it plays.

    >>> check_plan(["logic"])
    ('hello', 'logic/2', 'logic/3', 'logic/4', 'logic/5', 'logic/6', 'hostile/unknown-types', \
'hostile/unknown-fields', 'hostile/long-lines', 'hostile/error', 'hostile/order')
    """
    return ("hello", *(plan.id for plan in _plans(variants, DEFAULT_MOVE_MS)))


def _plans(variants: Sequence[str], move_ms: int) -> list[_Plan]:
    plays = [variant for variant in Variant if variant.value in variants]
    plans: list[_Plan] = []
    for variant in plays:
        low, high = PLAYER_RANGE[variant]
        rig = variant in (Variant.STANDARD, Variant.TACTICS)
        plans.extend(_Plan(f"{variant.value}/{count}", variant, count, rig=rig)
                     for count in range(low, high + 1))
    if Variant.STANDARD in plays:
        plans.append(_Plan("clock", Variant.STANDARD, 4, threshold=66, rig=True,
                           game_ms=_GAME_MOVES * move_ms))
    hostile = plays[0] if plays else Variant.STANDARD
    plans.extend(_Plan(f"hostile/{hostility}", hostile, min(4, PLAYER_RANGE[hostile][1]),
                       rig=hostile in (Variant.STANDARD, Variant.TACTICS), hostility=hostility)
                 for hostility in _HOSTILITIES)
    return plans


def _rigged(rules: Rules, players: Sequence[str], rng: random.Random
            ) -> tuple[Table, dict[str, tuple[Card, ...]]]:
    """A first deal where the program's seat (the first) holds the lowest card in play.

    Lower than every row, that card is a low card whenever it is played: the program is asked
    for a row in the first round, whatever it plays.
    """
    cards = sorted(cards_in_play(rules, len(players)))
    lowest = cards.pop(0)
    rng.shuffle(cards)
    rows, rest = cards[:4], [lowest, *cards[4:]]
    hands = {player: tuple(sorted(rest[10 * index:10 * index + 10]))
             for index, player in enumerate(players)}
    return Table.of([[card] for card in sorted(rows)]), hands


def _dress_for(hostility: str, rng: random.Random) -> Dress | None:
    """How the hostile table *hostility* sends each message (``None``: as it is)."""
    if hostility == "unknown-types":
        def unknown(message: dict[str, Any]) -> list[dict[str, Any]]:
            return [dict(rng.choice(_UNKNOWN_TYPES)), message]
        return unknown
    if hostility == "unknown-fields":
        def extra(message: dict[str, Any]) -> list[dict[str, Any]]:
            return [{**message, **_UNKNOWN_FIELD}]
        return extra
    if hostility == "long-lines":
        def padded(message: dict[str, Any]) -> list[dict[str, Any]]:
            return [_padded(message)]
        return padded
    return None


def _padded(message: dict[str, Any]) -> dict[str, Any]:
    """*message* with an unknown field that makes its line exactly :data:`MAX_LINE` bytes."""
    bare = len(protocol.encode({**message, _PADDING: ""}))
    return {**message, _PADDING: "x" * max(0, MAX_LINE - bare)}


class _Table:
    """Plays the program's games, at its seat, with our ``cautious`` players in the others."""

    def __init__(self, session: _Session, seed: int) -> None:
        self.session = session
        self.seed = seed
        self.rows = 0  # row requests answered legally
        self.drafts = 0  # draft requests answered legally

    def play(self, plan: _Plan, number: int) -> None:
        """Play the check *plan* (the *number*-th check) to its end."""
        rng = random.Random(self.seed * 1_000 + number)
        rules = Rules(plan.variant, plan.threshold)
        players = _SEATS[:plan.seats]
        me = players[0]
        deals = [_rigged(rules, players, rng)] if plan.rig else []
        seed = rng.randrange(2**31)
        game = Game(players, rules, seed, deals=deals)
        clock = protocol.game_clock(self.session.move_ms, plan.game_ms)
        announce = protocol.game_message(1, me, players, rules, seed, clock)
        self.session.tell(announce)
        if plan.hostility == "order":
            # Unusual but legal: a game announced twice (the first one never played), and no
            # round message for the first round (a table taking a game up part-way).
            self.session.tell(announce)
        stop_at = self.session.requests + 5 if plan.hostility == "error" else None
        others: dict[str, Player] = {player: CautiousPlayer() for player in players[1:]}
        news = SeatNews(me)
        self._deliver(news, game.events, plan.hostility == "order")
        while game.phase is not Phase.OVER:
            if stop_at is not None and self.session.requests >= stop_at:
                # The table stops the game with an error, then starts a new one.
                self.session.tell(protocol.error_message(
                    "the table stops this game: a check of take5rules conform"))
                self.play(_Plan(plan.id, plan.variant, plan.seats, plan.threshold, plan.rig),
                          number + 500)
                return
            seat = game.to_move[0]
            seen = game.observe(seat)
            answer = self._ask(seen) if seat == me else _decide(seen, others[seat])
            self._deliver(news, game.act(seat, answer), plan.hostility == "order")

    def _ask(self, seen: Any) -> int:
        clock = self.session.clock
        left = None if clock.game_ms is None else max(0, math.floor(
            clock.game_ms - clock.used_ms))
        request_clock = protocol.move_clock(clock.move_ms, left)
        if seen.phase is Phase.CARDS:
            return self.session.ask(protocol.card_request(0, _card_view(seen), request_clock))
        if seen.phase is Phase.ROW:
            row = self.session.ask(protocol.row_request(0, _row_choice(seen), request_clock))
            self.rows += 1
            return row
        card = self.session.ask(protocol.draft_request(0, _draft_view(seen), request_clock))
        self.drafts += 1
        return card

    def _deliver(self, news: SeatNews, events: Sequence[Event], no_first_round: bool) -> None:
        for event in events:
            for message in news.see(event):
                if no_first_round and message["type"] == "round" and message["round"] == 1:
                    continue
                self.session.tell(message)


def _decide(seen: Any, player: Player) -> int:
    """Our *player*'s decision at an observation *seen* of its seat."""
    if seen.phase is Phase.CARDS:
        return player.choose_card(_card_view(seen))
    if seen.phase is Phase.ROW:
        return player.choose_row(_row_choice(seen))
    return player.choose_draft(_draft_view(seen))


def _card_view(seen: Any) -> CardView:
    return CardView(seen.round, seen.turn, seen.table, seen.hand, seen.totals, seen.player,
                    seen.revealed, seen.taken, seen.start, seen.picks)


def _row_choice(seen: Any) -> RowChoice:
    return RowChoice(seen.player, seen.pending[1], seen.table, seen.round, seen.turn, seen.hand,
                     seen.totals, seen.revealed, seen.taken, seen.start, seen.picks)


def _draft_view(seen: Any) -> DraftView:
    return DraftView(seen.round, len(seen.picks) + 1, seen.pool, seen.hand, seen.player,
                     seen.picks, seen.totals)


# --- Running and shrinking ---------------------------------------------------------------------

#: A progress callback: checks done, checks to do, and whether shrinking.
Progress = Callable[[int, int, bool], None]


def _check_ms(name: str, value: object) -> int:
    if isinstance(value, bool) or not isinstance(value, int) or not 0 < value <= _MOST_MS:
        raise MalformedInputError(
            "argument", N_("{name} must be a whole number of milliseconds above 0 and at most "
                           "{most}, not {value!r}"), name=name, most=_MOST_MS, value=value)
    return value


def _whole(name: str, value: object) -> int:
    if isinstance(value, bool) or not isinstance(value, int) or value < 0:
        raise MalformedInputError("argument", N_("{name} must be a whole number, 0 or more, "
                                                 "not {value!r}"), name=name, value=value)
    return value


def check_player(
    command: str | Sequence[str],
    *,
    seed: int = 0,
    move_ms: int = DEFAULT_MOVE_MS,
    start_ms: int = DEFAULT_START_MS,
    shrink_most: int = SHRINK_MOST,
    progress: Progress | None = None,
) -> PlayerCheckResult:
    """Check that the program *command* follows the take5-player protocol; shrink a violation.

    Args:
        command: the program and its arguments (a string is split as a POSIX shell would,
            without running a shell).
        seed: fixes the deals and the hostile messages; the same seed sends the same messages
            (as long as the program answers the same).
        move_ms: the time the program has for each request, in ms (each game's clock).
        start_ms: the time it has to start and answer ``hello``, in ms.
        shrink_most: the most replays tried to shrink a failing session (0: none).
        progress: called after each check with (done, total, shrinking).

    Returns:
        The result; ``result.exit_code`` is 0 (follows), 1 (illegal) or 2 (broken).

    Raises:
        MalformedInputError: (id ``argument``) for an empty or unsplittable *command*, a
            negative *seed* or *shrink_most*, or a time that is not a whole number of ms above
            0 and at most an hour.

    >>> check_player("")
    Traceback (most recent call last):
    ...
    take5rules.errors.MalformedInputError: the command is empty: give the program to start \
[argument]
    """
    words = command_words(command)
    move_ms, start_ms = _check_ms("move_ms", move_ms), _check_ms("start_ms", start_ms)
    seed, shrink_most = _whole("seed", seed), _whole("shrink_most", shrink_most)
    report = progress if progress is not None else (lambda done, total, shrinking: None)
    rng = random.Random(seed)
    passed: list[str] = []
    session = _Session(words, move_ms=move_ms, start_ms=start_ms)
    table = _Table(session, seed)
    hello: protocol.Hello | None = None
    plans: list[_Plan] = []
    check = "hello"
    tail: tuple[str, ...] = ()
    try:
        try:
            hello = session.hello()
            passed.append("hello")
            plans = _plans([variant.value for variant in hello.variants], move_ms)
            report(1, len(plans) + 1, False)
            for number, plan in enumerate(plans, start=1):
                check = plan.id
                session.dress = _dress_for(plan.hostility, rng)
                try:
                    table.play(plan, number)
                finally:
                    session.dress = None
                passed.append(plan.id)
                report(len(passed), len(plans) + 1, False)
        finally:
            tail = session.stderr_tail()
            session.close()
    except _ViolationError as violated:
        report(len(passed), len(plans) + 1, True)
        found = PlayerViolation(check, violated.kind, violated.detail, violated.params,
                                violated.sent, violated.reply, tuple(session.log),
                                len(session.log), stderr_tail=session.stderr_tail() or tail)
        violation = shrink_session(words, found, move_ms=move_ms, start_ms=start_ms,
                                   most=shrink_most)
        return _result(words, seed, hello, passed, table, violation)
    return _result(words, seed, hello, passed, table, None)


def _result(words: tuple[str, ...], seed: int, hello: protocol.Hello | None, passed: list[str],
            table: _Table, violation: PlayerViolation | None) -> PlayerCheckResult:
    if hello is None:
        return PlayerCheckResult(words, seed, checks=tuple(passed), violation=violation)
    variants = tuple(variant.value for variant in hello.variants)
    skipped = tuple(variant.value for variant in Variant if variant.value not in variants)
    return PlayerCheckResult(words, seed, hello.name, hello.author, variants, tuple(passed),
                             table.session.games, table.session.answered, skipped, violation,
                             table.rows, table.drafts)


def _replay(words: tuple[str, ...], messages: Sequence[Mapping[str, Any]], *, move_ms: int,
            start_ms: int) -> tuple[_ViolationError, tuple[Exchange, ...], tuple[str, ...]] | None:
    """Play *messages* to a fresh copy of the program; its first violation, or ``None``."""
    session = _Session(words, move_ms=move_ms, start_ms=start_ms)
    tail: tuple[str, ...] = ()
    try:
        try:
            for message in messages:
                session.replay(message)
        finally:
            tail = session.stderr_tail()
            session.close()
    except _ViolationError as violated:
        return violated, tuple(session.log), session.stderr_tail() or tail
    return None


def shrink_session(
    command: str | Sequence[str], found: PlayerViolation, *, move_ms: int = DEFAULT_MOVE_MS,
    start_ms: int = DEFAULT_START_MS, most: int = SHRINK_MOST,
    seconds: float = SHRINK_SECONDS,
) -> PlayerViolation:
    """The shortest session found that still shows a violation of ``found.kind``.

    The messages of ``found.session`` are replayed to fresh copies of the program, keeping
    ``hello`` first, the failing message last and the ``game`` message of the failing
    message's game (a request comes within a game): first these alone; then, as delta
    debugging does, chunks of the other messages are left out, halving the chunks down to
    single messages, and each shorter session that still shows a violation of the same kind
    (cut at its failing message) is kept. At most *most* replays, and no new replay after
    *seconds*; *found* itself when no shorter session shows it. A failure at the start or at
    ``hello`` is not shrunk.
    """
    words = command_words(command)
    tries = 0
    best = found
    give_up = time.monotonic() + seconds

    def split(session: Sequence[Exchange]) -> tuple[list[Mapping[str, Any]],
                                                    list[Mapping[str, Any]]]:
        """The messages always kept, and the others.

        Kept: hello, the failing message's game announcement and the failing message.
        """
        sent = [exchange.sent for exchange in session]
        games = [index for index, message in enumerate(sent[:-1])
                 if message.get("type") == "game"]
        keep = {0, len(sent) - 1, *(games[-1:])}
        return ([message for index, message in enumerate(sent) if index in keep],
                [message for index, message in enumerate(sent) if index not in keep])

    def shows(others: Sequence[Mapping[str, Any]]) -> bool:
        """Whether the session with only *others* beside the kept messages still fails."""
        nonlocal best, tries
        if tries >= most or time.monotonic() > give_up:
            return False
        tries += 1
        kept, _ = split(best.session)
        ordered = _in_order(best.session, [*kept, *others])
        outcome = _replay(words, ordered, move_ms=move_ms, start_ms=start_ms)
        if outcome is None or outcome[0].kind != found.kind:
            return False
        violated, log, tail = outcome
        if len(log) >= len(best.session):
            return False
        best = PlayerViolation(found.check, violated.kind, violated.detail, violated.params,
                               violated.sent, violated.reply, log, found.length, True, tail)
        return True

    if len(found.session) <= 2 or found.kind == "start" or found.sent is None:
        return found
    if shows([]):
        return best
    others = split(best.session)[1]
    chunk = max(1, len(others) // 2)
    while others and tries < most and time.monotonic() <= give_up:
        index = 0
        while index < len(others) and tries < most and time.monotonic() <= give_up:
            if shows(others[:index] + others[index + chunk:]):
                others = split(best.session)[1]
            else:
                index += chunk
        if chunk == 1:
            break
        chunk = max(1, chunk // 2)
    return best


def _in_order(session: Sequence[Exchange], chosen: Sequence[Mapping[str, Any]]
              ) -> list[Mapping[str, Any]]:
    """The messages of *chosen* in the order of *session* (each message object once)."""
    wanted = {id(message) for message in chosen}
    return [exchange.sent for exchange in session if id(exchange.sent) in wanted]


# --- Report ------------------------------------------------------------------------------------


def _dumps(value: object, size: int = 300) -> str:
    text = value if isinstance(value, str) else json.dumps(value, ensure_ascii=False)
    return _clip(text, size)


def format_player_result(result: PlayerCheckResult, language: str = "en") -> str:
    """The report of :func:`check_player` in *language*, as ``conform --player`` prints it."""
    tr = translator(language)
    g, n = tr.gettext, tr.number
    command = shlex.join(result.command)
    lines: list[str] = []
    violation = result.violation
    if violation is None:
        lines.append(g(N_(
            "{command} follows the take5-player protocol {version} in every check (seed "
            "{seed}). Checks passed: {checks}; games played: {games}; requests answered "
            "legally: {requests}, of them a low card's row: {rows}, a draft pick: {drafts}."
        )).format(command=command, version=protocol.PROTOCOL, checks=n(len(result.checks)),
                  games=n(result.games), requests=n(result.requests), rows=n(result.rows),
                  drafts=n(result.drafts), seed=result.seed))
        lines.append(g(N_("The checks: {checks}.")).format(checks=", ".join(result.checks)))
    else:
        problem = phrase_text(violation.detail, language, **violation.params)
        lines.append(g(N_(
            "{command} breaks the take5-player protocol in check {check}: {problem} "
            "[player-protocol {kind}].")).format(command=command, check=violation.check,
                                                 problem=problem, kind=violation.kind))
        if violation.sent is not None:
            count = len(violation.session)
            if violation.shrunk:
                lines.append(tr.ngettext(Nn_(
                    "The shortest session that shows it ({count} message, shrunk from "
                    "{length}):",
                    "The shortest session that shows it ({count} messages, shrunk from "
                    "{length}):"), count).format(count=n(count), length=n(violation.length)))
            elif count > 1:
                lines.append(tr.ngettext(Nn_(
                    "The session that shows it ({count} message; no shorter one found):",
                    "The session that shows it ({count} messages; no shorter one found):"),
                    count).format(count=n(count)))
            shown = list(violation.session) if count > 1 else []
            if count > 12:
                shown = [*violation.session[:2], *violation.session[-8:]]
            for index, exchange in enumerate(shown):
                if count > 12 and index == 2:
                    lines.append("  " + tr.ngettext(Nn_(
                        "… {count} message left out …", "… {count} messages left out …"),
                        count - 10).format(count=n(count - 10)))
                lines.append(f"  > {_dumps(exchange.sent)}")
                if exchange.reply is not None:
                    lines.append(f"  < {_clip(exchange.reply, 300)}")
            lines.append("  " + g(N_("sent:   {message}")).format(
                message=_dumps(violation.sent)))
            lines.append("  " + g(N_("reply:  {reply}")).format(
                reply=_clip(violation.reply, 300) if violation.reply is not None
                else g(N_("(none)"))))
            lines.append("  " + g(N_("kind:   {kind}")).format(kind=violation.kind))
        if violation.stderr_tail:
            lines.append("  " + g(N_("the last lines of its stderr:")))
            lines.extend(f"  | {line}" for line in violation.stderr_tail)
        if result.checks:
            lines.append(g(N_("Checks passed before it: {checks}.")).format(
                checks=", ".join(result.checks)))
    if result.skipped:
        lines.append(g(N_("Not checked: the variants it does not play ({variants}).")).format(
            variants=", ".join(result.skipped)))
    return "\n".join(lines)


def player_result_json(result: PlayerCheckResult, language: str = "en") -> dict[str, Any]:
    """The result as a JSON-ready object (what ``conform --player --json`` prints)."""
    data: dict[str, Any] = {
        "status": result.status,
        "exit_code": result.exit_code,
        "command": list(result.command),
        "seed": result.seed,
        "protocol": protocol.PROTOCOL,
        "name": result.name,
        "author": result.author,
        "variants": list(result.variants),
        "checks": list(result.checks),
        "games": result.games,
        "requests": result.requests,
        "rows": result.rows,
        "drafts": result.drafts,
        "skipped": list(result.skipped),
        "violation": None,
    }
    violation = result.violation
    if violation is not None:
        data["violation"] = {
            "check": violation.check,
            "kind": violation.kind,
            "message": phrase_text(violation.detail, language, **violation.params),
            "sent": violation.sent,
            "reply": violation.reply,
            "session": [{"sent": exchange.sent, "reply": exchange.reply}
                        for exchange in violation.session],
            "length": violation.length,
            "shrunk": violation.shrunk,
            "stderr": list(violation.stderr_tail),
        }
    return data
