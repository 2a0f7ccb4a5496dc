"""The MCP server made for agents (issue 28, item 7), through the SDK's own client.

A whole game is played through an MCP session; every reply must say each row's bull heads and
what each player has taken this round (cards and bull heads), as one compact JSON object. The
tools list their annotations, the rulebook of each language is a resource, and "explain this
turn" is a prompt. The expected figures are worked out here, from the rulebook's own numbers
and from the engine's own game on the same seed, never from the server's code.
"""

from __future__ import annotations

import asyncio
import json
import re
import sys
from collections.abc import Awaitable, Callable
from itertools import pairwise
from typing import Any

import pytest

pytest.importorskip("mcp", reason="the MCP server needs the mcp SDK (take5rules[mcp])")

from mcp import Client, StdioServerParameters
from mcp.shared.exceptions import MCPError

import take5rules
from take5rules.agents.mcp_server import build_server
from take5rules.events import Event, GameOver, LowCardTaken, RowTaken, SixthCardTaken
from take5rules.playing.engine import play_game
from take5rules.playing.kinds import BUILTIN_PLAYERS
from take5rules.playing.players import CautiousPlayer, LowestCardPlayer, Player, cheapest_row
from take5rules.table import Table
from take5rules.text import narrate
from take5rules.variants import Rules

Script = Callable[[Client], Awaitable[None]]

#: The seed and threshold of the game played: several rounds, low cards and sixth cards.
SEED, THRESHOLD = 11, 66
OPPONENTS = ["cautious", "lowest", "cautious"]
#: The seats as `take5rules play` names them: a repeated kind numbered from 2.
SEATS = ["me", "cautious", "lowest", "cautious#2"]

#: The languages of the library (the five of the rulebook, Dutch and German).
LANGUAGES = ("en", "fr", "bg", "it", "eo", "de", "nl")

#: Whether each tool only reads or moves a game on; none destroys, none reaches outside.
READS = {"list_rules": True, "explain_rule": True, "referee_turn": True, "validate_log": True,
         "game_state": True, "new_game": False, "play_card": False, "choose_row": False,
         "draft_card": False}


def _heads(card: int) -> int:
    """The rulebook's bull heads: 55 has 7, other multiples of 11 have 5, multiples of 10 have
    3, other multiples of 5 have 2, every other card 1."""
    return 7 if card == 55 else 5 if card % 11 == 0 else 3 if card % 10 == 0 else (
        2 if card % 5 == 0 else 1)


def _run(script: Script, transport: str = "memory") -> None:
    """Run *script* with the SDK's client, in process or over stdio (``take5rules mcp``)."""
    server: Any = build_server() if transport == "memory" else StdioServerParameters(
        command=sys.executable, args=["-m", "take5rules", "mcp"])

    async def main() -> None:
        async with Client(server) as client:
            await script(client)

    # A broken server must fail the test, not hang it.
    asyncio.run(asyncio.wait_for(main(), timeout=120))


def _data(result: Any) -> dict[str, Any]:
    """A tool reply's JSON object, checked to be compact: one line, the same as its text."""
    assert not result.is_error, result.content
    data: dict[str, Any] = result.structured_content
    text = result.content[0].text
    assert "\n" not in text
    assert text == json.dumps(data, ensure_ascii=False, separators=(",", ":"))
    return data


def _decision(report: dict[str, Any]) -> tuple[str, dict[str, Any]]:
    """The seat played as LowestCardPlayer plays: lowest card, cheapest row, lowest draft."""
    game = report["game_id"]
    if report["phase"] == "card":
        return "play_card", {"game_id": game, "card": min(report["hand"])}
    if report["phase"] == "row":
        return "choose_row", {"game_id": game, "row": cheapest_row(Table.of(report["rows"]))}
    return "draft_card", {"game_id": game, "card": min(report["pool"])}


def _engine_game() -> list[Event]:
    """The same game played by the engine: the seat as LowestCardPlayer, the same seed."""
    seats: dict[str, Player] = {"me": LowestCardPlayer(), "cautious": CautiousPlayer(),
                                "lowest": LowestCardPlayer(), "cautious#2": CautiousPlayer()}
    return list(play_game(seats, Rules(threshold=THRESHOLD), seed=SEED))


def _takes_by_round(events: list[Event]) -> dict[int, dict[str, list[int]]]:
    """The cards each player took in each round, read from the taking events."""
    takes: dict[int, dict[str, list[int]]] = {}
    for event in events:
        if isinstance(event, RowTaken):
            takes.setdefault(event.round, {seat: [] for seat in SEATS})[event.player] += \
                list(event.taken)
    return takes


def _check_takes(data: dict[str, Any]) -> None:
    """Each row's bull heads, and each player's takes and their bull heads, add up."""
    assert data["row_bull_heads"] == [sum(map(_heads, row)) for row in data["rows"]]
    for taken in [data["taken_this_round"], *([data["last_round"]["taken"]]
                                              if "last_round" in data else [])]:
        assert list(taken) == data["players"]
        for pile in taken.values():
            assert pile["bull_heads"] == sum(map(_heads, pile["cards"]))


@pytest.mark.parametrize("transport", ["memory", pytest.param("stdio", marks=pytest.mark.slow)])
def test_an_mcp_session_plays_a_whole_game_and_each_reply_shows_heads_and_takes(
        transport: str) -> None:
    replies: list[dict[str, Any]] = []

    async def script(client: Client) -> None:
        report = _data(await client.call_tool("new_game", {
            "opponents": OPPONENTS, "threshold": THRESHOLD, "seed": SEED, "name": "me"}))
        replies.append(report)
        for _ in range(1_000):  # a game to 66 asks the seat far fewer decisions than this
            if report["phase"] == "over":
                break
            name, arguments = _decision(report)
            report = _data(await client.call_tool(name, arguments))
            replies.append(report)
        replies.append(_data(await client.call_tool("game_state", {"game_id": "game-1"})))

    _run(script, transport)

    events = _engine_game()
    takes = _takes_by_round(events)
    over = events[-1]
    assert isinstance(over, GameOver) and over.rounds >= 2  # a last round to report
    assert replies[-1]["phase"] == "over" and replies[-1]["totals"] == dict(over.totals)
    assert replies[0]["players"] == SEATS
    for data in replies:
        _check_takes(data)
    # Within a round the takes only grow, and each reply's takes were taken in that round.
    for before, after in pairwise(replies):
        if before["round"] == after["round"]:
            for seat in SEATS:
                grown = after["taken_this_round"][seat]["cards"]
                assert grown[:len(before["taken_this_round"][seat]["cards"])] == \
                    before["taken_this_round"][seat]["cards"]
    for data in replies:
        expected = takes.get(data["round"], {seat: [] for seat in SEATS})
        for seat in SEATS:
            assert set(data["taken_this_round"][seat]["cards"]) <= set(expected[seat])
    # The takes of a round show before it is scored, by the seat's and others' cards alike.
    assert any(data["taken_this_round"][seat]["cards"] for data in replies for seat in SEATS)
    # After each round is scored, the replies say what each player took in it, card for card.
    told = {data["last_round"]["round"]: data["last_round"]["taken"] for data in replies
            if "last_round" in data}
    assert sorted(told) == list(range(1, over.rounds + 1))
    for number, taken in told.items():
        assert {seat: pile["cards"] for seat, pile in taken.items()} == takes.get(
            number, {seat: [] for seat in SEATS})
    assert replies[-1]["taken_this_round"] == told[over.rounds]


def test_list_tools_shows_each_tools_title_and_annotations() -> None:
    listed: list[Any] = []

    async def script(client: Client) -> None:
        listed.extend((await client.list_tools()).tools)

    _run(script)
    assert {tool.name for tool in listed} == set(READS)
    for tool in listed:
        hints = tool.annotations.model_dump(by_alias=True, exclude_none=True)
        assert hints == {"title": tool.title, "readOnlyHint": READS[tool.name],
                         "destructiveHint": False, "idempotentHint": READS[tool.name],
                         "openWorldHint": False}, tool.name
        assert tool.title


def test_new_games_description_lists_the_kinds_of_its_schema() -> None:
    listed: list[Any] = []

    async def script(client: Client) -> None:
        listed.extend((await client.list_tools()).tools)

    _run(script)
    new_game = next(tool for tool in listed if tool.name == "new_game")
    enum = new_game.input_schema["properties"]["opponents"]["items"]["enum"]
    assert enum == [*BUILTIN_PLAYERS, "policy"]  # the learned policy too (agents.player_kinds)
    assert {"cautious", "lowest", "random", "best"} <= set(enum)
    described = re.search(r"built-in opponents \(([^)]*)\)", new_game.description)
    assert described is not None, new_game.description
    assert described.group(1).split(", ") == enum


def test_the_server_info_carries_the_package_version() -> None:
    info: list[Any] = []

    async def script(client: Client) -> None:
        info.append(client.server_info)

    _run(script)
    assert info[0].name == "take5rules" and info[0].version == take5rules.__version__


def test_the_rulebook_of_each_language_is_a_resource() -> None:
    found: dict[str, Any] = {}

    async def script(client: Client) -> None:
        found["resources"] = (await client.list_resources()).resources
        found["templates"] = (await client.list_resource_templates()).resource_templates
        found["fr"] = (await client.read_resource("take5rules://rulebook/fr")).contents
        found["eo"] = (await client.read_resource("take5rules://rulebook/eo")).contents
        for uri in ("take5rules://rulebook/xx", "take5rules://rulebook/", "file:///etc/passwd"):
            with pytest.raises(MCPError) as refused:
                await client.read_resource(uri)
            assert uri in str(refused.value) and "take5rules://rulebook/fr" in str(refused.value)

    _run(script)
    assert [resource.uri for resource in found["resources"]] == [
        f"take5rules://rulebook/{language}" for language in LANGUAGES]
    assert all(resource.mime_type == "text/markdown" for resource in found["resources"])
    assert "français" in found["resources"][1].title
    assert [t.uri_template for t in found["templates"]] == ["take5rules://rulebook/{lang}"]
    (french,) = found["fr"]
    assert french.uri == "take5rules://rulebook/fr" and french.mime_type == "text/markdown"
    # Every rule, by its French title and id, with its statement: 20 rules in the rulebook.
    assert "## La carte basse (`table.low-card`)" in french.text
    assert "## La sixième carte (`table.sixth-card`)" in french.text
    assert "le joueur qui l'a jouée ramasse la rangée de son choix" in french.text
    assert french.text.count("\n## ") == 20
    assert "## La malalta karto (`table.low-card`)" in found["eo"][0].text


def _turns_with(events: list[Event], kind: type[RowTaken]) -> list[tuple[int, int]]:
    return [(event.round, event.turn) for event in events if isinstance(event, kind)]


def test_explain_this_turn_is_a_prompt_with_the_turns_rules() -> None:
    events = _engine_game()
    sixth = _turns_with(events, SixthCardTaken)[0]
    low = _turns_with(events, LowCardTaken)[0]
    quiet = next((1, turn) for turn in range(1, 11)
                 if (1, turn) not in _turns_with(events, RowTaken))
    prompts: dict[str, Any] = {}

    async def script(client: Client) -> None:
        prompts["list"] = (await client.list_prompts()).prompts
        game = _data(await client.call_tool("new_game", {
            "opponents": OPPONENTS, "threshold": THRESHOLD, "seed": SEED, "name": "me"}))
        with pytest.raises(MCPError, match="no turn"):
            await client.get_prompt("explain_turn", {"game_id": "game-1"})
        report = game
        while report["round"] == 1 and report["phase"] != "over":
            name, arguments = _decision(report)
            report = _data(await client.call_tool(name, arguments))
        for key, (round_, turn) in (("sixth", sixth), ("low", low), ("quiet", quiet)):
            prompts[key] = await client.get_prompt("explain_turn", {
                "game_id": "game-1", "turn": f"{round_}.{turn}", "language": "fr"})
        prompts["last"] = await client.get_prompt("explain_turn", {"game_id": "game-1"})
        for arguments, named in (({"game_id": "game-1", "turn": "1.11"}, "1.11"),
                                 ({"game_id": "game-1", "turn": "one"}, "turn"),
                                 ({"game_id": "game-1", "lang": "fr"}, "lang"),
                                 ({"game_id": "game-9"}, "game-9"),
                                 ({"turn": "1.1"}, "game_id")):
            with pytest.raises(MCPError) as refused:
                await client.get_prompt("explain_turn", arguments)
            assert named in str(refused.value)
        with pytest.raises(MCPError, match="explain_turn"):
            await client.get_prompt("explain_everything", {"game_id": "game-1"})

    _run(script)
    (prompt,) = prompts["list"]
    assert prompt.name == "explain_turn"
    assert [(a.name, a.required) for a in prompt.arguments] == [
        ("game_id", True), ("turn", False), ("language", False)]
    assert sixth[0] == 1 and low[0] == 1  # both happen in the first round of this game
    texts = {key: prompts[key].messages[0].content.text for key in ("sixth", "low", "quiet")}
    assert all(prompts[key].messages[0].role == "user" for key in texts)
    for key, (round_, turn) in (("sixth", sixth), ("low", low), ("quiet", quiet)):
        # The engine's events of that turn, told in French, and the rules every turn applies.
        told = [narrate(event, "fr") for event in events
                if getattr(event, "round", None) == round_ and getattr(event, "turn", None) == turn]
        assert len(told) == 1 + len(SEATS)  # the cards revealed, then each card placed
        assert "\n".join(told) in texts[key]
        assert "table.least-difference — Plus petit écart" in texts[key]
        assert "turn.order" in texts[key]
    assert "table.sixth-card — La sixième carte" in texts["sixth"]
    assert "table.low-card — La carte basse" in texts["low"]
    assert "table.sixth-card" not in texts["quiet"] and "table.low-card" not in texts["quiet"]
    # Left out, the turn is the last one played; the language, the game's own (English).
    assert "the cards are revealed" in prompts["last"].messages[0].content.text


@pytest.mark.parametrize("turn", ["1.", ".1", "1.1.1", "9" * 50, "\ud800", "", "-1", "1e3",
                                  "\N{ARABIC-INDIC DIGIT ONE}", "x" * 1_000_000, "0.0", "2.1"])
def test_a_hostile_turn_is_refused_naming_the_argument_and_the_game_goes_on(turn: str) -> None:
    async def script(client: Client) -> None:
        report = _data(await client.call_tool("new_game", {"seed": 1, "name": "me"}))
        report = _data(await client.call_tool("play_card", {"game_id": "game-1",
                                                            "card": min(report["hand"])}))
        with pytest.raises(MCPError) as refused:
            await client.get_prompt("explain_turn", {"game_id": "game-1", "turn": turn})
        message = str(refused.value)
        assert message.startswith("turn = ") and "[argument]" in message
        assert len(message) < 400  # a long value is cut in the message, not echoed whole
        # The game and its turns are as they were: turn 1.1 is still explained.
        again = _data(await client.call_tool("game_state", {"game_id": "game-1"}))
        assert again["hand"] == report["hand"]
        kept: Any = await client.get_prompt("explain_turn", {"game_id": "game-1", "turn": "1.1"})
        assert "Turn 1: the cards are revealed" in kept.messages[0].content.text

    _run(script)
