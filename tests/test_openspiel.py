"""agents.openspiel_game: the game take5 passes OpenSpiel's own checks, and IS-MCTS plays it.

Expectations come from the rulebook's numbers (ten cards a hand, four rows, 104 cards, the
C(n, k) ways to deal a set) and from OpenSpiel's checks, never from the module itself.
"""

from __future__ import annotations

import math
import random
import re
from fractions import Fraction
from typing import Any

import pytest

pyspiel = pytest.importorskip(
    "pyspiel", reason="the OpenSpiel game needs open-spiel (take5rules[openspiel])")

import numpy as np  # noqa: E402
from open_spiel.python.algorithms import ismcts, mcts  # noqa: E402

import take5rules.agents.openspiel_game  # noqa: E402, F401 -- registers take5
from take5rules.errors import Take5Error  # noqa: E402

VARIANTS = {
    "standard": {"players": 3, "threshold": 8},
    "tactics": {"players": 3, "variant": "tactics", "threshold": 8},
    "logic": {"players": 2, "variant": "logic", "threshold": 8},
    "tournament": {"players": 2, "variant": "tournament"},
    "research": {"players": 2, "deck": 8, "hand": 2, "utility": "margin"},
}


def _load(name: str) -> Any:
    return pyspiel.load_game("take5", VARIANTS[name])


def _walk(game: Any, seed: int) -> Any:
    """The states of one random game, from the start to the end."""
    rng = random.Random(seed)
    state = game.new_initial_state()
    while True:
        yield state
        if state.is_terminal():
            return
        if state.is_chance_node():
            actions, probs = zip(*state.chance_outcomes(), strict=True)
            state.apply_action(rng.choices(actions, probs)[0])
        else:
            state.apply_action(rng.choice(state.legal_actions()))


@pytest.mark.parametrize("name", list(VARIANTS))
def test_random_sim_test_passes_with_serialization(name: str) -> None:
    pyspiel.random_sim_test(_load(name), num_sims=3, serialize=True, verbose=False)


@pytest.mark.parametrize("name", ["standard", "logic"])
def test_cloned_states_equal_their_originals(name: str) -> None:
    game = _load(name)
    for state in _walk(game, 1):
        twin = state.clone()
        assert twin._core.key() == state._core.key()
        assert (twin.history(), str(twin), twin.serialize()) == (
            state.history(), str(state), state.serialize())
        for player in range(game.num_players()):
            assert twin.information_state_string(player) == state.information_state_string(player)
            assert twin.observation_tensor(player) == state.observation_tensor(player)
        if not state.is_terminal() and not state.is_chance_node():
            before = state.serialize()
            twin.apply_action(twin.legal_actions()[0])
            assert state.serialize() == before  # stepping the copy leaves the original alone


@pytest.mark.parametrize("name", list(VARIANTS))
def test_legal_actions_are_sorted_and_match_the_mask(name: str) -> None:
    game = _load(name)
    for state in _walk(game, 2):
        if state.is_terminal():
            assert state.legal_actions() == []
            continue
        legal = state.legal_actions()
        assert legal == sorted(set(legal)) and legal
        mask = state.legal_actions_mask()
        assert [index for index, bit in enumerate(mask) if bit] == legal
        if state.is_chance_node():
            outcomes = state.chance_outcomes()
            assert [action for action, _ in outcomes] == legal
            assert math.isclose(sum(prob for _, prob in outcomes), 1.0)
            assert all(prob > 0 for _, prob in outcomes)


def test_the_deal_is_uniform_over_every_deal() -> None:
    # Two players, cards 1 to 7, a card each: 7 * 6 hands and C(5, 4) row sets, each deal
    # once, each with probability 1 / 210, as from a shuffled deck.
    game = pyspiel.load_game("take5", {"players": 2, "deck": 7, "hand": 1})
    deals: dict[tuple[object, ...], Fraction] = {}

    def expand(state: Any, prob: Fraction, cards: tuple[int, ...]) -> None:
        if not state.is_chance_node():
            key = (cards[0], cards[1], frozenset(cards[2:]))
            assert key not in deals
            deals[key] = prob
            return
        for action, p in state.chance_outcomes():
            expand(state.child(action), prob * Fraction(p).limit_denominator(10**6),
                   (*cards, action + 1))

    expand(game.new_initial_state(), Fraction(1), ())
    assert len(deals) == 7 * 6 * math.comb(5, 4) == 210
    assert set(deals.values()) == {Fraction(1, 210)}
    assert {len(key[2]) for key in deals} == {4}  # type: ignore[arg-type]


def test_a_standard_deal_gives_ten_cards_each_and_four_rows() -> None:
    game = pyspiel.load_game("take5", {"players": 4})
    state = next(s for s in _walk(game, 3) if not s.is_chance_node())
    assert len(state.history()) == 4 * 10 + 4
    hands = re.findall(r"hand\d:([\d,]+)", str(state))
    assert [len(hand.split(",")) for hand in hands] == [10, 10, 10, 10]
    assert len(re.findall(r"\[\d+\]", str(state))) == 4


@pytest.mark.parametrize("name", ["standard", "tactics", "logic", "tournament"])
def test_ismcts_plays_whole_games(name: str) -> None:
    game = _load(name)
    rng = np.random.RandomState(7)
    bot = ismcts.ISMCTSBot(game, mcts.RandomRolloutEvaluator(1, rng), 2.0,
                           max_simulations=8, random_state=rng)
    state = game.new_initial_state()
    decisions = 0
    while not state.is_terminal():
        if state.is_chance_node():
            actions, probs = zip(*state.chance_outcomes(), strict=True)
            state.apply_action(rng.choice(actions, p=probs))
        else:
            action = bot.step(state)
            assert action in state.legal_actions()
            state.apply_action(action)
            decisions += 1
    assert decisions >= 10 * game.num_players()  # a round at least: ten cards a seat
    totals = [int(value) for value in re.findall(r"totals ([\d/]+)", str(state))[0].split("/")]
    assert state.returns() == [-float(value) for value in totals]
    scores = state.information_state_string(0).count("=")
    if name == "tournament":
        assert scores == game.num_players()  # as many games as players
    else:
        assert max(totals) >= 8  # the game ends when a total reaches the threshold


@pytest.mark.parametrize("name", ["standard", "tactics", "logic"])
def test_resampling_keeps_what_the_seat_knows(name: str) -> None:
    game = _load(name)
    sampler = pyspiel.UniformProbabilitySampler(0.0, 1.0)
    for count, state in enumerate(_walk(game, 4)):
        if state.is_terminal() or state.is_chance_node() or count % 3:
            continue
        player = state.current_player()
        for _ in range(2):
            world = state.resample_from_infostate(player, sampler)
            assert world.information_state_string(player) == state.information_state_string(
                player)
            assert world.information_state_tensor(player) == state.information_state_tensor(
                player)
            assert world.legal_actions() == state.legal_actions()
            assert world.current_player() == player


def test_resampling_draws_other_hands() -> None:
    game = pyspiel.load_game("take5", {"players": 3})
    state = next(s for s in _walk(game, 5) if not s.is_chance_node())
    sampler = pyspiel.UniformProbabilitySampler(0.0, 1.0)
    others = {re.findall(r"hand1:([\d,]+)", str(state.resample_from_infostate(0, sampler)))[0]
              for _ in range(5)}
    assert len(others) > 1


def _cards_shown(text: str) -> set[int]:
    """The cards named in an information state string (see _openspiel_view's tokens)."""
    shown: set[int] = set()
    for token in text.split():
        if m := re.fullmatch(r"[dsl](\d+)", token):
            shown.add(int(m[1]))
        elif m := re.fullmatch(r"v([\d/]+)", token):
            shown.update(map(int, m[1].split("/")))
        elif m := re.fullmatch(r"(?:p\d+|hand\d+|laid\d+):([\d,]*)", token):
            shown.update(int(v) for v in m[1].split(",") if v)
    return shown


def test_a_hand_not_yours_never_shows_in_your_information_state() -> None:
    game = pyspiel.load_game("take5", {"players": 3, "threshold": 10})
    for state in _walk(game, 6):
        if state.is_chance_node() or state.is_terminal():
            continue
        hands = {int(seat): {int(v) for v in cards.split(",") if v}
                 for seat, cards in re.findall(r"hand(\d):([\d,]*)", str(state))}
        laid = {int(s): int(v) for s, v in re.findall(r"laid(\d):(\d+)", str(state))}
        for player in range(3):
            shown = _cards_shown(state.information_state_string(player))
            tensor = np.asarray(state.information_state_tensor(player))
            for other in set(range(3)) - {player}:
                hidden = hands[other] | ({laid[other]} if other in laid else set())
                assert not shown & hidden
            own = tensor[3 + 4 + 1 + 3:][:104]  # player, phase, round, totals, then the hand
            assert {index + 1 for index in np.flatnonzero(own)} == hands[player]


def test_two_deals_that_differ_only_in_another_hand_look_the_same() -> None:
    # Cards 1 to 9, two a hand: seat 0 holds 1 and 3, the rows start with 4, 5, 6 and 7, and
    # seat 1 holds 2 and 8 (9 aside) or 2 and 9 (8 aside). Seat 0 cannot tell the deals apart;
    # seat 1 cannot tell which card seat 0 laid.
    game = pyspiel.load_game("take5", {"players": 2, "deck": 9, "hand": 2})

    def dealt(other: tuple[int, int]) -> Any:
        state = game.new_initial_state()
        for card in (1, 3, *other, 4, 5, 6, 7):
            state.apply_action(card - 1)
        assert state.current_player() == 0
        return state

    def view(state: Any, player: int) -> tuple[str, tuple[float, ...]]:
        return (state.information_state_string(player),
                tuple(state.information_state_tensor(player)))

    a, b = dealt((2, 8)), dealt((2, 9))
    assert view(a, 0) == view(b, 0) and view(a, 1) != view(b, 1)
    a.apply_action(0)  # seat 0 lays 1 in both
    b.apply_action(0)
    assert view(a, 0) == view(b, 0)
    c = dealt((2, 8))
    c.apply_action(2)  # seat 0 lays 3 instead
    assert view(a, 1) == view(c, 1) and view(a, 0) != view(c, 0)


def test_margin_returns_are_zero_sum_and_rewards_sum_to_returns() -> None:
    game = _load("research")
    for seed in range(5):
        total = [0.0, 0.0]
        for state in _walk(game, seed):
            if not state.is_chance_node():
                total = [a + b for a, b in zip(total, state.rewards(), strict=True)]
        assert state.is_terminal() and sum(state.returns()) == 0
        assert total == state.returns()


@pytest.mark.parametrize(
    ("params", "rule"),
    [({"players": 1}, "setup.players"), ({"players": 7, "variant": "logic"}, "setup.players"),
     ({"variant": "profi"}, "variant-name"), ({"threshold": 0}, "variants.threshold"),
     ({"deck": 5, "hand": 1}, "argument"), ({"hand": 11}, "argument"),
     ({"variant": "logic", "hand": 3}, "argument"), ({"utility": "wins"}, "argument"),
     ({"rounds": -1}, "argument")],
)
def test_bad_parameters_are_refused_with_their_rule(params: dict[str, Any], rule: str) -> None:
    with pytest.raises(Take5Error) as error:
        pyspiel.load_game("take5", params)
    assert error.value.rule == rule


def test_an_illegal_action_is_refused() -> None:
    state = next(s for s in _walk(pyspiel.load_game("take5", {}), 8) if not s.is_chance_node())
    illegal = next(a for a in range(104) if a not in state.legal_actions())
    with pytest.raises(Take5Error) as error:
        state.apply_action(illegal)
    assert error.value.rule == "turn.reveal"


def test_the_draft_is_a_sequence_of_decisions_and_the_low_card_a_decision() -> None:
    game = _load("logic")
    state = game.new_initial_state()
    assert not state.is_chance_node()
    picks = 0
    while state.observation_string(state.current_player()).split()[2] == "draft":
        state.apply_action(state.legal_actions()[0])
        picks += 1
    assert picks == 2 * 10  # ten cards a hand, drafted one at a time; four rows are left
    rows = 0
    for state in _walk(pyspiel.load_game("take5", {"players": 4, "threshold": 20}), 9):
        if not state.is_chance_node() and not state.is_terminal():
            text = state.observation_string(state.current_player())
            if text.split()[2] == "row":
                assert state.legal_actions() == [104, 105, 106, 107]  # the four rows
                rows += 1
    assert rows


@pytest.mark.parametrize("variant", ["standard", "logic"])
def test_rounds_stops_the_game_after_that_many_rounds(variant: str) -> None:
    game = pyspiel.load_game("take5", {"variant": variant, "threshold": 500, "rounds": 2})
    *_, last = _walk(game, 10)
    assert last.is_terminal()
    assert last.information_state_string(0).count("=") == 2  # two rounds scored, no third
    assert len(last.legal_actions()) == 0


# --- Hostile arguments and the shared encoding ---------------------------------------------------


def _first_decision(params: dict[str, Any], seed: int) -> Any:
    state = pyspiel.load_game("take5", params).new_initial_state()
    rng = random.Random(seed)
    while state.is_chance_node():
        actions, probs = zip(*state.chance_outcomes(), strict=True)
        state.apply_action(rng.choices(actions, probs)[0])
    return state


@pytest.mark.parametrize(("player", "sampler"), [
    (-1, random.random), (2, random.random), (3, random.random), (True, random.random),
    ("0", random.random), (0, lambda: math.nan), (0, lambda: None), (0, lambda: -0.5),
    (0, lambda: "0.5"), (0, 0.5),
], ids=["minus-1", "seat-2-of-2", "seat-3-of-2", "bool", "str", "nan", "none", "negative",
        "text", "not-callable"])
def test_resampling_refuses_a_seat_or_a_sampler_that_is_not_one(player: Any, sampler: Any) -> None:
    state = _first_decision({"players": 2}, seed=1)
    with pytest.raises(Take5Error) as error:
        state.resample_from_infostate(player, sampler)
    assert error.value.rule == "argument"


def test_the_observation_tensor_is_the_shared_encoding() -> None:
    from take5rules.agents.encoding import OBSERVATION_LAYOUT, observe

    game = pyspiel.load_game("take5", {"players": 3})
    state = game.new_initial_state()
    rng = random.Random(4)
    dealt: list[int] = []
    while state.is_chance_node():
        actions, probs = zip(*state.chance_outcomes(), strict=True)
        dealt.append(rng.choices(actions, probs)[0] + 1)
        state.apply_action(dealt[-1] - 1)
        if len(dealt) == 10:  # seat 0's hand is dealt: it sees it while the deal goes on
            tensor = np.asarray(state.observation_tensor(0))
            hand = np.flatnonzero(tensor[OBSERVATION_LAYOUT["hand"]]) + 1
            assert hand.tolist() == sorted(dealt)
            assert not tensor[OBSERVATION_LAYOUT["phase"]].any()  # no phase while dealing
            assert not np.asarray(state.observation_tensor(1))[OBSERVATION_LAYOUT["hand"]].any()
    # Three hands of ten, then the four row cards, as the rulebook deals.
    rows = np.asarray(state.observation_tensor(2))[OBSERVATION_LAYOUT["rows"]].reshape(4, 5)
    assert rows[:, 0].tolist() == dealt[30:34]
    for _ in range(12):
        for player in range(3):
            seat = state.core.config.seats[player]
            expected = observe(state.core.game, seat)
            assert np.asarray(state.observation_tensor(player)).tolist() == expected.tolist()
        state.apply_action(rng.choice(state.legal_actions()))
