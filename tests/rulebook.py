"""The rulebook's facts that tests compare the package with, written here independently of it.

The tests state the rules' numbers from the rulebook, never by calling the code under test;
this is the one place in the test suite where those numbers are written. (The player programs
of ``tests/programs`` and ``tests/wrong_referees`` stand alone and keep their own.)
"""

from __future__ import annotations


def heads(card: int) -> int:
    """A card's bull heads from the rulebook's table (rule ``cards.bull-heads``).

    55 has 7, the other doubles (11, 22 ... 99) 5, the multiples of 10 have 3, the other
    multiples of 5 have 2, and every other card 1.

    >>> [heads(card) for card in (1, 5, 10, 11, 55, 100, 104)]
    [1, 2, 3, 5, 7, 3, 1]
    """
    if card == 55:
        return 7
    if card % 11 == 0:
        return 5
    if card % 10 == 0:
        return 3
    if card % 5 == 0:
        return 2
    return 1
