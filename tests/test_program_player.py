"""A player that is a program (``ProgramPlayer``), and the engine's listening hook it relies on.

The hook's tests run in the fast loop (no process); the program's tests start a small Python
bot written here and are marked slow.
"""

from __future__ import annotations

from typing import Any

import pytest

from take5rules.events import CardsRevealed, Event, GameOver, RoundStarted
from take5rules.playing.engine import play_game, play_round, play_silently
from take5rules.playing.players import CardView, CautiousPlayer, LowestCardPlayer, RandomPlayer
from take5rules.table import Table
from take5rules.variants import Rules, Variant


class Listening(CautiousPlayer):
    """A cautious player that writes down what it is told and when it is asked."""

    def __init__(self) -> None:
        self.told: list[tuple[str, Event]] = []
        self.asked: list[tuple[int, int, int]] = []  # (round, turn, events told by then)

    def see(self, seat: str, event: Event) -> None:
        self.told.append((seat, event))

    def choose_card(self, view: CardView) -> int:
        self.asked.append((view.round, view.turn, len(self.told)))
        return super().choose_card(view)


def _seats(listener: Listening) -> dict[str, Any]:
    return {"ana": CautiousPlayer(), "bob": listener, "cyd": RandomPlayer(3),
            "dee": LowestCardPlayer()}


@pytest.mark.parametrize("variant", [Variant.STANDARD, Variant.LOGIC])
def test_play_game_tells_a_listening_seat_every_event_with_only_its_own_hand(
        variant: Variant) -> None:
    listener = Listening()
    events = list(play_game(_seats(listener), Rules(variant), seed=11))
    assert [seat for seat, _ in listener.told] == ["bob"] * len(events)
    for (_, seen), event in zip(listener.told, events, strict=True):
        if isinstance(event, RoundStarted):
            assert isinstance(seen, RoundStarted)
            assert dict(seen.hands) == {"bob": event.hands["bob"]}
            assert (seen.round, seen.rows) == (event.round, event.rows)
        else:
            assert seen == event
    assert isinstance(listener.told[-1][1], GameOver)


def test_a_listening_seat_has_been_told_everything_before_each_decision() -> None:
    listener = Listening()
    events = list(play_game(_seats(listener), seed=5))
    for round_number, turn, told in listener.asked:
        # every card revealed before this turn of this round, and no card of this turn
        before = [event for _, event in listener.told[:told]]
        reveals = [event.turn for event in before
                   if isinstance(event, CardsRevealed) and event.round == round_number]
        assert reveals == list(range(1, turn))
        assert any(isinstance(event, RoundStarted) and event.round == round_number
                   for event in before)
    assert len(listener.asked) == sum(isinstance(event, CardsRevealed) for event in events)


def test_play_silently_tells_a_listener_and_ends_as_play_game() -> None:
    listener = Listening()
    over = play_silently(_seats(listener), seed=8)
    assert isinstance(listener.told[-1][1], GameOver)
    assert listener.told[-1][1] == over
    assert over == list(play_game(_seats(Listening()), seed=8))[-1]


def test_play_round_tells_a_listener() -> None:
    listener = Listening()
    table = Table.of([[12], [37], [43], [58]])
    hands = {"ana": tuple(range(1, 11)), "bob": tuple(range(60, 70))}
    generator = play_round({"ana": CautiousPlayer(), "bob": listener}, 1, table, hands,
                           {"ana": 0, "bob": 0})
    events = list(generator)
    assert [event for _, event in listener.told][1:] == events[1:]
    first = listener.told[0][1]
    assert isinstance(first, RoundStarted)
    assert dict(first.hands) == {"bob": tuple(range(60, 70))}


def test_a_see_that_is_not_callable_is_no_listener() -> None:
    player = CautiousPlayer()
    seats: dict[str, Any] = {"ana": player, "bob": LowestCardPlayer()}
    odd = type("Odd", (LowestCardPlayer,), {"see": 3})()
    seats["bob"] = odd
    assert play_silently(seats, seed=2) == list(play_game(
        {"ana": CautiousPlayer(), "bob": LowestCardPlayer()}, seed=2))[-1]
