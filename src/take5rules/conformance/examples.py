"""The worked examples of the rule texts, in one place.

Every example that the founding texts and the publisher's booklet work through is one
:class:`WorkedExample` here: the rows before the turn, the cards played, the row a low card's
player takes, and the paragraph it comes from. The tests check what the engine makes of each,
the documentation draws them, the conformance vectors publish them, and ``take5rules conform``
sends them first.

The booklet's two "game tips" give the situation in words and pictures, not every card; the
rows below are the library's own, chosen to be exactly the situation the words describe.

>>> from take5rules.turn import resolve_turn
>>> turn = example("founding-4-17-90-93")
>>> resolve_turn(turn.table, dict(turn.plays)).table.rows
((3, 4, 17), (24,), (58, 90, 93), (96,))
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any

from take5rules._messages import N_
from take5rules.errors import MalformedInputError
from take5rules.registry import AMIGO, SEEDS, Source
from take5rules.table import Table

__all__ = ["WORKED_EXAMPLES", "WorkedExample", "example"]

_FR, _BG, _FR2, _IT, _EO = SEEDS


@dataclass(frozen=True, slots=True)
class WorkedExample:
    """One turn worked through by a rule text.

    ``plays`` are in seat order; ``choices`` give the row index (0..3) a low card's player takes.
    ``title`` is English, translated by the catalogs.
    """

    id: str
    rule: str
    title: str
    rows: tuple[tuple[int, ...], ...]
    plays: tuple[tuple[str, int], ...]
    sources: tuple[Source, ...]
    choices: Mapping[str, int] = field(default_factory=dict)

    @property
    def table(self) -> Table:
        """The checked table before the turn."""
        return Table.of(self.rows)

    @property
    def request(self) -> dict[str, Any]:
        """The turn as a referee-protocol request."""
        return {
            "rows": [list(row) for row in self.rows],
            "plays": [[player, card] for player, card in self.plays],
            "choices": dict(self.choices),
        }


WORKED_EXAMPLES: tuple[WorkedExample, ...] = (
    WorkedExample(
        "founding-4-17-90-93",
        "turn.order",
        N_("4 goes after the 3, 17 after the 4, 90 after the 58 (not on the row of 96), and "
           "93 after the 90"),
        ((3,), (24,), (58,), (96,)),
        (("ana", 93), ("bob", 4), ("cyd", 90), ("dan", 17)),
        (Source(_FR, "Jouer sa carte"), Source(_BG, "Играеща карта"),
         Source(_EO, "Ludante vian karton")),
    ),
    WorkedExample(
        "founding-low-2",
        "table.low-card",
        N_("the 2 is lower than every row's last card: its player takes the row holding only "
           "96, and the 2 starts it"),
        ((3, 12), (24,), (58, 61, 70), (96,)),
        (("ana", 17), ("bob", 2)),
        (Source(_FR, "Jouer une carte basse"), Source(_BG, "Игра на ниска карта"),
         Source(_EO, "Ludado de Malalta Karto")),
        {"bob": 3},
    ),
    WorkedExample(
        "founding-sixth-74",
        "table.sixth-card",
        N_("the 74 belongs after the 73 as the sixth card of its row: its player takes 51, 55, "
           "61, 68 and 73, 11 bull heads"),
        ((12,), (51, 55, 61, 68, 73), (80,), (96,)),
        (("ana", 74),),
        (Source(_FR, "Prendre 5"), Source(_BG, "Вземете 5"), Source(_EO, "Prenu 5")),
    ),
    WorkedExample(
        "italian-23",
        "table.least-difference",
        N_("a 23 facing rows that end in 12 and 20 goes after the 20"),
        ((12,), (20,), (43,), (58,)),
        (("ana", 23),),
        (Source(_IT, "AGGIUNTA DI SCHEDE AL LAYOUT"),),
    ),
    WorkedExample(
        "publisher-14-15-44-61",
        "table.least-difference",
        N_("rows ending in 12, 37, 43 and 58; the cards 14, 15, 44 and 61: 14 and 15 go after "
           "the 12, 44 after the 43, 61 after the 58"),
        ((12,), (37,), (43,), (58,)),
        (("ana", 44), ("bob", 14), ("cyd", 61), ("dan", 15)),
        (Source(AMIGO, "Rule 2: Lowest difference, example"),),
    ),
    WorkedExample(
        "publisher-45-sixth",
        "table.sixth-card",
        N_("the 45 would rather go on the third row, but the least difference sends it to the "
           "full fourth row, as its sixth card"),
        ((8,), (21, 27), (33, 35), (39, 40, 41, 42, 44)),
        (("ana", 45),),
        (Source(AMIGO, "Game tips: example 1"),),
    ),
    WorkedExample(
        "publisher-29-62",
        "turn.reveal",
        N_("the 62 looked safe after the 60, but the 29 takes the first row, so the 62 must "
           "go sixth on the full fourth row"),
        ((60,), (33, 36), (40,), (50, 52, 54, 56, 58)),
        (("ana", 62), ("bob", 29)),
        (Source(AMIGO, "Game tips: example 2"),),
        {"bob": 0},
    ),
)


def example(example_id: str) -> WorkedExample:
    """The worked example *example_id*.

    >>> example("publisher-45-sixth").rule
    'table.sixth-card'
    """
    for item in WORKED_EXAMPLES:
        if item.id == example_id:
            return item
    raise MalformedInputError(
        "registry",
        N_("unknown worked example {value!r}; the examples are {choices}"),
        value=example_id,
        choices=", ".join(item.id for item in WORKED_EXAMPLES),
    )
