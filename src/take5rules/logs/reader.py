r"""Reading take5-logs safely and fast: JSON text parsed with every failure a :class:`LogError`.

:class:`LogStream` reads a log incrementally from a binary file: the members before
``rounds`` are parsed and checked first, then each element of the ``rounds`` array is parsed,
checked (by :mod:`take5rules.logs.structure`) and handed over one at a time (a bounded
incremental parse of the array with :meth:`json.JSONDecoder.raw_decode`), then the members
after it. Memory is one round plus one read buffer, whatever the size of the file, as long as
the log names its format, version, variant, threshold and players before its rounds (as
:func:`take5rules.logs.format.dumps` writes it); otherwise the rounds are kept until those members
are
read. At most :data:`MAX_LOG_BYTES` are read.
"""

from __future__ import annotations

import codecs
import json
import re
from collections.abc import Callable, Iterator
from typing import Any

from take5rules._messages import N_, json_problem
from take5rules.errors import LogError
from take5rules.logs.structure import HEADER, check_identity, check_required, check_round, check_top

__all__ = [
    "MAX_LOG_BYTES",
    "LogStream",
    "decode_utf8",
    "parse_json",
    "read_capped",
]

#: The largest log read, in bytes (64 MiB: some 300,000 turns of four players).
MAX_LOG_BYTES = 64 * 1024 * 1024
_CHUNK = 1 << 16
#: What may follow the digits of a number read so far, up to the end of what was read.
_NUMBER_TAIL = re.compile(r"\.[0-9]*|[0-9.]*[eE][-+]?[0-9]*")
#: The incremental UTF-8 decoder's class.
_UTF8 = codecs.getincrementaldecoder("utf-8")
#: The JSON decoder's ``raw_decode`` (it keeps no state between calls).
_RAW_DECODE = json.JSONDecoder().raw_decode


class _NotPlainError(Exception):
    """Raised by :data:`_PLAIN_DECODE` at a number with a fraction or exponent, or NaN."""


def _not_plain(_text: str) -> object:
    raise _NotPlainError


#: ``raw_decode`` refusing every value that is not a whole number among numbers (3.0, 1e2,
#: NaN, Infinity): while a stream reads only whole numbers, it is read with this one.
_PLAIN_DECODE = json.JSONDecoder(parse_float=_not_plain, parse_constant=_not_plain).raw_decode


class _Object(list[tuple[str, Any]]):
    """An object's members as :data:`_MEMBERS_DECODE` reads them, in order."""


#: ``raw_decode`` giving each object's members as an :class:`_Object` (plain numbers only).
_MEMBERS_DECODE = json.JSONDecoder(
    object_pairs_hook=_Object, parse_float=_not_plain, parse_constant=_not_plain).raw_decode
#: The types of the values inside a member read at once: no list, no object.
_FLAT = frozenset({str, int, bool, type(None)})
#: The literal that reads as ``True``, equal to 1 (``false`` equals 0, which is no card).
_TRUE = "true"
#: A member's name written without escapes (nor control characters), and its colon: the
#: name as JSON reads it; and the comma or brace after a member.
_NAME = re.compile(r'[ \t\n\r]*"([^"\\\x00-\x1f]*)"[ \t\n\r]*:')
_AFTER = re.compile(r"[ \t\n\r]*([,}])")
_DIGITS = 4300

_TWICE = N_("not a take5-log: the member {name!r} appears twice")
_TOO_LARGE = N_("the file is larger than {limit} bytes, the most a take5-log may hold")
_NESTED = N_("not JSON: the values are nested too deeply")
_LONG_NUMBER = N_("not JSON: a number has more than {digits} digits")
_NOT_UTF8 = N_("not a take5-log: the byte at offset {offset} is not valid UTF-8; a take5-log "
               "is UTF-8 text")
_NOT_JSON = N_("not JSON: {reason}")


def parse_json(text: str) -> object:
    """Parse JSON *text*, turning every way it can fail into a :class:`LogError`.

    >>> parse_json("[" * 100_000)
    Traceback (most recent call last):
    ...
    take5rules.errors.LogError: not JSON: the values are nested too deeply [log]
    """
    try:
        return json.loads(text)
    except json.JSONDecodeError as error:
        raise _json_error(error.msg, error.lineno, error.colno) from None
    except RecursionError:
        raise LogError(_NESTED) from None
    except ValueError:  # an integer of more digits than Python converts
        raise LogError(_LONG_NUMBER, digits=_DIGITS) from None


def _json_error(message: str, line: int, column: int) -> LogError:
    return LogError(_NOT_JSON, reason=json_problem(message, line, column))


def decode_utf8(data: bytes) -> str:
    """*data* as UTF-8 text (strict: no surrogates, no overlong forms), or a :class:`LogError`.

    >>> decode_utf8(bytes([34, 0xED, 0xA0, 0xBD, 0xED, 0xB8, 0x80, 34]))  # CESU-8 surrogates
    Traceback (most recent call last):
    ...
    take5rules.errors.LogError: not a take5-log: the byte at offset 1 is not valid UTF-8; a \
take5-log is UTF-8 text [log]
    """
    try:
        return data.decode("utf-8")
    except UnicodeDecodeError as error:
        raise LogError(_NOT_UTF8, offset=error.start) from None


def read_capped(read: Callable[[int], Any], limit: int = MAX_LOG_BYTES) -> Any:
    """Read everything *read* gives (bytes, or text), at most *limit* (else a :class:`LogError`).

    >>> import io
    >>> read_capped(io.BytesIO(b"12345").read, 4)
    Traceback (most recent call last):
    ...
    take5rules.errors.LogError: the file is larger than 4 bytes, the most a take5-log may hold \
[log]
    """
    parts: list[Any] = []
    size = 0
    while True:
        part = read(min(_CHUNK * 16, limit + 1 - size))
        if not part:
            return part[:0].join(parts)
        parts.append(part)
        size += len(part)
        if size > limit:
            raise LogError(_TOO_LARGE, limit=limit)


class LogStream:
    """A take5-log read incrementally from *read* (a binary file's ``read``).

    :meth:`header` gives the members before the rounds (checked); :meth:`rounds` then yields
    each round, checked; once it is exhausted, :attr:`document` holds every member but
    ``rounds`` and the end of the file has been checked. Every problem is a :class:`LogError`.
    With *turns* false, the shape of each turn of a round handed over is left to the caller
    (:func:`~take5rules.logs.structure.check_turns`, as the validator does), except for rounds
    read before the members they are checked against (those are checked whole).
    """

    def __init__(
        self, read: Callable[[int], bytes], limit: int = MAX_LOG_BYTES, *, chunk: int = _CHUNK,
        turns: bool = True,
    ) -> None:
        self._read = read
        self._turns = turns
        self._limit = limit
        self._chunk = chunk
        self._decoder = _UTF8("strict")
        self._decode_error: UnicodeDecodeError | None = None
        self._raw = _PLAIN_DECODE
        #: Whether every number read so far is whole (no fraction, exponent, NaN or Infinity)
        #: and no ``true`` was read: then every value read that equals a card is an int.
        self.plain = True
        self._tail = ""  # the end of the text read so far, for a literal cut in two
        self._buf = ""
        self._pos = 0
        self._eof = False
        self._bytes = 0
        self._chars = 0  # characters dropped from the front of the buffer
        self._line = 1  # the line of the buffer's first character
        self._column = 0  # the column of the buffer's first character, 0-based
        self.document: dict[str, Any] = {}
        self._names: frozenset[str] = frozenset()
        self._held: list[dict[str, Any]] | None = None
        self._in_rounds = False

    # Reading.

    def _more(self, wanted: int = 0) -> bool:
        """Read at least *wanted* more bytes (or up to the end); whether anything came."""
        if self._eof:
            return False
        data = self._read(max(wanted, self._chunk))
        if not data:  # the end: what was read stays, nothing is added to it
            self._eof = True
            tail = self._finish_decode()
            self._buf += tail
            self._look(tail)
            return bool(tail)
        if self._pos:  # what was parsed is dropped, its lines and columns counted
            dropped = self._buf[: self._pos]
            lines = dropped.count("\n")
            if lines:
                self._line += lines
                self._column = len(dropped) - dropped.rfind("\n") - 1
            else:
                self._column += len(dropped)
            self._chars += self._pos
            self._buf = self._buf[self._pos:]
            self._pos = 0
        self._bytes += len(data)
        if self._bytes > self._limit:
            raise LogError(_TOO_LARGE, limit=self._limit)
        try:
            text = self._decoder.decode(data)
        except UnicodeDecodeError as error:
            raise LogError(_NOT_UTF8, offset=self._bytes - len(data) + error.start) from None
        self._buf += text
        self._look(text)
        return True

    def _look(self, text: str) -> None:
        """Note *text*, read next: the stream is no longer plain if it may hold ``true``."""
        if self.plain:
            seen = self._tail + text
            # Each u (the rarest letter of a log's words), and whether it is that of "true".
            at = seen.find("u", 2)
            while at >= 0:
                if seen.startswith(_TRUE, at - 2):
                    self._not_plain()
                    return
                at = seen.find("u", at + 1)
            self._tail = seen[-3:]

    def _not_plain(self) -> None:
        self.plain = False
        self._raw = _RAW_DECODE

    def _finish_decode(self) -> str:
        try:
            return self._decoder.decode(b"", final=True)
        except UnicodeDecodeError:
            raise LogError(_NOT_UTF8, offset=self._bytes - 1) from None

    def _peek(self) -> str:
        """The next character that is not white space ("" at the end), not consumed."""
        while True:
            buf = self._buf
            pos = self._pos
            size = len(buf)
            while pos < size and buf[pos] in " \t\n\r":
                pos += 1
            self._pos = pos
            if pos < size:
                return buf[pos]
            if not self._more():
                return ""

    def _syntax(self, message: str, pos: int | None = None) -> LogError:
        at = self._pos if pos is None else pos
        before = self._buf[:at]
        lines = before.count("\n")
        column = at - before.rfind("\n") if lines else self._column + at + 1
        return _json_error(message, self._line + lines, column)

    def _value(self) -> object:
        """Parse the JSON value at the current position (after white space)."""
        if not self._peek():
            raise self._syntax("Expecting value")
        while True:
            try:
                value, end = self._raw(self._buf, self._pos)
            except _NotPlainError:
                self._not_plain()
                continue
            except json.JSONDecodeError as error:
                offset = error.pos - self._pos  # reading more moves the buffer's start
                if self._more(len(self._buf) - self._pos):
                    continue
                raise self._syntax(error.msg, self._pos + offset) from None
            except RecursionError:
                raise LogError(_NESTED) from None
            except ValueError:
                raise LogError(_LONG_NUMBER, digits=_DIGITS) from None
            if end == len(self._buf) or (
                self._buf[end] in ".eE" and type(value) in (int, float)
                and _NUMBER_TAIL.fullmatch(self._buf, end) is not None
            ):
                # A number or literal may go on in the next part ("3" of "3.0", or "3." read
                # so far, which parses as 3 followed by a dot).
                size = end - self._pos
                if self._more():
                    continue
                end = self._pos + size  # reading more moved the buffer's start
            self._pos = end
            return value

    def _expect(self, allowed: str, message: str) -> str:
        char = self._peek()
        if not char or char not in allowed:
            raise self._syntax(message)
        self._pos += 1
        return char

    # The document.

    def header(self) -> dict[str, Any]:
        """Read the members before the rounds and check them; return the document so far."""
        if self._peek() != "{":
            other = self._value()  # not an object: say what it is, once it is read
            self._end_of_text()
            check_identity(other)
        self._pos += 1
        if self._peek() == "}":
            self._pos += 1
            self._end()
            return self.document
        self._members()
        return self.document

    def _members(self) -> None:
        """Read members up to ``rounds`` (left open) or to the end of the document."""
        if self._at_once():
            return
        while True:
            named = _NAME.match(self._buf, self._pos)
            if named is not None:  # a name without escapes, and its colon, in what was read
                name = named.group(1)
                self._pos = named.end()
            else:
                if self._peek() != '"':
                    raise self._syntax("Expecting property name enclosed in double quotes")
                name = self._value()
                assert isinstance(name, str)
                self._expect(":", "Expecting ':' delimiter")
            if name in self.document or (name == "rounds" and self._held is not None):
                raise LogError(_TWICE, name=name)
            if name == "rounds" and self._peek() == "[":
                self._pos += 1
                self._in_rounds = True
                if all(member in self.document for member in HEADER):
                    self._check_header()
                    return
                self._held = list(self._read_rounds(turns=True))
            else:
                self._keep(name, self._value())
            after = _AFTER.match(self._buf, self._pos)
            if after is not None:
                self._pos = after.end()
                if after.group(1) == "}":
                    self._end()
                    return
            elif self._expect(",}", "Expecting ',' delimiter") == "}":
                self._end()
                return

    def _keep(self, name: str, value: Any) -> None:
        """Check the member *name* (not the rounds) read with *value*, and keep it."""
        check_top(name, value)
        if name in ("format", "version"):
            check_identity({**self.document, name: value}, partial=True)
        self.document[name] = value
        if name == "players":
            self._names = frozenset(self.document["players"])

    def _at_once(self) -> bool:
        """Read the members from here in one parse, when they are plain and all read.

        The members up to ``"rounds"`` (those before the rounds), or else up to the end of the
        document (those after the rounds), are parsed as one object, its members as a list (so
        that a name written twice stays twice), then taken one by one as :meth:`_members`
        takes them: the same checks in the same order, the same errors. Anything the parse
        refuses, or an object within an object, is left to the members read one at a time,
        which say what is wrong and where. Whether the document was read to its end.
        """
        buf = self._buf
        start = self._pos
        stop = buf.find('"rounds"', start)
        if stop >= 0:  # the members before the rounds, the comma after them left out
            text = buf[start:stop].rstrip(" \t\n\r")
            if not text.endswith(","):
                return False
            text = "{" + text[:-1] + "}"
        else:
            text = "{" + buf[start:]
        try:
            members, end = _MEMBERS_DECODE(text)
        except (ValueError, RecursionError, _NotPlainError):
            return False
        if stop >= 0 and end != len(text):
            return False
        read: list[tuple[str, Any]] = []
        for name, value in members:
            if type(value) is _Object:  # an object: a flat one only, as json reads it
                value = dict(value)
                if not _FLAT.issuperset(map(type, value.values())):
                    return False
            elif type(value) is list and not _FLAT.issuperset(map(type, value)):
                return False
            read.append((name, value))
        for name, value in read:
            if name in self.document or (name == "rounds" and self._held is not None):
                raise LogError(_TWICE, name=name)
            self._keep(name, value)
        if stop >= 0:
            self._pos = stop
            return False
        self._pos = start + end - 1
        self._end()
        return True

    def _check_header(self) -> None:
        check_identity(self.document)

    def _read_rounds(self, *, turns: bool = False) -> Iterator[dict[str, Any]]:
        turns = turns or self._turns
        index = 0
        listed = self._whole_array()
        if listed is not None:  # the rounds were all in what was read: parsed at once
            for entry in listed:
                yield check_round(entry, index, self._names, turns=turns)
                index += 1
        elif self._peek() == "]":
            self._pos += 1
        else:
            while True:
                yield check_round(self._value(), index, self._names, turns=turns)
                index += 1
                if self._expect(",]", "Expecting ',' delimiter") == "]":
                    break
        self._in_rounds = False

    def _whole_array(self) -> list[Any] | None:
        """The array whose ``[`` was just read, if all of it is in the buffer; else ``None``.

        A short log's rounds are parsed in one call; when the array goes on past what was read,
        or holds anything the parser refuses, nothing is consumed and the rounds are parsed
        one at a time (which says what is wrong, and where).
        """
        start = self._pos - 1
        if start < 0 or self._buf[start] != "[":
            return None
        try:
            listed, end = self._raw(self._buf, start)
        except _NotPlainError:
            self._not_plain()
            return self._whole_array()
        except (ValueError, RecursionError):  # JSONDecodeError is a ValueError
            return None
        self._pos = end
        return listed  # type: ignore[no-any-return]

    def rounds(self) -> Iterator[dict[str, Any]]:
        """Each round, checked, in order; then the rest of the document is read and checked."""
        if self._held is not None:
            yield from self._held
            self._held = []
            return
        if self._in_rounds:
            yield from self._read_rounds()
            self.document["rounds"] = []
            if self._expect(",}", "Expecting ',' delimiter") == ",":
                self._members()
            else:
                self._end()
        elif "rounds" in self.document:
            rounds = self.document["rounds"]
            for index, entry in enumerate(rounds):
                yield check_round(entry, index, self._names, turns=self._turns)

    def _end_of_text(self) -> None:
        if self._peek():
            raise self._syntax("Extra data")

    def _end(self) -> None:
        self._end_of_text()
        if self._held is not None:
            self.document["rounds"] = []
        check_identity(self.document)
        check_required(self.document)
