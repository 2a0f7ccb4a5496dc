"""The SVG pictures: structure, colours, accessibility, determinism, and turns from the engine."""

from __future__ import annotations

import xml.etree.ElementTree as ET

import pytest

from take5rules.cards import bull_heads, deck
from take5rules.errors import IllegalMoveError, MalformedInputError
from take5rules.table import Table
from take5rules.text.pictures import (
    CARD_STYLES,
    SVG_NS,
    placement_caption,
    table_caption,
    to_svg,
    turn_caption,
    turn_svgs,
)
from take5rules.turn import resolve_turn

NS = {"svg": SVG_NS}


def parse(svg: str) -> ET.Element:
    return ET.fromstring(svg)


def groups(root: ET.Element, css: str) -> list[ET.Element]:
    return [g for g in root.iter(f"{{{SVG_NS}}}g") if css in (g.get("class") or "").split()]


def rows_of(root: ET.Element) -> list[list[int]]:
    """The cards drawn in each row group, in drawing order."""
    return [
        [int(card.get("data-card", "0")) for card in groups(row, "card")]
        for row in groups(root, "row")
    ]


def test_four_rows_with_their_cards_in_order() -> None:
    table = Table.of([[3, 4, 17], [24], [58, 90, 93], [51, 55, 61, 68, 73]])
    root = parse(to_svg(table))
    assert root.tag == f"{{{SVG_NS}}}svg"
    assert [row.get("data-row") for row in groups(root, "row")] == ["1", "2", "3", "4"]
    assert rows_of(root) == [list(row) for row in table.rows]
    # every row keeps its dashed sixth slot
    slots = [r for r in root.iter(f"{{{SVG_NS}}}rect") if r.get("class") == "sixth-slot"]
    assert len(slots) == 4


def test_each_card_shows_number_heads_and_class_colour() -> None:
    table = Table.of([[1, 5, 10, 11, 55], [2], [3], [4]])
    root = parse(to_svg(table))
    for card in groups(root, "card"):
        value = int(card.get("data-card", "0"))
        heads = bull_heads(value)
        assert card.get("data-bull-heads") == str(heads)
        face = card.find("svg:rect", NS)
        assert face is not None
        assert face.get("fill") == CARD_STYLES[heads].face
        number = card.find("svg:text", NS)
        assert number is not None
        assert number.text == str(value)
        assert len(card.findall("svg:circle", NS)) == heads  # one drawn head per bull head


def test_every_bull_head_class_has_a_distinct_style() -> None:
    assert sorted(CARD_STYLES) == sorted({bull_heads(c) for c in deck()}) == [1, 2, 3, 5, 7]
    assert len({style.face for style in CARD_STYLES.values()}) == 5


def test_accessible_name_title_and_desc() -> None:
    table = Table.of([[3], [24], [58], [96]])
    root = parse(to_svg(table, caption='Rows <"quoted"> & more'))
    assert root.get("role") == "img"
    assert root.get("aria-label") == 'Rows <"quoted"> & more'
    title = root.find("svg:title", NS)
    assert title is not None
    assert title.text == 'Rows <"quoted"> & more'
    desc = root.find("svg:desc", NS)
    assert desc is not None
    assert desc.text == table_caption(table) == "1: 3 | 2: 24 | 3: 58 | 4: 96"
    # no ids: many pictures can share one HTML page
    assert not any(element.get("id") for element in root.iter())


def test_default_caption_is_language_neutral() -> None:
    table = Table.of([[3, 12], [24], [58, 61, 70], [96]])
    assert parse(to_svg(table)).get("aria-label") == "1: 3 12 | 2: 24 | 3: 58 61 70 | 4: 96"


def test_long_caption_is_wrapped_into_lines_within_the_picture() -> None:
    caption = "Bob's 74 would be the sixth card in row 2: Bob takes 51, 55, 61, 68, and 73."
    root = parse(to_svg(Table.of([[3], [24], [58], [96]]), caption=caption))
    lines = [t.text or "" for g in groups(root, "caption") for t in g.findall("svg:text", NS)]
    assert len(lines) > 1
    assert " ".join(lines) == caption
    width = float(root.get("width", "0"))
    assert all(len(line) * 7 <= width for line in lines)


def test_highlight_pending_and_taken() -> None:
    table = Table.of([[74], [24], [80], [96]])
    root = parse(to_svg(table, highlight=74, pending=[90, 93], taken=[51, 55, 61, 68, 73]))
    assert [c.get("data-card") for c in groups(root, "highlight")] == ["74"]
    assert [c.get("data-card") for g in groups(root, "pending") for c in groups(g, "card")] == [
        "90", "93"
    ]
    taken = [c for g in groups(root, "taken") for c in groups(g, "card")]
    assert [c.get("data-card") for c in taken] == ["51", "55", "61", "68", "73"]
    assert all(c.get("opacity") == "0.6" for c in taken)
    # a highlight that is not on the table outlines nothing
    assert groups(parse(to_svg(table, highlight=5)), "highlight") == []


def test_deterministic_golden_start() -> None:
    table = Table.of([[3], [24], [58], [96]])
    svg = to_svg(table)
    assert svg == to_svg(Table.of([[3], [24], [58], [96]]))
    assert svg.splitlines()[0] == (
        f'<svg xmlns="{SVG_NS}" class="take5-table" role="img" '
        "aria-label=\"1: 3 | 2: 24 | 3: 58 | 4: 96\" viewBox=\"0 0 308 281\" "
        "width=\"308\" height=\"281\" font-family=\"system-ui, -apple-system, 'Segoe UI', "
        "Roboto, 'DejaVu Sans', 'Noto Sans', sans-serif\">"
    )
    assert svg.splitlines()[1] == "<title>1: 3 | 2: 24 | 3: 58 | 4: 96</title>"


def test_turn_of_the_founding_texts_frame_by_frame() -> None:
    table = Table.of([[3], [24], [58], [96]])
    plays = {"ana": 93, "bob": 4, "cyd": 90, "dan": 17}
    frames = [parse(svg) for svg in turn_svgs(table, plays)]
    assert len(frames) == 5
    assert rows_of(frames[0]) == [[3], [24], [58], [96]]
    assert [c.get("data-card") for c in groups(groups(frames[0], "pending")[0], "card")] == [
        "4", "17", "90", "93"
    ]
    expected = [
        ([[3, 4], [24], [58], [96]], "4"),
        ([[3, 4, 17], [24], [58], [96]], "17"),
        ([[3, 4, 17], [24], [58, 90], [96]], "90"),
        ([[3, 4, 17], [24], [58, 90, 93], [96]], "93"),
    ]
    for frame, (rows, placed) in zip(frames[1:], expected, strict=True):
        assert rows_of(frame) == rows
        assert [c.get("data-card") for c in groups(frame, "highlight")] == [placed]
    assert frames[0].get("aria-label") == turn_caption(plays) == "▶ 4 · 17 · 90 · 93"
    assert [f.get("aria-label") for f in frames[1:]] == ["4 → 1", "17 → 1", "90 → 3", "93 → 3"]
    assert groups(frames[-1], "pending") == []


def test_turn_frames_are_the_engines_states() -> None:
    table = Table.of([[61], [31, 35], [41, 46], [36, 48, 52, 56, 58]])
    plays = {"ana": 62, "bob": 29}
    result = resolve_turn(table, plays, lambda choice: 0)
    frames = [parse(svg) for svg in turn_svgs(table, plays, {"bob": 0})]
    for frame, (_, placement) in zip(frames[1:], result.placements, strict=True):
        assert rows_of(frame) == [list(row) for row in placement.table.rows]
        assert frame.get("aria-label") == placement_caption(placement)
    assert frames[1].get("aria-label") == "29 → 1 · ✕ 61 (1)"
    assert frames[2].get("aria-label") == "62 → 4 · ✕ 36 48 52 56 58 (5)"


def test_turn_with_captions_and_errors() -> None:
    table = Table.of([[3, 12], [24], [58, 61, 70], [96]])
    plays = {"ana": 17, "bob": 2}
    frames = turn_svgs(table, plays, {"bob": 3}, captions=["before", "after 2", "after 17"])
    assert [parse(f).get("aria-label") for f in frames] == ["before", "after 2", "after 17"]
    with pytest.raises(MalformedInputError, match="1 captions for 3 pictures") as wrong:
        turn_svgs(table, plays, {"bob": 3}, captions=["only one"])
    assert wrong.value.rule == "argument"
    with pytest.raises(IllegalMoveError) as caught:
        turn_svgs(table, plays)
    assert caught.value.rule == "table.low-card"
