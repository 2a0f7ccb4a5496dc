"""A learned policy: a small network over the one encoding, played by :class:`PolicyPlayer`.

The network is a multilayer perceptron read from one ``.npz`` file: the observation vector of
:mod:`take5rules.agents.encoding` (489 numbers) is multiplied by a fixed per-entry ``scale``,
then goes through hidden layers with ReLU, and the last layer gives one logit per action (109).
It may also read :func:`placement_features`, worked out of the same vector: for every card,
where it would go on the rows now (a low card, the distance, the row's length, a sixth card and
its bull heads) and how many cards the seat cannot see could land before it, and for every row
its bull heads and length. With them, a *skip* of 12 weights adds each card's features to its
own logit and each row's to its row action's, and a *card head* adds to each card's logit a
small network of its features and of the last hidden layer: the same weights for every card
and row (what a card costs is much the same rule for every card, which a perceptron over the
raw vector learns slowly).
The legal-action mask is applied before the choice: an illegal action gets no probability at all,
so the policy never answers illegally, whatever its weights. Inference is numpy alone, one
forward pass per decision; training is elsewhere (``training/`` in the repository).

The file holds the arrays ``scale``, ``weight0``, ``bias0``, ``weight1``, ``bias1``, ... (and
``skip`` with the features, and the card head's four arrays :data:`HEAD_ARRAYS` if it has one)
and ``metadata``, a JSON text: the ``format`` (:data:`FORMAT`), the ``layers`` (the widths,
489 or 489 + 1,048 first and 109 last), and how the weights were made
(the training ``seed``, the ``data``, the ``code`` version, a git commit).
:func:`load_policy` checks all of it: a file that is missing, corrupt, of another shape or
not finite is refused with an ``argument`` error, never used.

:class:`PolicyPlayer` decides cards, rows and draft picks in every variant and at 2 to 10 seats
from its view alone (what :func:`~take5rules.agents.encoding.encode_view` encodes). The weights
shipped with the package (:data:`SHIPPED`) are its default.

>>> policy = Policy.from_arrays([np.eye(SIZE, 3, dtype=np.float32), np.zeros(3, np.float32),
...                              np.ones((3, ACTIONS), np.float32), np.arange(ACTIONS,
...                              dtype=np.float32)])
>>> legal = np.zeros(ACTIONS, bool); legal[[4, 17, 60]] = True
>>> policy.act(np.zeros(SIZE, np.float32), legal)  # the highest logit among the legal ones
60
"""

from __future__ import annotations

import functools
import itertools
import json
import zipfile
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from importlib import resources
from pathlib import Path
from typing import Any, NamedTuple

try:
    import numpy as np
    import numpy.typing as npt
except ModuleNotFoundError as absent:  # a plain install: say which extra, in one line
    from take5rules.text.extras import missing_extra

    raise missing_extra(__name__, absent, "batch") from None

from take5rules import _kernel
from take5rules._messages import N_
from take5rules.agents.arguments import ARGUMENT, shown
from take5rules.agents.encoding import (
    ACTIONS,
    OBSERVATION_LAYOUT,
    ROW_ACTIONS,
    SIZE,
    encode,
    encode_view,
)
from take5rules.cards import Card
from take5rules.errors import MalformedInputError
from take5rules.events import Event, GameStarted
from take5rules.playing.players import (
    CardView,
    DraftView,
    RowChoice,
    check_draft_view,
    check_view,
    empty_hand,
    empty_pool,
)
from take5rules.playing.stepper import Observation, Phase
from take5rules.setup import ROWS
from take5rules.table import ROW_LIMIT
from take5rules.variants import Rules, Variant

__all__ = [
    "CARD_FEATURES",
    "FEATURES",
    "FORMAT",
    "HEAD_ARRAYS",
    "MOST_PARAMETERS",
    "ROW_FEATURES",
    "SHIPPED",
    "Pass",
    "Policy",
    "PolicyPlayer",
    "PolicyPrior",
    "default_scale",
    "forward",
    "load_policy",
    "placement_features",
    "save_policy",
    "shipped_policy",
    "view_vector",
]

#: The name of the file format, in the metadata of every weights file.
FORMAT = "take5rules-policy-2"
#: The most numbers a network may hold (a file claiming more is refused unread): 4 million.
MOST_PARAMETERS = 4_000_000
#: The most bytes the arrays of a weights file may take, unpacked (refused unread beyond).
_MOST_BYTES = 4 * MOST_PARAMETERS + 1_000_000
#: The file of the weights shipped with the package (in ``take5rules/agents/weights/``).
SHIPPED = "policy.npz"

#: What each part of the observation is divided by before the network reads it: 1 for the
#: 0/1 parts, the largest usual value for the others, so that every input is about 0 to 1.
_DIVISORS = {
    "rows": 104, "row_lengths": 5, "row_heads": 20, "picked_by": 10, "pending": 104,
    "pending_seat": 10, "laid": 104, "round": 10, "turn": 10, "seats": 10, "penalties": 30,
    "totals": 66, "threshold": 66,
}

#: The most characters of a file's path an error shows (the last ones).
_SHOWN = 80
#: What a network built from arrays is called in an error (a file is named by its path).
_FROM_ARRAYS = "Policy.from_arrays"


#: Per card, the numbers :func:`placement_features` works out of where it would go now.
CARD_FEATURES = 10
#: Per row, the numbers :func:`placement_features` gives: its bull heads and its length.
ROW_FEATURES = 2
#: The width of the placement features: 104 cards and 4 rows.
FEATURES = _kernel.HIGHEST * CARD_FEATURES + ROWS * ROW_FEATURES
#: The arrays of the card head in a weights file: ``(10, k)`` from a card's features, ``(h, k)``
#: from the last hidden layer (``h`` wide), ``(k,)`` biases, ``(k,)`` from its k units to the
#: card's logit.
HEAD_ARRAYS = ("head_features", "head_context", "head_bias", "head_out")
_CARD_VALUES = np.arange(1, _kernel.HIGHEST + 1, dtype=np.float32)
_CARD_HEADS = np.array(_kernel.HEADS[1:], dtype=np.float32)


def placement_features(observations: npt.ArrayLike) -> tuple[
        npt.NDArray[np.float32], npt.NDArray[np.float32]]:
    """Where each card would go on the rows of the observations: the network's second input.

    Worked out of the observation vector alone (its ``rows``, ``row_lengths``, ``row_heads``,
    ``hand``, ``seen`` and ``seats``), for every card 1 to 104 whether held or not. Per card:

    0. 1 if it is below every row's last card (a low card);
    1. its distance to the last card of the row it would go on, over 104;
    2. that row's length over 5;
    3. 1 if it would be that row's sixth card;
    4. that row's bull heads over 20 if so;
    5. the fewest bull heads of a row over 20 if it is a low card;
    6. its own bull heads over 7;
    7. the *unseen* cards between that row's last card and it (below it, for a low card), over
       20: the cards the seat cannot see, neither in its hand, nor revealed this round, nor on
       the rows, so in another hand or out of the game;
    8. how many of the other seats' cards this turn would land there, if each played a card
       drawn evenly from the unseen ones: the other seats times the unseen cards there over
       all the unseen cards;
    9. the chance, under the same draw, that at least as many land there as the row has places
       left (for a low card: at least one), so that the card would take the row; 1 for a sixth
       card.

    Per row: its bull heads over 20 and its length over 5. With no rows laid (a draft), every
    number but the cards' own bull heads is 0.

    Returns:
        ``(n, 104, 10)`` and ``(n, 4, 2)`` float32 arrays, for ``n`` observations.

    >>> vector = np.zeros(SIZE, np.float32)
    >>> vector[OBSERVATION_LAYOUT["rows"]] = [10, 20, 0, 0, 0, 30, 0, 0, 0, 0,
    ...                                       40, 0, 0, 0, 0, 50, 51, 52, 53, 54]
    >>> vector[OBSERVATION_LAYOUT["row_lengths"]] = [2, 1, 1, 5]
    >>> vector[OBSERVATION_LAYOUT["row_heads"]] = [4, 3, 3, 5]
    >>> vector[OBSERVATION_LAYOUT["seats"]] = 4
    >>> vector[OBSERVATION_LAYOUT["hand"].start + 25 - 1] = 1  # the seat holds 25 and 35
    >>> vector[OBSERVATION_LAYOUT["hand"].start + 35 - 1] = 1
    >>> cards, rows = placement_features(vector)
    >>> [round(float(value), 3) for value in cards[0, 55 - 1]]  # 55 is the sixth card of row 4
    [0.0, 0.01, 1.0, 1.0, 0.25, 0.0, 1.0, 0.0, 0.0, 1.0]

    Card 5 is low (the cheapest row has 3 bull heads). Cards 1 to 4 are unseen, of the 93
    unseen cards (104, less 2 in the hand and 9 on the rows): 3 other seats would play about
    3 x 4 / 93 = 0.129 of them, and at least one with the chance 1 - (89/93)^3 = 0.124.

    >>> [round(float(value), 3) for value in cards[0, 5 - 1]]
    [1.0, 0.0, 0.0, 0.0, 0.0, 0.15, 0.286, 0.2, 0.129, 0.124]

    Card 25 goes on 20 (2 cards): 21 to 24 are unseen, and all three others would have to
    play there to fill the row's 3 places left first: (4/93)^3 = 0.00008.

    >>> [round(float(value), 5) for value in cards[0, 25 - 1, 7:]]
    [0.2, 0.12903, 8e-05]
    """
    vectors = np.atleast_2d(np.asarray(observations, dtype=np.float32))
    size = vectors.shape[0]
    cells = vectors[:, OBSERVATION_LAYOUT["rows"]].reshape(size, ROWS, ROW_LIMIT)
    lengths = vectors[:, OBSERVATION_LAYOUT["row_lengths"]].astype(np.int64)
    heads = vectors[:, OBSERVATION_LAYOUT["row_heads"]]
    laid = (lengths > 0).all(axis=1)
    last = np.take_along_axis(cells, np.maximum(lengths - 1, 0)[:, :, None], axis=2)[:, :, 0]
    below = last[:, None, :] < _CARD_VALUES[None, :, None]  # (n, 104, 4): row r's last < c
    ends = np.where(below, last[:, None, :], -1.0)
    target = ends.argmax(axis=2)  # the row each card goes on (when not low)
    low = ~below.any(axis=2)
    chosen_length = np.take_along_axis(lengths, target, axis=1)
    chosen_heads = np.take_along_axis(heads, target, axis=1)
    sixth = ~low & (chosen_length >= ROW_LIMIT)
    cards = np.zeros((size, _kernel.HIGHEST, CARD_FEATURES), np.float32)
    cards[:, :, 0] = low
    cards[:, :, 1] = np.where(low, 0, _CARD_VALUES[None, :] - ends.max(axis=2)) / 104
    cards[:, :, 2] = np.where(low, 0, chosen_length) / ROW_LIMIT
    cards[:, :, 3] = sixth
    cards[:, :, 4] = np.where(sixth, chosen_heads, 0) / 20
    cards[:, :, 5] = np.where(low, heads.min(axis=1)[:, None], 0) / 20
    # Card counting: the cards this seat cannot see (not in its hand, not revealed, not on the
    # rows) that lie between the row's last card and this card (below it, for a low card).
    hand = vectors[:, OBSERVATION_LAYOUT["hand"]] > 0
    seen = vectors[:, OBSERVATION_LAYOUT["seen"]] > 0
    on_rows = np.zeros((size, _kernel.HIGHEST + 1), bool)
    np.put_along_axis(on_rows, cells.reshape(size, -1).astype(np.int64), True, axis=1)
    unknown = ~(hand | seen | on_rows[:, 1:])
    below_count = np.concatenate([np.zeros((size, 1), np.int64),
                                  np.cumsum(unknown, axis=1)], axis=1)  # [k]: unknown <= k
    ends_at = np.where(low, 0, ends.max(axis=2)).astype(np.int64)
    gap = (below_count[:, :_kernel.HIGHEST]
           - np.take_along_axis(below_count, ends_at, axis=1)).astype(np.float32)
    others = np.maximum(vectors[:, OBSERVATION_LAYOUT["seats"]][:, :1] - 1, 0)
    share = gap / np.maximum(below_count[:, -1:], 1)
    cards[:, :, 7] = gap / 20
    cards[:, :, 8] = others * share
    need = np.where(low, 1, np.maximum(ROW_LIMIT - chosen_length, 0))
    cards[:, :, 9] = _at_least(others, np.minimum(share, 0.999), need)
    cards[~laid] = 0
    cards[:, :, 6] = _CARD_HEADS / 7
    rows = np.stack([heads / 20, lengths / ROW_LIMIT], axis=2).astype(np.float32)
    return cards, rows


def _at_least(trials: npt.NDArray[np.float32], chance: npt.NDArray[np.float32],
              need: npt.NDArray[np.int64]) -> npt.NDArray[np.float32]:
    """P(at least *need* successes in *trials* draws of probability *chance*), elementwise."""
    term = (1 - chance) ** trials  # P(0 successes)
    below = np.zeros_like(chance)
    ratio = chance / (1 - chance)
    for count in range(ROW_LIMIT):
        below += np.where(count < need, term, 0)
        term = term * np.maximum(trials - count, 0) / (count + 1) * ratio
    result: npt.NDArray[np.float32] = np.clip(1 - below, 0, 1).astype(np.float32)
    return result


def default_scale() -> npt.NDArray[np.float32]:
    """The input scale of a new network: 1 over each part's divisor (1 for the 0/1 parts).

    >>> scale = default_scale()
    >>> scale.shape, round(104 * float(scale[OBSERVATION_LAYOUT["rows"].start]), 6)
    ((489,), 1.0)
    """
    scale = np.ones(SIZE, dtype=np.float32)
    for name, divisor in _DIVISORS.items():
        scale[OBSERVATION_LAYOUT[name]] = 1 / divisor
    return scale


def _refuse(template: str, source: object, **params: Any) -> MalformedInputError:
    """The ``argument`` error of weights that cannot be used; *source* the file or the call."""
    text = str(source)
    text = text if len(text) <= _SHOWN else "…" + text[-_SHOWN:]  # a file's name is at the end
    return MalformedInputError(ARGUMENT, template, source=repr(text), **params)


def _kept(array: npt.NDArray[Any]) -> npt.NDArray[np.float32]:
    """A read-only float32 copy of *array*, its subnormal numbers made 0.

    A number below float32's smallest normal one (about 1.2e-38) changes no logit, and on some
    processors every product with one is many times slower: training leaves thousands of them.
    """
    kept = np.array(array, dtype=np.float32)  # a copy of its own
    kept[np.abs(kept) < np.finfo(np.float32).tiny] = 0
    kept.setflags(write=False)
    return kept


def _checked_arrays(arrays: object, scale: object, skip: object, source: object) -> tuple[
        list[npt.NDArray[np.float32]], npt.NDArray[np.float32], npt.NDArray[np.float32] | None]:
    """The layers' arrays, the scale and the skip as float32, or the ``argument`` error."""
    if isinstance(arrays, str | bytes) or not isinstance(arrays, Sequence) or (
            len(arrays) < 2 or len(arrays) % 2):
        raise _refuse(N_("the policy's weights ({source}): they are weight and bias arrays "
                         "in pairs, one pair a layer"), source)
    checked: list[npt.NDArray[np.float32]] = []
    first = arrays[0]
    featured = isinstance(first, np.ndarray) and first.ndim == 2 and (
        first.shape[0] == SIZE + FEATURES)
    width, total = (SIZE + FEATURES if featured else SIZE), 0
    for index, array in enumerate(arrays):
        if not isinstance(array, np.ndarray) or array.dtype.kind != "f":
            raise _refuse(N_("the policy's weights ({source}): array {index} is not an array "
                             "of floating-point numbers"), source, index=index)
        total += array.size
        if total > MOST_PARAMETERS:
            raise _refuse(N_("the policy's weights ({source}): more than {most} numbers"),
                          source, most=MOST_PARAMETERS)
        weight = index % 2 == 0
        expected = (width, array.shape[-1] if array.ndim == 2 else -1) if weight else (width,)
        if array.shape != expected or 0 in array.shape:
            raise _refuse(N_("the policy's weights ({source}): array {index} has the shape "
                             "{shape}, not {expected}"), source, index=index,
                          shape=_shape(array.shape), expected=_shape(expected))
        if not np.isfinite(array).all():
            raise _refuse(N_("the policy's weights ({source}): array {index} holds a number "
                             "that is not finite"), source, index=index)
        if weight:
            width = array.shape[1]
        checked.append(_kept(array))
    if width != ACTIONS:
        raise _refuse(N_("the policy's weights ({source}): the last layer gives {width} "
                         "numbers, not one an action ({actions})"), source, width=width,
                      actions=ACTIONS)
    if (not isinstance(scale, np.ndarray) or scale.dtype.kind != "f" or scale.shape != (SIZE,)
            or not np.isfinite(scale).all()):
        raise _refuse(N_("the policy's weights ({source}): the scale is not {size} finite "
                         "numbers"), source, size=SIZE)
    kept = _kept(scale)
    if not featured:
        if skip is not None:
            raise _refuse(N_("the policy's weights ({source}): a skip without the placement "
                             "features (the first layer reads {size} numbers)"), source,
                          size=SIZE)
        return checked, kept, None
    if (not isinstance(skip, np.ndarray) or skip.dtype.kind != "f"
            or skip.shape != (CARD_FEATURES + ROW_FEATURES,) or not np.isfinite(skip).all()):
        raise _refuse(N_("the policy's weights ({source}): the skip is not {size} finite "
                         "numbers"), source, size=CARD_FEATURES + ROW_FEATURES)
    return checked, kept, _kept(skip)


def _checked_head(head: object, hidden: int, source: object,
                  ) -> tuple[npt.NDArray[np.float32], ...]:
    """The card head's four arrays (:data:`HEAD_ARRAYS`) as float32, or the ``argument`` error.

    *hidden* is the width of the network's last hidden layer, which the head reads.
    """
    if isinstance(head, str | bytes) or not isinstance(head, Sequence) or len(head) != 4:
        raise _refuse(N_("the policy's weights ({source}): the card head is four arrays, "
                         "{names}"), source, names=", ".join(HEAD_ARRAYS))
    bias = head[2]
    units = bias.shape[0] if isinstance(bias, np.ndarray) and bias.ndim == 1 else -1
    checked: list[npt.NDArray[np.float32]] = []
    for name, array, expected in zip(HEAD_ARRAYS, head, ((CARD_FEATURES, units), (hidden, units),
                                                         (units,), (units,)), strict=True):
        if (not isinstance(array, np.ndarray) or array.dtype.kind != "f"
                or array.shape != expected or units < 1 or not np.isfinite(array).all()):
            raise _refuse(N_("the policy's weights ({source}): the card head's {name} is not "
                             "an array of finite numbers of the shape {expected}"), source,
                          name=name, expected=_shape(expected))
        checked.append(_kept(array))
    return tuple(checked)


def _shape(shape: tuple[int, ...]) -> str:
    return "(" + ", ".join("any" if size < 0 else str(size) for size in shape) + ")"


class Pass(NamedTuple):
    """What one forward pass of the network computes, for a batch of observations.

    *inputs* holds what each layer reads, in order: the scaled observation (with the placement
    features after it, if the network has them), then each hidden layer after its ReLU; the last
    of them is what the card head reads too. *cards* ``(n, 104, 10)`` and *rows* ``(n, 4, 2)``
    are the placement features, and *units* ``(n, 104, k)`` the card head's units after their
    ReLU, each ``None`` when the network has no such part. Training reads them all for the
    gradient; playing reads *logits* alone.
    """

    inputs: list[npt.NDArray[np.float32]]
    logits: npt.NDArray[np.float32]
    cards: npt.NDArray[np.float32] | None
    rows: npt.NDArray[np.float32] | None
    units: npt.NDArray[np.float32] | None


def forward(layers: Sequence[tuple[npt.NDArray[np.float32], npt.NDArray[np.float32]]],
            scale: npt.NDArray[np.float32], skip: npt.NDArray[np.float32] | None,
            head: Sequence[npt.NDArray[np.float32]] | None,
            observations: npt.NDArray[np.float32]) -> Pass:
    """The network's forward pass over a batch ``(n, 489)`` of observations: the one home of it.

    *layers* are (weight, bias) pairs, *skip* and *head* as :meth:`Policy.from_arrays` says
    (unchecked here: :class:`Policy` checks them once, when it is made; the training's own
    arrays are made to fit). :meth:`Policy.logits` plays by it, and ``training/`` takes its
    gradient from the same pass.
    """
    hidden = observations * scale
    cards = rows = units = None
    if skip is not None:
        cards, rows = placement_features(observations)
        count = cards.shape[0]
        hidden = np.concatenate([hidden, cards.reshape(count, -1), rows.reshape(count, -1)],
                                axis=1)
    inputs = [hidden]
    last = len(layers) - 1
    for index, (weight, bias) in enumerate(layers):
        hidden = hidden @ weight + bias
        if index < last:
            np.maximum(hidden, 0, out=hidden)
            inputs.append(hidden)
    if cards is not None and rows is not None and skip is not None:
        if head is not None:
            from_features, from_hidden, head_bias, out = head
            units = np.maximum(cards @ from_features
                               + (inputs[-1] @ from_hidden + head_bias)[:, None, :], 0)
            hidden[:, :_kernel.HIGHEST] += units @ out
        hidden[:, :_kernel.HIGHEST] += cards @ skip[:CARD_FEATURES]
        hidden[:, ROW_ACTIONS : ROW_ACTIONS + ROWS] += rows @ skip[CARD_FEATURES:]
    return Pass(inputs, hidden, cards, rows, units)


@dataclass(frozen=True, eq=False)
class Policy:
    """A network over the observation: ``scale``, then layers with ReLU between them.

    Build one with :func:`load_policy` (from a file) or :meth:`from_arrays`; both check the
    arrays. *metadata* says how the weights were made.
    """

    layers: tuple[tuple[npt.NDArray[np.float32], npt.NDArray[np.float32]], ...]
    scale: npt.NDArray[np.float32]
    metadata: Mapping[str, Any] = field(default_factory=dict)
    skip: npt.NDArray[np.float32] | None = None
    head: tuple[npt.NDArray[np.float32], ...] | None = None

    @classmethod
    def from_arrays(cls, arrays: Sequence[npt.NDArray[Any]],
                    scale: npt.NDArray[Any] | None = None,
                    metadata: Mapping[str, Any] | None = None,
                    skip: npt.NDArray[Any] | None = None,
                    head: Sequence[npt.NDArray[Any]] | None = None) -> Policy:
        """A policy from its arrays: weight 0, bias 0, weight 1, bias 1, ... (checked).

        Weight *k* is ``(inputs, outputs)``, the last with 109 outputs, the first with 489
        inputs (the observation), or 489 + 1,048 (the observation, then
        :func:`placement_features`, cards then rows, flattened); with the features, *skip*
        holds 12 weights: each card's logit gains its 10 features times the first 10, each row
        action's its 2 row features times the last 2 (the same weights for every card and
        every row). With the features, a *head* of :data:`HEAD_ARRAYS` (``A``, ``B``, ``b``,
        ``w``, of *k* units) may add ``w . relu(A' f + B' h + b)`` to each card's logit, ``f``
        the card's 10 features and ``h`` what the last layer reads (the last hidden layer).
        *scale* defaults to :func:`default_scale`. Anything else is an ``argument`` error.
        """
        source = metadata.get("source", _FROM_ARRAYS) if metadata else _FROM_ARRAYS
        checked, scale, skip = _checked_arrays(
            arrays, default_scale() if scale is None else scale, skip, source)
        layers = tuple((checked[index], checked[index + 1])
                       for index in range(0, len(checked), 2))
        if head is None:
            return cls(layers, scale, dict(metadata or {}), skip)
        if skip is None:
            raise _refuse(N_("the policy's weights ({source}): a card head without the "
                             "placement features (the first layer reads {size} numbers)"),
                          source, size=SIZE)
        checked_head = _checked_head(head, layers[-1][0].shape[0], source)
        return cls(layers, scale, dict(metadata or {}), skip, checked_head)

    @property
    def widths(self) -> tuple[int, ...]:
        """The widths of the layers, the input first: ``(489, ..., 109)`` (or 1537 first)."""
        return (self.layers[0][0].shape[0], *(bias.size for _, bias in self.layers))

    @functools.cached_property
    def _by_columns(self) -> tuple[tuple[tuple[npt.NDArray[np.float32],
                                               npt.NDArray[np.float32]], ...],
                                   tuple[npt.NDArray[np.float32], ...] | None]:
        """The layers and the head with each weight stored column by column (Fortran order).

        The same numbers: one observation times a matrix stored so is a matrix-vector product
        for the linear algebra library, several times faster than the row-by-row product,
        which is the faster one for a batch.
        """
        def by_columns(weight: npt.NDArray[np.float32]) -> npt.NDArray[np.float32]:
            copy = np.asfortranarray(weight)
            copy.setflags(write=False)  # read-only, as every array of a policy
            return copy

        layers = tuple((by_columns(weight), bias) for weight, bias in self.layers)
        if self.head is None:
            return layers, None
        from_features, from_hidden, head_bias, out = self.head
        return layers, (from_features, by_columns(from_hidden), head_bias, out)

    def logits(self, observations: npt.NDArray[np.float32]) -> npt.NDArray[np.float32]:
        """The network's logits for one observation ``(489,)`` or a batch ``(n, 489)``."""
        given = np.asarray(observations, dtype=np.float32)
        vectors = np.atleast_2d(given)
        layers, head = self._by_columns if len(vectors) == 1 else (self.layers, self.head)
        computed = forward(layers, self.scale, self.skip, head, vectors).logits
        if given.ndim == 1:
            single: npt.NDArray[np.float32] = computed[0]
            return single
        return computed

    def act(self, observation: npt.NDArray[np.float32], legal: npt.ArrayLike) -> int:
        """The legal action of the highest logit (ties to the lowest action).

        Args:
            observation: one observation vector, 489 numbers.
            legal: the legal-action mask, 109 entries, true (non-zero) for a legal action.

        Raises:
            MalformedInputError: (id ``argument``) for a mask of the wrong size, or with no
                legal action.
        """
        allowed = np.asarray(legal).astype(bool).reshape(-1)
        if allowed.size != ACTIONS or not allowed.any():
            raise MalformedInputError(
                ARGUMENT, N_("the legal-action mask {value}: it must hold {actions} entries, "
                             "at least one of them legal"),
                value=shown(legal), actions=ACTIONS)
        scores = np.where(allowed, self.logits(observation), -np.inf)
        return int(np.argmax(scores))


def save_policy(policy: Policy, path: str | Path) -> Path:
    """Write *policy* to *path* (a compressed ``.npz``): its arrays, then its metadata as JSON.

    The metadata gains the ``format`` and the ``layers``; the rest (the training seed, the
    data, the code version) is the caller's. Returns the path written.
    """
    target = Path(path)
    metadata = {**policy.metadata, "format": FORMAT, "layers": list(policy.widths)}
    arrays: dict[str, Any] = {"scale": policy.scale,
                              "metadata": np.array(json.dumps(metadata, sort_keys=True))}
    for index, (weight, bias) in enumerate(policy.layers):
        arrays[f"weight{index}"], arrays[f"bias{index}"] = weight, bias
    if policy.skip is not None:
        arrays["skip"] = policy.skip
    if policy.head is not None:
        arrays.update(zip(HEAD_ARRAYS, policy.head, strict=True))
    with target.open("wb") as handle:
        np.savez_compressed(handle, **arrays)
    return target


@functools.cache
def shipped_policy() -> Policy:
    """The policy of the weights shipped with the package, read once (its arrays read-only)."""
    return load_policy()


def load_policy(path: str | Path | None = None) -> Policy:
    """The policy in *path* (default: the weights shipped with the package), checked.

    Raises:
        MalformedInputError: (id ``argument``) naming the file and what is wrong: missing,
            not a ``.npz``, no metadata or metadata of another format, arrays missing, of other
            shapes than the metadata's layers, or not finite.
    """
    if path is None:
        source = resources.files("take5rules.agents") / "weights" / SHIPPED
        shown_path: object = f"take5rules/agents/weights/{SHIPPED}"
    elif isinstance(path, str | Path):
        source, shown_path = Path(path), path
    else:
        raise MalformedInputError(
            ARGUMENT, N_("path {value}: the policy's weights are a path to an .npz file"),
            value=shown(path))
    try:
        with source.open("rb") as handle:
            with zipfile.ZipFile(handle) as packed:  # bounded: the sizes before the contents
                if sum(info.file_size for info in packed.infolist()) > _MOST_BYTES:
                    raise _refuse(N_("the policy file {source}: it holds more than {most} "
                                     "bytes"), shown_path, most=_MOST_BYTES)
            handle.seek(0)
            stored = np.load(handle, allow_pickle=False)
            if not isinstance(stored, np.lib.npyio.NpzFile):
                raise ValueError
            with stored:
                contents = {name: stored[name] for name in stored.files}
    except MalformedInputError:
        raise
    except FileNotFoundError:
        raise _refuse(N_("the policy file {source}: there is no such file"), shown_path) from None
    except (OSError, ValueError, EOFError, zipfile.BadZipFile, KeyError):
        raise _refuse(N_("the policy file {source}: it is not an .npz file of arrays"),
                      shown_path) from None
    metadata = _metadata(contents.get("metadata"), shown_path)
    count = len(metadata["layers"]) - 1
    names = [f"{kind}{index}" for index in range(count) for kind in ("weight", "bias")]
    featured = metadata["layers"][0] == SIZE + FEATURES
    headed = featured and HEAD_ARRAYS[0] in contents
    if set(contents) != {"scale", "metadata", *names, *(["skip"] if featured else []),
                         *(HEAD_ARRAYS if headed else ())}:
        raise _refuse(N_("the policy file {source}: its arrays are not scale, metadata, a "
                         "weight and a bias for each of its {count} layers and, with the "
                         "placement features, skip (and the card head's, if any)"),
                      shown_path, count=count)
    for index, (inputs, outputs) in enumerate(itertools.pairwise(metadata["layers"])):
        if contents[f"weight{index}"].shape != (inputs, outputs):
            raise _refuse(N_("the policy file {source}: weight{index} has the shape {shape}, "
                             "not {expected} as its metadata's layers say"), shown_path,
                          index=index, shape=_shape(contents[f"weight{index}"].shape),
                          expected=_shape((inputs, outputs)))
    return Policy.from_arrays([contents[name] for name in names], contents["scale"],
                              {**metadata, "source": str(shown_path)}, contents.get("skip"),
                              [contents[name] for name in HEAD_ARRAYS] if headed else None)


def _metadata(raw: object, source: object) -> dict[str, Any]:
    """The metadata of a weights file, checked, or the refusal of the file."""
    try:
        if not isinstance(raw, np.ndarray) or raw.shape != () or raw.dtype.kind != "U":
            raise ValueError
        metadata = json.loads(str(raw))
    except ValueError:
        raise _refuse(N_("the policy file {source}: it holds no metadata (a JSON text)"),
                      source) from None
    if not isinstance(metadata, dict) or metadata.get("format") != FORMAT:
        raise _refuse(N_("the policy file {source}: its metadata is not of the format "
                         "{format}"), source, format=FORMAT)
    layers = metadata.get("layers")
    if (not isinstance(layers, list) or len(layers) < 2 or layers[0] not in (
            SIZE, SIZE + FEATURES)
            or layers[-1] != ACTIONS or not all(
                isinstance(width, int) and not isinstance(width, bool) and 0 < width <= 4096
                for width in layers)):
        raise _refuse(N_("the policy file {source}: its metadata's layers are not widths "
                         "from {size} to {actions}"), source, size=SIZE, actions=ACTIONS)
    for key in ("seed", "data", "code"):
        if key not in metadata:
            raise _refuse(N_("the policy file {source}: its metadata does not say how it was "
                             "made ({key})"), source, key=key)
    return metadata


# --- The player ---------------------------------------------------------------------------------


def _seats(view: CardView | RowChoice | DraftView) -> tuple[str, ...]:
    """The seats in order as the view shows them: the keys of its totals (the engine's order)."""
    seats = tuple(view.totals)
    return seats if view.player in seats else (*seats, view.player)


def _rules(view: CardView | RowChoice | DraftView) -> Rules:
    """The rules a view suggests when the player was told none: logic if there was a draft."""
    return Rules(Variant.LOGIC) if view.picks or isinstance(view, DraftView) else Rules()


def view_vector(view: CardView | RowChoice | DraftView, players: Sequence[str],
                rules: Rules) -> npt.NDArray[np.float32]:
    """The observation vector of the seat a view belongs to, drafts included.

    A card or a row is :func:`~take5rules.agents.encoding.encode_view`; a draft pick is the
    vector :meth:`Game.observe <take5rules.playing.stepper.Game.observe>` gives while drafting
    (no rows yet, the pool, the picks, the cards drafted so far as the hand).
    """
    if not isinstance(view, DraftView):
        return encode_view(view, players, rules)
    seen = Observation(
        player=view.player, phase=Phase.DRAFT, round=view.round, turn=0, table=None,
        hand=tuple(view.hand), totals={player: view.totals.get(player, 0) for player in players},
        revealed=(), taken={}, start=(), picks=tuple(view.picks), pool=tuple(view.pool),
        laid=None, pending=None, to_move=(view.player,))
    return encode(seen, players, rules)


class PolicyPrior:
    """The network's probabilities of a decision's actions: the prior of a guided search.

    A :data:`take5rules.playing.ismcts.Prior`: called with a card view (or a row choice) and the
    root's actions (cards, or rows), it answers the softmax of the network's logits over those
    actions alone, one forward pass. Like :class:`PolicyPlayer` it learns the seats and the
    rules from the game's first event when it is told the events (``see``), else reads them
    from the view; it reads the view alone.

    The likeliest card is the one the policy plays:

    >>> from take5rules.table import Table
    >>> view = CardView(1, 1, Table.of([[10], [20], [30], [40]]), (12, 55, 104),
    ...                 {"me": 0, "you": 0}, "me")
    >>> chances = PolicyPrior()(view, [12, 55, 104])
    >>> len(chances), round(sum(chances), 6)
    (3, 1.0)
    >>> max(zip(chances, [12, 55, 104]))[1] == PolicyPlayer().choose_card(view)
    True
    """

    def __init__(self, policy: Policy | None = None) -> None:
        self.player = PolicyPlayer(policy)

    def __repr__(self) -> str:
        return f"PolicyPrior(layers={self.player.policy.widths})"

    def see(self, seat: str, event: Event) -> None:
        """Learn the seats and the rules from the game's start (as :class:`PolicyPlayer`)."""
        self.player.see(seat, event)

    def __call__(self, view: CardView | RowChoice, actions: Sequence[int]) -> list[float]:
        """The probability of each of *actions* (cards, or rows of a row choice), in order."""
        indices = [action - 1 for action in actions] if isinstance(view, CardView) else [
            ROW_ACTIONS + action for action in actions]
        logits = self.player.logits(view)[indices].astype(np.float64)
        weights = np.exp(logits - logits.max())
        return [float(weight) for weight in weights / weights.sum()]


class PolicyPlayer:
    """A player that plays the network's choice: one forward pass per decision.

    Args:
        policy: the network (:func:`load_policy`); default the weights shipped with the
            package.
        players: the seats of the game in order, and *rules* its rules. When not given, the
            player learns them from the game's first event if it is told the events
            (``see``), else reads the seats from the view's totals and takes the standard rules
            (the logic variant when the view shows a draft).

    It reads its view alone: nothing another seat hides reaches it.
    """

    def __init__(self, policy: Policy | None = None, *, players: Sequence[str] | None = None,
                 rules: Rules | None = None) -> None:
        if policy is not None and not isinstance(policy, Policy):
            raise MalformedInputError(
                ARGUMENT, N_("policy {value}: it must be a Policy (load_policy)"),
                value=shown(policy))
        if rules is not None and not isinstance(rules, Rules):
            raise MalformedInputError(
                ARGUMENT, N_("rules = {value}: the rules are a take5rules.variants.Rules"),
                value=shown(rules))
        self.policy = policy if policy is not None else shipped_policy()
        self.players = tuple(players) if players is not None else None
        self.rules = rules

    def __repr__(self) -> str:
        return f"PolicyPlayer(layers={self.policy.widths})"

    def see(self, seat: str, event: Event) -> None:
        """Learn the seats and the rules from the game's start; every other event is ignored."""
        if isinstance(event, GameStarted):
            self.players, self.rules = tuple(event.players), event.rules

    def _vector(self, view: CardView | RowChoice | DraftView) -> npt.NDArray[np.float32]:
        players = self.players if self.players and view.player in self.players else (
            _seats(view))
        rules = self.rules if self.rules is not None else _rules(view)
        return view_vector(view, players, rules)

    def logits(self, view: CardView | RowChoice | DraftView) -> npt.NDArray[np.float32]:
        """The network's 109 logits for the seat of *view*, from that view alone."""
        return self.policy.logits(self._vector(view))

    def _decide(self, view: CardView | RowChoice | DraftView,
                legal: npt.NDArray[np.bool_]) -> int:
        return self.policy.act(self._vector(view), legal)

    def choose_card(self, view: CardView) -> Card:
        """The card of the highest logit among the cards of the hand."""
        check_view(view, whole=False)
        if not view.hand:
            raise empty_hand(view.player)
        legal = np.zeros(ACTIONS, dtype=bool)
        legal[[card - 1 for card in view.hand]] = True
        return self._decide(view, legal) + 1

    def choose_row(self, choice: RowChoice) -> int:
        """The row of the highest logit among the four."""
        check_view(choice, whole=False)
        legal = np.zeros(ACTIONS, dtype=bool)
        legal[ROW_ACTIONS : ROW_ACTIONS + ROWS] = True
        return self._decide(choice, legal) - ROW_ACTIONS

    def choose_draft(self, view: DraftView) -> Card:
        """The face-up card of the highest logit among the pool."""
        check_draft_view(view)
        if not view.pool:
            raise empty_pool(view.player)
        legal = np.zeros(ACTIONS, dtype=bool)
        legal[[card - 1 for card in view.pool]] = True
        return self._decide(view, legal) + 1
