"""An MCP server: the rules, the referee, the log validator and a seat at the table, for agents.

Language-model agents reach it through the Model Context Protocol (the official ``mcp`` SDK).
Tools:

* ``list_rules`` and ``explain_rule``: the rulebook, in any language of :mod:`take5rules.text`;
* ``referee_turn``: one request of the referee line protocol
(:mod:`take5rules.conformance.referee`), the
  same JSON object, the same reply, errors and limits included;
* ``validate_log``: a take5-log checked against every rule
(:func:`take5rules.logs.validator.validate`),
  files capped at :data:`take5rules.logs.format.MAX_LOG_BYTES` as on the command line;
* ``new_game``, ``play_card``, ``choose_row``, ``draft_card`` and ``game_state``: play one seat
  against the built-in players (:data:`take5rules.agents.player_kinds.PLAYER_KINDS`, the learned
  ``policy`` included), with narration of each turn.
  Every reply is one compact JSON object (the structured content, and the same text as the one
  text part): the phase, the hand, the rows and each row's bull heads (``row_bull_heads``), the
  cards and bull heads each player has taken this round (``taken_this_round``) and in the last
  round scored (``last_round``), the totals and the narration
  (:func:`take5rules.agents.mcp_seat.report`).

Each tool has annotations: a title, and ``readOnlyHint``, ``destructiveHint``,
``idempotentHint`` and ``openWorldHint``: the rulebook, the referee, the validator and
``game_state`` only read (and are idempotent); the moves change a game; none destroys anything
and none reaches outside the server. The rulebook in each language of :mod:`take5rules.text` is
a resource, ``take5rules://rulebook/{lang}`` (Markdown), and ``explain_turn`` is a prompt: a turn
of a game of this server (``game_id``, ``turn``, ``language``) laid out for a model to explain,
with the rules that decided it. ``serverInfo`` carries the package's version.

Run it over stdio with ``take5rules mcp`` or ``python -m take5rules.agents.mcp_server`` (for an MCP
client's configuration), or build it in-process with :func:`build_server`. Install it with
``pip install take5rules[mcp]``.

Arguments are checked strictly against each tool's published schema: integers only (never
``8.0``, ``"8"`` or ``true``), no argument that the tool does not have (a misspelt ``language``
is refused, not ignored). A refused argument or a move the rules forbid comes back as a tool
error whose text names the argument or the rule broken, in the game's language; the game goes
on from where it was. A line the SDK cannot read gets a JSON-RPC error (see
:mod:`take5rules.agents.mcp_stdio`).

The server is the SDK's own low-level :class:`mcp.server.lowlevel.Server`: it answers
``initialize``, lists, errors and the protocol's versions. Its high-level ``MCPServer`` (once
``FastMCP``) is not used because it cannot keep the strictness above: it checks a tool's
arguments with a pydantic model in lax mode, which turns ``"8"`` and ``8.0`` into the card 8
and ``true`` into the card 1, and which drops an argument the tool does not have (a misspelt
``langauge``) without a word; before that, it parses an argument given as text holding JSON
(``"[1, 2]"``) into the value (SDK 2.3.0, ``mcp.server.mcpserver.utilities.func_metadata``).
Here each tool checks its own arguments (:class:`_Tool`) and refuses all of these, naming the
argument. The stdio transport is ours for the reasons given in
:mod:`take5rules.agents.mcp_stdio`.
"""

from __future__ import annotations

import io
import itertools
import json
import threading
from collections.abc import Callable, Iterator, Mapping
from dataclasses import dataclass
from typing import Any

try:
    import anyio
    import mcp_types as types
    from mcp.server.lowlevel import Server
    from mcp.shared.exceptions import MCPError
except ModuleNotFoundError as absent:  # a plain install: say which extra, in one line
    from take5rules.text.extras import missing_extra

    # anyio and mcp_types come with mcp: name the package the extra installs
    raise missing_extra(__name__, absent, "mcp", package="mcp") from None

from babel import Locale

from take5rules._messages import N_
from take5rules.agents import arguments as _arguments
from take5rules.agents.arguments import ARGUMENT, MAX_THRESHOLD, checked_threshold
from take5rules.agents.mcp_seat import (
    Session,
    report,
    seat_move,
    start_game,
    turn_prompt,
    turn_wanted,
)
from take5rules.agents.mcp_stdio import serve_stdio
from take5rules.agents.player_kinds import PLAYER_KINDS
from take5rules.conformance.referee import MAX_LINE_BYTES, answer_line
from take5rules.errors import MalformedInputError, ProtocolError, Take5Error
from take5rules.logs.format import MAX_LOG_BYTES
from take5rules.logs.report import Report
from take5rules.logs.validator import validate, validate_stream
from take5rules.text import (
    available_languages,
    default_language,
    error_message,
    explain,
    heading,
    phrase_text,
    rulebook,
    source_text,
)
from take5rules.variants import DEFAULT_THRESHOLD, Rules, Variant

__all__ = ["MAX_GAMES", "RULEBOOK_URI", "build_server", "main", "rulebook_markdown"]

#: Games kept at once; the oldest is forgotten beyond this.
MAX_GAMES = 64

#: The address of the rulebook in one language, a resource (RFC 6570 template).
RULEBOOK_URI = "take5rules://rulebook/{lang}"

#: The player kinds new_game offers: its description and its schema list these, in this order.
_KINDS = tuple(PLAYER_KINDS)

_RULEBOOK_TITLE = N_("The rules of Take 5")

#: The prompt that lays out a turn to explain, and its arguments: (description, required).
_EXPLAIN_TURN = "explain_turn"
_PROMPT_ARGUMENTS = {
    "game_id": ("The game_id of a reply of new_game", True),
    "turn": ('The turn: "2.3" for round 2, turn 3; "3" for turn 3 of the round under way; the '
             "last turn played when left out", False),
    "language": ("The language of the prompt: " + ", ".join(available_languages())
                 + "; the game's own when left out", False),
}

_INSTRUCTIONS = (
    "The rules of Take 5 / 6 nimmt! as a verified reference. Ask for a rule's explanation "
    "(list_rules, explain_rule) in " + ", ".join(available_languages()) + "; referee a turn "
    "with the JSON request "
    "of the referee line protocol (rows, plays, choices; rows are 0-based indices in data); "
    "validate a take5-log; or play a seat against the built-in players: new_game, then "
    "play_card, choose_row (when your card is lower than every row) or draft_card, as the "
    "'phase' of each reply asks. Each reply says each row's bull heads and what each player "
    "has taken this round. Resources: the rulebook in each language (take5rules://rulebook/"
    "{lang}). Prompt: explain_turn, a turn of your game laid out with the rules deciding it."
)

_REQUIRED = object()


@dataclass(frozen=True)
class _Param:
    """One argument of a tool: its JSON Schema, its check, its default."""

    schema: Mapping[str, Any]
    check: Callable[[str, object], object]
    default: object = _REQUIRED


def _integer(description: str, default: object = _REQUIRED, **bounds: int) -> _Param:
    schema = {"type": "integer", "description": description, **bounds}
    if default is not _REQUIRED:
        schema["default"] = default
    return _Param(schema, _arguments.whole_number, default)


def _text(description: str, default: object = _REQUIRED) -> _Param:
    schema: dict[str, Any] = {"type": "string", "description": description}
    if default is not _REQUIRED:
        schema["default"] = default
    return _Param(schema, _arguments.text, default)


def _language_param() -> _Param:
    return _Param({"type": "string", "default": "en", "description":
                   "The language of the reply: " + ", ".join(available_languages())},
                  _arguments.language, "en")


def _seed(name: str, value: object) -> int | None:
    return _arguments.seed(name, value)


def _opponents(name: str, value: object) -> list[str]:
    if not isinstance(value, list):
        raise MalformedInputError(
            ARGUMENT, N_("{name} = {value}: {name} must be a list of player kinds ({choices})"),
            name=name, value=_arguments.shown(value), choices=", ".join(_KINDS))
    return [_arguments.choice(name, kind, _KINDS) for kind in value]


def _object_or_text(name: str, value: object) -> object:
    if not isinstance(value, dict | str):
        raise MalformedInputError(
            ARGUMENT, N_("{name} = {value}: {name} must be a JSON object or its text"),
            name=name, value=_arguments.shown(value))
    return value


def _variant(name: str, value: object) -> Variant:
    return Variant(_arguments.choice(name, value, tuple(v.value for v in Variant)))


def _threshold(name: str, value: object) -> int:
    # The bound of `take5rules play` (one home: its module), then the rule's own check.
    return Rules(threshold=checked_threshold(_arguments.whole_number(name, value))).threshold


_GAME_ID = _text("The game_id of a reply of new_game")
_LANGUAGE = _language_param()


@dataclass(frozen=True)
class _Tool:
    description: str
    params: Mapping[str, _Param]
    run: Callable[..., dict[str, Any]]
    #: A title for people, and whether the tool only reads (the rulebook, the referee, the
    #: validator, a game's state) or moves a game on. No tool destroys anything or reaches
    #: outside the server; reading is idempotent, a move is not.
    title: str = ""
    read_only: bool = True

    def annotations(self) -> types.ToolAnnotations:
        """The MCP hints of the tool (readOnlyHint, destructiveHint, idempotentHint...)."""
        return types.ToolAnnotations(title=self.title, read_only_hint=self.read_only,
                                     destructive_hint=False, idempotent_hint=self.read_only,
                                     open_world_hint=False)

    def schema(self) -> dict[str, Any]:
        return {
            "type": "object",
            "properties": {name: dict(param.schema) for name, param in self.params.items()},
            "required": [name for name, p in self.params.items() if p.default is _REQUIRED],
            "additionalProperties": False,
        }

    def arguments(self, name: str, given: Mapping[str, Any]) -> dict[str, Any]:
        """The checked arguments of a call: each one given checked, the others defaulted."""
        for key in given:
            if key not in self.params:
                raise MalformedInputError(
                    ARGUMENT, N_("unknown argument {name} for {tool}; its arguments are "
                                 "{choices}"), name=_arguments.shown(key), tool=name,
                    choices=", ".join(self.params) or "-")
        checked: dict[str, Any] = {}
        for key, param in self.params.items():
            if key in given:
                checked[key] = param.check(key, given[key])
            elif param.default is _REQUIRED:
                raise MalformedInputError(
                    ARGUMENT, N_("argument {name} is missing; {tool} needs it"), name=key,
                    tool=name)
            else:
                checked[key] = param.default
        return checked


def _validated(log: object) -> Report:
    """The report on *log* (a JSON object or its text), read as the command line reads a file.

    The text goes through the stream reader of ``take5rules validate``: at most
    :data:`~take5rules.logs.format.MAX_LOG_BYTES`, one round in memory at a time.
    """
    try:
        text = log if isinstance(log, str) else json.dumps(log, ensure_ascii=False)
    except (RecursionError, ValueError):  # a value the JSON writer refuses: the validator's say
        return validate(log)
    return validate_stream(io.BytesIO(text.encode("utf-8", "surrogatepass")).read)


def _language_of(given: Mapping[str, Any]) -> str:
    """The language a call asks for, when it is a valid one; else English, for the errors."""
    try:
        return _arguments.language("language", given.get("language", "en"))
    except Take5Error:
        return "en"


def rulebook_markdown(language: str) -> str:
    """The whole rulebook in *language* as Markdown (the resource ``take5rules://rulebook/{lang}``).

    Each rule has its title and id, its statement, its explanation and its sources.

    >>> print(rulebook_markdown("fr").splitlines()[2])
    ## Le paquet (`cards.deck`)
    """
    lines = [f"# {phrase_text(_RULEBOOK_TITLE, language)}"]
    for item in rulebook(language):
        lines += ["", f"## {item.title} (`{item.rule_id}`)", "", item.statement, "",
                  item.explanation, "", heading("sources", language)]
        lines += [f"- {source_text(source, language)}" for source in item.sources]
    return "\n".join(lines) + "\n"


def _resource_language(uri: str) -> str | None:
    """The language of the rulebook at *uri*, or None when *uri* is no resource of ours."""
    prefix = RULEBOOK_URI.removesuffix("{lang}")
    language = uri.removeprefix(prefix) if uri.startswith(prefix) else None
    return language if language in available_languages() else None


def _language_name(language: str) -> str:
    """*language*'s own name for itself (français, български...)."""
    return str(Locale.parse(language).get_display_name(language))


def _refused(error: Take5Error, language: str = "en") -> MCPError:
    """*error* as the JSON-RPC error of a request whose parameters are wrong."""
    return MCPError(types.INVALID_PARAMS, error_message(error, language))


def build_server() -> Server[Any]:
    """The MCP server with its tools; each server keeps its own games."""
    games: dict[str, Session] = {}
    numbers: Iterator[int] = itertools.count(1)
    lock = threading.Lock()  # the tools run in worker threads, one at a time

    def session_of(game_id: str) -> Session:
        if game_id not in games:
            raise MalformedInputError(
                ARGUMENT, N_("no game {game}; start one with new_game"),
                game=_arguments.shown(game_id))
        return games[game_id]

    def list_rules(language: str) -> dict[str, Any]:
        return {"result": [
            {"rule": item.rule_id, "title": item.title, "statement": item.statement}
            for item in rulebook(language)
        ]}

    def explain_rule(rule_id: str, language: str) -> dict[str, Any]:
        item = explain(rule_id, language)
        return {
            "rule": item.rule_id,
            "language": item.language,
            "title": item.title,
            "statement": item.statement,
            "explanation": item.explanation,
            "sources": [str(source) for source in item.sources],
        }

    def referee_turn(request: object, language: str) -> dict[str, Any]:
        # The request goes through the line protocol itself, as the bytes of one line: the same
        # parser, the same MAX_LINE_BYTES limit, the same depth limit, the same replies.
        try:
            line = request if isinstance(request, str) else json.dumps(request,
                                                                       ensure_ascii=False)
        except (RecursionError, ValueError):
            raise ProtocolError(N_("the request is nested too deeply")) from None
        reply: dict[str, Any] = json.loads(
            answer_line(line.encode("utf-8", "surrogatepass"), language))
        return reply

    def validate_log(log: object, language: str) -> dict[str, Any]:
        try:
            return _validated(log).to_json(language)
        except Take5Error as error:
            return {"error": {"rule": error.rule, "message": error_message(error, language)}}

    def new_game(opponents: list[str], variant: Variant, threshold: int, seed: int | None,
                 name: str, language: str) -> dict[str, Any]:
        session = start_game(name, opponents, Rules(variant, threshold), seed, language)
        game_id = f"game-{next(numbers)}"  # only a game that could start is stored
        games[game_id] = session
        while len(games) > MAX_GAMES:
            del games[next(iter(games))]
        return report(game_id, session)

    def move(tool: str, game_id: str, value: int) -> dict[str, Any]:
        session = session_of(game_id)
        seat_move(session, tool, value)
        return report(game_id, session)

    def play_card(game_id: str, card: int) -> dict[str, Any]:
        return move("play_card", game_id, card)

    def choose_row(game_id: str, row: int) -> dict[str, Any]:
        return move("choose_row", game_id, row)

    def draft_card(game_id: str, card: int) -> dict[str, Any]:
        return move("draft_card", game_id, card)

    def game_state(game_id: str) -> dict[str, Any]:
        return report(game_id, session_of(game_id))

    tools: dict[str, _Tool] = {
        "list_rules": _Tool(
            "Every rule of Take 5, in rulebook order: its id, title and statement.",
            {"language": _LANGUAGE}, list_rules, "List the rules"),
        "explain_rule": _Tool(
            "One rule explained: title, statement, explanation with an example, and sources. "
            'Rule ids come from list_rules, e.g. "table.low-card".',
            {"rule_id": _text("A rule id, e.g. table.low-card"), "language": _LANGUAGE},
            explain_rule, "Explain a rule"),
        "referee_turn": _Tool(
            "Resolve one turn exactly as the referee line protocol does. The request is the "
            'protocol\'s JSON object (or its text): {"rows": [[...] x4], "plays": [["ana", 17], '
            '["bob", 2]], "choices": {"bob": 3}}, at most ' f"{MAX_LINE_BYTES} bytes as JSON "
            'text. The reply is the protocol\'s: {"rows", "taken", "chosen"}, or {"error": '
            '{"rule", "message"}}.',
            {"request": _Param({"type": ["object", "string"], "description":
                                "The referee request, as a JSON object or its text"},
                               _object_or_text),
             "language": _LANGUAGE},
            referee_turn, "Referee a turn"),
        "validate_log": _Tool(
            "Check a take5-log (the JSON object, or its text, at most "
            f"{MAX_LOG_BYTES} bytes) against every rule. The reply says whether it is valid "
            "and complete, the totals and winners, and each violation with its rule, place in "
            "the game, JSON path and message.",
            {"log": _Param({"type": ["object", "string"], "description":
                            "The take5-log, as a JSON object or its text"}, _object_or_text),
             "language": _LANGUAGE},
            validate_log, "Validate a game log"),
        "new_game": _Tool(
            "Start a game: your seat first, then the built-in opponents ("
            + ", ".join(_KINDS) + "), each seat named by its kind, a repeated kind "
            'numbered: ["cautious", "cautious"] seats "cautious" and "cautious#2", as '
            '`take5rules play` names them. The reply tells the phase: "card" (play_card), '
            '"row" (choose_row, for your low card), "draft" (draft_card, logic and tournament '
            f'variants) or "over". The server keeps the last {MAX_GAMES} games.',
            {
                "opponents": _Param(
                    {"type": "array", "items": {"type": "string", "enum": list(_KINDS)},
                     "default": ["cautious", "lowest", "random"],
                     "description": "The built-in players at the table after you"},
                    _opponents, ["cautious", "lowest", "random"]),
                "variant": _Param(
                    {"type": "string", "enum": [v.value for v in Variant],
                     "default": "standard", "description": "The variant"},
                    _variant, Variant.STANDARD),
                "threshold": _Param(
                    {"type": "integer", "minimum": 1, "maximum": MAX_THRESHOLD,
                     "default": DEFAULT_THRESHOLD,
                     "description": "The agreed end threshold, in bull heads"},
                    _threshold, DEFAULT_THRESHOLD),
                "seed": _Param({"type": ["integer", "null"], "minimum": 0, "default": None,
                                "description": "Fixes the deals (and the random players)"},
                               _seed, None),
                "name": _text("Your seat's name", "player"),
                "language": _LANGUAGE,
            },
            new_game, "Start a game", read_only=False),
        "play_card": _Tool(
            'Lay a card of your hand face down for this turn (phase "card").',
            {"game_id": _GAME_ID, "card": _integer("A card of your hand")},
            play_card, "Play a card", read_only=False),
        "choose_row": _Tool(
            'Take row 0 to 3 (0-based) with your low card (phase "row"); it starts that row.',
            {"game_id": _GAME_ID, "row": _Param(
                {"type": "integer", "minimum": 0, "maximum": 3,
                 "description": "The row to take, 0 to 3"}, _arguments.row_index)},
            choose_row, "Take a row", read_only=False),
        "draft_card": _Tool(
            'Take a face-up card from the pool (phase "draft", logic and tournament variants).',
            {"game_id": _GAME_ID, "card": _integer("A card of the pool")},
            draft_card, "Draft a card", read_only=False),
        "game_state": _Tool(
            "Your view of a game now, with the narration of anything not yet told.",
            {"game_id": _GAME_ID}, game_state, "See a game"),
    }

    def call(name: str, given: Mapping[str, Any]) -> types.CallToolResult:
        tool = tools[name]
        language = _language_of(given)
        try:
            with lock:
                arguments = tool.arguments(name, given)
                if "game_id" in arguments:
                    language = session_of(arguments["game_id"]).language
                data = tool.run(**arguments)
        except Take5Error as error:
            text = error_message(error, language)
            return types.CallToolResult(content=[types.TextContent(text=text)], is_error=True)
        text = json.dumps(data, ensure_ascii=False, separators=(",", ":"))  # compact: tokens
        return types.CallToolResult(content=[types.TextContent(text=text)],
                                    structured_content=data)

    async def on_list_tools(ctx: Any, params: Any) -> types.ListToolsResult:
        return types.ListToolsResult(tools=[
            types.Tool(name=name, title=tool.title, description=tool.description,
                       input_schema=tool.schema(), annotations=tool.annotations())
            for name, tool in tools.items()
        ])

    async def on_call_tool(ctx: Any, params: types.CallToolRequestParams) -> types.CallToolResult:
        if params.name not in tools:
            raise MCPError(types.INVALID_PARAMS, error_message(MalformedInputError(
                ARGUMENT, N_("no tool {name}; the tools are {choices}"),
                name=_arguments.shown(params.name), choices=", ".join(tools))))
        given = params.arguments or {}
        return await anyio.to_thread.run_sync(call, params.name, given)

    async def on_list_resources(ctx: Any, params: Any) -> types.ListResourcesResult:
        return types.ListResourcesResult(resources=[
            types.Resource(uri=RULEBOOK_URI.format(lang=language), name=f"rulebook-{language}",
                           title=f"{phrase_text(_RULEBOOK_TITLE, language)} "
                                 f"({_language_name(language)})",
                           description="The whole rulebook of Take 5 in "
                                       f"{_language_name(language)}: every rule's statement, "
                                       "explanation with an example, and sources.",
                           mime_type="text/markdown")
            for language in available_languages()
        ])

    async def on_list_resource_templates(ctx: Any,
                                         params: Any) -> types.ListResourceTemplatesResult:
        return types.ListResourceTemplatesResult(resource_templates=[types.ResourceTemplate(
            uri_template=RULEBOOK_URI, name="rulebook", title="The rules of Take 5",
            description="The whole rulebook in one language: " + ", ".join(
                available_languages()), mime_type="text/markdown")])

    async def on_read_resource(ctx: Any,
                               params: types.ReadResourceRequestParams) -> types.ReadResourceResult:
        language = _resource_language(params.uri)
        if language is None:
            raise _refused(MalformedInputError(
                ARGUMENT, N_("no resource {name}; the resources are {choices}"),
                name=_arguments.shown(params.uri), choices=", ".join(
                    RULEBOOK_URI.format(lang=language) for language in available_languages())))
        text = await anyio.to_thread.run_sync(rulebook_markdown, language)
        return types.ReadResourceResult(contents=[types.TextResourceContents(
            uri=params.uri, mime_type="text/markdown", text=text)])

    async def on_list_prompts(ctx: Any, params: Any) -> types.ListPromptsResult:
        return types.ListPromptsResult(prompts=[types.Prompt(
            name=_EXPLAIN_TURN, title="Explain a turn", description=(
                "A turn of a game played on this server, laid out for you to explain: the rows "
                "before it, what happened, and the statement of each rule that decided it."),
            arguments=[types.PromptArgument(name=name, description=description,
                                            required=required)
                       for name, (description, required) in _PROMPT_ARGUMENTS.items()])])

    def explain_turn(given: Mapping[str, str]) -> types.GetPromptResult:
        language = "en"
        try:
            for key in given:
                if key not in _PROMPT_ARGUMENTS:
                    raise MalformedInputError(
                        ARGUMENT, N_("unknown argument {name} for {tool}; its arguments are "
                                     "{choices}"), name=_arguments.shown(key),
                        tool=_EXPLAIN_TURN, choices=", ".join(_PROMPT_ARGUMENTS))
            if "game_id" not in given:
                raise MalformedInputError(
                    ARGUMENT, N_("argument {name} is missing; {tool} needs it"),
                    name="game_id", tool=_EXPLAIN_TURN)
            with lock:
                session = session_of(given["game_id"])
                language = session.language
                if "language" in given:
                    language = _arguments.language("language", given["language"])
                record = turn_wanted(session, given.get("turn"))
                text = turn_prompt(session, record, language)
        except Take5Error as error:
            raise _refused(error, language) from None
        return types.GetPromptResult(
            description=f"Explain turn {record.round}.{record.turn} of {given['game_id']}",
            messages=[types.PromptMessage(role="user", content=types.TextContent(text=text))])

    async def on_get_prompt(ctx: Any,
                            params: types.GetPromptRequestParams) -> types.GetPromptResult:
        if params.name != _EXPLAIN_TURN:
            raise _refused(MalformedInputError(
                ARGUMENT, N_("no prompt {name}; the prompts are {choices}"),
                name=_arguments.shown(params.name), choices=_EXPLAIN_TURN))
        return await anyio.to_thread.run_sync(explain_turn, params.arguments or {})

    return Server("take5rules", version=_version(), instructions=_INSTRUCTIONS,
                  on_list_tools=on_list_tools, on_call_tool=on_call_tool,
                  on_list_resources=on_list_resources,
                  on_list_resource_templates=on_list_resource_templates,
                  on_read_resource=on_read_resource, on_list_prompts=on_list_prompts,
                  on_get_prompt=on_get_prompt)


def _version() -> str:
    """take5rules's version (the package's ``__version__``), for the server's ``serverInfo``.

    Read at run time, as ``take5rules --version`` reads it: the string, not a layer's code.
    """
    import importlib

    return str(importlib.import_module("take5rules").__version__)


def main(language: str | None = None) -> None:
    """Serve over stdio; the JSON-RPC errors of unreadable lines are in *language*."""
    anyio.run(serve_stdio, build_server(), language or default_language())


if __name__ == "__main__":
    main()
