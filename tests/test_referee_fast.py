"""The referee's fast path for a plain, well-formed request gives exactly the checked path's answer.

:func:`take5rules.conformance.referee.parse_request` takes a request of plain JSON values that
passes every check in one pass (``_plain_request``) and leaves every other request to the
checks one by one (``_checked_request``), which name the first problem. Here both paths answer
valid requests (``random_request``) and the same requests broken at random (values of other
types, cards out of range, repeated or out of order, players repeated, members dropped or
added), and the replies, error words included, must be the same; whenever the fast path
answers, its table, plays and choices are the checked path's.
"""

from __future__ import annotations

import copy
import random
from typing import Any
from unittest import mock

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from _json_places import places
from take5rules.conformance import referee
from take5rules.conformance.random_turns import random_request
from take5rules.conformance.referee import answer, answer_line, parse_request
from take5rules.errors import Take5Error

#: Replacement values: every JSON type, and the numbers a card or an index must not be.
HOSTILE: tuple[object, ...] = (
    None, True, False, 0, -1, 1, 4, 104, 105, 55, 3.0, "7", "", "\u00e9", "\ud800", [], [3],
    [["ana", 5]], {}, {"ana": 0},
)


@st.composite
def requests(draw: st.DrawFn) -> Any:
    """A valid request, broken in zero to three places."""
    request: Any = random_request(random.Random(draw(st.integers(0, 2**32))), 1, 10)
    for _ in range(draw(st.integers(0, 3))):
        spots = places(request)
        if not spots:
            break
        path = draw(st.sampled_from(spots))
        parent = request
        for step in path[:-1]:
            parent = parent[step]
        change = draw(st.sampled_from(["value", "value", "card", "drop", "add"]))
        if change == "drop":
            del parent[path[-1]]
        elif change == "add" and isinstance(parent, dict):
            parent[draw(st.sampled_from(["choices", "x", "ana", "rows"]))] = copy.deepcopy(
                draw(st.sampled_from(HOSTILE)))
        elif change == "card":  # another card, maybe one already in the request
            parent[path[-1]] = draw(st.integers(-1, 106))
        else:
            parent[path[-1]] = copy.deepcopy(draw(st.sampled_from(HOSTILE)))
    if draw(st.integers(0, 9)) == 0:
        request = draw(st.sampled_from(HOSTILE))
    return request


def _parsed(request: object) -> object:
    try:
        table, plays, choices = parse_request(request)
    except Take5Error as error:
        return ("error", error.rule, str(error))
    return (table, list(plays.items()), list(choices.items()))


def _checked_only() -> Any:
    return mock.patch.object(referee, "_plain_request", return_value=None)


@pytest.mark.slow
@settings(max_examples=400)
@given(request=requests())
def test_the_fast_path_answers_what_the_checks_answer(request: Any) -> None:
    fast = _parsed(copy.deepcopy(request))
    reply = answer(copy.deepcopy(request))
    with _checked_only():
        assert _parsed(copy.deepcopy(request)) == fast
        assert answer(copy.deepcopy(request)) == reply


def test_a_plain_valid_request_is_taken_by_the_fast_path() -> None:
    rng = random.Random(7)
    for _ in range(50):
        request = random_request(rng, 1, 10)
        plain = referee._plain_request(request)
        assert plain is not None
        with _checked_only():
            assert plain == parse_request(request)


@pytest.mark.parametrize(("change", "rule"), [
    (lambda r: r["rows"][0].append(r["rows"][0][0]), "cards.deck"),  # a card twice in a row
    (lambda r: r["rows"][1].insert(0, 12), "cards.deck"),  # the card of another row
    (lambda r: r["rows"][1].insert(0, 104), "table.ascending"),
    (lambda r: r["rows"][0].__setitem__(0, 3.0), "cards.deck"),
    (lambda r: r["rows"][0].__setitem__(0, True), "cards.deck"),
    (lambda r: r["plays"][0].__setitem__(1, 0), "cards.deck"),
    (lambda r: r["plays"][0].__setitem__(1, 105), "cards.deck"),
    (lambda r: r["plays"][0].__setitem__(1, float(r["plays"][0][1])), "cards.deck"),
    (lambda r: r["plays"].append(list(r["plays"][0])), "protocol"),  # a player twice
    (lambda r: r["plays"].append(["zed", r["rows"][2][0]]), "cards.deck"),  # a card on the table
    (lambda r: r.__setitem__("choices", {"zed": 0}), "protocol"),
    (lambda r: r.__setitem__("choices", {r["plays"][0][0]: 4}), "protocol"),
    (lambda r: r.__setitem__("choices", {r["plays"][0][0]: True}), "protocol"),
    (lambda r: r.__setitem__("choices", None), "protocol"),
    (lambda r: r.__setitem__("x", 1), "protocol"),
    (lambda r: r["rows"].pop(), "setup.deal"),
    (lambda r: r["rows"][3].extend([101, 102, 103, 104, 100]), "table.sixth-card"),
    (lambda r: r["rows"][2].clear(), "table.low-card"),
])
def test_the_fast_path_takes_no_request_the_checks_refuse(change: Any, rule: str) -> None:
    request = {"rows": [[3, 12], [24], [58, 61, 70], [96]],
               "plays": [["ana", 17], ["bob", 2], ["cyd", 80]], "choices": {"bob": 3}}
    change(request)
    assert referee._plain_request(copy.deepcopy(request)) is None
    with pytest.raises(Take5Error) as raised:
        parse_request(request)
    assert raised.value.rule == rule


def test_a_reply_line_is_the_same_either_way() -> None:
    lines = ['{"rows": [[3, 12], [24], [58, 61, 70], [96]], "plays": [["ana", 17], ["bob", 2]], '
             '"choices": {"bob": 3}}',
             '{"rows": [[3, 12], [24], [58, 61, 70], [96]], "plays": [["\u00e9", 17]]}',
             '{"rows": [[3, 12], [24], [58, 61, 70], [96]], "plays": [["ana", 12]]}']
    replies = [answer_line(line) for line in lines]
    assert replies[0] == ('{"rows": [[3, 12, 17], [24], [58, 61, 70], [2]], '
                          '"taken": {"bob": [96]}, "chosen": {"bob": 3}}')
    assert '"rule": "cards.deck"' in replies[2]
    with _checked_only():
        assert [answer_line(line) for line in lines] == replies
