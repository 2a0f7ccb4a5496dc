"""A :class:`~take5rules.playing.stepper.Game` as a JSON document, and back: rules, seed, moves.

A saved game is what replays it: its seats and rules, its seed, where it began (its first
round and the totals before it, and the deals given from outside, if any: a game taken up with
:meth:`Game.from_deal <take5rules.playing.stepper.Game.from_deal>` or from a log) and its moves,
each ``[seat, answer]`` in the order taken. No state is stored: the hands, the rows, the cards
taken, the totals and the random generator are rebuilt by replaying the moves through the
game's public steps (:meth:`Game.act <take5rules.playing.stepper.Game.act>`), so a document can
only describe a game the rules reach, and a document that breaks a rule is refused by the rule
itself, with its id.

The document's shape is checked once, strictly, where it enters (:func:`load`), before anything
is replayed: its keys (none unknown, none missing), ``version`` the ``int`` 1 (not ``1.0``, not
``true``), each value of its documented kind, a card or an answer an ``int`` (never a
``bool``), and bounded sizes. Nothing is walked that is not of the expected shape, so a value
nested 100,000 deep is refused at its first level, never recursed into. A document not of that
shape is refused with the id ``state`` (:data:`take5rules.errors.NOT_RULES`: no rule of the game
is broken).

The module knows only the document: :meth:`Game.to_json
<take5rules.playing.stepper.Game.to_json>` writes it with :func:`dump`, and :meth:`Game.from_json
<take5rules.playing.stepper.Game.from_json>` reads it with :func:`read`, then replays the moves.

>>> from take5rules.playing.stepper import Game
>>> game = Game(["ana", "bob"], seed=3)
>>> _ = game.play("ana", game.legal("ana")[0])
>>> document = game.to_json()
>>> sorted(document)
['deals', 'first_round', 'format', 'moves', 'players', 'rules', 'seed', 'totals_before', \
'version']
>>> document["seed"], document["moves"]
(3, [['ana', 9]])
>>> read(document).moves
(('ana', 9),)
>>> read({**document, "version": 1.0})
Traceback (most recent call last):
...
take5rules.errors.MalformedInputError: not a saved game: version is '1.0', which is not what a \
saved game holds there [state]
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
from types import MappingProxyType
from typing import Any

from take5rules._messages import N_
from take5rules.cards import Card
from take5rules.errors import MalformedInputError
from take5rules.playing.answers import shown
from take5rules.setup import check_players
from take5rules.table import Table
from take5rules.variants import Rules, Variant

__all__ = ["FORMAT", "KEYS", "MAX_DEALS", "MAX_MOVES", "VERSION", "Saved", "dump", "read"]

#: The document's format name and version.
FORMAT, VERSION = "take5rules-game", 1
#: The keys of a saved game, every one required.
KEYS = frozenset({"format", "version", "players", "rules", "seed", "first_round",
                  "totals_before", "deals", "moves"})
#: The most moves a saved game may hold: far more than any game to the highest threshold a
#: person plays, few enough to replay in seconds.
MAX_MOVES = 1_000_000
#: The most deals given from outside a saved game may hold (one a round at most).
MAX_DEALS = 100_000
#: The most items of any other list (seats, rows, cards of a hand or a row).
_MAX_ITEMS = 104
#: The longest text (a seat's name, the variant).
_MAX_TEXT = 1_000


@dataclass(frozen=True, slots=True)
class Saved:
    """A saved game's document, its shape checked: what replays the game.

    *deals* are ``(table, hands)``, the deals given from outside from round *first_round* on;
    *moves* ``(seat, answer)`` pairs in the order taken. The rules have not replayed anything
    yet: the seats and rules are checked, the rest only for its shape.
    """

    players: tuple[str, ...]
    rules: Rules
    seed: int
    first_round: int
    totals_before: Mapping[str, int]
    deals: tuple[tuple[Table, Mapping[str, tuple[Card, ...]]], ...]
    moves: tuple[tuple[str, int], ...]


def dump(
    players: Sequence[str],
    rules: Rules,
    seed: int,
    first_round: int,
    totals_before: Mapping[str, int],
    deals: Sequence[tuple[Table, Mapping[str, Sequence[Card]]]],
    moves: Iterable[tuple[str, int]],
) -> dict[str, Any]:
    """The JSON-ready document of a game: its rules, seed, start and moves."""
    return {
        "format": FORMAT,
        "version": VERSION,
        "players": list(players),
        "rules": {"variant": rules.variant.value, "threshold": rules.threshold},
        "seed": seed,
        "first_round": first_round,
        "totals_before": dict(totals_before),
        "deals": [
            {"rows": [list(row) for row in table.rows],
             "hands": {player: list(hand) for player, hand in hands.items()}}
            for table, hands in deals
        ],
        "moves": [[seat, answer] for seat, answer in moves],
    }


def _shape(path: str, value: object) -> MalformedInputError:
    return MalformedInputError(
        "state",
        N_("not a saved game: {path} is {value!r}, which is not what a saved game holds there"),
        path=path,
        value=shown(value),
    )


def _whole(path: str, value: object) -> int:
    """*value* if it is an ``int`` (never a ``bool`` or a float)."""
    if type(value) is not int:
        raise _shape(path, value)
    return value


def _text(path: str, value: object) -> str:
    if not isinstance(value, str) or len(value) > _MAX_TEXT:
        raise _shape(path, value)
    return value


def _list(path: str, value: object, most: int = _MAX_ITEMS) -> list[Any]:
    if not isinstance(value, list) or len(value) > most:
        raise _shape(path, value)
    return value


def _object(path: str, value: object, keys: frozenset[str] | None = None) -> dict[str, Any]:
    """*value* if it is a JSON object (with exactly *keys*, when given)."""
    if not isinstance(value, dict) or len(value) > _MAX_ITEMS:
        raise _shape(path, value)
    if keys is not None and set(value) != keys:
        odd = sorted(map(str, set(value) ^ keys))
        raise _shape(f"{path} ({', '.join(odd)})", value)
    return value


def _cards(path: str, value: object) -> list[int]:
    return [_whole(f"{path}[{index}]", item) for index, item in enumerate(_list(path, value))]


def _by_player(path: str, value: object, players: list[str], item: Any) -> dict[str, Any]:
    """An object naming every seat, no other key, each value read by *item*."""
    found = _object(path, value)
    if set(found) != set(players):
        raise _shape(path, sorted(map(str, found)))
    return {player: item(f"{path}.{player}", found[player]) for player in players}


def read(data: object) -> Saved:
    """The document *data*, its shape checked strictly (see the module's docstring).

    A document not of the documented shape is refused with the id ``state``; seats or
    rules the rules refuse, with that rule's id.
    """
    document = _object("the document", data, KEYS)
    if document["format"] != FORMAT:
        raise _shape("format", document["format"])
    if type(document["version"]) is not int or document["version"] != VERSION:
        raise _shape("version", document["version"])
    players = [_text(f"players[{index}]", name)
               for index, name in enumerate(_list("players", document["players"]))]
    rules = _object("rules", document["rules"], frozenset({"variant", "threshold"}))
    checked = Rules(Variant.parse(_text("rules.variant", rules["variant"])),
                    _whole("rules.threshold", rules["threshold"]))
    check_players(players, checked)  # the seats first: every other part is keyed by them
    deals: list[tuple[Table, dict[str, tuple[Card, ...]]]] = []
    for index, deal in enumerate(_list("deals", document["deals"], MAX_DEALS)):
        path = f"deals[{index}]"
        entry = _object(path, deal, frozenset({"rows", "hands"}))
        rows = [_cards(f"{path}.rows[{number}]", row)
                for number, row in enumerate(_list(f"{path}.rows", entry["rows"]))]
        hands = _by_player(f"{path}.hands", entry["hands"], players, _cards)
        deals.append((Table.of(rows), {player: tuple(hand) for player, hand in hands.items()}))
    moves = []
    for index, move in enumerate(_list("moves", document["moves"], MAX_MOVES)):
        if not (isinstance(move, list) and len(move) == 2):
            raise _shape(f"moves[{index}]", move)
        moves.append((_text(f"moves[{index}][0]", move[0]),
                      _whole(f"moves[{index}][1]", move[1])))
    seed = _whole("seed", document["seed"])
    if seed < 0:
        raise _shape("seed", seed)
    return Saved(
        tuple(players), checked, seed,
        _whole("first_round", document["first_round"]),
        MappingProxyType(_by_player("totals_before", document["totals_before"], players,
                                    _whole)),
        tuple(deals), tuple(moves),
    )
