"""The private kernel against the documented rule functions and a reference play-through.

Two differential tests:

* turns: on thousands of random tables and plays, the kernel's :func:`resolve` gives the same
  placements as placing each card with the documented :func:`~take5rules.table.place_card` in
  the order of :func:`~take5rules.turn.placement_order`, as :func:`~take5rules.turn.resolve_turn`,
  and as a reference written here from the rulebook (the closest lower last card, a sixth card
  takes five, a low card takes the chosen row);
* games: whole games of every variant and of agreed thresholds, through the engine with and
  without events, against a reference play-through written here that deals, drafts, passes
  tournament hands, places, scores and ends the game by the rulebook, without the kernel.

CI runs a small number of examples (a few seconds); ``TAKE5RULES_KERNEL_EXAMPLES=2000`` (or any
number) runs more. Each run draws new examples from a new run seed; a failure prints it
(``TAKE5RULES_KERNEL_SEED=...``) beside the falsifying example, and setting that variable
replays the run exactly (``scripts/mutate.py`` sets it, so that every mutant meets the same
examples).
"""

from __future__ import annotations

import copy
import dataclasses
import os
import pickle
import random
from collections.abc import Mapping
from types import MappingProxyType
from typing import Any

from hypothesis import HealthCheck, given, note, settings
from hypothesis import seed as run_with_seed
from hypothesis import strategies as st

from rulebook import heads
from take5rules import _kernel
from take5rules.cards import bull_heads
from take5rules.events import (
    CardPlaced,
    GameOver,
    LowCardTaken,
    RoundScored,
    RoundStarted,
    SixthCardTaken,
)
from take5rules.playing.engine import play_game, play_silently
from take5rules.playing.players import (
    CardView,
    CautiousPlayer,
    DraftView,
    LowestCardPlayer,
    Player,
    RandomPlayer,
    RowChoice,
)
from take5rules.table import Table, least_difference_row, place_card
from take5rules.turn import placement_order, resolve_turn
from take5rules.variants import Rules, Variant

EXAMPLES = int(os.environ.get("TAKE5RULES_KERNEL_EXAMPLES", "60"))
#: Random turns checked per example of the turn test.
TURNS_PER_EXAMPLE = 100

_settings = settings(
    max_examples=EXAMPLES, deadline=None, derandomize=False, database=None,
    suppress_health_check=[HealthCheck.too_slow],
)

#: This run's seed: new each run, unless ``TAKE5RULES_KERNEL_SEED`` replays one.
RUN_SEED = int(os.environ.get("TAKE5RULES_KERNEL_SEED")
               or random.SystemRandom().randrange(2**32))
#: Each differential test draws its examples from :data:`RUN_SEED`.
differential = run_with_seed(RUN_SEED)


def say_seed() -> None:
    """Print the run seed with a failing example (Hypothesis shows notes on failure)."""
    note(f"replay this run with TAKE5RULES_KERNEL_SEED={RUN_SEED}")


# --- the reference, from the rulebook ---------------------------------------------------------


def reference_turn(
    rows: list[list[int]], plays: Mapping[str, int], choices: Mapping[str, int]
) -> list[tuple[str, int, int, tuple[int, ...]]]:
    """Place the plays lowest first; each placement as (player, card, row, cards taken)."""
    done = []
    for value in sorted(plays.values()):
        player = next(name for name, played in plays.items() if played == value)
        lower = [index for index in range(4) if rows[index][-1] < value]
        if not lower:
            index = choices[player]
            taken = tuple(rows[index])
            rows[index] = [value]
        else:
            index = lower[0]
            for other in lower:
                if value - rows[other][-1] < value - rows[index][-1]:
                    index = other
            if len(rows[index]) == 5:
                taken = tuple(rows[index])
                rows[index] = [value]
            else:
                taken = ()
                rows[index].append(value)
        done.append((player, value, index, taken))
    return done


def random_turn(
    rng: random.Random,
) -> tuple[list[list[int]], dict[str, int], dict[str, int]]:
    """Four ascending rows of one to five cards, 1 to 10 plays of other cards, and choices."""
    sizes = [rng.randint(1, 5) for _ in range(4)]
    count = rng.randint(1, 10)
    # Small decks make low cards, full rows and sixth cards frequent.
    highest = rng.choice([sum(sizes) + count, 40, 104])
    drawn = rng.sample(range(1, highest + 1), sum(sizes) + count)
    rows, start = [], 0
    for size in sizes:
        rows.append(sorted(drawn[start : start + size]))
        start += size
    players = [f"p{n}" for n in range(count)]
    plays = dict(zip(players, drawn[start:], strict=True))
    choices = {player: rng.randrange(4) for player in players}
    return rows, plays, choices


# --- turns ------------------------------------------------------------------------------------


def test_heads_and_target_agree_with_the_rulebook_on_every_card() -> None:
    assert [_kernel.heads(value) for value in range(1, 105)] == [
        heads(value) for value in range(1, 105)
    ]
    assert [bull_heads(value) for value in range(1, 105)] == [
        heads(value) for value in range(1, 105)
    ]
    assert sum(heads(value) for value in range(1, 105)) == 171


def check_turn(rows: list[list[int]], plays: dict[str, int], choices: dict[str, int]) -> None:
    """The kernel, resolve_turn and place_card step by step all place as the reference does."""
    table = Table.of(rows)
    expected = reference_turn([list(row) for row in rows], plays, choices)

    kernel_rows = [tuple(row) for row in rows]
    records = _kernel.resolve(
        kernel_rows, plays.items(), lambda player, value, now: choices[player]
    )
    assert [record[:4] for record in records] == expected

    result = resolve_turn(table, plays, lambda choice: choices[choice.player])
    assert [(player, p.card, p.row, p.taken) for player, p in result.placements] == expected
    assert result.table.rows == tuple(kernel_rows)
    assert [p.table.rows for _, p in result.placements] == [r[5] for r in records]
    assert [p.rule for _, p in result.placements] == [r[4] for r in records]

    stepped = table
    for (player, value), (_, _, index, taken) in zip(
        placement_order(plays), expected, strict=True
    ):
        low = least_difference_row(stepped, value) is None
        placement = place_card(stepped, value, choices[player] if low else None)
        assert (placement.row, placement.taken) == (index, taken)
        if low:
            assert placement.rule == "table.low-card"
        elif taken:
            assert placement.rule == "table.sixth-card" and len(taken) == 5
        else:
            assert placement.rule == "table.least-difference"
        stepped = placement.table
    assert stepped == result.table


@differential
@_settings
@given(st.integers(0, 2**32))
def test_kernel_resolve_equals_the_rule_functions_and_the_reference(seed: int) -> None:
    say_seed()
    rng = random.Random(seed)
    for _ in range(TURNS_PER_EXAMPLE):
        check_turn(*random_turn(rng))


# --- values built through their slots --------------------------------------------------------

_ROWS = ((3, 12), (24,), (58, 61, 70), (96,))


def built_values() -> list[tuple[object, object]]:
    """Each fast constructor the engine uses, beside the dataclass's own, on the same values."""
    from take5rules import events, table
    from take5rules.events import CardsRevealed, SixthCardTaken

    totals = MappingProxyType({"ana": 3, "bob": 0})
    return [
        (events.card_placed(1, 2, "ana", 71, 2, _ROWS), CardPlaced(1, 2, "ana", 71, 2, _ROWS)),
        (events.sixth_card_taken(1, 2, "bob", 13, 0, (1, 2, 3, 4, 5), _ROWS),
         SixthCardTaken(1, 2, "bob", 13, 0, (1, 2, 3, 4, 5), _ROWS)),
        (events.low_card_taken(3, 4, "cyd", 2, 3, (96,), _ROWS),
         LowCardTaken(3, 4, "cyd", 2, 3, (96,), _ROWS)),
        (events.cards_revealed(1, 1, (("bob", 2), ("ana", 71))),
         CardsRevealed(1, 1, (("bob", 2), ("ana", 71)))),
        (events.round_started(1, _ROWS, MappingProxyType({"ana": (4, 80)})),
         RoundStarted(1, _ROWS, MappingProxyType({"ana": (4, 80)}))),
        (events.round_scored(2, totals, totals), RoundScored(2, totals, totals)),
        (table.trusted_table(_ROWS), Table(_ROWS)),
    ]


def test_values_built_through_their_slots_are_the_dataclasses_values() -> None:
    for fast, slow in built_values():
        assert type(fast) is type(slow)
        assert fast == slow and repr(fast) == repr(slow)
        names = [item.name for item in dataclasses.fields(fast)]  # type: ignore[arg-type]
        assert [getattr(fast, name) for name in names] == [getattr(slow, name) for name in names]
        assert not hasattr(fast, "__dict__")
        if not isinstance(fast, RoundStarted | RoundScored):  # a mapping proxy cannot pickle
            assert copy.deepcopy(fast) == slow
            assert pickle.loads(pickle.dumps(fast)) == slow
            assert hash(fast) == hash(slow)
        field = names[0]
        try:
            setattr(fast, field, 99)
        except dataclasses.FrozenInstanceError:
            pass
        else:
            raise AssertionError(f"{type(fast).__name__}.{field} could be changed")
        assert fast == slow


def test_fast_constructor_builds_each_dataclass_value_when_called() -> None:
    # The constructors above were built at import; these are built here, by whatever
    # fast_constructor is now (a mutant of it is installed after the import).
    for _, slow in built_values():
        cls = type(slow)
        names = [item.name for item in dataclasses.fields(slow)]  # type: ignore[arg-type]
        made = _kernel.fast_constructor(cls)(*(getattr(slow, name) for name in names))
        assert type(made) is cls and made == slow and repr(made) == repr(slow)
        assert not hasattr(made, "__dict__")
        try:
            setattr(made, names[0], 99)
        except dataclasses.FrozenInstanceError:
            pass
        else:
            raise AssertionError(f"{cls.__name__}.{names[0]} could be changed")


# --- the deal -------------------------------------------------------------------------------


@differential
@_settings
@given(st.integers(0, 2**64), st.sampled_from([1, 2, 5, 24, 34, 44, 54, 64, 74, 84, 94, 104]))
def test_kernel_shuffle_deals_what_random_sample_deals(seed: int, size: int) -> None:
    say_seed()
    # The engine's seeded games were dealt by Random.sample; the kernel's loop must draw the
    # same cards and leave the generator where sample leaves it, so the next deal matches too.
    pile = list(range(1, size + 1))
    ours, theirs = random.Random(seed), random.Random(seed)
    for _ in range(3):
        assert _kernel.shuffled(pile, ours.getrandbits) == theirs.sample(pile, size)
    assert ours.getstate() == theirs.getstate()


@differential
@_settings
@given(st.integers(0, 2**64), st.sampled_from([24, 44, 54, 104]), st.integers(0, 110))
def test_kernel_deal_keeps_the_cards_dealt_and_makes_every_draw(
    seed: int, size: int, count: int
) -> None:
    say_seed()
    # A deal keeps only the cards it deals; the draws of the others are still made, so the
    # generator ends where Random.sample of the whole pile leaves it and the next deal matches.
    pile = list(range(1, size + 1))
    ours, theirs = random.Random(seed), random.Random(seed)
    for _ in range(3):
        assert _kernel.shuffled(pile, ours.getrandbits, count) == theirs.sample(pile, size)[:count]
        assert ours.getstate() == theirs.getstate()


# --- games ------------------------------------------------------------------------------------


def reference_game(
    seats: Mapping[str, Player], variant: Variant, threshold: int, seed: int
) -> dict[str, Any]:
    """Play a game by the rulebook, asking *seats* for each decision; return what happened."""
    names = list(seats)
    count = len(names)
    rng = random.Random(seed)
    pool = list(range(1, 105)) if variant is Variant.STANDARD else list(range(1, 10 * count + 5))
    totals = dict.fromkeys(names, 0)
    placements: list[tuple[int, int, str, int, int, tuple[int, ...]]] = []
    scores: list[tuple[int, dict[str, int], dict[str, int]]] = []
    starts: list[tuple[int, tuple[tuple[int, ...], ...], dict[str, tuple[int, ...]]]] = []

    def drafted(number: int) -> tuple[list[list[int]], dict[str, list[int]]]:
        left = sorted(pool)
        hands: dict[str, list[int]] = {name: [] for name in names}
        pick = 0
        while len(left) > 4:
            name = names[pick % count]
            value = seats[name].choose_draft(DraftView(number, pick + 1, tuple(left),
                                                       tuple(hands[name])))
            left.remove(value)
            hands[name].append(value)
            pick += 1
        return [[value] for value in left], hands

    def dealt() -> tuple[list[list[int]], dict[str, list[int]]]:
        pile = rng.sample(pool, len(pool))
        hands = {name: pile[10 * seat : 10 * seat + 10] for seat, name in enumerate(names)}
        return [[value] for value in pile[10 * count : 10 * count + 4]], hands

    def play(number: int, rows: list[list[int]], hands: Mapping[str, list[int]]) -> None:
        held = {name: sorted(hands[name]) for name in names}
        starts.append((number, tuple(tuple(row) for row in rows),
                       {name: tuple(hand) for name, hand in held.items()}))
        piles: dict[str, list[int]] = {name: [] for name in names}
        seen = MappingProxyType(dict(totals))
        for turn in range(1, 11):
            table = Table.of(rows)
            plays = {name: seats[name].choose_card(
                CardView(number, turn, table, tuple(held[name]), seen)) for name in names}
            for name, value in plays.items():
                held[name].remove(value)
            for value in sorted(plays.values()):
                name = next(n for n, played in plays.items() if played == value)
                lower = [index for index in range(4) if rows[index][-1] < value]
                if lower:
                    index = min(lower, key=lambda i: value - rows[i][-1])
                    if len(rows[index]) < 5:
                        rows[index].append(value)
                        placements.append((number, turn, name, value, index, ()))
                        continue
                else:
                    index = seats[name].choose_row(RowChoice(name, value, Table.of(rows),
                                                             number, turn))
                taken = tuple(rows[index])
                piles[name].extend(taken)
                rows[index] = [value]
                placements.append((number, turn, name, value, index, taken))
        penalties = {name: sum(heads(value) for value in piles[name]) for name in names}
        for name in names:
            totals[name] += penalties[name]
        scores.append((number, penalties, dict(totals)))

    if variant is Variant.TOURNAMENT:
        rows, sheets = drafted(1)
        for game in range(1, count + 1):
            # After each game every sheet moves to the next seat.
            hands = {name: sheets[names[(seat - (game - 1)) % count]]
                     for seat, name in enumerate(names)}
            play(game, [list(row) for row in rows], hands)
        rounds = count
    else:
        rounds = 0
        while max(totals.values()) < threshold:
            rounds += 1
            rows, hands = drafted(rounds) if variant is Variant.LOGIC else dealt()
            play(rounds, rows, hands)
    lowest = min(totals.values())
    return {
        "starts": starts,
        "placements": placements,
        "scores": scores,
        "over": (rounds, totals, tuple(name for name in names if totals[name] == lowest)),
    }


def seats_for(kinds: list[int], seed: int) -> dict[str, Player]:
    """Fresh players: 0 random, 1 lowest card, 2 cautious; the same seeds give the same players."""
    made: dict[str, Player] = {}
    for seat, kind in enumerate(kinds):
        made[f"p{seat}"] = (
            RandomPlayer(seed * 31 + seat) if kind == 0
            else LowestCardPlayer() if kind == 1 else CautiousPlayer()
        )
    return made


_LIMITS = {Variant.STANDARD: 10, Variant.TACTICS: 10, Variant.LOGIC: 6, Variant.TOURNAMENT: 5}


@st.composite
def games(draw: st.DrawFn) -> tuple[Variant, int, list[int], int]:
    variant = draw(st.sampled_from(list(Variant)))
    count = draw(st.integers(2, _LIMITS[variant]))
    kinds = draw(st.lists(st.sampled_from([0, 0, 1, 2]), min_size=count, max_size=count))
    threshold = draw(st.sampled_from([66, 66, 1, 10, 30, 100]))
    seed = draw(st.integers(0, 2**32))
    return variant, threshold, kinds, seed


@differential
@settings(_settings, max_examples=2 * EXAMPLES)
@given(games())
def test_engine_plays_whole_games_like_the_reference(
    game: tuple[Variant, int, list[int], int],
) -> None:
    say_seed()
    variant, threshold, kinds, seed = game
    expected = reference_game(seats_for(kinds, seed), variant, threshold, seed)
    rules = Rules(variant, threshold)
    events = list(play_game(seats_for(kinds, seed), rules, seed=seed))

    assert [(e.round, e.rows, dict(e.hands)) for e in events
            if isinstance(e, RoundStarted)] == expected["starts"]
    assert [
        (e.round, e.turn, e.player, e.card, e.row, e.taken if not isinstance(e, CardPlaced)
         else ())
        for e in events if isinstance(e, CardPlaced | SixthCardTaken | LowCardTaken)
    ] == expected["placements"]
    assert [(e.round, dict(e.penalties), dict(e.totals)) for e in events
            if isinstance(e, RoundScored)] == expected["scores"]
    over = events[-1]
    assert isinstance(over, GameOver)
    assert (over.rounds, dict(over.totals), over.winners) == expected["over"]

    silent = play_silently(seats_for(kinds, seed), rules, seed=seed)
    assert silent == over
