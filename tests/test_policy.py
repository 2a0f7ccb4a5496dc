"""The learned policy of agents.policy: its forward pass, its mask, its file, no peeking.

The forward pass is checked against a tiny network whose logits are worked out by hand; the
player never answers illegally, in every phase, variant and seat count, even with a network
that prefers the illegal actions; a weights file that is missing, corrupt or of another shape
is an ``argument`` error; a table that lies about the hidden hands changes none of its
decisions; and a policy fitted on ``batch.vector``'s decisions plays the PettingZoo
environment as it plays ``batch.vector``.
"""

from __future__ import annotations

import json
import math
import zipfile
from collections.abc import Sequence
from pathlib import Path
from typing import Any

import pytest

from test_bots import _pairs

np = pytest.importorskip("numpy", reason="the policy needs numpy (take5rules[batch])")

from take5rules.agents.batch import vector  # noqa: E402
from take5rules.agents.encoding import OBSERVATION_LAYOUT  # noqa: E402
from take5rules.agents.policy import (  # noqa: E402
    FORMAT,
    Policy,
    PolicyPlayer,
    PolicyPrior,
    load_policy,
    save_policy,
)
from take5rules.errors import Take5Error  # noqa: E402
from take5rules.playing.engine import play_silently  # noqa: E402
from take5rules.playing.players import (  # noqa: E402
    CardView,
    CautiousPlayer,
    DraftView,
    Player,
    RowChoice,
)
from take5rules.playing.stepper import Game, Phase  # noqa: E402
from take5rules.table import Table  # noqa: E402
from take5rules.variants import Rules, Variant  # noqa: E402

# The observation is 489 numbers and there are 109 actions (104 cards, 4 rows, pass): the
# encoding's documented sizes, stated here independently.
INPUTS, OUTPUTS = 489, 109
ROW0 = OBSERVATION_LAYOUT["rows"].start  # the first card of the first row


def _tiny() -> Policy:
    """Two hidden units. Unit 0 = relu(2 * has card 1 - 1 * row card / 104 * 104/52 ...)."""
    w0 = np.zeros((INPUTS, 2), np.float32)
    w0[0, 0] = 2.0        # the hand holds card 1
    w0[ROW0, 0] = -1.0    # the first row's first card, scaled by 1/104
    w0[ROW0, 1] = 4.0
    b0 = np.array([0.5, -3.0], np.float32)
    w1 = np.zeros((2, OUTPUTS), np.float32)
    w1[0, 5] = 1.5
    w1[1, 5] = 100.0      # unit 1 is negative before its ReLU: it must count 0
    b1 = np.zeros(OUTPUTS, np.float32)
    b1[7] = 2.9
    return Policy.from_arrays([w0, b0, w1, b1])


def test_the_forward_pass_is_the_hand_computed_one() -> None:
    x = np.zeros(INPUTS, np.float32)
    x[0] = 1          # card 1 in the hand
    x[ROW0] = 52      # the first row starts with 52: 52 / 104 = 0.5 once scaled
    # unit 0: relu(2 * 1 - 1 * 0.5 + 0.5) = 2; unit 1: relu(4 * 0.5 - 3) = relu(-1) = 0
    # logit 5 = 1.5 * 2 + 100 * 0 = 3.0; logit 7 = 2.9; every other logit 0.
    logits = _tiny().logits(x)
    expected = np.zeros(OUTPUTS)
    expected[5], expected[7] = 3.0, 2.9
    assert np.allclose(logits, expected, atol=1e-6)
    legal = np.zeros(OUTPUTS, bool)
    legal[[5, 7]] = True
    assert _tiny().act(x, legal) == 5
    legal[5] = False
    assert _tiny().act(x, legal) == 7
    legal[:] = False
    legal[[60, 8]] = True
    assert _tiny().act(x, legal) == 8  # equal logits: the lowest action
    batch = np.stack([x, np.zeros(INPUTS, np.float32)])
    # The second row: unit 0 = relu(0.5) = 0.5, unit 1 = relu(-3) = 0: logit 5 = 0.75.
    assert np.allclose(_tiny().logits(batch)[1, [5, 7]], [0.75, 2.9], atol=1e-6)


def test_the_placement_features_and_the_skip_are_the_hand_computed_ones() -> None:
    x = np.zeros(INPUTS, np.float32)
    # Rows 10 20 | 30 | 40 | 50 51 52 53 54, holding 4, 3, 3 and 5 bull heads.
    x[ROW0 : ROW0 + 20] = [10, 20, 0, 0, 0, 30, 0, 0, 0, 0, 40, 0, 0, 0, 0, 50, 51, 52, 53, 54]
    x[OBSERVATION_LAYOUT["row_lengths"]] = [2, 1, 1, 5]
    x[OBSERVATION_LAYOUT["row_heads"]] = [4, 3, 3, 5]
    features = 104 * 10 + 4 * 2
    arrays = [np.zeros((INPUTS + features, 3), np.float32), np.zeros(3, np.float32),
              np.zeros((3, OUTPUTS), np.float32), np.zeros(OUTPUTS, np.float32)]
    # Each card's logit: -1 if low, -2 x distance / 104, -10 x the row's heads / 20 if it is
    # the sixth card, -4 x the cheapest row's heads / 20 if low; each row's: -20 x heads / 20.
    # (No seat is counted and the hand is empty: the card-counting features stay out.)
    skip = np.array([-1, -2, 0, 0, -10, -4, 0, 0, 0, 0, -20, 0], np.float32)
    policy = Policy.from_arrays(arrays, skip=skip)
    logits = policy.logits(x)
    assert logits[45 - 1] == pytest.approx(-2 * 5 / 104)          # on 40: 5 apart
    assert logits[55 - 1] == pytest.approx(-2 * 1 / 104 - 10 * 5 / 20)  # sixth on 54
    assert logits[5 - 1] == pytest.approx(-1 - 4 * 3 / 20)         # low: the cheapest is 3
    assert logits[21 - 1] == pytest.approx(-2 * 1 / 104)           # on 20
    assert np.allclose(logits[104:108], [-4, -3, -3, -5])
    assert logits[108] == 0
    legal = np.zeros(OUTPUTS, bool)
    legal[[5 - 1, 45 - 1, 55 - 1]] = True
    assert policy.act(x, legal) == 45 - 1
    legal[:] = False
    legal[104:108] = True
    assert policy.act(x, legal) == 105  # 3 bull heads, the first of two
    with pytest.raises(Take5Error):  # a network that reads the features needs its skip
        Policy.from_arrays(arrays)
    with pytest.raises(Take5Error):
        Policy.from_arrays(arrays, skip=np.zeros(11, np.float32))
    with pytest.raises(Take5Error):  # and one that does not, none
        Policy.from_arrays([arrays[0][:INPUTS], *arrays[1:]], skip=skip)


def test_the_card_counting_features_and_the_card_head_are_the_hand_computed_ones() -> None:
    x = np.zeros(INPUTS, np.float32)
    # Rows 10 | 30 | 60 | 90 (one card each); the seat holds 14 and 95; 11 and 12 were
    # revealed this round; 2 seats. Unseen: 104 - 2 - 2 - 4 = 96 cards.
    x[ROW0 : ROW0 + 20] = [10, 0, 0, 0, 0, 30, 0, 0, 0, 0, 60, 0, 0, 0, 0, 90, 0, 0, 0, 0]
    x[OBSERVATION_LAYOUT["row_lengths"]] = [1, 1, 1, 1]
    x[OBSERVATION_LAYOUT["row_heads"]] = [3, 3, 3, 1]
    hand, seen = OBSERVATION_LAYOUT["hand"].start, OBSERVATION_LAYOUT["seen"].start
    x[[hand + 14 - 1, hand + 95 - 1, seen + 11 - 1, seen + 12 - 1]] = 1
    x[OBSERVATION_LAYOUT["seats"]] = 2
    width = INPUTS + 104 * 10 + 4 * 2
    arrays = [np.zeros((width, 2), np.float32), np.zeros(2, np.float32),
              np.zeros((2, OUTPUTS), np.float32), np.zeros(OUTPUTS, np.float32)]
    arrays[1][:] = [1.0, 2.0]  # the last hidden layer reads (1, 2) whatever the input
    # The skip reads the three counting features only: 1 x unseen / 20, 10 x the expected
    # count, 100 x the chance that the row is taken.
    skip = np.zeros(12, np.float32)
    skip[7:10] = [1, 10, 100]
    # A head of two units: unit 0 = relu(unseen / 20 - 0.5 x hidden 0), unit 1 = relu(hidden 1
    # - 3 + 0 features) = 0 always; the card's logit gains 8 x unit 0 - 5 x unit 1.
    from_features = np.zeros((10, 2), np.float32)
    from_features[7, 0] = 1
    from_hidden = np.array([[-0.5, 0], [0, 1]], np.float32)
    head = [from_features, from_hidden, np.array([0, -3], np.float32),
            np.array([8, -5], np.float32)]
    plain = Policy.from_arrays(arrays, skip=skip).logits(x)
    headed = Policy.from_arrays(arrays, skip=skip, head=head).logits(x)
    # Card 15 goes on 10: 11 and 12 seen, 13 unseen, 14 in the hand: 1 unseen card between.
    # One other seat: it plays there with the chance 1/96; the row (1 card) needs 4 more.
    assert plain[15 - 1] == pytest.approx(1 / 20 + 10 * (1 / 96) + 0, abs=1e-6)
    # Card 29 goes on 10 too: 13, 15 to 28 unseen (15 cards).
    assert plain[29 - 1] == pytest.approx(15 / 20 + 10 * 15 / 96, abs=1e-6)
    # Card 5 is low: 1 to 4 unseen; taken if the other seat plays lower: 4/96.
    assert plain[5 - 1] == pytest.approx(4 / 20 + 10 * 4 / 96 + 100 * 4 / 96, abs=1e-5)
    # The head adds 8 x relu(15 / 20 - 0.5) = 2 to card 29 and nothing to card 15.
    assert headed[29 - 1] - plain[29 - 1] == pytest.approx(2.0, abs=1e-5)
    assert headed[15 - 1] == pytest.approx(plain[15 - 1], abs=1e-6)
    assert np.array_equal(headed[104:], plain[104:])  # the rows and the pass: no head
    with pytest.raises(Take5Error):  # a head needs the features
        Policy.from_arrays([arrays[0][:INPUTS], *arrays[1:]], head=head)
    for wrong in (head[:3], [head[0][:9], *head[1:]], [head[0], head[1][:1], *head[2:]],
                  [*head[:3], np.array([np.inf, 0], np.float32)], "head"):
        with pytest.raises(Take5Error) as error:
            Policy.from_arrays(arrays, skip=skip, head=wrong)  # type: ignore[arg-type]
        assert error.value.rule == "argument"


def test_one_observation_and_a_batch_give_the_same_logits() -> None:
    # One observation is multiplied by the weights stored column by column, a batch by the
    # weights as given: the same numbers, summed in another order.
    rng = np.random.default_rng(5)
    width, hidden = INPUTS + 104 * 10 + 4 * 2, 6
    arrays = [rng.normal(size=(width, hidden)).astype(np.float32),
              rng.normal(size=hidden).astype(np.float32),
              rng.normal(size=(hidden, OUTPUTS)).astype(np.float32),
              rng.normal(size=OUTPUTS).astype(np.float32)]
    head = [rng.normal(size=(10, 3)).astype(np.float32),
            rng.normal(size=(hidden, 3)).astype(np.float32),
            rng.normal(size=3).astype(np.float32), rng.normal(size=3).astype(np.float32)]
    policy = Policy.from_arrays(arrays, skip=rng.normal(size=12).astype(np.float32), head=head)
    batch = rng.integers(0, 2, size=(5, INPUTS)).astype(np.float32)
    batch[:, OBSERVATION_LAYOUT["seats"]] = 4
    singles = np.stack([policy.logits(row) for row in batch])
    assert singles.shape == (5, OUTPUTS)
    assert np.allclose(singles, policy.logits(batch), rtol=1e-5, atol=1e-4)
    assert not np.allclose(singles[0], singles[1])  # the rows differ: a real comparison


def test_subnormal_weights_are_kept_as_zero() -> None:
    # Below float32's smallest normal number (about 1.2e-38) a weight changes no logit, and it
    # makes every product with it slow on some processors: it is stored as 0.
    w0 = np.zeros((INPUTS, 2), np.float32)
    w0[0, 0], w0[1, 0], w0[2, 1] = 1e-40, -1e-39, 2e-38
    arrays = [w0, np.zeros(2, np.float32), np.ones((2, OUTPUTS), np.float32),
              np.zeros(OUTPUTS, np.float32)]
    kept = Policy.from_arrays(arrays).layers[0][0]
    assert kept[0, 0] == 0 and kept[1, 0] == 0
    assert kept[2, 1] == np.float32(2e-38)  # a normal number, however small, stays
    assert w0[0, 0] != 0  # the caller's array is not changed


def test_a_saved_card_head_loads_as_it_was(tmp_path: Path) -> None:
    rng = np.random.default_rng(4)
    width = INPUTS + 104 * 10 + 4 * 2
    arrays = [rng.normal(0, 0.1, (width, 6)).astype(np.float32), np.zeros(6, np.float32),
              rng.normal(0, 0.1, (6, OUTPUTS)).astype(np.float32), np.zeros(OUTPUTS, np.float32)]
    head = [rng.normal(0, 1, shape).astype(np.float32) for shape in ((10, 3), (6, 3), 3, 3)]
    policy = Policy.from_arrays(arrays, skip=rng.normal(0, 1, 12).astype(np.float32),
                                head=head, metadata={"seed": 1, "data": "hand", "code": "x"})
    loaded = load_policy(save_policy(policy, tmp_path / "headed.npz"))
    x = rng.integers(0, 3, (5, INPUTS)).astype(np.float32)
    assert np.array_equal(loaded.logits(x), policy.logits(x))
    with np.load(tmp_path / "headed.npz") as stored:
        contents = {name: stored[name] for name in stored.files if name != "metadata"}
        metadata = json.loads(str(stored["metadata"]))
    short = {name: value for name, value in contents.items() if name != "head_out"}
    assert "card head" in _refused(_write(tmp_path / "short.npz", metadata, **short)).message


def _contrary(seed: int) -> Policy:
    """A random network that prefers every action a seat can never take now: pass, the rows
    while playing a card, the cards not in the hand (high biases on them all)."""
    rng = np.random.default_rng(seed)
    arrays = [rng.normal(0, 0.1, (INPUTS, 16)).astype(np.float32), np.zeros(16, np.float32),
              rng.normal(0, 0.1, (16, OUTPUTS)).astype(np.float32),
              rng.normal(0, 1, OUTPUTS).astype(np.float32)]
    arrays[3][104:] += 1000  # the rows and pass first, by far
    return Policy.from_arrays(arrays)


CASES = [(Variant.STANDARD, 4), (Variant.STANDARD, 2), (Variant.STANDARD, 10),
         (Variant.TACTICS, 3), (Variant.LOGIC, 2), (Variant.LOGIC, 6),
         (Variant.TOURNAMENT, 3), (Variant.TOURNAMENT, 5)]


@pytest.mark.parametrize("shipped", [False, True], ids=["contrary", "shipped"])
@pytest.mark.parametrize(("variant", "count"), [
    pytest.param(*case, id=f"{case[0].value}-{case[1]}") for case in CASES])
def test_the_player_never_answers_illegally(variant: Variant, count: int,
                                            shipped: bool) -> None:
    asked: dict[str, int] = {"card": 0, "row": 0, "draft": 0}

    class Counting(PolicyPlayer):
        def choose_card(self, view: CardView) -> int:
            asked["card"] += 1
            return super().choose_card(view)

        def choose_row(self, choice: RowChoice) -> int:
            asked["row"] += 1
            return super().choose_row(choice)

        def choose_draft(self, view: DraftView) -> int:
            asked["draft"] += 1
            return super().choose_draft(view)

    seats: dict[str, Player] = {f"s{k}": Counting(None if shipped else _contrary(k))
                                for k in range(count)}
    over = play_silently(seats, Rules(variant, threshold=30), seed=count)  # checks every answer
    assert set(over.totals) == set(seats)
    assert asked["card"] >= 10 * count
    assert asked["row"] >= (0 if shipped else 1)  # preferred: every low card asked its row
    assert (asked["draft"] >= 10 * count) == (variant in (Variant.LOGIC, Variant.TOURNAMENT))


def test_the_shipped_policy_plays_a_game() -> None:
    player = PolicyPlayer()
    assert player.policy.widths[0] in (INPUTS, INPUTS + 104 * 10 + 4 * 2)
    assert player.policy.widths[-1] == OUTPUTS
    for key in ("seed", "data", "code"):
        assert player.policy.metadata[key]
    seats: dict[str, Player] = {"me": player, "a": CautiousPlayer(), "b": CautiousPlayer(),
                                "c": CautiousPlayer()}
    over = play_silently(seats, Rules(), seed=3)
    assert max(over.totals.values()) >= 66


# --- The weights file ----------------------------------------------------------------------


def _refused(path: object) -> Take5Error:
    with pytest.raises(Take5Error) as error:
        load_policy(path)  # type: ignore[arg-type]
    assert error.value.rule == "argument"
    return error.value


def _write(path: Path, metadata: object, **arrays: Any) -> Path:
    payload = dict(arrays)
    if metadata is not None:
        payload["metadata"] = np.array(json.dumps(metadata))
    np.savez(path, **payload)
    return path


def _good(path: Path) -> tuple[dict[str, Any], dict[str, Any]]:
    save_policy(_tiny().__class__(_tiny().layers, _tiny().scale,
                                  {"seed": 1, "data": "hand", "code": "x"}), path)
    with np.load(path) as stored:
        arrays = {name: stored[name] for name in stored.files if name != "metadata"}
        metadata = json.loads(str(stored["metadata"]))
    return arrays, metadata


def test_a_saved_policy_loads_as_it_was(tmp_path: Path) -> None:
    arrays, metadata = _good(tmp_path / "good.npz")
    assert metadata["format"] == FORMAT and metadata["layers"] == [489, 2, 109]
    policy = load_policy(tmp_path / "good.npz")
    x = np.zeros(INPUTS, np.float32)
    x[0], x[ROW0] = 1, 52
    assert np.allclose(policy.logits(x)[[5, 7]], [3.0, 2.9], atol=1e-6)
    assert sorted(arrays) == ["bias0", "bias1", "scale", "weight0", "weight1"]


def test_a_file_that_holds_no_usable_policy_is_refused(tmp_path: Path) -> None:
    arrays, metadata = _good(tmp_path / "good.npz")
    assert "no such file" in _refused(tmp_path / "absent.npz").message
    text = tmp_path / "text.npz"
    text.write_text("not an archive", encoding="utf-8")
    assert "text.npz" in _refused(text).message
    np.save(tmp_path / "one.npy", np.zeros(3))
    _refused(tmp_path / "one.npy")
    truncated = tmp_path / "cut.npz"
    truncated.write_bytes((tmp_path / "good.npz").read_bytes()[:300])
    _refused(truncated)
    assert "metadata" in _refused(_write(tmp_path / "m0.npz", None, **arrays)).message
    _refused(_write(tmp_path / "m1.npz", ["a list"], **arrays))
    _refused(_write(tmp_path / "m2.npz", {**metadata, "format": "other"}, **arrays))
    for key in ("seed", "data", "code"):
        partial = {k: v for k, v in metadata.items() if k != key}
        assert key in _refused(_write(tmp_path / f"k{key}.npz", partial, **arrays)).message
    _refused(_write(tmp_path / "l1.npz", {**metadata, "layers": [489, 3, 109]}, **arrays))
    _refused(_write(tmp_path / "l2.npz", {**metadata, "layers": [489, 109]}, **arrays))
    _refused(_write(tmp_path / "l3.npz", {**metadata, "layers": [489, True, 109]}, **arrays))
    _refused(_write(tmp_path / "l4.npz", {**metadata, "layers": [489, 10**9, 109]}, **arrays))
    wrong = dict(arrays)
    wrong["weight1"] = wrong["weight1"][:, :100]
    _refused(_write(tmp_path / "s1.npz", metadata, **wrong))
    wrong = dict(arrays)
    wrong["bias0"] = np.array([np.nan, 0], np.float32)
    assert "finite" in _refused(_write(tmp_path / "nan.npz", metadata, **wrong)).message
    wrong = dict(arrays)
    wrong["weight0"] = wrong["weight0"].astype(np.int64)
    _refused(_write(tmp_path / "int.npz", metadata, **wrong))
    wrong = dict(arrays)
    wrong["scale"] = wrong["scale"][:10]
    _refused(_write(tmp_path / "scale.npz", metadata, **wrong))
    _refused(_write(tmp_path / "extra.npz", metadata, **arrays, weight9=np.zeros(2)))
    missing = {k: v for k, v in arrays.items() if k != "bias1"}
    _refused(_write(tmp_path / "missing.npz", metadata, **missing))
    with zipfile.ZipFile(tmp_path / "pickle.npz", "w") as packed:
        packed.writestr("metadata.npy", b"\x93NUMPY\x01\x00v\x00{'descr': '|O', "
                        b"'fortran_order': False, 'shape': (), }" + b" " * 60 + b"\n")
    _refused(tmp_path / "pickle.npz")
    _refused(12)


def test_arrays_that_are_no_network_are_refused() -> None:
    good = [np.zeros((INPUTS, 3), np.float32), np.zeros(3, np.float32),
            np.zeros((3, OUTPUTS), np.float32), np.zeros(OUTPUTS, np.float32)]
    for arrays in ([], good[:3], [good[0], good[1], np.zeros((3, 100), np.float32),
                                  np.zeros(100, np.float32)],
                   [np.zeros((400, 3), np.float32), *good[1:]],
                   [good[0], np.zeros(4, np.float32), *good[2:]], "weights"):
        with pytest.raises(Take5Error) as error:
            Policy.from_arrays(arrays)  # type: ignore[arg-type]
        assert error.value.rule == "argument"
    with pytest.raises(Take5Error):
        Policy.from_arrays(good, scale=np.ones(3, np.float32))
    with pytest.raises(Take5Error):
        _tiny().act(np.zeros(INPUTS, np.float32), np.zeros(OUTPUTS, bool))  # nothing legal
    with pytest.raises(Take5Error):
        PolicyPlayer("weights.npz")  # type: ignore[arg-type]


def test_an_empty_hand_or_pool_is_an_argument_error() -> None:
    table = Table.of([[12], [37], [43], [58]])
    player = PolicyPlayer(_tiny())
    with pytest.raises(Take5Error) as error:
        player.choose_card(CardView(1, 1, table, (), {"me": 0}, "me"))
    assert error.value.rule == "argument"
    with pytest.raises(Take5Error) as error:
        player.choose_draft(DraftView(1, 1, (), (), "me", (), {"me": 0}))
    assert error.value.rule == "argument"


# --- No peeking ----------------------------------------------------------------------------


_GAMES: list[Game] = []  # the games _pairs plays, for the peeking player below


@pytest.mark.parametrize("shipped", [True, False], ids=["shipped", "random"])
def test_the_policy_decides_the_same_at_a_table_that_lies_about_the_hidden_cards(
        shipped: bool) -> None:
    pairs = _pairs(PolicyPlayer if shipped else lambda: PolicyPlayer(_contrary(3)), seed=3)
    assert len(pairs) >= 10
    assert all(truthful == lied for truthful, lied in pairs)


def _sensitive(seed: int) -> Policy:
    """A random network that reads the draft's picks strongly (empty in the standard game)."""
    rng = np.random.default_rng(seed)
    w0 = rng.normal(0, 0.1, (INPUTS, 16)).astype(np.float32)
    w0[OBSERVATION_LAYOUT["picked_by"]] = rng.normal(0, 20, (104, 16))
    return Policy.from_arrays([w0, np.zeros(16, np.float32),
                               rng.normal(0, 1, (16, OUTPUTS)).astype(np.float32),
                               np.zeros(OUTPUTS, np.float32)])


def test_the_lying_table_would_catch_a_policy_fed_a_hidden_hand() -> None:
    """The same test catches a player whose vector holds another seat's hand."""

    class Peeking(PolicyPlayer):
        def choose_card(self, view: CardView) -> int:
            hidden = tuple(_GAMES[-1]._hands.get("ana", ()))
            return super().choose_card(CardView(view.round, view.turn, view.table, view.hand,
                                                view.totals, view.player, picks=tuple(
                                                    ("ana", card) for card in hidden)))

    pairs = _pairs(lambda: Peeking(_sensitive(3)), seed=3, games=_GAMES)
    assert any(truthful != lied for truthful, lied in pairs)
    honest = _pairs(lambda: PolicyPlayer(_sensitive(3)), seed=3)
    assert all(truthful == lied for truthful, lied in honest)


# --- Fitted on batch.vector, played in PettingZoo ------------------------------------------


def _fit_on_vector(players: int) -> Policy:
    """A policy fitted to batch.vector's decisions of a teacher: the highest legal card, the
    row of the fewest cards (first of equals)."""
    from training.train import train

    state = vector.init(seed=4, batch=16, players=players, rules=Rules(threshold=30))
    xs, masks, targets = [], [], []
    while not state.terminated.all():
        mask = state.legal_action_mask
        live = ~state.terminated
        teach = np.where(mask[:, :104].any(axis=1),
                         103 - mask[:, :104][:, ::-1].argmax(axis=1),
                         np.where(mask[:, 104:108].any(axis=1), 104, 108))
        xs.append(state.observation[live])
        masks.append(mask[live])
        targets.append(teach[live])
        state = vector.step(state, teach)
    network, _ = train(np.concatenate(xs), np.concatenate(masks), np.concatenate(targets),
                       hidden=[32], epochs=3, batch=64, rate=3e-3, held_out=0.0, seed=1)
    return network.policy({"seed": 1, "data": "batch.vector", "code": "test"})


@pytest.mark.slow
def test_a_policy_fitted_on_batch_vector_plays_the_pettingzoo_env() -> None:
    pettingzoo_env = pytest.importorskip("take5rules.agents.pettingzoo_env",
                                         reason="needs take5rules[env]")
    players = 4
    policy = _fit_on_vector(players)
    env = pettingzoo_env.Take5Env(players, Rules(threshold=30), seed=2)
    names = list(env.possible_agents)
    played = 0
    player = PolicyPlayer(policy)
    while env.agents:
        observation, _, terminated, _, _ = env.last()
        if terminated:
            env.step(None)
            continue
        action = policy.act(observation["observation"], observation["action_mask"])
        assert observation["action_mask"][action] == 1
        game = env.game
        seat = env.agent_selection
        seen = game.observe(seat)
        if seen.phase is Phase.CARDS and seen.table is not None:
            # The player, from its view, makes the env's choice: one encoding for both.
            view = CardView(seen.round, seen.turn, seen.table, seen.hand, seen.totals, seat,
                            seen.revealed, seen.taken, seen.start, seen.picks)
            player.players, player.rules = tuple(names), Rules(threshold=30)
            assert player.choose_card(view) == action + 1
        env.step(action)
        played += 1
    assert played >= 40


# --- The kind ------------------------------------------------------------------------------


def test_policy_is_a_kind_of_the_arena() -> None:
    from take5rules.agents.arena import load_player, run_arena

    player = load_player("policy", 3)
    assert isinstance(player, PolicyPlayer)
    result = run_arena(["policy", "cautious"], games=2, seed=1)
    assert result.games == 2


def test_without_numpy_the_policy_kind_names_the_extra(monkeypatch: pytest.MonkeyPatch) -> None:
    import sys

    from take5rules.agents.arena import load_player

    monkeypatch.setitem(sys.modules, "numpy", None)  # import numpy now fails, as on a plain install
    monkeypatch.delitem(sys.modules, "take5rules.agents.policy")
    with pytest.raises(Take5Error) as error:
        load_player("policy")
    assert error.value.rule == "extra"
    assert "numpy" in error.value.message and "take5rules[batch]" in error.value.message


# --- best: the search guided by the policy ----------------------------------------------------


def test_best_guided_by_the_policy_decides_the_same_at_a_table_that_lies_about_the_hidden_cards(
        ) -> None:
    from take5rules.agents.player_kinds import new_player

    pairs = _pairs(lambda: new_player("best", 7), seed=3)
    assert len(pairs) >= 10
    assert all(truthful == lied for truthful, lied in pairs)


def test_the_lying_table_would_catch_a_guided_search_whose_prior_is_fed_a_hidden_hand() -> None:
    """The same test catches a search whose prior reads another seat's hand."""
    from take5rules.playing.ismcts import ISMCTSPlayer

    class Peeking(PolicyPrior):
        def __call__(self, view: CardView | RowChoice, actions: Sequence[int]) -> list[float]:
            if isinstance(view, CardView):
                view = CardView(view.round, view.turn, view.table, view.hand, view.totals,
                                view.player, picks=tuple(
                                    ("ana", card) for card in _GAMES[-1]._hands.get("ana", ())))
            return super().__call__(view, actions)

    def search(prior: PolicyPrior) -> Player:  # few iterations, a strong prior: it leads
        return ISMCTSPlayer(iterations=12, seed=7, prior=prior, prior_weight=1000.0)

    pairs = _pairs(lambda: search(Peeking(_sensitive(3))), seed=3, games=_GAMES)
    assert any(truthful != lied for truthful, lied in pairs)
    honest = _pairs(lambda: search(PolicyPrior(_sensitive(3))), seed=3)
    assert all(truthful == lied for truthful, lied in honest)


def test_the_prior_is_the_softmax_of_the_policys_logits_over_the_actions_asked() -> None:
    def softmax(values: list[float]) -> list[float]:
        top = max(values)
        return [math.exp(x - top) / sum(math.exp(y - top) for y in values) for x in values]

    view = CardView(1, 1, Table.of([[10], [20], [30], [40]]), (12, 55, 104),
                    {"me": 0, "you": 0}, "me")
    logits = PolicyPlayer().logits(view)
    # cards 12, 55 and 104 are the actions 11, 54 and 103
    expected = softmax([float(logits[11]), float(logits[54]), float(logits[103])])
    assert PolicyPrior()(view, [12, 55, 104]) == pytest.approx(expected, rel=1e-5)
    choice = RowChoice("me", 3, Table.of([[10], [20], [30], [40]]), 1, 1, (55, 104),
                       {"me": 0, "you": 0})
    rows = [float(value) for value in PolicyPlayer().logits(choice)[104:108]]
    assert PolicyPrior()(choice, [0, 1, 2, 3]) == pytest.approx(softmax(rows), rel=1e-5)
    assert PolicyPrior()(choice, [2, 0]) == pytest.approx(softmax([rows[2], rows[0]]), rel=1e-5)


def test_a_prior_steers_the_root_of_the_search() -> None:
    from take5rules.playing.ismcts import ISMCTSPlayer

    # 14 and 38 go safely on their rows; 5 is a low card that takes a row. A prior all on 5,
    # weighted far above any round's bull heads, keeps the search's visits on it.
    view = CardView(1, 1, Table.of([[12], [37], [43], [58]]), (5, 14, 38),
                    {"me": 0, "ana": 0}, player="me")

    def all_on_five(_view: CardView | RowChoice, actions: Sequence[int]) -> list[float]:
        return [1.0 if action == 5 else 0.0 for action in actions]

    assert ISMCTSPlayer(iterations=60, seed=1).choose_card(view) != 5
    steered = ISMCTSPlayer(iterations=60, seed=1, prior=all_on_five, prior_weight=1e6)
    assert steered.choose_card(view) == 5
    assert steered.last_search[5][0] > 50  # visits: all but the first try of each other card


@pytest.mark.parametrize("answer", [[0.5, 0.5], [0.5, 0.5, math.nan], [1.0, -0.5, 0.5],
                                    "abc", None])
def test_a_prior_that_answers_no_probabilities_is_an_argument_error(answer: object) -> None:
    from take5rules.playing.ismcts import ISMCTSPlayer

    view = CardView(1, 1, Table.of([[12], [37], [43], [58]]), (5, 14, 38),
                    {"me": 0, "ana": 0}, player="me")
    player = ISMCTSPlayer(iterations=10, prior=lambda _view, _actions: answer)  # type: ignore[arg-type, return-value]
    with pytest.raises(Take5Error) as error:
        player.choose_card(view)
    assert error.value.rule == "argument" and "prior" in error.value.message


@pytest.mark.parametrize(("prior", "weight"), [("softmax", 20.0), (None, -1.0),
                                               (None, math.inf), (None, "20")])
def test_a_prior_or_weight_of_the_wrong_kind_is_an_argument_error(prior: object,
                                                                 weight: object) -> None:
    from take5rules.playing.ismcts import ISMCTSPlayer

    with pytest.raises(Take5Error) as error:
        ISMCTSPlayer(prior=prior, prior_weight=weight)  # type: ignore[arg-type]
    assert error.value.rule == "argument"


def test_best_is_the_search_guided_by_the_policy_and_without_numpy_the_plain_search(
        monkeypatch: pytest.MonkeyPatch) -> None:
    import sys

    from take5rules.agents.player_kinds import new_player
    from take5rules.playing.ismcts import ISMCTSPlayer

    guided = new_player("best", 3)
    assert isinstance(guided, ISMCTSPlayer) and isinstance(guided.prior, PolicyPrior)
    assert guided.seed == 3 and guided.iterations == 350
    monkeypatch.setitem(sys.modules, "numpy", None)  # import numpy now fails, as on a plain install
    monkeypatch.delitem(sys.modules, "take5rules.agents.policy")
    plain = new_player("best", 3)
    assert isinstance(plain, ISMCTSPlayer) and plain.prior is None and plain.iterations == 350


def test_the_guided_search_tells_its_prior_the_games_events() -> None:
    from take5rules.playing.engine import play_game
    from take5rules.playing.ismcts import ISMCTSPlayer

    prior = PolicyPrior()
    rules = Rules(Variant.TACTICS, threshold=20)
    for _ in play_game({"me": ISMCTSPlayer(iterations=8, prior=prior),
                        "ana": CautiousPlayer()}, rules, seed=2):
        pass
    assert prior.player.players == ("me", "ana") and prior.player.rules == rules
