"""Random referee requests from a seeded :class:`random.Random`: fast, reproducible, no Hypothesis.

:func:`random_request` draws one valid line-protocol request (see
:mod:`take5rules.conformance.referee`)
with the same shape and the same bias towards the hard cases as the Hypothesis strategy
:func:`take5rules.conformance.strategies.requests`:

* four ascending rows of one to five distinct cards, rows of five three times as likely as any
  other length (so that sixth cards happen);
* 2 to 10 plays in seat order (players :data:`PLAYER_NAMES`), distinct cards not on the table;
  in half of the turns low cards (below every row's last card) are frequent, and cards just
  above a row's last card always are;
* a row choice 0..3 for every player (only the lowest card's player can need theirs: once the
  lowest card has started a row, every higher card fits somewhere).

The same generator state gives the same requests, so ``take5rules conform --seed N`` sends the
same turns every time.

>>> import random
>>> rng = random.Random(7)
>>> first = random_request(rng)
>>> first == random_request(random.Random(7))
True
>>> from take5rules.conformance.referee import answer
>>> all("error" not in answer(random_request(rng)) for _ in range(200))
True
"""

from __future__ import annotations

import random
from typing import Any

from take5rules._kernel import HIGHEST, MOST_PLAYERS, ROWS, integral
from take5rules._messages import N_
from take5rules.errors import MalformedInputError

__all__ = ["PLAYER_NAMES", "check_play_counts", "random_request"]

#: The player ids of generated turns, in seat order: one for each of at most ten players.
PLAYER_NAMES = ("ana", "bob", "cyd", "dan", "eve", "fay", "gus", "hal", "ivy", "jon")
assert len(PLAYER_NAMES) == MOST_PLAYERS

#: Row lengths to draw from: five is three times as likely as any other length.
ROW_LENGTHS = (1, 2, 3, 4, 5, 5, 5)

#: How far above a row's last card a "near" card may be.
NEAR = 6

_DECK = range(1, HIGHEST + 1)


def check_play_counts(least: object, most: object) -> tuple[int, int]:
    """Check the bounds of a generated turn's plays: 1 <= *least* <= *most* <= 10 (``argument``).

    >>> check_play_counts(2, 10)
    (2, 10)
    >>> check_play_counts(3, 2)
    Traceback (most recent call last):
    ...
    take5rules.errors.MalformedInputError: plays 3 to 2: a turn has 1 to 10 plays, the least \
first [argument]
    """
    low, high = integral(least), integral(most)
    if low is None or high is None or not 1 <= low <= high <= MOST_PLAYERS:
        raise MalformedInputError(
            "argument",
            N_("plays {least!r} to {most!r}: a turn has 1 to 10 plays, the least first"),
            least=least, most=most,
        )
    return low, high


def random_request(rng: random.Random, min_plays: int = 2, max_plays: int = 10) -> dict[str, Any]:
    """One valid referee request drawn from *rng* (see the module docstring).

    Raises:
        MalformedInputError: unless 1 <= *min_plays* <= *max_plays* <= 10 (``argument``).
    """
    min_plays, max_plays = check_play_counts(min_plays, max_plays)
    choice = rng.choice
    lengths = [choice(ROW_LENGTHS) for _ in range(ROWS)]
    pool = rng.sample(_DECK, sum(lengths))
    rows: list[list[int]] = []
    start = 0
    for length in lengths:
        rows.append(sorted(pool[start:start + length]))
        start += length
    on_table = set(pool)
    lasts = [row[-1] for row in rows]
    lowest = min(lasts)
    free = [value for value in _DECK if value not in on_table]
    branches = [free]
    near = [value for value in free if any(0 < value - last <= NEAR for last in lasts)]
    if near:
        branches.append(near)
    low = [value for value in free if value < lowest]
    if low and rng.random() < 0.5:
        branches.append(low)
    count = rng.randint(min_plays, max_plays)
    values: list[int] = []
    seen: set[int] = set()
    while len(values) < count:
        value = choice(choice(branches))
        if value not in seen:
            seen.add(value)
            values.append(value)
    players = PLAYER_NAMES[:count]
    return {
        "rows": rows,
        "plays": [[player, value] for player, value in zip(players, values, strict=True)],
        "choices": {player: rng.randrange(ROWS) for player in players},
    }
