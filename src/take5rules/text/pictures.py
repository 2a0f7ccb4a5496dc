"""Pictures of the table: the four rows drawn as SVG, and a turn drawn placement by placement.

:func:`to_svg` draws a :class:`~take5rules.table.Table` as four rows of cards. Each card shows
its number and its bull heads as small drawn symbols, on the colour of its bull-head class, as
on the real cards: 1 white, 2 light blue, 3 yellow, 5 red, 7 purple. A dashed sixth slot at the
end of each row recalls that a sixth card takes the row. :func:`turn_svgs` draws a turn with
:func:`~take5rules.turn.resolve_turn`: the table before the turn, then after each placement.

The pictures are accessible (``role="img"``, an ``aria-label`` and a ``<title>``), use no
script, no external font and no ``id`` (so that many can share one HTML page), and are
deterministic: the same table always gives the same text. Default captions are
language-neutral (numbers and arrows); pass a caption to say it in words.

>>> import xml.etree.ElementTree as ET
>>> from take5rules.table import Table
>>> svg = to_svg(Table.of([[3, 4, 17], [24], [58, 90, 93], [96]]), highlight=93)
>>> root = ET.fromstring(svg)
>>> root.get("aria-label")
'1: 3 4 17 | 2: 24 | 3: 58 90 93 | 4: 96'
>>> [card.get("data-card") for card in root.iter(f"{{{SVG_NS}}}g")
...  if card.get("class") == "card highlight"]
['93']
>>> len(turn_svgs(Table.of([[3], [24], [58], [96]]), {"ana": 93, "bob": 4, "cyd": 90, "dan": 17}))
5
"""

from __future__ import annotations

import textwrap
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from xml.sax.saxutils import escape, quoteattr

from take5rules._messages import N_
from take5rules.cards import Card, bull_heads, total_bull_heads
from take5rules.errors import MalformedInputError
from take5rules.table import ROW_LIMIT, Placement, Table
from take5rules.turn import LowCard, no_row_choice, placement_order, resolve_turn

__all__ = [
    "CARD_STYLES",
    "SVG_NS",
    "CardStyle",
    "placement_caption",
    "table_caption",
    "to_svg",
    "turn_caption",
    "turn_svgs",
]

#: The SVG namespace.
SVG_NS = "http://www.w3.org/2000/svg"


@dataclass(frozen=True, slots=True)
class CardStyle:
    """The colours of a card of one bull-head class: face, border and ink (number and heads)."""

    face: str
    border: str
    ink: str


#: Colours by bull-head count, like the printed cards (ink chosen for contrast on the face).
CARD_STYLES: Mapping[int, CardStyle] = {
    1: CardStyle("#f5f5f2", "#8a8a86", "#1b1b1b"),
    2: CardStyle("#b7dcf4", "#3f7fae", "#0d2638"),
    3: CardStyle("#f8dc55", "#a88600", "#2a2200"),
    5: CardStyle("#cf3b32", "#7f1812", "#ffffff"),
    7: CardStyle("#7b3b97", "#45195a", "#ffffff"),
}

_CARD_W = 40
_CARD_H = 56
_GAP = 6
_LABEL_W = 22
_MARGIN = 8
_STEP_X = _CARD_W + _GAP
_STEP_Y = _CARD_H + _GAP
_HEADS_PER_LINE = 4
_CAPTION_LINE = 17
_CAPTION_CHAR = 7.0
_BACKGROUND = "#edf3ee"
_FRAME = "#9db5a3"
_LABEL_INK = "#33443a"
_HIGHLIGHT = "#e8590c"
_FONT = "system-ui, -apple-system, 'Segoe UI', Roboto, 'DejaVu Sans', 'Noto Sans', sans-serif"


def _num(value: float) -> str:
    """A coordinate written the same way every time: at most two decimals, no trailing zeros."""
    text = f"{value:.2f}".rstrip("0").rstrip(".")
    return "0" if text == "-0" else text


def table_caption(table: Table) -> str:
    """The language-neutral description of a table: each row's number and cards.

    >>> table_caption(Table.of([[3, 12], [24], [58, 61, 70], [96]]))
    '1: 3 12 | 2: 24 | 3: 58 61 70 | 4: 96'
    """
    return " | ".join(
        f"{index}: " + " ".join(str(value) for value in row)
        for index, row in enumerate(table.rows, start=1)
    )


def _bull_head(cx: float, cy: float, ink: str) -> str:
    """One small bull head: a round face under a pair of horns."""
    horns = (
        f"M{_num(cx - 3.8)} {_num(cy - 2.9)}Q{_num(cx - 3.5)} {_num(cy + 0.5)} "
        f"{_num(cx)} {_num(cy + 0.2)}Q{_num(cx + 3.5)} {_num(cy + 0.5)} "
        f"{_num(cx + 3.8)} {_num(cy - 2.9)}"
    )
    return (
        f'<path d="{horns}" fill="none" stroke="{ink}" stroke-width="1.1" '
        f'stroke-linecap="round"/>'
        f'<circle cx="{_num(cx)}" cy="{_num(cy + 1.5)}" r="2.2" fill="{ink}"/>'
    )


def _card(value: Card, x: float, y: float, *, highlight: bool = False, faded: bool = False) -> str:
    """One card at (x, y): its face, its bull heads in lines of four, and its number."""
    heads = bull_heads(value)
    style = CARD_STYLES[heads]
    classes = "card highlight" if highlight else "card"
    opacity = ' opacity="0.6"' if faded else ""
    stroke = _HIGHLIGHT if highlight else style.border
    width = "3" if highlight else "1.2"
    parts = [
        f'<g class="{classes}" data-card="{value}" data-bull-heads="{heads}" '
        f'transform="translate({_num(x)} {_num(y)})"{opacity}>',
        f'<rect width="{_CARD_W}" height="{_CARD_H}" rx="5" fill="{style.face}" '
        f'stroke="{stroke}" stroke-width="{width}"/>',
    ]
    lines = [min(_HEADS_PER_LINE, heads - start) for start in range(0, heads, _HEADS_PER_LINE)]
    for line, count in enumerate(lines):
        first = _CARD_W / 2 - (count - 1) * 4.5
        parts.extend(_bull_head(first + 9 * i, 8 + 8 * line, style.ink) for i in range(count))
    parts.append(
        f'<text x="{_CARD_W / 2:g}" y="{_CARD_H - 11}" text-anchor="middle" font-size="18" '
        f'font-weight="700" fill="{style.ink}">{value}</text>'
    )
    parts.append("</g>")
    return "".join(parts)


def _strip(label: str, values: Sequence[Card], y: float, css: str, *, faded: bool) -> str:
    """A line of loose cards (waiting to be placed, or taken) with a one-glyph label."""
    parts = [
        f'<g class="{css}">',
        f'<text x="{_num(_MARGIN + _LABEL_W / 2)}" y="{_num(y + _CARD_H / 2 + 6)}" '
        f'text-anchor="middle" font-size="16" fill="{_LABEL_INK}">{escape(label)}</text>',
    ]
    parts.extend(
        _card(value, _MARGIN + _LABEL_W + _STEP_X * index, y, faded=faded)
        for index, value in enumerate(values)
    )
    parts.append("</g>")
    return "".join(parts)


def to_svg(
    table: Table,
    *,
    highlight: int | None = None,
    caption: str | None = None,
    pending: Sequence[Card] = (),
    taken: Sequence[Card] = (),
) -> str:
    """Draw *table* as an SVG picture: four numbered rows of cards and a dashed sixth slot.

    Args:
        table: The four rows to draw.
        highlight: A card to outline (the card just placed, say); ignored if not on the table.
        caption: Text written under the rows and used as the accessible name; by default the
            language-neutral :func:`table_caption`.
        pending: Cards still to be placed this turn, drawn in a line under the rows after "▶".
        taken: Cards just taken into a bull pile, drawn faded in a line after "✕".

    Returns:
        The ``<svg>`` element as text, with no XML declaration, ready to inline in HTML.

    >>> svg = to_svg(Table.of([[55], [10], [11], [5]]), caption="Four rows & a caption")
    >>> svg.count('class="card"'), '<title>Four rows &amp; a caption</title>' in svg
    (4, True)
    >>> to_svg(Table.of([[55], [10], [11], [5]])) == to_svg(Table.of([[55], [10], [11], [5]]))
    True
    """
    text = caption if caption is not None else table_caption(table)
    rows_width = _MARGIN * 2 + _LABEL_W + _STEP_X * (ROW_LIMIT + 1) - _GAP
    strip_width = _MARGIN * 2 + _LABEL_W + _STEP_X * max(len(pending), len(taken)) - _GAP
    width = max(rows_width, strip_width)
    strips = [
        (label, values, css, faded)
        for label, values, css, faded in (
            ("▶", tuple(pending), "pending", False),
            ("✕", tuple(taken), "taken", True),
        )
        if values
    ]
    max_chars = max(16, int((width - 2 * _MARGIN) / _CAPTION_CHAR))
    caption_lines = textwrap.wrap(text, width=max_chars) or [""]
    rows_bottom = _MARGIN + _STEP_Y * (len(table.rows) + len(strips))
    height = rows_bottom + _CAPTION_LINE * len(caption_lines) + _MARGIN
    parts = [
        f'<svg xmlns="{SVG_NS}" class="take5-table" role="img" aria-label={quoteattr(text)} '
        f'viewBox="0 0 {width} {height}" width="{width}" height="{height}" '
        f'font-family="{_FONT}">',
        f"<title>{escape(text)}</title>",
        f"<desc>{escape(table_caption(table))}</desc>",
        f'<rect x="0.5" y="0.5" width="{width - 1}" height="{height - 1}" rx="8" '
        f'fill="{_BACKGROUND}" stroke="{_FRAME}"/>',
    ]
    for index, row in enumerate(table.rows):
        y = _MARGIN + _STEP_Y * index
        parts.append(f'<g class="row" data-row="{index + 1}">')
        parts.append(
            f'<text x="{_num(_MARGIN + _LABEL_W / 2)}" y="{_num(y + _CARD_H / 2 + 5)}" '
            f'text-anchor="middle" font-size="14" font-weight="700" '
            f'fill="{_LABEL_INK}">{index + 1}</text>'
        )
        parts.extend(
            _card(value, _MARGIN + _LABEL_W + _STEP_X * slot, y, highlight=value == highlight)
            for slot, value in enumerate(row)
        )
        sixth_x = _MARGIN + _LABEL_W + _STEP_X * ROW_LIMIT
        parts.append(
            f'<rect class="sixth-slot" x="{_num(sixth_x + 1)}" y="{_num(y + 1)}" '
            f'width="{_CARD_W - 2}" height="{_CARD_H - 2}" rx="5" fill="none" '
            f'stroke="{_FRAME}" stroke-width="1.2" stroke-dasharray="4 3"/>'
            f'<text x="{_num(sixth_x + _CARD_W / 2)}" y="{_num(y + _CARD_H / 2 + 5)}" '
            f'text-anchor="middle" font-size="13" fill="{_FRAME}">6</text>'
        )
        parts.append("</g>")
    for number, (label, values, css, faded) in enumerate(strips):
        y = _MARGIN + _STEP_Y * (len(table.rows) + number)
        parts.append(_strip(label, values, y, css, faded=faded))
    parts.append(f'<g class="caption" font-size="13" fill="{_LABEL_INK}">')
    parts.extend(
        f'<text x="{_MARGIN}" y="{_num(rows_bottom + _CAPTION_LINE * line + 8)}">'
        f"{escape(words)}</text>"
        for line, words in enumerate(caption_lines)
    )
    parts.append("</g></svg>")
    return "\n".join(parts)


def turn_caption(plays: Mapping[str, Card]) -> str:
    """The language-neutral caption of a turn before placement: the cards in placement order.

    >>> turn_caption({"ana": 93, "bob": 4, "cyd": 90, "dan": 17})
    '▶ 4 · 17 · 90 · 93'
    """
    return "▶ " + " · ".join(str(value) for _, value in placement_order(plays))


def placement_caption(placement: Placement) -> str:
    """The language-neutral caption of one placement: card → row (1-based), and what it took.

    >>> from take5rules.table import place_card
    >>> placement_caption(place_card(Table.of([[12], [37], [43], [58]]), 44))
    '44 → 3'
    >>> placement_caption(place_card(Table.of([[12], [24], [80], [51, 55, 61, 68, 73]]), 74))
    '74 → 4 · ✕ 51 55 61 68 73 (11)'
    """
    text = f"{placement.card} → {placement.row + 1}"
    if placement.taken:
        taken = " ".join(str(value) for value in placement.taken)
        text += f" · ✕ {taken} ({total_bull_heads(placement.taken)})"
    return text


def turn_svgs(
    table: Table,
    plays: Mapping[str, Card],
    choices: Mapping[str, int] | None = None,
    *,
    captions: Sequence[str] | None = None,
) -> list[str]:
    """Draw a turn: the table before it, then after each placement, lowest card first.

    The turn is resolved by :func:`~take5rules.turn.resolve_turn`, so the pictures are the
    engine's states. Each picture after a placement outlines the card just placed, shows the
    cards still waiting, and the cards taken, if any.

    Args:
        table: The rows before the turn.
        plays: Each player's revealed card.
        choices: The row (0 to 3) each player takes if their card turns out to be a low card.
        captions: One caption per picture (``len(plays) + 1``); by default the language-neutral
            :func:`turn_caption` and :func:`placement_caption`.

    Returns:
        ``len(plays) + 1`` SVG pictures.

    Raises:
        IllegalMoveError: A low card's player has no entry in *choices*.
        MalformedInputError: *captions* does not hold one caption per picture (``argument``).

    >>> pictures = turn_svgs(Table.of([[3, 12], [24], [58, 61, 70], [96]]),
    ...                      {"ana": 17, "bob": 2}, {"bob": 3})
    >>> [picture.split("<title>")[1].split("</title>")[0] for picture in pictures]
    ['▶ 2 · 17', '2 → 4 · ✕ 96 (1)', '17 → 1']
    """
    rows_chosen = dict(choices or {})

    def choose(choice: LowCard) -> int:
        if choice.player in rows_chosen:
            return rows_chosen[choice.player]
        return no_row_choice(choice)

    result = resolve_turn(table, plays, choose)
    if captions is not None and len(captions) != len(result.placements) + 1:
        raise MalformedInputError(
            "argument",
            N_("{count} captions for {needed} pictures: a turn's pictures need one caption "
               "each"),
            count=len(captions),
            needed=len(result.placements) + 1,
        )
    order = [value for _, value in placement_order(plays)]
    pictures = [
        to_svg(table, caption=captions[0] if captions else turn_caption(plays), pending=order)
    ]
    for number, (_, placement) in enumerate(result.placements, start=1):
        pictures.append(
            to_svg(
                placement.table,
                highlight=placement.card,
                caption=captions[number] if captions else placement_caption(placement),
                pending=order[number:],
                taken=placement.taken,
            )
        )
    return pictures
