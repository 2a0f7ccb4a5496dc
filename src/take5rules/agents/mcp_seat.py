"""The seat at the table that the MCP server gives a remote player: its game, its view, its moves.

The remote seat plays against built-in players (the kinds of
:data:`~take5rules.agents.player_kinds.PLAYER_KINDS`, the learned ``policy`` included); after
each of its moves they play until the seat must decide again, or the game is over. The seat
sees what a person at the table sees: its own hand (never another's), the rows, the totals,
and every card revealed, also when its own low card waits for its row (the game reports the
turn's cards revealed, and the cards placed before the low card, in the step that asks for the
row).

Each reply also carries what the rules already know, so that an agent need not work it out:
each row's bull heads, the cards and bull heads each player has taken this round, and once a
round is scored, what each took in it. The session keeps the last :data:`MAX_TURNS_KEPT` turns
(the rows before each and its public events) for the prompt that explains a turn
(:func:`turn_prompt`).
"""

from __future__ import annotations

import re
from collections import OrderedDict
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

from take5rules._messages import N_
from take5rules.agents.arguments import ARGUMENT, shown
from take5rules.agents.player_kinds import new_player
from take5rules.agents.seat_players import advance, seat_names
from take5rules.cards import Card, total_bull_heads
from take5rules.errors import MalformedInputError, ProtocolError, Where
from take5rules.events import (
    CardPlaced,
    CardsRevealed,
    Event,
    LowCardTaken,
    RoundScored,
    RoundStarted,
    RowTaken,
    SixthCardTaken,
    seen_by,
)
from take5rules.playing.players import Player, RandomPlayer
from take5rules.playing.stepper import Game, Phase
from take5rules.text import explain, narrate, phrase_text, rows_text
from take5rules.variants import Rules, Variant

__all__ = ["MAX_TURNS_KEPT", "TOOLS", "Session", "TurnRecord", "report", "seat_move",
           "start_game", "taken_json", "turn_prompt", "turn_wanted"]

#: The turns a session keeps for the prompt that explains a turn (the oldest forgotten first).
MAX_TURNS_KEPT = 200

#: The tool that answers each phase's decision.
TOOLS = {Phase.CARDS: "play_card", Phase.ROW: "choose_row", Phase.DRAFT: "draft_card"}

_WRONG_TOOL = {
    Phase.CARDS: N_("{player!r} must play a card of their hand now: call play_card, not {tool}"),
    Phase.ROW: N_("{player!r} must choose the row that their low card {card} takes now: call "
                  "choose_row, not {tool}"),
    Phase.DRAFT: N_("{player!r} must draft one of the face-up cards now: call draft_card, not "
                    "{tool}"),
}
_OVER = N_("the game is over: {tool} has nothing left to do; start another game with new_game")

#: The phase names of the replies (the seat's own decision, or the game over).
_PHASES = {Phase.CARDS: "card", Phase.ROW: "row", Phase.DRAFT: "draft", Phase.OVER: "over"}


@dataclass
class TurnRecord:
    """One turn as the seat saw it: the rows before it, then its public events in order."""

    round: int
    turn: int
    rows_before: tuple[tuple[Card, ...], ...]
    events: list[Event] = field(default_factory=list)


@dataclass
class Session:
    """One game played by a remote seat: the game, the built-in opponents, the language."""

    game: Game
    seat: str
    bots: dict[str, Player]
    language: str
    #: The events not yet told to the seat (as the seat may see them).
    untold: list[Event] = field(default_factory=list)
    #: The last turns played, by (round, turn), at most :data:`MAX_TURNS_KEPT`.
    turns: OrderedDict[tuple[int, int], TurnRecord] = field(default_factory=OrderedDict)
    #: The rows as the last event told left them.
    rows: tuple[tuple[Card, ...], ...] = ()
    #: The cards each player has taken in the round under way, from the events.
    round_taken: dict[str, list[Card]] = field(default_factory=dict)
    #: The last round scored: its number and the cards each player took in it.
    last_round: tuple[int, dict[str, tuple[Card, ...]]] | None = None

    def tell(self, events: Iterable[Event]) -> None:
        """Take in *events* (as the seat may see them): to be told, and kept for the prompts."""
        for event in events:
            public = seen_by(event, self.seat)
            self.untold.append(public)
            self._keep(public)

    def _keep(self, event: Event) -> None:
        if isinstance(event, RoundStarted):
            self.rows = event.rows
            self.round_taken = {player: [] for player in self.game.players}
        elif isinstance(event, CardsRevealed):
            self.turns[event.round, event.turn] = TurnRecord(event.round, event.turn, self.rows,
                                                             [event])
            while len(self.turns) > MAX_TURNS_KEPT:
                self.turns.popitem(last=False)
        elif isinstance(event, RoundScored):
            self.last_round = (event.round, {player: tuple(self.round_taken.get(player, ()))
                                             for player in self.game.players})
        if isinstance(event, CardPlaced | RowTaken):
            self.rows = event.rows
            record = self.turns.get((event.round, event.turn))
            if record is not None:
                record.events.append(event)
        if isinstance(event, RowTaken):
            self.round_taken.setdefault(event.player, []).extend(event.taken)


def _opponent(kind: str, seed: int | None, index: int) -> Player:
    if kind == "random":
        return RandomPlayer(None if seed is None else seed + index)
    return new_player(kind)  # policy: numpy, else the one-line error naming the extra


def start_game(name: str, opponents: list[str], rules: Rules, seed: int | None,
               language: str) -> Session:
    """A new game with the remote seat *name* first, played up to the seat's first decision.

    The opponents are named as ``take5rules play`` and the Gymnasium env name their seats
    (:func:`~take5rules.agents.seat_players.seat_names`): ``cautious``, then ``cautious#2``...
    """
    names = seat_names(opponents, taken=(name,))
    bots = {seat: _opponent(kind, seed, index)
            for index, (seat, kind) in enumerate(zip(names, opponents, strict=True), start=1)}
    game = Game((name, *bots), rules, seed)
    session = Session(game, name, bots, language)
    session.tell(game.events)
    session.tell(advance(game, bots))
    return session


def seat_move(session: Session, tool: str, value: int) -> None:
    """The remote seat's move with *tool*; then the built-in players play on."""
    game = session.game
    if game.phase is Phase.OVER:
        raise ProtocolError(_OVER, tool=tool)
    if TOOLS[game.phase] != tool:
        pending = game.observe(session.seat).pending
        raise ProtocolError(_WRONG_TOOL[game.phase],
                            where=Where(game.round, game.turn or None, session.seat),
                            player=session.seat, tool=tool,
                            card=pending[1] if pending is not None else None)
    session.tell(game.act(session.seat, value))
    session.tell(advance(game, session.bots))


def taken_json(players: Sequence[str],
               taken: Mapping[str, Sequence[Card]]) -> dict[str, dict[str, Any]]:
    """Each player's cards *taken* and their bull heads, as a reply says them.

    >>> taken_json(["ana", "bob"], {"bob": (55, 3)})
    {'ana': {'cards': [], 'bull_heads': 0}, 'bob': {'cards': [55, 3], 'bull_heads': 8}}
    """
    return {player: {"cards": list(taken.get(player, ())),
                     "bull_heads": total_bull_heads(taken.get(player, ()))}
            for player in players}


def report(game_id: str, session: Session) -> dict[str, Any]:
    """What the remote seat sees now, and the narration of what happened since last time."""
    game = session.game
    seat = session.seat
    seen = game.observe(seat)
    new = list(session.untold)
    session.untold.clear()
    waiting = seat in seen.to_move
    result: dict[str, Any] = {
        "game_id": game_id,
        "you": seat,
        "players": list(game.players),
        "phase": _PHASES[seen.phase] if waiting or seen.phase is Phase.OVER else "waiting",
        "round": seen.round,
        "hand": list(seen.hand),
        "rows": seen.table.to_json() if seen.table is not None else [],
        "row_bull_heads": [total_bull_heads(row) for row in seen.table.rows]
        if seen.table is not None else [],
        "taken_this_round": taken_json(game.players, seen.taken),
        "totals": dict(seen.totals),
    }
    if session.last_round is not None:
        number, taken = session.last_round
        result["last_round"] = {"round": number, "taken": taken_json(game.players, taken)}
    if seen.phase is Phase.ROW and waiting:
        assert seen.pending is not None
        plays = seen.revealed[-1]  # this turn's cards, in placement order
        result["low_card"] = seen.pending[1]
        result["revealed"] = [list(play) for play in plays]
    result["narration"] = [narrate(event, session.language, rules=game.rules) for event in new]
    if seen.phase is Phase.DRAFT:
        result["pool"] = list(seen.pool)
    if game.result is not None:
        result["winners"] = list(game.result.winners)  # as the rule game.winners decides
    return result


_TURN = re.compile(r"(?:([0-9]{1,6})\.)?([0-9]{1,6})")

#: The rules every turn applies, and those a row taken adds, in rulebook order.
_TURN_RULES = ("turn.reveal", "turn.order", "table.ascending", "table.least-difference")

_PROMPT = N_("Explain turn {turn} of round {round} of this game of Take 5 (6 nimmt!) to "
             "{player}, step by step: why each card went where it did, and why anyone took a "
             "row. Cite the rules below by their ids, and use no other rule.")
_BEFORE = N_("Before the turn. {rows}")
_WHAT_HAPPENED = N_("What happened:")
_THE_RULES = N_("The rules that decide it:")
_VARIANT = N_("The game is played in the {variant} variant.")


def turn_wanted(session: Session, text: str | None) -> TurnRecord:
    """The turn that *text* names in the session's game; the last turn played when None.

    *text* is ``"2.3"`` (round 2, turn 3) or ``"3"`` (turn 3 of the round under way). A turn
    not played yet, or forgotten (beyond :data:`MAX_TURNS_KEPT`), is refused, naming the turns
    kept.
    """
    if not session.turns:
        raise MalformedInputError(ARGUMENT, N_("no turn of this game has been played yet"))
    if text is None:
        return session.turns[next(reversed(session.turns))]
    match = _TURN.fullmatch(text.strip()) if isinstance(text, str) else None
    if match is None:
        raise MalformedInputError(
            ARGUMENT, N_("{name} = {value}: {name} must name a turn, as 2.3 (round 2, turn 3) "
                         "or 3 (turn 3 of this round)"), name="turn", value=shown(text))
    number = int(match.group(2))
    round_ = int(match.group(1)) if match.group(1) is not None else session.game.round
    record = session.turns.get((round_, number))
    if record is None:
        first, last = next(iter(session.turns)), next(reversed(session.turns))
        raise MalformedInputError(
            ARGUMENT, N_("{name} = {value}: turn {turn} of round {round} is not one of the turns "
                         "kept, {first} to {last}"), name="turn", value=shown(text),
            turn=number, round=round_, first=f"{first[0]}.{first[1]}",
            last=f"{last[0]}.{last[1]}")
    return record


def turn_prompt(session: Session, record: TurnRecord, language: str) -> str:
    """The request to explain *record*'s turn, in *language*, for a language model.

    It holds the rows before the turn, what happened as the narration tells it, and the
    statement of each rule that decided it.
    """
    rules = session.game.rules
    ids = list(_TURN_RULES)
    if any(isinstance(event, SixthCardTaken) for event in record.events):
        ids.append("table.sixth-card")
    if any(isinstance(event, LowCardTaken) for event in record.events):
        ids.append("table.low-card")
    if any(isinstance(event, RowTaken) for event in record.events):
        ids.append("cards.bull-heads")
    if rules.variant is not Variant.STANDARD:
        ids.append(f"variants.{rules.variant.value}")
    lines = [phrase_text(_PROMPT, language, turn=record.turn, round=record.round,
                         player=session.seat)]
    if rules.variant is not Variant.STANDARD:
        lines.append(phrase_text(_VARIANT, language, variant=rules.variant.value))
    lines += ["", phrase_text(_BEFORE, language, rows=rows_text(record.rows_before, language)),
              "", phrase_text(_WHAT_HAPPENED, language)]
    lines += [narrate(event, language, rules=rules) for event in record.events]
    lines += ["", phrase_text(_THE_RULES, language)]
    for rule_id in ids:
        item = explain(rule_id, language)
        lines.append(f"- {item.rule_id} — {item.title}: {item.statement}")
    return "\n".join(lines)
