"""Fuzzing the Play page's Python side: whatever the page (or anyone) sends, a JSON answer.

``new_game``, ``answer`` and ``try_turn`` of ``docs/play/take5play.py`` take text from the
browser. Arbitrary text, arbitrary JSON and well-formed requests with one part replaced by an
arbitrary JSON value must each give JSON back: a state, turn steps, or an ``error`` worded by
the library (naming a rule or ``argument``), never an exception. ``TAKE5_FUZZ_EXAMPLES`` sets
the number of inputs per test (default 60).
"""

from __future__ import annotations

import json
import os
import sys
from pathlib import Path
from typing import Any

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

sys.path.insert(0, str(Path(__file__).resolve().parent.parent / "docs" / "play"))
import take5play

EXAMPLES = int(os.environ.get("TAKE5_FUZZ_EXAMPLES", "60"))
FUZZ = settings(max_examples=EXAMPLES, deadline=None, database=None,
                suppress_health_check=list(HealthCheck))

JSON = st.recursive(
    st.none() | st.booleans() | st.integers(-10**6, 10**6) | st.floats(allow_nan=False)
    | st.text(max_size=20),
    lambda inner: st.lists(inner, max_size=5) | st.dictionaries(st.text(max_size=8), inner,
                                                                max_size=5),
    max_leaves=20,
)
GAME: dict[str, Any] = {"language": "fr", "seats": [["ana", "page"], ["bob", "random"]],
                        "variant": "standard", "threshold": 66, "seed": 1}
TURN: dict[str, Any] = {"rows": ["3 12", "24", "58 61 70", "96"], "plays": "ana 17, bob 2",
                        "choices": "bob 4", "language": "bg"}


def answered(text: str, *keys: str) -> dict[str, Any]:
    reply = json.loads(text)
    assert isinstance(reply, dict)
    assert any(key in reply for key in (*keys, "error")), reply
    if "error" in reply:
        assert "[" in reply["error"] and "]" in reply["error"], reply  # names a rule or argument
    return reply


@FUZZ
@given(st.text(max_size=200) | JSON.map(json.dumps))
def test_any_text_gets_a_json_answer(text: str) -> None:
    answered(take5play.new_game(text), "phase")
    answered(take5play.try_turn(text), "steps")


@FUZZ
@given(st.sampled_from(sorted(GAME)), JSON)
def test_a_game_request_with_one_part_replaced_gets_a_json_answer(key: str, value: Any) -> None:
    answered(take5play.new_game(json.dumps({**GAME, key: value})), "phase")


@FUZZ
@given(st.sampled_from(sorted(TURN)), JSON)
def test_a_turn_request_with_one_part_replaced_gets_a_json_answer(key: str, value: Any) -> None:
    answered(take5play.try_turn(json.dumps({**TURN, key: value})), "steps")


@FUZZ
@given(st.integers(-10**9, 10**9) | JSON)
def test_any_answer_gets_a_json_answer(value: Any) -> None:
    take5play.new_game(json.dumps(GAME))
    answered(take5play.answer(value), "phase")
