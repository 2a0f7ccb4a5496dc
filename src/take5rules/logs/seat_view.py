"""A seat's view of a game: what one player saw of a take5-log, a document of its own.

A take5-log is the referee's full record: it holds every player's hand from the start of each
round, cards nobody else saw until they were played. :func:`seat_view` keeps what one seat
saw, so that a game can be published (for teaching, say) without giving away the other hands:

* the game's variant, threshold and players, as in the log;
* for each round: the four starting rows; the seat's **own** hand as dealt (or drafted, or
  passed on in a tournament); every pick of the draft (in the logic variant and the first game
  of a tournament the draft is face up, so every player sees every pick); and each turn: the
  cards played (revealed together, rule ``turn.reveal``), the rows taken for low cards, and the
  claims the log makes (rows after the turn, cards taken); the round's penalties;
* the totals and the winners.

It leaves out the hand of every other seat, in every variant: in the standard and tactics
games those cards are hidden until played (in the tactics variant the seat knows which cards
are in play, but not who holds which; the log would tell). In the logic variant and in a
tournament nothing is hidden (the draft is face up, and a tournament's later games replay the
hands of the game before, every card of which was revealed), yet the view keeps to the same
rule: own hand only. Members named ``x-...`` (extensions) are left out, since they may hold
anything.

A seat view is **not** a take5-log: the rules cannot be checked without every hand, so
``take5rules validate`` refuses one, saying what it is. It has the shape of a log but for
three points: ``"format": "take5-seat-view"``, a ``"seat"`` member naming the seat, and each
round's ``hands`` holding that seat's hand alone. Its JSON Schema ships with the package
(:func:`view_schema`, ``take5rules/logs/schemas/take5-seat-view-1.schema.json``).
``take5rules replay`` and ``take5rules show`` tell a seat view (and, with ``--seat NAME``,
a log as that seat saw it), through :func:`stand_in_log`.

>>> from take5rules import CautiousPlayer, LowestCardPlayer, play_game
>>> from take5rules.logs.writer import log_from_events
>>> log = log_from_events(play_game({"ana": CautiousPlayer(), "bob": LowestCardPlayer()},
...                                 seed=5))
>>> view = seat_view(log, "ana")
>>> view["format"], view["seat"], list(view["rounds"][0]["hands"])
('take5-seat-view', 'ana', ['ana'])
>>> view["rounds"][0]["turns"][0]["plays"] == log["rounds"][0]["turns"][0]["plays"]
True
"""

from __future__ import annotations

import copy
import json
from collections.abc import Mapping
from functools import cache
from importlib import resources
from typing import Any

from take5rules._messages import N_
from take5rules.errors import LogError, MalformedInputError, RulesError
from take5rules.logs.format import check_format
from take5rules.logs.structure import FORMAT, brief
from take5rules.logs.validator import validate
from take5rules.variants import Variant, check_player_count

__all__ = [
    "VIEW_FORMAT",
    "VIEW_VERSION",
    "check_view",
    "is_seat_view",
    "seat_view",
    "stand_in_log",
    "view_schema",
]

#: The value of a seat view's ``format`` member.
VIEW_FORMAT = "take5-seat-view"
#: The version of the seat view this module writes and reads (that of the take5-log it is cut
#: from).
VIEW_VERSION = 1

_SCHEMA_FILE = "take5-seat-view-1.schema.json"
#: Cards in a hand at the start of a round (rule setup.deal).
_HAND = 10
#: The whole deck (rule cards.deck).
_DECK = 104

_INVALID = N_("this log breaks a rule ({rule}, at {path}); `take5rules validate` says more")
_SEAT_NOT_NAME = N_("the seat {seat} is not a name: a seat is one of the players of the log, "
                    "{players}")
_SEAT_UNKNOWN = N_("{seat} is not a seat of this game; its seats are {players}")
_NOT_A_VIEW = N_("not a seat view: a seat view is a JSON object whose 'format' is "
                 "'take5-seat-view'")
_VIEW_VERSION = N_("seat view version {version} is not supported; this library reads version "
                   "{supported}")
_VIEW_SEAT = N_("not a seat view: at $.seat: {seat} is not one of the players ({players})")
_VIEW_HANDS = N_("not a seat view: at {path}: a seat view holds the hand of its seat {seat} "
                 "alone")


def _seats(players: list[str]) -> str:
    return ", ".join(brief(player) for player in players)


def _shown(value: object) -> str:
    """*value* briefly, as JSON where it can be; else the name of its type."""
    try:
        return brief(value)
    except (TypeError, ValueError):
        return f"<{type(value).__name__}>"


def view_schema() -> dict[str, Any]:
    """The JSON Schema (draft 2020-12) of a seat view, version 1, as shipped in the package.

    >>> view_schema()["properties"]["format"]["const"]
    'take5-seat-view'
    """
    return copy.deepcopy(_view_schema())


@cache
def _view_schema() -> dict[str, Any]:
    text = resources.files("take5rules.logs").joinpath("schemas", _SCHEMA_FILE).read_text("utf-8")
    loaded: dict[str, Any] = json.loads(text)
    return loaded


def is_seat_view(document: object) -> bool:
    """Whether *document* says it is a seat view (its ``format`` is ``take5-seat-view``).

    Only the format is looked at; :func:`check_view` checks the rest.

    >>> is_seat_view({"format": "take5-seat-view"}), is_seat_view({"format": "take5-log"})
    (True, False)
    >>> is_seat_view([1, 2])
    False
    """
    return isinstance(document, dict) and document.get("format") == VIEW_FORMAT


def seat_view(log: object, seat: object) -> dict[str, Any]:
    """What the player *seat* saw of the game the take5-log *log* records: a seat view.

    The log is checked first (:func:`take5rules.logs.validator.validate`): one that is not a
    take5-log, or breaks a rule, raises :class:`~take5rules.errors.LogError`. A *seat* that is
    not one of the log's players raises :class:`~take5rules.errors.MalformedInputError`
    (``argument``) listing them. The log itself is not changed; the view shares nothing with it.
    A log of a game in progress gives the view of a game in progress.

    >>> from take5rules import CautiousPlayer, LowestCardPlayer, play_game
    >>> from take5rules.logs.writer import log_from_events
    >>> log = log_from_events(play_game({"ana": CautiousPlayer(), "bob": LowestCardPlayer()},
    ...                                 seed=1))
    >>> bob = seat_view(log, "bob")
    >>> bob["rounds"][0]["hands"] == {"bob": log["rounds"][0]["hands"]["bob"]}
    True
    >>> seat_view(log, "cyd")
    Traceback (most recent call last):
    ...
    take5rules.errors.MalformedInputError: "cyd" is not a seat of this game; its seats are \
"ana", "bob" [argument]
    """
    report = validate(log)
    if not report.valid:
        first = report.violations[0]
        raise LogError(_INVALID, rule=first.rule, path=first.path)
    assert isinstance(log, dict)
    players: list[str] = log["players"]
    if not isinstance(seat, str):
        raise MalformedInputError("argument", _SEAT_NOT_NAME, seat=_shown(seat),
                                  players=_seats(players))
    if seat not in players:
        raise MalformedInputError("argument", _SEAT_UNKNOWN, seat=brief(seat),
                                  players=_seats(players))
    view: dict[str, Any] = {"format": VIEW_FORMAT, "version": VIEW_VERSION, "seat": seat}
    for name, value in log.items():
        if name in ("format", "version") or name.startswith("x-"):
            continue
        if name == "rounds":
            view["rounds"] = [_seen_round(entry, seat) for entry in value]
        else:
            view[name] = copy.deepcopy(value)
    return view


def _seen_round(entry: Mapping[str, Any], seat: str) -> dict[str, Any]:
    """Round *entry* of a log as *seat* saw it: every member, but only its own hand."""
    seen: dict[str, Any] = {}
    for name, value in entry.items():
        if name == "hands":
            seen["hands"] = {seat: list(value.get(seat, ()))}
        else:
            seen[name] = copy.deepcopy(value)
    return seen


def check_view(document: object) -> dict[str, Any]:
    """Check that *document* has the shape of a seat view (its schema, :func:`view_schema`).

    Its members are those of a take5-log, checked as a log's are
    (:func:`take5rules.logs.format.check_format`), but for the format, the ``seat`` (one of
    the players) and each round's ``hands``, which hold the seat's hand alone. The rules are
    not checked here (:func:`stand_in_log` makes that possible). Returns *document*.

    >>> check_view({"format": "take5-seat-view", "version": 1, "seat": "ana",
    ...             "variant": "standard", "players": ["ana", "bob"], "rounds": []})["seat"]
    'ana'
    >>> check_view({"format": "take5-seat-view", "version": 1, "seat": "ana",
    ...             "variant": "standard", "players": ["ana", "bob"],
    ...             "rounds": [{"rows": [[1], [2], [3], [4]], "hands": {"bob": []}, "turns": []}]})
    Traceback (most recent call last):
    ...
    take5rules.errors.LogError: not a seat view: at $.rounds[0].hands: a seat view holds the \
hand of its seat "ana" alone [log]
    """
    if not is_seat_view(document):
        raise LogError(_NOT_A_VIEW)
    assert isinstance(document, dict)
    version = document.get("version")
    if type(version) is not int or version != VIEW_VERSION:
        raise LogError(_VIEW_VERSION, version=_shown(version), supported=VIEW_VERSION)
    as_log = {name: value for name, value in document.items() if name != "seat"}
    as_log["format"] = FORMAT
    check_format(as_log)
    seat = document.get("seat")
    players: list[str] = document["players"]
    if type(seat) is not str or seat not in players:
        raise LogError(_VIEW_SEAT, seat=_shown(seat), players=_seats(players))
    for index, entry in enumerate(document["rounds"]):
        if entry["hands"].keys() != {seat}:
            raise LogError(_VIEW_HANDS, path=f"$.rounds[{index}].hands", seat=brief(seat))
    return document


def stand_in_log(view: object) -> dict[str, Any]:
    """A take5-log the seat view *view* could have been cut from, to replay and check it.

    The seat's hands are its own; every other hand is rebuilt from what the seat saw: from the
    draft where there is one, from the hands of the game before in a tournament's later games,
    and otherwise from the cards that player played in the round. Only a round in progress
    leaves cards no play revealed: those are *stand-ins*, the lowest cards of the deck in play
    that the seat never saw, in seat order. So the log is the real one but for the stand-ins,
    which are never played, and :func:`~take5rules.logs.validator.validate` checks every rule
    on it: a view cut from a valid log gives a valid log. Whoever tells the game from it must
    not show the other hands (:func:`take5rules.playing.retelling.seat_events` does not).
    Raises :class:`~take5rules.errors.LogError` when *view* is not a seat view
    (:func:`check_view`).

    >>> view = {"format": "take5-seat-view", "version": 1, "seat": "ana", "variant": "tactics",
    ...         "players": ["ana", "bob"], "rounds": [{"rows": [[21], [22], [23], [24]],
    ...         "hands": {"ana": [1, 2, 3, 4, 5, 6, 7, 8, 9, 10]},
    ...         "turns": [{"plays": {"ana": 1, "bob": 20}}]}]}
    >>> stand_in_log(view)["rounds"][0]["hands"]["bob"]  # 20 was played; the rest stand in
    [20, 11, 12, 13, 14, 15, 16, 17, 18, 19]
    """
    document = check_view(view)
    seat: str = document["seat"]
    players: list[str] = document["players"]
    try:
        variant = Variant.parse(document["variant"]).value
        check_player_count(len(players), Variant(variant))
    except RulesError:  # no game at all: nothing to rebuild, and validate says which rule
        variant = None
    deck = _DECK if variant == "standard" else _HAND * len(players) + 4
    log: dict[str, Any] = {"format": FORMAT, "version": VIEW_VERSION}
    sheets: dict[str, list[int]] = {}
    rounds: list[dict[str, Any]] = []
    for number, entry in enumerate(document["rounds"], start=1):
        own: list[int] = entry["hands"][seat]
        if variant is None or (variant == "tournament" and number > len(players)):
            rounds.append(entry)  # a round no game has: the seat's hand alone
            continue
        if variant == "logic" or (variant == "tournament" and number == 1):
            hands = {player: [card for picker, card in entry.get("draft", ()) if picker == player]
                     for player in players}
            sheets = hands
        elif variant == "tournament":
            count = len(players)
            hands = {player: list(sheets.get(players[(place - (number - 1)) % count], ()))
                     for place, player in enumerate(players)}
        else:
            hands = _played_hands(entry, [player for player in players if player != seat], deck)
        hands[seat] = list(own)
        rounds.append({**entry, "hands": {player: hands[player] for player in players}})
    for name, value in document.items():
        if name not in ("format", "version", "seat"):
            log[name] = rounds if name == "rounds" else value
    return log


def _played_hands(entry: Mapping[str, Any], others: list[str], deck: int) -> dict[str, list[int]]:
    """The cards each of *others* played in round *entry*, completed to ten by stand-ins.

    The stand-ins are the lowest cards of the deck in play seen neither on the rows, nor in the
    seat's hand (the one hand of the view's round), nor played.
    """
    hands: dict[str, list[int]] = {player: [] for player in others}
    for turn in entry["turns"]:
        for player, card in turn["plays"].items():
            if player in hands:
                hands[player].append(card)
    seen = {card for row in entry["rows"] for card in row}
    for own in entry["hands"].values():
        seen.update(own)
    seen.update(card for hand in hands.values() for card in hand)
    unseen = (card for card in range(1, deck + 1) if card not in seen)
    for hand in hands.values():
        while len(hand) < _HAND:
            card = next(unseen, None)
            if card is None:
                break
            hand.append(card)
    return hands
