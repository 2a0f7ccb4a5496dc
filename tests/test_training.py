"""The training of the policy (``training/`` at the repository's root), on tiny data.

The hand-written gradient is checked against finite differences, entry by entry; a few steps
of Adam on a few labelled decisions lower the loss and make the search's choices the network's;
the data generator records legal, labelled decisions and is reproducible from its seed.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

import numpy.typing as npt
import pytest

np = pytest.importorskip("numpy", reason="training needs numpy (take5rules[batch])")

from training.generate import (  # noqa: E402
    FOLLOW_ACTORS,
    Decisions,
    Table,
    generate,
    play_labelled,
    table_of,
)
from training.train import (  # noqa: E402
    Network,
    accuracy,
    loss_and_gradients,
    shuffle_rows,
    train,
)

from take5rules.agents.encoding import (  # noqa: E402
    ACTIONS,
    OBSERVATION_LAYOUT,
    ROW_ACTIONS,
    SIZE,
)
from take5rules.agents.policy import (  # noqa: E402
    Policy,
    load_policy,
    placement_features,
    save_policy,
)
from take5rules.variants import Rules, Variant  # noqa: E402

Data = tuple[Network, "npt.NDArray[Any]", "npt.NDArray[Any]", "npt.NDArray[Any]"]


def _tiny(seed: int = 0, size: int = 12, head: bool = False) -> Data:
    """A network of two hidden layers of 5 and 4 (and a card head of 3 units if *head*), and
    *size* random decisions."""
    rng = np.random.default_rng(seed)
    network = Network.initial([5, 4], seed, head=3 if head else 0)
    for index in range(1, len(network.arrays), 2):  # biases away from 0: every ReLU matters
        network.arrays[index] = rng.normal(0, 0.3, network.arrays[index].shape).astype(
            np.float32)
    network.skip = rng.normal(0, 0.5, 9).astype(np.float32)  # the first 9 (the draws go on)
    extra = np.random.default_rng(seed + 1000)
    network.skip = np.concatenate([network.skip, extra.normal(0, 0.5, 3)]).astype(np.float32)
    if network.head is not None:  # its output weights away from 0: its gradients show
        network.head[2] = extra.normal(0, 0.3, 3).astype(np.float32)
        network.head[3] = extra.normal(0, 0.5, 3).astype(np.float32)
    x = rng.integers(0, 3, (size, SIZE)).astype(np.float32)
    # Rows of one to five cards, each row's cards rising: the placement features vary.
    lengths = rng.integers(1, 6, (size, 4))
    cells = np.sort(rng.choice(np.arange(1, 105), (size, 20)), axis=1).reshape(size, 4, 5)
    cells = np.where(np.arange(5)[None, None, :] < lengths[:, :, None], cells, 0)
    x[:, OBSERVATION_LAYOUT["rows"]] = cells.reshape(size, 20)
    x[:, OBSERVATION_LAYOUT["row_lengths"]] = lengths
    x[:, OBSERVATION_LAYOUT["row_heads"]] = rng.integers(1, 20, (size, 4))
    legal = rng.random((size, ACTIONS)) < 0.2
    actions = np.array([rng.choice(np.flatnonzero(row)) for row in legal])
    return network, x, legal, actions


def _loss64(network: Network, x: npt.NDArray[Any], legal: npt.NDArray[Any],
            actions: npt.NDArray[Any], decay: float,
            targets: npt.NDArray[Any] | None = None) -> float:
    """The loss computed again in float64 from the definition, for the finite differences."""
    hidden = np.asarray(x, np.float64) * network.scale.astype(np.float64)
    arrays = [array.astype(np.float64) for array in network.arrays]
    cards, rows = placement_features(x)
    if network.skip is not None:
        hidden = np.concatenate([hidden, cards.reshape(len(x), -1), rows.reshape(len(x), -1)],
                                axis=1)
    read = hidden
    for index in range(0, len(arrays), 2):
        read = hidden
        hidden = hidden @ arrays[index] + arrays[index + 1]
        if index < len(arrays) - 2:
            hidden = np.maximum(hidden, 0)
    if network.skip is not None:
        skip = network.skip.astype(np.float64)
        hidden[:, :104] += cards @ skip[:10]
        hidden[:, 104:108] += rows @ skip[10:]
    squares = sum(float((arrays[index] ** 2).sum()) for index in range(0, len(arrays), 2))
    if network.head is not None:  # each card: out . relu(A' features + B' read + bias)
        a, b, bias, out = (array.astype(np.float64) for array in network.head)
        for card in range(104):
            inner = np.maximum(cards[:, card, :] @ a + read @ b + bias, 0)
            hidden[:, card] += inner @ out
        squares += float((a**2).sum() + (b**2).sum())
    total = 0.0
    for index, (row, mask, action) in enumerate(zip(hidden, legal, actions, strict=True)):
        normaliser = np.log(np.exp(row[mask]).sum())
        if targets is None:
            total += -(row[action] - normaliser)
        else:  # the cross-entropy of the target distribution, over the legal actions
            total += -sum(float(targets[index, a]) * (row[a] - normaliser)
                          for a in np.nonzero(mask)[0])
    return total / len(hidden) + 0.5 * decay * squares


def _spread(legal: npt.NDArray[Any], seed: int) -> npt.NDArray[Any]:
    """Target distributions over each decision's legal actions, drawn at random."""
    weights = np.random.default_rng(seed).random(legal.shape) * legal
    shares: npt.NDArray[Any] = (weights / weights.sum(axis=1, keepdims=True)).astype(np.float32)
    return shares


@pytest.mark.parametrize("head", [False, True], ids=["no-head", "card-head"])
@pytest.mark.parametrize("soft", [False, True], ids=["one-action", "visit-shares"])
def test_the_gradient_is_the_loss_s_finite_differences(soft: bool, head: bool) -> None:
    network, x, legal, actions = _tiny(head=head)
    legal[np.arange(len(legal)), actions] = True
    targets = _spread(legal, 7) if soft else None
    decay = 0.01
    loss, gradients = loss_and_gradients(network, x, legal, actions, decay, targets)
    assert loss == pytest.approx(_loss64(network, x, legal, actions, decay, targets), rel=1e-4)
    rng = np.random.default_rng(1)
    step = 1e-3
    checked = 0
    for index, array in enumerate(network.parameters):
        for flat in rng.choice(array.size, size=min(8, array.size), replace=False):
            place = np.unravel_index(flat, array.shape)
            if index == 0 and place[0] < 489 and network.scale[place[0]] * float(
                    np.abs(x[:, place[0]]).max()) == 0:
                continue  # an input that is always 0: no gradient to see
            kept = float(array[place])
            array[place] = kept + step
            up = _loss64(network, x, legal, actions, decay, targets)
            array[place] = kept - step
            down = _loss64(network, x, legal, actions, decay, targets)
            array[place] = kept
            numeric = (up - down) / (2 * step)
            assert float(gradients[index][place]) == pytest.approx(numeric, abs=2e-4, rel=2e-2)
            checked += 1
    assert checked >= 30


def test_an_illegal_action_s_logit_changes_nothing() -> None:
    network, x, legal, actions = _tiny(seed=2)
    loss, gradients = loss_and_gradients(network, x, legal, actions)
    # Push the last bias of every illegal action up: the loss and the other gradients stay.
    network.arrays[-1] = network.arrays[-1] + np.where(legal.all(axis=0), 0, 50).astype(
        np.float32)
    assert not legal.all(axis=0).any()
    never = ~legal.any(axis=0)
    again, _ = loss_and_gradients(network, x, legal, actions)
    assert again == pytest.approx(loss, rel=1e-6)
    assert np.all(gradients[len(network.arrays) - 1][never] == 0)  # never legal: no gradient


def test_a_few_steps_lower_the_loss_and_learn_the_choices() -> None:
    _, x, legal, actions = _tiny(seed=3, size=64)
    network, report = train(x, legal, actions, hidden=[32], features=False, augment=False,
                            epochs=40, batch=16, rate=1e-2, held_out=0.0, seed=4)
    assert report.steps == 40 * 4
    assert report.train_loss[-1] < 0.5 * report.train_loss[0]
    assert accuracy(network, x, legal, actions) >= 0.9


def test_the_trained_network_saves_and_loads_as_the_player_s_policy(tmp_path: Path) -> None:
    network, x, _, _ = _tiny(seed=5)
    path = save_policy(network.policy({"seed": 5, "data": "tiny", "code": "test"}),
                       tmp_path / "tiny.npz")
    policy = load_policy(path)
    assert policy.widths == (489 + 104 * 10 + 4 * 2, 5, 4, 109)
    assert policy.skip is not None and np.array_equal(policy.skip, network.skip)
    for one in (network, policy):  # the features off: the MLP alone, computed here
        object.__setattr__(one, "skip", None)
    bare = Policy.from_arrays([network.arrays[0][:489], *network.arrays[1:]], network.scale)
    hidden = np.maximum(x * network.scale @ network.arrays[0][:489] + network.arrays[1], 0)
    hidden = np.maximum(hidden @ network.arrays[2] + network.arrays[3], 0)
    assert np.allclose(bare.logits(x), hidden @ network.arrays[4] + network.arrays[5],
                       atol=1e-5)
    assert policy.metadata["seed"] == 5 and policy.metadata["data"] == "tiny"


def test_the_tables_come_from_the_seed_and_the_game_alone() -> None:
    tables = [table_of(1, game) for game in range(40)]
    assert tables == [table_of(1, game) for game in range(40)]
    assert tables != [table_of(2, game) for game in range(40)]
    for table in tables:
        low, high = {Variant.LOGIC: (2, 6), Variant.TOURNAMENT: (2, 5)}.get(
            table.rules.variant, (2, 10))
        assert low <= len(table.actors) <= high
        assert set(table.actors) <= {"best", "cautious", "greedy"}
    assert sum(t.rules == Rules() and len(t.actors) == 4 for t in tables) >= 15


def test_the_games_that_follow_a_network_seat_it_most_often_on_their_own_stream() -> None:
    follow = [table_of(1, game, actors=FOLLOW_ACTORS) for game in range(40)]
    seats = [actor for table in follow for actor in table.actors]
    assert set(seats) == {"policy", "best"}
    assert seats.count("policy") > 2 * seats.count("best")  # weights 3 to 1
    # Their own stream: the default recipe's tables (the shipped weights') do not move.
    assert [t.deal_seed for t in follow] != [table_of(1, game).deal_seed for game in range(40)]


@pytest.mark.slow
def test_a_policy_actor_plays_the_network_s_card_and_the_search_labels_it() -> None:
    from take5rules.agents.policy import PolicyPlayer

    table = Table(("policy", "policy"), Rules(threshold=20), 3, 4)
    decisions = play_labelled(table, iterations=4)
    assert len(decisions) >= 20 and decisions.legal[np.arange(len(decisions)),
                                                      decisions.actions].all()
    # The positions are the network's: the first seat's next view holds its first hand less
    # the card the network chose from its first view (the search's label may differ).
    observations = decisions.observations
    hand, seat = OBSERVATION_LAYOUT["hand"], OBSERVATION_LAYOUT["seat"]
    first = observations[0]
    mine = [row for row in observations[1:] if np.array_equal(row[seat], first[seat])]
    legal = np.zeros(decisions.legal.shape[1], bool)
    legal[np.flatnonzero(first[hand])] = True
    chosen = PolicyPlayer().policy.act(first, legal)
    expected = first[hand].copy()
    expected[chosen] = 0
    assert np.array_equal(mine[0][hand], expected)


@pytest.mark.slow
@pytest.mark.parametrize("rules", [Rules(threshold=20), Rules(Variant.LOGIC, threshold=20)],
                         ids=["standard", "logic"])
def test_the_decisions_are_legal_labelled_and_reproducible(rules: Rules) -> None:
    table = Table(("best", "cautious", "greedy"), rules, 5, 6)
    decisions = play_labelled(table, iterations=4)
    again = play_labelled(table, iterations=4)
    assert np.array_equal(decisions.observations, again.observations)
    assert np.array_equal(decisions.actions, again.actions)
    assert len(decisions) >= 30  # three seats, ten turns at least
    assert decisions.legal[np.arange(len(decisions)), decisions.actions].all()
    rows = decisions.actions >= ROW_ACTIONS
    assert rows.sum() >= 1 and decisions.legal[rows, ROW_ACTIONS : ROW_ACTIONS + 4].all()
    if rules.drafted:  # 3 seats draft 30 cards in all
        drafting = decisions.observations[:, OBSERVATION_LAYOUT["phase"].start + 2] == 1
        assert drafting.sum() >= 30
    assert (decisions.seats == 3).all()
    # The targets: the search's visit shares, over legal actions, the most on the action
    # played; 4 iterations over a hand of more than 4 cards leave the others at 0.
    targets = decisions.targets
    assert np.allclose(targets.sum(axis=1), 1) and not targets[~decisions.legal].any()
    chosen = targets[np.arange(len(decisions)), decisions.actions]
    assert (chosen == targets.max(axis=1)).all()
    shares = set(np.round(targets[targets > 0] * 4, 6).tolist())
    assert shares <= {1.0, 2.0, 3.0, 4.0}  # quarters: 4 visits shared among the cards
    assert 1.0 in shares  # some searches spread their visits
    assert np.array_equal(targets, again.targets)


@pytest.mark.slow
def test_generate_is_the_same_in_two_processes() -> None:
    one = generate(2, seed=9, jobs=1, iterations=2)
    two = generate(2, seed=9, jobs=2, iterations=2)
    assert np.array_equal(one.observations, two.observations)
    assert np.array_equal(one.actions, two.actions)


def test_shuffled_rows_move_with_their_row_action() -> None:
    _, x, legal, actions = _tiny(seed=6, size=40)
    legal[:, 104:108] = True
    actions[:20] = 104 + np.arange(20) % 4  # half the decisions take a row
    spread = _spread(legal, 3)
    moved, allowed, targets, shares = shuffle_rows(x, legal, actions, np.random.default_rng(0),
                                                   spread)
    assert shares is not None
    rows = OBSERVATION_LAYOUT["rows"]
    lengths, heads = OBSERVATION_LAYOUT["row_lengths"], OBSERVATION_LAYOUT["row_heads"]
    assert not np.array_equal(moved[:, rows], x[:, rows])  # some order changed
    for index in range(40):
        before = x[index, rows].reshape(4, 5)
        after = moved[index, rows].reshape(4, 5)
        # every row is still there, with its length and heads, in some order
        assert sorted(map(tuple, before.tolist())) == sorted(map(tuple, after.tolist()))
        for place in range(4):
            old = next(r for r in range(4) if (before[r] == after[place]).all())
            assert moved[index, lengths][place] == x[index, lengths][old]
            assert moved[index, heads][place] == x[index, heads][old]
        for place in range(4):  # each row's share of the visits moves with the row
            old = next(r for r in range(4) if (before[r] == after[place]).all())
            assert shares[index, 104 + place] == spread[index, 104 + old]
        assert np.array_equal(shares[index, :104], spread[index, :104])
        if 104 <= actions[index] < 108:  # the row taken is the same row, at its new place
            assert (after[targets[index] - 104] == before[actions[index] - 104]).all()
        else:
            assert targets[index] == actions[index]
        assert np.array_equal(moved[index, :rows.start], x[index, :rows.start])
        assert np.array_equal(allowed[index], legal[index])  # all four rows legal, cards kept


def test_generate_in_two_parts_is_generate_at_once() -> None:
    whole = generate(2, seed=9, iterations=2, teacher="cautious")
    parts = Decisions.join([generate(1, seed=9, iterations=2, teacher="cautious"),
                            generate(2, seed=9, iterations=2, teacher="cautious", first=1)])
    assert np.array_equal(whole.observations, parts.observations)
    assert np.array_equal(whole.actions, parts.actions)
    assert np.array_equal(whole.legal, parts.legal)


@pytest.mark.slow
def test_checkpoints_keep_the_network_after_every_epoch_of_every_stage(tmp_path: Path) -> None:
    from training.__main__ import main

    folder = tmp_path / "steps"
    main(["--games", "1", "--first-games", "1", "--first-epochs", "2", "--epochs", "1",
          "--follow-rounds", "1", "--follow-games", "1",
          "--hidden", "6", "--seed", "3", "--out", str(tmp_path / "policy.npz"),
          "--decisions", str(tmp_path / "best.npz"), "--checkpoints", str(folder)])
    assert sorted(path.name for path in folder.iterdir()) == [
        "epoch-1.npz", "epoch-2.npz", "epoch-3.npz", "epoch-4.npz"]
    stages = [load_policy(folder / f"epoch-{k}.npz").metadata for k in (1, 2, 3, 4)]
    assert [(m["epoch"], m["stage"]) for m in stages] == [
        (1, "cautious"), (2, "cautious"), (3, "best"), (4, "follow")]
    assert stages[3]["round"] == 1 and "round" not in stages[2]
    # The round trains on the search's decisions of both stages' games.
    best = Decisions.load(tmp_path / "best.npz")
    followed = Decisions.load(tmp_path / "best-follow1.npz")
    assert stages[2]["decisions"] == len(best)
    assert stages[3]["decisions"] == len(best) + len(followed)
    last = load_policy(folder / "epoch-4.npz")
    final = load_policy(tmp_path / "policy.npz")  # the last checkpoint is the network shipped
    assert all(np.array_equal(a, b) for pair in zip(last.layers, final.layers, strict=True)
               for a, b in zip(*pair, strict=True))
    assert "1 x 1 games seated mostly by the network" in final.metadata["data"]
