"""The conformance vectors' generator: the turn cases, the games and the defects applied to them.

What the suite holds and how to run it is described where it is imported from,
:mod:`take5rules.conformance.vectors`, and in the suite's own ``README.md`` (:data:`_README`).

>>> len(suite()["turns.jsonl"].splitlines()) == len(TURN_CASES)
True
"""

from __future__ import annotations

import json
from collections.abc import Callable, Iterator, Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from take5rules._messages import N_
from take5rules.conformance.defects import DEFECTS, Log
from take5rules.conformance.examples import WORKED_EXAMPLES
from take5rules.conformance.referee import answer_line, parse_request
from take5rules.errors import MalformedInputError
from take5rules.events import CardsRevealed, Event
from take5rules.logs.format import dumps
from take5rules.logs.validator import validate
from take5rules.logs.writer import LogWriter
from take5rules.playing.engine import play_game
from take5rules.playing.kinds import BUILTIN_PLAYERS
from take5rules.playing.players import Player, RandomPlayer
from take5rules.registry import RULE_ORDER
from take5rules.turn import resolve_turn
from take5rules.variants import DEFAULT_THRESHOLD, Rules, Variant

__all__ = [
    "GAMES",
    "TURN_CASES",
    "GameSpec",
    "TurnCase",
    "game_events",
    "game_log",
    "suite",
    "turn_vectors",
    "write_suite",
]



# The turns.


@dataclass(frozen=True, slots=True)
class TurnCase:
    """One referee request: a one-line description, the request, and whether it is a raw line.

    A raw request is a string sent as it is (the "not JSON" case); any other request is sent
    JSON-encoded on one line.
    """

    description: str
    request: object
    raw: bool = False


_PUBLISHER_ROWS = [[12], [37], [43], [58]]

#: The turn cases of ``turns.jsonl``, in order.
TURN_CASES: tuple[TurnCase, ...] = (
    TurnCase("ascending: 25 can only go on the one row whose last card is lower, the 20",
             {"rows": [[50], [60], [70], [20]], "plays": [["ana", 25]]}),
    TurnCase("ascending: 44 may go after 12, 37 or 43, never after the 58",
             {"rows": _PUBLISHER_ROWS, "plays": [["ana", 44]]}),
    TurnCase("least difference beats a safer row: 46 is sixth after the 45, not after the 2",
             {"rows": [[10, 20, 30, 40, 45], [2], [60], [70]], "plays": [["ana", 46]]}),
    TurnCase("the take5-log example: bob's low 5 takes row 0 (the 12), then ana's 14 goes "
             "after the 5 and cyd's 61 after the 58",
             {"rows": _PUBLISHER_ROWS, "plays": [["ana", 14], ["bob", 5], ["cyd", 61]],
              "choices": {"bob": 0}}),
    *(
        TurnCase(f"worked example {item.id}: {item.title}", item.request)
        for item in WORKED_EXAMPLES
    ),
    *(
        TurnCase(f"low card: 5 is lower than every row; its player takes row {index}",
                 {"rows": [[10, 11], [20], [30, 31, 32], [40]], "plays": [["ana", 5]],
                  "choices": {"ana": index}})
        for index in range(4)
    ),
    TurnCase("low card taking a full row: 3 takes the five cards of row 0",
             {"rows": [[20, 21, 22, 23, 24], [30], [40], [50]], "plays": [["ana", 3]],
              "choices": {"ana": 0}}),
    TurnCase("a low card, then cards that go on its new row: 5 takes row 2, then 7 and 8 go "
             "after it",
             {"rows": [[20], [30], [40], [50]],
              "plays": [["ana", 7], ["bob", 5], ["cyd", 8], ["dan", 55]],
              "choices": {"bob": 2}}),
    TurnCase("only the lowest card can be low: once 3 starts a row, 4 fits after it, and the "
             "choice given for 4 is ignored",
             {"rows": [[20], [30], [40], [50]], "plays": [["ana", 3], ["bob", 4]],
              "choices": {"ana": 1, "bob": 2}}),
    TurnCase("a sixth card restarts its row, and the next card goes after it",
             {"rows": [[1, 2, 3, 4, 5], [50], [60], [70]], "plays": [["ana", 6], ["bob", 7]]}),
    TurnCase("two sixth cards in one turn, on two rows",
             {"rows": [[1, 2, 3, 4, 5], [10, 11, 12, 13, 14], [60], [70]],
              "plays": [["ana", 15], ["bob", 6]]}),
    TurnCase("ten players: a low card, a sixth card and cards placed after each",
             {"rows": _PUBLISHER_ROWS,
              "plays": [["ana", 13], ["bob", 14], ["cyd", 15], ["dan", 16], ["eve", 17],
                        ["fay", 5], ["gus", 44], ["hal", 59], ["ivy", 100], ["jon", 6]],
              "choices": {"fay": 1}}),
    TurnCase("error: two players play the same card",
             {"rows": _PUBLISHER_ROWS, "plays": [["ana", 30], ["bob", 30]]}),
    TurnCase("error: a played card is already on the table",
             {"rows": _PUBLISHER_ROWS, "plays": [["ana", 37]]}),
    TurnCase("error: a row that is not ascending",
             {"rows": [[3, 12], [24], [70, 61], [96]], "plays": [["ana", 17]]}),
    TurnCase("error: a row of six cards",
             {"rows": [[1, 2, 3, 4, 5, 6], [24], [70], [96]], "plays": [["ana", 17]]}),
    TurnCase("error: three rows",
             {"rows": [[3], [24], [70]], "plays": [["ana", 17]]}),
    TurnCase("error: an empty row",
             {"rows": [[3], [], [70], [96]], "plays": [["ana", 17]]}),
    TurnCase("error: 2 is a low card and 'choices' has no row for its player",
             {"rows": [[3, 12], [24], [58, 61, 70], [96]], "plays": [["ana", 17], ["bob", 2]]}),
    TurnCase("error: card 0 does not exist",
             {"rows": _PUBLISHER_ROWS, "plays": [["ana", 0]]}),
    TurnCase("error: card 105 does not exist",
             {"rows": _PUBLISHER_ROWS, "plays": [["ana", 105]]}),
    TurnCase("error: a choice outside the rows 0 to 3",
             {"rows": _PUBLISHER_ROWS, "plays": [["ana", 5]], "choices": {"ana": 4}}),
    TurnCase("error: one player plays twice",
             {"rows": _PUBLISHER_ROWS, "plays": [["ana", 20], ["ana", 30]]}),
    TurnCase("error: an unknown request field",
             {"rows": _PUBLISHER_ROWS, "plays": [["ana", 20]], "turn": 1}),
    TurnCase("error: the request is not a JSON object", [1, 2]),
    TurnCase("error: the line is not JSON", "{rows: [[12], [37], [43], [58]]", raw=True),
)


def _turn_rules(request: object, reply: Mapping[str, Any]) -> list[str]:
    """The rule ids a case exercises: the rule of its error, or those that placed its cards."""
    if "error" in reply:
        rule = reply["error"]["rule"]
        return [rule] if rule in RULE_ORDER else []
    table, plays, choices = parse_request(request)
    result = resolve_turn(table, plays, lambda choice: choices[choice.player])
    used = {"table.ascending", *(placement.rule for _, placement in result.placements)}
    if len(plays) > 1:
        used.add("turn.order")
    if "table.sixth-card" in used:
        used.add("table.least-difference")
    return [rule for rule in RULE_ORDER if rule in used]


def turn_vectors() -> Iterator[dict[str, Any]]:
    """The lines of ``turns.jsonl``, each with the reply of our referee."""
    for case in TURN_CASES:
        line = case.request if isinstance(case.request, str) and case.raw \
            else json.dumps(case.request)
        expected = json.loads(answer_line(str(line)))
        vector: dict[str, Any] = {"request": case.request}
        if case.raw:
            vector["raw"] = True
        vector["expected"] = expected
        vector["rules"] = _turn_rules(case.request, expected)
        vector["description"] = case.description
        yield vector


# The games.


def _seats(players: Sequence[tuple[str, str]], seed: int) -> dict[str, Player]:
    seats: dict[str, Player] = {}
    for index, (name, kind) in enumerate(players):
        seats[name] = RandomPlayer(seed * 100 + index) if kind == "random" \
            else BUILTIN_PLAYERS[kind]()
    return seats


def game_events(
    players: Sequence[tuple[str, str]],
    variant: Variant = Variant.STANDARD,
    threshold: int = DEFAULT_THRESHOLD,
    seed: int = 0,
) -> list[Event]:
    """The events of a game between built-in players (``(name, kind)`` pairs), from *seed*."""
    return list(play_game(_seats(players, seed), Rules(variant, threshold), seed))


def game_log(
    players: Sequence[tuple[str, str]],
    variant: Variant = Variant.STANDARD,
    threshold: int = DEFAULT_THRESHOLD,
    seed: int = 0,
    *,
    claims: bool = True,
    stop: int | None = None,
) -> Log:
    """The take5-log of :func:`game_events`; with *stop*, of its first *stop* events only."""
    writer = LogWriter(claims=claims)
    for event in game_events(players, variant, threshold, seed)[:stop]:
        writer.add(event)
    return writer.log()


@dataclass(frozen=True, slots=True)
class GameSpec:
    """A valid game of the suite: built-in players, rules, seed, and where to stop."""

    name: str
    description: str
    players: tuple[tuple[str, str], ...]
    variant: Variant = Variant.STANDARD
    threshold: int = DEFAULT_THRESHOLD
    seed: int = 0
    claims: bool = True
    stop: Callable[[Sequence[Event]], int] | None = None

    def log(self) -> Log:
        """The game's take5-log."""
        stop = None
        if self.stop is not None:
            stop = self.stop(game_events(self.players, self.variant, self.threshold, self.seed))
        return game_log(self.players, self.variant, self.threshold, self.seed,
                        claims=self.claims, stop=stop)


_FOUR = (("ana", "cautious"), ("bob", "lowest"), ("cyd", "random"), ("dan", "cautious"))
_THREE = (("ana", "cautious"), ("bob", "random"), ("cyd", "lowest"))
_TEN = tuple((name, ("cautious", "lowest", "random")[index % 3]) for index, name in enumerate(
    ("ana", "bob", "cyd", "dan", "eve", "fay", "gus", "hal", "ivy", "jon")))


def _no_stop(round_number: int) -> MalformedInputError:
    """The error of a game spec whose stop point the game never reaches."""
    return MalformedInputError(
        "argument", N_("the game ends before round {round}, where it was to stop"),
        round=round_number)


def _mid_turn(round_number: int, turn: int) -> Callable[[Sequence[Event]], int]:
    """Stop after the first placement of a turn: the log holds the turns before it."""

    def stop(events: Sequence[Event]) -> int:
        for index, event in enumerate(events):
            if isinstance(event, CardsRevealed) and (event.round, event.turn) == (
                    round_number, turn):
                return index + 2
        raise _no_stop(round_number)

    return stop


def _after_round(round_number: int) -> Callable[[Sequence[Event]], int]:
    def stop(events: Sequence[Event]) -> int:
        for index, event in enumerate(events):
            if event.kind == "round-scored" and getattr(event, "round", None) == round_number:
                return index + 1
        raise _no_stop(round_number)

    return stop


#: The valid games of the suite.
GAMES: tuple[GameSpec, ...] = (
    GameSpec("standard-4-players", "a standard game of four players, every claim made",
             _FOUR, seed=1),
    GameSpec("standard-2-players", "a standard game of two players", (("ana", "random"),
             ("bob", "cautious")), seed=2),
    GameSpec("standard-10-players", "a standard game of ten players", _TEN, seed=3),
    GameSpec("standard-threshold-25", "a standard game of three players with the agreed "
             "threshold 25, two rounds; the invalid games are made from it", _THREE,
             threshold=25, seed=4),
    GameSpec("shared-win", "a game that ends with two players tied on the lowest total",
             _THREE, threshold=20, seed=7),
    GameSpec("tactics-3-players", "the tactics variant: three players, the cards 1 to 34",
             _THREE, Variant.TACTICS, seed=5),
    GameSpec("tactics-10-players", "the tactics variant with ten players: all 104 cards dealt",
             _TEN, Variant.TACTICS, seed=6),
    GameSpec("logic-2-players", "the logic variant: two players draft the cards 1 to 24",
             (("ana", "cautious"), ("bob", "random")), Variant.LOGIC, seed=7),
    GameSpec("logic-6-players", "the logic variant with six players, the most it allows",
             _TEN[:6], Variant.LOGIC, seed=8),
    GameSpec("tournament-3-players", "a tournament of three players: one draft of the cards 1 "
             "to 34, three games, the hands passed on after each", _THREE, Variant.TOURNAMENT,
             seed=10),
    GameSpec("tournament-5-players", "a tournament of five players, the most it allows",
             _TEN[:5], Variant.TOURNAMENT, seed=11),
    GameSpec("no-claims", "a standard game with no claims at all: only deals, plays and takes",
             _FOUR, seed=9, claims=False),
    GameSpec("in-progress-mid-round", "a game in progress: it stops during round 2, after "
             "turn 3", _FOUR, seed=1, stop=_mid_turn(2, 4)),
    GameSpec("in-progress-between-rounds", "a game in progress: round 1 is scored, round 2 "
             "not yet dealt", _FOUR, seed=1, stop=_after_round(1)),
    GameSpec("not-started", "a game in progress before its first deal: no rounds",
             _THREE, seed=1, stop=lambda events: 1),
)


#: The defects that only a tournament's log can have.
_TOURNAMENT_DEFECTS = ("tournament-hands-not-passed", "tournament-draft-again")

#: The invalid games of the suite: (file name, base game, defect); the first place is used.
_INVALID: tuple[tuple[str, str, str], ...] = (
    *((name, "standard-threshold-25", name) for name in DEFECTS
      if name not in {"outside-reduced-deck", "draft-out-of-turn", "draft-card-twice",
                      "draft-missing", *_TOURNAMENT_DEFECTS}),
    ("outside-reduced-deck", "tactics-3-players", "outside-reduced-deck"),
    ("draft-out-of-turn", "logic-2-players", "draft-out-of-turn"),
    ("draft-card-twice", "logic-2-players", "draft-card-twice"),
    ("draft-missing", "logic-2-players", "draft-missing"),
    ("logic-hand-not-drafted", "logic-2-players", "card-dealt-twice"),
    ("logic-seven-players", "logic-6-players", "too-many-players"),
    *((name, "tournament-3-players", name) for name in _TOURNAMENT_DEFECTS),
    ("tournament-game-after-last", "tournament-3-players", "past-the-end"),
    ("tournament-six-players", "tournament-5-players", "too-many-players"),
)


def _first(options: Sequence[Any]) -> Any:
    return options[0]


def _expected(log: Log, description: str) -> dict[str, Any]:
    report = validate(log)
    expected: dict[str, Any] = {"valid": report.valid, "complete": report.complete}
    if report.violations:
        first = report.violations[0]
        expected.update(rule=first.rule, where=first.where.parts(), path=first.path,
                        violations=[violation.rule for violation in report.violations])
    else:
        expected.update(totals=dict(report.totals) if report.totals is not None else None,
                        winners=list(report.winners) if report.winners is not None else None)
    expected["rules"] = list(report.rules)
    expected["description"] = description
    return expected


def suite() -> dict[str, str]:
    """Every file of the suite, by relative path, with its text."""
    files: dict[str, str] = {
        "README.md": _README,
        "turns.jsonl": "".join(json.dumps(vector, ensure_ascii=False) + "\n"
                               for vector in turn_vectors()),
    }
    bases: dict[str, Log] = {}
    for spec in GAMES:
        log = spec.log()
        bases[spec.name] = log
        expected = _expected(log, spec.description)
        if not expected["valid"]:
            raise RuntimeError(f"the valid game {spec.name} is not valid: {expected}")
        files[f"games/valid/{spec.name}.json"] = dumps({**log, "x-expected": expected}) + "\n"
    for name, base, defect_name in _INVALID:
        defect = DEFECTS[defect_name]
        outcome = defect.apply(bases[base], _first)
        if outcome is None:
            raise RuntimeError(f"the defect {defect_name} has no place in {base}")
        log, rules = outcome
        expected = _expected(log, f"{defect.description} (from {base})")
        if expected["valid"] or expected["rule"] not in rules:
            raise RuntimeError(f"{name}: expected one of {sorted(rules)}, got {expected}")
        files[f"games/invalid/{name}.json"] = dumps({**log, "x-expected": expected}) + "\n"
    return files


def write_suite(out: str | Path) -> list[Path]:
    """Write the suite under *out* (created if needed); return the paths written."""
    root = Path(out)
    written = []
    for relative, text in suite().items():
        path = root / relative
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(text, encoding="utf-8")
        written.append(path)
    return written


_README = """\
# take5rules conformance vectors

A language-neutral test suite for programs that implement the rules of *Take 5 / 6 nimmt!*.
It is generated by `take5rules vectors --out DIR` from the reference implementation
(`take5rules.conformance.referee` for the turns, `take5rules.logs.validator` for the games):
nothing in it is typed by hand but the requests, the games' seeds and the defects. The same
version of take5rules always writes the same bytes. Together the vectors exercise every rule id of
`take5rules ids`.

## `turns.jsonl`: one turn per line

Each line is a JSON object:

* `request`: a request of the referee line protocol (`take5rules referee`), such as
  `{"rows": [[3, 12], [24], [58, 61, 70], [96]], "plays": [["ana", 17], ["bob", 2]],
  "choices": {"bob": 3}}`: rows oldest card first, row indices 0 to 3, `choices` only
  for a low card's player;
* `raw` (only when `true`): `request` is a string to send *as it is*, not JSON-encoded
  (the "not JSON" case);
* `expected`: the reference reply, either
  `{"rows": [...], "taken": {player: [cards]}, "chosen": {player: row}}` or
  `{"error": {"rule": "<rule id or protocol>", "message": "..."}}`;
* `rules`: the rule ids the case exercises;
* `description`: one line saying what the case checks.

To run it against your engine: for each line, send `request` (JSON-encoded on one line
unless `raw`) and compare your reply with `expected`. For a turn compare `rows`, `taken`
and `chosen` exactly (the cards in `taken` are in the order taken). For an error compare
only `error.rule`: the message is English prose and may change between versions.

## `games/`: whole games as take5-logs

`games/valid/*.json` and `games/invalid/*.json` are game logs in the `take5-log`
format, version 1 (JSON Schema: `take5rules/logs/schemas/take5-log-1.schema.json` in the
package). Each file carries the reference verdict in its top-level member `x-expected`;
members whose names start with `x-` are extensions that the schema allows and validators
ignore, so each file is a log as any program would write it, plus its label. (A tournament's
games are the rounds of its log: the draft in the first, the hands passed on in the others.)
The labels:

* `valid`: whether the log breaks no rule;
* `complete`: whether it records a finished game (a valid log may stop mid-game);
* for a valid log: `totals` after the last whole round and, for a finished game, `winners`;
* for an invalid log: `rule`, the rule id its first violation breaks, with `where`
  (round, turn, player, card, as far as they apply) and `path` (the JSON path in the
  log), and `violations`, the rule ids of every violation found;
* `rules`: the rule ids checking the log exercises; `description`: what the game is.

To run it against your validator: every `games/valid` log must be accepted (and reported
incomplete exactly when `complete` is false), every `games/invalid` log rejected; if your
validator names rule ids, its first violation should name `rule`.

## With take5rules itself

```sh
take5rules referee < requests.jsonl          # the reference replies, one per line
take5rules validate games/valid/*.json       # exit status 0
take5rules validate games/invalid/*.json     # exit status 1, each violation explained
take5rules validate --json games/invalid/tournament-hands-not-passed.json
```

## From any language: an example in Python

```python
import json, subprocess
engine = subprocess.Popen(["./my-engine", "--referee"], stdin=subprocess.PIPE,
                          stdout=subprocess.PIPE, text=True)
for line in open("turns.jsonl"):
    case = json.loads(line)
    request = case["request"] if case.get("raw") else json.dumps(case["request"])
    engine.stdin.write(request + "\\n"); engine.stdin.flush()
    reply, expected = json.loads(engine.stdout.readline()), case["expected"]
    same = (reply.get("error", {}).get("rule") == expected["error"]["rule"]
            if "error" in expected else reply == expected)
    print("ok  " if same else "FAIL", case["description"])
```
"""
