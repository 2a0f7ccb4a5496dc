"""Decisions labelled by the search: the data a policy imitates.

Whole games are played by the engine (:func:`take5rules.playing.engine.play_silently`) on seeded
deals. At every decision of every seat the search (``best``: ISMCTS, 350 iterations, its draft
picks those of the 64-world Monte Carlo player) is asked what it would do, and the seat's
observation vector (:func:`take5rules.agents.policy.view_vector`, the one encoding), the legal
actions and the search's action are kept. The seat then plays its own actor's choice: the
search's (so the positions are those the search meets), ``cautious``'s or ``greedy``'s (so that
they are not only those). Each game's table (seat count, variant, actors) and seeds come from
the run's seed and the game's index alone, so a game is the same in any process and any order.

    python -m training.generate --games 100 --seed 1 --out build/training/decisions.npz
"""

from __future__ import annotations

import argparse
import random
import time
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from functools import cache
from multiprocessing import Pool
from pathlib import Path
from typing import Any

import numpy as np
import numpy.typing as npt

from take5rules.agents.encoding import ACTIONS, ROW_ACTIONS, SIZE
from take5rules.agents.policy import Policy, PolicyPlayer, load_policy, view_vector
from take5rules.playing.bots import GreedyPlayer
from take5rules.playing.engine import play_silently
from take5rules.playing.kinds import best_player
from take5rules.playing.players import CardView, CautiousPlayer, DraftView, Player, RowChoice
from take5rules.variants import Rules, Variant

__all__ = ["Decisions", "Table", "generate", "play_labelled", "table_of"]

#: The share of the games at four seats in the standard game (the rest: any seat count and
#: variant, drawn evenly).
FOUR_STANDARD = 0.6
#: The actors a seat may have, with their weights: the search itself most often.
ACTORS = (("best", 2), ("cautious", 1), ("greedy", 1))
#: The actors of the games that follow a network (``--follow``): the network itself most often,
#: so that the search labels the positions the network reaches (DAgger: Ross, Gordon and
#: Bagnell, *A Reduction of Imitation Learning and Structured Prediction to No-Regret Online
#: Learning*, AISTATS 2011).
FOLLOW_ACTORS = (("policy", 3), ("best", 1))


@dataclass(frozen=True)
class Table:
    """One game of the data: its seats' actors, its rules and its seeds."""

    actors: tuple[str, ...]
    rules: Rules
    deal_seed: int
    search_seed: int


@dataclass(frozen=True)
class Decisions:
    """Labelled decisions, one a row of each array.

    ``observations`` ``(n, 489)`` float32, ``legal`` ``(n, 109)`` bool, ``actions`` ``(n,)``
    the search's action, ``seats`` ``(n,)`` the seat count of the decision's game, ``targets``
    ``(n, 109)`` float32 what the network learns: the share of the search's visits that went
    to each action (for a decision the search made without searching, a forced card or a
    draft pick, and for ``cautious``'s labels: 1 for the action chosen).
    """

    observations: npt.NDArray[np.float32]
    legal: npt.NDArray[np.bool_]
    actions: npt.NDArray[np.int64]
    seats: npt.NDArray[np.int64]
    targets: npt.NDArray[np.float32]

    def __len__(self) -> int:
        return int(self.actions.size)

    @classmethod
    def join(cls, parts: Iterable[Decisions]) -> Decisions:
        """The decisions of *parts*, one after the other."""
        parts = list(parts)
        return cls(np.concatenate([p.observations for p in parts]).reshape(-1, SIZE),
                   np.concatenate([p.legal for p in parts]).reshape(-1, ACTIONS),
                   np.concatenate([p.actions for p in parts]),
                   np.concatenate([p.seats for p in parts]),
                   np.concatenate([p.targets for p in parts]).reshape(-1, ACTIONS))

    def save(self, path: Path) -> None:
        """Write the decisions to *path* (``.npz``)."""
        path.parent.mkdir(parents=True, exist_ok=True)
        np.savez_compressed(path, observations=self.observations, legal=self.legal,
                            actions=self.actions, seats=self.seats, targets=self.targets)

    @classmethod
    def load(cls, path: Path) -> Decisions:
        """The decisions :meth:`save` wrote."""
        with np.load(path, allow_pickle=False) as stored:
            actions = stored["actions"]
            targets = (stored["targets"] if "targets" in stored.files
                       else np.eye(ACTIONS, dtype=np.float32)[actions])
            return cls(stored["observations"], stored["legal"], actions, stored["seats"],
                       targets)


def table_of(seed: int, game: int, teacher: str = "best",
             actors: Sequence[tuple[str, int]] = ACTORS) -> Table:
    """The table of game *game* of a run seeded *seed* labelled by *teacher* (from those alone).

    The games labelled by ``best`` and by ``cautious``, and those of other *actors*, are drawn
    from separate streams.
    """
    stream = "" if teacher == "best" else f"/{teacher}"
    if tuple(actors) != ACTORS:
        stream += "/" + ",".join(f"{name}:{weight}" for name, weight in actors)
    rng = random.Random(f"take5-training/{seed}/{game}{stream}")
    if rng.random() < FOUR_STANDARD:
        rules, count = Rules(), 4
    else:
        variant = rng.choice(list(Variant))
        most = {Variant.LOGIC: 6, Variant.TOURNAMENT: 5}.get(variant, 10)
        rules, count = Rules(variant), rng.randint(2, most)
    names = [name for name, _ in actors]
    weights = [weight for _, weight in actors]
    seated = tuple(rng.choices(names, weights)[0] for _ in range(count))
    return Table(seated, rules, rng.getrandbits(32), rng.getrandbits(32))


class _Labelled:
    """A seat that asks the search (and records its answer), then plays its actor's."""

    def __init__(self, actor: Player | None, search: Player, players: Sequence[str],
                 rules: Rules, rows: list[tuple[npt.NDArray[np.float32],
                                                 npt.NDArray[np.bool_], int,
                                                 npt.NDArray[np.float32]]]) -> None:
        self.actor, self.search, self.players, self.rules = actor, search, players, rules
        self.rows = rows

    def _keep(self, view: CardView | RowChoice | DraftView, legal: list[int],
              action: int, first: int = 0) -> None:
        mask = np.zeros(ACTIONS, dtype=bool)
        mask[legal] = True
        target = np.zeros(ACTIONS, dtype=np.float32)
        searched = getattr(self.search, "last_search", None)
        if searched and not isinstance(view, DraftView):
            total = sum(visits for visits, _ in searched.values())
            for key, (visits, _) in searched.items():
                target[first + key] = visits / total
        else:
            target[action] = 1
        self.rows.append((view_vector(view, self.players, self.rules), mask, action, target))

    def choose_card(self, view: CardView) -> int:
        card = self.search.choose_card(view)
        self._keep(view, [c - 1 for c in view.hand], card - 1, -1)
        return card if self.actor is None else self.actor.choose_card(view)

    def choose_row(self, choice: RowChoice) -> int:
        row = self.search.choose_row(choice)
        self._keep(choice, list(range(ROW_ACTIONS, ROW_ACTIONS + 4)), ROW_ACTIONS + row,
                   ROW_ACTIONS)
        return row if self.actor is None else self.actor.choose_row(choice)

    def choose_draft(self, view: DraftView) -> int:
        card = self.search.choose_draft(view)
        self._keep(view, [c - 1 for c in view.pool], card - 1)
        return card if self.actor is None else self.actor.choose_draft(view)


@cache
def _network(weights: Path) -> Policy:
    """The network of the file *weights*, read once a process."""
    return load_policy(weights)


def play_labelled(table: Table, iterations: int | None = None,
                  teacher: str = "best", weights: Path | None = None) -> Decisions:
    """Play *table*'s game; return every decision of every seat, labelled by *teacher*.

    The *teacher* is ``best`` (the search; *iterations* overrides its 350, the tests use a
    few, to be quick) or ``cautious`` (cheap: the many decisions of the network's first
    lessons). A ``policy`` actor plays the network of the file *weights* (default the shipped
    one).
    """
    names = [f"seat{index}" for index in range(len(table.actors))]
    rows: list[tuple[npt.NDArray[np.float32], npt.NDArray[np.bool_], int,
                     npt.NDArray[np.float32]]] = []
    seats: dict[str, Player] = {}
    for index, (name, actor) in enumerate(zip(names, table.actors, strict=True)):
        search: Any = (best_player(table.search_seed + index) if teacher == "best"
                       else CautiousPlayer())
        if iterations is not None and teacher == "best":
            search.iterations = iterations
        kind: Player | None
        if actor == "policy":
            kind = PolicyPlayer(_network(weights) if weights is not None else None,
                                players=names, rules=table.rules)
        else:
            kind = {"best": None, "cautious": CautiousPlayer(),
                    "greedy": GreedyPlayer(table.search_seed + index)}[actor]
        seats[name] = _Labelled(kind, search, names, table.rules, rows)
    play_silently(seats, table.rules, table.deal_seed)
    count = len(names)
    return Decisions(np.array([r[0] for r in rows], np.float32).reshape(-1, SIZE),
                     np.array([r[1] for r in rows], bool).reshape(-1, ACTIONS),
                     np.array([r[2] for r in rows], np.int64),
                     np.full(len(rows), count, np.int64),
                     np.array([r[3] for r in rows], np.float32).reshape(-1, ACTIONS))


def _one(arguments: tuple[int, int, int | None, str, tuple[tuple[str, int], ...],
                          Path | None]) -> Decisions:
    seed, game, iterations, teacher, actors, weights = arguments
    return play_labelled(table_of(seed, game, teacher, actors), iterations, teacher, weights)


def generate(games: int, seed: int, jobs: int = 1, iterations: int | None = None,
             progress: bool = False, teacher: str = "best", first: int = 0,
             actors: Sequence[tuple[str, int]] = ACTORS,
             weights: Path | None = None) -> Decisions:
    """The decisions of games *first* to *games* - 1 of run *seed*, labelled by *teacher*.

    With *jobs* above 1 the games are played in that many processes; the result is the same.
    The decisions of games 0 to *n* - 1 are those of 0 to *k* - 1 then of *k* to *n* - 1.
    The seats' *actors* are drawn by their weights; a ``policy`` actor plays the network of
    the file *weights* (default the shipped one).
    """
    work = [(seed, game, iterations, teacher, tuple(actors), weights)
            for game in range(first, games)]
    parts: list[Decisions] = []
    started = time.monotonic()
    if jobs <= 1:
        results: Iterable[Decisions] = map(_one, work)
        for index, part in enumerate(results):
            parts.append(part)
            if progress and (index + 1) % (10 if teacher == "best" else 500) == 0:
                print(f"  {first + index + 1}/{games} games, {sum(map(len, parts))} decisions, "
                      f"{time.monotonic() - started:.0f} s", flush=True)
    else:
        with Pool(jobs) as pool:
            parts = pool.map(_one, work, chunksize=1)
    return Decisions.join(parts)


def main(argv: Sequence[str] | None = None) -> None:
    """Generate the decisions and save them."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=100)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--jobs", type=int, default=1)
    parser.add_argument("--first", type=int, default=0, help="the first game (default 0)")
    parser.add_argument("--out", type=Path, default=Path("build/training/decisions.npz"))
    parser.add_argument("--follow", type=Path, default=None, metavar="WEIGHTS",
                        help="seat mostly this network, labelled by the search (DAgger)")
    arguments = parser.parse_args(argv)
    start = time.process_time()
    follow = arguments.follow is not None
    decisions = generate(arguments.games, arguments.seed, arguments.jobs, progress=True,
                         first=arguments.first, actors=FOLLOW_ACTORS if follow else ACTORS,
                         weights=arguments.follow)
    decisions.save(arguments.out)
    print(f"{len(decisions)} decisions of {arguments.games} games in {arguments.out}; "
          f"{time.process_time() - start:.0f} CPU s in this process")


if __name__ == "__main__":
    main()
