"""Defects: every way a take5-log can break the rules, as a mutation of a valid log.

Each :class:`Defect` applies to a valid log with a *pick* function and returns the broken log
with the rule ids its first violation may name.

>>> from take5rules.conformance.vectors import game_log
>>> log = game_log((("ana", "cautious"), ("bob", "lowest")), seed=3)
>>> DEFECTS["missing-play"].apply(log, lambda options: options[0])[1]
frozenset({'turn.reveal'})
"""

from __future__ import annotations

import copy
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Any

from take5rules.cards import HIGHEST
from take5rules.errors import Take5Error
from take5rules.logs.attribution import seat_order_rows
from take5rules.setup import HAND_SIZE, ROWS
from take5rules.table import ROW_LIMIT, Table
from take5rules.variants import PLAYER_RANGE, Variant, tactics_deck

__all__ = ["DEFECTS", "Defect", "Log", "Pick"]

#: Chooses one of several options (the first, for the shipped suite; any, for property tests).
Pick = Callable[[Sequence[Any]], Any]
#: A take5-log document.
Log = dict[str, Any]


@dataclass(frozen=True, slots=True)
class Defect:
    """A kind of defect a log can have: its name, what it is, and how to put it in a log.

    ``apply(log, pick)`` returns a broken deep copy of the valid *log* and the rule ids its
    first violation may name, or ``None`` when the log offers no place for the defect. (Wrong
    rows may by chance be those of placing the cards in seat order: that is ``turn.order``.)
    """

    name: str
    description: str
    apply: Callable[[Log, Pick], tuple[Log, frozenset[str]] | None]


def _places(log: Log, *, whole: bool = False) -> list[tuple[int, int]]:
    """(round index, turn index) of every turn; with *whole*, of whole rounds only."""
    return [
        (r, t)
        for r, entry in enumerate(log["rounds"])
        if not whole or len(entry["turns"]) == HAND_SIZE
        for t in range(len(entry["turns"]))
    ]


def _one(rules: str | Sequence[str]) -> frozenset[str]:
    return frozenset([rules] if isinstance(rules, str) else rules)


_PLACEMENT_RULES = _one(["turn.order", "table.ascending", "table.least-difference",
                         "table.sixth-card", "table.low-card"])


def _card_not_in_hand(log: Log, pick: Pick) -> tuple[Log, frozenset[str]] | None:
    places = _places(log)
    if not places:
        return None
    r, t = pick(places)
    log = copy.deepcopy(log)
    entry = log["rounds"][r]
    player = pick(log["players"])
    other = pick([p for p in log["players"] if p != player])
    entry["turns"][t]["plays"][player] = pick(entry["hands"][other])
    return log, _one("turn.reveal")


def _card_played_twice(log: Log, pick: Pick) -> tuple[Log, frozenset[str]] | None:
    places = [(r, t) for r, t in _places(log) if t > 0]
    if not places:
        return None
    r, t = pick(places)
    log = copy.deepcopy(log)
    turns = log["rounds"][r]["turns"]
    player = pick(log["players"])
    turns[t]["plays"][player] = turns[pick(range(t))]["plays"][player]
    return log, _one("turn.reveal")


def _missing_play(log: Log, pick: Pick) -> tuple[Log, frozenset[str]] | None:
    places = _places(log)
    if not places:
        return None
    r, t = pick(places)
    log = copy.deepcopy(log)
    del log["rounds"][r]["turns"][t]["plays"][pick(log["players"])]
    return log, _one("turn.reveal")


def _takes(log: Log) -> list[tuple[int, int, str]]:
    return [
        (r, t, player)
        for r, t in _places(log)
        for player in log["rounds"][r]["turns"][t].get("takes", {})
    ]


def _missing_take(log: Log, pick: Pick) -> tuple[Log, frozenset[str]] | None:
    takes = _takes(log)
    if not takes:
        return None
    r, t, player = pick(takes)
    log = copy.deepcopy(log)
    del log["rounds"][r]["turns"][t]["takes"][player]
    return log, _one("table.low-card")


def _needless_take(log: Log, pick: Pick) -> tuple[Log, frozenset[str]] | None:
    places = _places(log)
    if not places:
        return None
    r, t = pick(places)
    log = copy.deepcopy(log)
    turn = log["rounds"][r]["turns"][t]
    turn.setdefault("takes", {})[pick([p for p in log["players"] if p not in turn["takes"]])] = 0
    return log, _one("table.low-card")


def _take_out_of_range(log: Log, pick: Pick) -> tuple[Log, frozenset[str]] | None:
    takes = _takes(log)
    if not takes:
        return None
    r, t, player = pick(takes)
    log = copy.deepcopy(log)
    log["rounds"][r]["turns"][t]["takes"][player] = pick([ROWS, -1, 7])
    return log, _one("table.low-card")


def _claimed_turns(log: Log, member: str) -> list[tuple[int, int]]:
    return [(r, t) for r, t in _places(log) if member in log["rounds"][r]["turns"][t]]


def _rows_moved(log: Log, pick: Pick, *, ascending: bool) -> tuple[Log, frozenset[str]] | None:
    """Move a card placed at the end of a row to the end of another row."""
    options = []
    for r, t in _claimed_turns(log, "rows_after"):
        turn = log["rounds"][r]["turns"][t]
        rows = turn["rows_after"]
        for i, row in enumerate(rows):
            for position, value in enumerate(row):
                if position == 0 or value not in turn["plays"].values():
                    continue
                for j, other in enumerate(rows):
                    if j != i and (other[-1] < value) == ascending and len(other) < ROW_LIMIT:
                        options.append((r, t, i, position, j))
    if not options:
        return None
    r, t, i, position, j = pick(options)
    log = copy.deepcopy(log)
    rows = log["rounds"][r]["turns"][t]["rows_after"]
    value = rows[i].pop(position)
    rows[j].append(value)
    expected = "table.least-difference" if ascending else "table.ascending"
    return log, _one([expected, "turn.order", *(_PLACEMENT_RULES if not ascending else [])])


def _rows_least_difference(log: Log, pick: Pick) -> tuple[Log, frozenset[str]] | None:
    return _rows_moved(log, pick, ascending=True)


def _rows_not_ascending(log: Log, pick: Pick) -> tuple[Log, frozenset[str]] | None:
    return _rows_moved(log, pick, ascending=False)


def _sixth_cards(log: Log) -> list[tuple[int, int, str]]:
    return [
        (r, t, player)
        for r, t in _claimed_turns(log, "rows_after")
        if "taken" in log["rounds"][r]["turns"][t]
        for player, taken in log["rounds"][r]["turns"][t]["taken"].items()
        if len(taken) == ROW_LIMIT and player not in log["rounds"][r]["turns"][t].get("takes", {})
    ]


def _rows_sixth_card(log: Log, pick: Pick) -> tuple[Log, frozenset[str]] | None:
    """Claim that a sixth card was put after the five instead of taking them."""
    options = _sixth_cards(log)
    if not options:
        return None
    r, t, player = pick(options)
    log = copy.deepcopy(log)
    turn = log["rounds"][r]["turns"][t]
    value = turn["plays"][player]
    row = next((row for row in turn["rows_after"] if row and row[0] == value), None)
    if row is None:
        return None  # a later card of the turn took the row again
    row[:0] = turn["taken"][player]
    return log, _one(["table.sixth-card", "turn.order"])


def _rows_low_card(log: Log, pick: Pick) -> tuple[Log, frozenset[str]] | None:
    """Claim that a low card's player took another row than the one 'takes' says."""
    options = [(r, t, player) for r, t, player in _takes(log)
               if "rows_after" in log["rounds"][r]["turns"][t]]
    if not options:
        return None
    r, t, player = pick(options)
    log = copy.deepcopy(log)
    turn = log["rounds"][r]["turns"][t]
    taken = turn["takes"][player]
    other = pick([index for index in range(ROWS) if index != taken])
    rows = turn["rows_after"]
    if turn["plays"][player] not in rows[taken]:
        return None  # a later card of the turn took the row again
    rows[taken], rows[other] = rows[other], rows[taken]
    return log, _one(["table.low-card", "turn.order"])


def _seat_order(log: Log, pick: Pick) -> tuple[Log, frozenset[str]] | None:
    """Claim the rows a program gets when it places the cards in seat order."""
    options = []
    for r, t in _claimed_turns(log, "rows_after"):
        entry = log["rounds"][r]
        turn = entry["turns"][t]
        before = entry["rows"] if t == 0 else entry["turns"][t - 1].get("rows_after")
        if before is None:
            continue
        rows = seat_order_rows(Table.of(before), turn)
        if rows is not None and rows != turn["rows_after"]:  # (it may need a choice not given)
            options.append((r, t, rows))
    if not options:
        return None
    r, t, rows = pick(options)
    log = copy.deepcopy(log)
    log["rounds"][r]["turns"][t]["rows_after"] = rows
    return log, _one("turn.order")


def _taken_extra(log: Log, pick: Pick) -> tuple[Log, frozenset[str]] | None:
    options = [
        (r, t, player)
        for r, t in _claimed_turns(log, "taken")
        for player in log["players"]
    ]
    if not options:
        return None
    r, t, player = pick(options)
    log = copy.deepcopy(log)
    taken = log["rounds"][r]["turns"][t]["taken"]
    taken[player] = [*taken.get(player, []), pick([HIGHEST, 1, 55])]
    return log, _PLACEMENT_RULES - {"turn.order", "table.ascending"}


def _taken_left_out(log: Log, pick: Pick) -> tuple[Log, frozenset[str]] | None:
    """Leave out of a turn's ``taken`` the cards a player took."""
    options = [
        (r, t, player)
        for r, t in _claimed_turns(log, "taken")
        for player, cards in log["rounds"][r]["turns"][t]["taken"].items()
        if cards
    ]
    if not options:
        return None
    r, t, player = pick(options)
    log = copy.deepcopy(log)
    turn = log["rounds"][r]["turns"][t]
    del turn["taken"][player]
    # A player takes only by their own card: a low card's row, or a sixth card's.
    return log, _one("table.low-card" if player in turn.get("takes", {}) else "table.sixth-card")


def _whole_rounds(log: Log, member: str) -> list[int]:
    return [r for r, entry in enumerate(log["rounds"]) if member in entry]


def _wrong_penalties(log: Log, pick: Pick) -> tuple[Log, frozenset[str]] | None:
    options = _whole_rounds(log, "penalties")
    if not options:
        return None
    r = pick(options)
    log = copy.deepcopy(log)
    player = pick(log["players"])
    log["rounds"][r]["penalties"][player] += pick([1, 3])
    return log, _one("round.score")


def _wrong_totals(log: Log, pick: Pick) -> tuple[Log, frozenset[str]] | None:
    if "totals" not in log:
        return None
    log = copy.deepcopy(log)
    log["totals"][pick(log["players"])] += pick([1, 7])
    return log, _one("game.totals")


def _wrong_winners(log: Log, pick: Pick) -> tuple[Log, frozenset[str]] | None:
    if "winners" not in log:
        return None
    losers = [p for p in log["players"] if p not in log["winners"]]
    if not losers:
        return None
    log = copy.deepcopy(log)
    log["winners"] = [pick(losers)]
    return log, _one("game.winners")


def _winners_unfinished(log: Log, pick: Pick) -> tuple[Log, frozenset[str]] | None:
    if "winners" not in log:
        return None
    log = copy.deepcopy(log)
    last = log["rounds"][-1]
    keep = pick(range(HAND_SIZE))
    last["turns"] = last["turns"][:keep]
    last.pop("penalties", None)
    log.pop("totals", None)
    return log, _one("game.winners")


def _past_the_end(log: Log, pick: Pick) -> tuple[Log, frozenset[str]] | None:
    if "winners" not in log:
        return None
    log = copy.deepcopy(log)
    log["rounds"].append(copy.deepcopy(log["rounds"][pick(range(len(log["rounds"])))]))
    return log, _one("variants.tournament-over" if log["variant"] == "tournament" else "game.end")


def _eleven_turns(log: Log, pick: Pick) -> tuple[Log, frozenset[str]] | None:
    options = [r for r, entry in enumerate(log["rounds"]) if len(entry["turns"]) == HAND_SIZE]
    if not options:
        return None
    r = pick(options)
    log = copy.deepcopy(log)
    turns = log["rounds"][r]["turns"]
    turns.append(copy.deepcopy(turns[pick(range(HAND_SIZE))]))
    return log, _one("round.end")


def _short_round(log: Log, pick: Pick) -> tuple[Log, frozenset[str]] | None:
    if len(log["rounds"]) < 2:
        return None
    r = pick(range(len(log["rounds"]) - 1))
    log = copy.deepcopy(log)
    turns = log["rounds"][r]["turns"]
    del turns[pick(range(len(turns))):]
    return log, _one("round.end")


def _hand_cards(log: Log) -> list[tuple[int, str, int]]:
    return [
        (r, player, index)
        for r, entry in enumerate(log["rounds"])
        for player in log["players"]
        for index in range(len(entry["hands"][player]))
    ]


def _deal_rule(log: Log, rule: str) -> frozenset[str]:
    """What a broken deal breaks: *rule*, or the draft (logic, a tournament's first game)."""
    if log["variant"] == "tournament":
        return _one([rule, "variants.logic"])
    return _one("variants.logic" if log["variant"] == "logic" else rule)


def _card_out_of_range(log: Log, pick: Pick) -> tuple[Log, frozenset[str]] | None:
    options = _hand_cards(log)
    if not options:
        return None
    r, player, index = pick(options)
    log = copy.deepcopy(log)
    log["rounds"][r]["hands"][player][index] = pick([105, 0, -3])
    return log, _deal_rule(log, "cards.deck")


def _card_dealt_twice(log: Log, pick: Pick) -> tuple[Log, frozenset[str]] | None:
    options = _hand_cards(log)
    if not options:
        return None
    r, player, index = pick(options)
    log = copy.deepcopy(log)
    entry = log["rounds"][r]
    source = pick([*(p for p in log["players"] if p != player), "rows"])
    pool = [row[0] for row in entry["rows"]] if source == "rows" else entry["hands"][source]
    entry["hands"][player][index] = pick(pool)
    return log, _deal_rule(log, "cards.deck")


def _hand_size(log: Log, pick: Pick) -> tuple[Log, frozenset[str]] | None:
    options = _hand_cards(log)
    if not options:
        return None
    r, player, index = pick(options)
    log = copy.deepcopy(log)
    del log["rounds"][r]["hands"][player][index]
    return log, _deal_rule(log, "setup.deal")


def _rows_at_start(log: Log, pick: Pick) -> tuple[Log, frozenset[str]] | None:
    if not log["rounds"]:
        return None
    log = copy.deepcopy(log)
    rows = log["rounds"][pick(range(len(log["rounds"])))]["rows"]
    if pick([True, False]):
        del rows[pick(range(ROWS))]
    else:
        rows[pick(range(ROWS))].append(HIGHEST)
    return log, _deal_rule(log, "setup.deal")


def _outside_reduced_deck(log: Log, pick: Pick) -> tuple[Log, frozenset[str]] | None:
    if log["variant"] != "tactics" or len(log["players"]) == PLAYER_RANGE[Variant.TACTICS][1]:
        return None
    options = _hand_cards(log)
    if not options:
        return None
    r, player, index = pick(options)
    log = copy.deepcopy(log)
    highest = tactics_deck(len(log["players"]))[-1]
    log["rounds"][r]["hands"][player][index] = pick(range(highest + 1, 105))
    return log, _one("variants.tactics")


def _draft_rounds(log: Log) -> list[int]:
    return [r for r, entry in enumerate(log["rounds"]) if entry.get("draft")]


def _draft_out_of_turn(log: Log, pick: Pick) -> tuple[Log, frozenset[str]] | None:
    options = _draft_rounds(log)
    if not options:
        return None
    log = copy.deepcopy(log)
    picks = log["rounds"][pick(options)]["draft"]
    k = pick(range(len(picks) - 1))
    picks[k], picks[k + 1] = picks[k + 1], picks[k]
    return log, _one("variants.logic")


def _draft_card_twice(log: Log, pick: Pick) -> tuple[Log, frozenset[str]] | None:
    options = _draft_rounds(log)
    if not options:
        return None
    log = copy.deepcopy(log)
    picks = log["rounds"][pick(options)]["draft"]
    k = pick(range(1, len(picks)))
    picks[k][1] = picks[pick(range(k))][1]
    return log, _one("variants.logic")


def _draft_missing(log: Log, pick: Pick) -> tuple[Log, frozenset[str]] | None:
    options = _draft_rounds(log)
    if not options:
        return None
    log = copy.deepcopy(log)
    del log["rounds"][pick(options)]["draft"]
    return log, _one("variants.tournament" if log["variant"] == "tournament" else "variants.logic")


def _draft_not_logic(log: Log, pick: Pick) -> tuple[Log, frozenset[str]] | None:
    if log["variant"] in ("logic", "tournament") or not log["rounds"]:
        return None
    log = copy.deepcopy(log)
    entry = log["rounds"][pick(range(len(log["rounds"])))]
    entry["draft"] = [[player, value] for player in log["players"]
                      for value in entry["hands"][player]]
    return log, _one("variants.logic")


def _too_few_players(log: Log, pick: Pick) -> tuple[Log, frozenset[str]] | None:
    log = copy.deepcopy(log)
    log["players"] = log["players"][:pick([1, 0])]
    return log, _one("setup.players")


def _too_many_players(log: Log, pick: Pick) -> tuple[Log, frozenset[str]] | None:
    log = copy.deepcopy(log)
    most = PLAYER_RANGE[Variant.parse(log["variant"])][1]
    players = log["players"]
    log["players"] = [*players, *(f"extra{n}" for n in range(most + 1 - len(players)))]
    return log, _one("setup.players")


def _player_named_twice(log: Log, pick: Pick) -> tuple[Log, frozenset[str]] | None:
    log = copy.deepcopy(log)
    players = log["players"]
    index = pick(range(1, len(players)))
    players[index] = players[pick(range(index))]
    return log, _one("setup.players")


def _unknown_variant(log: Log, pick: Pick) -> tuple[Log, frozenset[str]] | None:
    log = copy.deepcopy(log)
    log["variant"] = pick(["profi", "Standard", "", "logic-2"])
    try:  # the id a name that is no variant is refused with (it breaks no rule of the game)
        Variant.parse(log["variant"])
    except Take5Error as error:
        return log, _one(error.rule)
    return None


def _later_games(log: Log) -> list[int]:
    """The rounds of a tournament after its first game (they play the hands passed on)."""
    if log["variant"] != "tournament":
        return []
    return list(range(1, len(log["rounds"])))


def _hands_not_passed(log: Log, pick: Pick) -> tuple[Log, frozenset[str]] | None:
    """A later game of a tournament plays the hands of the game before, not passed on."""
    options = _later_games(log)
    if not options:
        return None
    r = pick(options)
    log = copy.deepcopy(log)
    log["rounds"][r]["hands"] = copy.deepcopy(log["rounds"][r - 1]["hands"])
    return log, _one("variants.tournament")


def _draft_again(log: Log, pick: Pick) -> tuple[Log, frozenset[str]] | None:
    """A later game of a tournament records a draft (only the first game drafts)."""
    options = _later_games(log)
    if not options or "draft" not in log["rounds"][0]:
        return None
    r = pick(options)
    log = copy.deepcopy(log)
    log["rounds"][r]["draft"] = copy.deepcopy(log["rounds"][0]["draft"])
    return log, _one("variants.tournament")


def _threshold(log: Log, pick: Pick) -> tuple[Log, frozenset[str]] | None:
    log = copy.deepcopy(log)
    log["threshold"] = pick([0, -66])
    return log, _one("variants.threshold")


#: Every kind of defect, by name.
DEFECTS: dict[str, Defect] = {
    defect.name: defect
    for defect in (
        Defect("card-not-in-hand", "a player plays a card from another player's hand",
               _card_not_in_hand),
        Defect("card-played-twice", "a player plays again a card played in an earlier turn",
               _card_played_twice),
        Defect("missing-play", "a player plays no card in a turn", _missing_play),
        Defect("missing-take", "a low card's player takes no row", _missing_take),
        Defect("needless-take", "a player whose card is not low takes a row", _needless_take),
        Defect("take-out-of-range", "a low card's player takes a row that does not exist",
               _take_out_of_range),
        Defect("rows-after-least-difference", "the claimed rows put a card after another row "
               "that ends lower, not the closest", _rows_least_difference),
        Defect("rows-after-not-ascending", "the claimed rows put a card after a higher card",
               _rows_not_ascending),
        Defect("rows-after-sixth-card", "the claimed rows put a sixth card after the five "
               "instead of taking them", _rows_sixth_card),
        Defect("rows-after-low-card", "the claimed rows have a low card start another row "
               "than the one its player took", _rows_low_card),
        Defect("rows-after-seat-order", "the claimed rows are those of placing the cards in "
               "seat order", _seat_order),
        Defect("taken-wrong", "the claimed cards taken in a turn hold a card not taken",
               _taken_extra),
        Defect("taken-cards-left-out", "the claimed cards taken in a turn leave out the cards "
               "a player took", _taken_left_out),
        Defect("wrong-penalties", "a round's claimed penalties miscount the bull heads",
               _wrong_penalties),
        Defect("wrong-totals", "the claimed totals are not the sum of the rounds", _wrong_totals),
        Defect("wrong-winners", "the claimed winner does not have the lowest total",
               _wrong_winners),
        Defect("winners-unfinished", "winners are claimed for a game that is not over",
               _winners_unfinished),
        Defect("past-the-end", "the log goes on after the round that ended the game",
               _past_the_end),
        Defect("eleven-turns", "a round has an eleventh turn", _eleven_turns),
        Defect("short-round", "a round stops before its tenth turn and another follows",
               _short_round),
        Defect("card-out-of-range", "a hand holds a card that does not exist",
               _card_out_of_range),
        Defect("card-dealt-twice", "a card is dealt twice", _card_dealt_twice),
        Defect("hand-of-nine", "a hand holds nine cards", _hand_size),
        Defect("rows-at-start", "a round starts with three rows, or a row of two cards",
               _rows_at_start),
        Defect("outside-reduced-deck", "in the tactics variant, a hand holds a card above "
               "10 x players + 4", _outside_reduced_deck),
        Defect("draft-out-of-turn", "two picks of the logic draft are swapped",
               _draft_out_of_turn),
        Defect("draft-card-twice", "a card is drafted twice", _draft_card_twice),
        Defect("draft-missing", "a drafted round (logic, a tournament's first game) records no "
               "draft",
               _draft_missing),
        Defect("draft-not-logic", "a round of the standard or tactics variant records a draft",
               _draft_not_logic),
        Defect("too-few-players", "a game of one player, or of none", _too_few_players),
        Defect("too-many-players", "one player more than the variant allows",
               _too_many_players),
        Defect("player-named-twice", "two seats with the same name", _player_named_twice),
        Defect("unknown-variant", "a variant that does not exist", _unknown_variant),
        Defect("tournament-hands-not-passed", "a later game of a tournament plays the hands of "
               "the game before instead of passing them on", _hands_not_passed),
        Defect("tournament-draft-again", "a later game of a tournament records a draft",
               _draft_again),
        Defect("threshold", "an agreed threshold below 1", _threshold),
    )
}
