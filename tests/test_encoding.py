"""One encoding for every agent front end: the scalar and the batched path give one vector.

A game is stepped with :class:`take5rules.Game` and encoded seat by seat (the scalar path); the
same game is then replayed in :mod:`take5rules.agents.batch.vector` (the batched path), dealt
the same cards, and every seat's vector must be equal at every decision. A linear policy fitted
on ``batch.vector`` then plays whole games in the PettingZoo environment, and makes there the
decisions it makes in ``batch.vector`` on the same positions. The vector's contents are checked
against positions whose numbers are stated by hand, and against a table that lies about the
hidden hands: nothing another seat hides may move the vector.
"""

from __future__ import annotations

import random
from dataclasses import replace
from typing import Any

import pytest

np = pytest.importorskip("numpy", reason="the encoding needs numpy (take5rules[env])")

from take5rules.agents import encoding  # noqa: E402
from take5rules.agents.batch import vector  # noqa: E402
from take5rules.agents.encoding import (  # noqa: E402
    ACTIONS,
    OBSERVATION_LAYOUT,
    PASS,
    ROW_ACTIONS,
    SIZE,
    observe,
)
from take5rules.errors import Take5Error  # noqa: E402
from take5rules.playing.stepper import Game, Phase  # noqa: E402
from take5rules.table import Table  # noqa: E402
from take5rules.variants import Rules, Variant  # noqa: E402

CONFIGS = [
    pytest.param(2, Rules(threshold=20), id="2-standard-20"),
    pytest.param(4, Rules(), id="4-standard"),
    pytest.param(10, Rules(), id="10-standard"),
    pytest.param(5, Rules(Variant.TACTICS), id="5-tactics"),
    pytest.param(3, Rules(Variant.LOGIC, threshold=40), id="3-logic"),
    pytest.param(3, Rules(Variant.TOURNAMENT), id="3-tournament"),
]


def _part(vector_: Any, name: str) -> list[int]:
    return [int(value) for value in vector_[OBSERVATION_LAYOUT[name]]]


def _action(game: Game, seat: str, answer: int) -> int:
    return ROW_ACTIONS + answer if game.phase is Phase.ROW else answer - 1


class _Recorded:
    """A game stepped with ``Game``: each decision's seat, every seat's vector, the action."""

    def __init__(self, players: int, rules: Rules, seed: int) -> None:
        self.names = [f"s{seat}" for seat in range(players)]
        self.game = Game(self.names, rules, seed)
        self.deals: dict[int, list[int]] = {}
        self.steps: list[tuple[int, list[Any], int]] = []

    def deal_seen(self) -> None:
        game = self.game
        if game.rules.drafted or game.round in self.deals or game.phase is not Phase.CARDS:
            return
        table = game.observe(self.names[0]).table
        assert table is not None
        pile = [card for name in self.names for card in game.observe(name).hand]
        self.deals[game.round] = pile + [row[0] for row in table.rows]

    def play(self, choose: Any) -> None:
        game = self.game
        while game.phase is not Phase.OVER:
            self.deal_seen()
            seat = game.to_move[0]
            vectors = [observe(game, name) for name in self.names]
            action = choose(vectors[self.names.index(seat)], encoding.mask(game, seat))
            self.steps.append((self.names.index(seat), vectors, action))
            encoding.act(game, seat, action)
        self.steps.append((-1, [observe(game, name) for name in self.names], PASS))

    def dealer(self) -> Any:
        def deal(games: Any, round_number: int) -> Any:
            return np.array([self.deals[round_number]] * len(games))
        return deal


def _random_choice(seed: int) -> Any:
    rng = random.Random(seed)

    def choose(_: Any, legal: Any) -> int:
        return int(rng.choice(np.flatnonzero(legal)))
    return choose


@pytest.mark.parametrize(("players", "rules"), CONFIGS)
def test_the_scalar_and_the_batched_path_give_every_seat_the_same_vector(
        players: int, rules: Rules) -> None:
    recorded = _Recorded(players, rules, seed=players + 11)
    recorded.play(_random_choice(players))
    dealer = None if rules.drafted else recorded.dealer()
    state = vector.init(seed=0, batch=1, players=players, rules=rules, dealer=dealer)
    rounds = set()
    for seat, vectors, action in recorded.steps:
        rounds.add(int(vectors[0][OBSERVATION_LAYOUT["round"]][0]))
        for other in range(players):
            assert vector.observe(state, other)[0].tolist() == vectors[other].tolist()
        if seat < 0:
            assert bool(state.terminated[0])
            break
        assert int(state.current_player[0]) == seat
        assert state.observation[0].tolist() == vectors[seat].tolist()
        assert bool(state.legal_action_mask[0, action])
        state = vector.step(state, np.array([action]))
    assert len(rounds) >= 2  # the vectors were compared over more than one round


# --- The vector's contents, stated by hand ------------------------------------------------------


def test_the_vector_holds_the_seats_knowledge_in_the_documented_places() -> None:
    rows = Table.start([5, 30, 60, 90])
    hands = {"ana": [1, 10, 20, 31, 40, 50, 61, 70, 80, 91],
             "bob": [2, 11, 21, 32, 41, 51, 62, 71, 81, 92],
             "cy": [3, 12, 22, 33, 42, 52, 63, 72, 82, 93]}
    game = Game.from_deal(["ana", "bob", "cy"], rows, hands, round=2,
                          totals={"ana": 7, "bob": 3, "cy": 12}, rules=Rules(threshold=40))
    game.play("ana", 31)
    game.play("bob", 2)
    seen = observe(game, "cy")
    assert len(seen) == SIZE == 489
    assert [c + 1 for c in np.flatnonzero(seen[OBSERVATION_LAYOUT["hand"]])] == hands["cy"]
    assert _part(seen, "rows") == [5, 0, 0, 0, 0, 30, 0, 0, 0, 0, 60, 0, 0, 0, 0,
                                   90, 0, 0, 0, 0]
    assert _part(seen, "row_lengths") == [1, 1, 1, 1]
    assert _part(seen, "row_heads") == [2, 3, 3, 3]  # 5: 2 heads; 30, 60, 90: 3 heads
    assert sum(_part(seen, "seen")) == 0  # two cards laid face down, none revealed
    assert _part(seen, "laid") == [0]
    assert _part(seen, "phase") == [1, 0, 0, 0]
    assert _part(seen, "round") == [2] and _part(seen, "turn") == [1]
    assert _part(seen, "seat")[:3] == [0, 0, 1] and _part(seen, "seats") == [3]
    assert _part(seen, "totals")[:4] == [12, 7, 3, 0]  # cy first, then ana, then bob
    assert _part(seen, "threshold") == [40] and _part(seen, "variant") == [1, 0, 0, 0]
    assert _part(observe(game, "ana"), "laid") == [31]
    game.play("cy", 93)  # revealed: 2 (a low card: bob chooses), 31, 93
    for name in ("ana", "cy"):
        seen = observe(game, name)
        assert [c + 1 for c in np.flatnonzero(seen[OBSERVATION_LAYOUT["seen"]])] == [2, 31, 93]
        assert _part(seen, "phase") == [0, 1, 0, 0]
        assert _part(seen, "pending") == [2]
    assert _part(observe(game, "ana"), "pending_seat") == [2]  # bob sits after ana
    assert _part(observe(game, "cy"), "pending_seat") == [3]  # and two after cy
    assert _part(observe(game, "bob"), "pending_seat") == [1]
    game.take_row("bob", 3)  # the row of 90: 3 bull heads for bob
    seen = observe(game, "ana")
    assert _part(seen, "penalties")[:3] == [0, 3, 0]
    assert _part(seen, "rows")[15:17] == [2, 0]


def test_the_action_space_is_cards_then_rows_then_pass() -> None:
    assert (ACTIONS, ROW_ACTIONS, PASS) == (109, 104, 108)
    assert (vector.ACTIONS, vector.ROW_ACTIONS, vector.PASS) == (ACTIONS, ROW_ACTIONS, PASS)
    game = Game(["a", "b"], seed=5)
    legal = encoding.mask(game, "a")
    hand = game.observe("a").hand
    assert [int(i) + 1 for i in np.flatnonzero(legal)] == list(hand)


# --- No peeking: a table that lies about the hidden hands ----------------------------------------


def _lie(state: Any, seat: int, rng: random.Random) -> Any:
    """The hidden hands of *seat*'s opponents dealt anew among them, game 0 of *state*."""
    held = state._held.copy()
    count = held.shape[1]
    others = [other for other in range(count) if other != seat]
    pile = [int(c) for other in others for c in np.flatnonzero(held[0, other])]
    rng.shuffle(pile)
    for other in others:
        size = int(held[0, other].sum())
        held[0, other] = False
        held[0, other, pile[:size]] = True
        pile = pile[size:]
    return replace(state, _held=held)


def test_the_batched_vector_does_not_move_when_the_hidden_hands_lie() -> None:
    state = vector.init(seed=3, batch=1, players=4)
    rng = random.Random(3)
    moved = 0
    for _ in range(30):
        seat = int(state.current_player[0])
        lied = _lie(state, seat, rng)
        assert vector.observe(lied, seat).tolist() == vector.observe(state, seat).tolist()
        other = (seat + 1) % 4
        moved += vector.observe(lied, other).tolist() != vector.observe(state, other).tolist()
        state = vector.step(state, state.legal_action_mask.argmax(axis=1))
    assert moved  # the lie did change what the other seats hold


def test_the_scalar_vector_does_not_move_when_the_hidden_hands_differ() -> None:
    rows = Table.start([5, 30, 60, 90])
    me = [1, 10, 20, 31, 40, 50, 61, 70, 80, 91]
    first = {"me": me, "ana": [2, 11, 21, 32, 41, 51, 62, 71, 81, 92],
             "bob": [3, 12, 22, 33, 42, 52, 63, 72, 82, 93]}
    second = {"me": me, "ana": [2, 14, 24, 34, 44, 54, 64, 74, 84, 94],
              "bob": [3, 15, 25, 35, 45, 55, 65, 75, 85, 95]}
    games = [Game.from_deal(["me", "ana", "bob"], rows, hands) for hands in (first, second)]

    def same_for_me() -> None:
        assert observe(games[0], "me").tolist() == observe(games[1], "me").tolist()
        assert observe(games[0], "ana").tolist() != observe(games[1], "ana").tolist()

    same_for_me()
    for game in games:
        game.play("ana", 2)
        game.play("bob", 3)
    same_for_me()  # two cards face down: nothing of them shows
    for game in games:
        game.play("me", 31)  # revealed: 2 and 3 are low cards, their rows are chosen
        while game.phase is Phase.ROW:
            game.take_row(game.to_move[0], 0)
    same_for_me()
    assert games[0].turn == 2


# --- A policy trained on batch.vector runs unchanged on the PettingZoo env ----------------------

_L = OBSERVATION_LAYOUT


def _teacher(observation: Any, legal: Any) -> int:
    """A safe-card player read from the vector alone: the card that takes no row, else the
    cheapest; the cheapest row for a low card; the lowest card of a draft pool."""
    phase = observation[_L["phase"]]
    heads, lengths = observation[_L["row_heads"]], observation[_L["row_lengths"]].astype(int)
    if phase[1]:
        return ROW_ACTIONS + int(np.argmin(heads * 8 + lengths))
    cards = np.flatnonzero(legal[:ROW_ACTIONS]) + 1
    if phase[2]:
        return int(cards.min()) - 1
    rows = observation[_L["rows"]].reshape(4, 5)
    ends = rows[np.arange(4), lengths - 1]

    def cost(card: int) -> tuple[float, int]:
        below = ends < card
        if not below.any():
            return 100 + float(heads.min()), card
        row = int(np.argmax(np.where(below, ends, -1)))
        return (float(heads[row]) if lengths[row] == 5 else 0.0), -card

    return min((int(card) for card in cards), key=cost) - 1


def _fit(players: int, rules: Rules) -> tuple[Any, float]:
    """A linear policy (least squares on one-hot targets) imitating the teacher in batch.vector,
    and how often it agrees with the teacher on positions it was not fitted on."""
    state = vector.init(seed=5, batch=48, players=players, rules=rules)
    inputs, masks, targets = [], [], []
    for _ in range(300):
        live = np.flatnonzero(~state.terminated)
        if not live.size:
            break
        actions = np.full(state.phase.size, PASS)
        for game in live:
            observation, legal = state.observation[game], state.legal_action_mask[game]
            actions[game] = _teacher(observation, legal)
            inputs.append(observation)
            masks.append(legal)
            targets.append(actions[game])
        state = vector.step(state, actions)
    fitted = [k for k in range(len(inputs)) if k % 5]
    features = np.hstack([np.asarray(inputs, np.float64), np.ones((len(inputs), 1))])[fitted]
    onehot = np.zeros((len(fitted), ACTIONS))
    onehot[np.arange(len(fitted)), np.asarray(targets)[fitted]] = 1
    ridge = 1e-2 * np.eye(features.shape[1])
    weights = np.linalg.solve(features.T @ features + ridge, features.T @ onehot)

    def policy(observation: Any, legal: Any) -> int:
        scores = np.append(np.asarray(observation, np.float64), 1.0) @ weights
        return int(np.argmax(np.where(np.asarray(legal) > 0, scores, -np.inf)))

    held_out = range(0, len(inputs), 5)
    agree = np.mean([policy(inputs[k], masks[k]) == targets[k] for k in held_out])
    return policy, float(agree)


def _deal(game: Game, names: list[str], deals: dict[int, list[int]]) -> None:
    """Keep the deal of *game*'s round as a pile for batch.vector's dealer (once a round)."""
    if game.rules.drafted or game.round in deals or game.phase is not Phase.CARDS:
        return
    table = game.observe(names[0]).table
    assert table is not None
    deals[game.round] = [c for name in names for c in game.observe(name).hand] + [
        row[0] for row in table.rows]


@pytest.mark.parametrize(("players", "rules"), [
    pytest.param(4, Rules(), id="4-standard"),
    pytest.param(3, Rules(Variant.LOGIC, threshold=40), id="3-logic"),
])
def test_a_policy_trained_on_batch_vector_plays_the_pettingzoo_env_unchanged(
        players: int, rules: Rules) -> None:
    from take5rules.agents.pettingzoo_env import Take5Env

    policy, agree = _fit(players, rules)
    assert agree >= 0.5  # it did learn the teacher's choices (chance is far below)
    for seed in (1, 2):
        env = Take5Env(players, rules, seed=seed)
        names = list(env.possible_agents)
        deals: dict[int, list[int]] = {}
        played: list[tuple[int, Any, int]] = []
        while env.agents:
            _deal(env.game, names, deals)
            agent = env.agent_selection
            observation, _, terminated, _, _ = env.last()
            if terminated:
                env.step(None)
                continue
            action = policy(observation["observation"], observation["action_mask"])
            assert observation["action_mask"][action] == 1  # a legal action, from the mask
            played.append((names.index(agent), observation["observation"], action))
            env.step(action)  # the env checks it again against the rules
        assert len(deals) >= (0 if rules.drafted else 2)  # more than one deal was replayed

        def dealer(games: Any, round_number: int, deals: Any = deals) -> Any:
            return np.array([deals[round_number]] * len(games))

        state = vector.init(seed=0, batch=1, players=players, rules=rules,
                            dealer=None if rules.drafted else dealer)
        for seat, observation, action in played:
            assert int(state.current_player[0]) == seat
            assert state.observation[0].tolist() == observation.tolist()
            assert policy(state.observation[0], state.legal_action_mask[0]) == action
            state = vector.step(state, np.array([action]))
        assert bool(state.terminated[0])
        assert state.totals[0].tolist() == [env.final_totals[name] for name in names]


def test_a_players_view_encodes_as_the_seats_observation() -> None:
    from take5rules.playing.players import CardView, RowChoice

    game = Game(["ana", "bob", "cy"], Rules(threshold=30), seed=9)
    rng = random.Random(9)
    checked = {Phase.CARDS: 0, Phase.ROW: 0}
    while game.phase is not Phase.OVER:
        seat = game.to_move[0]
        seen = game.observe(seat)
        assert seen.table is not None
        if game.phase is Phase.ROW:
            assert seen.pending is not None
            view: Any = RowChoice(seat, seen.pending[1], seen.table, seen.round, seen.turn,
                                  seen.hand, seen.totals, seen.revealed, seen.taken, seen.start,
                                  seen.picks)
        else:
            view = CardView(seen.round, seen.turn, seen.table, seen.hand, seen.totals, seat,
                            seen.revealed, seen.taken, seen.start, seen.picks)
        vector_ = encoding.encode_view(view, game.players, game.rules)
        assert vector_.tolist() == observe(game, seat).tolist()
        checked[game.phase] += 1
        encoding.act(game, seat, int(rng.choice(np.flatnonzero(encoding.mask(game, seat)))))
    assert checked[Phase.CARDS] >= 30 and checked[Phase.ROW] >= 1
    with pytest.raises(Take5Error) as error:
        encoding.encode_view("a view", game.players, game.rules)  # type: ignore[arg-type]
    assert error.value.rule == "argument"


def test_the_documented_table_of_slices_is_the_layout() -> None:
    rows = [line.split("|")[1:3] for line in (encoding.__doc__ or "").splitlines()
            if line.startswith("| ``")]
    table = [(name.strip().strip("`"), int(width)) for name, width in rows]
    assert table == [(name, part.stop - part.start) for name, part in OBSERVATION_LAYOUT.items()]
    assert sum(width for _, width in table) == SIZE


def test_what_is_no_observation_or_no_action_is_an_argument_error() -> None:
    game = Game(["a", "b"], seed=2)
    seen = game.observe("a")
    hostile: list[Any] = [
        lambda: encoding.encode("a", game.players, game.rules),  # type: ignore[arg-type]
        lambda: encoding.encode(seen, ["b", "c"], game.rules),
        lambda: encoding.encode(seen, "ab", game.rules),
        lambda: encoding.encode(seen, game.players, "standard"),  # type: ignore[arg-type]
        lambda: encoding.encode_batch(None),  # type: ignore[arg-type]
        lambda: encoding.act(game, "a", 200),
        lambda: encoding.act(game, "a", -1),
        lambda: encoding.act(game, "a", None),
        lambda: encoding.act(game, "a", 2.0),
        lambda: encoding.act(game, "a", 10**5000),
    ]
    for call in hostile:
        with pytest.raises(Take5Error) as error:
            call()
        assert error.value.rule == "argument"
    assert game.observe("a") == seen  # nothing was played
