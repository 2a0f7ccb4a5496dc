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
from collections.abc import Sequence
from dataclasses import dataclass, field

import numpy as np
import numpy.typing as npt

from take5rules.agents.encoding import ACTIONS, SIZE
from take5rules.agents.policy import Policy, default_scale

__all__ = ["Network", "TrainingReport", "accuracy", "loss_and_gradients", "train"]

Floats = npt.NDArray[np.float32]


@dataclass
class Network:
    """The trainable arrays: weight 0, bias 0, weight 1, bias 1, ... and the input scale."""

    arrays: list[Floats]
    scale: Floats

    @classmethod
    def initial(cls, hidden: Sequence[int], seed: int) -> Network:
        """He-initialised weights (zero biases) for hidden layers of widths *hidden*."""
        rng = np.random.default_rng(seed)
        widths = [SIZE, *hidden, ACTIONS]
        arrays: list[Floats] = []
        for inputs, outputs in itertools.pairwise(widths):
            arrays.append((rng.standard_normal((inputs, outputs))
                           * np.sqrt(2 / inputs)).astype(np.float32))
            arrays.append(np.zeros(outputs, np.float32))
        return cls(arrays, default_scale())

    def policy(self, metadata: dict[str, object] | None = None) -> Policy:
        """The network as the player's :class:`~take5rules.agents.policy.Policy`."""
        return Policy.from_arrays(self.arrays, self.scale, metadata)


def _forward(network: Network, x: Floats) -> tuple[list[Floats], Floats]:
    """The inputs of every layer (the scaled observation first) and the logits."""
    hidden = x * network.scale
    inputs = [hidden]
    last = len(network.arrays) // 2 - 1
    for index in range(last + 1):
        hidden = hidden @ network.arrays[2 * index] + network.arrays[2 * index + 1]
        if index < last:
            hidden = np.maximum(hidden, 0)
            inputs.append(hidden)
    return inputs, hidden


def _masked_log_softmax(logits: Floats, legal: npt.NDArray[np.bool_]) -> Floats:
    shifted = np.where(legal, logits, -np.inf)
    shifted = shifted - shifted.max(axis=1, keepdims=True)
    result: Floats = shifted - np.log(np.exp(shifted).sum(axis=1, keepdims=True))
    return result


def loss_and_gradients(network: Network, x: Floats, legal: npt.NDArray[np.bool_],
                       actions: npt.NDArray[np.int64], decay: float = 0.0
                       ) -> tuple[float, list[Floats]]:
    """The loss of a minibatch and its gradient with respect to every array of *network*.

    The loss is the mean masked cross-entropy plus ``decay / 2`` times the sum of the weights'
    squares; the gradients come in the order of ``network.arrays``.
    """
    inputs, logits = _forward(network, x)
    size = actions.size
    log_p = _masked_log_softmax(logits, legal)
    loss = float(-log_p[np.arange(size), actions].mean())
    delta = np.where(legal, np.exp(log_p), 0).astype(np.float32)
    delta[np.arange(size), actions] -= 1
    delta /= size
    gradients: list[Floats] = [np.empty(0, np.float32)] * len(network.arrays)
    for index in range(len(network.arrays) // 2 - 1, -1, -1):
        weight = network.arrays[2 * index]
        gradients[2 * index] = inputs[index].T @ delta + decay * weight
        gradients[2 * index + 1] = delta.sum(axis=0)
        loss += 0.5 * decay * float((weight.astype(np.float64) ** 2).sum())
        if index:
            delta = (delta @ weight.T) * (inputs[index] > 0)
    return loss, gradients


def accuracy(network: Network, x: Floats, legal: npt.NDArray[np.bool_],
             actions: npt.NDArray[np.int64]) -> float:
    """The share of decisions where the network's best legal action is the search's."""
    _, logits = _forward(network, x)
    chosen = np.where(legal, logits, -np.inf).argmax(axis=1)
    return float((chosen == actions).mean()) if actions.size else 0.0


@dataclass
class TrainingReport:
    """What the training measured: per epoch, the training loss, held-out loss and accuracy."""

    train_loss: list[float] = field(default_factory=list)
    held_out_loss: list[float] = field(default_factory=list)
    held_out_accuracy: list[float] = field(default_factory=list)
    steps: int = 0


def train(x: Floats, legal: npt.NDArray[np.bool_], actions: npt.NDArray[np.int64], *,
          hidden: Sequence[int] = (256, 256), epochs: int = 20, batch: int = 256,
          rate: float = 1e-3, decay: float = 1e-5, held_out: float = 0.1, seed: int = 0,
          network: Network | None = None, log: bool = False
          ) -> tuple[Network, TrainingReport]:
    """Fit a network to the decisions by minibatch Adam; return it and what was measured.

    *held_out* of the decisions (drawn from the seed) are kept out of the training and
    measured after each epoch; the rate falls linearly to a tenth over the epochs.
    """
    rng = np.random.default_rng(seed)
    network = network or Network.initial(hidden, seed)
    order = rng.permutation(actions.size)
    cut = round(actions.size * held_out)
    test, fit = order[:cut], order[cut:]
    first = [np.zeros_like(array) for array in network.arrays]
    second = [np.zeros_like(array) for array in network.arrays]
    beta1, beta2, epsilon = 0.9, 0.999, 1e-8
    report = TrainingReport()
    for epoch in range(epochs):
        step_rate = rate * (1 - 0.9 * epoch / max(1, epochs - 1))
        shuffled = fit[rng.permutation(fit.size)]
        losses = []
        for start in range(0, shuffled.size, batch):
            chosen = shuffled[start : start + batch]
            loss, gradients = loss_and_gradients(network, x[chosen], legal[chosen],
                                                  actions[chosen], decay)
            losses.append(loss)
            report.steps += 1
            t = report.steps
            for index, gradient in enumerate(gradients):
                first[index] = beta1 * first[index] + (1 - beta1) * gradient
                second[index] = beta2 * second[index] + (1 - beta2) * gradient * gradient
                step = (step_rate * (first[index] / (1 - beta1**t))
                        / (np.sqrt(second[index] / (1 - beta2**t)) + epsilon))
                network.arrays[index] = (network.arrays[index] - step).astype(np.float32)
        report.train_loss.append(float(np.mean(losses)) if losses else 0.0)
        if test.size:
            loss, _ = loss_and_gradients(network, x[test], legal[test], actions[test])
            report.held_out_loss.append(loss)
            report.held_out_accuracy.append(accuracy(network, x[test], legal[test],
                                                     actions[test]))
        if log:
            held = (f", held out {report.held_out_loss[-1]:.3f} "
                    f"({100 * report.held_out_accuracy[-1]:.1f}% the search's action)"
                    if test.size else "")
            print(f"  epoch {epoch + 1}/{epochs}: loss {report.train_loss[-1]:.3f}{held}",
                  flush=True)
    return network, report
