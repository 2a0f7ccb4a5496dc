"""Defects: every way a take5-log can break the rules, as a mutation of a valid log.

Each :class:`Defect` takes a valid log and a *pick* function that chooses among the places the
defect can go (the first, for the shipped vectors; any, for property tests), and returns the
broken log with the rule ids its first violation may name. Other projects can use them to test
their own validators: a validator that accepts a defective log has a bug.

>>> from take5rules.vectors import game_log
>>> log = game_log((("ana", "cautious"), ("bob", "lowest")), seed=3)
>>> broken, expected = DEFECTS["card-played-twice"].apply(log, lambda options: options[0])
>>> sorted(expected)
['turn.reveal']
"""

from __future__ import annotations

import copy
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Any

from .errors import Take5Error
from .table import Table, place_card
from .variants import tactics_deck

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
        if not whole or len(entry["turns"]) == 10
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
    log["rounds"][r]["turns"][t]["takes"][player] = pick([4, -1, 7])
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
                    if j != i and (other[-1] < value) == ascending and len(other) < 5:
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
        if len(taken) == 5 and player not in log["rounds"][r]["turns"][t].get("takes", {})
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
    other = pick([index for index in range(4) if index != taken])
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
        table = Table.of(before)
        try:
            for player, value in turn["plays"].items():
                table = place_card(table, value, turn.get("takes", {}).get(player)).table
        except Take5Error:  # the seat order may need a choice the log does not give
            continue
        if table.to_json() != turn["rows_after"]:
            options.append((r, t, table.to_json()))
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
    taken[player] = [*taken.get(player, []), pick([104, 1, 55])]
    return log, _PLACEMENT_RULES - {"turn.order", "table.ascending"}


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
    keep = pick(range(10))
    last["turns"] = last["turns"][:keep]
    last.pop("penalties", None)
    log.pop("totals", None)
    return log, _one("game.winners")


def _past_the_end(log: Log, pick: Pick) -> tuple[Log, frozenset[str]] | None:
    if "winners" not in log:
        return None
    log = copy.deepcopy(log)
    log["rounds"].append(copy.deepcopy(log["rounds"][pick(range(len(log["rounds"])))]))
    return log, _one("game.end")


def _eleven_turns(log: Log, pick: Pick) -> tuple[Log, frozenset[str]] | None:
    options = [r for r, entry in enumerate(log["rounds"]) if len(entry["turns"]) == 10]
    if not options:
        return None
    r = pick(options)
    log = copy.deepcopy(log)
    turns = log["rounds"][r]["turns"]
    turns.append(copy.deepcopy(turns[pick(range(10))]))
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
    """What a broken deal breaks: *rule*, or the draft in the logic variant."""
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
        del rows[pick(range(4))]
    else:
        rows[pick(range(4))].append(104)
    return log, _one("setup.deal")


def _outside_reduced_deck(log: Log, pick: Pick) -> tuple[Log, frozenset[str]] | None:
    if log["variant"] != "tactics" or len(log["players"]) == 10:
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
    return log, _one("variants.logic")


def _draft_not_logic(log: Log, pick: Pick) -> tuple[Log, frozenset[str]] | None:
    if log["variant"] == "logic" or not log["rounds"]:
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
    most = 6 if log["variant"] == "logic" else 10
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
    return log, _one("variant-name")


def _tournament(log: Log, pick: Pick) -> tuple[Log, frozenset[str]] | None:
    log = copy.deepcopy(log)
    log["variant"] = "tournament"
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
        Defect("wrong-penalties", "a round's claimed penalties miscount the bull heads",
               _wrong_penalties),
        Defect("wrong-totals", "the claimed totals are not the sum of the rounds",
               _wrong_totals),
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
        Defect("draft-missing", "a round of the logic variant records no draft",
               _draft_missing),
        Defect("draft-not-logic", "a round of another variant records a draft",
               _draft_not_logic),
        Defect("too-few-players", "a game of one player, or of none", _too_few_players),
        Defect("too-many-players", "one player more than the variant allows",
               _too_many_players),
        Defect("player-named-twice", "two seats with the same name", _player_named_twice),
        Defect("unknown-variant", "a variant that does not exist", _unknown_variant),
        Defect("tournament", "the tournament variant, which has no version-1 log",
               _tournament),
        Defect("threshold", "an agreed threshold below 1", _threshold),
    )
}
