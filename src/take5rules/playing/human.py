"""A person at the table: a :class:`.Player` that asks its decisions as text.

:class:`TextPlayer` shows the rows with their bull heads, the hand and the totals, asks for a
card (and, when the card is low, for a row; in the logic variant, for a draft pick), and asks
again after a wrong answer, saying what was wrong. It reads lines and writes text through two
functions, so that it works on a terminal, over a plain pipe (scripted, tested) or anywhere
else; it speaks the language it is given. End of input raises :class:`EndOfInputError`.

>>> answers = iter(["105", "57"])
>>> out: list[str] = []
>>> from take5rules.playing.players import CardView
>>> from take5rules.table import Table
>>> me = TextPlayer("me", "en", lambda: next(answers, None), out.append)
>>> me.choose_card(CardView(1, 1, Table.of([[3], [24], [58], [96]]), (2, 57), {"me": 0}))
57
>>> print(out[-2])
card 105 is not in your hand; play one of 2 and 57
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from typing import Any, TextIO

from take5rules._messages import N_, Nn_, shown
from take5rules.cards import bull_heads
from take5rules.errors import MalformedInputError, Where
from take5rules.events import CardsRevealed
from take5rules.playing.players import (
    CardView,
    DraftView,
    RowChoice,
    check_draft_view,
    check_view,
    empty_hand,
    empty_pool,
)
from take5rules.table import Table
from take5rules.text import narrate, translator

__all__ = ["MAX_ANSWER_CHARS", "EndOfInputError", "TextPlayer", "read_answer"]

#: The most characters of an answer line kept (64 KiB of ASCII, as the referee caps its
#: request lines at 64 KiB): the rest of a longer line is read and dropped, a piece at a time,
#: so that a line of any length takes no more memory than this.
MAX_ANSWER_CHARS = 65_536

_ROW = Nn_("row {row}: {cards} ({count} bull head)", "row {row}: {cards} ({count} bull heads)")
_HAND = N_("{player}, your hand: {cards}")
_HEADS = Nn_("{card} ({count} bull head)", "{card} ({count} bull heads)")
_TOTALS = N_("Totals: {totals}")
_TAKEN = N_("Taken this round (bull heads): {taken}")
_ASK_CARD = N_("Your card, {player}? ")
_ASK_ROW = N_("Your {card} is lower than the last card of every row: which row do you take, "
              "{player} (1 to {rows})? ")
_ASK_DRAFT = N_("{player}, take a card from the pool: {cards}? ")
_NOT_A_NUMBER = N_("{answer!r} is not a number; answer with a card of your hand")
_NOT_IN_HAND = N_("card {card} is not in your hand; play one of {cards}")
_NOT_IN_POOL = N_("card {card} is not in the pool; take one of {cards}")
_NOT_A_ROW = N_("{answer!r} is not a row; answer 1 to {rows}")
_ENDED = N_("end of input: {player} had a card or a row to choose, so the game stops here")


class EndOfInputError(MalformedInputError):
    """The person's input ended before the game did (id ``input``: no rule was broken)."""

    def __init__(self, template: str = _ENDED, /, *, where: Where | None = None,
                 **params: Any) -> None:
        super().__init__("input", template, where=where, **params)


def read_answer(stream: TextIO, limit: int = MAX_ANSWER_CHARS) -> str:
    """The next line of *stream*, cut to its first *limit* characters (``""`` at end of input).

    The rest of a longer line is read and dropped *limit* characters at a time, so that the
    memory taken stays within about *limit* characters whatever the line's length. A cut line
    keeps its new line, so that it is still one answer (a wrong one: no card has 65,536 digits).

    >>> import io
    >>> stream = io.StringIO("7" * 10 + chr(10) + "12" + chr(10))
    >>> [read_answer(stream, 4).strip() for _ in range(3)]
    ['7777', '12', '']
    """
    line = stream.readline(limit)
    if len(line) < limit or line.endswith("\n"):
        return line
    rest = line
    while rest and not rest.endswith("\n"):
        rest = stream.readline(limit)
    return line + "\n"


class TextPlayer:
    """A seat decided by a person: questions written with *write*, answers read with *read*.

    *read* returns the next line (``None`` at end of input); *write* prints a text, which ends
    with a space when it asks a question. A low card's turn is told before its question, and
    the ``(round, turn)`` is added to *told*: a narrator that tells the game's events too skips
    the reveals in *told* (the seats of one table share one set), so none is told twice.
    """

    def __init__(self, name: str, language: str, read: Callable[[], str | None],
                 write: Callable[[str], None], *,
                 told: set[tuple[int, int]] | None = None) -> None:
        self.name, self.language = name, language
        self._read, self._write = read, write
        self._tr = translator(language)
        self.told: set[tuple[int, int]] = set() if told is None else told

    def __repr__(self) -> str:
        return f"TextPlayer({self.name!r})"

    def _say(self, template: str, **params: object) -> str:
        return self._tr.gettext(template).format(**params)

    def _cards(self, values: Sequence[int]) -> str:
        return " ".join(self._tr.number(value) for value in values)

    def _show(self, table: Table, totals: Mapping[str, int] | None = None,
              taken: Mapping[str, Sequence[int]] | None = None) -> None:
        for index, row in enumerate(table.rows, start=1):
            heads = sum(bull_heads(card) for card in row)
            self._write(self._tr.ngettext(_ROW, heads).format(
                row=index, cards=self._cards(row), count=self._tr.number(heads)))
        if totals:
            listed = self._tr.list(f"{name} {self._tr.number(total)}"
                                   for name, total in totals.items())
            self._write(self._say(_TOTALS, totals=listed))
        if totals and taken is not None:
            # what each player has taken this round: the totals only grow when it is scored
            piles = [(name, tuple(taken.get(name, ()))) for name in totals]
            listed = self._tr.list(
                f"{name} {self._tr.number(sum(bull_heads(card) for card in pile))}"
                + (f" ({self._cards(pile)})" if pile else "") for name, pile in piles)
            self._write(self._say(_TAKEN, taken=listed))

    def _answer(self, question: str, where: Where) -> str:
        self._write(question)
        line = self._read()
        if line is None:
            raise EndOfInputError(_ENDED, where=where, player=self.name)
        return line.strip()

    def _number(self, question: str, where: Where, wrong: str, **params: object) -> int | None:
        answer = self._answer(question, where)
        if answer.isdigit() and len(answer) <= 4 and answer.isascii():
            return int(answer)
        self._write(self._say(wrong, answer=shown(answer), **params))
        return None

    def choose_card(self, view: CardView) -> int:
        """Show the table, the totals, what each player took this round; ask for a card.

        Asked again until a card of the hand comes.
        """
        if not view.hand:
            raise empty_hand(view.player or self.name)
        self._show(view.table, view.totals, view.taken)
        hand = self._cards(view.hand)
        self._write(self._say(_HAND, player=self.name, cards=hand))
        where = Where(view.round, view.turn, self.name)
        while True:
            card = self._number(self._say(_ASK_CARD, player=self.name), where, _NOT_A_NUMBER)
            if card in view.hand:
                return card
            if card is not None:
                self._write(self._say(_NOT_IN_HAND, card=card,
                                      cards=self._tr.cards(view.hand)))

    def choose_row(self, choice: RowChoice) -> int:
        """Show this turn's cards and the rows; ask which row (1 to 4, as people count) to take."""
        check_view(choice, whole=False)
        if (choice.revealed and choice.round is not None and choice.turn is not None
                and (choice.round, choice.turn) not in self.told):
            # the turn is told before the question (the engine yields it after the turn)
            self.told.add((choice.round, choice.turn))
            self._write(narrate(CardsRevealed(choice.round, choice.turn, choice.revealed[-1]),
                                self.language))
        self._show(choice.table)
        rows = len(choice.table.rows)
        where = Where(choice.round, choice.turn, self.name, choice.card)
        question = self._say(_ASK_ROW, card=choice.card, player=self.name, rows=rows)
        while True:
            row = self._number(question, where, _NOT_A_ROW, rows=rows)
            if row is not None and 1 <= row <= rows:
                return row - 1
            if row is not None:
                self._write(self._say(_NOT_A_ROW, answer=str(row), rows=rows))

    def choose_draft(self, view: DraftView) -> int:
        """Show the pool with each card's bull heads; ask for one of its cards until one comes."""
        check_draft_view(view)
        if not view.pool:
            raise empty_pool(view.player or self.name)
        if view.hand:
            self._write(self._say(_HAND, player=self.name, cards=self._cards(view.hand)))
        where = Where(view.round, None, self.name)
        pool = ", ".join(self._tr.ngettext(_HEADS, bull_heads(card)).format(
            card=self._tr.number(card), count=self._tr.number(bull_heads(card)))
            for card in view.pool)  # each card with its bull heads, as the rows are shown
        question = self._say(_ASK_DRAFT, player=self.name, cards=pool)
        while True:
            card = self._number(question, where, _NOT_A_NUMBER)
            if card in view.pool:
                return card
            if card is not None:
                self._write(self._say(_NOT_IN_POOL, card=card,
                                      cards=self._tr.cards(view.pool)))
