"""Fuzzing the MCP server: hostile tool calls through the SDK's client, hostile JSON-RPC lines.

The rule, as in the other fuzz files: every input gets a clear error naming the rule or the
argument, or a correct answer; never a traceback, a hang, a request left unanswered, or a change
to another game. Two ways in:

* the SDK's own client (``mcp.Client``), in-process and over stdio (``take5rules mcp``), with
  arguments of every wrong type, unknown arguments, and values past every limit;
* raw JSON-RPC lines, through :func:`take5rules.agents.mcp_stdio.serve_stdio` in-process and through
  the ``python -m take5rules.agents.mcp_server`` process: every request gets exactly one reply with
  its id (``null`` when the id itself cannot be read).

The issue-17 (section 5) and issue-18 (section 7) cases come first; then Hypothesis tries
``TAKE5_FUZZ_EXAMPLES`` random calls and lines (default 60).
"""

from __future__ import annotations

import asyncio
import io
import json
import os
import queue
import subprocess
import sys
import threading
from collections.abc import Awaitable, Callable
from typing import Any

import pytest

pytest.importorskip("mcp", reason="the MCP server needs the mcp SDK (take5rules[mcp])")

import anyio
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from mcp import Client, StdioServerParameters

from take5rules.agents.mcp_server import build_server
from take5rules.events import GameStarted
from take5rules.text import LANGUAGES, narrate
from take5rules.variants import Rules

EXAMPLES = int(os.environ.get("TAKE5_FUZZ_EXAMPLES", "60"))
FUZZ = settings(max_examples=EXAMPLES, deadline=None, database=None,
                suppress_health_check=list(HealthCheck))

Call = Callable[[str, dict[str, Any]], Awaitable[Any]]

INITIALIZE = json.dumps({"jsonrpc": "2.0", "id": "init", "method": "initialize", "params": {
    "protocolVersion": "2025-06-18", "capabilities": {},
    "clientInfo": {"name": "fuzz", "version": "1"}}}).encode()
INITIALIZED = b'{"jsonrpc": "2.0", "method": "notifications/initialized"}'

#: The founding texts' low card, and the referee's reply.
FOUNDING = {"rows": [[3, 12], [24], [58, 61, 70], [96]], "plays": [["ana", 17], ["bob", 2]],
            "choices": {"bob": 3}}


def _session(script: Callable[[Call], Awaitable[None]], server: Any = None) -> None:
    """Run *script* with a call function bound to a client of a fresh server (or *server*)."""

    async def main() -> None:
        async with Client(server if server is not None else build_server()) as client:

            async def call(name: str, arguments: dict[str, Any]) -> Any:
                return await client.call_tool(name, arguments)

            await script(call)

    asyncio.run(asyncio.wait_for(main(), timeout=300))


def _text(result: Any) -> str:
    return str(result.content[0].text)


def _refused(result: Any, *names: str) -> str:
    """The text of a refusal that names the rule or argument (each of *names*)."""
    assert result.is_error, result.structured_content
    text = _text(result)
    assert text.endswith("]") and "Error executing" not in text and "Traceback" not in text, text
    for name in names:
        assert name in text, (name, text)
    return text


def _data(result: Any) -> Any:
    assert not result.is_error, _text(result)
    return result.structured_content


def _call_line(number: int | str, name: str, arguments: Any) -> bytes:
    return json.dumps({"jsonrpc": "2.0", "id": number, "method": "tools/call",
                       "params": {"name": name, "arguments": arguments}}).encode()


def _raw(lines: list[bytes]) -> list[dict[str, Any]]:
    """The replies of an in-process server to *lines* (after the handshake), initialize's out."""
    from take5rules.agents.mcp_stdio import serve_stdio

    out = io.BytesIO()
    data = b"".join(line + b"\n" for line in [INITIALIZE, INITIALIZED, *lines])
    anyio.run(serve_stdio, build_server(), "en", io.BytesIO(data), out)
    replies = [json.loads(line) for line in out.getvalue().splitlines()]
    assert replies[0]["id"] == "init"
    return replies[1:]


# --- Issue 17, section 5: lines the SDK's transport left unanswered --------------------------

NESTED = b'{"jsonrpc": "2.0", "id": 11, "method": "tools/call", "params": {"name": ' \
         b'"referee_turn", "arguments": {"request": ' + b"[" * 200 + b"]" * 200 + b"}}}"
LONG_NUMBER = b'{"jsonrpc": "2.0", "id": 12, "method": "tools/call", "params": {"name": ' \
              b'"play_card", "arguments": {"game_id": "game-1", "card": ' + b"9" * 5000 + b"}}}"
SURROGATE = b'{"jsonrpc": "2.0", "id": 13, "method": "tools/call", "params": {"name": ' \
            b'"explain_rule", "arguments": {"rule_id": "\\ud800"}}}'

#: Lines that are no MCP message, each with the id its reply must carry.
UNREADABLE: list[tuple[bytes, int | str | None]] = [
    (NESTED, 11), (LONG_NUMBER, 12), (SURROGATE, 13),
    (b'{"jsonrpc": "2.0", "id": 14, "method": "ping", "params": ' + b"[" * 100_000 + b"}", 14),
    (b'{"jsonrpc": "2.0", "method": "tools/call", "id": "s", "params": {"name": "\\udfff"}}',
     "s"),
    (b'{"id": ' + b"9" * 5000 + b', "jsonrpc": "2.0", "method": "ping"}', None),
    (b'{"jsonrpc": "2.0", "id": "\\ud800", "method": "ping"}', None),
    (b"not json", None), (b"\xff\xfe{}", None), (b"[]", None), (b"null", None), (b"{}", None),
    (b'{"jsonrpc": "2.0", "id": 15}', 15), (b'{"jsonrpc": "1.0", "id": 16, "method": "ping"}', 16),
    (b'{"jsonrpc": "2.0", "id": 17, "method": 5}', 17), (b'{"jsonrpc": "2.0", "id": 1.5}', None),
    (b'{"jsonrpc": "2.0", "id": true, "method": "ping"}', None),
    (b'{"jsonrpc": "2.0", "id": 18, "method": "tools/call", "params": 5}', 18),
    (b'{"jsonrpc": "2.0", "id": 19, "method": "tools/call", "params": {"name": "nope"}}', 19),
    (b'{"jsonrpc": "2.0", "id": 20, "method": "tools/call", "params": {"name": 5}}', 20),
    (b'{"jsonrpc": "2.0", "id": 21, "method": "no/such/method"}', 21),
]


def test_every_unreadable_line_gets_an_error_for_its_id() -> None:
    replies = _raw([line for line, _ in UNREADABLE])
    assert len(replies) == len(UNREADABLE)
    ids = sorted(str(r["id"]) for r in replies)
    assert ids == sorted(str(expected) for _, expected in UNREADABLE)
    for reply in replies:
        assert "error" in reply, reply
        assert reply["error"]["message"] and "Traceback" not in reply["error"]["message"]
    by_id = {reply["id"]: reply["error"]["message"] for reply in replies}
    assert "nested too deeply" in by_id[11]
    assert "number too long" in by_id[12]
    assert "surrogate" in by_id[13]


def test_the_subprocess_answers_the_lines_of_issue_17() -> None:
    server = _Process([sys.executable, "-m", "take5rules.agents.mcp_server"])
    try:
        for line, expected in [(NESTED, 11), (LONG_NUMBER, 12), (SURROGATE, 13)]:
            reply = server.ask(line)
            assert reply["id"] == expected and reply["error"]["code"] == -32700
        # The server goes on: a good request after them is answered.
        good = server.ask(_call_line(30, "referee_turn", {"request": FOUNDING}))
        assert good["id"] == 30 and good["result"]["structuredContent"]["taken"] == {"bob": [96]}
    finally:
        server.close()


def test_a_line_over_the_message_limit_is_refused_and_skipped(
        monkeypatch: pytest.MonkeyPatch) -> None:
    from take5rules.agents import mcp_stdio as _mcp_stdio

    monkeypatch.setattr(_mcp_stdio, "MAX_MESSAGE_BYTES", 10_000)
    long = _call_line(40, "explain_rule", {"rule_id": "x" * 200_000})
    replies = _raw([long, _call_line(41, "explain_rule", {"rule_id": "table.low-card"})])
    by_id = {reply["id"]: reply for reply in replies}
    assert "longer than 10000 bytes" in by_id[40]["error"]["message"]
    assert by_id[41]["result"]["structuredContent"]["rule"] == "table.low-card"


class _Process:
    """A server process, spoken to one line at a time."""

    def __init__(self, command: list[str]) -> None:
        self.process = subprocess.Popen(command, stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                                        stderr=subprocess.PIPE)
        self.lines: queue.Queue[bytes] = queue.Queue()
        threading.Thread(target=self._read, daemon=True).start()
        assert self.ask(INITIALIZE)["id"] == "init"
        self.send(INITIALIZED)

    def _read(self) -> None:
        assert self.process.stdout is not None
        for line in self.process.stdout:
            self.lines.put(line)

    def send(self, line: bytes) -> None:
        assert self.process.stdin is not None
        self.process.stdin.write(line + b"\n")
        self.process.stdin.flush()

    def ask(self, line: bytes) -> dict[str, Any]:
        self.send(line)
        reply: dict[str, Any] = json.loads(self.lines.get(timeout=120))  # a hang fails
        return reply

    def close(self) -> None:
        assert self.process.stdin is not None and self.process.stderr is not None
        self.process.stdin.close()
        self.process.wait(timeout=120)
        errors = self.process.stderr.read().decode()
        assert "Traceback" not in errors, errors


# --- Issue 17, section 5: strict arguments, limits, the log rule, the threshold -------------


@pytest.mark.parametrize("card", [8.0, "8", True, None, [8], {"card": 8}])
def test_play_card_takes_integers_only(card: Any) -> None:
    async def script(call: Call) -> None:
        game = _data(await call("new_game", {"seed": 3}))
        _refused(await call("play_card", {"game_id": game["game_id"], "card": card}),
                 "card", "[argument]")
        after = _data(await call("game_state", {"game_id": game["game_id"]}))
        assert after["hand"] == game["hand"] and after["phase"] == "card"

    _session(script)


@pytest.mark.parametrize("threshold", [66.0, True, "66", None, [66]])
def test_new_game_takes_an_integer_threshold_only(threshold: Any) -> None:
    async def script(call: Call) -> None:
        _refused(await call("new_game", {"threshold": threshold}), "threshold")

    _session(script)


@pytest.mark.parametrize(("tool", "arguments"), [
    ("new_game", {"langage": "fr"}),
    ("list_rules", {"language": "fr", "lang": "fr"}),
    ("explain_rule", {"rule_id": "table.low-card", "extra": 1}),
    ("referee_turn", {"request": FOUNDING, "language": "en", "strict": False}),
])
def test_unknown_arguments_are_refused_not_ignored(tool: str, arguments: dict[str, Any]) -> None:
    async def script(call: Call) -> None:
        unknown = next(k for k in arguments if k not in ("language", "rule_id", "request"))
        _refused(await call(tool, arguments), unknown, "[argument]")

    _session(script)


def test_the_schemas_are_strict() -> None:
    async def main() -> list[Any]:
        async with Client(build_server()) as client:
            return list((await client.list_tools()).tools)

    for tool in asyncio.run(main()):
        schema = tool.input_schema
        assert schema["additionalProperties"] is False, tool.name
        for name, part in schema["properties"].items():
            assert part.get("type"), (tool.name, name)


def test_referee_turn_applies_the_line_protocols_limit() -> None:
    padded = dict(FOUNDING, padding="x" * 100_000)

    async def script(call: Call) -> None:
        for request in (padded, json.dumps(padded)):
            reply = _data(await call("referee_turn", {"request": request}))
            assert reply["error"]["rule"] == "protocol"
            assert "65536 bytes" in reply["error"]["message"]
        deep: Any = FOUNDING["rows"]
        for _ in range(150):
            deep = [deep]
        nested = _data(await call("referee_turn", {"request": {"rows": deep, "plays": []}}))
        assert nested["error"]["rule"] == "protocol"

    _session(script)


def test_validate_log_applies_the_file_cap() -> None:
    # One byte over 64 MiB of text: refused by the log reader's own cap, not validated.
    huge = '{"format": "take5-log"' + " " * (64 * 1024 * 1024) + "}"

    async def script(call: Call) -> None:
        reply = _data(await call("validate_log", {"log": huge}))
        assert reply["error"]["rule"] == "log"
        assert "67108864" in reply["error"]["message"]

    _session(script)


@pytest.mark.parametrize("log", ["[]", "null", "5", '"take5-log"', [], None, 5])
def test_validate_log_of_a_non_object_gives_the_log_rules_message(log: Any) -> None:
    async def script(call: Call) -> None:
        result = await call("validate_log", {"log": log})
        if isinstance(log, str):
            reply = _data(result)
            assert reply["error"]["rule"] == "log", reply
            assert "take5-log" in reply["error"]["message"]
            assert "validation error" not in reply["error"]["message"]
        else:
            _refused(result, "log", "[argument]")

    _session(script)


@pytest.mark.parametrize("threshold", [10**30, 10**25, 1001, 0, -5])
def test_new_game_bounds_the_threshold_and_stores_nothing(threshold: int) -> None:
    async def script(call: Call) -> None:
        _refused(await call("new_game", {"threshold": threshold}), "threshold")
        _refused(await call("game_state", {"game_id": "game-1"}), "game-1")
        kept = _data(await call("new_game", {"threshold": 1000, "seed": 1}))
        assert kept["game_id"] == "game-1"

    _session(script)


@pytest.mark.parametrize("language", LANGUAGES)
def test_large_numbers_narrate_in_every_language(language: str) -> None:
    text = narrate(GameStarted(Rules(threshold=10**30), ("ana", "bob")), language)
    digits = "".join(c for c in text if c.isdigit())
    assert "1" + "0" * 30 in digits


# --- Issue 18, section 7: the seat ------------------------------------------------------------


async def _play_to(call: Call, game: dict[str, Any], phase: str,
                   decide: Callable[[dict[str, Any]], tuple[str, dict[str, Any]]]
                   ) -> dict[str, Any]:
    report = game
    for _ in range(2_000):
        if report["phase"] == phase:
            return report
        name, arguments = decide(report)
        report = _data(await call(name, arguments))
    raise AssertionError(f"never reached phase {phase}")


def _lowest(report: dict[str, Any]) -> tuple[str, dict[str, Any]]:
    game = report["game_id"]
    if report["phase"] == "card":
        return "play_card", {"game_id": game, "card": min(report["hand"])}
    if report["phase"] == "row":
        return "choose_row", {"game_id": game, "row": 0}
    return "draft_card", {"game_id": game, "card": min(report["pool"])}


def test_at_a_low_card_the_seat_sees_the_revealed_cards_and_the_narration() -> None:
    async def script(call: Call) -> None:
        game = _data(await call("new_game", {"seed": 2, "threshold": 30}))
        report = await _play_to(call, game, "row", _lowest)
        low = report["low_card"]
        revealed = report["revealed"]
        # One card per player, the seat's own low card among them, lowest first.
        assert sorted(player for player, _ in revealed) == sorted(report["players"])
        assert [report["you"], low] in revealed
        assert [card for _, card in revealed] == sorted(card for _, card in revealed)
        assert low < min(row[-1] for row in report["rows"])
        told = " ".join(report["narration"])
        assert all(str(card) in told for _, card in revealed), told
        # Told once: after the row, the same reveal is not narrated again.
        after = _data(await call("choose_row", {"game_id": game["game_id"], "row": 0}))
        assert not any(line == report["narration"][-1] for line in after["narration"])

    _session(script)


def test_the_wrong_tool_and_a_move_after_the_end_get_honest_messages() -> None:
    async def script(call: Call) -> None:
        game = _data(await call("new_game", {"seed": 4, "threshold": 1}))
        wrong = _refused(await call("draft_card", {"game_id": game["game_id"], "card": 5}),
                         "play_card", "draft_card")
        assert "turn.reveal" not in wrong
        row = await _play_to(call, game, "row", _lowest)
        wrong = _refused(await call("play_card", {"game_id": game["game_id"],
                                                  "card": row["hand"][0]}),
                         "choose_row", str(row["low_card"]))
        over = await _play_to(call, row, "over", _lowest)
        assert over["winners"]
        lowest = min(over["totals"].values())
        assert over["winners"] == [p for p, t in over["totals"].items() if t == lowest]
        for name, arguments in [("play_card", {"card": 1}), ("choose_row", {"row": 0}),
                                ("draft_card", {"card": 1})]:
            text = _refused(await call(name, {"game_id": game["game_id"], **arguments}),
                            "game is over", "new_game")
            assert "turn 11" not in text and "waits for -" not in text

    _session(script)


def test_the_default_seat_name_reads_as_a_name() -> None:
    async def script(call: Call) -> None:
        game = _data(await call("new_game", {"seed": 1, "threshold": 10}))
        report = await _play_to(call, game, "over", _lowest)
        told = " ".join(game["narration"] + report["narration"])
        assert game["you"] == "player"
        for phrase in ("you holds", "you's", "you takes"):
            assert phrase not in told

    _session(script)


@pytest.mark.parametrize("variant", ["profi", "Logic", "", 5, None])
def test_an_unknown_variant_does_not_cite_the_tactics_rule(variant: Any) -> None:
    async def script(call: Call) -> None:
        text = _refused(await call("new_game", {"variant": variant}), "variant")
        assert "variants.tactics" not in text and "standard" in text

    _session(script)


def test_the_console_command_serves_mcp_over_stdio() -> None:
    parameters = StdioServerParameters(command=sys.executable,
                                       args=["-m", "take5rules", "mcp"])

    async def main() -> tuple[Any, Any]:
        async with Client(parameters) as client:
            good = await client.call_tool("referee_turn", {"request": FOUNDING})
            bad = await client.call_tool("play_card", {"game_id": "game-1", "card": 8.0})
            return good, bad

    good, bad = asyncio.run(asyncio.wait_for(main(), timeout=120))
    assert good.structured_content["taken"] == {"bob": [96]}
    _refused(bad, "card")


# --- Hypothesis: random calls, one game kept aside --------------------------------------------

json_values = st.recursive(
    st.none() | st.booleans() | st.integers(-(10**40), 10**40) | st.floats(allow_nan=False)
    | st.text(max_size=20),
    lambda inner: st.lists(inner, max_size=4) | st.dictionaries(st.text(max_size=8), inner,
                                                                 max_size=4),
    max_leaves=12,
)
TOOLS = ["list_rules", "explain_rule", "referee_turn", "validate_log", "new_game", "play_card",
         "choose_row", "draft_card", "game_state"]
NAMES = ["language", "rule_id", "request", "log", "opponents", "variant", "threshold", "seed",
         "name", "game_id", "card", "row", "langage"]
calls = st.tuples(
    st.sampled_from(TOOLS),
    st.dictionaries(st.sampled_from(NAMES),
                    json_values | st.sampled_from(["game-1", "game-2", "en", "fr", "standard"])
                    | st.integers(0, 110),
                    max_size=4),
)


@FUZZ
@given(st.lists(calls, min_size=1, max_size=12))
def test_random_calls_get_an_answer_or_a_named_error_and_leave_other_games_alone(
        sequence: list[tuple[str, dict[str, Any]]]) -> None:
    async def script(call: Call) -> None:
        aside = _data(await call("new_game", {"seed": 9}))  # game-1, never touched below
        before = _data(await call("game_state", {"game_id": "game-1"}))
        for name, arguments in sequence:
            if arguments.get("game_id") == "game-1":
                arguments = {**arguments, "game_id": "game-2"}
            result = await call(name, arguments)
            if result.is_error:
                _refused(result)
            else:
                assert isinstance(result.structured_content, dict)
        after = _data(await call("game_state", {"game_id": "game-1"}))
        assert {k: v for k, v in after.items() if k != "narration"} == \
               {k: v for k, v in before.items() if k != "narration"}
        assert aside["game_id"] == "game-1"

    _session(script)


raw_lines = st.one_of(
    st.binary(max_size=60),
    json_values.map(lambda value: json.dumps(value).encode()),
    st.tuples(st.integers(0, 10**6), st.sampled_from(TOOLS), json_values).map(
        lambda t: _call_line(*t)),
    st.tuples(st.integers(0, 10**6), st.sampled_from(TOOLS), json_values).map(
        lambda t: _call_line(*t)[:-3]),  # cut short
)


@FUZZ
@given(st.lists(raw_lines, min_size=1, max_size=8))
def test_random_lines_each_get_at_most_one_reply_and_requests_exactly_one(
        lines: list[bytes]) -> None:
    lines = [line.replace(b"\n", b" ") for line in lines]
    replies = _raw(lines)
    for reply in replies:
        assert "result" in reply or reply["error"]["message"], reply
    asked = [json.loads(line)["id"] for line in lines if line.startswith(b'{"jsonrpc": "2.0", "id"')
             and line.endswith(b"}}}")]
    answered = [reply["id"] for reply in replies]
    for number in asked:
        assert answered.count(number) >= 1, (number, replies)
    assert len(replies) <= len([line for line in lines if line.strip()])



def test_a_plain_install_is_told_which_extra_to_install() -> None:
    # Issue 18, section 5: without the SDK, the server and its command name the extra.
    blocked = "import sys; sys.modules['mcp'] = None; "
    for code in (blocked + "import take5rules.agents.mcp_server",
                 blocked + "sys.argv = ['take5rules', 'mcp']; "
                 "from take5rules.cli.main import main; "
                           "main()"):
        result = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                                timeout=120, check=False, env={**os.environ, "LANG": "C"})
        assert result.returncode in (1, 2)
        assert "pip install 'take5rules[mcp]'" in result.stderr.splitlines()[-1]


@pytest.mark.parametrize("row", [4, -1, 100])
def test_a_row_outside_0_to_3_is_an_argument_error_and_the_game_goes_on(row: int) -> None:
    async def script(call: Call) -> None:
        game = _data(await call("new_game", {"seed": 2, "threshold": 30}))
        report = await _play_to(call, game, "row", _lowest)
        result = await call("choose_row", {"game_id": game["game_id"], "row": row})
        assert result.is_error
        text = result.content[0].text
        assert text.endswith("[argument]"), text  # a bad argument: no rule of the game broken
        assert "table.low-card" not in text
        after = _data(await call("choose_row", {"game_id": game["game_id"], "row": 3}))
        assert after["phase"] != "row" or after["low_card"] != report["low_card"]

    _session(script)
