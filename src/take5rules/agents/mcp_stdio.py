r"""The MCP server's stdio transport: one JSON-RPC message a line, every request answered.

The server itself is the SDK's (:class:`mcp.server.lowlevel.Server`, see
:mod:`take5rules.agents.mcp_server`); only the transport is ours, because the SDK's
``mcp.server.stdio.stdio_server`` (SDK 2.3.0) cannot keep today's strictness:

* **An unreadable line is never answered.** Its reader passes a line that
  ``jsonrpc_message_adapter.validate_json`` refuses (not JSON, nested too deeply for its parser,
  a number too long, an escaped lone surrogate such as ``"\ud800"``, not a JSON-RPC message) to
  the server as an exception, without the request's id; the server's dispatcher
  (``JSONRPCDispatcher._dispatch``, with no ``on_stream_exception`` set by the low-level server)
  logs it at debug level and goes on. The client waits for ever. JSON-RPC 2.0 asks for an
  error reply: here it goes to the request's id, found by scanning the line's top level without
  parsing the rest, or to ``null`` when no id can be found.
* **An id that is neither a number nor a text** (``true``, ``1.5``, an object) makes the SDK
  take the request for a notification, which is never answered: here it gets an
  ``INVALID_REQUEST`` error.
* **Bytes that are not UTF-8 are changed, not refused**: it reads stdin through a text wrapper
  with ``errors="replace"``, so a card name or a log arrives with U+FFFD in it. Here such a line
  gets a parse error naming the byte.
* **A line has no length limit**: it reads whole lines (``async for line in stdin``), so one
  line of gigabytes is held in memory. Here lines longer than :data:`MAX_MESSAGE_BYTES` are
  refused, and the rest of such a line is skipped as it arrives: memory stays bounded.
* **Requests still running at the end of the input are cancelled**: at end of file the
  dispatcher cancels its in-flight handlers, so ``printf '...' | take5rules mcp`` gets no
  answer to a request that takes a moment. Here the end of the input waits up to
  :data:`DRAIN_SECONDS` for every request passed on to be answered.

>>> request_id('{"jsonrpc": "2.0", "params": {"id": 5, "x": [[[1]]]}, "id": 7, "method": "m"}')
7
>>> request_id('{"id": "a\\"b", "method": "m"}')
'a"b'
>>> print(request_id('[1, 2]'))
None
"""

from __future__ import annotations

import json
import re
import sys
from collections import Counter
from typing import IO, Any

import anyio
import mcp_types as types
from anyio.streams.memory import MemoryObjectReceiveStream, MemoryObjectSendStream
from mcp.server.lowlevel import Server
from mcp.shared.message import SessionMessage
from pydantic import ValidationError

from take5rules._messages import N_
from take5rules.conformance.referee import byte_lines
from take5rules.errors import ProtocolError
from take5rules.logs.format import MAX_LOG_BYTES
from take5rules.text import error_message

__all__ = ["MAX_MESSAGE_BYTES", "request_id", "serve_stdio"]

#: The longest message line read: room for a log of :data:`~take5rules.logs.format.MAX_LOG_BYTES`
#: sent as a JSON string (its quotes and backslashes escaped).
MAX_MESSAGE_BYTES = 2 * MAX_LOG_BYTES

#: How long the requests still running at the end of the input may take to be answered.
DRAIN_SECONDS = 60

_CHUNK = 1 << 16
# A JSON string, or one of the characters that matter at the top level of an object.
_TOKEN = re.compile(r'"(?:[^"\\]|\\.)*"|[\[\]{}:,]')
_LARGEST_ID = 2**63  # JSON-RPC ids are numbers a client can send back: keep them to 64 bits


def request_id(text: str) -> int | str | None:
    """The ``id`` member of the JSON object *text*, read at its top level only; else None.

    Only the id is read, so a line whose other members are nested too deeply, or hold a number
    too long for Python, still yields the id to answer.
    """
    return _id_member(text)[1]


def _id_member(text: str) -> tuple[bool, int | str | None]:
    """Whether the JSON object *text* has an ``id`` member at its top level, and its id value."""
    depth = 0
    key_next = False
    tokens = _TOKEN.finditer(text)
    for token in tokens:
        value = token.group()
        if value in "{[":
            depth += 1
            key_next = depth == 1 and value == "{"
        elif value in "}]":
            depth -= 1
        elif value == ",":
            key_next = depth == 1
        elif depth == 1 and key_next and value == '"id"':
            colon = next(tokens, None)
            if colon is None or colon.group() != ":":
                return False, None
            return True, _id_value(text, colon.end())
        else:
            key_next = False
    return False, None


def _id_value(text: str, start: int) -> int | str | None:
    """The JSON-RPC id that starts at *start* in *text*, if it is one (an integer or a text)."""
    match = re.compile(r'\s*(-?\d{1,19}(?![\d.eE])|"(?:[^"\\]|\\.)*")').match(text, start)
    if match is None:
        return None
    try:
        value = json.loads(match.group(1))
    except ValueError:
        return None
    if isinstance(value, int) and not -_LARGEST_ID <= value < _LARGEST_ID:
        return None
    if isinstance(value, str):
        try:
            value.encode("utf-8")
        except UnicodeEncodeError:  # a lone surrogate: not an id that can be sent back
            return None
    return value  # type: ignore[no-any-return]


def _sdk_reason(error: Exception) -> str | None:
    """The JSON parser's own reason when the SDK refused a line as JSON, else None."""
    if isinstance(error, ValidationError):
        for item in error.errors():
            if item["type"] == "json_invalid":
                return str((item.get("ctx") or {}).get("error", item["msg"]))
    return None


def _diagnosis(line: bytes, refusal: Exception) -> tuple[int, ProtocolError, int | str | None]:
    """Why the SDK could not read *line*: the JSON-RPC error code, the error, the request id."""
    try:
        text = line.decode("utf-8")
    except UnicodeDecodeError as error:
        return (types.PARSE_ERROR,
                ProtocolError(N_("the request is not UTF-8 text: byte {position} is invalid"),
                              position=error.start + 1),
                request_id(line.decode("utf-8", "replace")))
    found = request_id(text)
    try:
        value = json.loads(text)
    except json.JSONDecodeError as error:
        return (types.PARSE_ERROR,
                ProtocolError(N_("the request is not valid JSON: {reason}"), reason=error.msg),
                found)
    except RecursionError:
        return types.PARSE_ERROR, ProtocolError(N_("the request is nested too deeply")), found
    except ValueError:  # an integer over Python's digit limit
        return (types.PARSE_ERROR, ProtocolError(N_("the request holds a number too long to "
                                                    "read")), found)
    try:
        json.dumps(value, ensure_ascii=False).encode("utf-8")
    except UnicodeEncodeError:
        return (types.PARSE_ERROR,
                ProtocolError(N_("the request holds text that is not Unicode: an escaped lone "
                                 "surrogate such as \\ud800")), found)
    except (RecursionError, ValueError):  # nested or long beyond what the SDK's parser reads
        return types.PARSE_ERROR, ProtocolError(N_("the request is nested too deeply")), found
    reason = _sdk_reason(refusal)
    if reason is not None and "recursion" in reason:  # deeper than the SDK's parser goes
        return types.PARSE_ERROR, ProtocolError(N_("the request is nested too deeply")), found
    if reason is not None:
        return (types.PARSE_ERROR,
                ProtocolError(N_("the request is not valid JSON: {reason}"), reason=reason),
                found)
    return (types.INVALID_REQUEST,
            ProtocolError(N_("the request is not a JSON-RPC 2.0 message that MCP defines")),
            found)


def _reply(code: int, error: ProtocolError, found: int | str | None,
           language: str) -> SessionMessage:
    return SessionMessage(types.JSONRPCError(
        jsonrpc="2.0", id=found,
        error=types.ErrorData(code=code, message=error_message(error, language))))


def _too_long(prefix: bytes, language: str) -> SessionMessage:
    error = ProtocolError(N_("the request line is longer than {limit} bytes"),
                          limit=MAX_MESSAGE_BYTES)
    return _reply(types.INVALID_REQUEST, error,
                  request_id(prefix[:_CHUNK].decode("utf-8", "replace")), language)


def message(line: bytes, language: str = "en") -> tuple[SessionMessage, bool]:
    """The message of one line for the server, or the error reply to it: (message, is_reply)."""
    try:
        parsed = types.jsonrpc_message_adapter.validate_json(line, by_name=False)
    except Exception as refusal:
        code, error, found = _diagnosis(line, refusal)
        return _reply(code, error, found, language), True
    if isinstance(parsed, types.JSONRPCNotification) and b'"id"' in line and \
            _id_member(line.decode("utf-8", "replace"))[0]:
        # An id that is neither a number nor a text (true, 1.5, an object): the SDK would take
        # the request for a notification and never answer it.
        error = ProtocolError(N_("the request's id is neither a whole number nor a text"))
        return _reply(types.INVALID_REQUEST, error, None, language), True
    return SessionMessage(parsed), False


class _Unanswered:
    """The ids of the requests passed to the server and not answered yet."""

    def __init__(self) -> None:
        self.ids: Counter[int | str] = Counter()

    def asked(self, message: SessionMessage) -> None:
        if isinstance(message.message, types.JSONRPCRequest):
            self.ids[message.message.id] += 1

    def answered(self, message: SessionMessage) -> None:
        reply = message.message
        if isinstance(reply, types.JSONRPCResponse | types.JSONRPCError) and reply.id is not None:
            self.ids[reply.id] -= 1
            if self.ids[reply.id] <= 0:
                del self.ids[reply.id]

    async def drained(self) -> None:
        """Wait until every request is answered (or :data:`DRAIN_SECONDS` have passed)."""
        with anyio.move_on_after(DRAIN_SECONDS):
            while self.ids:
                await anyio.sleep(0.01)


async def _read(stdin: IO[bytes], to_server: MemoryObjectSendStream[SessionMessage | Exception],
                to_client: MemoryObjectSendStream[SessionMessage], language: str,
                unanswered: _Unanswered) -> None:
    """Read *stdin* line by line: messages to the server, error replies to the client.

    At the end of the input, the requests still running are answered before the server stops
    (a client may send its requests and close its end at once, as ``printf ... |`` does).
    """
    async def dispatch(line: bytes) -> None:
        if len(line) > MAX_MESSAGE_BYTES:  # cut by the line reader, the rest skipped
            await to_client.send(_too_long(line, language))
            return
        parsed, is_reply = message(line, language)
        if is_reply:
            await to_client.send(parsed)
        else:
            unanswered.asked(parsed)
            await to_server.send(parsed)

    # The referee's line reader, with this transport's limit: the same cutting and skipping.
    batches = byte_lines(stdin, MAX_MESSAGE_BYTES)
    async with to_server, to_client:
        while (batch := await anyio.to_thread.run_sync(next, batches, None)) is not None:
            for line in batch:
                await dispatch(line)
        await unanswered.drained()


async def _write(stdout: IO[bytes], replies: MemoryObjectReceiveStream[SessionMessage],
                 unanswered: _Unanswered) -> None:
    """Write each message the server (or the reader) sends, one line each, flushed."""
    sink = anyio.wrap_file(stdout)
    async with replies:
        async for reply in replies:
            text = reply.message.model_dump_json(by_alias=True, exclude_unset=True)
            await sink.write(text.encode("utf-8", "backslashreplace") + b"\n")
            await sink.flush()
            unanswered.answered(reply)


async def serve_stdio(server: Server[Any], language: str = "en",
                      stdin: IO[bytes] | None = None, stdout: IO[bytes] | None = None) -> None:
    """Serve *server* over *stdin* and *stdout* (the process's own by default)."""
    source = stdin if stdin is not None else sys.stdin.buffer
    sink = stdout if stdout is not None else sys.stdout.buffer
    to_server, from_client = anyio.create_memory_object_stream[SessionMessage | Exception](0)
    to_client, replies = anyio.create_memory_object_stream[SessionMessage](0)
    unanswered = _Unanswered()
    async with anyio.create_task_group() as group:
        group.start_soon(_read, source, to_server, to_client.clone(), language, unanswered)
        group.start_soon(_write, sink, replies, unanswered)
        async with to_client:
            await server.run(from_client, to_client, server.create_initialization_options())
