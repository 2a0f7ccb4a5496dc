"""The reader's ``plain`` (no boolean, no number but whole ones), and what the fast path trusts.

:attr:`take5rules.logs.reader.LogStream.plain` says that the JSON read so far holds no ``true``,
``false``, NaN, Infinity or number with a fraction or exponent; then
:func:`take5rules.logs.fast.quick_turns` takes a ``rows_after`` or a ``taken`` equal to what the
rules give for lists of ints without looking at each item's type. These tests pin both ends:
the reader says plain only for such JSON (wherever the value is, and however the file is cut
into reads), and a log that is not plain is judged as before, down to the error's words.
"""

from __future__ import annotations

import contextlib
import io
import json
from typing import Any
from unittest import mock

import pytest

from take5rules.errors import LogError
from take5rules.logs.fast import quick_turns
from take5rules.logs.reader import LogStream
from take5rules.logs.report import Findings
from take5rules.logs.validator import validate_stream

#: A valid two-player log of one round of two turns, every claim included (cards written
#: here by hand: ana 10 then 30 on row 1, bob 20 then 3, a low card taking row 4).
LOG = (
    '{"format": "take5-log", "version": 1, "variant": "standard", "threshold": 66, '
    '"players": ["ana", "bob"], "rounds": [{"rows": [[5], [50], [60], [70]], '
    '"hands": {"ana": [10, 30, 31, 32, 33, 34, 35, 36, 37, 38], '
    '"bob": [20, 3, 41, 42, 43, 44, 45, 46, 47, 48]}, "turns": ['
    '{"plays": {"ana": 10, "bob": 20}, "takes": {}, '
    '"rows_after": [[5, 10, 20], [50], [60], [70]], "taken": {}}, '
    '{"plays": {"ana": 30, "bob": 3}, "takes": {"bob": 3}, '
    '"rows_after": [[5, 10, 20, 30], [50], [60], [3]], "taken": {"bob": [70]}}]}]}'
)


def _stream(text: str, chunk: int) -> tuple[LogStream, list[dict[str, Any]]]:
    stream = LogStream(io.BytesIO(text.encode()).read, chunk=chunk, turns=False)
    stream.header()
    return stream, list(stream.rounds())


@pytest.mark.parametrize("chunk", [1, 3, 7, 64, 1 << 16])
def test_a_log_of_whole_numbers_is_plain(chunk: int) -> None:
    stream, rounds = _stream(LOG, chunk)
    assert stream.plain
    assert len(rounds) == 1


@pytest.mark.parametrize("chunk", [1, 2, 3, 5, 64, 1 << 16])
@pytest.mark.parametrize(("old", "new"), [
    ('[[5, 10, 20], [50]', '[[5, 10, 20.0], [50]'),  # a fraction, in a round
    ('[[5, 10, 20], [50]', '[[5, 10, 2e1], [50]'),  # an exponent
    ('[[5, 10, 20], [50]', '[[5, 10, 20], [NaN]'),  # NaN
    ('"taken": {"bob": [70]}', '"taken": {"bob": [-Infinity]}'),
    ('"threshold": 66', '"threshold": 66.0'),  # in the header
    ('"taken": {}}', '"taken": {}, "rows_after": true}'),  # true, which equals 1
    ('"rounds": [', '"x-flag": true, "rounds": ['),
])
def test_a_log_with_another_value_equal_to_a_number_is_not_plain(
    chunk: int, old: str, new: str
) -> None:
    assert old in LOG
    text = LOG.replace(old, new, 1)
    try:
        stream, _ = _stream(text, chunk)
    except LogError:
        # The value breaks the shape: refused all the same, as without the plain reading.
        return
    assert not stream.plain


@pytest.mark.parametrize("chunk", [1, 2, 5, 1 << 16])
def test_false_equals_no_card_and_leaves_a_log_plain(chunk: int) -> None:
    """false equals 0, no card: a log holding it stays plain, and false is refused all the same."""
    start = "[[5, 10, 20], [50]"
    text = LOG.replace('"turns": [', '"turns": [{"plays": {"ana": false, "bob": 20}}, ', 1)
    stream = LogStream(io.BytesIO(text.encode()).read, chunk=chunk, turns=False)
    with pytest.raises(LogError, match="false is not a whole number"):
        validate_stream(stream)
    text = LOG.replace(start, start.replace("5", "false", 1), 1)
    stream = LogStream(io.BytesIO(text.encode()).read, chunk=chunk, turns=False)
    with pytest.raises(LogError, match="false is not a whole number"):
        validate_stream(stream)
    assert stream.plain


def test_the_word_in_a_name_makes_a_log_not_plain_only() -> None:
    """'true' in a string is no boolean: the log is not plain, and still valid."""
    text = LOG.replace('"bob"', '"untrue"')
    stream, _ = _stream(text, 4)
    assert not stream.plain
    assert validate_stream(io.BytesIO(text.encode()).read).valid


@pytest.mark.parametrize("chunk", [1, 4, 9, 1 << 16])
@pytest.mark.parametrize(("first", "claimed"), [(20, "20.0"), (20, "2e1"), (1, "true")])
def test_a_claim_equal_to_the_rules_but_not_an_int_is_still_refused(
    chunk: int, first: int, claimed: str
) -> None:
    """rows_after holding 20.0 (or true) where the row holds 20 (or 1): not a take5-log."""
    text = LOG.replace("[[5", "[[1") if first == 1 else LOG  # true equals 1, the first card
    start = "[[1, 10, 20], [50]" if first == 1 else "[[5, 10, 20], [50]"
    assert start in text
    broken = start.replace(str(first), claimed, 1) if first == 1 else start.replace("20", claimed)
    text = text.replace(start, broken, 1)
    assert validate_stream(io.BytesIO(text.replace(broken, start).encode()).read).valid
    with pytest.raises(LogError, match="not a whole number"):
        validate_stream(LogStream(io.BytesIO(text.encode()).read, chunk=chunk, turns=False))


def test_the_plain_log_is_valid() -> None:
    report = validate_stream(io.BytesIO(LOG.encode()).read)
    assert report.valid
    assert report.incomplete  # a round of two turns: in progress, no round scored yet


def _round() -> tuple[dict[str, set[int]], list[list[int]], list[Any]]:
    entry = json.loads(LOG)["rounds"][0]
    hands = {player: set(hand) for player, hand in entry["hands"].items()}
    return hands, [list(row) for row in entry["rows"]], entry["turns"]


@pytest.mark.parametrize("plain", [False, True])
def test_plain_takes_equal_claims_and_refuses_others(plain: bool) -> None:
    hands, rows, turns = _round()
    # bob took card 70: a multiple of ten, three bull heads.
    assert quick_turns(Findings(), hands, rows, turns, plain=plain) == {"ana": 0, "bob": 3}
    for member, value in [("rows_after", [[5, 10, 20, 30], [50], [60], [3, 4]]),
                          ("rows_after", [[5, 10, 20, 30], [50], [60]]),
                          ("rows_after", ([5, 10, 20, 30], [50], [60], [3])),
                          ("taken", {"bob": [71]}), ("taken", {"ana": [70]}),
                          ("taken", {"bob": [70], "ana": [5]})]:
        hands, rows, turns = _round()
        turns[1][member] = value
        assert quick_turns(Findings(), hands, rows, turns, plain=plain) is None, (member, value)


def test_not_plain_looks_at_each_type() -> None:
    """The same claims with a float or a boolean item are vouched for only when plain."""
    for member, value in [("rows_after", [[5, 10, 20, 30.0], [50], [60], [3]]),
                          ("taken", {"bob": [70.0]})]:
        hands, rows, turns = _round()
        turns[1][member] = value
        assert quick_turns(Findings(), hands, rows, turns) is None


def _verdict(text: str, chunk: int, *, at_once: bool = True) -> tuple[object, ...]:
    """The error's words, or the report's violations and totals, of *text* read by *chunk*.

    Without *at_once*, the members around the rounds are read one at a time only.
    """
    try:
        with mock.patch.object(LogStream, "_at_once", return_value=False) if not at_once \
                else contextlib.nullcontext():
            report = validate_stream(LogStream(io.BytesIO(text.encode()).read, chunk=chunk,
                                               turns=False))
    except LogError as error:
        return ("error", str(error))
    return ("report", [(v.rule, v.path, str(v.error)) for v in report.violations],
            report.totals, report.complete)


_FIRST = '{"format": "take5-log", "version": 1, "variant": "standard", "threshold": 66, '


@pytest.mark.parametrize("head", [
    _FIRST + '"players": ["ana", "bob"], ',
    _FIRST + '"players": ["ana", "bob"], "players": ["ana", "bob"], ',  # twice
    _FIRST + '"threshold": 66, "players": ["ana", "bob"], ',
    '{"format": "take5-log", "version": 1.0, "variant": "standard", "players": ["ana", "bob"], ',
    '{"format": "take5-log", "version": "1", "variant": "standard", "players": ["ana", "bob"], ',
    '{"format": "take5-seat-view", "version": 1, "players": ["ana", "bob"], ',
    '{"version": 2, "format": "take5-log", "variant": "standard", "players": ["ana", "bob"], ',
    _FIRST + '"x-note": {"a": 1}, "players": ["ana", "bob"], ',  # an object: one at a time
    _FIRST + '"colour": "red", "players": ["ana", "bob"], ',  # not part of the format
    _FIRST + '"players": ["ana", "\\ud800"], ',  # a lone surrogate
    _FIRST + '"players": ["rounds", "bob"], ',  # the word, as a name
    _FIRST + '"players": ["ana", "bob"], "\\u0072ounds": [], ',  # the name, escaped
    _FIRST + '"players": ["ana", "bob"],\n\t\r ',
    _FIRST + '"players": ["ana", "bob"] , ',
    _FIRST + '"players": ["ana", "bob"], , ',  # not JSON
    _FIRST + '"players": ["ana", "bob"]  ',  # no comma: not JSON
    _FIRST + '"players": ["ana", "bob", ], ',
    '{"players": ["ana", "bob"], "variant": "standard", ',  # format and version missing
    '{"format": "take5-log"}, "version": 1, "variant": "standard", "players": ["ana", "bob"], ',
    '{"format": "take5-log", "version": 1, "variant": "standard", "players": ["ana", "bob"], '
    '"threshold": 66 ',  # no comma before the rounds
    '{',
])
def test_the_members_before_the_rounds_read_at_once_say_what_one_at_a_time_says(
    head: str,
) -> None:
    """The members before the rounds read in one parse (the whole file in one read) give the
    same error or report as read one at a time."""
    text = head + LOG[LOG.index('"rounds"'):].replace('"ana"', '"ana"')
    assert _verdict(text, 1 << 16) == _verdict(text, 1 << 16, at_once=False) == _verdict(text, 1)


_ROUNDS = LOG[LOG.index('"rounds"'):-1]


@pytest.mark.parametrize("tail", [
    "}",
    ', "totals": {"ana": 0, "bob": 0}}',
    ', "totals": {"ana": 0, "bob": 0}, "winners": ["ana"]}',
    ', "totals": {"ana": 0, "bob": 0}, "totals": {"ana": 0, "bob": 0}}',  # twice
    ', "totals": {"ana": 0, "ana": 1, "bob": 0}}',  # a name twice inside: the last one
    ', "totals": {"ana": 0.0, "bob": 0}}',
    ', "totals": {"ana": true, "bob": 0}}',
    ', "totals": {"ana": [0], "bob": 0}}',  # a list inside: one at a time
    ', "totals": {"ana": {"x": 0}, "bob": 0}}',  # an object inside: one at a time
    ', "totals": {}}',
    ', "totals": []}',
    ', "winners": []}',
    ', "winners": [["ana"]]}',
    ', "winners": [{"ana": 1}]}',
    ', "rounds": []}',  # the rounds twice
    ', "x-note": null, "x-more": {"a": "b"}}',
    ', "colour": 1}',  # not part of the format
    ', "totals": {"ana": 0, "bob": 0}} ',
    ', "totals": {"ana": 0, "bob": 0}} x',  # extra data
    ', "totals": {"ana": 0, "bob": 0}}}',
    ', "totals": {"ana": 0, "bob": 0}',  # no end
    ', "totals": {"ana": 0, "bob": 0},}',
    ', "totals": {"\\ud800": 0, "bob": 0}}',
])
@pytest.mark.parametrize("head", [
    _FIRST + '"players": ["ana", "bob"], ',
    '{"players": ["ana", "bob"], ',  # the identity missing
])
def test_the_members_after_the_rounds_read_at_once_say_what_one_at_a_time_says(
    head: str, tail: str
) -> None:
    text = head + _ROUNDS + tail
    assert _verdict(text, 1 << 16) == _verdict(text, 1 << 16, at_once=False) == _verdict(text, 1)


@pytest.mark.parametrize("pad", range(4))
@pytest.mark.parametrize("chunk", [1, 2, 3, 4, 5])
def test_true_cut_anywhere_between_two_reads_is_seen(pad: int, chunk: int) -> None:
    """Wherever the reads cut "true" (t|rue, tr|ue, tru|e), the log is not plain."""
    text = " " * pad + LOG.replace('"rounds": [', '"x-flag": true, "rounds": [', 1)
    stream, _ = _stream(text, chunk)
    assert not stream.plain
    stream, _ = _stream(" " * pad + LOG, chunk)
    assert stream.plain


@pytest.mark.parametrize("plain", [False, True])
@pytest.mark.parametrize("card", ["10", None, [10], {"10": 10}, 10.5])
def test_a_card_that_is_no_int_is_refused(plain: bool, card: object) -> None:
    """A play that is no int (text, null, a list, an object) is never found in a hand."""
    hands, rows, turns = _round()
    turns[0]["plays"]["ana"] = card
    assert quick_turns(Findings(), hands, rows, turns, plain=plain) is None
    hands, rows, turns = _round()
    turns[0]["plays"] = {"ana": card, "bob": card}
    assert quick_turns(Findings(), hands, rows, turns, plain=plain) is None


def test_the_placements_exercised_are_those_seen() -> None:
    """A turn where every card takes a row (a low card, a sixth card) puts none on a row."""
    rows = [[5, 6, 7, 8, 9], [20], [30], [40]]
    findings = Findings()
    # ana's 3 is lower than every row: she takes row 2 (index 1); bob's 10 is the sixth of row 1.
    turns = [{"plays": {"ana": 3, "bob": 10}, "takes": {"ana": 1}}]
    piles = quick_turns(findings, {"ana": [3], "bob": [10]}, rows, turns)
    assert piles == {"ana": 3, "bob": 2 + 1 + 1 + 1 + 1}  # 20: 3 heads; 5: 2, 6 to 9: 1 each
    assert "table.least-difference" not in findings.used
    assert {"table.low-card", "table.sixth-card"} <= findings.used
    findings = Findings()
    turns = [{"plays": {"ana": 21, "bob": 10}}]  # both put on a row
    assert quick_turns(findings, {"ana": [21], "bob": [10]}, [[5], [20], [30], [40]], turns) \
        == {"ana": 0, "bob": 0}
    assert "table.least-difference" in findings.used
    assert not {"table.low-card", "table.sixth-card"} & findings.used
