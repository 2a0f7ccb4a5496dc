"""A :class:`.Game` as a JSON document, and back, strictly checked.

The document holds what cannot be worked out: the seats and rules, the totals, each hand, the
rows laid out at the round's start, the cards revealed turn by turn and the rows the low cards
took, the cards laid face down, the draft, and the random generator's state. The rows now and the
cards each player has taken are not stored: :func:`load` replays them from the start through the
kernel, so a document can only describe a state that the rules reach. Each part that breaks a
rule is refused with that rule's id; a part that is not of the documented shape with ``state``.
"""

from __future__ import annotations

import random
from collections.abc import Mapping
from types import MappingProxyType
from typing import Any

from take5rules import _kernel
from take5rules._messages import N_
from take5rules.cards import Card, cards
from take5rules.errors import IllegalMoveError, MalformedInputError, Where
from take5rules.events import GameOver
from take5rules.game import add_penalties
from take5rules.playing.answers import _row_index
from take5rules.playing.stepper import Game, Phase
from take5rules.setup import HAND_SIZE, ROWS, cards_in_play, check_players
from take5rules.table import Table
from take5rules.variants import Rules, Variant, next_drafter, tournament_hands

__all__ = ["FORMAT", "dump", "load"]

#: The document's format name and version.
FORMAT, VERSION = "take5rules-game", 1
_KEYS = ("format", "version", "players", "rules", "phase", "round", "totals", "hands", "start",
         "revealed", "rows_taken", "laid", "pool", "picks", "sheets", "rng")


def dump(game: Game) -> dict[str, Any]:
    """The JSON-ready document of *game*."""
    version, internal, gauss = game._rng.getstate()
    return {
        "format": FORMAT,
        "version": VERSION,
        "players": list(game.players),
        "rules": {"variant": game.rules.variant.value, "threshold": game.rules.threshold},
        "phase": game._phase.value,
        "round": game.round,
        "totals": dict(game._totals),
        "hands": {player: list(hand) for player, hand in game._hands.items()},
        "start": [list(row) for row in game._start],
        "revealed": [[[player, value] for player, value in turn] for turn in game._revealed],
        "rows_taken": list(game._choices),
        "laid": dict(game._laid),
        "pool": list(game._pool),
        "picks": [[player, value] for player, value in game._picks],
        "sheets": None if game._sheets is None else {
            "hands": {player: list(hand) for player, hand in game._sheets.items()},
            "rows": list(game._draft_rows),
        },
        "rng": [version, list(internal), gauss],
    }


def _shape(path: str, value: object) -> MalformedInputError:
    return MalformedInputError(
        "state",
        N_("not a saved game: {path} is {value!r}, which is not what a saved game holds there"),
        path=path,
        value=value,
    )


def _get(data: Mapping[str, Any], key: str, kind: type | tuple[type, ...]) -> Any:
    value = data.get(key)
    if isinstance(value, bool) or not isinstance(value, kind):
        raise _shape(key, value)
    return value


def _card_list(path: str, value: object) -> tuple[Card, ...]:
    if not isinstance(value, list):
        raise _shape(path, value)
    return cards(value)


def _pairs(path: str, value: object, players: tuple[str, ...]) -> tuple[tuple[str, Card], ...]:
    """A list of ``[player, card]`` pairs."""
    if not isinstance(value, list):
        raise _shape(path, value)
    pairs = []
    for item in value:
        if not (isinstance(item, list) and len(item) == 2 and item[0] in players):
            raise _shape(path, item)
        pairs.append((item[0], cards([item[1]])[0]))
    return tuple(pairs)


def _by_player(path: str, value: object, players: tuple[str, ...]) -> dict[str, Any]:
    if not isinstance(value, dict) or not set(value) <= set(players):
        raise _shape(path, value)
    return value


def load(data: object, events: bool = True) -> Game:
    """The game of a document written by :func:`dump`, every part checked."""
    if not isinstance(data, dict) or set(data) != set(_KEYS):
        raise _shape("document", data if not isinstance(data, dict) else sorted(data))
    if data["format"] != FORMAT or data["version"] != VERSION:
        raise _shape("format", [data["format"], data["version"]])
    rules_data = _get(data, "rules", dict)
    if set(rules_data) != {"variant", "threshold"}:
        raise _shape("rules", rules_data)
    rules = Rules(Variant.parse(rules_data["variant"]), rules_data["threshold"])
    players = check_players(_get(data, "players", list), rules)
    try:
        phase = Phase(data["phase"])
    except ValueError:
        raise _shape("phase", data["phase"]) from None
    number = _get(data, "round", int)
    if number < 1 or (rules.variant is Variant.TOURNAMENT and number > len(players)):
        raise _shape("round", number)
    totals = _by_player("totals", data["totals"], players)
    add_penalties(totals, dict.fromkeys(players, 0))  # rule game.totals
    game = object.__new__(Game)
    game._setup(players, rules, events)
    game.round, game._phase = number, phase
    game._totals = {player: totals[player] for player in players}
    game._rng = _rng(data["rng"])
    pool = cards_in_play(rules, len(players))
    sheets = data["sheets"]
    if phase is Phase.DRAFT:
        _load_draft(game, data, pool)
        return game
    if sheets is not None:
        if rules.variant is not Variant.TOURNAMENT or not isinstance(sheets, dict) or set(
            sheets
        ) != {"hands", "rows"}:
            raise _shape("sheets", sheets)
        hands = _by_player("sheets.hands", sheets["hands"], players)
        game._sheets = MappingProxyType(
            {player: _card_list("sheets.hands", hands.get(player)) for player in players}
        )
        game._draft_rows = _card_list("sheets.rows", sheets["rows"])
        _same_cards([*game._draft_rows, *(c for h in game._sheets.values() for c in h)], pool)
    elif rules.variant is Variant.TOURNAMENT:
        raise _shape("sheets", sheets)
    if rules.drafted:
        game._picks = _pairs("picks", data["picks"], players)
    elif data["picks"]:
        raise _shape("picks", data["picks"])
    _load_round(game, data, pool)
    return game


def _rng(value: object) -> random.Random:
    """A generator in the state *value* (``Random.getstate()`` as JSON lists)."""
    rng = random.Random()
    if not (isinstance(value, list) and len(value) == 3 and isinstance(value[1], list)
            and all(type(word) is int for word in value[1])):
        raise _shape("rng", value)
    try:
        rng.setstate((value[0], tuple(value[1]), value[2]))
    except (TypeError, ValueError, OverflowError):
        raise _shape("rng", value) from None
    return rng


def _same_cards(found: list[Card], pool: tuple[Card, ...]) -> None:
    """*found* must be every card of *pool*, each once (rules ``cards.deck``, ``variants``)."""
    cards(found)
    missing = sorted(set(pool) - set(found)) or sorted(set(found) - set(pool))
    if missing:
        raise MalformedInputError(
            "cards.deck",
            N_("card {value} is not where the cards in play of this game can be"),
            value=missing[0],
        )


def _load_draft(game: Game, data: Mapping[str, Any], pool: tuple[Card, ...]) -> None:
    """The state of a draft under way: the face-up cards left and the picks, in seat order."""
    if data["sheets"] is not None or data["revealed"] or data["laid"] or data["hands"]:
        raise _shape("phase", data["phase"])
    if not game.rules.drafted or (game.rules.variant is Variant.TOURNAMENT and game.round != 1):
        raise _shape("phase", data["phase"])
    game._picks = picks = _pairs("picks", data["picks"], game.players)
    for count, (player, value) in enumerate(picks):
        expected = next_drafter(game.players, count)
        if player != expected:
            raise IllegalMoveError(
                "variants.logic",
                N_("pick {number} belongs to {expected!r}, not to {player!r}"),
                where=Where(game.round, player=player, card=value),
                number=count + 1, expected=expected, player=player,
            )
    game._pool = sorted(_card_list("pool", data["pool"]))
    _same_cards([*game._pool, *(value for _, value in picks)], pool)
    if len(game._pool) <= ROWS:
        raise _shape("pool", data["pool"])
    game._phase, game.turn = Phase.DRAFT, 0


def _load_round(game: Game, data: Mapping[str, Any], pool: tuple[Card, ...]) -> None:
    """A round under way (or the last one, over): replay its turns from its start."""
    players, number = game.players, game.round
    start_data = data["start"]
    if not isinstance(start_data, list) or len(start_data) != ROWS:
        raise _shape("start", start_data)
    start = Table.of([_card_list("start", row) for row in start_data]).rows
    if any(len(row) != 1 for row in start):
        raise _shape("start", start_data)
    hands = _by_player("hands", data["hands"], players)
    held = {player: sorted(_card_list("hands", hands.get(player, []))) for player in players}
    laid_data = _by_player("laid", data["laid"], players)
    laid = {player: cards([value])[0] for player, value in laid_data.items()}
    revealed_data = data["revealed"]
    if not isinstance(revealed_data, list) or len(revealed_data) > HAND_SIZE:
        raise _shape("revealed", revealed_data)
    revealed = tuple(_pairs("revealed", turn, players) for turn in revealed_data)
    played = [value for turn in revealed for _, value in turn]
    in_hands = [value for hand in held.values() for value in hand]
    found = [*(row[0] for row in start), *played, *in_hands, *laid.values()]
    cards(found, Where(number))
    stray = sorted(set(found) - set(pool))
    if stray:
        _same_cards(stray, ())
    game._hands, game._start, game._revealed = held, start, revealed
    game._rows, game._piles = list(start), dict.fromkeys(players, ())
    _replay(game, data["rows_taken"])
    _check_hands(game, laid)
    game._laid = laid
    game.turn = len(revealed) + (0 if game._phase is Phase.ROW else 1)
    ended = game._over()
    if game._phase is Phase.OVER:
        if not ended or any(held.values()) or laid:
            raise _shape("phase", data["phase"])
        game.turn = len(revealed)
        totals = game._totals
        game._result = GameOver(number, MappingProxyType(dict(totals)), _kernel.lowest(totals))
    elif game._phase is Phase.CARDS and (
        len(laid) == len(players) or not (laid or any(held.values()))
    ):
        raise _shape("laid", data["laid"])


def _replay(game: Game, taken_data: object) -> None:
    """Place the revealed cards from the start; stop at the low card waiting for its row."""
    if not isinstance(taken_data, list):
        raise _shape("rows_taken", taken_data)
    choices = iter(taken_data)
    rows, piles = game._rows, game._piles
    for turn, plays in enumerate(game._revealed, start=1):
        where = Where(game.round, turn)
        if sorted(player for player, _ in plays) != sorted(game.players) or list(plays) != sorted(
            plays, key=lambda play: play[1]
        ):
            raise IllegalMoveError(
                "turn.order",
                N_("the cards revealed in turn {turn} are not one for each player, lowest first"),
                where=where,
                turn=turn,
            )
        for position, (player, value) in enumerate(plays):
            index = _kernel.target(rows, value)
            if index >= 0:
                piles[player] = piles[player] + _kernel.put(rows, value, index)
                continue
            choice = next(choices, None)
            if choice is None:
                if turn != len(game._revealed) or game._phase is not Phase.ROW:
                    raise _shape("rows_taken", taken_data)
                game._ordered, game._cursor = plays, position
                return
            chosen = _row_index(choice, Where(game.round, turn, player, value))
            piles[player] = piles[player] + _kernel.take(rows, value, chosen)
            game._choices += (chosen,)
    if next(choices, None) is not None or game._phase is Phase.ROW:
        raise _shape("rows_taken", taken_data)


def _check_hands(game: Game, laid: Mapping[str, Card]) -> None:
    """Each hand with the cards its player has laid and revealed is the hand they were given."""
    given: Mapping[str, tuple[Card, ...]] | None = None
    if game._sheets is not None:
        given = tournament_hands(game._sheets, game.players, game.round)
    elif game.rules.drafted:
        given = {player: tuple(v for p, v in game._picks if p == player) for player in game.players}
    dealt = {
        player: sorted([*game._hands[player], *(v for turn in game._revealed for p, v in turn
                                                if p == player), *([laid[player]] if player in
                                                                   laid else [])])
        for player in game.players
    }
    sizes = {len(hand) for hand in dealt.values()}
    for player, hand in dealt.items():
        if (given is not None and hand != sorted(given[player])) or len(sizes) > 1 or not (
            1 <= len(hand) <= HAND_SIZE
        ):
            raise MalformedInputError(
                "setup.deal",
                N_("the hand of {player!r} with the cards they played this round is not the "
                   "hand they were given"),
                where=Where(game.round, player=player),
                player=player,
            )
    if given is not None and [row[0] for row in game._start] != sorted(
        game._draft_rows if game._sheets is not None else set(
            cards_in_play(game.rules, len(game.players))
        ) - {v for _, v in game._picks}
    ):
        raise MalformedInputError(
            "setup.deal",
            N_("the rows of round {round} do not start with the four cards the draft left"),
            where=Where(game.round),
            round=game.round,
        )
