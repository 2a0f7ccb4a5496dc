"""Hostile input for Game.from_json and the stepper's answers: a clear Take5Error, never a crash.

A saved game is mutated at random in every field (a value replaced, a list item dropped or
doubled, a key removed or added, a type changed); reading it back either refuses it with a
Take5Error or gives a game that saves to the same document, and plays on.
"""

from __future__ import annotations

import copy
import json
import random
from typing import Any

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from take5rules import Game, Phase, Rules, Variant
from take5rules.errors import Take5Error

_settings = settings(max_examples=300, deadline=None, derandomize=True,
                     suppress_health_check=[HealthCheck.too_slow])

_ODD: list[Any] = [None, True, False, -1, 0, 1, 105, 2**70, 1.5, "x", "", [], {}, [1, 2], {"a": 1}]


def _saved(variant: Variant, seed: int, steps: int) -> dict[str, Any]:
    rng = random.Random(seed)
    game = Game(["ana", "bob", "cyd"], Rules(variant, 40), seed=seed)
    for _ in range(steps):
        if game.phase is Phase.OVER:
            break
        seat = rng.choice(game.to_move)
        game.act(seat, rng.choice(game.legal(seat)))
    return json.loads(json.dumps(game.to_json()))  # type: ignore[no-any-return]


def _places(value: Any, path: tuple[Any, ...] = ()) -> list[tuple[Any, ...]]:
    """Every path to a value inside a JSON document."""
    found = [path]
    if isinstance(value, dict):
        for key, item in value.items():
            found += _places(item, (*path, key))
    elif isinstance(value, list):
        for index, item in enumerate(value[:40]):
            found += _places(item, (*path, index))
    return found


def _mutate(document: dict[str, Any], rng: random.Random) -> dict[str, Any]:
    changed = copy.deepcopy(document)
    path = rng.choice(_places(changed)[1:])
    parent = changed
    for key in path[:-1]:
        parent = parent[key]
    key = path[-1]
    how = rng.randrange(5)
    if how == 0:
        parent[key] = rng.choice(_ODD)
    elif how == 1 and isinstance(parent[key], int) and not isinstance(parent[key], bool):
        parent[key] += rng.choice([-1, 1, 50])
    elif how == 2 and isinstance(parent, list):
        del parent[key]
    elif how == 3 and isinstance(parent, list):
        parent.insert(key, parent[key])
    elif isinstance(parent, dict):
        parent.pop(key) if rng.random() < 0.5 else parent.update({"extra": 1})
    else:
        parent[key] = rng.choice(_ODD)
    return changed


@_settings
@given(st.sampled_from(list(Variant)), st.integers(0, 2**16), st.integers(0, 80),
       st.integers(0, 2**32))
def test_a_saved_game_mutated_anywhere_is_read_back_or_refused_clearly(
    variant: Variant, seed: int, steps: int, mutation: int
) -> None:
    document = _saved(variant, seed, steps)
    changed = _mutate(document, random.Random(mutation))
    try:
        game = Game.from_json(changed)
    except Take5Error:
        return
    # Accepted: it is a state the rules reach, so it saves again and plays on.
    assert Game.from_json(game.to_json()) == game
    if game.phase is not Phase.OVER:
        seat = game.to_move[0]
        game.act(seat, game.legal(seat)[0])


@_settings
@given(st.dictionaries(st.sampled_from(["format", "version", "players", "rules", "phase",
                                        "round", "extra"]), st.sampled_from(_ODD)))
def test_garbage_is_never_a_saved_game(data: dict[str, Any]) -> None:
    try:
        Game.from_json(data)
    except Take5Error:
        pass
    else:
        raise AssertionError("garbage was read as a game")
