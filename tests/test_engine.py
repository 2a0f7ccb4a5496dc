from __future__ import annotations

import pytest

from take5rules.cards import Card
from take5rules.errors import IllegalMoveError, MalformedInputError, RulesError, Take5Error
from take5rules.events import CardDrafted, GameOver, GameStarted, RoundScored, RoundStarted
from take5rules.playing.engine import play_game, play_round, play_silently
from take5rules.playing.players import (
    CardView,
    CautiousPlayer,
    DraftView,
    LowestCardPlayer,
    RandomPlayer,
    RowChoice,
)
from take5rules.table import Table
from take5rules.variants import Rules, Variant


def _seats(count: int = 3) -> dict[str, object]:
    kinds = [CautiousPlayer(), LowestCardPlayer(), RandomPlayer(1), RandomPlayer(2),
             CautiousPlayer()]
    return {f"p{n}": kinds[n % len(kinds)] for n in range(count)}


@pytest.mark.parametrize("variant", list(Variant))
def test_play_game_runs_every_variant_to_a_game_over(variant: Variant) -> None:
    events = list(play_game(_seats(4), Rules(variant), seed=3))  # type: ignore[arg-type]
    assert isinstance(events[0], GameStarted)
    assert isinstance(events[-1], GameOver)


def test_play_game_is_reproducible_from_a_seed() -> None:
    first = list(play_game(_seats(), seed=42))  # type: ignore[arg-type]
    second = list(play_game(_seats(), seed=42))  # type: ignore[arg-type]
    assert first == second
    assert first != list(play_game(_seats(), seed=43))  # type: ignore[arg-type]


def test_logic_variant_drafts_in_seat_order() -> None:
    events = list(play_game(_seats(3), Rules(Variant.LOGIC), seed=0))  # type: ignore[arg-type]
    picks = [e for e in events if isinstance(e, CardDrafted) and e.round == 1]
    assert len(picks) == 30
    assert [p.player for p in picks[:4]] == ["p0", "p1", "p2", "p0"]
    start = next(e for e in events if isinstance(e, RoundStarted))
    drafted = {p.card for p in picks}
    assert sorted(drafted | {row[0] for row in start.rows}) == list(range(1, 35))


def test_tournament_plays_one_game_per_player_with_passed_hands() -> None:
    events = list(play_game(_seats(3), Rules(Variant.TOURNAMENT), seed=0))  # type: ignore[arg-type]
    starts = [e for e in events if isinstance(e, RoundStarted)]
    assert len(starts) == 3
    assert all(s.rows == starts[0].rows for s in starts)
    assert starts[1].hands["p1"] == starts[0].hands["p0"]
    assert len([e for e in events if isinstance(e, CardDrafted)]) == 30
    scored = [e for e in events if isinstance(e, RoundScored)]
    # The totals are the sums of the three games' penalties; the winners hold the lowest.
    totals = {player: sum(s.penalties[player] for s in scored) for player in ("p0", "p1", "p2")}
    lowest = min(totals.values())
    winners = tuple(player for player in ("p0", "p1", "p2") if totals[player] == lowest)
    assert events[-1] == GameOver(3, totals, winners)


def test_game_ends_after_the_round_reaching_the_threshold() -> None:
    events = list(play_game(_seats(), Rules(threshold=20), seed=5))  # type: ignore[arg-type]
    scored = [e for e in events if isinstance(e, RoundScored)]
    assert max(scored[-1].totals.values()) >= 20
    assert all(max(s.totals.values()) < 20 for s in scored[:-1])


class _Cheater:
    def choose_card(self, view: CardView) -> Card:
        return 105 if view.turn == 2 else view.hand[0]

    def choose_row(self, choice: RowChoice) -> int:
        return 7

    def choose_draft(self, view: DraftView) -> Card:
        return 200


def test_an_illegal_card_from_a_player_is_rejected_with_where() -> None:
    with pytest.raises(Take5Error) as caught:
        list(play_game({"ana": _Cheater(), "bob": LowestCardPlayer()}, seed=0))
    assert caught.value.rule in {"turn.reveal", "table.low-card"}
    assert caught.value.where.player == "ana"


class _Answers:
    """Plays its lowest card, except on turn 2, where it answers *card*; takes row *row*."""

    def __init__(self, card: object, row: object = 0) -> None:
        self.card = card
        self.row = row

    def choose_card(self, view: CardView) -> Card:
        return self.card if view.turn == 2 else min(view.hand)  # type: ignore[return-value]

    def choose_row(self, choice: RowChoice) -> int:
        return self.row  # type: ignore[return-value]

    def choose_draft(self, view: DraftView) -> Card:
        return min(view.pool)


@pytest.mark.parametrize("card", [105, 0, -3, True, 7.0, "12", None])
def test_play_game_rejects_a_card_that_is_not_in_the_hand(card: object) -> None:
    # Issue 9: a player answering 105 raised MalformedInputError, where players.py documents
    # IllegalMoveError for every illegal answer. With the deck 1 to 24 of two tactics players,
    # none of these is a card of a hand.
    seats = {"ana": LowestCardPlayer(), "bob": _Answers(card)}
    with pytest.raises(IllegalMoveError) as caught:
        list(play_game(seats, Rules(Variant.TACTICS), seed=0))  # type: ignore[arg-type]
    assert caught.value.rule == "turn.reveal"
    assert (caught.value.where.round, caught.value.where.turn) == (1, 2)
    assert caught.value.where.player == "bob"


def test_play_game_rejects_a_card_already_played() -> None:
    class Repeats(_Answers):
        def choose_card(self, view: CardView) -> Card:
            self.card = self.card if view.turn > 1 else min(view.hand)
            return self.card  # type: ignore[return-value]

    with pytest.raises(IllegalMoveError) as caught:
        list(play_game({"ana": LowestCardPlayer(), "bob": Repeats(None)}, seed=0))
    assert caught.value.rule == "turn.reveal"
    assert caught.value.where.turn == 2


class _LowestWithRow(_Answers):
    """Always plays its lowest card; answers *row* for a low card."""

    def choose_card(self, view: CardView) -> Card:
        return min(view.hand)


@pytest.mark.parametrize("row", [4, -1, True, 1.0, None])
def test_play_game_rejects_a_row_outside_0_to_3_for_a_low_card(row: object) -> None:
    # Both players always play their lowest card, so a low card comes in the first round.
    seats = {"ana": _LowestWithRow(None, row), "bob": _LowestWithRow(None, row)}
    with pytest.raises(IllegalMoveError) as caught:
        list(play_game(seats, seed=0))
    assert caught.value.rule == "table.low-card"
    assert caught.value.where.round == 1


def test_play_silently_ends_like_play_game() -> None:
    for seed in range(5):
        for variant in Variant:
            events = list(play_game(_seats(4), Rules(variant, threshold=30), seed=seed))  # type: ignore[arg-type]
            over = play_silently(_seats(4), Rules(variant, threshold=30), seed=seed)  # type: ignore[arg-type]
            assert over == events[-1]


def test_an_illegal_draft_pick_is_rejected() -> None:
    with pytest.raises(IllegalMoveError) as caught:
        list(play_game({"ana": _Cheater(), "bob": LowestCardPlayer()}, Rules(Variant.LOGIC)))
    assert caught.value.rule == "variants.logic"


@pytest.mark.parametrize(("count", "variant"), [(1, Variant.STANDARD), (11, Variant.STANDARD),
                                                (7, Variant.LOGIC), (6, Variant.TOURNAMENT)])
def test_play_game_refuses_player_counts(count: int, variant: Variant) -> None:
    with pytest.raises(RulesError):
        list(play_game(_seats(count), Rules(variant)))  # type: ignore[arg-type]


def test_play_game_refuses_an_object_that_is_not_a_player() -> None:
    with pytest.raises(RulesError):
        list(play_game({"ana": object(), "bob": LowestCardPlayer()}))  # type: ignore[dict-item]


@pytest.mark.parametrize("pick", [True, 1.0, "1", 200])
def test_an_illegal_draft_answer_is_an_illegal_move(pick: object) -> None:
    # True == 1 and 1.0 == 1 are in the face-up cards as far as `in` can tell; neither is a card.
    drafter = _Answers(1)
    drafter.choose_draft = lambda view: pick  # type: ignore[method-assign,assignment,return-value]
    seats = {"ana": drafter, "bob": LowestCardPlayer()}
    with pytest.raises(IllegalMoveError) as caught:
        list(play_game(seats, Rules(Variant.LOGIC)))  # type: ignore[arg-type]
    assert caught.value.rule == "variants.logic"


def test_play_round_plays_a_given_deal_to_its_score() -> None:
    seats = {"ana": LowestCardPlayer(), "bob": LowestCardPlayer()}
    events = list(play_round(seats, 1, Table.of([[9], [20], [30], [40]]),
                             {"ana": (11, 12), "bob": (1, 41)}, {"ana": 5, "bob": 0}))
    # Turn 1: 1 is low and bob takes the cheapest row, the 9 (1 bull head; the others hold 3
    # each); 11 follows the 1.
    # Turn 2: 12 follows the 11; 41 follows the 40.
    scored = events[-1]
    assert isinstance(scored, RoundScored)
    assert dict(scored.penalties) == {"ana": 0, "bob": 1}
    assert dict(scored.totals) == {"ana": 5, "bob": 1}


@pytest.mark.parametrize(
    ("table", "hands", "totals", "rule"),
    [
        ([[10], [20], [30], [40]], {"ana": (11,), "bob": (12,)}, {"ana": 0, "bob": 0},
         "setup.deal"),
        (Table.of([[10], [20], [30], [40]]), {"ana": (11,), "bob": (20,)}, {"ana": 0, "bob": 0},
         "cards.deck"),
        (Table.of([[10], [20], [30], [40]]), {"ana": (11,), "bob": (11,)}, {"ana": 0, "bob": 0},
         "cards.deck"),
        (Table.of([[10], [20], [30], [40]]), {"ana": (105,), "bob": (12,)}, {"ana": 0, "bob": 0},
         "cards.deck"),
        (Table.of([[10], [20], [30], [40]]), {"ana": (11, 13), "bob": (12,)},
         {"ana": 0, "bob": 0}, "setup.deal"),
        (Table.of([[10], [20], [30], [40]]), {"ana": (11,), "cyd": (12,)}, {"ana": 0, "cyd": 0},
         "setup.players"),
        (Table.of([[10], [20], [30], [40]]), {"ana": (11,), "bob": (12,)}, {"ana": -1, "bob": 0},
         "game.totals"),
    ],
)
def test_play_round_checks_the_deal_it_is_given(
    table: object, hands: dict[str, tuple[int, ...]], totals: dict[str, int], rule: str
) -> None:
    seats = {"ana": LowestCardPlayer(), "bob": LowestCardPlayer()}
    with pytest.raises(MalformedInputError) as caught:
        list(play_round(seats, 1, table, hands, totals))  # type: ignore[arg-type]
    assert caught.value.rule == rule


class _UncallableCard:
    """Has the three decisions by name, but its choose_card is a number, not a method."""

    choose_card = 5

    def choose_row(self, choice: RowChoice) -> int:
        return 0

    def choose_draft(self, view: DraftView) -> Card:
        return view.pool[0]


@pytest.mark.parametrize("run", [lambda seats: list(play_game(seats)), play_silently])
def test_a_class_seated_instead_of_a_player_is_an_argument_error_naming_its_seat(
    run: object,
) -> None:
    # Issue 27: play_game({"a": CautiousPlayer, ...}) was a raw TypeError from inside the player.
    seats = {"a": CautiousPlayer(), "b": CautiousPlayer}
    with pytest.raises(MalformedInputError) as caught:
        run(seats)  # type: ignore[operator]
    assert caught.value.rule == "argument"
    assert caught.value.params["player"] == "b"
    assert "CautiousPlayer()" in str(caught.value)


@pytest.mark.parametrize("run", [lambda seats: list(play_game(seats)), play_silently])
def test_a_decision_that_cannot_be_called_is_an_argument_error_naming_its_seat(
    run: object,
) -> None:
    seats = {"a": _UncallableCard(), "b": CautiousPlayer()}
    with pytest.raises(MalformedInputError) as caught:
        run(seats)  # type: ignore[operator]
    assert caught.value.rule == "argument"
    assert caught.value.params["player"] == "a"
    assert caught.value.params["decision"] == "choose_card"


def test_an_object_lacking_a_decision_still_breaks_setup_players() -> None:
    with pytest.raises(RulesError) as caught:
        play_silently({"a": object(), "b": CautiousPlayer()})  # type: ignore[dict-item]
    assert caught.value.rule == "setup.players"
