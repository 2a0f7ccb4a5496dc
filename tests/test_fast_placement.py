"""The validator's fast path places every card as the kernel does (issue 26's pinned copy).

:func:`take5rules.logs.fast.quick_turns` writes out :func:`~take5rules._kernel.target`,
:func:`~take5rules._kernel.put` and :func:`~take5rules._kernel.take` for speed. This copy is
pinned two ways:

* a differential test: random rounds of every variant's card range (the whole deck and the
  reduced decks of 2 to 10 players), played by :func:`~take5rules._kernel.resolve`, low cards
  and sixth cards included, are vouched for by the fast path with the same rows after each turn
  and the same bull heads (counted here from the rulebook), and refused when a claim is off;
* mutation (``logs/fast.py`` is outside the mutation targets of ``pyproject.toml``): each step
  of the copy changed (the rows ordered by their last cards, the row before the card's place
  among them, a low card's row moved first, the limits and the claims' checks), in a copy of
  the function's source, must fail the differential test.
"""

from __future__ import annotations

import inspect
import random
from collections.abc import Callable
from typing import Any

import pytest

from rulebook import heads
from take5rules import _kernel
from take5rules.logs import fast
from take5rules.logs.report import Findings
from take5rules.setup import cards_in_play
from take5rules.variants import PLAYER_RANGE, Rules, Variant

NAMES = ("ana", "bob", "cyd", "dan", "eve", "fay", "gus", "hal", "ivy", "jon")

QuickTurns = Callable[[Findings, dict[str, set[int]], list[list[int]], list[Any]],
                      dict[str, int] | None]


Round = tuple[dict[str, set[int]], list[tuple[int, ...]], list[dict[str, Any]], dict[str, int],
              list[tuple[int, ...]], set[str]]


def _chooser(picks: dict[str, int]) -> _kernel.Choose:
    """The low cards' rows: *picks* of each player."""
    return lambda player, _value, _now: picks[player]


def _round(rng: random.Random) -> Round:
    """A random round played by the kernel: hands, rows, turns (with every claim), the heads
    each player took, the rows at the end, and the placement rules it used."""
    variant = rng.choice(list(Variant))
    low, high = PLAYER_RANGE[variant]
    count = rng.randint(low, high)
    players = NAMES[:count]
    cards = list(cards_in_play(Rules(variant), count))
    rng.shuffle(cards)
    hands = {player: cards[10 * seat: 10 * seat + 10] for seat, player in enumerate(players)}
    rows: list[tuple[int, ...]] = [(card,) for card in cards[10 * count: 10 * count + 4]]
    start = [*rows]
    turns: list[dict[str, Any]] = []
    piles = dict.fromkeys(players, 0)
    rules: set[str] = set()
    for _ in range(rng.randint(1, 10)):
        plays = {}
        for player in players:
            hand = hands[player]
            # Often the lowest card, so that low cards come up in every round.
            card = min(hand) if rng.random() < 0.3 else rng.choice(hand)
            hand.remove(card)
            plays[player] = card
        picks = {player: rng.randrange(4) for player in players}
        records = _kernel.resolve(rows, plays.items(), _chooser(picks))
        takes = {record[0]: record[2] for record in records if record[4] == _kernel.LOW_CARD}
        taken = {record[0]: list(record[3]) for record in records if record[3]}
        for record in records:
            piles[record[0]] += sum(heads(card) for card in record[3])
            rules.add(record[4])
        turn: dict[str, Any] = {"plays": plays, "rows_after": [list(row) for row in rows],
                                "taken": taken}
        if takes:
            turn["takes"] = takes
        turns.append(turn)
    dealt = {player: set(cards[10 * seat: 10 * seat + 10]) for seat, player in enumerate(players)}
    return dealt, start, turns, piles, rows, rules


def _agrees(quick: QuickTurns, rng: random.Random) -> bool:
    """Whether *quick* vouches for a random round as the kernel plays it, and for no claim off."""
    hands, rows, turns, piles, after, _ = _round(rng)
    if quick(Findings(), {p: set(h) for p, h in hands.items()}, _lists(rows), turns) != piles:
        return False
    ending = _lists(rows)
    quick(Findings(), {p: set(h) for p, h in hands.items()}, ending, turns)
    if ending != _lists(after):
        return False
    # One claim off: a row after (a card added, or one written 3.0), or a low card's row
    # out of range; refused.
    turn = rng.choice(turns)
    broken = [{**item} for item in turns]
    index = turns.index(turn)
    if "takes" in turn and rng.random() < 0.5:
        player = rng.choice(list(turn["takes"]))
        broken[index]["takes"] = {**turn["takes"], player: rng.choice((-1, 4))}
    else:
        claim = [list(row) for row in turn["rows_after"]]
        place = rng.randrange(4)
        row = claim[place]
        kind = rng.random()
        if kind < 0.4:
            row.append(105)
        elif kind < 0.8:  # the same number, not a whole number (int): a float
            row[-1] = float(row[-1])
        else:  # the same cards, not in a list: in a subclass of list
            claim[place] = _Row(row)
        broken[index]["rows_after"] = claim
    return quick(Findings(), {p: set(h) for p, h in hands.items()}, _lists(rows), broken) is None


class _Row(list[int]):
    """A row equal to a list of cards, not a list: not what a log holds."""


def _lists(rows: list[tuple[int, ...]]) -> list[list[int]]:
    """The kernel's rows as the fast path keeps them, lists."""
    return [[*row] for row in rows]


def test_every_kind_of_placement_is_generated() -> None:
    """The rounds of the differential test hold low cards and sixth cards, in every variant."""
    rng = random.Random(26)
    used: set[str] = set()
    for _ in range(100):
        used |= _round(rng)[5]
    assert used == {_kernel.LEAST_DIFFERENCE, _kernel.SIXTH_CARD, _kernel.LOW_CARD}


def test_fast_placement_is_the_kernels() -> None:
    """1,000 random rounds: the fast path's rows and heads are the kernel's, claims off refused."""
    rng = random.Random(6)
    for _ in range(1000):
        assert _agrees(fast.quick_turns, rng)


#: Mutants of the copy: (text, replacement, which occurrence in quick_turns' source).
MUTANTS = [
    ("key=ends.__getitem__", "key=ends.__getitem__, reverse=True", 0),
    ("lasts = sorted(ends)", "lasts = ends", 0),
    ("if place:", "if not place:", 0),
    ("place -= 1", "place -= 0", 0),
    ("lasts[place] = value", "lasts[place] = row[-1]", 0),
    ("place = order.index(index)", "place = index", 0),
    ("del order[place], lasts[place]", "del order[place]", 0),
    ("order.insert(0, index)", "order.append(index)", 0),
    ("lasts.insert(0, value)", "lasts.append(value)", 0),
    ("not 0 <= index < ROWS", "not 0 <= index <= ROWS", 0),
    ("not 0 <= index < ROWS", "not 0 < index < ROWS", 0),
    ("len(row) < ROW_LIMIT", "len(row) <= ROW_LIMIT", 0),
    ("len(row) < ROW_LIMIT", "len(row) < ROW_LIMIT - 1", 0),
    ("row.append(value)", "row.insert(0, value)", 0),
    ("rows[index] = [value]", "rows[index] = [value, value]", 0),
    ("or after != rows:", "or after is rows:", 0),
    ("lists.extend(after)", "pass", 0),
    ("if lists and not (", "if lists and (", 0),
    ("_LIST.issuperset(map(type, lists))", "True", 0),
    ("_INT.issuperset(map(type, _flat(lists)))", "True", 0),
    ("sum(map(_heads_of, row))", "sum(map(_heads_of, row[1:]))", 0),
]


def _mutant(text: str, replacement: str, occurrence: int) -> QuickTurns:
    """quick_turns compiled from its source with the *occurrence*-th *text* replaced."""
    source = inspect.getsource(fast.quick_turns)
    start = -1
    for _ in range(occurrence + 1):
        start = source.index(text, start + 1)  # ValueError: the copy no longer has it
    source = source[:start] + replacement + source[start + len(text):]
    namespace = dict(vars(fast))
    exec(compile("from __future__ import annotations\n" + source, "<mutant>", "exec"),
         namespace)
    mutated: QuickTurns = namespace["quick_turns"]
    return mutated


def test_unmutated_copy_compiles_and_agrees() -> None:
    """The mutants' compiling itself changes nothing: the copy compiled unchanged agrees."""
    rng = random.Random(7)
    quick = _mutant("if place:", "if place:", 0)
    assert all(_agrees(quick, rng) for _ in range(200))


@pytest.mark.parametrize(("text", "replacement", "occurrence"), MUTANTS)
def test_every_mutant_of_the_copy_fails(text: str, replacement: str, occurrence: int) -> None:
    """Each step of the copy changed (an order, an index, a limit, a check) is caught."""
    quick = _mutant(text, replacement, occurrence)
    rng = random.Random(8)
    assert not all(_survives(quick, rng) for _ in range(1000))


def _survives(quick: QuickTurns, rng: random.Random) -> bool:
    """:func:`_agrees`, a crash of the mutant being a disagreement too."""
    try:
        return _agrees(quick, rng)
    except (IndexError, ValueError, TypeError):
        return False
