"""A round: ten turns from the deal, then each player's bull pile is scored.

:class:`RoundState` is an immutable value; :func:`play_turn` takes a state and one turn's plays
and returns the next state with the events of the turn.

>>> from types import MappingProxyType
>>> from take5rules.table import Table
>>> state = RoundState.start(1, Table.start([12, 37, 43, 58]),
...                          {"ana": (14, 61), "bob": (15, 44)})
>>> state, events = play_turn(state, {"ana": 14, "bob": 15})
>>> state.table.rows, state.hands["ana"], state.turn
(((12, 14, 15), (37,), (43,), (58,)), (61,), 1)
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, replace
from types import MappingProxyType

from take5rules._messages import N_
from take5rules.cards import Card, total_bull_heads
from take5rules.errors import IllegalMoveError, Where
from take5rules.events import CardPlaced, CardsRevealed, Event, LowCardTaken, SixthCardTaken
from take5rules.registry import AMIGO, SEEDS, Source, rule
from take5rules.setup import HAND_SIZE
from take5rules.table import Table
from take5rules.turn import ChooseRow, no_row_choice, placement_order, resolve_turn, reveal

__all__ = ["RoundState", "play_turn", "round_over", "round_penalties"]

_FR, _BG, _FR2, _IT, _EO = SEEDS


@dataclass(frozen=True, slots=True)
class RoundState:
    """A round in progress: the table, the hands, the bull piles and the turns played."""

    number: int
    table: Table
    hands: Mapping[str, tuple[Card, ...]]
    piles: Mapping[str, tuple[Card, ...]]
    turn: int = 0

    @classmethod
    def start(
        cls, number: int, table: Table, hands: Mapping[str, tuple[Card, ...]]
    ) -> RoundState:
        """A round before its first turn."""
        return cls(
            number,
            table,
            MappingProxyType({player: tuple(sorted(hand)) for player, hand in hands.items()}),
            MappingProxyType(dict.fromkeys(hands, ())),
        )

    @property
    def players(self) -> tuple[str, ...]:
        """The players, in seat order."""
        return tuple(self.hands)


@rule(
    "round.end",
    title=N_("End of a round"),
    statement=N_("A round ends after ten turns, when every player has played all ten cards."),
    explanation=N_(
        "Each turn uses one card of every hand, so all hands empty together after the tenth "
        "turn. Only then are the bull piles scored; then all the cards go back into the deck "
        "and the next round is dealt from the 104 cards shuffled again (in the variants, from "
        "the same reduced deck). Example: "
        "after the tenth turn nobody holds a card, and the scoring begins."
    ),
    sources=(
        Source(_FR, "Notation et fin du tour"),
        Source(_BG, "Оценяване и край на кръга"),
        Source(_FR2, "Quand la partie se termine-t-elle et qui l'emporte ?"),
        Source(_IT, "FINIRE UN GIRO"),
        Source(_EO, "Poentado kaj Fino de Rondo"),
        Source(AMIGO, "End of a round"),
    ),
)
def round_over(state: RoundState) -> bool:
    """Whether the round is over: ten turns played, every hand empty (rule ``round.end``).

    >>> from take5rules.table import Table
    >>> round_over(RoundState.start(1, Table.start([1, 2, 3, 4]), {"ana": (), "bob": ()}))
    True
    """
    return all(not hand for hand in state.hands.values())


@rule(
    "round.score",
    title=N_("Scoring a round"),
    statement=N_(
        "At the end of a round each player scores one penalty point per bull head on the "
        "cards in their bull pile."
    ),
    explanation=N_(
        "The cards themselves do not count, only the bull heads printed on them; a player "
        "who took nothing scores zero. Example: a bull pile of 51, 55, 61, 68, 73, 96, 20 "
        "and 40 holds 1 + 7 + 1 + 1 + 1 + 1 + 3 + 3 = 18 bull heads, so 18 points."
    ),
    sources=(
        Source(_FR, "Notation et fin du tour"),
        Source(_BG, "Оценяване и край на кръга"),
        Source(_FR2, "Erreurs fréquentes"),
        Source(_IT, "PUNTEGGIO"),
        Source(_EO, "Poentado kaj Fino de Rondo"),
        Source(AMIGO, "End of a round"),
    ),
)
def round_penalties(piles: Mapping[str, tuple[Card, ...]]) -> dict[str, int]:
    """Each player's penalty for the round: the bull heads in their pile (rule ``round.score``).

    >>> round_penalties({"ana": (51, 55, 61, 68, 73), "bob": ()})
    {'ana': 11, 'bob': 0}
    """
    return {player: total_bull_heads(pile) for player, pile in piles.items()}


def play_turn(
    state: RoundState,
    plays: Mapping[str, object],
    choose_row: ChooseRow = no_row_choice,
) -> tuple[RoundState, tuple[Event, ...]]:
    """Play one turn: check the plays, place them lowest first, update hands and bull piles.

    *choose_row* answers for the player of a low card, at the moment it is placed.
    """
    turn = state.turn + 1
    where = Where(state.number, turn)
    if turn > HAND_SIZE or round_over(state):
        raise IllegalMoveError(
            "round.end", N_("the round has already ended after ten turns"), where=where
        )
    revealed = reveal(state.hands, plays, where)
    result = resolve_turn(state.table, revealed, choose_row, where)
    events: list[Event] = [CardsRevealed(state.number, turn, placement_order(revealed))]
    piles = dict(state.piles)
    for player, placement in result.placements:
        rows = placement.table.rows
        if placement.rule == "table.least-difference":
            events.append(
                CardPlaced(state.number, turn, player, placement.card, placement.row, rows)
            )
            continue
        kind = SixthCardTaken if placement.rule == "table.sixth-card" else LowCardTaken
        events.append(
            kind(state.number, turn, player, placement.card, placement.row, placement.taken,
                 rows)
        )
        piles[player] = piles[player] + placement.taken
    hands = {
        player: tuple(c for c in hand if c != revealed[player])
        for player, hand in state.hands.items()
    }
    new_state = replace(
        state,
        table=result.table,
        hands=MappingProxyType(hands),
        piles=MappingProxyType(piles),
        turn=turn,
    )
    return new_state, tuple(events)
