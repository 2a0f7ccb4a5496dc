"""The batch's one placement kernel, called directly on a table built by hand.

Two games whose outcome is worked out from the rulebook (the expected rows, bull heads, rows
taken and rules are written out below, not computed), placed by
:func:`take5rules.agents.batch.placement.place_turn` both ways it runs: numpy with one lane of
every game, and compiled by numba a game a lane.
"""

from __future__ import annotations

import pytest

pytest.importorskip("numpy", reason="the batched simulator needs numpy (take5rules[batch])")

import numpy as np
from numpy.typing import NDArray

from take5rules.agents.batch import placement as _kernel

KERNELS = ["numpy", "compiled"] if _kernel.numba is not None else ["numpy"]


@pytest.fixture(autouse=True, params=KERNELS)
def kernel(request: pytest.FixtureRequest, monkeypatch: pytest.MonkeyPatch) -> str:
    """Every test here runs with the numpy kernel and, when numba is installed, the compiled one."""
    monkeypatch.setattr(_kernel, "AVAILABLE", request.param == "compiled")
    return str(request.param)


#: Game 0 of the table: its rows, and the cards seats 0 to 3 reveal, highest first. Placed
#: lowest first, 9 goes on 8, then 20, 30 and 40 each on the card before: the row reaches five
#: cards and takes nothing.
ROWS_0 = [[5], [6], [7], [8]]
PLAYED_0 = [40, 30, 20, 9]
#: Game 1: seat 1's 2 is below every row (a low card: it takes the row its player names,
#: row 2, the 50 worth 3 bull heads); seat 0's 15 is the sixth card of row 1 and takes
#: 10, 11, 12, 13 and 14 (3 + 5 + 1 + 1 + 1 = 11 bull heads); then 51 goes on the 15, 71 on 70.
ROWS_1 = [[3], [10, 11, 12, 13, 14], [50], [70]]
PLAYED_1 = [15, 2, 51, 71]
#: Bull heads of the cards above (rule cards.bull-heads: 55 is 7, multiples of 11 are 5, of
#: 10 are 3, of 5 are 2, the rest 1).
HEADS = {2: 1, 3: 1, 5: 2, 6: 1, 7: 1, 8: 1, 9: 1, 10: 3, 11: 5, 12: 1, 13: 1, 14: 1, 15: 2,
         20: 3, 30: 3, 40: 3, 50: 3, 51: 1, 70: 3, 71: 1}


def _table() -> tuple[NDArray[np.int8], NDArray[np.int8], NDArray[np.int16]]:
    cells = np.zeros((2, 4, 5), np.int8)
    lengths = np.zeros((2, 4), np.int8)
    heads = np.zeros((2, 4), np.int16)
    for game, rows in enumerate((ROWS_0, ROWS_1)):
        for row, cards in enumerate(rows):
            cells[game, row, : len(cards)] = cards
            lengths[game, row] = len(cards)
            heads[game, row] = sum(HEADS[card] for card in cards)
    return cells.reshape(-1), lengths.reshape(-1), heads.reshape(-1)


def _rows(cells: NDArray[np.int8], lengths: NDArray[np.int8], game: int) -> list[list[int]]:
    return [
        [int(c) for c in cells.reshape(2, 4, 5)[game, row, : lengths.reshape(2, 4)[game, row]]]
        for row in range(4)
    ]


def test_a_turn_waits_for_a_low_cards_row_then_places_every_card_by_the_rules() -> None:
    cells, lengths, heads = _table()
    before = cells.copy(), lengths.copy(), heads.copy()
    # The lanes in another order than the table's games: lane 0 is game 1.
    games = np.array([1, 0], np.int64)
    played = np.array([PLAYED_1, PLAYED_0], np.int64)
    rows = np.full(2, _kernel.UNASKED, np.int64)
    keys, marks = _kernel.scratch(2, 4)
    taken = np.full(8, -9, np.int16)
    went, rule = np.full(8, -9, np.int64), np.full(8, -9, np.int64)
    piles, filled = np.full(2 * 4 * 5, -9, np.int64), np.zeros(1, np.int64)
    outputs = (taken, went, rule, piles, filled, 100)
    table = (cells, lengths, heads, games, played, rows, keys, marks)

    # Game 1's lowest card is low and its row not chosen: nothing is placed in either game.
    assert _kernel.place(*table, False, *outputs) == 1
    assert rows.tolist() == [_kernel.WAITING, _kernel.UNASKED]
    assert int(keys[0, 0]) == 2 * 16 + 1  # the low card 2, of seat 1
    assert [a.tolist() for a in (cells, lengths, heads)] == [a.tolist() for a in before]
    assert int(filled[0]) == 0

    rows[0] = 2
    assert _kernel.place(*table, True, *outputs) == 0
    assert _rows(cells, lengths, 0) == [[5], [6], [7], [8, 9, 20, 30, 40]]
    assert _rows(cells, lengths, 1) == [[3], [15, 51], [2], [70, 71]]
    assert heads.tolist() == [2, 1, 1, 1 + 1 + 3 + 3 + 3, 1, 2 + 1, 1, 3 + 1]
    # taken, went and rule at game * 4 + seat: game 0's seats, then game 1's.
    assert taken.tolist() == [0, 0, 0, 0, 11, 3, 0, 0]
    assert went.tolist() == [3, 3, 3, 3, 1, 2, 1, 3]
    assert rule.tolist() == [0, 0, 0, 0, 1, 2, 0, 0]
    # Each card taken as ((first + game) * players + seat) * 105 + card, game 1 seats 0 and 1.
    assert int(filled[0]) == 6
    seat_0, seat_1 = (101 * 4 + 0) * 105, (101 * 4 + 1) * 105
    assert sorted(piles[:6].tolist()) == sorted(
        [seat_0 + card for card in (10, 11, 12, 13, 14)] + [seat_1 + 50]
    )


def test_a_turn_with_its_low_cards_row_given_places_at_once_without_outputs() -> None:
    cells, lengths, heads = _table()
    games = np.array([0, 1], np.int64)
    played = np.array([PLAYED_0, PLAYED_1], np.int64)
    rows = np.array([_kernel.UNASKED, 0], np.int64)  # game 1's low card takes row 0 (the 3)
    keys, marks = _kernel.scratch(2, 4)
    taken = np.full(8, -9, np.int16)
    empty = np.empty(0, np.int64)
    outputs = (taken, empty, empty, empty, np.zeros(1, np.int64), 0)
    assert _kernel.place(cells, lengths, heads, games, played, rows, keys, marks, False,
                         *outputs) == 0
    # 2 takes the 3; 15 still takes row 1; 51 now goes on 50 (the least difference); 71 on 70.
    assert _rows(cells, lengths, 1) == [[2], [15], [50, 51], [70, 71]]
    assert taken.tolist() == [0, 0, 0, 0, 11, 1, 0, 0]
    assert heads.tolist()[4:] == [1, 2, 3 + 1, 3 + 1]
