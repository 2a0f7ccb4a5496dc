"""A player that is a program: any command that speaks the take5-player protocol, seated.

:class:`ProgramPlayer` is a :class:`~take5rules.playing.players.Player` whose decisions come
from a child program, spoken to in JSON lines (:mod:`take5rules.playing.protocol`, through a
:class:`~take5rules.playing.channel.Channel`). It listens (``see``): the engine tells it every
event its seat may see, and it tells its program the game, each round, each turn, each score
and the end; it asks the program each ``card``, ``row`` and ``draft`` decision, with time
controls. The program is started on the first game (never by the constructor), answers
``hello``, and plays game after game; after a violation it is stopped and started afresh for
the next game.

Whatever the program does wrong is a :class:`PlayerProgramError` (id ``player-protocol``) of
one of the kinds of :data:`KINDS`: ``start`` (it cannot be started, gave no ``hello`` reply in
time, or does not play the game's variant), ``exited`` (it ended or closed its stdout),
``malformed`` (a reply not of the protocol's shape, or a line nobody asked for), ``oversize`` (a
line over 65,536 bytes), ``illegal`` (a card not in the hand or pool, a row outside 0..3),
``time`` (a move or the game over its time) and ``declined`` (it answered with an ``error``).
The table then sends it ``error`` and ``quit``, stops it, and raises.

A sketch (``my-bot`` stands for any program speaking the protocol)::

    with ProgramPlayer("./my-bot --fast", move_ms=2_000) as bot:
        for seed in range(10):
            bot.seed = seed                     # the seed its next game message carries
            over = play_silently({"bot": bot, "ana": CautiousPlayer()}, seed=seed)
"""

from __future__ import annotations

import contextlib
import time
from collections.abc import Callable, Sequence
from typing import Any, Final, TypeVar

from take5rules._messages import N_, Phrase, shown
from take5rules.cards import Card
from take5rules.errors import MalformedInputError, Take5Error, Where
from take5rules.events import Event, GameOver, GameStarted
from take5rules.playing.channel import Channel, ChannelError, command_words
from take5rules.playing.players import CardView, DraftView, RowChoice
from take5rules.playing.protocol import (
    QUIT,
    Hello,
    ProtocolViolation,
    SeatNews,
    card_request,
    decode,
    draft_request,
    encode,
    error_message,
    game_clock,
    game_message,
    hello_message,
    move_clock,
    read_card_reply,
    read_draft_reply,
    read_hello_reply,
    read_row_reply,
    row_request,
)
from take5rules.variants import Rules

__all__ = ["KINDS", "PlayerProgramError", "ProgramPlayer"]

#: The ways a player program fails, as :attr:`PlayerProgramError.kind` names them.
KINDS: Final = ("start", "exited", "malformed", "oversize", "illegal", "time", "declined")

#: The id every :class:`PlayerProgramError` carries (no rule of the game is broken).
RULE: Final = "player-protocol"

_NOT_MS = N_("{name} = {value}: a time in milliseconds is a whole number from 1 to {limit}")
_NOT_A_NAME = N_("name = {value}: the name of a program player is a non-empty text")
_OUTSIDE = N_("the program player {name!r} was asked a decision outside a game: seat it "
              "through the engine (play_game, play_silently), which tells it the game")
_TWO_SEATS = N_("the program player {name!r} is seated twice in one game ({seat!r} and "
                "{other!r}): each seat needs its own")
_VARIANT = N_("the program plays {variants} only, not the variant {variant}")
_UNASKED = N_("the program wrote a line nobody asked for: {line!r}")
_MOVE_TIME = N_("the program did not answer within its {ms} ms for a move")
_GAME_TIME = N_("the program went over its {ms} ms for the game")
_START_TIME = N_("the program did not answer hello within {ms} ms")

_T = TypeVar("_T")

#: The longest time limit accepted, in ms (a day).
_MAX_MS = 86_400_000


def _ms(name: str, value: object, *, optional: bool) -> int | None:
    """*value* as a time limit in ms (``None`` allowed when *optional*), or an argument error."""
    if value is None and optional:
        return None
    if type(value) is not int or not 1 <= value <= _MAX_MS:
        raise MalformedInputError("argument", _NOT_MS, name=name, value=shown(value),
                                  limit=_MAX_MS)
    return value


class PlayerProgramError(Take5Error):
    """A player program broke the take5-player protocol; the table stopped it.

    ``rule`` is ``player-protocol``; :attr:`kind` one of :data:`KINDS`; :attr:`seat` the seat
    it played (``None`` before a game); :attr:`detail` what went wrong (a translatable phrase,
    English when printed); :attr:`stderr` the last lines the program wrote on its stderr.
    Printed on one line, the kind last: ``... [player-protocol illegal]``.

    >>> error = PlayerProgramError("time", "the program did not answer within 10 ms",
    ...                            seat="bot")
    >>> print(error)
    player 'bot': the program did not answer within 10 ms [player-protocol time]
    """

    kind: str
    seat: str | None
    detail: Phrase | str
    stderr: tuple[str, ...]

    def __init__(self, kind: str, detail: Phrase | str, /, *, seat: str | None = None,
                 stderr: Sequence[str] = (), where: Where | None = None) -> None:
        self.kind, self.seat, self.detail, self.stderr = kind, seat, detail, tuple(stderr)
        if where is None:
            where = Where(player=seat)
        # The template is the detail alone: the detail is the translatable message.
        super().__init__(RULE, "{detail}", where=where, detail=detail, kind=kind)

    def __str__(self) -> str:
        location = str(self.where)
        prefix = f"{location}: " if location else ""
        return f"{prefix}{' '.join(self.message.split())} [{self.rule} {self.kind}]"

    def __reduce__(self) -> tuple[Any, ...]:
        return (_rebuild, (self.kind, self.detail, self.seat, self.stderr, self.where))


def _rebuild(kind: str, detail: Phrase | str, seat: str | None, stderr: tuple[str, ...],
             where: Where) -> PlayerProgramError:
    return PlayerProgramError(kind, detail, seat=seat, stderr=stderr, where=where)


class ProgramPlayer:
    """A player whose decisions a child program makes, through the take5-player protocol.

    *command* is a command line (split as a POSIX shell would, no shell started) or a list of
    words. *move_ms* limits each decision (from the write of a request to the read of its
    reply), *game_ms* the sum of one game's (``None``: no limit), *start_ms* the answer to
    ``hello``; all wall-clock milliseconds. *name* names it in messages (default: the
    command). Set :attr:`seed` before a game to give the program that game's seed (the
    ``game`` message's ``seed``; ``None`` after each game). Seat it at one seat of a game at a
    time; it plays any number of games one after the other; :meth:`close` (or ``with``) stops
    its program, as the end of the interpreter does.
    """

    def __init__(self, command: str | Sequence[str], *, move_ms: int | None = 10_000,
                 game_ms: int | None = None, start_ms: int = 10_000,
                 name: str | None = None) -> None:
        self.words = command_words(command)
        self.move_ms = _ms("move_ms", move_ms, optional=True)
        self.game_ms = _ms("game_ms", game_ms, optional=True)
        self.start_ms = _ms("start_ms", start_ms, optional=False) or 10_000
        if name is not None and (not isinstance(name, str) or not name):
            raise MalformedInputError("argument", _NOT_A_NAME, value=shown(name))
        self.name = name if name is not None else " ".join(self.words)
        #: The seed of the next game, given to the program in its ``game`` message.
        self.seed: int | None = None
        #: The program's ``hello`` reply, once it has answered.
        self.hello: Hello | None = None
        self._channel = Channel(self.words)
        self._games = 0
        self._requests = 0
        self._seat: str | None = None
        self._news: SeatNews | None = None
        self._used = 0.0  # seconds of the game's time used
        self._where = Where()
        self._opened: GameStarted | None = None  # the start of the game it plays

    def __repr__(self) -> str:
        return f"ProgramPlayer({self.name!r})"

    def __enter__(self) -> ProgramPlayer:
        return self

    def __exit__(self, *_: object) -> None:
        self.close()

    @property
    def pid(self) -> int | None:
        """The process id of the program while it runs, else ``None``."""
        return self._channel.pid if self._channel.running else None

    def close(self) -> None:
        """Stop the program (``quit``, then the channel's stop); it starts again when needed."""
        if self._channel.pid is not None:
            self._channel.stop(encode(QUIT).decode("utf-8"))
        self._reset()

    # --- the engine's side ----------------------------------------------------------------

    def see(self, seat: str, event: Event) -> None:
        """Tell the program *event*, as *seat* may see it (the engine calls this)."""
        if isinstance(event, GameStarted):
            if event is self._opened and self._news is not None:  # the same game, again
                raise MalformedInputError("argument", _TWO_SEATS, name=self.name,
                                          seat=self._seat, other=seat)
            self._begin(seat, event.players, event.rules)
            self._opened = event
            assert self._news is not None  # _begin opened the game's news
            for message in self._news.see(event):  # every seat's total (0) for round 1
                self._send(message)
            return
        if self._news is None:
            return  # a game it was not told the start of (play_round): nothing to tell
        if seat != self._seat:
            raise MalformedInputError("argument", _TWO_SEATS, name=self.name, seat=self._seat,
                                      other=seat)
        for message in self._news.see(event):
            self._send(message)
        if isinstance(event, GameOver):
            self._news, self._seat, self.seed, self._opened = None, None, None, None

    def choose_card(self, view: CardView) -> Card:
        """The program's card for *view*."""
        self._where = Where(round=view.round, turn=view.turn, player=self._seat)
        number = self._next(view.player)
        reply = self._ask(card_request(number, view, self._clock()))
        return self._checked(lambda: read_card_reply(reply, number, view.hand))

    def choose_row(self, choice: RowChoice) -> int:
        """The program's row for the low card of *choice*."""
        self._where = Where(round=choice.round, turn=choice.turn, player=self._seat,
                            card=choice.card)
        number = self._next(choice.player)
        reply = self._ask(row_request(number, choice, self._clock()))
        return self._checked(lambda: read_row_reply(reply, number))

    def choose_draft(self, view: DraftView) -> Card:
        """The program's pick of the face-up cards of *view*."""
        self._where = Where(round=view.round, player=self._seat)
        number = self._next(view.player)
        reply = self._ask(draft_request(number, view, self._clock()))
        return self._checked(lambda: read_draft_reply(reply, number, view.pool))

    # --- the protocol ---------------------------------------------------------------------

    def _reset(self) -> None:
        self.hello, self._games, self._requests = None, 0, 0
        self._seat, self._news, self._used = None, None, 0.0

    def _started(self) -> Hello:
        """The program's hello: starts it and greets it when it does not run."""
        if self.hello is not None and self._channel.running:
            return self.hello
        self._reset()
        began = time.monotonic()
        try:
            self._channel.start()
            self._channel.send(encode(hello_message()), began + self.start_ms / 1000)
            line = self._channel.receive(began + self.start_ms / 1000)
        except ChannelError as error:
            kind = "start" if error.kind == "time" else error.kind
            detail: Phrase | str = (Phrase(_START_TIME, ms=self.start_ms)
                                    if error.kind == "time" else
                                    Phrase(error.template, **error.params))
            raise self._violation(kind, detail) from None
        self.hello = self._checked(lambda: read_hello_reply(decode(line)))
        return self.hello

    def _begin(self, seat: str, players: Sequence[str], rules: Rules) -> None:
        """A game starts at *seat*: check the variant, then send the ``game`` message."""
        hello = self._started()
        if rules.variant not in hello.variants:
            detail = Phrase(_VARIANT, variant=rules.variant.value,
                            variants=", ".join(variant.value for variant in hello.variants))
            raise PlayerProgramError("start", detail, seat=seat)
        self._games += 1
        self._seat, self._news, self._used = seat, SeatNews(seat), 0.0
        self._where = Where(player=seat)
        self._send(game_message(self._games, seat, players, rules, self.seed,
                                game_clock(self.move_ms, self.game_ms)))

    def _next(self, player: str) -> int:
        """The id of the next request, at a game the program was told of."""
        if self._news is None or not self._channel.running:
            raise MalformedInputError("argument", _OUTSIDE, name=self.name)
        if player and player != self._seat:
            raise MalformedInputError("argument", _TWO_SEATS, name=self.name, seat=self._seat,
                                      other=player)
        self._requests += 1
        return self._requests

    def _clock(self) -> dict[str, int | None] | None:
        left = None if self.game_ms is None else max(0, self.game_ms - round(self._used * 1000))
        return move_clock(self.move_ms, left)

    def _send(self, message: dict[str, Any]) -> None:
        """Send an information message; the program must take it in within a move's time."""
        limit = self.move_ms if self.move_ms is not None else self.start_ms
        try:
            if self._channel.unread():
                self._unasked()
            self._channel.send(encode(message), time.monotonic() + limit / 1000)
        except ChannelError as error:
            raise self._violation(error.kind, Phrase(error.template, **error.params)) from None

    def _unasked(self) -> None:
        """The program wrote when no request was pending: a violation."""
        try:
            line: bytes | str = self._channel.receive(time.monotonic())
        except ChannelError:
            line = ""
        text = line.decode("utf-8", "replace") if isinstance(line, bytes) else line
        raise self._violation("malformed", Phrase(_UNASKED, line=shown(text)))

    def _ask(self, request: dict[str, Any]) -> dict[str, Any]:
        """Send *request*; the program's reply as a JSON object, read within its time."""
        began = time.monotonic()
        limits = [(self.move_ms, Phrase(_MOVE_TIME, ms=self.move_ms))]
        if self.game_ms is not None:
            left = self.game_ms / 1000 - self._used
            limits.append((max(0, round(left * 1000)), Phrase(_GAME_TIME, ms=self.game_ms)))
        timed = [(ms, detail) for ms, detail in limits if ms is not None]
        deadline = None if not timed else began + min(ms for ms, _ in timed) / 1000
        try:
            if self._channel.unread():
                self._unasked()
            self._channel.send(encode(request), deadline)
            line = self._channel.receive(deadline)
        except ChannelError as error:
            if error.kind == "time":
                _, detail = min(timed, key=lambda pair: pair[0] or 0)
                raise self._violation("time", detail) from None
            raise self._violation(error.kind, Phrase(error.template, **error.params)) from None
        finally:
            self._used += time.monotonic() - began
        return self._checked(lambda: decode(line))

    def _checked(self, read: Callable[[], _T]) -> _T:
        """What *read* reads of a reply; its :class:`ProtocolViolation` stops the program."""
        try:
            return read()
        except ProtocolViolation as violation:
            raise self._violation(violation.kind, violation.detail) from None

    def _violation(self, kind: str, detail: Phrase | str) -> PlayerProgramError:
        """Tell the program (``error``, ``quit``), stop it, and make the error to raise."""
        channel = self._channel
        if channel.running:  # even after a late or oversize line: the program may still read
            with contextlib.suppress(ChannelError, MalformedInputError):
                channel.send(encode(error_message(" ".join(str(detail).split()))),
                             time.monotonic() + 0.2)
        channel.stop(encode(QUIT).decode("utf-8"))
        error = PlayerProgramError(kind, detail, seat=self._seat, stderr=channel.stderr_tail(),
                                   where=self._where if self._where.parts() else None)
        self._reset()
        return error
