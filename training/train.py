"""Imitation training of the policy network, in numpy: the search's actions as targets.

The network is the one :class:`take5rules.agents.policy.Policy` plays: the observation times a
fixed scale, hidden layers with ReLU, one logit per action. The loss is the cross-entropy of the
search's action under the softmax of the logits over the *legal* actions only (an illegal
action's logit never counts), averaged over a minibatch, plus an L2 penalty on the weights. The
gradient is written out by hand (``tests/test_training.py`` checks it against finite
differences) and followed with Adam. Everything is drawn from the seed: the initial weights,
the split into training and held-out decisions, the order of the minibatches.

Why numpy and not PyTorch: PyTorch from PyPI on Linux brings the CUDA libraries (some
gigabytes) even to train on a CPU; a network this small trains in minutes with numpy alone.
"""

from __future__ import annotations

import itertools
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field

import numpy as np
import numpy.typing as npt

from take5rules.agents.encoding import ACTIONS, OBSERVATION_LAYOUT, ROW_ACTIONS, SIZE
from take5rules.agents.policy import (
    CARD_FEATURES,
    FEATURES,
    ROW_FEATURES,
    Pass,
    Policy,
    default_scale,
    forward,
)
from take5rules.cards import HIGHEST
from take5rules.table import ROW_LIMIT

__all__ = ["Network", "TrainingReport", "accuracy", "loss_and_gradients", "shuffle_rows", "train"]

Floats = npt.NDArray[np.float32]


@dataclass
class Network:
    """The trainable arrays: weight 0, bias 0, weight 1, bias 1, ... and the input scale."""

    arrays: list[Floats]
    scale: Floats
    skip: Floats | None = None
    #: The card head (:data:`take5rules.agents.policy.HEAD_ARRAYS`), if any.
    head: list[Floats] | None = None

    @classmethod
    def initial(cls, hidden: Sequence[int], seed: int, features: bool = True,
                head: int = 0) -> Network:
        """He-initialised weights (zero biases, zero skip) for hidden layers of widths *hidden*.

        With *features*, the first layer reads the placement features too, and the skip adds
        them to the card and row logits; with *head* units too, a card head (its output
        weights zero, so that it adds nothing at first).
        """
        rng = np.random.default_rng(seed)
        widths = [SIZE + (FEATURES if features else 0), *hidden, ACTIONS]
        arrays: list[Floats] = []
        for inputs, outputs in itertools.pairwise(widths):
            arrays.append((rng.standard_normal((inputs, outputs))
                           * np.sqrt(2 / inputs)).astype(np.float32))
            arrays.append(np.zeros(outputs, np.float32))
        skip = np.zeros(CARD_FEATURES + ROW_FEATURES, np.float32) if features else None
        heads = None
        if features and head:
            read = widths[-2]
            heads = [(rng.standard_normal((CARD_FEATURES, head))
                      * np.sqrt(2 / CARD_FEATURES)).astype(np.float32),
                     (rng.standard_normal((read, head)) * np.sqrt(0.5 / read)).astype(np.float32),
                     np.zeros(head, np.float32), np.zeros(head, np.float32)]
        return cls(arrays, default_scale(), skip, heads)

    @property
    def parameters(self) -> list[Floats]:
        """Every trainable array: the layers', then the skip if any, then the head's if any."""
        return [*self.arrays, *([] if self.skip is None else [self.skip]),
                *(self.head or [])]

    def set_parameters(self, values: Sequence[Floats]) -> None:
        """Replace every trainable array, in the order of :attr:`parameters`."""
        count = len(self.arrays)
        self.arrays = list(values[:count])
        rest = list(values[count:])
        if self.skip is not None:
            self.skip = rest.pop(0)
        if self.head is not None:
            self.head = rest

    def policy(self, metadata: dict[str, object] | None = None) -> Policy:
        """The network as the player's :class:`~take5rules.agents.policy.Policy`."""
        return Policy.from_arrays(self.arrays, self.scale, metadata, self.skip, self.head)


def _forward(network: Network, x: Floats) -> Pass:
    """The player's own forward pass (:func:`take5rules.agents.policy.forward`) of *network*."""
    pairs = list(zip(network.arrays[::2], network.arrays[1::2], strict=True))
    return forward(pairs, network.scale, network.skip, network.head, x)


def _masked_log_softmax(logits: Floats, legal: npt.NDArray[np.bool_]) -> Floats:
    shifted = np.where(legal, logits, -np.inf)
    shifted = shifted - shifted.max(axis=1, keepdims=True)
    result: Floats = shifted - np.log(np.exp(shifted).sum(axis=1, keepdims=True))
    return result


def loss_and_gradients(network: Network, x: Floats, legal: npt.NDArray[np.bool_],
                       actions: npt.NDArray[np.int64], decay: float = 0.0,
                       targets: Floats | None = None) -> tuple[float, list[Floats]]:
    """The loss of a minibatch and its gradient with respect to every array of *network*.

    The loss is the mean masked cross-entropy of the *targets* (a distribution over the legal
    actions for each decision; by default all on *actions*) plus ``decay / 2`` times the sum
    of the weights' squares; the gradients come in the order of ``network.arrays``.
    """
    inputs, logits, cards_in, rows_in, units = _forward(network, x)
    size = actions.size
    log_p = _masked_log_softmax(logits, legal)
    delta = np.where(legal, np.exp(log_p), 0).astype(np.float32)
    if targets is None:
        loss = float(-log_p[np.arange(size), actions].mean())
        delta[np.arange(size), actions] -= 1
    else:
        # An illegal action has no probability (log -inf) and no share: it adds nothing.
        loss = float(-(targets * np.where(legal, log_p, 0)).sum(axis=1).mean())
        delta -= targets
    delta /= size
    gradients: list[Floats] = [np.empty(0, np.float32)] * len(network.parameters)
    count = len(network.arrays)
    into_read = None  # the card head's gradient with respect to what the last layer reads
    if cards_in is not None and rows_in is not None:
        cards = delta[:, :HIGHEST]
        gradients[count] = np.concatenate([
            np.einsum("nck,nc->k", cards_in, cards),
            np.einsum("nrk,nr->k", rows_in, delta[:, ROW_ACTIONS : ROW_ACTIONS + 4])])
        if network.head is not None and units is not None:
            from_features, from_hidden, _, out = network.head
            inner = cards[:, :, None] * out * (units > 0)  # (n, 104, k)
            summed = inner.sum(axis=1)
            gradients[count + 1] = (np.einsum("ncf,nck->fk", cards_in, inner)
                                    + decay * from_features)
            gradients[count + 2] = inputs[-1].T @ summed + decay * from_hidden
            gradients[count + 3] = summed.sum(axis=0)
            gradients[count + 4] = np.einsum("nck,nc->k", units, cards)
            into_read = summed @ from_hidden.T
            loss += 0.5 * decay * float((from_features.astype(np.float64) ** 2).sum()
                                        + (from_hidden.astype(np.float64) ** 2).sum())
    last = count // 2 - 1
    for index in range(last, -1, -1):
        weight = network.arrays[2 * index]
        gradients[2 * index] = inputs[index].T @ delta + decay * weight
        gradients[2 * index + 1] = delta.sum(axis=0)
        loss += 0.5 * decay * float((weight.astype(np.float64) ** 2).sum())
        if index:
            delta = delta @ weight.T
            if index == last and into_read is not None:
                delta += into_read
            delta *= inputs[index] > 0
    return loss, gradients


def accuracy(network: Network, x: Floats, legal: npt.NDArray[np.bool_],
             actions: npt.NDArray[np.int64]) -> float:
    """The share of decisions where the network's best legal action is the search's."""
    logits = _forward(network, x).logits
    chosen = np.where(legal, logits, -np.inf).argmax(axis=1)
    return float((chosen == actions).mean()) if actions.size else 0.0


_ROWS = OBSERVATION_LAYOUT["rows"].start
_LENGTHS = OBSERVATION_LAYOUT["row_lengths"].start
_HEADS = OBSERVATION_LAYOUT["row_heads"].start


def shuffle_rows(x: Floats, legal: npt.NDArray[np.bool_], actions: npt.NDArray[np.int64],
                 rng: np.random.Generator, targets: Floats | None = None,
                 ) -> tuple[Floats, npt.NDArray[np.bool_], npt.NDArray[np.int64], Floats | None]:
    """The same decisions with the four rows in another order, drawn for each decision.

    The rules do not depend on the order of the rows: the row that holds what row *r* held
    before is now row ``order[r]``, its cards, length and bull heads move with it, and so does
    the action that takes it (``ROW_ACTIONS + r``), in the mask and in the *targets* (if
    given). The card actions stay.
    """
    size = actions.size
    order = rng.permuted(np.tile(np.arange(4), (size, 1)), axis=1)  # new place of old row r
    source = np.argsort(order, axis=1)  # the old row now at place r
    columns = np.tile(np.arange(x.shape[1]), (size, 1))
    for part, width in ((_ROWS, ROW_LIMIT), (_LENGTHS, 1), (_HEADS, 1)):
        for place in range(4):
            for offset in range(width):
                columns[:, part + place * width + offset] = part + source[:, place] * width + offset
    moved = np.take_along_axis(x, columns, axis=1)
    action_columns = np.tile(np.arange(ACTIONS), (size, 1))
    action_columns[:, ROW_ACTIONS : ROW_ACTIONS + 4] = ROW_ACTIONS + source
    allowed = np.take_along_axis(legal, action_columns, axis=1)
    aimed = None if targets is None else np.take_along_axis(targets, action_columns, axis=1)
    rows = (actions >= ROW_ACTIONS) & (actions < ROW_ACTIONS + 4)
    taken = np.where(rows, actions, ROW_ACTIONS) - ROW_ACTIONS
    new_actions = np.where(rows, ROW_ACTIONS + order[np.arange(size), taken], actions)
    return moved, allowed, new_actions, aimed


#: The held-out decisions measured at once (in parts of this many).
_MEASURED = 2048


@dataclass
class TrainingReport:
    """What the training measured: per epoch, the training loss, held-out loss and accuracy."""

    train_loss: list[float] = field(default_factory=list)
    held_out_loss: list[float] = field(default_factory=list)
    held_out_accuracy: list[float] = field(default_factory=list)
    steps: int = 0


def train(x: Floats, legal: npt.NDArray[np.bool_], actions: npt.NDArray[np.int64], *,
          targets: Floats | None = None,
          hidden: Sequence[int] = (256, 256), features: bool = True, epochs: int = 20,
          batch: int = 256,
          rate: float = 1e-3, decay: float = 1e-5, held_out: float = 0.1, seed: int = 0,
          network: Network | None = None, augment: bool = True, log: bool = False,
          after_epoch: Callable[[int, Network, TrainingReport], None] | None = None,
          head: int = 0) -> tuple[Network, TrainingReport]:
    """Fit a network to the decisions by minibatch Adam; return it and what was measured.

    *held_out* of the decisions (drawn from the seed) are kept out of the training and
    measured after each epoch; the rate falls linearly to a tenth over the epochs. With
    *augment*, each minibatch has its rows in an order drawn for each decision
    (:func:`shuffle_rows`). *after_epoch*, if given, is called after each epoch with the
    epoch's number (1 the first), the network and the report so far (to keep checkpoints).
    A new network (no *network* given) has a card head of *head* units if *head* is above 0.
    """
    rng = np.random.default_rng(seed)
    network = network or Network.initial(hidden, seed, features, head)
    order = rng.permutation(actions.size)
    cut = round(actions.size * held_out)
    test, fit = order[:cut], order[cut:]
    first = [np.zeros_like(array) for array in network.parameters]
    second = [np.zeros_like(array) for array in network.parameters]
    beta1, beta2, epsilon = 0.9, 0.999, 1e-8
    report = TrainingReport()
    for epoch in range(epochs):
        step_rate = rate * (1 - 0.9 * epoch / max(1, epochs - 1))
        shuffled = fit[rng.permutation(fit.size)]
        losses = []
        for start in range(0, shuffled.size, batch):
            chosen = shuffled[start : start + batch]
            inputs, allowed, chosen_actions = x[chosen], legal[chosen], actions[chosen]
            aimed = None if targets is None else targets[chosen]
            if augment:
                inputs, allowed, chosen_actions, aimed = shuffle_rows(
                    inputs, allowed, chosen_actions, rng, aimed)
            loss, gradients = loss_and_gradients(network, inputs, allowed, chosen_actions,
                                                 decay, aimed)
            losses.append(loss)
            report.steps += 1
            t = report.steps
            moved: list[Floats] = []
            for index, (gradient, value) in enumerate(zip(gradients, network.parameters,
                                                          strict=True)):
                first[index] = beta1 * first[index] + (1 - beta1) * gradient
                second[index] = beta2 * second[index] + (1 - beta2) * gradient * gradient
                step = (step_rate * (first[index] / (1 - beta1**t))
                        / (np.sqrt(second[index] / (1 - beta2**t)) + epsilon))
                moved.append((value - step).astype(np.float32))
            network.set_parameters(moved)
        report.train_loss.append(float(np.mean(losses)) if losses else 0.0)
        if test.size:
            loss, right = 0.0, 0.0
            for start in range(0, test.size, _MEASURED):  # in parts: the head's units are big
                part = test[start : start + _MEASURED]
                part_loss, _ = loss_and_gradients(
                    network, x[part], legal[part], actions[part],
                    targets=None if targets is None else targets[part])
                loss += part_loss * part.size
                right += accuracy(network, x[part], legal[part], actions[part]) * part.size
            report.held_out_loss.append(loss / test.size)
            report.held_out_accuracy.append(right / test.size)
        if log:
            held = (f", held out {report.held_out_loss[-1]:.3f} "
                    f"({100 * report.held_out_accuracy[-1]:.1f}% the search's action)"
                    if test.size else "")
            print(f"  epoch {epoch + 1}/{epochs}: loss {report.train_loss[-1]:.3f}{held}",
                  flush=True)
        if after_epoch is not None:
            after_epoch(epoch + 1, network, report)
    return network, report
