"""Checking game logs: replay a take5-log with the rule functions and report every violation.

:func:`validate` takes a parsed take5-log (see :mod:`take5rules.log`), checks its shape (that
of its JSON Schema), then replays it round by round with the rule functions themselves: the seats
(:func:`~take5rules.setup.check_players`), the deal or the draft
(:func:`~take5rules.variants.draft`), each turn (:func:`~take5rules.round.play_turn`, which
reveals and places the cards), the scores (:func:`~take5rules.round.round_penalties`,
:func:`~take5rules.game.add_penalties`), the end (:func:`~take5rules.game.game_over`) and the
winners. Every claim the log makes is compared with what the rules give; absent claims are
computed. Each violation names the rule id it breaks, where (round, turn, player, card) and the
JSON path in the log.

A round's replay stops at its first illegal play (the state is then unknown), but later rounds
are still checked on their own deal; claims and totals are checked wherever they can be.

Speed: the shape is checked once, where the log enters, by a hand-written check of the schema
(:func:`take5rules.log.check_format`; jsonschema is not used). Each round is then first replayed
by a small kernel on plain ints (:meth:`_Checker.quick_deal`, :meth:`_Checker.quick_turns`)
that only answers whether the round breaks no rule, and what each player took; any round it
does not vouch for is replayed again by the rule functions above, which find and name every
violation. A test pins the two to the same reports on valid and broken logs.

Memory: :func:`validate_file` and :func:`validate_stream` read the file incrementally (see
:class:`take5rules._logread.LogStream`) and check each round as soon as it is parsed, so memory
is that of one round, not of the file; :func:`validate` takes a log already parsed.

>>> from take5rules.engine import play_game
>>> from take5rules.log import log_from_events
>>> from take5rules.players import CautiousPlayer, LowestCardPlayer
>>> log = log_from_events(play_game({"ana": CautiousPlayer(), "bob": LowestCardPlayer()}, seed=3))
>>> report = validate(log)
>>> report.valid, report.complete
(True, True)
>>> log["rounds"][0]["turns"][1]["plays"]["ana"] = log["rounds"][0]["turns"][0]["plays"]["ana"]
>>> first = validate(log).violations[0]
>>> first.rule, first.path
('turn.reveal', '$.rounds[0].turns[1].plays.ana')
"""

from __future__ import annotations

import json
from collections import Counter
from collections.abc import Callable, Iterable, Iterator, Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from ._logread import LogStream
from ._logread import member_path as _key
from ._text import N_, Nn_, os_reason
from .cards import HIGHEST, Card, bull_heads, cards, deck
from .errors import IllegalMoveError, Take5Error, Where
from .events import CardPlaced, Event, LowCardTaken, RowTaken, SixthCardTaken
from .game import add_penalties, game_over, winners
from .i18n import (
    error_message,
    explain,
    label,
    labelled,
    translator,
)
from .log import LogError, _stdin, check_format, check_loggable, load
from .registry import RULE_ORDER
from .round import RoundState, play_turn, round_penalties
from .setup import HAND_SIZE, ROWS, cards_in_play, check_players
from .table import ROW_LIMIT, Table, ascending_rows, place_card
from .turn import RowChoice
from .variants import DEFAULT_THRESHOLD, Rules, Variant, agreed_threshold, draft

__all__ = [
    "Report",
    "Violation",
    "load",
    "validate",
    "validate_file",
    "validate_files",
    "validate_stream",
]

#: The bull heads of each card, by its number (index 0 unused), from the rule function.
_HEADS = (0, *(bull_heads(value) for value in deck()))


@dataclass(frozen=True, slots=True)
class Violation:
    """One rule a log breaks: the error (rule id, where, message) and its JSON path in the log."""

    error: Take5Error
    path: str

    @property
    def rule(self) -> str:
        """The id of the rule broken."""
        return self.error.rule

    @property
    def where(self) -> Where:
        """Where in the game: round, turn, player and card, as far as they apply."""
        return self.error.where

    def message(self, language: str = "en") -> str:
        """The violation in *language*: where, what the log says against the rules, the rule id."""
        return error_message(self.error, language)

    def statement(self, language: str = "en") -> str:
        """The statement of the rule broken, in *language*."""
        return explain(self.rule, language).statement

    def to_json(self, language: str = "en") -> dict[str, Any]:
        """A JSON-ready description of the violation."""
        return {
            "rule": self.rule,
            "where": self.where.parts(),
            "path": self.path,
            "message": self.message(language),
            "statement": self.statement(language),
        }


@dataclass(frozen=True, slots=True)
class Report:
    """The outcome of checking a log.

    ``violations`` in the order found; ``complete`` says whether the log records a finished
    game; ``rounds`` the rounds recorded; ``rules`` the rule ids the check exercised, in rulebook
    order; ``totals`` each player's total after the last whole round and ``winners`` the
    winners of a finished game, when the replay could compute them.
    """

    violations: tuple[Violation, ...]
    complete: bool
    rounds: int
    rules: tuple[str, ...]
    totals: Mapping[str, int] | None = None
    winners: tuple[str, ...] | None = None

    @property
    def valid(self) -> bool:
        """Whether the log breaks no rule."""
        return not self.violations

    @property
    def incomplete(self) -> bool:
        """Whether the log stops before the game is over (a game in progress)."""
        return not self.complete

    def to_json(self, language: str = "en") -> dict[str, Any]:
        """A JSON-ready description of the report."""
        return {
            "valid": self.valid,
            "complete": self.complete,
            "rounds": self.rounds,
            "totals": dict(self.totals) if self.totals is not None else None,
            "winners": list(self.winners) if self.winners is not None else None,
            "violations": [violation.to_json(language) for violation in self.violations],
            "rules": list(self.rules),
        }


def _text(value: object) -> str:
    text = json.dumps(value, ensure_ascii=False)
    return text.encode("utf-8", "backslashreplace").decode("utf-8") if not text.isascii() \
        else text


def _locate(value: Card, rows: Sequence[Sequence[object]]) -> tuple[int, int] | None:
    for index, row in enumerate(rows):
        for position, item in enumerate(row):
            if item == value:
                return index, position
    return None


def _relocated(error: Take5Error, where: Where) -> Take5Error:
    """The same error, said to happen at *where* (the draft names round 1 for every round)."""
    moved = type(error).__new__(type(error))
    moved.__dict__.update(error.__dict__)
    moved.where = where
    moved.args = (str(moved),)
    return moved


def _card_of(play: tuple[str, Card]) -> Card:
    return play[1]


def _placements(events: Sequence[Event]) -> list[CardPlaced | RowTaken]:
    return [event for event in events if isinstance(event, CardPlaced | RowTaken)]


def _placement_rule(event: CardPlaced | RowTaken) -> str:
    if isinstance(event, SixthCardTaken):
        return "table.sixth-card"
    if isinstance(event, LowCardTaken):
        return "table.low-card"
    return "table.least-difference"


class _Takes:
    """Answers the low-card choices of one turn from the log's ``takes``, noting who was asked."""

    def __init__(self, takes: Mapping[str, Any]) -> None:
        self.takes = takes
        self.asked: set[str] = set()

    def __call__(self, choice: RowChoice) -> int:
        self.asked.add(choice.player)
        if choice.player not in self.takes:
            raise IllegalMoveError(
                "table.low-card",
                N_("card {value} is lower than the last card of every row, and 'takes' gives "
                   "no row for {player!r}; its player must choose a row to take"),
                where=Where(choice.round, choice.turn, choice.player, choice.card),
                value=choice.card, player=choice.player,
            )
        chosen: int = self.takes[choice.player]
        return chosen


class _Checker:
    """The state of one check: the violations found and the rules exercised."""

    def __init__(self, document: Mapping[str, Any]) -> None:
        self.document = document
        self.violations: list[Violation] = []
        self.used: set[str] = set()
        self.seats: frozenset[str] = frozenset()
        self.in_play: frozenset[Card] = frozenset()

    def use(self, *rules: str) -> None:
        self.used.update(rules)

    def fail(self, error: Take5Error, path: str) -> None:
        self.used.add(error.rule)
        self.violations.append(Violation(error, path))

    def report(
        self,
        complete: bool,
        rounds: int,
        totals: Mapping[str, int] | None = None,
        won: tuple[str, ...] | None = None,
    ) -> Report:
        return Report(
            tuple(self.violations),
            complete and not self.violations,
            rounds,
            tuple(rule for rule in RULE_ORDER if rule in self.used),
            totals,
            won,
        )

    # The seats and the rules.

    def header(self) -> tuple[Rules, tuple[str, ...]] | None:
        document = self.document
        try:
            variant = Variant.parse(document["variant"])
        except Take5Error as error:
            self.fail(error, "$.variant")
            return None
        self.use("variants.threshold")
        try:
            threshold = agreed_threshold(document.get("threshold", DEFAULT_THRESHOLD))
        except Take5Error as error:
            self.fail(error, "$.threshold")
            return None
        rules = Rules(variant, threshold)
        try:
            check_loggable(rules)
        except Take5Error as error:
            self.fail(error, "$.variant")
            return None
        self.use("setup.players")
        try:
            players = check_players(document["players"], rules)
        except Take5Error as error:
            self.fail(error, "$.players")
            return None
        return rules, players

    # The deal or the draft.

    def setup(
        self, rules: Rules, players: tuple[str, ...], number: int, entry: Mapping[str, Any],
        path: str,
    ) -> RoundState | None:
        self.use("setup.deal", "cards.deck")
        rows = entry["rows"]
        where = Where(number)
        if len(rows) != ROWS:
            self.fail(IllegalMoveError(
                "setup.deal",
                N_("the deal lays out four rows of one card each, but the round starts with "
                   "{count}"),
                where=where, count=len(rows),
            ), f"{path}.rows")
            return None
        broken = False
        for index, row in enumerate(rows):
            if len(row) != 1:
                self.fail(IllegalMoveError(
                    "setup.deal",
                    N_("row {row} starts the round with {count} cards; each row starts with one "
                       "card"),
                    where=where, row=index + 1, count=len(row),
                ), f"{path}.rows[{index}]")
                broken = True
        if broken:
            return None
        starters = [row[0] for row in rows]
        hands = entry["hands"]
        if set(hands) != set(players):
            self.fail(IllegalMoveError(
                "setup.deal",
                N_("the hands are those of {says}; the deal gives a hand to each player: "
                   "{rules}"),
                where=where, says=_text(list(hands)), rules=_text(list(players)),
            ), f"{path}.hands")
            return None
        if rules.drafted:
            dealt = self.drafted(rules, players, number, entry, starters, path)
        else:
            if "draft" in entry:
                self.fail(IllegalMoveError(
                    "variants.logic",
                    N_("the round records a draft, but only the logic variant drafts the "
                       "hands"),
                    where=where,
                ), f"{path}.draft")
            dealt = self.dealt(rules, players, number, hands, starters, path)
        if dealt is None:
            return None
        hands_now, starters = dealt
        return RoundState.start(number, Table.start(starters), hands_now)

    def dealt(
        self, rules: Rules, players: tuple[str, ...], number: int, hands: Mapping[str, Any],
        starters: list[Any], path: str,
    ) -> tuple[dict[str, tuple[Card, ...]], list[Card]] | None:
        broken = False
        checked: dict[str, tuple[Card, ...]] = {}
        so_far: list[Card] = []
        for player in players:
            here = Where(number, player=player)
            hand_path = f"{path}.hands{_key(player)}"
            try:
                hand = cards(hands[player], here)
                cards([*so_far, *hand], here)
            except Take5Error as error:
                self.fail(error, hand_path)
                broken = True
                continue
            so_far.extend(hand)
            if len(hand) != HAND_SIZE:
                self.fail(IllegalMoveError(
                    "setup.deal",
                    N_("the deal gives each player ten cards, but the hand of {player!r} holds "
                       "{count}"),
                    where=here, player=player, count=len(hand),
                ), hand_path)
                broken = True
            checked[player] = hand
        for index, value in enumerate(starters):
            try:
                cards([*so_far, value], Where(number))
            except Take5Error as error:
                self.fail(error, f"{path}.rows[{index}]")
                return None
            so_far.append(value)
        if broken:
            return None
        in_play = cards_in_play(rules, len(players))
        if rules.reduced_deck:
            self.use("variants.tactics")
            highest = in_play[-1]
            playable = set(in_play)
            outside = [value for value in so_far if value not in playable]
            for value in outside:
                holder = next((p for p in players if value in checked[p]), None)
                self.fail(IllegalMoveError(
                    "variants.tactics",
                    N_("card {value} is not in play: with {count} players the {variant} "
                       "variant uses only the cards 1 to {highest}"),
                    where=Where(number, player=holder, card=value),
                    value=value, count=len(players), variant=rules.variant.value,
                    highest=highest,
                ), f"{path}.hands{_key(holder)}" if holder else f"{path}.rows")
            missing = sorted(playable - set(so_far))
            if missing and not outside:
                self.fail(IllegalMoveError(
                    "variants.tactics",
                    N_("the cards {cards} are in play but not dealt: with {count} players all "
                       "the cards 1 to {highest} are dealt"),
                    where=Where(number), cards=_text(missing), count=len(players),
                    highest=highest,
                ), f"{path}.hands")
            if outside or missing:
                return None
        return checked, [int(value) for value in starters]

    def drafted(
        self, rules: Rules, players: tuple[str, ...], number: int, entry: Mapping[str, Any],
        starters: list[Any], path: str,
    ) -> tuple[dict[str, tuple[Card, ...]], list[Card]] | None:
        self.use("variants.logic", "variants.tactics")
        where = Where(number)
        picks = entry.get("draft")
        if picks is None:
            self.fail(IllegalMoveError(
                "variants.logic",
                N_("the logic variant drafts the hands, and the round records no draft"),
                where=where,
            ), path)
            return None
        try:
            result = draft(cards_in_play(rules, len(players)), players,
                           [(player, value) for player, value in picks])
        except Take5Error as error:
            moved = _relocated(error, Where(number, None, error.where.player, error.where.card))
            self.fail(moved, f"{path}.draft")
            return None
        broken = False
        hands = entry["hands"]
        for player in players:
            if Counter(hands[player]) != Counter(result.hands[player]):
                self.fail(IllegalMoveError(
                    "variants.logic",
                    N_("the hand of {player!r} is {says}, but the draft gives {rules}"),
                    where=Where(number, player=player), player=player,
                    says=_text(hands[player]), rules=_text(sorted(result.hands[player])),
                ), f"{path}.hands{_key(player)}")
                broken = True
        if Counter(starters) != Counter(result.rows):
            self.fail(IllegalMoveError(
                "variants.logic",
                N_("the rows start with {says}, but the draft leaves {rules}"),
                where=where, says=_text(starters), rules=_text(list(result.rows)),
            ), f"{path}.rows")
            broken = True
        if broken:
            return None
        return dict(result.hands), [int(value) for value in starters]

    # The turns.

    def replay(
        self, state: RoundState, turns: Sequence[Mapping[str, Any]], path: str
    ) -> RoundState | None:
        players = state.players
        number = state.number
        for index, turn in enumerate(turns):
            turn_path = f"{path}.turns[{index}]"
            takes: Mapping[str, Any] = turn.get("takes", {})
            choose = _Takes(takes)
            before = state
            self.use("round.end", "turn.reveal")
            try:
                state, events = play_turn(state, turn["plays"], choose)
            except Take5Error as error:
                self.fail(error, self.turn_path(error, turn_path))
                return None
            self.use("turn.order", "table.ascending")
            placements = _placements(events)
            for event in placements:
                self.use(_placement_rule(event))
            where = Where(number, index + 1)
            for player in takes:
                if player in choose.asked:
                    continue
                if player not in players:
                    self.fail(IllegalMoveError(
                        "table.low-card",
                        N_("'takes' names {player!r}, who is not a player of this game"),
                        where=where, player=player,
                    ), f"{turn_path}.takes{_key(player)}")
                    continue
                placed = next(event for event in placements if event.player == player)
                self.fail(IllegalMoveError(
                    "table.low-card",
                    N_("'takes' gives {player!r} a row (index {choice}), but their card "
                       "{value} is not a low card: it goes on row {row}; only the player of a "
                       "low card chooses a row"),
                    where=Where(number, index + 1, player, placed.card), player=player,
                    choice=takes[player], value=placed.card, row=placed.row + 1,
                ), f"{turn_path}.takes{_key(player)}")
            if "rows_after" in turn:
                self.rows_claim(turn, before.table, state.table, placements, where,
                                f"{turn_path}.rows_after")
            if "taken" in turn:
                self.taken_claim(turn["taken"], players, placements, where,
                                 f"{turn_path}.taken")
        return state

    @staticmethod
    def turn_path(error: Take5Error, turn_path: str) -> str:
        player = error.where.player
        if error.rule == "table.low-card":
            return f"{turn_path}.takes" + (_key(player) if player is not None else "")
        if error.rule == "round.end":
            return turn_path
        return f"{turn_path}.plays" + (_key(player) if player is not None else "")

    def rows_claim(
        self, turn: Mapping[str, Any], before: Table, after: Table,
        placements: Sequence[CardPlaced | RowTaken], where: Where, path: str,
    ) -> None:
        claimed = turn["rows_after"]
        actual = after.to_json()
        if claimed == actual:
            return
        params = {"says": _text(claimed), "rules": _text(actual)}
        if claimed == self.seat_order(before, turn):
            self.fail(IllegalMoveError(
                "turn.order",
                N_("the log says the rows are {says} after the turn, as if the cards were "
                   "placed in seat order; placed from the lowest to the highest they are "
                   "{rules}"),
                where=where, **params,
            ), path)
            return
        rule, player, value = self.blame(claimed, actual, before, placements)
        self.fail(IllegalMoveError(
            rule,
            N_("the log says the rows are {says} after the turn; the rules give {rules}"),
            where=Where(where.round, where.turn, player, value), **params,
        ), path)

    @staticmethod
    def seat_order(before: Table, turn: Mapping[str, Any]) -> list[list[Card]] | None:
        """The rows if the turn's cards were placed in the log's seat order (a common mistake)."""
        table = before
        takes = turn.get("takes", {})
        try:
            for player, value in turn["plays"].items():
                table = place_card(table, value, takes.get(player)).table
        except Take5Error:
            return None
        return table.to_json()

    @staticmethod
    def blame(
        claimed: Sequence[Sequence[object]], actual: Sequence[Sequence[Card]], before: Table,
        placements: Sequence[CardPlaced | RowTaken],
    ) -> tuple[str, str | None, Card | None]:
        """The rule, player and card behind the first difference between two tables."""
        table = before
        for event in placements:
            here = _locate(event.card, actual)
            there = _locate(event.card, claimed)
            if here is None and there is not None:
                # Taken later in the turn: the placement that took it is to blame.
                table = Table(event.rows)
                continue
            if here != there:
                rule = _placement_rule(event)
                if there is not None and isinstance(event, CardPlaced):
                    row, position = there
                    if position > 0 and row not in ascending_rows(table, event.card):
                        rule = "table.ascending"
                    elif position == 0:
                        full = row < len(table.rows) and len(table.rows[row]) >= 5
                        rule = "table.sixth-card" if full else "table.low-card"
                elif there is not None and isinstance(event, SixthCardTaken) \
                        and there[0] != event.row:
                    rule = "table.least-difference"
                return rule, event.player, event.card
            table = Table(event.rows)
        for event in placements:
            if isinstance(event, RowTaken) and any(
                _locate(value, claimed) is not None for value in event.taken
            ):
                return _placement_rule(event), event.player, event.card
        return "table.ascending", None, None

    def taken_claim(
        self, claimed: Mapping[str, Any], players: Sequence[str],
        placements: Sequence[CardPlaced | RowTaken], where: Where, path: str,
    ) -> None:
        actual: dict[str, list[Card]] = {}
        for event in placements:
            if isinstance(event, RowTaken):
                actual.setdefault(event.player, []).extend(event.taken)
        for player in claimed:
            if player not in players:
                self.fail(IllegalMoveError(
                    "turn.reveal",
                    N_("'taken' names {player!r}, who is not a player of this game"),
                    where=where, player=player,
                ), f"{path}{_key(player)}")
        for player in players:
            says = sorted(claimed.get(player, []))
            rules = sorted(actual.get(player, []))
            if says == rules:
                continue
            event = next(event for event in placements if event.player == player)
            self.fail(IllegalMoveError(
                _placement_rule(event),
                N_("the log says {player!r} took {says} this turn; the rules give {rules}"),
                where=Where(where.round, where.turn, player, event.card), player=player,
                says=_text(claimed.get(player, [])), rules=_text(actual.get(player, [])),
            ), f"{path}{_key(player)}")

    # The scores.

    def penalties_claim(
        self, claimed: Mapping[str, Any], penalties: Mapping[str, int], number: int, path: str
    ) -> None:
        players = list(penalties)
        if set(claimed) != set(players):
            self.fail(IllegalMoveError(
                "round.score",
                N_("the penalties name {says}; the players are {rules}"),
                where=Where(number), says=_text(list(claimed)), rules=_text(players),
            ), path)
        for player in players:
            if player in claimed and claimed[player] != penalties[player]:
                self.fail(IllegalMoveError(
                    "round.score",
                    N_("the log says {player!r} scores {says} this round; the bull heads "
                       "taken make {rules}"),
                    where=Where(number, player=player), player=player,
                    says=_text(claimed[player]), rules=penalties[player],
                ), f"{path}{_key(player)}")

    def totals_claim(self, claimed: Mapping[str, Any], totals: Mapping[str, int]) -> None:
        self.use("game.totals")
        players = list(totals)
        if set(claimed) != set(players):
            self.fail(IllegalMoveError(
                "game.totals",
                N_("the totals name {says}; the players are {rules}"),
                says=_text(list(claimed)), rules=_text(players),
            ), "$.totals")
        for player in players:
            if player in claimed and claimed[player] != totals[player]:
                self.fail(IllegalMoveError(
                    "game.totals",
                    N_("the log gives {player!r} a total of {says}; the rounds add up to "
                       "{rules}"),
                    where=Where(player=player), player=player,
                    says=_text(claimed[player]), rules=totals[player],
                ), f"$.totals{_key(player)}")

    # The fast path: a whole round replayed on plain ints, for a round that breaks no rule.

    def quick_deal(
        self, rules: Rules, players: tuple[str, ...], entry: Mapping[str, Any]
    ) -> tuple[dict[str, set[Card]], list[list[Card]]] | None:
        """The hands and rows of a deal (not a draft) that breaks no rule, else ``None``.

        The same conditions :meth:`dealt` checks one by one: four rows of one card, one hand
        of ten for each player, distinct cards 1 to 104, exactly the cards in play with a
        reduced deck.
        """
        rows = entry["rows"]
        hands = entry["hands"]
        if rules.drafted or "draft" in entry or len(rows) != ROWS or hands.keys() != self.seats:
            return None
        starters = []
        for row in rows:
            if len(row) != 1:
                return None
            starters.append(row[0])
        seen = set(starters)
        for player in players:
            hand = hands[player]
            if len(hand) != HAND_SIZE:
                return None
            seen.update(hand)
        if len(seen) != ROWS + HAND_SIZE * len(players):
            return None
        if rules.reduced_deck:
            if seen != self.in_play:
                return None
        elif min(seen) < 1 or max(seen) > HIGHEST:
            return None
        self.use("setup.deal", "cards.deck")
        if rules.reduced_deck:
            self.use("variants.tactics")
        return {player: set(hands[player]) for player in players}, [[value] for value in starters]

    def quick_turns(
        self, hands: dict[str, set[Card]], rows: list[list[Card]],
        turns: Sequence[Mapping[str, Any]],
    ) -> dict[str, int] | None:
        """Each player's bull heads after *turns*, if no turn breaks a rule, else ``None``.

        The kernel of :func:`~take5rules.round.play_turn` and the claims' checks, on plain ints:
        every card from its player's hand, placed lowest first on the row ending closest below
        it, a sixth card or a low card taking its row; ``takes`` exactly for the low cards; the
        claims equal to what the rules give (an empty ``taken`` list is taking nothing).
        """
        seats = self.seats
        heads = _HEADS
        piles = dict.fromkeys(hands, 0)
        lasts = [row[-1] for row in rows]
        kinds = 0
        for turn in turns:
            plays = turn["plays"]
            if plays.keys() != seats:
                return None
            takes = turn.get("takes")
            claimed = turn.get("taken")
            taken: dict[str, list[Card]] | None = {} if claimed is not None else None
            lows = 0
            for player, value in sorted(plays.items(), key=_card_of):
                hand = hands[player]
                if value not in hand:
                    return None
                hand.remove(value)
                best = -1
                top = 0
                for index, last in enumerate(lasts):
                    if top < last < value:
                        best = index
                        top = last
                if best < 0:
                    if not takes or player not in takes:
                        return None
                    best = takes[player]
                    if not 0 <= best < ROWS:
                        return None
                    lows += 1
                    kinds |= 4
                elif len(rows[best]) < ROW_LIMIT:
                    rows[best].append(value)
                    lasts[best] = value
                    kinds |= 1
                    continue
                else:
                    kinds |= 2
                row = rows[best]
                piles[player] += sum([heads[card] for card in row])
                if taken is not None:
                    taken.setdefault(player, []).extend(row)
                rows[best] = [value]
                lasts[best] = value
            if takes and len(takes) != lows:
                return None
            if "rows_after" in turn and turn["rows_after"] != rows:
                return None
            if claimed is not None and taken is not None:
                for player, values in claimed.items():
                    actual = taken.get(player)
                    if player not in seats or (
                        sorted(values) != sorted(actual) if actual is not None else values
                    ):
                        return None
                if not claimed.keys() >= taken.keys():
                    return None
        if turns:
            self.use("round.end", "turn.reveal", "turn.order", "table.ascending")
        for bit, rule in ((1, "table.least-difference"), (2, "table.sixth-card"),
                          (4, "table.low-card")):
            if kinds & bit:
                self.use(rule)
        return piles

    def play_round(
        self, rules: Rules, players: tuple[str, ...], number: int, entry: Mapping[str, Any],
        path: str,
    ) -> dict[str, int] | None:
        """Check one round's deal and turns; the bull heads each player took, or ``None``.

        A round that breaks no rule is replayed by the fast path; any other is replayed (from
        its deal, again) by the rule functions themselves, which find and name every violation.
        """
        turns = entry["turns"]
        start: RoundState | None = None
        quick = self.quick_deal(rules, players, entry)
        if quick is None:
            start = self.setup(rules, players, number, entry, path)
            if start is None:
                return None
            quick = ({player: set(hand) for player, hand in start.hands.items()},
                     [list(row) for row in start.table.rows])
            piles = self.quick_turns(*quick, turns)
        else:
            piles = self.quick_turns(*quick, turns)
            if piles is None:
                start = RoundState.start(
                    number, Table.start([row[0] for row in entry["rows"]]),
                    {player: tuple(entry["hands"][player]) for player in players},
                )
        if piles is not None:
            return piles
        assert start is not None
        state = self.replay(start, turns, path)
        if state is None:
            return None
        return round_penalties(state.piles)

    # The whole log.

    def run(self, rounds: Iterable[Mapping[str, Any]]) -> Report:
        """Check the header, then each round of *rounds* as it comes, then the end."""
        header = self.header()
        iterator = iter(rounds)
        if header is None:
            return self.report(False, sum(1 for _ in iterator))
        rules, players = header
        self.seats = frozenset(players)
        self.in_play = frozenset(cards_in_play(rules, len(players)))
        totals: dict[str, int] | None = dict.fromkeys(players, 0)
        ended: int | None = None
        entry = next(iterator, None)
        index = 0
        while entry is not None:
            following = next(iterator, None)
            number = index + 1
            path = f"$.rounds[{index}]"
            if ended is not None:
                self.fail(IllegalMoveError(
                    "game.end",
                    N_("the game ended after round {ended}, when a total reached {threshold}; "
                       "no round follows the end of the game"),
                    where=Where(number), ended=ended, threshold=rules.threshold,
                ), path)
                index += 1 + (following is not None) + sum(1 for _ in iterator)
                break
            turns = entry["turns"]
            last = following is None
            if len(turns) < HAND_SIZE and not last:
                self.use("round.end")
                self.fail(IllegalMoveError(
                    "round.end",
                    N_("a round ends only after ten turns, but this one has {count} and "
                       "another round follows"),
                    where=Where(number), count=len(turns),
                ), f"{path}.turns")
            penalties = self.play_round(rules, players, number, entry, path)
            if penalties is None or len(turns) < HAND_SIZE:
                if penalties is not None and "penalties" in entry:
                    self.fail(IllegalMoveError(
                        "round.score",
                        N_("the log claims penalties for the round, which is not over: a round "
                           "is scored after its ten turns"),
                        where=Where(number),
                    ), f"{path}.penalties")
                if penalties is None or not last:
                    totals = None
            else:
                self.use("round.score", "cards.bull-heads")
                if "penalties" in entry:
                    self.penalties_claim(entry["penalties"], penalties, number,
                                         f"{path}.penalties")
                if totals is not None:
                    self.use("game.totals", "game.end")
                    totals = add_penalties(totals, penalties)
                    if game_over(totals, rules.threshold):
                        ended = number
            index += 1
            entry = following
        return self.finish(rules, totals, ended, index)

    def finish(
        self, rules: Rules, totals: dict[str, int] | None, ended: int | None, rounds: int
    ) -> Report:
        document = self.document
        if totals is None:
            return self.report(False, rounds)
        if "totals" in document:
            self.totals_claim(document["totals"], totals)
        won = winners(totals) if ended is not None else None
        if "winners" in document:
            self.use("game.winners")
            claimed = document["winners"]
            if won is None:
                self.fail(IllegalMoveError(
                    "game.winners",
                    N_("the log names winners, but the game is not over: no total has reached "
                       "{threshold} at the end of a round"),
                    threshold=rules.threshold,
                ), "$.winners")
            elif sorted(claimed) != sorted(won):
                self.fail(IllegalMoveError(
                    "game.winners",
                    N_("the log says the winners are {says}; the lowest total, {total}, is "
                       "that of {rules}"),
                    says=_text(claimed), total=totals[won[0]], rules=_text(list(won)),
                ), "$.winners")
        elif won is not None:
            self.use("game.winners")
        return self.report(ended is not None, rounds, totals, won)


def validate(log: object) -> Report:
    """Check the take5-log *log* (parsed JSON) against every rule and return a :class:`Report`.

    Raises :class:`~take5rules.log.LogError` when *log* is not a take5-log at all (not an
    object, another format or version, or a shape its JSON Schema rejects).

    >>> report = validate({"format": "take5-log", "version": 1, "variant": "standard",
    ...                    "players": ["ana"], "rounds": []})
    >>> report.valid, [(v.rule, v.path) for v in report.violations]
    (False, [('setup.players', '$.players')])
    >>> validate({"format": "take5-log", "version": 1, "variant": "logic",
    ...           "players": ["ana", "bob"], "rounds": []}).incomplete
    True
    """
    document = check_format(log)
    return _Checker(document).run(document["rounds"])


def validate_stream(source: Callable[[int], bytes] | LogStream) -> Report:
    """Check the take5-log read from *source* (a binary file's ``read``), one round at a time.

    The log is parsed incrementally (see :class:`take5rules._logread.LogStream`): its members
    before ``rounds``, then each round, checked and replayed as soon as it is read and then
    dropped, then the members after the rounds. Memory stays that of one round whatever the
    length of the log (when the log gives its format, version, variant, threshold and players
    before its rounds, as :func:`take5rules.log.dumps` writes it); at most
    :data:`~take5rules.log.MAX_LOG_BYTES` are read. Raises :class:`LogError` when the bytes are
    not a take5-log (not UTF-8, not JSON, or a shape the format does not allow).

    >>> import io
    >>> validate_stream(io.BytesIO(b'{"format": "take5-log", "version": 1, "variant": '
    ...                            b'"standard", "threshold": 66, "players": ["ana", "bob"], '
    ...                            b'"rounds": []}').read).incomplete
    True
    """
    stream = source if isinstance(source, LogStream) else LogStream(source)
    document = stream.header()
    return _Checker(document).run(stream.rounds())


def validate_file(name: str) -> Report:
    """Check the take5-log in the file *name* (``-`` is standard input), read as it is checked.

    Raises :class:`LogError` when the file cannot be read or is not a take5-log.
    """
    try:
        if name == "-":
            return validate_stream(_stdin().read)
        with open(name, "rb") as handle:
            return validate_stream(handle.read)
    except OSError as error:
        raise LogError(N_("cannot read the file: {reason}"),
                       reason=os_reason(error)) from None


# The command line.

_VALID = N_("{file}: valid, a finished game")
_IN_PROGRESS = N_("{file}: valid, a game in progress (incomplete)")
_VIOLATIONS = Nn_("{file}: {count} violation", "{file}: {count} violations")
_AT = N_("at {path}")


def validate_files(names: Sequence[str]) -> Iterator[tuple[str, Report | LogError]]:
    """Load and check each file of *names* (``-`` is standard input): its report, or the error."""
    for name in names:
        try:
            yield name, validate_file(name)
        except LogError as error:
            yield name, error


def _text_report(name: str, outcome: Report | LogError, language: str) -> list[str]:
    tr = translator(language)
    if isinstance(outcome, LogError):
        return [labelled(name, error_message(outcome, language), language)]
    if outcome.valid:
        return [tr.gettext(_VALID if outcome.complete else _IN_PROGRESS).format(file=name)]
    lines = [tr.ngettext(_VIOLATIONS, len(outcome.violations)).format(
        file=name, count=tr.number(len(outcome.violations)))]
    for violation in outcome.violations:
        lines.append(labelled(name, violation.message(language), language))
        lines.append("  " + tr.gettext(_AT).format(path=violation.path))
        lines.append("  " + labelled(f"{label('rule', language)} {violation.rule}",
                                     violation.statement(language), language))
    return lines
