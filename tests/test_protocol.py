"""The take5-player protocol (take5rules.playing.protocol): messages, schema, readers, serve.

Expected messages are written out by hand from the protocol's contract; whole games of each
variant go through the protocol's lines and must play exactly as the same players in process,
every message of them valid by the JSON Schema; hostile lines get an ``error`` back and serving
goes on.
"""

from __future__ import annotations

import errno
import functools
import io
import json
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from jsonschema import Draft202012Validator

from rulebook import heads
from take5rules.events import (
    CardPlaced,
    CardsRevealed,
    Event,
    LowCardTaken,
    RoundScored,
    RoundStarted,
    seen_by,
)
from take5rules.playing import protocol as P  # noqa: N812 -- read as P.card_request
from take5rules.playing.engine import play_game
from take5rules.playing.kinds import BUILTIN_PLAYERS
from take5rules.playing.players import (
    CardView,
    CautiousPlayer,
    DraftView,
    Player,
    RandomPlayer,
    RowChoice,
)
from take5rules.table import Table
from take5rules.variants import Rules, Variant

ROOT = Path(__file__).resolve().parent.parent
PACKAGED = ROOT / "src" / "take5rules" / "playing" / "schemas" / "take5-player-1.schema.json"
DOCS_COPY = ROOT / "docs" / "schemas" / "take5-player-1.schema.json"
SCHEMA = json.loads(PACKAGED.read_text(encoding="utf-8"))
SEATS = ("ana", "bob", "cyd", "dee")
ALL_VARIANTS = ["standard", "tactics", "logic", "tournament"]


@functools.cache
def validator(name: str) -> Draft202012Validator:
    """A validator of the schema's ``$defs`` entry *name*."""
    return Draft202012Validator({"$schema": SCHEMA["$schema"], "$defs": SCHEMA["$defs"],
                                 "$ref": f"#/$defs/{name}"})


# --- The schema ---------------------------------------------------------------------------


def test_the_schema_is_a_valid_draft_2020_12_schema_with_one_entry_per_message() -> None:
    Draft202012Validator.check_schema(SCHEMA)
    messages = {"hello", "game", "round", "card", "row", "draft", "turn", "score", "end",
                "error", "quit", "hello-reply", "card-reply", "row-reply", "draft-reply",
                "error-reply"}
    assert messages <= set(SCHEMA["$defs"])
    assert P.schema() == SCHEMA


def test_the_docs_copy_of_the_schema_is_the_packaged_one() -> None:
    assert DOCS_COPY.read_bytes() == PACKAGED.read_bytes()


# --- The builders -------------------------------------------------------------------------

VIEW = CardView(2, 3, Table.of([[12, 20], [37], [43], [58, 60, 61]]), (5, 44, 90),
                {"ana": 7, "bob": 0}, "ana",
                (((("bob", 2), ("ana", 20))), (("ana", 60), ("bob", 61))),
                {"bob": (3, 9)}, ((12,), (37,), (43,), (58,)), ())


def test_card_request_has_exactly_the_fields_of_the_contract() -> None:
    assert P.card_request(7, VIEW, P.move_clock(10_000)) == {
        "type": "card", "id": 7, "round": 2, "turn": 3,
        "rows": [[12, 20], [37], [43], [58, 60, 61]], "hand": [5, 44, 90],
        "totals": {"ana": 7, "bob": 0},
        "revealed": [[["bob", 2], ["ana", 20]], [["ana", 60], ["bob", 61]]],
        "taken": {"bob": [3, 9]}, "start": [[12], [37], [43], [58]], "picks": [],
        "clock": {"move_ms": 10000, "game_ms_left": None}}


def test_row_request_has_exactly_the_fields_of_the_contract() -> None:
    choice = RowChoice("ana", 2, Table.of([[12], [37], [43], [58]]), 1, 1, (5, 44),
                       {"ana": 0, "bob": 0}, ((("ana", 2), ("bob", 70)),), {},
                       ((12,), (37,), (43,), (58,)), (("ana", 2), ("bob", 70)))
    assert P.row_request(8, choice) == {
        "type": "row", "id": 8, "card": 2, "round": 1, "turn": 1,
        "rows": [[12], [37], [43], [58]], "hand": [5, 44], "totals": {"ana": 0, "bob": 0},
        "revealed": [[["ana", 2], ["bob", 70]]], "taken": {},
        "start": [[12], [37], [43], [58]], "picks": [["ana", 2], ["bob", 70]], "clock": None}


def test_draft_request_has_exactly_the_fields_of_the_contract() -> None:
    view = DraftView(1, 3, (4, 8, 15), (16,), "ana", (("ana", 16), ("bob", 23)), {"ana": 0})
    assert P.draft_request(9, view, P.move_clock(500, 9_000)) == {
        "type": "draft", "id": 9, "round": 1, "pick": 3, "pool": [4, 8, 15], "hand": [16],
        "picks": [["ana", 16], ["bob", 23]], "totals": {"ana": 0},
        "clock": {"move_ms": 500, "game_ms_left": 9000}}


def test_the_information_messages_are_as_the_contract_writes_them() -> None:
    assert P.hello_message("t 1") == {"type": "hello", "protocol": 1, "table": "t 1"}
    assert P.hello_message()["table"].startswith("take5rules ")
    assert P.game_message(1, "ana", ("ana", "bob"), Rules(Variant.LOGIC, 40), 1700003,
                          P.game_clock(10_000)) == {
        "type": "game", "game": 1, "seat": "ana", "players": ["ana", "bob"],
        "rules": {"variant": "logic", "threshold": 40}, "seed": 1700003,
        "clock": {"move_ms": 10000, "game_ms": None}}
    assert P.game_clock() is None and P.move_clock() is None
    assert P.round_message(1, ((12,), (37,), (43,), (58,)), (3, 9), {"ana": 0}) == {
        "type": "round", "round": 1, "rows": [[12], [37], [43], [58]], "hand": [3, 9],
        "totals": {"ana": 0}}
    assert P.turn_message(1, 3, (("bob", 2), ("ana", 30)), ((2,), (37,), (43,), (58,)),
                          {"bob": (12, 13)}) == {
        "type": "turn", "round": 1, "turn": 3, "plays": [["bob", 2], ["ana", 30]],
        "rows": [[2], [37], [43], [58]], "taken": {"bob": [12, 13]}}
    assert P.score_message(RoundScored(1, {"ana": 5}, {"ana": 5})) == {
        "type": "score", "round": 1, "penalties": {"ana": 5}, "totals": {"ana": 5}}
    assert P.error_message("x") == {"type": "error", "message": "x"}
    assert P.QUIT == {"type": "quit"}
    assert P.encode(P.QUIT) == b'{"type":"quit"}\n'


# --- A whole game through the protocol ----------------------------------------------------


class Bridge:
    """A seat whose decisions go, as protocol lines, to a served player in this process.

    It records every message both ways (the table's requests and information, the replies).
    """

    def __init__(self, seat: str, make: Callable[[int | None], Player], seed: int | None,
                 players: tuple[str, ...], rules: Rules) -> None:
        self.served = P.PlayerServer(make, "bridge", "tests")
        self.number = 0
        self.sent: list[dict[str, Any]] = []
        self.replies: list[dict[str, Any]] = []
        self.talk(P.hello_message())
        self.talk(P.game_message(1, seat, players, rules, seed, P.game_clock(10_000)))

    def talk(self, message: dict[str, Any]) -> dict[str, Any] | None:
        self.sent.append(message)
        reply = self.served.answer(P.decode(P.encode(message)))
        if reply is None:
            return None
        read = P.decode(P.encode(reply))
        self.replies.append(read)
        return read

    def request(self, build: Callable[[int], dict[str, Any]]) -> dict[str, Any]:
        self.number += 1
        reply = self.talk(build(self.number))
        assert reply is not None
        return reply

    def choose_card(self, view: CardView) -> int:
        reply = self.request(lambda n: P.card_request(n, view, P.move_clock(10_000, None)))
        return P.read_card_reply(reply, self.number, view.hand)

    def choose_row(self, choice: RowChoice) -> int:
        return P.read_row_reply(self.request(lambda n: P.row_request(n, choice)), self.number)

    def choose_draft(self, view: DraftView) -> int:
        reply = self.request(lambda n: P.draft_request(n, view, P.move_clock(10_000, None)))
        return P.read_draft_reply(reply, self.number, view.pool)


def _random(seed: int | None) -> Player:
    return RandomPlayer(seed)


def bridged_game(variant: Variant, make: Callable[[int | None], Player] = _random,
                 seed: int = 11) -> tuple[dict[str, Bridge], list[Event]]:
    rules = Rules(variant)
    seats = {name: Bridge(name, make, 100 + index, SEATS, rules)
             for index, name in enumerate(SEATS)}
    events = list(play_game(seats, rules, seed=seed))
    for name, bridge in seats.items():
        news = P.SeatNews(name)
        for event in events:
            for message in news.see(event):
                bridge.talk(message)
        bridge.talk(P.QUIT)
    return seats, events


@functools.cache
def played(variant: Variant) -> tuple[Variant, dict[str, Bridge], list[Event]]:
    """The game of *variant* at seed 11 through the protocol, played once for the module."""
    seats, events = bridged_game(variant)
    return variant, seats, events


@pytest.fixture(params=list(Variant), ids=[v.value for v in Variant])
def game(request: pytest.FixtureRequest) -> tuple[Variant, dict[str, Bridge], list[Event]]:
    return played(request.param)


#: Validating a whole game's messages takes seconds: the standard game stays in the fast loop.
EVERY_VARIANT = [pytest.param(variant, id=variant.value,
                              marks=[] if variant is Variant.STANDARD else [pytest.mark.slow])
                 for variant in Variant]


def test_a_game_through_the_protocol_is_the_game_in_process(
        game: tuple[Variant, dict[str, Bridge], list[Event]]) -> None:
    variant, _seats, events = game
    direct = list(play_game({name: RandomPlayer(100 + index)
                             for index, name in enumerate(SEATS)}, Rules(variant), seed=11))
    assert events == direct


@pytest.mark.parametrize("variant", EVERY_VARIANT)
def test_every_message_of_a_whole_game_is_valid_by_the_schema(variant: Variant) -> None:
    _variant, seats, _events = played(variant)
    seen: set[str] = set()
    for bridge in seats.values():
        for message in bridge.sent:
            validator(message["type"]).validate(message)
            seen.add(message["type"])
        for reply in bridge.replies:
            validator(f"{reply['type']}-reply").validate(reply)
            seen.add(f"{reply['type']}-reply")
        assert Draft202012Validator(SCHEMA).is_valid(bridge.sent[1])
    expected = {"hello", "game", "round", "card", "turn", "score", "end", "quit", "hello-reply",
                "card-reply"}
    if variant in (Variant.LOGIC, Variant.TOURNAMENT):
        expected |= {"draft", "draft-reply"}
    assert expected <= seen, expected - seen


def test_a_whole_game_asks_for_rows_and_reads_them() -> None:
    # cautious players of the standard game at seed 11 meet low cards: the row requests too
    seats, events = bridged_game(Variant.STANDARD, lambda seed: CautiousPlayer())
    rows = [message for bridge in seats.values() for message in bridge.sent
            if message["type"] == "row"]
    low = [event for event in events if event.kind == "low-card-taken"]
    assert len(rows) == len(low) > 0
    for message in rows:
        validator("row").validate(message)


def test_seat_news_shows_only_the_seats_own_hand_and_adds_up_to_the_score(
        game: tuple[Variant, dict[str, Bridge], list[Event]]) -> None:
    _variant, seats, events = game
    hands = [event.hands for event in events if isinstance(event, RoundStarted)]
    scores = [event for event in events if isinstance(event, RoundScored)]
    for name, bridge in seats.items():
        rounds = [m for m in bridge.sent if m["type"] == "round"]
        assert [m["hand"] for m in rounds] == [list(hand[name]) for hand in hands]
        turns = [m for m in bridge.sent if m["type"] == "turn"]
        assert len(turns) == 10 * len(rounds)
        for number, score in enumerate(scores, start=1):
            # the bull heads each seat took in the round's turn messages are its penalty
            taken = dict.fromkeys(SEATS, 0)
            for message in turns:
                if message["round"] == number:
                    assert len(message["plays"]) == 4
                    for seat, cards in message["taken"].items():
                        taken[seat] += sum(heads(card) for card in cards)
            assert taken == dict(score.penalties)
        assert [m["totals"] for m in bridge.sent if m["type"] == "score"] == [
            dict(score.totals) for score in scores]
        assert sum(m["type"] == "end" for m in bridge.sent) == 1


def test_a_turn_message_holds_the_plays_in_order_and_the_rows_after() -> None:
    events: list[Event] = [
        CardsRevealed(1, 1, (("bob", 2), ("ana", 30))),
        LowCardTaken(1, 1, "bob", 2, 3, (58,), ((12,), (37,), (43,), (2,))),
        CardPlaced(1, 1, "ana", 30, 0, ((12, 30), (37,), (43,), (2,))),
    ]
    news = P.SeatNews("ana")
    assert news.see(events[0]) == [] and news.see(events[1]) == []
    assert news.see(events[2]) == [{
        "type": "turn", "round": 1, "turn": 1, "plays": [["bob", 2], ["ana", 30]],
        "rows": [[12, 30], [37], [43], [2]], "taken": {"bob": [58]}}]
    assert P.messages_for("ana", events) == [
        {"type": "turn", "round": 1, "turn": 1, "plays": [["bob", 2], ["ana", 30]],
         "rows": [[12, 30], [37], [43], [2]], "taken": {"bob": [58]}}]


# --- The readers ----------------------------------------------------------------------------

HAND = (3, 57)

#: Replies to card request 7 (hand 3, 57) that both the schema and the reader refuse.
BAD_CARD_REPLIES: list[object] = [
    [], 7, "card", None, {}, {"id": 7, "card": 57},
    {"type": "row", "id": 7, "row": 1},
    {"type": "card", "card": 57},
    {"type": "card", "id": 7},
    {"type": "card", "id": 7, "card": 57, "note": "hi"},
    {"type": "card", "id": "7", "card": 57},
    {"type": "card", "id": 7, "card": "57"},
    {"type": "card", "id": 7, "card": True},
    {"type": "card", "id": 7, "card": [57]},
    {"type": "card", "id": 7, "card": 105},
    {"type": "card", "id": 7, "card": 0},
    {"type": "error", "id": 7},
    {"type": "error", "message": 3, "id": 7},
]


@pytest.mark.parametrize("reply", BAD_CARD_REPLIES, ids=[repr(r)[:40] for r in BAD_CARD_REPLIES])
def test_a_bad_card_reply_is_refused_by_the_schema_and_the_reader(reply: object) -> None:
    schema_ok = validator("card-reply").is_valid(reply) or validator("error-reply").is_valid(
        reply)
    assert not schema_ok
    with pytest.raises(P.ProtocolViolation) as caught:
        P.read_card_reply(reply, 7, HAND)
    assert caught.value.kind in ("malformed", "illegal")


@pytest.mark.parametrize(("reply", "kind", "words"), [
    ({"type": "card", "id": 6, "card": 57}, "malformed", "the id 6, not the request's id 7"),
    ({"type": "card", "id": 7, "card": 57.0}, "malformed", "not a whole number"),
    ({"type": "card", "id": 7.0, "card": 57}, "malformed", "not a whole number"),
    ({"type": "card", "id": 7, "card": 4}, "illegal",
     "card 4, which is not in its hand [rule turn.reveal]"),
    ({"type": "error", "message": "I give up", "id": 7}, "declined", "'I give up'"),
    ({"type": "error", "message": "I give up", "id": 2}, "malformed", "id 2"),
    ({"type": "error", "message": "I give up"}, "malformed", "no 'id'"),
    ({"type": "hello", "protocol": 1, "name": "x", "author": "", "variants": ["standard"]},
     "malformed", "'hello' message to the 'card' request"),
])
def test_the_reader_names_the_kind_and_what_is_wrong(reply: object, kind: str,
                                                     words: str) -> None:
    with pytest.raises(P.ProtocolViolation) as caught:
        P.read_card_reply(reply, 7, HAND)
    assert caught.value.kind == kind
    assert words in str(caught.value.detail)


def test_read_card_reply_gives_the_card() -> None:
    assert P.read_card_reply({"type": "card", "id": 7, "card": 3}, 7, HAND) == 3


@pytest.mark.parametrize(("row", "ok"), [(0, True), (3, True), (-1, False), (4, False)])
def test_read_row_reply_takes_the_rows_0_to_3(row: int, ok: bool) -> None:
    reply = {"type": "row", "id": 8, "row": row}
    assert validator("row-reply").is_valid(reply) == ok
    if ok:
        assert P.read_row_reply(reply, 8) == row
    else:
        with pytest.raises(P.ProtocolViolation) as caught:
            P.read_row_reply(reply, 8)
        assert caught.value.kind == "illegal"
        assert "[rule table.low-card]" in str(caught.value.detail)


def test_read_draft_reply_takes_a_card_of_the_pool() -> None:
    assert P.read_draft_reply({"type": "draft", "id": 9, "card": 31}, 9, (4, 31)) == 31
    with pytest.raises(P.ProtocolViolation) as caught:
        P.read_draft_reply({"type": "draft", "id": 9, "card": 32}, 9, (4, 31))
    assert caught.value.kind == "illegal"
    assert "[rule variants.logic]" in str(caught.value.detail)
    with pytest.raises(P.ProtocolViolation, match="malformed"):
        P.read_draft_reply({"type": "card", "id": 9, "card": 31}, 9, (4, 31))


GOOD_HELLO = {"type": "hello", "protocol": 1, "name": "my-bot", "author": "Ann",
              "variants": ["standard", "tactics", "logic", "tournament"]}


def test_read_hello_reply_reads_a_good_hello() -> None:
    hello = P.read_hello_reply(GOOD_HELLO)
    assert hello == P.Hello(1, "my-bot", "Ann", tuple(Variant))
    assert validator("hello-reply").is_valid(GOOD_HELLO)


@pytest.mark.parametrize("change", [
    {"protocol": 2}, {"protocol": "1"}, {"name": ""}, {"name": "x" * 65}, {"name": 3},
    {"author": "a" * 65}, {"author": None}, {"variants": []}, {"variants": ["chess"]},
    {"variants": ["logic", "logic"]}, {"variants": "standard"}, {"extra": 1}, {"type": "card"},
])
def test_a_bad_hello_is_refused_by_the_schema_and_the_reader(change: dict[str, Any]) -> None:
    reply = {**GOOD_HELLO, **change}
    assert not validator("hello-reply").is_valid(reply)
    with pytest.raises(P.ProtocolViolation) as caught:
        P.read_hello_reply(reply)
    assert caught.value.kind == "malformed"


def test_a_hello_may_be_declined_without_an_id() -> None:
    with pytest.raises(P.ProtocolViolation) as caught:
        P.read_hello_reply({"type": "error", "message": "protocol 2 only"})
    assert caught.value.kind == "declined"
    assert "protocol 2 only" in str(caught.value.detail)
    assert validator("error-reply").is_valid({"type": "error", "message": "protocol 2 only"})


def test_a_name_of_64_characters_is_allowed_and_an_empty_author_too() -> None:
    hello = P.read_hello_reply({**GOOD_HELLO, "name": "n" * 64, "author": ""})
    assert (len(hello.name), hello.author) == (64, "")


def test_a_violation_survives_pickling() -> None:
    import pickle

    violation = P.ProtocolViolation("illegal", "card 4")
    again = pickle.loads(pickle.dumps(violation))
    assert (again.kind, str(again.detail)) == ("illegal", "card 4")


# --- Lines --------------------------------------------------------------------------------


@pytest.mark.parametrize(("line", "words"), [
    (b"x" * 70_000, "longer than 65536 bytes"),
    (b'{"type": "card", "id": 1, "card": "\xff"}', "not UTF-8 text: byte 36"),
    (b"[]", "the message is [], not a JSON object"),
    (b"42", "the message is 42, not a JSON object"),
    (b"[" * 30_000 + b"]" * 30_000, "nested too deeply"),
    (b'{"type": 1}', 'no "type"'),
    (b'{"id": 1}', 'no "type"'),
    (b'{"type": "card", "type": "card"}', "'type' twice"),
    (b'{"type": "card", "card": NaN}', "NaN"),
    (b'{"type": "card", "card": ' + b"9" * 5000 + b"}", "number too long"),
    (b"{", "not JSON"),
])
def test_decode_refuses_what_is_no_message(line: bytes, words: str) -> None:
    with pytest.raises(P.ProtocolViolation) as caught:
        P.decode(line)
    assert caught.value.kind == "malformed"
    assert words in str(caught.value.detail)


def test_a_line_of_exactly_the_limit_is_read() -> None:
    padding = P.MAX_LINE - len(b'{"type":"x","p":""}\n')
    line = b'{"type":"x","p":"' + b"a" * padding + b'"}\n'
    assert len(line) == 65_536
    assert P.decode(line)["type"] == "x"
    with pytest.raises(P.ProtocolViolation):
        P.decode(line[:-3] + b'a"}\n')


# --- serve ----------------------------------------------------------------------------------

ROWS = [[12], [37], [43], [58]]
GAME = {"type": "game", "game": 1, "seat": "ana", "players": ["ana", "bob"],
        "rules": {"variant": "logic", "threshold": 66}, "seed": 5, "clock": None}
CARD = {"type": "card", "id": 1, "round": 1, "turn": 1, "rows": ROWS, "hand": [14, 44, 90],
        "totals": {"ana": 0, "bob": 0}, "revealed": [], "taken": {}, "start": ROWS,
        "picks": [], "clock": None}
ROW = {"type": "row", "id": 2, "card": 2, "round": 1, "turn": 1, "rows": ROWS,
       "hand": [44, 90], "totals": {"ana": 0, "bob": 0}, "revealed": [[["ana", 2], ["bob", 70]]],
       "taken": {}, "start": ROWS, "picks": [], "clock": None}
DRAFT = {"type": "draft", "id": 3, "round": 1, "pick": 1, "pool": [4, 8, 15, 16],
         "hand": [], "picks": [], "totals": {"ana": 0, "bob": 0}, "clock": None}


def served(lines: list[bytes], make: Callable[[int | None], Player] | None = None
           ) -> tuple[int, list[dict[str, Any]]]:
    out = io.BytesIO()
    status = P.serve(make or (lambda seed: CautiousPlayer()), io.BytesIO(b"".join(lines)), out,
                     "test bot", "tests", [Variant.STANDARD, Variant.LOGIC])
    return status, [json.loads(line) for line in out.getvalue().splitlines()]


def line(message: object) -> bytes:
    return json.dumps(message).encode() + b"\n"


def test_serve_answers_hello_and_each_request_and_ends_at_quit() -> None:
    status, replies = served([line(P.hello_message("t")), line(GAME), line(CARD),
                              line({"type": "round", "round": 1}), line(ROW), line(DRAFT),
                              line(P.QUIT), line(CARD)])
    # cautious plays the card of least risk, a row's length times the gap: 44 after 43 (1/400;
    # 14 after 12 is 2/400); takes the cheapest row (four rows of one bull head: the first);
    # drafts the card of fewest bull heads, the lowest among them (4, 8, 16 have one: 4)
    assert status == 0
    assert replies == [
        {"type": "hello", "protocol": 1, "name": "test bot", "author": "tests",
         "variants": ["standard", "logic"]},
        {"type": "card", "id": 1, "card": 44},
        {"type": "row", "id": 2, "row": 0},
        {"type": "draft", "id": 3, "card": 4},
    ]


def test_serve_makes_a_fresh_player_with_each_games_seed() -> None:
    seeds: list[int | None] = []

    def make(seed: int | None) -> Player:
        seeds.append(seed)
        return CautiousPlayer()

    game2 = {**GAME, "game": 2, "seed": None}
    status, _ = served([line(P.hello_message()), line(GAME), line(game2)], make)
    assert (status, seeds) == (0, [5, None])


def test_serve_ignores_information_it_does_not_know_and_unknown_fields() -> None:
    status, replies = served([
        line(P.hello_message()), line({**GAME, "future": [1, 2]}), line({"type": "chat"}),
        line({"type": "error", "message": "x"}), line({"type": "turn"}), b"\n", b"  \r\n",
        line({**CARD, "hint": "a field to come"})])
    assert status == 0
    assert replies[1:] == [{"type": "card", "id": 1, "card": 44}]


@pytest.mark.parametrize("bad", [
    b"x" * 70_000 + b"\n",
    b'{"type": "card", "id": 1, "card": "\xff"}\n',
    b"[]\n", b"42\n", b"[" * 30_000 + b"\n", b'{"type": 5}\n', b"{\n",
])
def test_serve_answers_a_bad_line_with_an_error_and_goes_on(bad: bytes) -> None:
    status, replies = served([line(P.hello_message()), line(GAME), bad, line(CARD)])
    assert status == 0
    assert [reply["type"] for reply in replies] == ["hello", "error", "card"]
    assert replies[1]["message"]
    assert validator("error-reply").is_valid(replies[1])


@pytest.mark.parametrize(("request_", "words"), [
    ({**CARD, "id": "one"}, "'id'"),
    ({**CARD, "id": -1}, "'id'"),
    ({**CARD, "hand": [14, 105]}, "'hand'"),
    ({**CARD, "rows": [[12], [37], [43]]}, "no game can show"),
    ({**CARD, "hand": [12, 44]}, "twice"),
    ({**CARD, "totals": {"ana": "0"}}, "'totals'"),
    ({**ROW, "card": 0}, "'card'"),
    ({**DRAFT, "pool": "all"}, "'pool'"),
])
def test_serve_declines_a_request_it_cannot_read_with_its_id_when_it_has_one(
        request_: dict[str, Any], words: str) -> None:
    status, replies = served([line(P.hello_message()), line(GAME), line(request_), line(CARD)])
    assert status == 0
    assert replies[1]["type"] == "error"
    assert words in replies[1]["message"]
    if isinstance(request_["id"], int) and request_["id"] >= 0:
        assert replies[1]["id"] == request_["id"]
    assert replies[2] == {"type": "card", "id": 1, "card": 44}


def test_serve_declines_a_request_before_any_game_and_a_player_that_fails() -> None:
    class Broken:
        def choose_card(self, view: CardView) -> int:
            raise RuntimeError("boom")

        def choose_row(self, choice: RowChoice) -> int:
            return 9

        def choose_draft(self, view: DraftView) -> int:
            return 0

    status, replies = served([line(CARD), line(GAME), line(CARD)], lambda seed: Broken())
    assert status == 0
    assert [(reply["type"], reply.get("id")) for reply in replies] == [("error", 1),
                                                                      ("error", 1)]
    assert "no game message came before it" in replies[0]["message"]
    assert "boom" in replies[1]["message"]


def test_serve_refuses_another_protocol_in_its_hello() -> None:
    status, replies = served([line({"type": "hello", "protocol": 2, "table": "future"})])
    assert status == 0
    assert replies[0]["type"] == "error"
    assert "protocol 1" in replies[0]["message"]


def test_serve_reads_text_streams_too() -> None:
    out = io.StringIO()
    text = "".join(json.dumps(message) + "\n" for message in (P.hello_message(), GAME, CARD))
    assert P.serve(lambda seed: CautiousPlayer(), io.StringIO(text + "[]\n"), out, "b") == 0
    replies = [json.loads(item) for item in out.getvalue().splitlines()]
    assert [reply["type"] for reply in replies] == ["hello", "card", "error"]


class Counting(io.BytesIO):
    """A stream that remembers the longest piece of a line it was asked for and gave."""

    def __init__(self, data: bytes) -> None:
        super().__init__(data)
        self.longest = 0

    def readline(self, size: int | None = -1) -> bytes:
        assert size is not None and 0 < size <= P.MAX_LINE + 1
        piece = super().readline(size)
        self.longest = max(self.longest, len(piece))
        return piece


def test_serve_never_holds_more_than_the_limit_of_a_line() -> None:
    source = Counting(b"y" * 10_000_000 + b"\n" + line(P.hello_message()))
    out = io.BytesIO()
    assert P.serve(lambda seed: CautiousPlayer(), source, out, "b") == 0
    assert source.longest == P.MAX_LINE + 1
    assert [json.loads(item)["type"] for item in out.getvalue().splitlines()] == ["error",
                                                                                  "hello"]


class Closed(io.BytesIO):
    def __init__(self, code: int) -> None:
        super().__init__()
        self.code = code

    def write(self, data: Any) -> int:
        raise OSError(self.code, "no")


@pytest.mark.parametrize(("code", "status"), [(errno.EPIPE, 0), (errno.ENOSPC, 2)])
def test_serve_ends_when_its_output_fails(code: int, status: int) -> None:
    source = io.BytesIO(line(P.hello_message()) * 3)
    assert P.serve(lambda seed: CautiousPlayer(), source, Closed(code), "b") == status


def test_serve_plays_a_seeded_kind_as_the_arena_seeds_it() -> None:
    # the random kind, seeded by each seat's game seed through the protocol, plays the game
    # the same seeded players play in process (see test_a_game_through_the_protocol_...)
    seats, events = bridged_game(Variant.STANDARD, lambda seed: BUILTIN_PLAYERS["random"](seed),
                                 seed=4)
    direct = list(play_game({name: RandomPlayer(100 + index)
                             for index, name in enumerate(SEATS)}, seed=4))
    assert events == direct
    assert all(bridge.replies[0]["name"] == "bridge" for bridge in seats.values())


# --- Fuzzing ------------------------------------------------------------------------------

JSON = st.recursive(st.none() | st.booleans() | st.integers() | st.floats(allow_nan=False)
                    | st.text(max_size=20),
                    lambda inner: st.lists(inner, max_size=5)
                    | st.dictionaries(st.text(max_size=8), inner, max_size=5), max_leaves=20)
FIELDS = st.sampled_from([CARD, ROW, DRAFT, GAME, P.hello_message()])


@st.composite
def lines(draw: st.DrawFn) -> bytes:
    kind = draw(st.integers(0, 3))
    if kind == 0:
        return draw(st.binary(max_size=200)).replace(b"\n", b" ") + b"\n"
    if kind == 1:
        return json.dumps(draw(JSON)).encode() + b"\n"
    message = dict(draw(FIELDS))
    if kind == 2 and message:
        message[draw(st.sampled_from(sorted(message)))] = draw(JSON)
    else:
        message[draw(st.text(max_size=5))] = draw(JSON)
    return json.dumps(message).encode() + b"\n"


@pytest.mark.slow
@settings(max_examples=300, deadline=None, database=None,
          suppress_health_check=list(HealthCheck))
@given(st.lists(lines(), max_size=8))
def test_serve_never_raises_and_answers_each_request_at_most_once(batch: list[bytes]) -> None:
    out = io.BytesIO()
    source = io.BytesIO(line(P.hello_message()) + line(GAME) + b"".join(batch) + line(CARD))
    assert P.serve(lambda seed: BUILTIN_PLAYERS["random"](seed), source, out, "fuzz") == 0
    replies = [json.loads(item) for item in out.getvalue().splitlines()]
    assert replies[0]["type"] == "hello"
    assert replies[-1]["type"] in ("card", "error")
    assert len(replies) <= len(batch) + 3
    for reply in replies:
        assert any(validator(name).is_valid(reply) for name in (
            "hello-reply", "card-reply", "row-reply", "draft-reply", "error-reply")), reply


@pytest.mark.slow
@settings(max_examples=300, deadline=None, database=None,
          suppress_health_check=list(HealthCheck))
@given(JSON, st.integers(1, 3))
def test_the_readers_raise_only_violations(value: object, which: int) -> None:
    readers: list[Callable[[], object]] = [
        lambda: P.read_hello_reply(value), lambda: P.read_card_reply(value, 1, (3, 5)),
        lambda: P.read_row_reply(value, 1), lambda: P.read_draft_reply(value, 1, (3, 5))]
    kinds = []
    for read in readers[:which + 1]:
        try:
            read()
        except P.ProtocolViolation as violation:  # anything else fails the test
            kinds.append(violation.kind)
    assert set(kinds) <= set(P.KINDS)


def test_a_seats_news_from_its_own_view_of_the_events_names_every_total() -> None:
    events = list(play_game({name: CautiousPlayer() for name in SEATS}, seed=2))
    news = P.SeatNews("bob")
    sent = [message for event in events for message in news.see(seen_by(event, "bob"))]
    rounds = [message for message in sent if message["type"] == "round"]
    assert rounds[0]["totals"] == {"ana": 0, "bob": 0, "cyd": 0, "dee": 0}
    started = [event for event in events if isinstance(event, RoundStarted)]
    assert [message["hand"] for message in rounds] == [list(event.hands["bob"])
                                                      for event in started]
    assert sent == P.messages_for("bob", events)
    for event in started:  # the others' hands are face down; the rest of the event is public
        seen = seen_by(event, "bob")
        assert isinstance(seen, RoundStarted)
        assert (dict(seen.hands), seen.rows, seen.round) == (
            {"bob": event.hands["bob"]}, event.rows, event.round)
    assert all(seen_by(event, "bob") is event for event in events
               if not isinstance(event, RoundStarted))
