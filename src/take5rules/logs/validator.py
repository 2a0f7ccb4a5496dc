"""Checking game logs: replay a take5-log with the rule functions and report every violation.

:func:`validate` takes a parsed take5-log (see :mod:`take5rules.logs`), checks its shape (that
of its JSON Schema, :mod:`take5rules.logs.structure`) and replays it round by round
(:mod:`take5rules.logs.round_check`): the members other than the rounds first, then each round's
shape as the replay comes to it, and each turn's as the fast path (:mod:`take5rules.logs.fast`)
replays it, or by :func:`~take5rules.logs.structure.check_turns` for a round it does not vouch
for; the first problem of shape raises its error, as if the whole shape were checked first.
Every claim the log makes is compared with what the rules give (:mod:`take5rules.logs.claims`);
absent claims are computed. Each violation names the rule id
it breaks, where (round, turn, player, card) and the JSON path in the log.

:func:`validate_file` and :func:`validate_stream` read the file incrementally
(:class:`take5rules.logs.reader.LogStream`) and check each round as soon as it is parsed, so
memory is that of one round, not of the file.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator, Sequence

from take5rules._messages import N_, os_reason
from take5rules.errors import LogError
from take5rules.logs.format import binary_stdin
from take5rules.logs.reader import LogStream
from take5rules.logs.report import Report
from take5rules.logs.round_check import Checker
from take5rules.logs.structure import check_document, check_round

__all__ = ["validate", "validate_file", "validate_files", "validate_stream"]


def validate(log: object) -> Report:
    """Check the take5-log *log* (parsed JSON) against every rule and return a :class:`Report`.

    Raises :class:`~take5rules.logs.format.LogError` when *log* is not a take5-log at all (not an
    object, another format or version, or a shape its JSON Schema rejects).

    >>> report = validate({"format": "take5-log", "version": 1, "variant": "standard",
    ...                    "players": ["ana"], "rounds": []})
    >>> report.valid, [(v.rule, v.path) for v in report.violations]
    (False, [('setup.players', '$.players')])
    >>> validate({"format": "take5-log", "version": 1, "variant": "logic",
    ...           "players": ["ana", "bob"], "rounds": []}).incomplete
    True
    """
    document = check_document(log, rounds=False)
    names = frozenset(document["players"])
    # Each round's shape checked as the replay comes to it, the turns' as it replays them.
    rounds = (check_round(entry, index, names, turns=False)
              for index, entry in enumerate(document["rounds"]))
    return Checker(document).run(rounds)


def validate_stream(source: Callable[[int], bytes] | LogStream) -> Report:
    """Check the take5-log read from *source* (a binary file's ``read``), one round at a time.

    The log is parsed incrementally (see :class:`take5rules.logs.reader.LogStream`): its members
    before ``rounds``, then each round, checked and replayed as soon as it is read and then
    dropped, then the members after the rounds. Memory stays that of one round whatever the
    length of the log (when the log gives its format, version, variant, threshold and players
    before its rounds, as :func:`take5rules.logs.format.dumps` writes it); at most
    :data:`~take5rules.logs.format.MAX_LOG_BYTES` are read. Raises :class:`LogError` when the bytes
    are
    not a take5-log (not UTF-8, not JSON, or a shape the format does not allow).

    >>> import io
    >>> validate_stream(io.BytesIO(b'{"format": "take5-log", "version": 1, "variant": '
    ...                            b'"standard", "threshold": 66, "players": ["ana", "bob"], '
    ...                            b'"rounds": []}').read).incomplete
    True
    """
    stream = source if isinstance(source, LogStream) else LogStream(source, turns=False)
    document = stream.header()
    return Checker(document, lambda: stream.plain).run(stream.rounds())


def validate_file(name: str) -> Report:
    """Check the take5-log in the file *name* (``-`` is standard input), read as it is checked.

    Raises :class:`LogError` when the file cannot be read or is not a take5-log.
    """
    try:
        if name == "-":
            return validate_stream(binary_stdin().read)
        with open(name, "rb", buffering=0) as handle:  # read in large parts: no buffer
            return validate_stream(handle.read)
    except OSError as error:
        raise LogError(N_("cannot read the file: {reason}"),
                       reason=os_reason(error)) from None


def validate_files(names: Sequence[str]) -> Iterator[tuple[str, Report | LogError]]:
    """Load and check each file of *names* (``-`` is standard input): its report, or the error."""
    for name in names:
        try:
            yield name, validate_file(name)
        except LogError as error:
            yield name, error
