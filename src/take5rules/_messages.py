"""Markers for translatable English text.

``N_("...")`` returns its argument unchanged, and ``Nn_("...", "...")`` returns its singular and
plural forms as a pair. They exist so that ``pybabel extract`` (see ``babel.cfg``) finds every
message of the library: rule texts, error templates, narration. Translation happens later, in
:mod:`take5rules.text`, so the rules engine never depends on a language.
"""

from __future__ import annotations

import errno
import os
import reprlib

__all__ = ["N_", "Nn_", "Phrase", "Shown", "json_problem", "json_reason", "os_reason", "shown"]


def N_(message: str) -> str:  # noqa: N802 - the gettext convention
    """Mark *message* for extraction and return it unchanged.

    >>> N_("bull heads")
    'bull heads'
    """
    return message


def Nn_(singular: str, plural: str) -> tuple[str, str]:  # noqa: N802 - the gettext convention
    """Mark a message with a plural for extraction and return both forms.

    >>> Nn_("{count} bull head", "{count} bull heads")
    ('{count} bull head', '{count} bull heads')
    """
    return singular, plural


class Phrase:
    """A message with its own parameters, to be translated where it is shown.

    An error's parameter may be a phrase (the reason a JSON text is malformed, say): English
    when the error is printed as is, translated with the rest of the message by
    :func:`take5rules.text.error_message`.

    >>> reason = Phrase(N_("{problem} at line {line} column {column}"),
    ...                 problem=Phrase(N_("Expecting value")), line=1, column=1)
    >>> print(reason)
    Expecting value at line 1 column 1
    >>> "not JSON: {reason}".format(reason=reason)
    'not JSON: Expecting value at line 1 column 1'
    """

    __slots__ = ("params", "template")

    def __init__(self, template: str, /, **params: object) -> None:
        self.template = template
        self.params = params

    def __str__(self) -> str:
        return self.template.format(**self.params)

    def __format__(self, spec: str) -> str:
        return format(str(self), spec)

    def __repr__(self) -> str:
        return f"Phrase({self.template!r}, **{self.params!r})"

    def __eq__(self, other: object) -> bool:
        return (isinstance(other, Phrase) and other.template == self.template
                and other.params == self.params)

    def __hash__(self) -> int:
        return hash((self.template, tuple(sorted(self.params.items(), key=lambda i: i[0]))))

    def __reduce__(self) -> tuple[object, ...]:
        return (_phrase, (self.template, self.params))


def _phrase(template: str, params: dict[str, object]) -> Phrase:
    """A :class:`Phrase` rebuilt from its fields (for pickling)."""
    return Phrase(template, **params)


#: The messages of Python's JSON parser, marked for translation (``json.JSONDecodeError.msg``).
_JSON_PROBLEMS = {
    message: message
    for message in (
        N_("Expecting value"),
        N_("Expecting property name enclosed in double quotes"),
        N_("Expecting ':' delimiter"),
        N_("Expecting ',' delimiter"),
        N_("Unterminated string starting at"),
        N_("Invalid control character at"),
        N_("Invalid \\escape"),
        N_("Invalid \\uXXXX escape"),
        N_("Extra data"),
        N_("Illegal trailing comma before end of object"),
        N_("Illegal trailing comma before end of array"),
    )
}


def json_reason(error: ValueError) -> Phrase:
    r"""Why a text is not JSON, as a translatable phrase (for a ``{reason}`` parameter).

    >>> import json
    >>> try:
    ...     json.loads("{")
    ... except json.JSONDecodeError as error:
    ...     print(json_reason(error))
    Expecting property name enclosed in double quotes at line 1 column 2
    >>> print(json_reason(UnicodeDecodeError("utf-8", b"\\xff", 0, 1, "invalid start byte")))
    the text is not UTF-8 (byte 1)
    """
    if isinstance(error, UnicodeDecodeError):
        return Phrase(N_("the text is not UTF-8 (byte {position})"), position=error.start + 1)
    return json_problem(getattr(error, "msg", ""), getattr(error, "lineno", 1),
                        getattr(error, "colno", 1))


def json_problem(message: str, line: int, column: int) -> Phrase:
    """The JSON parser's *message* at *line* and *column*, as a translatable phrase.

    >>> print(json_problem("Expecting value", 3, 7))
    Expecting value at line 3 column 7
    """
    problem = (Phrase(_JSON_PROBLEMS[message]) if message in _JSON_PROBLEMS
               else Phrase(N_("malformed JSON")))
    return Phrase(N_("{problem} at line {line} column {column}"), problem=problem,
                  line=line, column=column)


#: The operating system's failures a user of the command line meets, said in each language
#: (``os.strerror`` is English whatever the language asked).
_OS_PROBLEMS = {
    errno.ENOENT: N_("no such file or directory"),
    errno.EACCES: N_("permission denied"),
    errno.EISDIR: N_("it is a directory"),
    errno.ENOTDIR: N_("a part of the path is not a directory"),
    errno.ENOSPC: N_("no space left on the device"),
    errno.EROFS: N_("the file system is read-only"),
    errno.EBADF: N_("the file is closed"),
    errno.EIO: N_("input/output error"),
}


def os_reason(error: OSError | int) -> Phrase | str:
    """Why an operation on a file failed, translatable when it is a common failure.

    >>> print(os_reason(OSError(errno.ENOSPC, os.strerror(errno.ENOSPC))))
    no space left on the device
    >>> os_reason(errno.EBADF)
    Phrase('the file is closed', **{})
    """
    number = error if isinstance(error, int) else error.errno
    if number in _OS_PROBLEMS:
        return Phrase(_OS_PROBLEMS[number])
    if isinstance(error, int):
        return os.strerror(error)
    return error.strerror or str(error)


#: Bounded representations: a value shown in a message is cut short, however deep or long.
_REPR = reprlib.Repr()
_REPR.maxlevel = 4
_REPR.maxlist = _REPR.maxtuple = _REPR.maxset = _REPR.maxfrozenset = _REPR.maxdict = 24
_REPR.maxstring = _REPR.maxother = 120
_REPR.maxlong = 60


class Shown:
    """A value as an error shows it: ``repr`` (and ``str``) of bounded length and depth.

    >>> deep: list[object] = [1]
    >>> for _ in range(100_000):
    ...     deep = [deep]
    >>> repr(Shown(deep))
    '[[[[...]]]]'
    """

    __slots__ = ("text",)

    def __init__(self, value: object) -> None:
        self.text = _REPR.repr(value)

    def __repr__(self) -> str:
        return self.text

    __str__ = __repr__

    def __eq__(self, other: object) -> bool:
        return isinstance(other, Shown) and other.text == self.text

    def __hash__(self) -> int:
        return hash(self.text)

    def __reduce__(self) -> tuple[object, ...]:
        return (_shown_text, (self.text,))


def _shown_text(text: str) -> Shown:
    """A :class:`Shown` rebuilt from its text (for pickling)."""
    shown_value = Shown(None)
    shown_value.text = text
    return shown_value


def shown(value: object) -> object:
    """*value* as an error's parameter: itself if short and flat, else a :class:`Shown` of it.

    A number, ``None`` and a short text are themselves; anything else is cut short.

    >>> shown(9), shown("ana"), repr(shown(list(range(100))))[-8:]
    (9, 'ana', '23, ...]')
    """
    if value is None or isinstance(value, int | float) or (
            isinstance(value, str | bytes) and len(value) <= _REPR.maxstring):
        return value
    return Shown(value)
