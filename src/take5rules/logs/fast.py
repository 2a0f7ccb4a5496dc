"""The validator's fast path: a whole round replayed on plain ints, for a round that breaks no rule.

:func:`quick_deal` and :func:`quick_turns` answer only whether a round breaks no rule, and
what each player took; a round they do not vouch for is replayed again by the rule functions
(:mod:`take5rules.logs.round_check`), which find and name every violation. Differential tests pin
the two to the same reports on valid logs, on logs broken by every defect of
:mod:`take5rules.conformance.defects` and on logs mutated at random in every field.
"""

from __future__ import annotations

from bisect import bisect_left
from collections.abc import Collection, Iterable, Iterator, Mapping, Sequence
from itertools import chain
from operator import itemgetter
from typing import Any

from take5rules._kernel import HEADS, ROW_LIMIT, ROWS
from take5rules.cards import Card
from take5rules.errors import LogError, Take5Error
from take5rules.logs.report import Findings
from take5rules.logs.structure import check_turns
from take5rules.setup import check_deal
from take5rules.variants import Rules, Variant

__all__ = ["Rounds", "quick_deal", "quick_turns"]

#: A play's card, the key that sorts the plays lowest card first; a row's last card.
_card_of = itemgetter(1)
_last_of = itemgetter(-1)
#: The type of a card; of a list of cards.
_INT = frozenset({int})
_LIST = frozenset({list})
_flat = chain.from_iterable
#: The bull heads of a card (rule ``cards.bull-heads``), looked up.
_heads_of = HEADS.__getitem__
#: How many of the ascending last cards of the rows are lower than a card.
_below = bisect_left
#: The rules a round's turns exercise, by the kinds of placement seen (1: a card put on a
#: row, 2: a sixth card, 4: a low card, added up).
_EXERCISED = tuple(
    frozenset({"round.end", "turn.reveal", "turn.order", "table.ascending"}
              | {rule for bit, rule in ((1, "table.least-difference"), (2, "table.sixth-card"),
                                        (4, "table.low-card")) if kinds & bit})
    for kinds in range(8)
)
#: The rules a deal exercises.
_DEALT = frozenset({"setup.deal", "cards.deck"})


def quick_deal(
    findings: Findings, rules: Rules, players: tuple[str, ...], entry: Mapping[str, Any],
) -> tuple[dict[str, list[Card]], list[list[Card]]] | None:
    """The hands and rows (lists, copies) of a deal (not a draft) that breaks no rule, or ``None``.

    The deal is checked by :func:`~take5rules.setup.check_deal`, the one check of a deal (the
    full replay names its error): four rows of one card, one hand of ten for each player,
    distinct cards, all in play. A drafted round, and a tournament's later games (their hands
    are passed on), are left to the full replay.
    """
    standard = rules.variant is Variant.STANDARD  # dealt from the whole deck
    if (not standard and rules.drafted) or "draft" in entry:
        return None
    try:
        table, hands = check_deal(entry["rows"], entry["hands"], players, rules, fresh=True)
    except Take5Error:
        return None
    findings.used |= _DEALT
    if not standard:  # the reduced deck
        findings.use("variants.tactics")
    return dict(zip(hands, map(list, hands.values()), strict=True)), list(map(list, table.rows))


def quick_turns(
    findings: Findings, hands: Mapping[str, set[Card] | list[Card]], rows: list[list[Card]],
    turns: Sequence[Any], *, plain: bool = False,
) -> dict[str, int] | None:
    """Each player's bull heads after *turns*, if no turn breaks a rule, else ``None``.

    :func:`~take5rules.round.play_turn` and the claims' checks, on plain ints: every card from its
    player's hand, placed lowest first on the row ending closest below it, a sixth card or a
    low card taking its row; ``takes`` exactly for the low cards; the claims equal to what the
    rules give (an empty ``taken`` list is taking nothing). *rows* (lists, as ``rows_after``
    writes them) and *hands* are changed in place.

    The placement is the kernel's (:func:`~take5rules._kernel.target`, then
    :func:`~take5rules._kernel.put` or :func:`~take5rules._kernel.take`) written out: one copy
    kept for speed (two calls a card cost about a tenth of the validator's time), pinned to
    :func:`~take5rules._kernel.resolve` by mutation, in ``tests/test_fast_placement.py``: a
    differential test over random turns of every variant's card range, and each step of the
    copy changed must fail it. The row of a card is found by bisection among the rows' last
    cards, kept in ascending order.

    The turns' shape is checked on the way (what
    :func:`~take5rules.logs.structure.check_turns` checks: objects, members, whole numbers,
    lists): a round it vouches for has well-formed turns, and any other is checked by
    :func:`~take5rules.logs.structure.check_turns`, which names the first problem.

    *plain* says that *turns* were read from JSON holding no ``true``, NaN, Infinity or number
    with a fraction or exponent (:attr:`take5rules.logs.reader.LogStream.plain`): then a value
    found equal to a card or to a list of cards (a card found in its player's hand, a
    ``rows_after`` equal to the rows, a ``taken`` equal to what was taken) is an int or a list
    of ints, the JSON having no other value equal to a card (``false`` equals 0, which is
    none), and its type is not looked at. Otherwise each turn's cards are type-checked at once,
    and the lists found equal to the rules' once a round.
    """
    seats = hands.keys()
    piles = dict.fromkeys(hands, 0)
    kinds = 0
    taking = 0  # the cards that took a row (the others were put on one)
    # The rows' indices, by their last cards; and those cards, in that order.
    ends = list(map(_last_of, rows))
    order = sorted(range(ROWS), key=ends.__getitem__)
    lasts = sorted(ends)
    lists: list[Any] = []  # the claimed lists whose types are to be looked at
    for turn in turns:
        if type(turn) is not dict:
            return None
        plays = turn.get("plays")
        takes = turn.get("takes")
        claimed = turn.get("taken")
        after = turn.get("rows_after")
        # The members: plays, and each other member counted if it is not null; so no other
        # member (TURN_MEMBERS), and none null.
        if len(turn) != 1 + (takes is not None) + (claimed is not None) + (after is not None) \
                or type(plays) is not dict or plays.keys() != seats \
                or (takes is not None and type(takes) is not dict):
            return None
        # What each player took this turn (one card a turn: at most one row each), as the
        # log's lists, kept only when the log claims some taking to compare.
        taken: dict[str, list[Card]] | None = {} if claimed else None
        lows = 0
        # The cards are ints (in a plain log, a value found in its player's hand is one).
        if not plain and not _INT.issuperset(map(type, plays.values())):
            return None
        try:
            ordered = sorted(plays.items(), key=_card_of)
        except TypeError:  # values that do not compare: not cards
            return None
        for player, value in ordered:
            try:
                hands[player].remove(value)
            except (KeyError, ValueError, TypeError):  # not in the hand (of either kind)
                return None
            # The placement, _kernel.target then put or take written out (this is every card
            # the validator replays): pinned to _kernel.resolve by tests/test_fast_placement.py.
            # The row ending closest below the card is the one before its place among the last
            # cards, kept in order (a card put on a row, or starting it again after its sixth
            # card, ends it between the same neighbours; a low card's row goes first).
            place = _below(lasts, value)
            if place:
                place -= 1
                index = order[place]
                row = rows[index]
                lasts[place] = value
                if len(row) < ROW_LIMIT:
                    row.append(value)
                    continue
                kinds |= 2
                taking += 1
            else:
                if not takes or player not in takes:
                    return None
                index = takes[player]
                if type(index) is not int or not 0 <= index < ROWS:
                    return None
                lows += 1
                kinds |= 4
                taking += 1
                row = rows[index]
                place = order.index(index)
                del order[place], lasts[place]
                order.insert(0, index)
                lasts.insert(0, value)
            rows[index] = [value]
            piles[player] += sum(map(_heads_of, row))
            if taken is not None:
                taken[player] = row  # no longer on the table: never changed again
            elif claimed is not None:  # the log claims nobody took anything
                return None
        if takes and len(takes) != lows:
            return None
        # rows_after: a list (equal to the four rows, so of four items) of four lists of
        # whole numbers (int: 3.0 and True, equal to 3 and 1, are not; a claim that is not,
        # not vouched for, is judged by the rule functions), equal to the rows.
        # In a plain log, a value equal to the rows is that (lists of ints): not checked again.
        if after is not None:
            if type(after) is not list or after != rows:
                return None
            if not plain:
                lists.extend(after)  # their types looked at once, for the round
        # The claim (none taken: {}, the common case) as taken; in a plain log, a claim equal
        # to what was taken is lists of ints.
        if claimed is not None:
            if type(claimed) is not dict:
                return None
            if claimed:
                if claimed == taken:
                    if not plain:
                        lists.extend(claimed.values())
                elif not _claims_are(claimed, taken, seats):
                    return None
    # The lists of rows_after and of taken equal to the rules' (so lists, when not plain, only
    # as far as equality goes): lists of ints, each item looked at once, here.
    if lists and not (_LIST.issuperset(map(type, lists))
                      and _INT.issuperset(map(type, _flat(lists)))):
        return None
    if turns:
        if len(seats) * len(turns) > taking:  # some card was put on a row, not taking it
            kinds |= 1
        findings.used |= _EXERCISED[kinds]
    return piles


def _claims_are(
    claimed: dict[str, Any], taken: dict[str, list[Card]] | None, seats: Collection[str],
) -> bool:
    """Whether the ``taken`` claim *claimed* (an object) holds lists of whole numbers, as taken.

    The claim as written (each row's cards in their order) is compared first, then in any
    order (:func:`_claims_taken`).
    """
    listed = claimed.values()
    if not _LIST.issuperset(map(type, listed)) or not _INT.issuperset(map(type, _flat(listed))):
        return False
    return not claimed or claimed == taken or _claims_taken(claimed, taken or {}, seats)


def _claims_taken(
    claimed: Mapping[str, Any], taken: Mapping[str, list[Card]], seats: Collection[str],
) -> bool:
    """Whether the ``taken`` claim of a turn lists what each player took (in any order).

    An empty list is taking nothing; every name is a player's.
    """
    for player, values in claimed.items():
        actual = taken.get(player)
        if player not in seats or (
            sorted(values) != sorted(actual) if actual is not None else values
        ):
            return False
    return claimed.keys() >= taken.keys()


class Rounds:
    """The rounds of a log as the validator takes them, each round's turns checked in place.

    The reader (and :func:`~take5rules.logs.validator.validate`) hand over each round with
    the shape of its turns not checked yet: :func:`quick_turns` checks it as it replays a round
    it vouches for, and the validator calls :meth:`settle` for any other round before the rule
    functions see it. Taking the next round may raise the :class:`LogError` of a later problem
    (the next round's shape, the JSON after it); the turns of the rounds handed over before it
    are checked first, so the problem raised is the first in the log, as when each round is
    checked whole as it is read.
    """

    def __init__(self, rounds: Iterable[Mapping[str, Any]], names: frozenset[str]) -> None:
        self._source = iter(rounds)
        self._names = names
        self._count = 0
        #: The rounds handed over whose turns are neither checked nor vouched for, and their
        #: indices (at most the one being checked and the one read ahead).
        self._open: list[tuple[Mapping[str, Any], int]] = []

    def __iter__(self) -> Iterator[Mapping[str, Any]]:
        return self

    def __next__(self) -> Mapping[str, Any]:
        try:
            entry = next(self._source)
        except LogError:
            while self._open:
                self.settle(self._open[0][0])
            raise
        self._open.append((entry, self._count))
        self._count += 1
        return entry

    def vouched(self, entry: Mapping[str, Any]) -> None:
        """Note that :func:`quick_turns` vouched for the turns of *entry* (so checked them)."""
        opened = self._open
        if opened and opened[0][0] is entry:  # the round being checked: the first one open
            del opened[0]
        else:
            self._open = [item for item in opened if item[0] is not entry]

    def settle(self, entry: Mapping[str, Any]) -> None:
        """Check the shape of the turns of *entry*, a round handed over (a :class:`LogError`)."""
        for item in self._open:
            if item[0] is entry:
                self.vouched(entry)
                check_turns(entry, item[1], self._names)
                return

    def rest(self) -> int:
        """Check the turns of every round left, handed over or not; how many were not."""
        while self._open:
            self.settle(self._open[0][0])
        count = 0
        for entry in self:
            self.settle(entry)
            count += 1
        return count
