"""An MCP server: the rules, the referee, the log validator and a seat at the table, for agents.

Language-model agents reach it through the Model Context Protocol (the official ``mcp`` SDK).
Tools:

* ``list_rules`` and ``explain_rule``: the rulebook, in any language of :mod:`take5rules.i18n`;
* ``referee_turn``: one request of the referee line protocol (:mod:`take5rules.referee`), the
  same JSON object, the same reply, errors included;
* ``validate_log``: a take5-log checked against every rule (:func:`take5rules.validate.validate`);
* ``new_game``, ``play_card``, ``choose_row``, ``draft_card`` and ``game_state``: play one seat
  against the built-in players of :mod:`take5rules.players`, with narration of each turn.

Run it over stdio with ``python -m take5rules.mcp_server`` (for an MCP client's configuration),
or build it in-process with :func:`build_server`. Install it with ``pip install take5rules[mcp]``.

A move the rules forbid comes back as a tool error whose text names the rule broken, in the
game's language; the game goes on from where it was.
"""

from __future__ import annotations

import itertools
import json
from collections.abc import Iterator
from dataclasses import dataclass, field
from types import MappingProxyType
from typing import Any

try:
    from mcp.server.mcpserver import MCPServer
    from mcp.server.mcpserver.exceptions import ToolError
except ModuleNotFoundError as missing:  # a plain install: say which extra, in one line
    from ._extras import missing_extra

    raise missing_extra(__name__, missing, "mcp") from None

from ._machine import CARD, DRAFT, OVER, ROW, Machine
from ._text import N_
from .errors import MalformedInputError, RulesError, Take5Error
from .events import Event, RoundStarted
from .i18n import error_message, explain, narrate, resolve_language, rulebook
from .log import loads
from .players import BUILTIN_PLAYERS, CardView, DraftView, Player, RandomPlayer
from .referee import answer, answer_line
from .validate import validate
from .variants import Rules, Variant

__all__ = ["build_server", "main"]

#: Games kept at once; the oldest is forgotten beyond this.
MAX_GAMES = 64

_INSTRUCTIONS = (
    "The rules of Take 5 / 6 nimmt! as a verified reference. Ask for a rule's explanation "
    "(list_rules, explain_rule) in en, fr, bg, it or eo; referee a turn with the JSON request "
    "of the referee line protocol (rows, plays, choices; rows are 0-based indices in data); "
    "validate a take5-log; or play a seat against the built-in players: new_game, then "
    "play_card, choose_row (when your card is lower than every row) or draft_card, as the "
    "'phase' of each reply asks."
)


@dataclass
class _Session:
    """One game played by a remote seat: the machine, the built-in opponents, the language."""

    machine: Machine
    seat: str
    bots: dict[str, Player]
    language: str
    told: int = 0
    round_totals: dict[str, int] = field(default_factory=dict)


def _fail(error: Take5Error, language: str) -> ToolError:
    """A tool error worded in *language*, naming the rule broken."""
    return ToolError(error_message(error, language))


def _opponent(kind: str, seed: int | None, index: int) -> Player:
    if kind not in BUILTIN_PLAYERS:
        raise RulesError(
            "setup.players",
            N_("unknown player kind {kind!r}; choose one of {choices}"),
            kind=kind,
            choices=", ".join(BUILTIN_PLAYERS),
        )
    if kind == "random":
        return RandomPlayer(None if seed is None else seed + index)
    return BUILTIN_PLAYERS[kind]()


def _advance(session: _Session) -> None:
    """Let the built-in players decide until the remote seat must, or the game is over."""
    machine = session.machine
    while machine.phase != OVER:
        bots = [player for player in machine.deciders() if player != session.seat]
        if not bots:
            return
        player = bots[0]
        bot = session.bots[player]
        if machine.phase == CARD:
            assert machine.state is not None
            view = CardView(machine.number, machine.state.turn + 1, machine.state.table,
                            machine.state.hands[player], MappingProxyType(dict(machine.totals)))
            machine.play(player, bot.choose_card(view))
        elif machine.phase == ROW:
            assert machine.pending is not None
            machine.choose_row(player, bot.choose_row(machine.pending))
        else:
            view_draft = DraftView(machine.number, len(machine.picks) + 1, tuple(machine.pool),
                                   machine.hand(player))
            machine.pick(player, bot.choose_draft(view_draft))


def _public(event: Event, seat: str) -> Event:
    """*event* as *seat* may know it: of the hands dealt, only its own."""
    if isinstance(event, RoundStarted):
        return RoundStarted(event.round, event.rows, MappingProxyType({seat: event.hands[seat]}))
    return event


def _report(game_id: str, session: _Session) -> dict[str, Any]:
    """What the remote seat sees now, and the narration of what happened since last time."""
    machine = session.machine
    seat = session.seat
    new = [_public(event, seat) for event in machine.events[session.told :]]
    session.told = len(machine.events)
    table = machine.table
    waiting = seat in machine.deciders()
    report: dict[str, Any] = {
        "game_id": game_id,
        "you": seat,
        "players": list(machine.players),
        "phase": machine.phase if waiting or machine.phase == OVER else "waiting",
        "round": machine.number,
        "hand": list(machine.hand(seat)),
        "rows": table.to_json() if table is not None else [],
        "taken_this_round": dict(machine.taken),
        "totals": dict(machine.totals),
        "narration": [narrate(event, session.language) for event in new],
    }
    if machine.phase == ROW and waiting:
        assert machine.pending is not None
        report["low_card"] = machine.pending.card
    if machine.phase == DRAFT:
        report["pool"] = list(machine.pool)
    if machine.phase == OVER:
        lowest = min(machine.totals.values())
        report["winners"] = [p for p, total in machine.totals.items() if total == lowest]
    return report


def build_server() -> MCPServer:
    """The MCP server with its tools; each server keeps its own games."""
    server = MCPServer("take5rules", instructions=_INSTRUCTIONS)
    games: dict[str, _Session] = {}
    numbers: Iterator[int] = itertools.count(1)

    def session_of(game_id: str) -> _Session:
        if game_id not in games:
            raise ToolError(
                error_message(
                    MalformedInputError(
                        "protocol",
                        N_("no game {game!r}; start one with new_game"),
                        game=game_id,
                    )
                )
            )
        return games[game_id]

    def language_of(language: str) -> str:
        return resolve_language(language)[0]

    @server.tool()
    def list_rules(language: str = "en") -> list[dict[str, str]]:
        """Every rule of Take 5, in rulebook order: its id, title and statement."""
        return [
            {"rule": item.rule_id, "title": item.title, "statement": item.statement}
            for item in rulebook(language_of(language))
        ]

    @server.tool()
    def explain_rule(rule_id: str, language: str = "en") -> dict[str, Any]:
        """One rule explained: title, statement, explanation with an example, and sources.

        Languages: en, fr, bg, it, eo (and nl, de). Rule ids come from list_rules, e.g.
        "table.low-card".
        """
        language = language_of(language)
        try:
            item = explain(rule_id, language)
        except Take5Error as error:
            raise _fail(error, language) from None
        return {
            "rule": item.rule_id,
            "language": item.language,
            "title": item.title,
            "statement": item.statement,
            "explanation": item.explanation,
            "sources": [str(source) for source in item.sources],
        }

    @server.tool()
    def referee_turn(request: dict[str, Any] | str, language: str = "en") -> dict[str, Any]:
        """Resolve one turn exactly as the referee line protocol does.

        The request is the protocol's JSON object (or its text): {"rows": [[...] x4],
        "plays": [["ana", 17], ["bob", 2]], "choices": {"bob": 3}}. The reply is the protocol's:
        {"rows", "taken", "chosen"}, or {"error": {"rule", "message"}}.
        """
        language = language_of(language)
        if isinstance(request, str):
            reply: dict[str, Any] = json.loads(answer_line(request, language))
            return reply
        return answer(request, language)

    @server.tool()
    def validate_log(log: dict[str, Any] | str, language: str = "en") -> dict[str, Any]:
        """Check a take5-log (the JSON object, or its text) against every rule.

        The reply says whether it is valid and complete, the totals and winners, and each
        violation with its rule, place in the game, JSON path and message.
        """
        language = language_of(language)
        try:
            document = loads(log) if isinstance(log, str) else log
            return validate(document).to_json(language)
        except Take5Error as error:
            return {"error": {"rule": error.rule, "message": error_message(error, language)}}

    @server.tool()
    def new_game(
        opponents: list[str] | None = None,
        variant: str = "standard",
        threshold: int = 66,
        seed: int | None = None,
        name: str = "you",
        language: str = "en",
    ) -> dict[str, Any]:
        """Start a game: your seat first, then the built-in opponents (random, lowest, cautious).

        The reply tells the phase: "card" (play_card), "row" (choose_row, for your low card),
        "draft" (draft_card, logic and tournament variants) or "over".
        """
        language = language_of(language)
        kinds = opponents if opponents is not None else ["cautious", "lowest", "random"]
        try:
            rules = Rules(Variant.parse(variant), threshold)
            bots = {
                f"{kind}_{index}": _opponent(kind, seed, index)
                for index, kind in enumerate(kinds, start=1)
            }
            machine = Machine((name, *bots), rules, seed)
        except Take5Error as error:
            raise _fail(error, language) from None
        game_id = f"game-{next(numbers)}"
        games[game_id] = _Session(machine, name, bots, language)
        while len(games) > MAX_GAMES:
            del games[next(iter(games))]
        _advance(games[game_id])
        return _report(game_id, games[game_id])

    def move(game_id: str, decide: str, value: int) -> dict[str, Any]:
        session = session_of(game_id)
        machine = session.machine
        try:
            if decide == CARD:
                machine.play(session.seat, value)
            elif decide == ROW:
                machine.choose_row(session.seat, value)
            else:
                machine.pick(session.seat, value)
        except Take5Error as error:
            raise _fail(error, session.language) from None
        _advance(session)
        return _report(game_id, session)

    @server.tool()
    def play_card(game_id: str, card: int) -> dict[str, Any]:
        """Lay a card of your hand face down for this turn (phase "card")."""
        return move(game_id, CARD, card)

    @server.tool()
    def choose_row(game_id: str, row: int) -> dict[str, Any]:
        """Take row 0 to 3 (0-based) with your low card (phase "row"); it starts that row."""
        return move(game_id, ROW, row)

    @server.tool()
    def draft_card(game_id: str, card: int) -> dict[str, Any]:
        """Take a face-up card from the pool (phase "draft", logic and tournament variants)."""
        return move(game_id, DRAFT, card)

    @server.tool()
    def game_state(game_id: str) -> dict[str, Any]:
        """Your view of a game now, with the narration of anything not yet told."""
        return _report(game_id, session_of(game_id))

    return server


def main() -> None:
    """Serve over stdio."""
    build_server().run()


if __name__ == "__main__":
    main()
