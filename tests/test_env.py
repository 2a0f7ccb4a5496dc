"""The PettingZoo environments: PettingZoo's own API tests, and games that must be the engine's.

The built-in players are driven from the observations alone (the rows, the hand, the low card,
the draft pool decoded from the vector), so a game played through the environment equals the
engine's game with the same seed only if the observations, masks and state machine are right.
"""

from __future__ import annotations

import warnings
from typing import Any

import pytest

pytest.importorskip("pettingzoo", reason="the environment needs pettingzoo (take5rules[env])")

import gymnasium
import numpy as np
from pettingzoo.test import api_test, parallel_api_test

from take5rules.agents.pettingzoo_env import (
    ACTIONS,
    OBSERVATION_LAYOUT,
    PASS,
    ROW_ACTIONS,
    Take5Env,
    Take5ParallelEnv,
)
from take5rules.cards import bull_heads
from take5rules.errors import IllegalMoveError, MalformedInputError, RulesError
from take5rules.events import GameOver, LowCardTaken, RoundScored, RoundStarted, SixthCardTaken
from take5rules.playing.engine import play_game
from take5rules.playing.players import (
    CardView,
    CautiousPlayer,
    DraftView,
    LowestCardPlayer,
    Player,
    RandomPlayer,
    RowChoice,
)
from take5rules.table import Table
from take5rules.text import narrate
from take5rules.variants import Rules, Variant

CONFIGS = [
    pytest.param(2, Rules(), id="2-standard"),
    pytest.param(4, Rules(threshold=30), id="4-threshold-30"),
    pytest.param(10, Rules(), id="10-standard"),
    pytest.param(5, Rules(Variant.TACTICS, threshold=20), id="5-tactics"),
    pytest.param(3, Rules(Variant.LOGIC, threshold=25), id="3-logic"),
    pytest.param(3, Rules(Variant.TOURNAMENT), id="3-tournament"),
]


@pytest.mark.parametrize(("players", "rules"), CONFIGS)
def test_pettingzoo_api_test(players: int, rules: Rules) -> None:
    with warnings.catch_warnings():
        # A dict observation holding "action_mask" is PettingZoo's convention for masked
        # actions; its API test still warns that it is not a bare array.
        warnings.simplefilter("ignore", UserWarning)
        api_test(Take5Env(players, rules, seed=1), num_cycles=400)


@pytest.mark.parametrize(("players", "rules"), CONFIGS)
def test_pettingzoo_parallel_api_test(players: int, rules: Rules) -> None:
    parallel_api_test(Take5ParallelEnv(players, rules, seed=1), num_cycles=400)


def _decode(vector: Any, part: str) -> list[int]:
    return [int(v) for v in vector[OBSERVATION_LAYOUT[part]]]


def _cards(vector: Any, part: str) -> tuple[int, ...]:
    return tuple(c + 1 for c, bit in enumerate(_decode(vector, part)) if bit)


def _table(vector: Any) -> Table:
    cells = _decode(vector, "rows")
    return Table.of([[c for c in cells[5 * r : 5 * r + 5] if c] for r in range(4)])


def _decide(player: Player, agent: str, observation: dict[str, Any]) -> int:
    """The action *player* takes, from the observation only."""
    vector, mask = observation["observation"], observation["action_mask"]
    phase = _decode(vector, "phase").index(1)
    round_number = _decode(vector, "round")[0]
    if phase == 0:
        view = CardView(round_number, 0, _table(vector), _cards(vector, "hand"), {})
        action = player.choose_card(view) - 1
    elif phase == 1:
        assert _decode(vector, "pending_seat") == [1]  # the observer's own low card
        low = _decode(vector, "pending")[0]
        action = ROW_ACTIONS + player.choose_row(RowChoice(agent, low, _table(vector)))
    else:
        pool = _cards(vector, "pool")
        action = player.choose_draft(DraftView(round_number, 0, pool, _cards(vector, "hand"))) - 1
    assert mask[action] == 1
    return action


def _seats(kind: type[Any], players: int) -> dict[str, Player]:
    return {f"player_{seat}": kind() for seat in range(players)}


@pytest.mark.parametrize(("players", "rules"), CONFIGS)
@pytest.mark.parametrize("kind", [LowestCardPlayer, CautiousPlayer])
def test_aec_game_is_the_engines_game(players: int, rules: Rules, kind: type[Any]) -> None:
    seats = _seats(kind, players)
    env = Take5Env(players, rules, seed=7)
    env.reset(seed=7)
    while env.agents:
        agent = env.agent_selection
        observation, _, terminated, _, _ = env.last()
        env.step(None if terminated else _decide(seats[agent], agent, observation))
    assert env.events == list(play_game(_seats(kind, players), rules, seed=7))


@pytest.mark.parametrize(("players", "rules"), CONFIGS)
def test_parallel_game_is_the_engines_game(players: int, rules: Rules) -> None:
    seats = _seats(CautiousPlayer, players)
    env = Take5ParallelEnv(players, rules, seed=3)
    observations, _ = env.reset(seed=3)
    rewards_total = dict.fromkeys(env.agents, 0.0)
    while env.agents:
        actions = {}
        for agent in env.agents:
            mask = observations[agent]["action_mask"]
            actions[agent] = (
                PASS if mask[PASS] else _decide(seats[agent], agent, observations[agent])
            )
        observations, rewards, *_ = env.step(actions)
        for agent, reward in rewards.items():
            rewards_total[agent] += reward
    events = list(play_game(_seats(CautiousPlayer, players), rules, seed=3))
    assert env.events == events
    # The rewards add up to the final totals, negated.
    assert isinstance(events[-1], GameOver)
    assert {agent: -total for agent, total in rewards_total.items()} == events[-1].totals


def _to_low_card(env: Take5Env) -> tuple[str, dict[str, Any]]:
    """Play lowest cards until some agent must choose a row; return it and its observation."""
    while env.agents:
        agent = env.agent_selection
        observation = env.observe(agent)
        if _decode(observation["observation"], "phase") == [0, 1, 0, 0]:
            return agent, observation
        env.step(int(np.flatnonzero(observation["action_mask"])[0]))
    raise AssertionError("no low card in the game")


def test_low_card_asks_its_player_for_the_row_with_its_own_mask() -> None:
    env = Take5Env(4, seed=2)
    agent, observation = _to_low_card(env)
    mask = observation["action_mask"]
    assert np.flatnonzero(mask).tolist() == [104, 105, 106, 107]
    low = _decode(observation["observation"], "pending")[0]
    table = _table(observation["observation"])
    # The card is lower than every row's last card, as the low-card rule says.
    assert low < min(row[-1] for row in table.rows)
    # Only the chooser decides: nobody else is asked for anything but a pass.
    for other in env.agents:
        if other != agent:
            assert np.flatnonzero(env.observe(other)["action_mask"]).tolist() == [PASS]
    cheapest = min(range(4), key=lambda r: (sum(1 for _ in table.rows[r]), r))
    told = len(env.events)
    env.step(ROW_ACTIONS + cheapest)
    taken = [e for e in env.events[told:] if isinstance(e, LowCardTaken)]
    assert taken[0].player == agent and taken[0].card == low
    assert taken[0].taken == table.rows[cheapest]
    assert taken[0].rows[cheapest] == (low,)


def test_illegal_actions_name_their_rule() -> None:
    env = Take5Env(3, seed=5)
    agent = env.agent_selection
    hand = _cards(env.observe(agent)["observation"], "hand")
    absent = next(c for c in range(1, 105) if c not in hand)
    with pytest.raises(IllegalMoveError) as error:
        env.step(absent - 1)
    assert error.value.rule == "turn.reveal"
    assert error.value.where.card == absent
    with pytest.raises(IllegalMoveError) as error:
        env.step(ROW_ACTIONS)
    assert error.value.rule == "turn.reveal"
    with pytest.raises(RulesError) as rules_error:
        Take5Env(11)
    assert rules_error.value.rule == "setup.players"
    with pytest.raises(RulesError):
        Take5Env(7, Rules(Variant.LOGIC))
    row_env = Take5Env(4, seed=2)
    _to_low_card(row_env)
    with pytest.raises(IllegalMoveError) as error:
        row_env.step(3)  # a card action while a row is expected
    assert error.value.rule == "table.low-card"


def test_parallel_rejects_a_missing_or_illegal_action_before_applying_any() -> None:
    env = Take5ParallelEnv(2, seed=1)
    observations, _ = env.reset()
    first = int(np.flatnonzero(observations["player_0"]["action_mask"])[0])
    with pytest.raises(IllegalMoveError):
        env.step({"player_0": first})
    with pytest.raises(IllegalMoveError):
        env.step({"player_0": first, "player_1": PASS})
    # Nothing was applied: the same legal turn still goes through.
    second = int(np.flatnonzero(observations["player_1"]["action_mask"])[0])
    after, *_ = env.step({"player_0": first, "player_1": second})
    assert _decode(after["player_0"]["observation"], "seen").count(1) == 2


# 104 x 4 parts by card, 20 row places, 2 x 4 row numbers, 4 phases, 5 numbers, 3 x 10 seats,
# the seat count, the threshold, 4 variants.
_SIZE = 489


def test_observation_layout_covers_the_vector_once() -> None:
    covered = sorted(
        i for part in OBSERVATION_LAYOUT.values() for i in range(part.start, part.stop)
    )
    space = Take5Env(2).observation_space("player_0")
    assert isinstance(space, gymnasium.spaces.Dict)
    assert covered == list(range(_SIZE))
    assert space["observation"].shape == (_SIZE,)
    assert space["action_mask"].shape == (ACTIONS,) == (109,)


@pytest.mark.parametrize("language", ["en", "fr", "bg", "it", "eo"])
def test_ansi_render_narrates_in_the_language(language: str) -> None:
    env = Take5Env(2, seed=9, render_mode="ansi", language=language)
    text = env.render()
    assert text is not None
    started = next(e for e in env.events if isinstance(e, RoundStarted))
    assert narrate(started, language) in text
    assert env.render() == text.splitlines()[-1]  # nothing new: only the rows
    # Both play their highest card (87 and 104 against rows ending 55, 21, 86, 31): no low card.
    env.step(int(np.flatnonzero(env.observe(env.agent_selection)["action_mask"])[-1]))
    env.step(int(np.flatnonzero(env.observe(env.agent_selection)["action_mask"])[-1]))
    turn = env.render()
    assert turn is not None and narrate(env.events[-1], language) in turn


def test_render_words_are_translated() -> None:
    english = Take5Env(2, seed=9, render_mode="ansi", language="en").render()
    french = Take5Env(2, seed=9, render_mode="ansi", language="fr").render()
    assert english is not None and french is not None
    assert "Round 1" in english and "Manche 1" in french


def test_seed_deals_as_the_engine_and_random_play_ends() -> None:
    env = Take5Env(6, seed=11)
    player = RandomPlayer(1)
    while env.agents:
        agent = env.agent_selection
        observation, _, terminated, _, _ = env.last()
        env.step(None if terminated else _decide(player, agent, observation))
    assert max(env.final_totals.values()) >= 66


def test_penalties_and_totals_are_seen_from_the_observer() -> None:
    env = Take5Env(3, Rules(threshold=15), seed=4)
    rounds_seen = 0
    while env.agents and rounds_seen < 400:
        agent = env.agent_selection
        observation, _, terminated, _, _ = env.last()
        if terminated:
            env.step(None)
            continue
        vector = observation["observation"]
        round_number = _decode(vector, "round")[0]
        taken = dict.fromkeys(env.possible_agents, 0)
        totals = dict.fromkeys(env.possible_agents, 0)
        for event in env.events:
            if isinstance(event, LowCardTaken | SixthCardTaken) and event.round == round_number:
                taken[event.player] += sum(bull_heads(c) for c in event.taken)
            if isinstance(event, RoundScored) and event.round < round_number:
                totals = dict(event.totals)
        seat = env.possible_agents.index(agent)
        order = env.possible_agents[seat:] + env.possible_agents[:seat]
        assert _decode(vector, "penalties")[:3] == [taken[name] for name in order]
        assert _decode(vector, "totals")[:3] == [totals[name] for name in order]
        rounds_seen += 1
        env.step(int(np.flatnonzero(observation["action_mask"])[-1]))
    assert any(_decode(env.observe(a)["observation"], "totals")[0] for a in env.possible_agents)


def test_bad_actions_and_render_modes_are_refused() -> None:
    env = Take5Env(2, seed=1)
    for action in (109, 200, -1):
        with pytest.raises(MalformedInputError) as error:
            env.step(action)
        assert error.value.rule == "argument"  # no action at all: not a rule of the game
    with pytest.raises(MalformedInputError):
        env.step(True)
    with pytest.raises(MalformedInputError):
        Take5Env(2, render_mode="rgb_array")
    assert Take5Env(2).render() is None


def test_reset_without_a_seed_deals_a_new_game_reproducibly() -> None:
    def first_hand(env: Take5Env) -> tuple[int, ...]:
        return _cards(env.observe("player_0")["observation"], "hand")

    one, two = Take5Env(3, seed=5), Take5Env(3, seed=5)
    hands = [first_hand(one)]
    one.reset()  # the first reset plays the constructor's seed
    assert first_hand(one) == hands[0]
    two.reset()
    for _ in range(3):
        one.reset()
        two.reset()
        hands.append(first_hand(one))
        assert first_hand(one) == first_hand(two)
    assert len(set(hands)) == 4
    one.reset(seed=5)
    assert first_hand(one) == hands[0]
