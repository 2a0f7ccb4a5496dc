"""A Game that owns its history: moves, undo, logs, saved games as rules + seed + moves.

Each test names what it guards. Expected values come from the rulebook's numbers, from the
deal that seed 1 gives (rows 35, 30, 76 and 14; ana holds 9 and 98, bob 1 and 97: read once
from 0.4.0 and pinned by the digests of ``tests/test_state.py``), from the validator, or from
a copy of the game taken before the step; never from the code under test.
"""

from __future__ import annotations

import copy
import json
import pickle
import random
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest

from take5rules import _kernel
from take5rules.errors import IllegalMoveError, LogError, MalformedInputError, Take5Error
from take5rules.events import CardPlaced, Event, LowCardTaken, SixthCardTaken
from take5rules.logs.validator import validate
from take5rules.logs.writer import log_from_events
from take5rules.playing.engine import play_game
from take5rules.playing.players import CautiousPlayer, LowestCardPlayer, Player, RandomPlayer
from take5rules.playing.saved import MAX_MOVES
from take5rules.playing.stepper import Game, Move, Phase
from take5rules.table import Table
from take5rules.variants import Rules, Variant

VECTORS = Path(__file__).resolve().parent.parent / "vectors" / "games" / "valid"

try:  # numpy's scalars as seeds and answers; a [test]-only install has no numpy and skips them
    import numpy as np

    NUMPY_ANSWERS: list[object] = [np.int64(9)]
    NOT_SEEDS_NUMPY: list[object] = [np.float64(1.0)]
except ImportError:
    NUMPY_ANSWERS = []
    NOT_SEEDS_NUMPY = []


def _steps(game: Game, count: int, seed: int = 0) -> list[Game]:
    """Take *count* random legal decisions; return a copy of the game before each."""
    rng = random.Random(seed)
    before = []
    for _ in range(count):
        if game.phase is Phase.OVER:
            break
        before.append(game.copy())
        seat = rng.choice(game.to_move)
        game.act(seat, rng.choice(game.legal(seat)))
    return before


def _low_card_game() -> Game:
    """Seed 1: ana lays 9, bob 1; 1 is lower than every row (35, 30, 76, 14): bob must take one."""
    game = Game(["ana", "bob"], seed=1)
    game.play("ana", 9)
    game.play("bob", 1)
    return game


# --- moves ---------------------------------------------------------------------------------


def test_moves_are_the_decisions_in_the_order_taken() -> None:
    game = Game(["ana", "bob"], seed=1)
    assert not game.moves
    game.play("bob", 97)  # bob lays first: the moves keep that order
    assert tuple(game.moves) == (Move("bob", 97),)
    game.play("ana", 98)
    game.play("ana", 9)
    game.play("bob", 1)
    game.take_row("bob", 2)
    assert game.moves == (Move("bob", 97), Move("ana", 98), Move("ana", 9), Move("bob", 1),
                          Move("bob", 2))


def test_the_engine_keeps_the_moves_of_every_seat_in_seat_order() -> None:
    seats = {"ana": LowestCardPlayer(), "bob": LowestCardPlayer()}
    events = list(play_game(seats, seed=1))
    game = Game.from_log(log_from_events(events))
    first = game.moves[:2]
    assert first == (Move("ana", 9), Move("bob", 1))  # each seat's lowest card, in seat order
    assert game.result == events[-1]


# --- pop -------------------------------------------------------------------------------------


def test_pop_undoes_the_last_card() -> None:
    game = Game(["ana", "bob"], seed=1)
    game.play("ana", 9)
    assert game.pop() == Move("ana", 9)
    assert game.to_move == ("ana", "bob") and 9 in game.legal("ana") and game.moves == ()
    assert game == Game(["ana", "bob"], seed=1)


def test_pop_undoes_a_row_taken_and_the_cards_placed_after_it() -> None:
    game = _low_card_game()
    waiting = game.copy()
    game.take_row("bob", 0)
    assert (game.phase, game.turn) == (Phase.CARDS, 2)
    assert game.pop() == Move("bob", 0)
    assert game == waiting and game.phase is Phase.ROW and game.to_move == ("bob",)
    assert game.table is not None and game.table.rows == ((35,), (30,), (76,), (14,))


def test_pop_of_the_last_card_of_a_turn_takes_back_the_reveal() -> None:
    game = Game(["ana", "bob"], seed=1)
    game.play("ana", 98)
    game.play("bob", 97)  # both placed on 76: turn 2 waits
    assert game.turn == 2
    assert game.pop() == Move("bob", 97)
    assert game.turn == 1 and game.to_move == ("bob",) and game.revealed == ()
    assert game.observe("ana").laid == 98


def test_pop_step_by_step_gives_back_every_state_of_the_game() -> None:
    for variant in Variant:
        game = Game(["ana", "bob", "cyd"], Rules(variant, 20), seed=4)
        before = _steps(game, 90, seed=4)
        for expected in reversed(before):
            game.pop()
            assert game == expected, variant
        assert game.moves == ()


def test_pop_of_a_game_with_no_move_is_an_argument_error() -> None:
    with pytest.raises(MalformedInputError) as caught:
        Game(["ana", "bob"]).pop()
    assert caught.value.rule == "argument"


def test_pop_works_on_a_game_taken_up_from_a_deal() -> None:
    game = Game.from_deal(["ana", "bob"], Table.of([[10], [20], [30], [40]]),
                          {"ana": (1, 2), "bob": (41, 42)}, round=3,
                          totals={"ana": 5, "bob": 7})
    start = game.copy()
    game.play("ana", 2)
    game.play("bob", 41)
    assert game.pop() == Move("bob", 41) and game.pop() == Move("ana", 2)
    assert game == start and game.round == 3 and dict(game.totals) == {"ana": 5, "bob": 7}


# --- logs --------------------------------------------------------------------------------------


@pytest.mark.parametrize("variant", list(Variant))
def test_a_log_read_back_writes_the_same_log(variant: Variant) -> None:
    seats: dict[str, Player] = {"ana": CautiousPlayer(), "bob": RandomPlayer(3),
                                "cyd": LowestCardPlayer()}
    log = log_from_events(play_game(seats, Rules(variant, 30), seed=6))
    game = Game.from_log(log)
    assert game.phase is Phase.OVER
    assert game.to_log() == log


def test_the_log_of_a_game_in_progress_is_valid_and_holds_its_whole_turns() -> None:
    game = Game(["ana", "bob", "cyd"], seed=2)
    _steps(game, 3 * 3 + 1, seed=2)  # three turns or so, and a card laid
    log = game.to_log()
    report = validate(log)
    assert report.valid and report.incomplete
    whole = sum(len(entry["turns"]) for entry in log["rounds"])
    assert game.round == 1 and whole == game.turn - 1  # the turn under way is not logged


def test_a_log_in_progress_resumes_the_game_where_it_stops() -> None:
    game = Game(["ana", "bob"], seed=5)
    _steps(game, 30, seed=5)
    while game.phase is not Phase.CARDS or game.observe("ana").laid is not None or \
            game.observe("bob").laid is not None:
        _steps(game, 1, seed=len(game.moves))
    resumed = Game.from_log(game.to_log(), seed=5)
    # The log keeps each turn's cards in seat order, not in the order laid, and has no
    # generator: the same decisions, the same table, hands, takings and totals.
    assert sorted(resumed.moves, key=repr) == sorted(game.moves, key=repr)
    assert all(resumed.observe(seat) == game.observe(seat) for seat in game.players)
    resumed.act("ana", resumed.legal("ana")[0])  # and it plays on


def test_from_log_refuses_a_log_that_breaks_a_rule_with_its_rule_id() -> None:
    log = Game(["ana", "bob"], seed=1).to_log()
    log["players"] = ["ana"]
    with pytest.raises(Take5Error) as caught:
        Game.from_log(log)
    assert caught.value.rule == "setup.players"


def test_from_log_refuses_what_is_not_a_log() -> None:
    with pytest.raises(LogError):
        Game.from_log({"format": "take5rules-game"})


def test_every_valid_conformance_log_resumes_and_logs_again_validly() -> None:
    for path in sorted(VECTORS.glob("*.json")):
        log = json.loads(path.read_text(encoding="utf-8"))
        game = Game.from_log(log)
        report = validate(game.to_log())
        assert report.valid, path.name
        assert report.totals == validate(log).totals, path.name


def test_a_game_taken_up_past_its_first_round_cannot_be_logged() -> None:
    game = Game.from_deal(["ana", "bob"], Table.of([[10], [20], [30], [40]]),
                          {"ana": (1, 2), "bob": (41, 42)}, round=2)
    with pytest.raises(MalformedInputError) as caught:
        game.to_log()
    assert caught.value.rule == "argument"


# --- copies, is_legal, printing ----------------------------------------------------------------


@pytest.mark.parametrize("duplicate", [copy.copy, copy.deepcopy])
def test_a_copy_module_copy_is_independent(duplicate: Any) -> None:
    game = Game(["ana", "bob"], seed=1)
    twin = duplicate(game)
    twin.play("ana", 9)
    twin.play("bob", 1)
    twin.take_row("bob", 0)
    assert game.legal("ana") == (9, 16, 18, 33, 58, 61, 64, 73, 84, 98)
    assert game.table is not None and game.table.rows == ((35,), (30,), (76,), (14,))
    assert game.moves == () and twin.moves != ()


def test_is_legal_says_whether_act_takes_the_answer() -> None:
    rng = random.Random(3)
    answers: list[object] = [None, True, 1.0, "9", [9], -1, 0, 3, 4, 9, 98, 104, 105,
                             *NUMPY_ANSWERS]
    seats: list[object] = ["ana", "bob", "eve", ["ana"], None]
    for variant in Variant:
        game = Game(["ana", "bob"], Rules(variant, 15), seed=7)
        while game.phase is not Phase.OVER:
            for seat in seats:
                for answer in [*answers, *game.legal(game.to_move[0])[:2]]:
                    trial = game.copy()
                    try:
                        trial.act(seat, answer)  # type: ignore[arg-type]
                    except Take5Error:
                        taken = False
                    else:
                        taken = True
                    assert game.is_legal(seat, answer) is taken, (seat, answer)
            seat = rng.choice(game.to_move)
            game.act(seat, rng.choice(game.legal(seat)))


def test_str_shows_the_rows_with_their_bull_heads_the_hands_and_what_each_took() -> None:
    game = _low_card_game()
    game.take_row("bob", 1)  # bob takes row 1 (30: 3 bull heads); ana's 9 goes after bob's 1
    lines = str(game).splitlines()
    assert lines[0].startswith("Round 1, turn 2")
    assert lines[1].split() == ["row", "0:", "35", "(2", "bull", "heads)"]
    assert lines[2].split() == ["row", "1:", "1", "9", "(2", "bull", "heads)"]
    assert lines[4].split() == ["row", "3:", "14", "(1", "bull", "head)"]
    assert "ana: 9 cards in hand, total 0, taken this round: nothing" in lines[5]
    assert "bob: 9 cards in hand, total 0, taken this round: 30 (3 bull heads)" in lines[6]


# --- hostile arguments (issue 27) --------------------------------------------------------------


def test_a_list_as_seat_is_an_argument_error() -> None:
    game = Game(["a", "b"])
    calls: list[Callable[[], object]] = [lambda: game.play(["a"], 5), lambda: game.legal(["a"]),  # type: ignore[arg-type]
             lambda: game.observe(["a"]), lambda: game.hand(["a"]),  # type: ignore[arg-type]
             lambda: game.act({"a": 1}, 5)]  # type: ignore[arg-type]
    for call in calls:
        with pytest.raises(MalformedInputError) as caught:
            call()
        assert caught.value.rule == "argument"


@pytest.mark.parametrize("seed", ["x", 1.5, True, -7, 2**300, [1], *NOT_SEEDS_NUMPY])
def test_a_seed_that_is_not_a_whole_number_0_or_more_is_an_argument_error(seed: object) -> None:
    with pytest.raises(MalformedInputError) as caught:
        Game(["a", "b"], seed=seed)  # type: ignore[arg-type]
    assert caught.value.rule == "argument"


def test_a_numpy_seed_deals_as_the_int_it_holds() -> None:
    np = pytest.importorskip("numpy", reason="numpy's integers as seeds (take5rules[batch])")
    game = Game(["a", "b"], seed=np.int64(1))
    assert type(game.seed) is int and game.seed == 1
    assert game.table is not None and game.table.rows == ((35,), (30,), (76,), (14,))


def test_no_seed_draws_one_that_replays_the_game() -> None:
    game = Game(["a", "b"], seed=None)
    assert type(game.seed) is int and game.seed >= 0
    _steps(game, 25)
    assert Game.from_json(game.to_json()) == game


def test_rules_that_are_not_rules_are_an_argument_error() -> None:
    for rules in ("logic", 66, Variant.LOGIC):
        with pytest.raises(MalformedInputError) as caught:
            Game(["a", "b"], rules)  # type: ignore[arg-type]
        assert caught.value.rule == "argument"


# --- saved games: rules, seed, moves -----------------------------------------------------------


def _document(steps: int = 6, rules: Rules | None = None) -> dict[str, Any]:
    game = Game(["ana", "bob"], rules, seed=8)
    _steps(game, steps, seed=2)
    return json.loads(json.dumps(game.to_json()))  # type: ignore[no-any-return]


def _version_4(**changes: Any) -> dict[str, Any]:
    """A saved game as take5rules 0.4.0 wrote it (its 16 keys), seed 1 after ana laid 9."""
    document = {
        "format": "take5rules-game", "version": 1, "players": ["ana", "bob"],
        "rules": {"variant": "standard", "threshold": 66}, "phase": "cards", "round": 1,
        "totals": {"ana": 0, "bob": 0},
        "hands": {"ana": [16, 18, 33, 58, 61, 64, 73, 84, 98],
                  "bob": [1, 4, 13, 27, 49, 50, 56, 63, 78, 97]},
        "start": [[35], [30], [76], [14]], "revealed": [], "rows_taken": [],
        "laid": {"ana": 9}, "pool": [], "picks": [], "sheets": None,
        "rng": [3, [5] * 624 + [624], None],
    }
    document.update(changes)
    return document


def _refused(document: object) -> str:
    with pytest.raises(Take5Error) as caught:
        Game.from_json(document)
    return caught.value.rule


def test_a_saved_game_is_its_rules_its_seed_its_start_and_its_moves() -> None:
    game = _low_card_game()
    document = game.to_json()
    assert document == {
        "format": "take5rules-game", "version": 1, "players": ["ana", "bob"],
        "rules": {"variant": "standard", "threshold": 66}, "seed": 1, "first_round": 1,
        "totals_before": {"ana": 0, "bob": 0}, "deals": [],
        "moves": [["ana", 9], ["bob", 1]],
    }
    read = Game.from_json(document)
    assert read == game and read.moves == game.moves


def test_a_saved_game_taken_up_from_a_deal_keeps_the_deal() -> None:
    game = Game.from_deal(["ana", "bob"], Table.of([[10], [20], [30], [40]]),
                          {"ana": (1, 2), "bob": (41, 42)}, round=2,
                          totals={"ana": 3, "bob": 4})
    game.play("ana", 2)
    document = json.loads(json.dumps(game.to_json()))
    assert document["deals"] == [{"rows": [[10], [20], [30], [40]],
                                  "hands": {"ana": [1, 2], "bob": [41, 42]}}]
    assert (document["first_round"], document["totals_before"]) == (2, {"ana": 3, "bob": 4})
    assert Game.from_json(document) == game


@pytest.mark.parametrize("version", [1.0, True, "1", 2, None])
def test_a_version_other_than_the_int_1_is_refused(version: object) -> None:
    assert _refused({**_document(), "version": version}) == "state"


def test_every_document_of_the_0_4_0_shape_is_refused_as_not_a_saved_game() -> None:
    # The forged documents of issues 26 and 27 cannot even be expressed any more.
    forged = {
        "a total over the threshold in mid-game": _version_4(totals={"ana": 70, "bob": 0}),
        "a face-down card while a row is pending": _version_4(phase="row"),
        "a forged generator word": _version_4(rng=[3, [2**32 + 5] * 624 + [624], None]),
        "a gauss slot that is a text": _version_4(rng=[3, [5] * 624 + [624], "x"]),
        "a pool in the standard game": _version_4(pool=[5]),
        "a trailing None in rows_taken": _version_4(rows_taken=[None]),
        "the 0.4.0 document itself": _version_4(),
    }
    for what, document in forged.items():
        assert _refused(document) == "state", what


def test_a_move_while_a_row_is_pending_is_refused_by_the_low_card_rule() -> None:
    document = _low_card_game().to_json()
    document["moves"].append(["ana", 98])  # a card laid while bob's low card waits for a row
    assert _refused(document) == "table.low-card"


def test_a_total_at_the_threshold_before_a_round_is_refused_by_the_end_rule() -> None:
    game = Game.from_deal(["ana", "bob"], Table.of([[10], [20], [30], [40]]),
                          {"ana": (1, 2), "bob": (41, 42)}, round=2, totals={"ana": 1, "bob": 0})
    document = game.to_json()
    document["totals_before"]["ana"] = 66
    assert _refused(document) == "game.end"


def test_a_trailing_none_or_a_move_after_the_end_is_refused() -> None:
    assert _refused({**_document(), "moves": [*_document()["moves"], None]}) == "state"
    game = Game(["ana", "bob"], Rules(threshold=1), seed=3)
    while game.phase is not Phase.OVER:
        _steps(game, 1, seed=len(game.moves))
    document = game.to_json()
    document["moves"].append(["ana", 1])
    assert _refused(document) == "game.end"


@pytest.mark.parametrize("where", ["revealed", "moves", "seed", "players"])
def test_a_value_nested_100000_deep_is_refused_without_recursing(where: str) -> None:
    deep: Any = 5
    for _ in range(100_000):
        deep = [deep]
    document = _version_4() if where == "revealed" else _document()
    if where == "moves":
        document["moves"] = [["ana", deep]]
    else:
        document[where] = deep
    assert _refused(document) == "state"


def test_a_document_with_too_many_moves_is_refused_before_any_replay() -> None:
    document = _document()
    document["moves"] = [["ana", 1]] * (MAX_MOVES + 1)
    started = time.process_time()
    assert _refused(document) == "state"
    assert time.process_time() - started < 1.0


def test_a_seed_in_a_saved_game_is_checked_as_a_seed() -> None:
    for seed in (-1, 1.5, True, "1"):
        assert _refused({**_document(), "seed": seed}) == "state"


def test_unknown_missing_or_odd_keys_are_refused() -> None:
    document = _document()
    assert _refused({**document, "rng": [3, [1], None]}) == "state"
    assert _refused({key: value for key, value in document.items() if key != "moves"}) == \
        "state"
    assert _refused({**document, "rules": {"variant": "standard", "threshold": 66, "x": 1}}) \
        == "state"
    assert _refused({**document, "deals": [{"rows": [[1]], "hands": {}}]}) == "state"


def test_a_draft_replayed_from_a_document_reads_back_equal() -> None:
    for variant in (Variant.LOGIC, Variant.TOURNAMENT):
        game = Game(["ana", "bob", "cyd"], Rules(variant, 25), seed=9)
        _steps(game, 70, seed=9)
        assert Game.from_json(json.loads(json.dumps(game.to_json()))) == game


# --- the placement loop and the kernel ------------------------------------------------------


def test_the_game_places_every_card_as_the_kernel_resolves_it() -> None:
    # Game._place is the kernel's placements() written out for speed: pin it to the kernel,
    # placement for placement, on random turns (sixth cards and low cards included).
    kinds = {CardPlaced: _kernel.LEAST_DIFFERENCE, SixthCardTaken: _kernel.SIXTH_CARD,
             LowCardTaken: _kernel.LOW_CARD}
    rng = random.Random(11)
    for _ in range(300):
        count = rng.randint(2, 10)
        deck = rng.sample(range(1, 105), 20 + count)
        rows = sorted(deck[:20])
        table = [tuple(rows[start:start + length]) for start, length in
                 zip((0, 5, 10, 15), (rng.randint(1, 5) for _ in range(4)), strict=True)]
        names = [f"p{seat}" for seat in range(count)]
        plays = list(zip(names, deck[20:], strict=True))
        hands = {name: (card,) for name, card in plays}

        def choose(player: str, value: int, now: Any = None) -> int:
            return (value + len(player)) % 4

        expected = _kernel.resolve(list(table), plays, choose)
        game = Game.from_deal(names, Table.of(table), hands)
        events: list[Event] = []
        for name, card in plays:
            events += game.play(name, card)
        while game.phase is Phase.ROW:
            seat = game.to_move[0]
            pending = game.observe(seat).pending
            assert pending is not None
            events += game.take_row(seat, choose(seat, pending[1]))
        placed: list[Any] = [event for event in events if type(event) in kinds]
        assert [(e.player, e.card, e.row, getattr(e, "taken", ()), kinds[type(e)], e.rows)
                for e in placed] == expected


# --- the engine's fast path and the other constructors, given what they do not take ----------


def _seats(hands: dict[str, tuple[int, ...]], pick: Any) -> list[tuple[str, Any, str]]:
    return [(name, lambda seat: pick(hands[seat]), name) for name in ("ana", "bob")]


def test_play_turns_refuses_seats_that_are_not_every_seat_in_order() -> None:
    game = Game(["ana", "bob"], seed=1)
    hands: dict[str, tuple[int, ...]] = {}
    for seats in (_seats(hands, min)[:1], list(reversed(_seats(hands, min))), "ab", None):
        turns = game.play_turns(seats, hands.__setitem__,  # type: ignore[arg-type]
                                lambda seat, card: 0)
        with pytest.raises(MalformedInputError) as caught:
            next(turns)
        assert caught.value.rule == "argument"
    assert game == Game(["ana", "bob"], seed=1)


def test_play_turns_a_card_refused_leaves_the_game_as_before_the_turn() -> None:
    game = Game(["ana", "bob"], seed=1)
    hands: dict[str, tuple[int, ...]] = {}
    seats = [("ana", lambda seat: 9, "ana"), ("bob", lambda seat: 98, "bob")]  # 98 is ana's
    with pytest.raises(IllegalMoveError) as caught:
        next(game.play_turns(seats, hands.__setitem__, lambda seat, card: 0))
    assert caught.value.rule == "turn.reveal"
    assert game == Game(["ana", "bob"], seed=1) and game.moves == ()


def test_play_turns_a_row_refused_leaves_the_game_waiting_for_that_row() -> None:
    game = Game(["ana", "bob"], seed=1)
    hands: dict[str, tuple[int, ...]] = {}
    with pytest.raises(IllegalMoveError) as caught:
        next(game.play_turns(_seats(hands, min), hands.__setitem__, lambda seat, card: 4))
    assert caught.value.rule == "table.low-card"
    assert game == _low_card_game() and game.to_move == ("bob",)
    game.take_row("bob", 0)  # and the game goes on from there
    assert game.phase is Phase.CARDS and game.turn == 2


def test_play_turns_gives_the_events_and_moves_of_the_same_steps() -> None:
    stepped = _low_card_game()
    expected = stepped.take_row("bob", 3)
    game = Game(["ana", "bob"], seed=1)
    hands: dict[str, tuple[int, ...]] = {}
    turn = next(game.play_turns(_seats(hands, min), hands.__setitem__, lambda seat, card: 3))
    assert turn[1:] == expected and game == stepped and game.moves == stepped.moves


@pytest.mark.parametrize("count", [-1, 3, 1.0, True, "1"])
def test_replayed_takes_a_count_of_moves_from_0_to_their_number(count: object) -> None:
    with pytest.raises(MalformedInputError) as caught:
        _low_card_game().replayed(count)  # type: ignore[arg-type]
    assert caught.value.rule == "argument"


def test_from_deal_takes_a_round_that_is_a_whole_number_1_or_more() -> None:
    for number in (0, -1, True, 1.0):
        with pytest.raises(MalformedInputError) as caught:
            Game.from_deal(["ana", "bob"], Table.of([[10], [20], [30], [40]]),
                           {"ana": (1,), "bob": (2,)}, round=number)  # type: ignore[arg-type]
        assert caught.value.rule == "argument"


def test_deals_given_are_checked_as_a_deal() -> None:
    for deals, rule in (("x", "argument"), ([("rows",)], "argument"),
                        ([("rows", {})], "setup.deal"),
                        ([([[10], [20], [30], [40]], {"ana": (1,), "bob": (2,)})], "setup.deal"),
                        ([(Table.of([[10], [20], [30], [40]]), {"ana": (1,), "bob": (10,)})],
                         "cards.deck")):
        with pytest.raises(Take5Error) as caught:
            Game(["ana", "bob"], deals=deals)  # type: ignore[arg-type]
        assert caught.value.rule == rule, deals


def test_a_game_pickles_as_its_saved_document() -> None:
    game = _low_card_game()
    read = pickle.loads(pickle.dumps(game))
    assert read == game and read.moves == game.moves
    assert read.events == game.events  # the replay ends on the same step
    read.take_row("bob", 0)
    assert game.phase is Phase.ROW  # independent of the original
