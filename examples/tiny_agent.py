#!/usr/bin/env python3
"""Train a tiny tabular agent on the batched simulator and plot its mean penalty.

    .venv/bin/python examples/tiny_agent.py            # writes docs/<lang>/agents-penalty.svg

The agent sees, for each card of its hand, one of 39 situations: a low card (by the bull heads
of the cheapest row), or the length of the row the card would join and how far above its last
card it is. It keeps, for each situation, the mean bull heads taken in the turn it played such a
card (a table of 39 numbers), and plays the card whose situation costs least. Training is
epsilon-greedy over many rounds at once with :mod:`take5rules.agents.batch`, in epochs that double
in
length (30 rounds, then 60, ... 15,360: 30,690 in all); after each epoch
the greedy agent plays 4000 rounds in seat 0 against three random, three lowest-card or three
cautious opponents, and the chart shows its mean penalty per round, with the built-in cautious
player in the same seat as a reference. Everything is seeded: the same run draws the same SVG.
"""

from __future__ import annotations

import sys
from pathlib import Path
from xml.sax.saxutils import escape

import numpy as np

from take5rules.agents import batch

ROOT = Path(__file__).resolve().parent.parent
SEATS = 4
#: Rounds played against each kind of opponent in each epoch: short epochs first.
SCHEDULE = (10, 20, 40, 80, 160, 320, 640, 1280, 2560, 5120)
EVAL_ROUNDS = 4000
EPSILON = 0.1
SITUATIONS = 8 + 5 * 6
OPPONENTS = {"random": batch.random_card, "lowest": batch.lowest_card,
             "cautious": batch.cautious_card}


def situations(view: batch.SeatView) -> np.ndarray:
    """``(games, cards held)``: the situation index of each card in the seat's hand."""
    held = view.hand
    last = view.last_cards
    difference = held[:, :, None] - last[:, None, :]
    difference[difference <= 0] = 1000
    target = difference.argmin(axis=2)
    gap = np.take_along_axis(difference, target[:, :, None], axis=2)[:, :, 0]
    length = np.take_along_axis(view.lengths, target, axis=1)
    cheapest = view.row_heads.min(axis=1, keepdims=True)
    low = np.minimum(cheapest, 7) + np.zeros_like(held)
    placed = 8 + (length - 1) * 6 + np.minimum(gap // 5, 5)
    result: np.ndarray = np.where(gap == 1000, low, placed)
    return result


def agent_policy(table: np.ndarray, epsilon: float) -> batch.CardPolicy:
    """A card policy for seat 0: the card of least expected cost, or at random."""

    def policy(view: batch.SeatView, rng: np.random.Generator) -> np.ndarray:
        best = table[situations(view)].argmin(axis=1)
        explore = rng.random(len(view)) < epsilon
        return np.where(explore, rng.integers(0, view.hand.shape[1], len(view)), best)

    return policy


def train_epoch(table: np.ndarray, counts: np.ndarray, rounds: int,
                rng: np.random.Generator) -> None:
    """One epoch: *rounds* rounds against each kind of opponent, updating the table."""
    for kind in OPPONENTS.values():
        state = batch.deal(rng, rounds, SEATS, keep_piles=False)
        policies = [agent_policy(table, EPSILON)] + [kind] * (SEATS - 1)
        while state.turn < 10:
            views = [batch.SeatView(state, s, 0, state.games) for s in range(SEATS)]
            answers = [np.asarray(p(v, rng)) for v, p in zip(views, policies, strict=True)]
            slots = np.stack(answers, 1)
            chosen = situations(views[0])[np.arange(state.games), slots[:, 0]]
            plays = np.take_along_axis(state.hands, slots[:, :, None], axis=2)[:, :, 0]
            outcome = batch.play_turn(state, plays, batch.cheapest_row, rng)
            np.add.at(counts, chosen, 1)
            np.add.at(table, chosen, (outcome.taken[:, 0] - table[chosen]) / counts[chosen])


def evaluate(policy: batch.CardPolicy, rng: np.random.Generator) -> dict[str, float]:
    """Mean penalty per round of *policy* in seat 0 against each kind of opponent."""
    means = {}
    for name, kind in OPPONENTS.items():
        state = batch.deal(rng, EVAL_ROUNDS, SEATS, keep_piles=False)
        scores = batch.play_round(state, [policy] + [kind] * (SEATS - 1), batch.cheapest_row,
                                  rng)
        means[name] = float(scores[:, 0].mean())
    return means


LABELS = {
    "en": ("Mean penalty per round of the tiny agent (seat 0, 4 players)", "training rounds",
           "bull heads per round", "against {kind}", "cautious player, for reference"),
    "fr": ("Pénalité moyenne par manche du petit agent (place 0, 4 joueurs)",
           "manches d'entraînement", "têtes de bœuf par manche", "contre {kind}",
           "joueur prudent, pour comparaison"),
    "bg": ("Средно наказание на рунд на малкия агент (място 0, 4 играчи)", "рундове обучение",
           "глави на бикове на рунд", "срещу {kind}", "предпазлив играч, за сравнение"),
    "it": ("Penalità media per manche del piccolo agente (posto 0, 4 giocatori)",
           "manche di addestramento", "teste di toro per manche", "contro {kind}",
           "giocatore prudente, come riferimento"),
    "eo": ("Meza puno po raŭndo de la eta agento (sidloko 0, 4 ludantoj)", "trejnaj raŭndoj",
           "bovkapoj po raŭndo", "kontraŭ {kind}", "singarda ludanto, por komparo"),
}
COLOURS = {"random": "#00897b", "lowest": "#5e35b1", "cautious": "#e65100"}


def svg(curve: list[tuple[int, dict[str, float]]], reference: dict[str, float],
        language: str) -> str:
    """The chart as a standalone SVG, labelled in *language*."""
    title, x_label, y_label, against, reference_label = LABELS[language]
    width, height, left, right, top, bottom = 640, 380, 60, 190, 40, 50
    plot_w, plot_h = width - left - right, height - top - bottom
    # One step per evaluation: the epochs double in length, so the axis is by epoch.
    steps = {rounds: index for index, (rounds, _) in enumerate(curve)}
    values = [v for _, means in curve for v in means.values()] + list(reference.values())
    y_max = float(np.ceil(max(values) / 5) * 5)

    def x(rounds: int) -> float:
        return left + plot_w * steps[rounds] / (len(curve) - 1)

    def y(value: float) -> float:
        return top + plot_h * (1 - value / y_max)

    out = [f'<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 {width} {height}" '
           f'font-family="sans-serif" font-size="12" role="img">',
           f"<title>{escape(title)}</title>",
           f'<rect width="{width}" height="{height}" fill="white"/>',
           f'<text x="{left}" y="22" font-size="14">{escape(title)}</text>']
    for tick in np.arange(0, y_max + 0.1, 5):
        out.append(f'<line x1="{left}" x2="{left + plot_w}" y1="{y(tick):.1f}" '
                   f'y2="{y(tick):.1f}" stroke="#ddd"/>')
        out.append(f'<text x="{left - 6}" y="{y(tick) + 4:.1f}" text-anchor="end">'
                   f"{tick:g}</text>")
    for rounds, _ in curve:
        out.append(f'<text x="{x(rounds):.1f}" y="{top + plot_h + 16}" text-anchor="middle" '
                   f'font-size="10">{rounds}</text>')
    out.append(f'<text x="{left + plot_w / 2}" y="{height - 10}" text-anchor="middle">'
               f"{escape(x_label)}</text>")
    out.append(f'<text transform="translate(16 {top + plot_h / 2}) rotate(-90)" '
               f'text-anchor="middle">{escape(y_label)}</text>')
    out.append(f'<rect x="{left}" y="{top}" width="{plot_w}" height="{plot_h}" fill="none" '
               f'stroke="#888"/>')
    legend_y = top + 10
    for name, colour in COLOURS.items():
        points = " ".join(f"{x(r):.1f},{y(m[name]):.2f}" for r, m in curve)
        out.append(f'<polyline points="{points}" fill="none" stroke="{colour}" '
                   f'stroke-width="2"/>')
        out.append(f'<line x1="{left}" x2="{left + plot_w}" y1="{y(reference[name]):.2f}" '
                   f'y2="{y(reference[name]):.2f}" stroke="{colour}" stroke-dasharray="5 4"/>')
        out.append(f'<line x1="{width - right + 12}" x2="{width - right + 36}" y1="{legend_y}" '
                   f'y2="{legend_y}" stroke="{colour}" stroke-width="2"/>')
        out.append(f'<text x="{width - right + 42}" y="{legend_y + 4}">'
                   f"{escape(against.format(kind=name))}</text>")
        legend_y += 20
    out.append(f'<line x1="{width - right + 12}" x2="{width - right + 36}" y1="{legend_y}" '
               f'y2="{legend_y}" stroke="#444" stroke-dasharray="5 4"/>')
    # The reference label on two lines (split at its comma), to fit beside the chart.
    first, _, second = reference_label.partition(", ")
    out.append(f'<text x="{width - right + 42}" y="{legend_y + 4}" font-size="11">'
               f'<tspan>{escape(first)},</tspan><tspan x="{width - right + 42}" dy="14">'
               f"{escape(second)}</tspan></text>")
    out.append("</svg>")
    return "\n".join(out) + "\n"


def main() -> int:
    rng = np.random.default_rng(2026)
    table = np.zeros(SITUATIONS)
    counts = np.zeros(SITUATIONS)
    curve = [(0, evaluate(agent_policy(table, 0.0), rng))]
    played = 0
    for rounds in SCHEDULE:
        train_epoch(table, counts, rounds, rng)
        played += rounds * len(OPPONENTS)
        curve.append((played, evaluate(agent_policy(table, 0.0), rng)))
    reference = evaluate(batch.cautious_card, rng)
    for rounds, means in curve:
        print(rounds, {k: round(v, 2) for k, v in means.items()})
    print("cautious", {k: round(v, 2) for k, v in reference.items()})
    for language in LABELS:
        path = ROOT / "docs" / language / "agents-penalty.svg"
        path.write_text(svg(curve, reference, language), encoding="utf-8")
    return 0


if __name__ == "__main__":
    sys.exit(main())
