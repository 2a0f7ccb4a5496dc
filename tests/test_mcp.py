"""The MCP server, driven by the SDK's own client (in-process session)."""

from __future__ import annotations

import asyncio
import json
import sys
from collections.abc import Awaitable, Callable
from typing import Any

import pytest

pytest.importorskip("mcp", reason="the MCP server needs the mcp SDK (take5rules[mcp])")

from mcp import Client, StdioServerParameters

from take5rules.agents.mcp_server import build_server
from take5rules.events import GameOver
from take5rules.logs.writer import log_from_events
from take5rules.playing.engine import play_game
from take5rules.playing.players import (
    CautiousPlayer,
    LowestCardPlayer,
    Player,
    RandomPlayer,
    cheapest_row,
)
from take5rules.table import Table
from take5rules.variants import Rules, Variant

Call = Callable[[str, dict[str, Any]], Awaitable[Any]]


def _session(script: Callable[[Call], Awaitable[None]]) -> None:
    """Run *script* with a call function bound to a fresh server's client."""

    async def main() -> None:
        async with Client(build_server()) as client:

            async def call(name: str, arguments: dict[str, Any]) -> Any:
                return await client.call_tool(name, arguments)

            await script(call)

    # A broken server must fail the test, not hang it: a whole game takes well under a second.
    asyncio.run(asyncio.wait_for(main(), timeout=120))


def _data(result: Any) -> Any:
    assert not result.is_error, result.content
    return result.structured_content


def test_the_client_lists_every_tool() -> None:
    async def main() -> list[str]:
        async with Client(build_server()) as client:
            return [tool.name for tool in (await client.list_tools()).tools]

    names = asyncio.run(main())
    assert set(names) == {
        "list_rules", "explain_rule", "referee_turn", "validate_log", "new_game", "play_card",
        "choose_row", "draft_card", "game_state",
    }


@pytest.mark.parametrize(
    ("language", "title"),
    [
        ("en", "The low card"),
        ("fr", "La carte basse"),
        ("bg", "Ниската карта"),
        ("it", "La carta bassa"),
        ("eo", "La malalta karto"),
    ],
)
def test_explain_rule_in_five_languages(language: str, title: str) -> None:
    async def script(call: Call) -> None:
        data = _data(await call("explain_rule", {"rule_id": "table.low-card",
                                                 "language": language}))
        assert data["title"] == title
        assert data["language"] == language
        assert "12" in data["explanation"] and "96" in data["explanation"]
        assert data["sources"]

    _session(script)


def test_unknown_rule_is_a_tool_error_naming_the_registry() -> None:
    async def script(call: Call) -> None:
        result = await call("explain_rule", {"rule_id": "table.seventh-card"})
        assert result.is_error
        assert "table.seventh-card" in result.content[0].text
        assert "[registry]" in result.content[0].text
        rules = _data(await call("list_rules", {"language": "eo"}))["result"]
        assert [r["rule"] for r in rules][:2] == ["cards.deck", "cards.bull-heads"]

    _session(script)


FOUNDING = {
    "rows": [[3, 12], [24], [58, 61, 70], [96]],
    "plays": [["ana", 17], ["bob", 2]],
    "choices": {"bob": 3},
}


def test_referee_turn_answers_as_the_line_protocol() -> None:
    async def script(call: Call) -> None:
        # The founding texts' low card: 2 takes the row of 96; 17 goes after 12.
        expected = {
            "rows": [[3, 12, 17], [24], [58, 61, 70], [2]],
            "taken": {"bob": [96]},
            "chosen": {"bob": 3},
        }
        assert _data(await call("referee_turn", {"request": FOUNDING})) == expected
        as_text = {"request": json.dumps(FOUNDING)}
        assert _data(await call("referee_turn", as_text)) == expected
        no_choice = {"rows": FOUNDING["rows"], "plays": FOUNDING["plays"]}
        reply = _data(await call("referee_turn", {"request": no_choice, "language": "fr"}))
        assert reply["error"]["rule"] == "table.low-card"
        assert "règle" in reply["error"]["message"]
        broken = _data(await call("referee_turn", {"request": "{not json"}))
        assert broken["error"]["rule"] == "protocol"

    _session(script)


def test_validate_log_reports_valid_logs_and_violations() -> None:
    seats: dict[str, Player] = {"ana": CautiousPlayer(), "bob": LowestCardPlayer()}
    log = log_from_events(play_game(seats, seed=5))

    async def script(call: Call) -> None:
        report = _data(await call("validate_log", {"log": log}))
        assert report["valid"] and report["complete"]
        tampered = json.loads(json.dumps(log))
        # Turn 2: the log claims bob's 15 went after the 7 (gap 8) rather than the 14 (gap 1).
        after = tampered["rounds"][0]["turns"][1]["rows_after"]
        assert after == [[14, 15], [74], [87, 89], [2, 4, 7]]
        tampered["rounds"][0]["turns"][1]["rows_after"] = [[14], [74], [87, 89], [2, 4, 7, 15]]
        bad = _data(await call("validate_log", {"log": json.dumps(tampered), "language": "it"}))
        assert not bad["valid"]
        first = bad["violations"][0]
        assert first["rule"] == "table.least-difference"
        assert first["where"]["round"] == 1 and first["where"]["turn"] == 2
        assert "regola" in first["message"]
        not_a_log = _data(await call("validate_log", {"log": "{"}))
        assert not_a_log["error"]["rule"] == "log"

    _session(script)


def _seat_decision(report: dict[str, Any]) -> tuple[str, dict[str, Any]]:
    """Play the seat as LowestCardPlayer does: lowest card, cheapest row, lowest draft."""
    game = report["game_id"]
    if report["phase"] == "card":
        return "play_card", {"game_id": game, "card": min(report["hand"])}
    if report["phase"] == "row":
        row = cheapest_row(Table.of(report["rows"]))
        return "choose_row", {"game_id": game, "row": row}
    return "draft_card", {"game_id": game, "card": min(report["pool"])}


@pytest.mark.parametrize(("variant", "seed"), [("standard", 2), ("logic", 4), ("tactics", 6)])
def test_a_seat_plays_the_engines_game(variant: str, seed: int) -> None:
    reports: list[dict[str, Any]] = []

    async def script(call: Call) -> None:
        report = _data(await call("new_game", {
            "opponents": ["cautious", "lowest", "random"], "variant": variant,
            "threshold": 40, "seed": seed, "name": "me",
        }))
        reports.append(report)
        for _ in range(2_000):  # a game to 40 asks the seat far fewer decisions than this
            if report["phase"] == "over":
                break
            name, arguments = _seat_decision(report)
            report = _data(await call(name, arguments))
            reports.append(report)
        assert report["phase"] == "over", "the game did not end"

    _session(script)

    seats: dict[str, Player] = {
        "me": LowestCardPlayer(), "cautious": CautiousPlayer(), "lowest": LowestCardPlayer(),
        "random": RandomPlayer(seed + 3),
    }
    events = list(play_game(seats, Rules(Variant.parse(variant), 40), seed=seed))
    final = reports[-1]
    assert isinstance(events[-1], GameOver)
    assert final["totals"] == dict(events[-1].totals)
    lowest = min(final["totals"].values())
    assert final["winners"] == [p for p, t in final["totals"].items() if t == lowest]
    # The seat never learns the other hands from the narration of a deal.
    told = "\n".join(line for report in reports for line in report["narration"])
    assert "me holds" in told or variant != "standard"
    assert final["players"] == ["me", "cautious", "lowest", "random"]
    assert "cautious holds" not in told and "random holds" not in told


def test_the_seats_are_named_as_play_and_the_gymnasium_env_name_them() -> None:
    # Issue 27: MCP named its seats cautious_1, cautious_2 where `play` says cautious#2.
    async def script(call: Call) -> None:
        report = _data(await call("new_game", {
            "opponents": ["cautious", "random", "cautious", "cautious"], "seed": 1,
            "name": "cautious"}))
        assert report["you"] == "cautious"
        # The seat took "cautious", so the first cautious opponent is the second of its kind.
        assert report["players"] == ["cautious", "cautious#2", "random", "cautious#3",
                                     "cautious#4"]
        plain = _data(await call("new_game", {"opponents": ["lowest", "lowest"], "seed": 1}))
        assert plain["players"] == ["player", "lowest", "lowest#2"]

    _session(script)


def test_illegal_moves_are_refused_and_the_game_goes_on() -> None:
    async def script(call: Call) -> None:
        report = _data(await call("new_game", {"seed": 3, "language": "it"}))
        assert report["narration"][0].startswith("Inizia una partita")
        absent = next(c for c in range(1, 105) if c not in report["hand"])
        refused = await call("play_card", {"game_id": report["game_id"], "card": absent})
        assert refused.is_error and "turn.reveal" in refused.content[0].text
        assert "non è nella mano" in refused.content[0].text
        wrong_phase = await call("choose_row", {"game_id": report["game_id"], "row": 0})
        # An honest answer: which tool the game waits for (issue 18: not "turn.reveal").
        text = wrong_phase.content[0].text
        assert wrong_phase.is_error and "turn.reveal" not in text
        assert "play_card" in text and "choose_row" in text
        again = _data(await call("game_state", {"game_id": report["game_id"]}))
        assert again["hand"] == report["hand"] and again["phase"] == "card"
        missing = await call("game_state", {"game_id": "game-99"})
        assert missing.is_error and "game-99" in missing.content[0].text
        unknown = await call("new_game", {"opponents": ["genius"]})
        assert unknown.is_error and "opponents" in unknown.content[0].text
        assert "cautious" in unknown.content[0].text

    _session(script)


def test_stdio_server_answers_the_client() -> None:
    parameters = StdioServerParameters(
        command=sys.executable, args=["-m", "take5rules.agents.mcp_server"]
    )

    async def main() -> Any:
        async with Client(parameters) as client:
            return await client.call_tool("referee_turn", {"request": FOUNDING})

    result = asyncio.run(main())
    assert not result.is_error
    assert result.structured_content["taken"] == {"bob": [96]}


# --- issue 27: what every reply and every tool says ------------------------------------------

#: Whether each tool only reads (the rulebook, the referee, the validator, a game's state) or
#: moves a game on; none destroys anything or reaches outside the server.
READS = {"list_rules": True, "explain_rule": True, "referee_turn": True, "validate_log": True,
         "game_state": True, "new_game": False, "play_card": False, "choose_row": False,
         "draft_card": False}


def _heads(card: int) -> int:
    """The rulebook's bull heads: 55 has 7, other multiples of 11 have 5, multiples of 10 have
    3, other multiples of 5 have 2, every other card 1."""
    return 7 if card == 55 else 5 if card % 11 == 0 else 3 if card % 10 == 0 else (
        2 if card % 5 == 0 else 1)


def test_every_tool_has_a_title_and_honest_annotations() -> None:
    async def main() -> list[Any]:
        async with Client(build_server()) as client:
            return list((await client.list_tools()).tools)

    tools = asyncio.run(main())
    assert {tool.name for tool in tools} == set(READS)
    for tool in tools:
        hints = tool.annotations
        assert hints is not None, tool.name
        assert tool.title and hints.title == tool.title
        assert hints.read_only_hint is READS[tool.name], tool.name
        assert hints.idempotent_hint is READS[tool.name], tool.name
        assert hints.destructive_hint is False and hints.open_world_hint is False
        dumped = hints.model_dump(by_alias=True, exclude_none=True)
        assert {"readOnlyHint", "destructiveHint", "idempotentHint", "openWorldHint",
                "title"} <= dumped.keys()
    new_game = next(tool for tool in tools if tool.name == "new_game")
    kinds = new_game.input_schema["properties"]["opponents"]["items"]["enum"]
    assert len(kinds) >= 7
    assert all(kind in new_game.description for kind in kinds)


def test_the_server_says_its_version() -> None:
    import take5rules

    async def main() -> Any:
        async with Client(build_server()) as client:
            return client.server_info

    info = asyncio.run(main())
    assert info.name == "take5rules"
    assert info.version == take5rules.__version__


def test_every_game_reply_is_compact_with_the_rows_bull_heads_and_the_takes() -> None:
    async def script(call: Call) -> None:
        result = await call("new_game", {"seed": 3, "threshold": 20})
        replies = [result]
        game = result.structured_content["game_id"]
        for _ in range(40):
            report = result.structured_content
            if report["phase"] == "over":
                break
            if report["phase"] == "row":
                result = await call("choose_row", {"game_id": game, "row": 0})
            else:
                result = await call("play_card", {"game_id": game,
                                                  "card": min(report["hand"])})
            replies.append(result)
        replies.append(await call("game_state", {"game_id": game}))
        for reply in replies:
            data = _data(reply)
            text = reply.content[0].text
            assert "\n" not in text and text == json.dumps(data, ensure_ascii=False,
                                                           separators=(",", ":"))
            assert data["row_bull_heads"] == [sum(map(_heads, row)) for row in data["rows"]]
            assert set(data["taken_this_round"]) == set(data["players"])
            for pile in data["taken_this_round"].values():
                assert pile["bull_heads"] == sum(map(_heads, pile["cards"]))
        # the takes of the round show before the round is scored
        assert any(any(pile["cards"] for pile in data["taken_this_round"].values()) for data in
                   (reply.structured_content for reply in replies))

    _session(script)
