"""The validator's replay: a take5-log checked round by round with the rule functions.

:class:`Checker` replays a parsed log (its header, then each round as it comes) with the rule
functions themselves: the seats (:func:`~take5rules.setup.check_players`), the deal or the
draft (:mod:`take5rules.logs.deal`), each turn (:func:`~take5rules.round.play_turn`, which
reveals and places the cards), the claims (:mod:`take5rules.logs.claims`), the scores
(:func:`~take5rules.round.round_penalties`), the totals, the end (or a tournament's last game)
and the winners (the kernel of :func:`~take5rules.game.add_penalties`,
:func:`~take5rules.game.game_over` and :func:`~take5rules.game.winners`, on totals this check
computed itself and so needs not check again). Each round is first tried by the fast path
(:mod:`take5rules.logs.fast`); a round it does not vouch for is replayed here, from its deal, by
the rule functions, which find and name every violation.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Mapping, Sequence
from typing import Any

from take5rules import _kernel
from take5rules._messages import N_
from take5rules.errors import IllegalMoveError, Take5Error, Where
from take5rules.events import CardPlaced, Event, RowTaken
from take5rules.logs.attribution import placement_rule
from take5rules.logs.claims import (
    penalties_claim,
    rows_claim,
    taken_claim,
    totals_claim,
    winners_claim,
)
from take5rules.logs.deal import setup
from take5rules.logs.fast import Rounds, quick_deal, quick_turns
from take5rules.logs.report import Findings, Report
from take5rules.logs.structure import member_path
from take5rules.round import RoundState, play_turn, round_penalties
from take5rules.setup import HAND_SIZE, check_players
from take5rules.table import Table
from take5rules.turn import LowCard
from take5rules.variants import DEFAULT_THRESHOLD, Rules, Variant, agreed_threshold, tournament_over

__all__ = ["Checker"]

#: The variants by their names; the rules of each with the usual threshold.
_VARIANTS = {variant.value: variant for variant in Variant}
_AGREED = {variant: Rules(variant, DEFAULT_THRESHOLD) for variant in Variant}
#: The rules a scored round exercises; those of the end of a game by the threshold.
_SCORED = frozenset({"round.score", "cards.bull-heads"})
_THRESHOLD = frozenset({"game.totals", "game.end"})


def _placements(events: Sequence[Event]) -> list[CardPlaced | RowTaken]:
    return [event for event in events if isinstance(event, CardPlaced | RowTaken)]


class _Takes:
    """Answers the low-card choices of one turn from the log's ``takes``, noting who was asked."""

    def __init__(self, takes: Mapping[str, Any]) -> None:
        self.takes = takes
        self.asked: set[str] = set()

    def __call__(self, choice: LowCard) -> int:
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


class Checker:
    """The state of one check: the log's header, the findings, the rules and the seats."""

    #: The fast path, switched off by the tests that pin it to the rule functions.
    fast = True

    def __init__(
        self, document: Mapping[str, Any], plain: Callable[[], bool] = bool,
    ) -> None:
        #: Whether the rounds handed over so far are plain JSON (see
        #: :func:`~take5rules.logs.fast.quick_turns`): asked before each round is replayed.
        self.plain = plain
        self.document = document
        self.findings = Findings()
        self.use = self.findings.use
        self.fail = self.findings.fail
        self.first: RoundState | None = None  # a tournament's first game, whose hands pass on
        self.rounds = Rounds((), frozenset())

    def header(self) -> tuple[Rules, tuple[str, ...]] | None:
        """Check the variant, the threshold and the seats; the rules and players, or ``None``."""
        document = self.document
        try:
            named = document["variant"]
            variant = _VARIANTS.get(named) if type(named) is str else None
            if variant is None:
                variant = Variant.parse(named)  # or says it is unknown
        except Take5Error as error:
            self.fail(error, "$.variant")
            return None
        self.use("variants.threshold")
        try:
            threshold = agreed_threshold(document.get("threshold", DEFAULT_THRESHOLD))
        except Take5Error as error:
            self.fail(error, "$.threshold")
            return None
        rules = _AGREED[variant] if threshold == DEFAULT_THRESHOLD else Rules(variant, threshold)
        self.use("setup.players")
        try:
            players = check_players(document["players"], rules)
        except Take5Error as error:
            self.fail(error, "$.players")
            return None
        return rules, players

    def replay(
        self, state: RoundState, turns: Sequence[Mapping[str, Any]], path: str
    ) -> RoundState | None:
        """Replay *turns* from *state* by :func:`~take5rules.round.play_turn`, checking claims.

        The state after the last turn, or ``None`` at the first illegal play.
        """
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
                self.use(placement_rule(event))
            where = Where(number, index + 1)
            for player in takes:
                if player in choose.asked:
                    continue
                if player not in players:
                    self.fail(IllegalMoveError(
                        "table.low-card",
                        N_("'takes' names {player!r}, who is not a player of this game"),
                        where=where, player=player,
                    ), f"{turn_path}.takes{member_path(player)}")
                    continue
                placed = next(event for event in placements if event.player == player)
                self.fail(IllegalMoveError(
                    "table.low-card",
                    N_("'takes' gives {player!r} a row (index {choice}), but their card "
                       "{value} is not a low card: it goes on row {row}; only the player of a "
                       "low card chooses a row"),
                    where=Where(number, index + 1, player, placed.card), player=player,
                    choice=takes[player], value=placed.card, row=placed.row + 1,
                ), f"{turn_path}.takes{member_path(player)}")
            if "rows_after" in turn:
                rows_claim(self.findings, turn, before.table, state.table, placements, where,
                           f"{turn_path}.rows_after")
            if "taken" in turn:
                taken_claim(self.findings, turn["taken"], players, placements, where,
                            f"{turn_path}.taken")
        return state

    @staticmethod
    def turn_path(error: Take5Error, turn_path: str) -> str:
        """The JSON path, in the turn at *turn_path*, of what *error* is about."""
        player = error.where.player
        if error.rule == "table.low-card":
            return f"{turn_path}.takes" + (member_path(player) if player is not None else "")
        if error.rule == "round.end":
            return turn_path
        return f"{turn_path}.plays" + (member_path(player) if player is not None else "")

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
        first = self.first if rules.variant is Variant.TOURNAMENT and number > 1 else None
        quick = quick_deal(self.findings, rules, players, entry) \
            if self.fast else None
        if quick is None:
            self.rounds.settle(entry)
            start = setup(self.findings, rules, players, number, entry, path, first)
            if start is None:
                return None
            if rules.variant is Variant.TOURNAMENT and number == 1:
                self.first = start
            quick = ({player: list(hand) for player, hand in start.hands.items()},
                     [[*row] for row in start.table.rows])
            piles = quick_turns(self.findings, *quick, turns, plain=self.plain()) \
                if self.fast else None
        else:
            piles = quick_turns(self.findings, *quick, turns, plain=self.plain())
            if piles is None:
                self.rounds.settle(entry)
                start = RoundState.start(
                    number, Table.start([row[0] for row in entry["rows"]]),
                    {player: tuple(entry["hands"][player]) for player in players},
                )
        if piles is not None:
            self.rounds.vouched(entry)
            return piles
        assert start is not None
        state = self.replay(start, turns, path)
        if state is None:
            return None
        return round_penalties(state.piles)

    def run(self, rounds: Iterable[Mapping[str, Any]]) -> Report:
        """Check the header, then each round of *rounds* as it comes, then the end."""
        header = self.header()
        iterator = self.rounds = Rounds(rounds, frozenset(self.document["players"]))
        if header is None:
            return self.findings.report(False, iterator.rest())
        rules, players = header
        totals: dict[str, int] | None = dict.fromkeys(players, 0)
        ended: int | None = None
        entry = next(iterator, None)
        index = 0
        while entry is not None:
            following = next(iterator, None)
            number = index + 1
            path = f"$.rounds[{index}]"
            if ended is None and rules.variant is Variant.TOURNAMENT \
                    and number > len(players):
                ended = len(players)  # the last game may be broken: no game follows it anyway
            if ended is not None:
                self.fail(_past_the_end(rules, number, ended), path)
                index += 1 + (following is not None) + iterator.rest()
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
                self.findings.used |= _SCORED
                # A claim equal to the penalties (whole numbers, by the round's shape) is right.
                if "penalties" in entry and entry["penalties"] != penalties:
                    penalties_claim(self.findings, entry["penalties"], penalties, number,
                                    f"{path}.penalties")
                if totals is not None:
                    totals = _kernel.add(totals, penalties)  # rule game.totals, on checked values
                    if self.over(rules, totals, number, len(players)):
                        ended = number
            index += 1
            entry = following
        return self.finish(rules, totals, ended, index)

    def over(self, rules: Rules, totals: Mapping[str, int], number: int, count: int) -> bool:
        """Whether the game ends with round *number*: a tournament's last game, or the threshold."""
        if rules.variant is Variant.TOURNAMENT:
            self.use("game.totals", "variants.tournament-over")
            return tournament_over(number, count)
        self.findings.used |= _THRESHOLD
        return _kernel.ended(totals, rules.threshold)  # rule game.end, on checked values

    def finish(
        self, rules: Rules, totals: dict[str, int] | None, ended: int | None, rounds: int
    ) -> Report:
        """Check the claims about the whole game (totals, winners); the report."""
        document = self.document
        if totals is None:
            return self.findings.report(False, rounds)
        if "totals" in document:
            if document["totals"] == totals:  # whole numbers (the shape), as the rounds add up
                self.use("game.totals")
            else:
                totals_claim(self.findings, document["totals"], totals)
        won = _kernel.lowest(totals) if ended is not None else None  # rule game.winners
        if "winners" in document:
            # The violation of naming winners early, built only when the game is not over.
            winners_claim(self.findings, document["winners"], won, totals,
                          _unfinished(rules) if won is None else _NOT_EARLY)
        elif won is not None:
            self.use("game.winners")
        return self.findings.report(ended is not None, rounds, totals, won)


def _past_the_end(rules: Rules, number: int, ended: int) -> IllegalMoveError:
    """The violation of a round after the one that ended the game."""
    if rules.variant is Variant.TOURNAMENT:
        return IllegalMoveError(
            "variants.tournament-over",
            N_("the tournament of {count} players ended after game {count}; no game follows "
               "the last"),
            where=Where(number), count=ended,
        )
    return IllegalMoveError(
        "game.end",
        N_("the game ended after round {ended}, when a total reached {threshold}; "
           "no round follows the end of the game"),
        where=Where(number), ended=ended, threshold=rules.threshold,
    )


def _unfinished(rules: Rules) -> IllegalMoveError:
    """The violation of naming winners before the end of the game."""
    if rules.variant is Variant.TOURNAMENT:
        return IllegalMoveError(
            "game.winners",
            N_("the log names winners, but the tournament is not over: it plays one game for "
               "each player"),
        )
    return IllegalMoveError(
        "game.winners",
        N_("the log names winners, but the game is not over: no total has reached "
           "{threshold} at the end of a round"),
        threshold=rules.threshold,
    )


#: What :func:`~take5rules.logs.claims.winners_claim` is given for a game that is over, which
#: it does not use (built once, not for every log).
_NOT_EARLY = _unfinished(Rules())
