"""``take5rules play``: play a whole game between built-in players and narrate it.

The kinds a seat may be are those of :data:`take5rules.agents.player_kinds.PLAYER_KINDS` (the
built-in players and the learned ``policy``), a person (``human``) or a player program.
"""

from __future__ import annotations

import errno
import json
import signal
import sys
from contextlib import suppress
from typing import Any

import click

from take5rules._messages import N_, Phrase, os_reason
from take5rules.agents.arguments import MAX_ROUNDS, MAX_THRESHOLD, checked_threshold
from take5rules.agents.player_kinds import PLAYER_KINDS, new_player
from take5rules.cli.common import (
    TurnEnd,
    echo_wrapped,
    game_ms_option,
    lang_option,
    move_ms_option,
    reported,
)
from take5rules.errors import MalformedInputError, RulesError, Take5Error
from take5rules.events import CardPlaced, CardsRevealed, Event, RoundStarted, RowTaken
from take5rules.playing.engine import play_game
from take5rules.playing.human import TextPlayer, read_answer
from take5rules.playing.players import Player, RandomPlayer
from take5rules.playing.program_player import ProgramPlayer
from take5rules.setup import check_players
from take5rules.text import narrate, rows_text, translator
from take5rules.variants import DEFAULT_THRESHOLD, Rules, Variant

__all__ = ["KINDS", "MAX_THRESHOLD", "PROGRAM", "checked_threshold", "event_json",
           "parse_players", "play"]

_UNKNOWN_KIND = N_("unknown player kind {kind!r}; choose one of {kinds}")
_INTERRUPTED = N_("stopped by Ctrl-C: the game stops here (its log, if asked, keeps the whole "
                  "turns played)")
_HUMAN_JSON = N_("a human seat cannot play with --json: its questions would break the JSON "
                 "lines")
_NAME_TOO_LONG = N_("the file name is too long")
_NOT_TEXT_INPUT = N_("the input is not {encoding} text, so the game stops here")

#: setup.players' own message (see :func:`take5rules.setup.check_players`).
_NOT_TEXT = N_("player name {value!r}: a player's name is a non-empty text")

#: The kinds a ``--players`` entry may name: the built-in players, the policy and a person.
KINDS = (*PLAYER_KINDS, "human")

#: How an entry names a player program: ``cmd:`` and its command line (no comma in it).
PROGRAM = "cmd:"


def _known(kind: str) -> bool:
    return kind in KINDS or (kind.startswith(PROGRAM) and bool(kind[len(PROGRAM):].strip()))


def parse_players(spec: str) -> list[tuple[str, str]]:
    """The seats of ``--players`` *spec*: (name, kind) pairs, in order.

    A bare entry is a kind, seated under its own name (numbered when repeated, as in
    ``arena``); ``NAME=KIND`` names the seat; anything else is refused. A kind is a built-in
    player, ``human``, or ``cmd:COMMAND``, a player program (its command line holds no comma;
    bare, it is seated under its command).

    >>> parse_players("cautious,random,cautious")
    [('cautious', 'cautious'), ('random', 'random'), ('cautious#2', 'cautious')]
    >>> parse_players("me=human,bot=policy")
    [('me', 'human'), ('bot', 'policy')]
    >>> parse_players("me=human,bob=lowest,cmd:node bot.js --x=1")
    [('me', 'human'), ('bob', 'lowest'), ('node bot.js --x=1', 'cmd:node bot.js --x=1')]
    >>> parse_players("ana:random")
    Traceback (most recent call last):
    ...
    take5rules.errors.RulesError: unknown player kind 'ana:random'; choose one of random, \
lowest, cautious, greedy, montecarlo, ismcts, best, policy, human, cmd:COMMAND [argument]
    """
    entries: list[tuple[str | None, str]] = []
    for item in (part.strip() for part in spec.split(",")):
        named, equals, kind = ("", "", "") if item.startswith(PROGRAM) else item.partition("=")
        kind = kind if equals else item
        if not _known(kind):
            raise RulesError("argument", _UNKNOWN_KIND, kind=kind,
                             kinds=", ".join([*KINDS, f"{PROGRAM}COMMAND"]))
        entries.append((named, kind) if equals else (None, kind))
    taken = [name for name, _ in entries if name is not None]
    pairs: list[tuple[str, str]] = []
    for name, kind in entries:
        if name is None:  # a bare kind: its own name, numbered past the names already taken
            kind_name = (" ".join(kind[len(PROGRAM):].split()) if kind.startswith(PROGRAM)
                         else kind)
            name, count = kind_name, 1
            while name in taken:
                count += 1
                name = f"{kind_name}#{count}"
            taken.append(name)
        pairs.append((name, kind))
    return pairs


def _seats(pairs: list[tuple[str, str]], rules: Rules, language: str,
           told: set[tuple[int, int]] | None = None, move_ms: int | None = 10_000,
           game_ms: int | None = None) -> dict[str, Player]:
    """The players of *pairs*, each seat checked (distinct names: setup.players).

    The human seats share *told*, the turns whose reveal one of them told before its question.
    A program (``cmd:COMMAND``) gets the time controls *move_ms* and *game_ms*, and its seat's
    index as the seed of its game (as ``random`` does); it is started when the game starts.
    ``policy`` without numpy is the one-line error naming the extra (id ``extra``).
    """
    for name, _ in pairs:
        try:
            name.encode("utf-8")
        except UnicodeEncodeError:  # bytes that were not UTF-8 on the command line
            raise RulesError("setup.players", _NOT_TEXT, value=name) from None
    check_players([name for name, _ in pairs], rules)
    seats: dict[str, Player] = {}
    for index, (name, kind) in enumerate(pairs):
        if kind == "human":
            seats[name] = TextPlayer(name, language, _read_line, _write, told=told)
            continue
        if kind.startswith(PROGRAM):
            program = ProgramPlayer(kind[len(PROGRAM):], move_ms=move_ms, game_ms=game_ms,
                                    name=name)
            program.seed = index
            seats[name] = program
            continue
        seats[name] = RandomPlayer(index) if kind == "random" else new_player(kind)
    return seats


def _read_line() -> str | None:
    """The next line of stdin (``None`` at its end), echoed when stdin is not a terminal.

    Bytes that are not text in stdin's encoding end the game with one line (id ``input``).
    """
    stdin = sys.stdin
    try:
        line = read_answer(stdin) if stdin is not None else ""
    except UnicodeDecodeError as error:
        click.echo()
        raise MalformedInputError("input", _NOT_TEXT_INPUT, encoding=error.encoding) from None
    if not line:
        click.echo()
        return None
    if not stdin.isatty():
        click.echo(line.rstrip("\n"))
    return line


def _write(text: str) -> None:
    """A line of a human seat's questions, a question ending without a new line."""
    click.echo(text, nl=not text.endswith(" "))


def _checked_log_path(log_path: str) -> None:
    from take5rules.logs.format import LogError, check_writable

    if "\0" in log_path:  # not a file name (no shell can pass one; Python can)
        raise click.BadParameter(repr(log_path), param_hint="--log")
    try:
        check_writable(log_path)
    except OSError as error:  # a name too long, a loop of links: one line, exit 2
        reason = (Phrase(_NAME_TOO_LONG) if error.errno == errno.ENAMETOOLONG
                  else os_reason(error))
        raise LogError(N_("cannot write {source}: {reason}"), source=log_path,
                       reason=reason) from None


@click.command("play")
@click.option("--players", "players", default="ana=cautious,bob=lowest,cyd=random,dan=cautious",
              show_default=True,
              help="Seats, comma-separated: KIND or NAME=KIND, each NAME once; KIND is random, "
                   "lowest, cautious, greedy, montecarlo, ismcts, best, policy (the learned "
                   "policy; needs take5rules[batch]), human (you, asked on stdin) or "
                   "cmd:COMMAND (a program speaking the take5-player protocol).")
@click.option("--variant", type=click.Choice([v.value for v in Variant]), default="standard",
              show_default=True, help="Which rules to play.")
@click.option("--threshold", type=int, default=DEFAULT_THRESHOLD, show_default=True,
              help=f"The agreed end threshold (rule variants.threshold), 1 to {MAX_THRESHOLD}: "
                   "the highest total grows by at least 2 bull heads a round, so every game "
                   f"ends within {MAX_ROUNDS} rounds.")
@click.option("--seed", type=int, default=1, show_default=True,
              help="Seed of the shuffles and of the random players.")
@click.option("--json", "as_json", is_flag=True, help="Print the events as JSON lines.")
@click.option("--log", "log_path", metavar="FILE", type=str, default=None,
              help="Also write the game as a take5-log (see `take5rules validate`).")
@click.option("--rows/--no-rows", default=True, show_default=True,
              help="After each turn, show the four rows.")
@move_ms_option
@game_ms_option
@lang_option
def play(players: str, variant: str, threshold: int, seed: int, as_json: bool,
         log_path: str | None, rows: bool, move_ms: int | None, game_ms: int | None,
         language: str) -> None:
    """Play a whole game between built-in players and narrate it turn by turn.

    A seat may be a program of yours, cmd:COMMAND, that speaks the take5-player protocol
    (JSON lines on its stdin and stdout): it is started for the game and stopped at its end.
    """
    from take5rules.logs.format import check_loggable, write_log
    from take5rules.logs.writer import LogWriter

    with reported(language):
        rules = Rules(Variant.parse(variant), threshold)
        checked_threshold(threshold)
        pairs = parse_players(players)
        if as_json and any(kind == "human" for _, kind in pairs):
            raise RulesError("argument", _HUMAN_JSON)
        told: set[tuple[int, int]] = set()  # the reveals a human seat told before its question
        seats = _seats(pairs, rules, language, told, move_ms, game_ms)
        programs = [player for player in seats.values() if isinstance(player, ProgramPlayer)]
        if log_path is not None:
            check_loggable(rules)
            _checked_log_path(log_path)
        humans = {name for name, kind in pairs if kind == "human"}
        writer = LogWriter() if log_path is not None else None
        turn_end, hand = TurnEnd(), 0
        try:
            for event in play_game(seats, rules, seed):
                if writer is not None:
                    writer.add(event)
                if as_json:
                    click.echo(json.dumps(event_json(event), ensure_ascii=False))
                    continue
                if not (isinstance(event, CardsRevealed) and (event.round, event.turn) in told):
                    echo_wrapped(_told(event, language, humans, rules), more="  ")
                if isinstance(event, RoundStarted):
                    hand = min(map(len, event.hands.values()), default=0)
                after = turn_end.rows_after(event)
                # a person's next question shows the rows with their bull heads: not twice
                asked = (bool(humans) and isinstance(event, CardPlaced | RowTaken)
                         and event.turn < hand)
                if rows and after is not None and not asked:
                    echo_wrapped(rows_text(after, language), "  ", "    ")
        except (Take5Error, KeyboardInterrupt) as stop:  # the input ended (or was not
            # text), a program failed, Ctrl-C: keep the log of what was played (in progress)
            if writer is not None and log_path is not None:
                with suppress(Take5Error):  # the error to report is the first one
                    write_log(writer.log(), log_path)
            if isinstance(stop, KeyboardInterrupt):
                click.echo(translator(language).gettext(_INTERRUPTED), err=True)
                sys.exit(128 + signal.SIGINT)
            raise
        finally:
            for program in programs:
                program.close()
        if writer is not None and log_path is not None:
            write_log(writer.log(), log_path)


def _told(event: Event, language: str, humans: set[str], rules: Rules) -> str:
    """*event* narrated; at a table with people, without the hands they may not see."""
    text = narrate(event, language, rules=rules)
    if not humans or not isinstance(event, RoundStarted):
        return text
    first, *hands = text.splitlines()
    return "\n".join([first, *(line for player, line in zip(event.hands, hands, strict=True)
                               if player in humans)])


def event_json(event: Event) -> dict[str, Any]:
    """An event as a JSON-ready dict, with its ``kind``."""
    from dataclasses import fields

    data: dict[str, Any] = {"kind": event.kind}
    for field in fields(event):
        value = getattr(event, field.name)
        if isinstance(value, Rules):
            value = {"variant": value.variant.value, "threshold": value.threshold}
        elif hasattr(value, "items"):
            value = {key: list(item) if isinstance(item, tuple) else item
                     for key, item in value.items()}
        elif isinstance(value, tuple):
            value = [list(item) if isinstance(item, tuple) else item for item in value]
        data[field.name] = value
    return data
